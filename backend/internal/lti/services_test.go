package lti_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
)

// signIn launches m and signs its person in.
func (f *fixture) signIn(m ltitest.Message) (domain.User, string, error) {
	f.t.Helper()
	l, err := f.launch(m)
	if err != nil {
		f.t.Fatalf("launch %+v: %v", m, err)
	}
	return f.svc.SignIn(ctx, l)
}

func TestSignInMapsRolesAndNeverRaisesOne(t *testing.T) {
	f := newFixture(t, true)
	ana, target, err := f.signIn(ltitest.Message{Sub: "s-ana", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	if ana.Role != domain.RoleStudent || ana.Mail != "ana.perez@utpl.edu.ec" || ana.DisplayName != "Ana Pérez" || ana.GivenName != "Ana" || target != lti.StudentHome {
		t.Fatalf("student = %+v, %s", ana, target)
	}
	// The same person again is the same profile, found by subject.
	again, _, err := f.signIn(ltitest.Message{Sub: "s-ana"})
	if err != nil || again.ID != ana.ID {
		t.Fatalf("second launch = %+v, %v", again, err)
	}
	docente, target, err := f.signIn(ltitest.Message{Sub: "s-docente", Context: course})
	if err != nil || docente.Role != domain.RoleTutor || target != lti.TutorHome {
		t.Fatalf("instructor = %+v, %s, %v", docente, target, err)
	}
	ayudante, _, err := f.signIn(ltitest.Message{Sub: "s-ayudante", Context: course})
	if err != nil || ayudante.Role != domain.RoleTutor {
		t.Fatalf("teaching assistant = %+v, %v", ayudante, err)
	}
	courses, err := f.svc.TutorCourses(ctx, docente)
	if err != nil || len(courses) != 1 || courses[0].Title != "Derecho Penal" || courses[0].Degree != "Derecho" {
		t.Fatalf("the instructor's courses = %+v, %v", courses, err)
	}
	if none, _ := f.svc.TutorCourses(ctx, ana); len(none) != 0 {
		t.Fatalf("a learner has no courses to load: %+v", none)
	}
	// A role outside learner and instructor is refused.
	if _, _, err := f.signIn(ltitest.Message{Sub: "s-otro", Context: course}); claimOf(err) != "https://purl.imsglobal.org/spec/lti/claim/roles" {
		t.Fatalf("mentor: %v", err)
	}
	// No email and no link: refused, nothing created.
	if _, _, err := f.signIn(ltitest.Message{Sub: "s-sin-correo", Context: course}); claimOf(err) != "email" {
		t.Fatalf("no email: %v", err)
	}

	// An existing student's profile stays a student when launched as an
	// instructor: a launch never raises a role.
	f.platform.AddUser(ltitest.User{Sub: "s-ana-docente", Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", Roles: []string{ltitest.RoleInstructor}})
	raised, _, err := f.signIn(ltitest.Message{Sub: "s-ana-docente", Context: course})
	if err != nil || raised.ID != ana.ID || raised.Role != domain.RoleStudent {
		t.Fatalf("student launched as instructor = %+v, %v", raised, err)
	}
	if got, _ := f.svc.TutorCourses(ctx, raised); len(got) != 0 {
		t.Fatalf("a student gets no course to load: %+v", got)
	}
	// A deep-linked resource opens the simulator in its mode and area.
	_, target, err = f.signIn(ltitest.Message{Sub: "s-luis", Context: course, Custom: map[string]string{"modo": "entrenamiento", "area": "Penal", "dificultad": "basico"}})
	if err != nil || target != "/test?area=Penal&carrera=Derecho&dificultad=basico&modo=entrenamiento" {
		t.Fatalf("deep-linked landing = %q, %v", target, err)
	}
}

func TestInstructorsAreRefusedWhenTheRegistrationDoesNotAllowTutors(t *testing.T) {
	f := newFixture(t, false)
	if _, _, err := f.signIn(ltitest.Message{Sub: "s-docente", Context: course}); claimOf(err) != "https://purl.imsglobal.org/spec/lti/claim/roles" {
		t.Fatalf("instructor without --allow-tutors: %v", err)
	}
	if _, err := f.store.GetUserByMail(ctx, "docente@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused launch created a profile: %v", err)
	}
	// An instructor who is also a learner comes in as a student.
	f.platform.AddUser(ltitest.User{Sub: "s-ambos", Email: "ambos@utpl.edu.ec", Name: "Ambos Roles", Roles: []string{ltitest.RoleInstructor, ltitest.RoleLearner}})
	u, _, err := f.signIn(ltitest.Message{Sub: "s-ambos", Context: course})
	if err != nil || u.Role != domain.RoleStudent {
		t.Fatalf("instructor and learner = %+v, %v", u, err)
	}
}

func TestHandoffCodesAreSingleUseAndShortLived(t *testing.T) {
	f := newFixture(t, true)
	ana, target, err := f.signIn(ltitest.Message{Sub: "s-ana", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	code, err := f.svc.NewHandoff(ctx, ana.ID, target)
	if err != nil {
		t.Fatal(err)
	}
	u, got, err := f.svc.TakeHandoff(ctx, code)
	if err != nil || u.ID != ana.ID || got != target {
		t.Fatalf("TakeHandoff = %+v, %q, %v", u, got, err)
	}
	if _, _, err := f.svc.TakeHandoff(ctx, code); claimOf(err) != "code" {
		t.Fatalf("code used twice: %v", err)
	}
	late, _ := f.svc.NewHandoff(ctx, ana.ID, target)
	f.clock.Advance(lti.HandoffLifetime)
	if _, _, err := f.svc.TakeHandoff(ctx, late); claimOf(err) != "code" {
		t.Fatalf("expired code: %v", err)
	}
}

// tutor signs the instructor in and returns the profile and its course id.
func (f *fixture) tutor() (domain.User, string) {
	f.t.Helper()
	u, _, err := f.signIn(ltitest.Message{Sub: "s-docente", Context: course})
	if err != nil {
		f.t.Fatal(err)
	}
	courses, err := f.svc.TutorCourses(ctx, u)
	if err != nil || len(courses) != 1 {
		f.t.Fatalf("courses = %+v, %v", courses, err)
	}
	return u, courses[0].ID
}

func TestGroupFromTheCourseRoster(t *testing.T) {
	f := newFixture(t, true)
	docente, courseID := f.tutor()

	// Another tutor cannot load a course they did not launch from.
	otro, _, err := f.signIn(ltitest.Message{Sub: "s-ayudante"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.LoadGroupFromCourse(ctx, otro, courseID, ""); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another tutor loading the course: %v", err)
	}
	if _, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, "Medicina"); err == nil || !strings.Contains(err.Error(), "Medicina") {
		t.Fatalf("unknown degree: %v", err)
	}

	// Three pages of two members; the instructors are not students; the
	// member without an email is left out and said so.
	res, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, "")
	if err != nil {
		t.Fatal(err)
	}
	g := res.Group
	if res.Skipped || g.Carrera != "derecho" || g.DocenteEmail != "docente@utpl.edu.ec" || len(g.Estudiantes) != 2 ||
		!g.HasStudent("ana.perez@utpl.edu.ec") || !g.HasStudent("luis.ruiz@utpl.edu.ec") {
		t.Fatalf("group = %+v", res)
	}
	if len(res.Omitted) != 1 || res.Omitted[0].Name != "Sin Correo" {
		t.Fatalf("omitted = %+v", res.Omitted)
	}
	pages := 0
	for _, r := range f.platform.Requests() {
		if strings.HasPrefix(r, "nrps ") {
			pages++
		}
	}
	if pages != 3 {
		t.Fatalf("read %d roster pages, want 3 (Link rel=next followed): %v", pages, f.platform.Requests())
	}
	gc, err := f.svc.ActiveGroupCourse(ctx, docente)
	if err != nil || gc == nil || gc.Course.ID != courseID || gc.Course.Title != "Derecho Penal" {
		t.Fatalf("the group remembers its course: %+v, %v", gc, err)
	}
	// Loading again while the group is active is skipped, as with a file.
	if again, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, ""); err != nil || !again.Skipped || again.Group.ID != g.ID {
		t.Fatalf("second load = %+v, %v", again, err)
	}

	// Nothing new: "Los estudiantes ya están en el grupo".
	_, err = f.svc.UpdateGroupFromCourse(ctx, docente)
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != groups.CodeAlreadyInGroup || ue.Message != groups.MsgAlreadyInGroup {
		t.Fatalf("update with nobody new: %v", err)
	}
	// One joins, one leaves: the new one is added, the one who left is
	// listed and stays.
	f.platform.AddUser(ltitest.User{Sub: "s-eva", Email: "eva@utpl.edu.ec", Name: "Eva Nueva", Roles: []string{ltitest.RoleLearner}})
	f.platform.Enroll(course, "s-eva")
	f.platform.Unenroll(course, "s-luis")
	up, err := f.svc.UpdateGroupFromCourse(ctx, docente)
	if err != nil {
		t.Fatal(err)
	}
	if up.Added != 1 || !up.Group.HasStudent("eva@utpl.edu.ec") || !up.Group.HasStudent("luis.ruiz@utpl.edu.ec") ||
		len(up.Left) != 1 || up.Left[0].Email != "luis.ruiz@utpl.edu.ec" {
		t.Fatalf("update = %+v", up)
	}
	f.platform.Unenroll(course, "s-ana")
	_, err = f.svc.UpdateGroupFromCourse(ctx, docente)
	if !errors.As(err, &ue) || ue.Code != groups.CodeAlreadyInGroup {
		t.Fatalf("update after a departure only: %v", err)
	}
	if d, ok := ue.Details.(lti.UpdateDetails); !ok || len(d.Left) != 2 {
		t.Fatalf("the departures are listed with the error: %+v", ue.Details)
	}
}

// gradedMock stores a finished, graded Simulacro of student in g.
func (f *fixture) gradedMock(g domain.Group, tutor, student domain.User, score float64, comment string) domain.Attempt {
	f.t.Helper()
	c := domain.Case{ID: domain.NewID(), DegreeID: "derecho", Area: "Penal", Title: "Caso " + domain.NewID()[:6], Facts: "Hechos.",
		Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Por qué?"}, KeyPoints: []string{"Punto"}, Status: domain.CaseActive,
		CreatedAt: f.clock.Now(), UpdatedAt: f.clock.Now()}
	if err := f.store.CreateCase(ctx, c); err != nil {
		f.t.Fatal(err)
	}
	a := domain.NewAttempt(domain.NewID(), student, c, domain.DefaultBlueprint("derecho"), domain.DefaultRubric("derecho"), domain.ModeMock, f.clock.Now())
	a.GroupID, a.TutorEmail, a.Status = g.ID, tutor.Mail, domain.AttemptFinished
	at := f.clock.Now()
	a.FinishedAt = &at
	a.Grade = &domain.TutorGrade{Score: score, Comments: comment, By: tutor.Mail, At: at}
	if err := f.store.CreateAttempt(ctx, a); err != nil {
		f.t.Fatal(err)
	}
	return a
}

func TestSimulacroGradesReachTheCourseGradebook(t *testing.T) {
	f := newFixture(t, true)
	docente, courseID := f.tutor()
	res, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, "Derecho")
	if err != nil {
		t.Fatal(err)
	}
	ana, _, err := f.signIn(ltitest.Message{Sub: "s-ana", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	// A Simulacro graded before the group has a column: not sendable yet.
	early := f.gradedMock(res.Group, docente, ana, 6.5, "Antes de la columna.")
	if st, _ := f.svc.ScoreStatus(ctx, docente, early.ID); st.State != lti.ScoreUnlinked {
		t.Fatalf("status before linking = %+v", st)
	}

	// The tutor picks a column the platform made, then creates the tool's.
	existing := f.platform.AddLineItem(course, "Examen parcial", 20)
	items, err := f.svc.LineItems(ctx, docente)
	if err != nil || len(items) != 1 || items[0].ID != existing.ID {
		t.Fatalf("line items = %+v, %v", items, err)
	}
	if link, err := f.svc.LinkColumn(ctx, docente, existing.ID); err != nil || link.LineItemLabel != "Examen parcial" {
		t.Fatalf("link = %+v, %v", link, err)
	}
	if _, err := f.svc.LinkColumn(ctx, docente, "https://otra.example/lineitems/1"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a column of another course: %v", err)
	}
	link, err := f.svc.CreateColumn(ctx, docente)
	if err != nil {
		t.Fatal(err)
	}
	cols := f.platform.LineItems(course)
	if len(cols) != 2 || cols[1].Label != "Simulacro oral" || cols[1].ScoreMaximum != 10 || link.LineItemURL != cols[1].ID {
		t.Fatalf("created column = %+v, link %+v", cols, link)
	}
	// Creating it again links the same column.
	if again, err := f.svc.CreateColumn(ctx, docente); err != nil || again.LineItemURL != link.LineItemURL || len(f.platform.LineItems(course)) != 2 {
		t.Fatalf("second creation = %+v, %v; columns %+v", again, err, f.platform.LineItems(course))
	}

	// The early grade shows as not sent, and is sent on request.
	if st, _ := f.svc.ScoreStatus(ctx, docente, early.ID); st.State != lti.ScoreUnsent || st.Column != "Simulacro oral" {
		t.Fatalf("status of a grade from before the column = %+v", st)
	}
	// Grading queues the publication; the worker sends it.
	graded := f.gradedMock(res.Group, docente, ana, 8.25, "Buena exposición; cite los artículos.")
	if err := f.svc.OnGraded(ctx, graded); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.svc.ScoreStatus(ctx, docente, graded.ID); st.State != lti.ScorePending {
		t.Fatalf("status after grading = %+v", st)
	}
	if worked, err := f.svc.RunOnce(ctx); !worked || err != nil {
		t.Fatalf("RunOnce = %v, %v", worked, err)
	}
	if st, _ := f.svc.ScoreStatus(ctx, docente, graded.ID); st.State != lti.ScoreSent {
		t.Fatalf("status after sending = %+v", st)
	}
	scores := f.platform.Scores()
	if len(scores) != 1 {
		t.Fatalf("scores = %+v", scores)
	}
	s := scores[0].Score
	if scores[0].LineItem != link.LineItemURL || s["userId"] != "s-ana" || s["scoreGiven"] != 8.25 || s["scoreMaximum"] != 10.0 ||
		s["activityProgress"] != "Completed" || s["gradingProgress"] != "FullyGraded" || s["comment"] != "Buena exposición; cite los artículos." {
		t.Fatalf("score = %+v", scores[0])
	}
	if ts, _ := time.Parse(time.RFC3339Nano, s["timestamp"].(string)); !ts.Equal(graded.Grade.At.Truncate(time.Millisecond)) {
		t.Fatalf("timestamp = %v, want the grade's time %v", s["timestamp"], graded.Grade.At)
	}
	f.clock.Advance(time.Second) // a later publication for the same student and column
	if _, err := f.svc.SendScore(ctx, docente, early.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if len(f.platform.Scores()) != 2 {
		t.Fatalf("the early grade was not sent: %+v", f.platform.Scores())
	}

	// Another tutor neither sees nor resends the attempt's status.
	otro, _, _ := f.signIn(ltitest.Message{Sub: "s-ayudante"})
	if _, err := f.svc.ScoreStatus(ctx, otro, graded.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another tutor's view: %v", err)
	}
	if _, err := f.svc.SendScore(ctx, otro, graded.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another tutor's resend: %v", err)
	}
	// A training attempt is never sent.
	training := f.gradedMock(res.Group, docente, ana, 9, "")
	training.Mode = domain.ModeTraining
	if err := f.svc.OnGraded(ctx, training); err != nil {
		t.Fatal(err)
	}
	if worked, _ := f.svc.RunOnce(ctx); worked {
		t.Fatal("a training grade was queued")
	}

	// A student the platform does not know: the job fails for good with
	// the reason, and the tutor can send it again once it is fixed.
	stranger := domain.User{ID: domain.NewID(), Mail: "desconocido@utpl.edu.ec", DisplayName: "Desconocido", Role: domain.RoleStudent, CreatedAt: f.clock.Now()}
	if err := f.store.CreateUser(ctx, stranger); err != nil {
		t.Fatal(err)
	}
	lost := f.gradedMock(res.Group, docente, stranger, 5, "")
	_ = f.svc.OnGraded(ctx, lost)
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	st, _ := f.svc.ScoreStatus(ctx, docente, lost.ID)
	if st.State != lti.ScoreFailed || !strings.Contains(st.Error, "no figura en el curso") {
		t.Fatalf("status of an unknown student = %+v", st)
	}
	f.platform.AddUser(ltitest.User{Sub: "s-desconocido", Email: "desconocido@utpl.edu.ec", Name: "Desconocido", Roles: []string{ltitest.RoleLearner}})
	f.platform.Enroll(course, "s-desconocido")
	if _, err := f.svc.UpdateGroupFromCourse(ctx, docente); err != nil && !strings.Contains(err.Error(), "ya están") {
		t.Fatal(err)
	}
	if st, err := f.svc.SendScore(ctx, docente, lost.ID); err != nil || st.State != lti.ScorePending || st.Error != "" {
		t.Fatalf("resend = %+v, %v", st, err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.svc.ScoreStatus(ctx, docente, lost.ID); st.State != lti.ScoreSent {
		t.Fatalf("after the resend = %+v", st)
	}

	// A regrade is a new publication; the old job does not send the old
	// grade over it.
	regraded := graded
	at := f.clock.Now().Add(time.Minute)
	regraded.Grade = &domain.TutorGrade{Score: 9.5, Comments: "Recalificado.", By: docente.Mail, At: at}
	a, _ := f.store.GetAttempt(ctx, graded.ID)
	a.Grade = regraded.Grade
	if err := f.store.UpdateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.OnGraded(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	last := f.platform.Scores()
	if got := last[len(last)-1].Score; got["scoreGiven"] != 9.5 || got["comment"] != "Recalificado." {
		t.Fatalf("regrade sent = %+v", got)
	}
}

func TestDeepLinkingRoundTrip(t *testing.T) {
	f := newFixture(t, false) // an instructor may add links even where tutors cannot sign in
	l, err := f.launch(ltitest.Message{Sub: "s-docente", Context: course, Type: ltitest.DeepLinking, Data: "opaco-123"})
	if err != nil {
		t.Fatal(err)
	}
	token, err := f.svc.StartDeepLink(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.FinishDeepLink(ctx, token, lti.DeepLinkChoice{Mode: "examen"}, f.toolURL); claimOf(err) != "modo" {
		t.Fatalf("unknown mode: %v", err)
	}
	resp, err := f.svc.FinishDeepLink(ctx, token, lti.DeepLinkChoice{Mode: "entrenamiento", Area: "Penal", Difficulty: "intermedio"}, f.toolURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.FinishDeepLink(ctx, token, lti.DeepLinkChoice{Mode: "simulacro"}, f.toolURL); claimOf(err) != "deep_link" {
		t.Fatalf("a deep link answered twice: %v", err)
	}
	// The browser posts the signed response to the platform, which
	// verifies it against the tool's published keys.
	res, err := http.PostForm(resp.ReturnURL, url.Values{"JWT": {resp.JWT}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the platform refused the response: %d", res.StatusCode)
	}
	got := f.platform.DeepLinks()
	if len(got) != 1 || got[0].Data != "opaco-123" || len(got[0].Items) != 1 {
		t.Fatalf("deep links = %+v", got)
	}
	item := got[0].Items[0]
	custom, _ := json.Marshal(item["custom"])
	if item["type"] != "ltiResourceLink" || item["url"] != f.toolURL+"/lti/launch" || item["title"] != "Simulador oral: Entrenamiento · Penal" ||
		string(custom) != `{"area":"Penal","dificultad":"intermedio","modo":"entrenamiento"}` {
		t.Fatalf("content item = %+v (custom %s)", item, custom)
	}
}

// A launch never opens a tutor's account that the platform is not trusted
// for: not by email (even an instructor's launch), not from a Learner
// launch through an existing link, not past the tutor's second factor,
// and not at all under TUTORS_REQUIRE_MICROSOFT.
func TestALaunchNeverOpensATutorsAccountItIsNotTrustedFor(t *testing.T) {
	f := newFixture(t, true)
	tutora := domain.User{ID: domain.NewID(), Mail: "tutora.mfa@utpl.edu.ec", DisplayName: "Tutora", Role: domain.RoleTutor, CreatedAt: f.clock.Now()}
	if err := f.store.CreateUser(ctx, tutora); err != nil {
		t.Fatal(err)
	}
	enabled := f.clock.Now()
	if err := f.store.PutMFA(ctx, domain.MFA{UserID: tutora.ID, Secret: "JBSWY3DPEHPK3PXP", EnabledAt: &enabled}); err != nil {
		t.Fatal(err)
	}
	provider := "lti:" + f.platform.Info().Issuer
	for _, roles := range [][]string{{ltitest.RoleLearner}, {ltitest.RoleInstructor}} {
		sub := "impostor-" + strings.Join(roles, "")
		f.platform.AddUser(ltitest.User{Sub: sub, Email: tutora.Mail, Name: "Impostora", Roles: roles})
		u, _, err := f.signIn(ltitest.Message{Sub: sub, Context: course})
		if claimOf(err) != "email" {
			t.Fatalf("launch %v with the tutor's email = %+v, %v; want a refusal", roles, u, err)
		}
		if _, err := f.store.UserByIdentity(ctx, provider, sub); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("the refused launch linked the tutor: %v", err)
		}
	}
	// A link made before (by an earlier version, or for a tutor made by a
	// launch) opens the tutor only for an instructor launch, and never
	// past the second factor.
	if err := f.store.LinkIdentity(ctx, domain.Identity{Provider: provider, Subject: "s-enlazada", UserID: tutora.ID}); err != nil {
		t.Fatal(err)
	}
	f.platform.AddUser(ltitest.User{Sub: "s-enlazada", Email: tutora.Mail, Name: "Tutora", Roles: []string{ltitest.RoleLearner}})
	if u, _, err := f.signIn(ltitest.Message{Sub: "s-enlazada", Context: course}); claimOf(err) != claim+"roles" {
		t.Fatalf("a Learner launch into a linked tutor = %+v, %v", u, err)
	}
	learnerMsg := ltitest.Message{Sub: "s-enlazada", Context: course, Set: map[string]any{claim + "roles": []string{ltitest.RoleInstructor}}}
	if u, _, err := f.signIn(learnerMsg); claimOf(err) != claim+"roles" {
		t.Fatalf("an instructor launch past the tutor's second factor = %+v, %v", u, err)
	}
	if err := f.store.DeleteMFA(ctx, tutora.ID); err != nil {
		t.Fatal(err)
	}
	if u, _, err := f.signIn(learnerMsg); err != nil || u.ID != tutora.ID {
		t.Fatalf("an instructor launch of a trusted platform into its linked tutor = %+v, %v", u, err)
	}

	// Under TUTORS_REQUIRE_MICROSOFT no launch opens or makes a tutor;
	// students launch as before.
	strict := lti.NewService(f.store, f.groups, lti.Options{Now: f.clock.Now, TutorsRequireMicrosoft: true})
	for _, m := range []ltitest.Message{learnerMsg, {Sub: "s-ayudante", Context: course}} {
		l, err := f.launch(m)
		if err != nil {
			t.Fatal(err)
		}
		if u, _, err := strict.SignIn(ctx, l); claimOf(err) != claim+"roles" {
			t.Fatalf("a tutor's launch under TUTORS_REQUIRE_MICROSOFT = %+v, %v", u, err)
		}
	}
	l, err := f.launch(ltitest.Message{Sub: "s-luis", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	if u, _, err := strict.SignIn(ctx, l); err != nil || u.Role != domain.RoleStudent {
		t.Fatalf("a student under TUTORS_REQUIRE_MICROSOFT = %+v, %v", u, err)
	}
}

// The tool asks the platform only for the service scopes the course's
// launches offered, and says in Spanish which one is missing.
func TestServiceCallsAskOnlyForTheOfferedScopes(t *testing.T) {
	f := newFixture(t, true)
	// The "query and add line items" claim of AGS: no lineitem.readonly.
	f.platform.OfferScopes(ltitest.ScopeLineItem, ltitest.ScopeResult, ltitest.ScopeScore)
	docente, courseID := f.tutor()
	if _, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, "Derecho"); err != nil {
		t.Fatal(err)
	}
	existing := f.platform.AddLineItem(course, "Examen parcial", 20)
	if items, err := f.svc.LineItems(ctx, docente); err != nil || len(items) != 1 || items[0].ID != existing.ID {
		t.Fatalf("columns with the lineitem scope only = %+v, %v", items, err)
	}
	if _, err := f.svc.CreateColumn(ctx, docente); err != nil {
		t.Fatalf("create a column with the lineitem scope only: %v", err)
	}
	// A course that offers only scores: the columns cannot be read.
	f.platform.OfferScopes(ltitest.ScopeScore)
	f.tutor()
	_, err := f.svc.LineItems(ctx, docente)
	var ue *domain.UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Message, "no permite que el simulador lea las columnas") {
		t.Fatalf("columns without a columns scope: %v", err)
	}
	// One that offers no score scope: a grade fails for good, saying why.
	f.platform.OfferScopes(ltitest.ScopeLineItem, ltitest.ScopeReadonly)
	f.tutor()
	group, err := f.groups.ActiveGroup(ctx, docente)
	if err != nil {
		t.Fatal(err)
	}
	ana, _, err := f.signIn(ltitest.Message{Sub: "s-ana", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	graded := f.gradedMock(group, docente, ana, 7, "")
	if err := f.svc.OnGraded(ctx, graded); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.svc.ScoreStatus(ctx, docente, graded.ID); st.State != lti.ScoreFailed || !strings.Contains(st.Error, "publicar notas (score)") {
		t.Fatalf("a grade without the score scope = %+v", st)
	}
}

// "Reenviar" of a grade the course already has posts it again with a
// later timestamp: platforms refuse a score that is not newer than the
// last one (Canvas answers 400).
func TestResendingADeliveredGradeIsStampedAnew(t *testing.T) {
	f := newFixture(t, true)
	docente, courseID := f.tutor()
	res, err := f.svc.LoadGroupFromCourse(ctx, docente, courseID, "Derecho")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateColumn(ctx, docente); err != nil {
		t.Fatal(err)
	}
	ana, _, err := f.signIn(ltitest.Message{Sub: "s-ana", Context: course})
	if err != nil {
		t.Fatal(err)
	}
	graded := f.gradedMock(res.Group, docente, ana, 8, "Bien.")
	if err := f.svc.OnGraded(ctx, graded); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Minute)
	if st, err := f.svc.SendScore(ctx, docente, graded.ID); err != nil || st.State != lti.ScorePending {
		t.Fatalf("resend = %+v, %v", st, err)
	}
	if _, err := f.svc.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.svc.ScoreStatus(ctx, docente, graded.ID); st.State != lti.ScoreSent {
		t.Fatalf("after the resend = %+v", st)
	}
	scores := f.platform.Scores()
	if len(scores) != 2 {
		t.Fatalf("scores = %+v", scores)
	}
	first, _ := time.Parse(time.RFC3339Nano, scores[0].Score["timestamp"].(string))
	second, _ := time.Parse(time.RFC3339Nano, scores[1].Score["timestamp"].(string))
	if !second.After(first) || first.Before(graded.Grade.At.Truncate(time.Millisecond)) {
		t.Fatalf("timestamps %v then %v (grade at %v)", first, second, graded.Grade.At)
	}
}
