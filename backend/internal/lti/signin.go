package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Landing pages of a launch.
const (
	StudentHome = "/auth/carreras"
	TutorHome   = "/admin/grupo"
)

// Custom parameters a resource link may carry (set by a deep link, or by
// an administrator on the tool in the platform).
const (
	CustomMode       = "modo"       // entrenamiento | simulacro
	CustomArea       = "area"       // an area of the case bank (entrenamiento)
	CustomDifficulty = "dificultad" // basico | intermedio | avanzado
	CustomDegree     = "carrera"    // a degree's name
)

// identityProvider names a platform's accounts in the identities store:
// the LTI subject is unique per issuer.
func identityProvider(issuer string) string { return "lti:" + issuer }

// mapRole turns the course roles of a launch into a role of the
// simulator: a learner is an estudiante; an instructor or teaching
// assistant is a tutor when the registration allows tutors, and is refused
// otherwise (unless also a learner). A launch with no role at all (an
// empty list, or only empty strings: LTI Core lets a platform send "a
// possibly empty array") is an estudiante, the role that grants nothing
// until a tutor adds the person to a group. Other roles alone (Mentor,
// ContentDeveloper, an administrator) are refused. teacher reports whether
// the launch made the person a tutor.
func mapRole(roles []string, allowTutors bool) (role domain.Role, teacher bool, err error) {
	var learner, instructor, named bool
	for _, r := range roles {
		r = strings.TrimSpace(r)
		if r != "" {
			named = true
		}
		switch {
		case r == roleLearner || r == "Learner" || strings.HasPrefix(r, roleLearnerSubRolePrefix):
			learner = true
		case r == roleInstructor || r == roleTeachingAssistant || r == "Instructor" || r == "TeachingAssistant" ||
			strings.HasPrefix(r, roleInstructorSubRolePrefix):
			instructor = true
		}
	}
	switch {
	case instructor && allowTutors:
		return domain.RoleTutor, true, nil
	case learner, !named:
		return domain.RoleStudent, false, nil
	case instructor:
		return "", false, refuse(claimRoles, "instructor or teaching assistant, and the registration does not allow tutors (--allow-tutors)",
			msgTutorsNotAllowed, http.StatusForbidden)
	}
	return "", false, refuse(claimRoles, fmt.Sprintf("no Learner, Instructor or TeachingAssistant role in %v", roles), msgNoRole, http.StatusForbidden)
}

// SignIn finds or creates the person of a resource link launch and
// returns the profile and the page to land on. The person is found by
// the platform's subject once linked, else by the launch's email (and
// then linked), else created with the mapped role. A launch never changes
// an existing profile's role. It also records the course and who the
// person is on the platform, for the roster and the grades.
//
// A tutor's profile is an account with powers over other people, so a
// launch opens one only when nothing weaker than the tutor's own sign-in
// gets in (mayOpenTutor): never found by email (a platform account that
// carries a tutor's address must not become that tutor), only through the
// platform's own link, only for an instructor launch of a registration
// trusted with tutors, and never past a second factor or
// TUTORS_REQUIRE_MICROSOFT.
func (s *Service) SignIn(ctx context.Context, l *Launch) (domain.User, string, error) {
	role, teacher, err := mapRole(l.Roles, l.Platform.AllowTutors)
	if err != nil {
		return domain.User{}, "", err
	}
	provider := identityProvider(l.Platform.Issuer)
	var u domain.User
	err = s.store.InTx(ctx, func(tx store.Store) error {
		u, err = tx.UserByIdentity(ctx, provider, l.Subject)
		if err == nil {
			return s.mayOpenTutor(ctx, tx, u, role)
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if !domain.ValidEmail(l.Email) {
			return refuse("email", fmt.Sprintf("no usable email claim (%q) and subject %q is not linked", l.Email, l.Subject), msgNoEmail, http.StatusForbidden)
		}
		u, err = tx.GetUserByMail(ctx, l.Email)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			u = s.profile(l, role)
			if err := s.mayOpenTutor(ctx, tx, u, role); err != nil {
				return err
			}
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
		case err != nil:
			return err
		case u.IsTutor():
			return refuse("email", fmt.Sprintf("the email of subject %q is a tutor's profile, which a launch never links by email", l.Subject),
				msgTutorByEmail, http.StatusForbidden)
		}
		return tx.LinkIdentity(ctx, domain.Identity{Provider: provider, Subject: l.Subject, UserID: u.ID})
	})
	if err != nil {
		return domain.User{}, "", err
	}
	now := s.now().UTC()
	subjects := []domain.LTISubject{{PlatformID: l.Platform.ID, Email: u.Mail, Subject: l.Subject, UpdatedAt: now}}
	if l.Email != "" && l.Email != u.Mail && domain.ValidEmail(l.Email) {
		subjects = append(subjects, domain.LTISubject{PlatformID: l.Platform.ID, Email: l.Email, Subject: l.Subject, UpdatedAt: now})
	}
	if err := s.store.PutLTISubjects(ctx, subjects); err != nil {
		return domain.User{}, "", err
	}
	if l.Context != nil {
		c, err := s.recordCourse(ctx, l)
		if err != nil {
			return domain.User{}, "", err
		}
		if teacher && u.IsTutor() {
			if err := s.store.LinkLTICourseTutor(ctx, c.ID, u.ID, now); err != nil {
				return domain.User{}, "", err
			}
		}
	}
	return u, landing(l.Custom, u), nil
}

// mayOpenTutor refuses a launch into tutor profile u unless the launch
// itself makes its person a tutor (an instructor role on a registration
// with --allow-tutors: a Learner launch never opens a tutor's account),
// tutors may sign in without Microsoft, and u has no second factor that
// the launch would skip. A student's profile is always open to its link.
func (s *Service) mayOpenTutor(ctx context.Context, st store.Store, u domain.User, role domain.Role) error {
	if !u.IsTutor() {
		return nil
	}
	switch {
	case role != domain.RoleTutor:
		return refuse(claimRoles, fmt.Sprintf("profile %s is a tutor's and the launch is not an instructor's of a registration that allows tutors", u.ID),
			msgTutorAccount, http.StatusForbidden)
	case s.tutorsRequireMicrosoft:
		return refuse(claimRoles, "tutors sign in with Microsoft only (TUTORS_REQUIRE_MICROSOFT)", msgTutorsMicrosoftOnly, http.StatusForbidden)
	}
	m, err := st.GetMFA(ctx, u.ID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return nil
	case err != nil:
		return err
	case m.Enabled():
		return refuse(claimRoles, fmt.Sprintf("tutor %s has two-step verification, which a launch cannot check", u.ID), msgTutorAccount, http.StatusForbidden)
	}
	return nil
}

func (s *Service) profile(l *Launch, role domain.Role) domain.User {
	given, surname := l.GivenName, l.FamilyName
	if given == "" && surname == "" {
		given, surname = domain.SplitName(l.Name)
	}
	display := l.Name
	if display == "" {
		display = strings.TrimSpace(given + " " + surname)
	}
	return domain.User{ID: domain.NewID(), Mail: l.Email, DisplayName: display, GivenName: given, Surname: surname, Role: role,
		CreatedAt: s.now().UTC()}
}

// recordCourse stores what the launch says about its course, keeping the
// degree a previous launch named when this one names none.
func (s *Service) recordCourse(ctx context.Context, l *Launch) (domain.LTICourse, error) {
	id := domain.LTICourseID(l.Platform.ID, l.Context.ID)
	c := domain.LTICourse{ID: id, PlatformID: l.Platform.ID, DeploymentID: l.DeploymentID, ContextID: l.Context.ID,
		Title: l.Context.Title, Label: l.Context.Label, MembershipsURL: l.Memberships, LineItemsURL: l.LineItems,
		ServiceScopes: l.GradeScopes, Degree: strings.TrimSpace(l.Custom[CustomDegree]), UpdatedAt: s.now().UTC()}
	if c.Title == "" {
		c.Title = c.Label
	}
	if old, err := s.store.GetLTICourse(ctx, id); err == nil && c.Degree == "" {
		c.Degree = old.Degree
	} else if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return c, err
	}
	return c, s.store.PutLTICourse(ctx, c)
}

// landing is the page a launch opens: the simulator with the mode and area
// of a deep link, else the person's home (a tutor's group, a student's
// degree).
func landing(custom map[string]string, u domain.User) string {
	mode := custom[CustomMode]
	if mode == string(domain.ModeTraining) || mode == string(domain.ModeMock) {
		q := url.Values{"modo": {mode}}
		for _, k := range []string{CustomArea, CustomDifficulty, CustomDegree} {
			if v := strings.TrimSpace(custom[k]); v != "" {
				q.Set(k, v)
			}
		}
		return "/test?" + q.Encode()
	}
	if u.IsTutor() {
		return TutorHome
	}
	return StudentHome
}

type handoffData struct {
	User   string `json:"u"`
	Target string `json:"t"`
}

// NewHandoff returns a one-time code that signs userID in, in a new tab,
// and opens target; it lives HandoffLifetime and is stored hashed.
func (s *Service) NewHandoff(ctx context.Context, userID, target string) (string, error) {
	code := randomToken()
	data, _ := json.Marshal(handoffData{User: userID, Target: target})
	err := s.store.PutLTIOnce(ctx, domain.LTIOnce{Kind: onceHandoff, Key: hashKey(code), Data: string(data),
		ExpiresAt: s.now().UTC().Add(HandoffLifetime)})
	return code, err
}

// TakeHandoff uses a code: the profile to sign in and the page to open.
func (s *Service) TakeHandoff(ctx context.Context, code string) (domain.User, string, error) {
	if code == "" {
		return domain.User{}, "", refuse("code", "no sign-in code", msgExpired, http.StatusBadRequest)
	}
	rec, err := s.store.TakeLTIOnce(ctx, onceHandoff, hashKey(code), s.now().UTC())
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, "", refuse("code", "unknown, used or expired sign-in code", msgExpired, http.StatusBadRequest)
	}
	if err != nil {
		return domain.User{}, "", err
	}
	var d handoffData
	if err := json.Unmarshal([]byte(rec.Data), &d); err != nil {
		return domain.User{}, "", fmt.Errorf("handoff record: %w", err)
	}
	u, err := s.store.GetUser(ctx, d.User)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, "", refuse("code", "the profile of the code is gone", msgExpired, http.StatusBadRequest)
	}
	return u, d.Target, err
}

// SafeTarget is t when it is a path of this site, else the student home:
// a landing page never leaves the site.
func SafeTarget(t string) string {
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") || strings.ContainsAny(t, "\\\r\n") {
		return StudentHome
	}
	return t
}
