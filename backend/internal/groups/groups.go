// Package groups owns tutors' groups of students: loading a group from a
// roster, adding students, finalizing, and the membership that opens the
// simulator to a student (docs/product.md, "The group").
package groups

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/roster"
	"github.com/utpl/simulador/backend/internal/store"
)

// Error codes and the dialog texts that must not change (docs/product.md).
const (
	CodeNoActiveGroup  = "no_active_group"
	CodeAlreadyInGroup = "students_already_in_group"
	CodeInvalidRoster  = "invalid_roster"
	CodeInvalidEmails  = "invalid_emails"
	// CodeInOtherGroup refuses students who are members of another
	// tutor's active group (a student is in at most one active group).
	CodeInOtherGroup      = "students_in_other_group"
	CodeGroupFull         = "group_full"
	CodeStudentNotInGroup = "student_not_in_group"
	MsgNoActiveGroup      = "No hay grupo activo"
	MsgAlreadyInGroup     = "Los estudiantes ya están en el grupo"
	// MsgStudentWithoutGroup tells a student in no active group why
	// practice and tests are refused (package exams and the API's access
	// rules both say it).
	MsgStudentWithoutGroup = "No pertenece a un grupo activo. Solicite a su tutor que lo agregue."
	msgInvalidRoster       = "El archivo tiene errores. Corríjalos y vuelva a cargarlo; no se guardó nada."
	msgInvalidEmails       = "Hay correos no válidos. Corríjalos; no se agregó ningún estudiante."
	maxPastedEmails        = roster.MaxRows
	// MaxGroupStudents is how many students a group may hold: the largest
	// roster a tutor can load.
	MaxGroupStudents     = roster.MaxRows
	searchResultsLimit   = 20
	searchQueryMinLength = 2
)

// Service applies the group rules.
type Service struct {
	store   store.Store
	log     *slog.Logger
	now     func() time.Time
	members *memberCache
}

// NewService returns the groups service.
func NewService(s store.Store) *Service {
	return &Service{store: s, log: slog.Default(), now: time.Now, members: newMemberCache()}
}

// CanEnterTest reports whether u may use the simulator (/test): a tutor, or a
// student listed in an active group (by email, case-insensitively). It runs
// on every session check, so it is one indexed lookup that reads no roster.
func (s *Service) CanEnterTest(ctx context.Context, u domain.User) (bool, error) {
	if u.IsTutor() {
		return true, nil
	}
	if member, ok := s.members.get(u.Mail); ok {
		return member, nil
	}
	asked := time.Now()
	member, err := s.store.IsActiveGroupMember(ctx, u.Mail)
	if err == nil {
		s.members.put(u.Mail, member, asked)
	}
	return member, err
}

// ActiveGroupOf returns the active group a student is a member of (at most
// one), without its students: callers need only the group's id, degree and
// tutor. domain.ErrNotFound when there is none.
func (s *Service) ActiveGroupOf(ctx context.Context, studentEmail string) (domain.Group, error) {
	return s.store.ActiveGroupOfStudent(ctx, studentEmail)
}

// LoadResult is the outcome of loading a roster.
type LoadResult struct {
	Group domain.Group
	// Skipped is true when the tutor already had an active group: the load is
	// skipped silently and the current group kept (one active group per tutor).
	Skipped bool
}

// LoadGroup creates the tutor's active group from a roster file. The whole
// file is validated first; any problem (with its row and column) means
// nothing is written.
func (s *Service) LoadGroup(ctx context.Context, tutor domain.User, file io.Reader, filename string) (LoadResult, error) {
	defer s.members.clear()
	if g, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail); err == nil {
		return LoadResult{Group: g, Skipped: true}, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return LoadResult{}, err
	}
	if err := s.checkGroupsPerDay(ctx, tutor); err != nil {
		return LoadResult{}, err
	}
	check, degree, err := s.degreeCheck(ctx, "")
	if err != nil {
		return LoadResult{}, err
	}
	rows, err := roster.ParseChecked(file, filename, check)
	if err != nil {
		return LoadResult{}, rosterError(err)
	}
	g := domain.Group{
		ID:           domain.NewID(),
		Carrera:      degree.ID,
		Departamento: firstNonEmpty(rows, func(r roster.Row) string { return r.Department }),
		Facultad:     firstNonEmpty(rows, func(r roster.Row) string { return r.Faculty }),
		Modalidad:    firstNonEmpty(rows, func(r roster.Row) string { return r.Modality }),
		DocenteEmail: tutor.Mail,
		Status:       domain.GroupActive,
		CreatedAt:    s.now().UTC(),
		Estudiantes:  studentsFrom(rows, s.now().UTC()),
	}
	if err := s.store.CreateGroup(ctx, g); err != nil {
		var taken *store.MembersTakenError
		if errors.As(err, &taken) {
			return LoadResult{}, inOtherGroup(taken, rowsByEmail(rows), msgInOtherGroupLoad)
		}
		if errors.Is(err, domain.ErrConflict) {
			// Another request created the tutor's group in between: the
			// database kept exactly one, and this load is skipped.
			current, gerr := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
			if gerr != nil {
				return LoadResult{}, gerr
			}
			return LoadResult{Group: current, Skipped: true}, nil
		}
		return LoadResult{}, err
	}
	created, err := s.store.GetGroup(ctx, g.ID)
	return LoadResult{Group: created}, err
}

// MaxGroupsPerDay is how many groups a tutor may load in 24 hours: loading
// and finalizing in a loop would otherwise write a roster's rows each time.
const MaxGroupsPerDay = 20

func (s *Service) checkGroupsPerDay(ctx context.Context, tutor domain.User) error {
	all, err := s.store.ListGroupsByTutor(ctx, tutor.Mail) // newest first
	if err != nil || len(all) < MaxGroupsPerDay {
		return err
	}
	if oldest := all[MaxGroupsPerDay-1].CreatedAt; oldest.After(s.now().Add(-24 * time.Hour)) {
		return &domain.UserError{Kind: domain.ErrTooManyRequests, Code: "too_many_groups",
			Message: fmt.Sprintf("Ya cargó %d grupos en las últimas 24 horas, el máximo permitido. Intente más tarde.", MaxGroupsPerDay),
			Details: map[string]int{"retryAfterSeconds": int(oldest.Add(24*time.Hour).Sub(s.now()) / time.Second)}}
	}
	return nil
}

// LoadGroupFromList creates the tutor's active group from students read
// elsewhere (a course's roster), with the rules of LoadGroup: a tutor who
// has an active group keeps it (Skipped), the degree is looked up by name
// (ignoring case, accents and spacing), and the list has at most as many
// students as a roster file. Students are keyed by normalised email;
// duplicates keep the first.
func (s *Service) LoadGroupFromList(ctx context.Context, tutor domain.User, degreeName string, students []domain.GroupStudent) (LoadResult, error) {
	if g, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail); err == nil {
		return LoadResult{Group: g, Skipped: true}, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return LoadResult{}, err
	}
	if err := s.checkGroupsPerDay(ctx, tutor); err != nil {
		return LoadResult{}, err
	}
	degree, err := s.DegreeByName(ctx, degreeName)
	if err != nil {
		return LoadResult{}, err
	}
	switch {
	case len(students) == 0:
		return LoadResult{}, domain.Invalid("empty_roster", "La lista no tiene estudiantes con correo: no se creó el grupo.")
	case len(students) > roster.MaxRows:
		return LoadResult{}, domain.Invalid("roster_too_long", fmt.Sprintf("La lista tiene más de %d estudiantes: no se creó el grupo.", roster.MaxRows))
	}
	now := s.now().UTC()
	seen := make(map[string]bool, len(students))
	list := make([]domain.GroupStudent, 0, len(students))
	for _, st := range students {
		st.Email = domain.NormalizeEmail(st.Email)
		if !seen[st.Email] {
			seen[st.Email] = true
			st.AddedAt = now
			list = append(list, st)
		}
	}
	g := domain.Group{ID: domain.NewID(), Carrera: degree.ID, DocenteEmail: tutor.Mail, Status: domain.GroupActive, CreatedAt: now, Estudiantes: list}
	if err := s.store.CreateGroup(ctx, g); err != nil {
		var taken *store.MembersTakenError
		if errors.As(err, &taken) {
			return LoadResult{}, inOtherGroup(taken, nil, msgInOtherGroupLoad)
		}
		if errors.Is(err, domain.ErrConflict) {
			current, gerr := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
			if gerr != nil {
				return LoadResult{}, gerr
			}
			return LoadResult{Group: current, Skipped: true}, nil
		}
		return LoadResult{}, err
	}
	created, err := s.store.GetGroup(ctx, g.ID)
	return LoadResult{Group: created}, err
}

// DegreeByName finds a degree by name as a roster's degree column is
// read (ignoring case, accents and spacing); a Spanish error names it when
// there is none.
func (s *Service) DegreeByName(ctx context.Context, name string) (domain.Degree, error) {
	if strings.TrimSpace(name) == "" {
		return domain.Degree{}, domain.Invalid("unknown_degree", "Elija la carrera del grupo.")
	}
	check, degree, err := s.degreeCheck(ctx, "")
	if err != nil {
		return domain.Degree{}, err
	}
	if msg := check(name); msg != "" {
		return domain.Degree{}, domain.Invalid("unknown_degree", msg)
	}
	return *degree, nil
}

// degreeCheck returns a roster check that looks each row's degree up by name
// (ignoring case, accents and spacing) and requires one degree for all rows:
// groupDegree's when given (adding to a group), else the first row's (loading
// one). After a successful parse, *found is that degree.
func (s *Service) degreeCheck(ctx context.Context, groupDegree string) (roster.DegreeCheck, *domain.Degree, error) {
	all, err := s.store.ListDegrees(ctx)
	if err != nil {
		return nil, nil, err
	}
	byKey := make(map[string]domain.Degree, len(all))
	found := &domain.Degree{}
	for _, d := range all {
		byKey[domain.FoldName(d.Nombre)] = d
		if d.ID == groupDegree {
			*found = d
		}
	}
	if groupDegree != "" && found.ID == "" {
		return nil, nil, fmt.Errorf("group degree %q not found", groupDegree)
	}
	check := func(name string) string {
		d, ok := byKey[domain.FoldName(name)]
		switch {
		case !ok:
			return fmt.Sprintf("La carrera «%s» no existe.", name)
		case found.ID == "":
			*found = d
		case d.ID != found.ID && groupDegree != "":
			return fmt.Sprintf("La carrera «%s» no es la del grupo activo («%s»).", name, found.Nombre)
		case d.ID != found.ID:
			return fmt.Sprintf("Todas las filas deben tener la misma carrera: se esperaba «%s» y se encontró «%s».", found.Nombre, name)
		}
		return ""
	}
	return check, found, nil
}

// AddInput says which students to add: rows of a roster file, emails
// (pasted or picked among registered students), or students read from a
// course (Students, already checked).
type AddInput struct {
	File     io.Reader
	Filename string
	Emails   []string
	Students []domain.GroupStudent
}

// AddResult reports how many students were added.
type AddResult struct {
	Added int
	Group domain.Group
}

// AddStudents appends students to the tutor's active group, each with an
// empty attempts list; students already in it are filtered out, and when
// none remain the error "Los estudiantes ya están en el grupo" is returned.
func (s *Service) AddStudents(ctx context.Context, tutor domain.User, in AddInput) (AddResult, error) {
	defer s.members.clear()
	g, err := s.activeGroup(ctx, tutor)
	if err != nil {
		return AddResult{}, err
	}
	now := s.now().UTC()
	var candidates []domain.GroupStudent
	var lines map[string]int // a roster's row of each email
	if in.File != nil {
		check, _, err := s.degreeCheck(ctx, g.Carrera)
		if err != nil {
			return AddResult{}, err
		}
		rows, err := roster.ParseChecked(in.File, in.Filename, check)
		if err != nil {
			return AddResult{}, rosterError(err)
		}
		candidates = studentsFrom(rows, now)
		lines = rowsByEmail(rows)
	} else if in.Students != nil {
		candidates = in.Students
	} else {
		candidates, err = studentsFromEmails(in.Emails, now)
		if err != nil {
			return AddResult{}, err
		}
	}
	var fresh []domain.GroupStudent
	for _, c := range candidates {
		if !g.HasStudent(c.Email) {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) == 0 {
		return AddResult{}, domain.Conflict(CodeAlreadyInGroup, MsgAlreadyInGroup)
	}
	if n := len(g.Estudiantes) + len(fresh); n > MaxGroupStudents {
		return AddResult{}, domain.Conflict(CodeGroupFull, fmt.Sprintf(
			"Un grupo puede tener hasta %d estudiantes: tiene %d y se agregarían %d. No se agregó ningún estudiante.", MaxGroupStudents, len(g.Estudiantes), len(fresh)))
	}
	added, err := s.store.AddGroupStudents(ctx, g.ID, fresh)
	var taken *store.MembersTakenError
	if errors.As(err, &taken) {
		return AddResult{}, inOtherGroup(taken, lines, msgInOtherGroupAdd)
	}
	if errors.Is(err, domain.ErrNotFound) { // finalized since it was read
		return AddResult{}, noActiveGroup()
	}
	if err != nil {
		return AddResult{}, err
	}
	if added == 0 { // all of them were added by a concurrent request
		return AddResult{}, domain.Conflict(CodeAlreadyInGroup, MsgAlreadyInGroup)
	}
	updated, err := s.store.GetGroup(ctx, g.ID)
	return AddResult{Added: added, Group: updated}, err
}

// RemoveStudent takes one student out of the tutor's active group. They
// lose access to the simulator at once (unless another tutor adds them
// later); their attempts keep the group they were made in, so the tutor
// still sees and grades them.
func (s *Service) RemoveStudent(ctx context.Context, tutor domain.User, email string) (domain.Group, error) {
	defer s.members.clear()
	g, err := s.activeGroup(ctx, tutor)
	if err != nil {
		return domain.Group{}, err
	}
	email = domain.NormalizeEmail(email)
	notInGroup := domain.NotFound(CodeStudentNotInGroup, "El estudiante no está en el grupo.")
	if !g.HasStudent(email) {
		return domain.Group{}, notInGroup
	}
	if err := s.store.RemoveGroupStudent(ctx, g.ID, email); errors.Is(err, domain.ErrNotFound) {
		// Finalized, or the student removed, since the group was read.
		if _, err := s.activeGroup(ctx, tutor); err != nil {
			return domain.Group{}, err
		}
		return domain.Group{}, notInGroup
	} else if err != nil {
		return domain.Group{}, err
	}
	return s.store.GetGroup(ctx, g.ID)
}

// Finalize sets the tutor's active group to finalizado: its students lose
// access to the simulator at once, and the group stays as read-only history.
func (s *Service) Finalize(ctx context.Context, tutor domain.User) (domain.Group, error) {
	defer s.members.clear()
	g, err := s.activeGroup(ctx, tutor)
	if err != nil {
		return domain.Group{}, err
	}
	if err := s.store.FinalizeGroup(ctx, g.ID, s.now().UTC()); err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Group{}, noActiveGroup()
		}
		return domain.Group{}, err
	}
	return s.store.GetGroup(ctx, g.ID)
}

// ActiveGroup returns the tutor's active group; the error "No hay grupo
// activo" when there is none.
func (s *Service) ActiveGroup(ctx context.Context, tutor domain.User) (domain.Group, error) {
	return s.activeGroup(ctx, tutor)
}

func (s *Service) activeGroup(ctx context.Context, tutor domain.User) (domain.Group, error) {
	g, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
	if errors.Is(err, domain.ErrNotFound) {
		return g, noActiveGroup()
	}
	return g, err
}

func noActiveGroup() error { return domain.NotFound(CodeNoActiveGroup, MsgNoActiveGroup) }

// History returns all the tutor's groups, newest first.
func (s *Service) History(ctx context.Context, tutor domain.User) ([]domain.Group, error) {
	return s.store.ListGroupsByTutor(ctx, tutor.Mail)
}

// Group returns one of the tutor's groups; another tutor's group is not
// found, so its existence is not revealed.
func (s *Service) Group(ctx context.Context, tutor domain.User, id string) (domain.Group, error) {
	g, err := s.store.GetGroup(ctx, id)
	if err != nil {
		return g, err
	}
	if g.DocenteEmail != tutor.Mail {
		return domain.Group{}, domain.Hide(domain.ErrNotFound)
	}
	return g, nil
}

// Member is a group student with what their profile says about them.
type Member struct {
	domain.GroupStudent
	User *domain.User // nil when no profile has this email, or when the lookup failed
}

// SignedIn reports whether the student has ever signed in; a profile made
// ahead of time (from the terminal, or linked by a tutor) is not enough.
func (m Member) SignedIn() bool { return m.User != nil && !m.User.LastLoginAt.IsZero() }

// Members returns the group's students with their profiles, found by one
// "mail in [...]" lookup. If that lookup fails, no member has a User and
// infoUnavailable is true: the student list then shows the emails alone
// (docs/product.md, "The group"), with names and sign-ins unknown rather
// than "no".
func (s *Service) Members(ctx context.Context, g domain.Group) (members []Member, infoUnavailable bool) {
	emails := make([]string, len(g.Estudiantes))
	for i, st := range g.Estudiantes {
		emails[i] = st.Email
	}
	members = make([]Member, len(g.Estudiantes))
	for i, st := range g.Estudiantes {
		members[i] = Member{GroupStudent: st}
	}
	users, err := s.store.ListUsersByMail(ctx, emails)
	if err != nil {
		s.log.Warn("student info lookup failed; showing emails only", "group", g.ID, "err", err)
		return members, true
	}
	byMail := make(map[string]domain.User, len(users))
	for _, u := range users {
		byMail[u.Mail] = u
	}
	for i := range members {
		if u, ok := byMail[members[i].Email]; ok {
			members[i].User = &u
		}
	}
	return members, false
}

// SearchStudents finds registered users with role estudiante whose name or
// email contains q, leaving out those already in the tutor's active group.
func (s *Service) SearchStudents(ctx context.Context, tutor domain.User, q string) ([]domain.User, error) {
	q = domain.FoldName(q)
	if len([]rune(q)) < searchQueryMinLength {
		return []domain.User{}, nil
	}
	all, err := s.store.ListUsersByRole(ctx, domain.RoleStudent)
	if err != nil {
		return nil, err
	}
	active, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return nil, err
	}
	out := []domain.User{}
	for _, u := range all {
		if active.HasStudent(u.Mail) {
			continue
		}
		if strings.Contains(domain.FoldName(u.Mail), q) || strings.Contains(domain.FoldName(u.DisplayName), q) {
			out = append(out, u)
			if len(out) == searchResultsLimit {
				break
			}
		}
	}
	return out, nil
}

const (
	msgInOtherGroupLoad = "Hay estudiantes que ya pertenecen al grupo activo de otro docente. Quítelos del archivo y vuelva a cargarlo; no se guardó nada."
	msgInOtherGroupAdd  = "Hay estudiantes que ya pertenecen al grupo activo de otro docente; no se agregó ningún estudiante."
)

// inOtherGroup lists the refused students, by their roster row when there
// is one. It never names the other group or its tutor.
func inOtherGroup(taken *store.MembersTakenError, lines map[string]int, message string) error {
	problems := make([]roster.Problem, 0, min(len(taken.Emails), roster.MaxProblems+1))
	for i, e := range taken.Emails {
		if i == roster.MaxProblems {
			problems = append(problems, roster.Problem{Message: fmt.Sprintf("Y %d estudiante(s) más en la misma situación.", len(taken.Emails)-i)})
			break
		}
		problems = append(problems, roster.Problem{Row: lines[e], Message: fmt.Sprintf("El estudiante «%s» ya pertenece al grupo activo de otro docente.", e)})
	}
	return &domain.UserError{Kind: domain.ErrConflict, Code: CodeInOtherGroup, Message: message, Details: problems}
}

// rowsByEmail maps each email of a roster to its first row.
func rowsByEmail(rows []roster.Row) map[string]int {
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		if _, ok := out[r.Email]; !ok {
			out[r.Email] = r.Line
		}
	}
	return out
}

func rosterError(err error) error {
	var re *roster.Error
	if errors.As(err, &re) {
		return &domain.UserError{Code: CodeInvalidRoster, Message: msgInvalidRoster, Details: re.Problems}
	}
	return err
}

func studentsFrom(rows []roster.Row, now time.Time) []domain.GroupStudent {
	out := make([]domain.GroupStudent, len(rows))
	for i, r := range rows {
		out[i] = domain.GroupStudent{Email: r.Email, Name: r.Name, AddedAt: now}
	}
	return out
}

// studentsFromEmails validates pasted or picked emails; duplicates collapse.
func studentsFromEmails(emails []string, now time.Time) ([]domain.GroupStudent, error) {
	if len(emails) > maxPastedEmails {
		return nil, domain.Invalid(CodeInvalidEmails, fmt.Sprintf("Puede agregar hasta %d correos a la vez.", maxPastedEmails))
	}
	seen := map[string]bool{}
	var out []domain.GroupStudent
	var problems []roster.Problem
	for i, raw := range emails {
		e := domain.NormalizeEmail(raw)
		if e == "" || seen[e] {
			continue
		}
		seen[e] = true
		if !domain.ValidEmail(e) {
			problems = append(problems, roster.Problem{Row: i + 1, Column: "correo", Message: fmt.Sprintf("El correo «%s» no es válido.", raw)})
			continue
		}
		out = append(out, domain.GroupStudent{Email: e, AddedAt: now})
	}
	if len(problems) > 0 {
		if len(problems) > roster.MaxProblems {
			problems = problems[:roster.MaxProblems]
		}
		return nil, &domain.UserError{Code: CodeInvalidEmails, Message: msgInvalidEmails, Details: problems}
	}
	if len(out) == 0 {
		return nil, domain.Invalid(CodeInvalidEmails, "Ingrese al menos un correo.")
	}
	return out, nil
}

func firstNonEmpty(rows []roster.Row, field func(roster.Row) string) string {
	for _, r := range rows {
		if v := field(r); v != "" {
			return v
		}
	}
	return ""
}
