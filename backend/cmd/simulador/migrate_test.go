package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pquerna/otp/totp"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/store/postgres"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
)

const pilotPassword = "clave-del-piloto-2026"

// pilot is a dataset as a pilot on one machine leaves it, made through the
// services: what a migration must carry over and what must still work
// after it.
type pilot struct {
	dir        string
	tutor      domain.User
	students   []domain.User
	recordings map[string][]byte // media key → the audio a listener gets (up to the first gap)
	// openChunks are the media keys of recordings stored as chunks (not
	// composed); one has a gap.
	openChunks []string
	records    int // records of every kind
	groupID    string
	// storage is each student's storage total (bytes of their chunks).
	storage map[string]int64
	// The tutor's second factor: the TOTP secret their phone holds and a
	// recovery code on paper.
	totpSecret, recoveryCode string

	// LTI: a platform (an LMS) the tool is registered with, the tool's key
	// set as the platform saw it, and the column the group's grades go to.
	platform *ltitest.Platform
	toolURL  string
	toolKeys atomic.Pointer[lti.Keys] // whose keys the tool's /lti/jwks serves
	jwks     string
	column   ltitest.LineItem
}

// The LTI course the pilot's group is linked to, and who launches from it.
const (
	pilotCourse  = "curso-complexivo"
	tutorSubject = "s-tutora"
	anaSubject   = "s-ana"
)

// newPilot fills DATA_DIR (SQLite and DATA_DIR/media) with users who sign
// in with a password (one also with a Microsoft account, the tutor also
// with a TOTP code), a group, the demo case bank and a case of its own, a
// finished and graded mock exam with composed takes, a training attempt in
// progress with takes still uploading (one with a gap), a deleted take,
// transcripts (browser and corrected) and a pending transcription job; and
// LTI: the tool's signing keys (one retired by a rotation, still
// published), a registered platform the tutor and a student launched from,
// the group linked to the course and a column, and the mock exam's grade
// waiting to be sent to it.
func newPilot(t testing.TB) *pilot {
	t.Helper()
	ctx := context.Background()
	p := &pilot{dir: cliEnv(t), recordings: map[string][]byte{}, storage: map[string]int64{}}
	a, err := newApp(ctx, io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()

	p.tutor, err = a.auth.CreateUser(ctx, "tutora.piloto@utpl.edu.ec", pilotPassword, domain.RoleTutor, "Tania Ruiz Loaiza")
	if err != nil {
		t.Fatal(err)
	}
	setup, err := a.auth.StartTOTP(ctx, p.tutor, pilotPassword)
	if err != nil {
		t.Fatal(err)
	}
	code, err := totp.GenerateCode(setup.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	recovery, err := a.auth.ConfirmTOTP(ctx, p.tutor, code)
	if err != nil {
		t.Fatal(err)
	}
	p.totpSecret, p.recoveryCode = setup.Secret, recovery[0]
	for _, m := range []string{"ana.estudiante@utpl.edu.ec", "luis.estudiante@utpl.edu.ec", "sin.intentos@utpl.edu.ec"} {
		u, err := a.auth.CreateUser(ctx, m, pilotPassword, domain.RoleStudent, "Estudiante "+m[:4])
		if err != nil {
			t.Fatal(err)
		}
		p.students = append(p.students, u)
	}
	if err := a.store.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: "00000000-entra-sub", UserID: p.students[0].ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.catalog.ImportCases(ctx, strings.NewReader(validCaseJSON), "caso.json"); err != nil {
		t.Fatal(err)
	}
	g := domain.Group{ID: domain.NewID(), Carrera: "derecho", Departamento: "Ciencias Jurídicas", Facultad: "Ciencias Sociales",
		Modalidad: "Distancia", DocenteEmail: p.tutor.Mail, Status: domain.GroupActive, CreatedAt: time.Now().UTC()}
	for _, s := range p.students {
		g.Estudiantes = append(g.Estudiantes, domain.GroupStudent{Email: s.Mail, Name: s.DisplayName, AddedAt: time.Now().UTC()})
	}
	if err := a.store.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	p.groupID = g.ID
	p.setUpLTI(t, a)
	bp := domain.DefaultBlueprint("derecho")
	bp.ClosingSec = 90
	if err := a.store.PutBlueprint(ctx, bp, time.Now()); err != nil {
		t.Fatal(err)
	}
	rubric := domain.DefaultRubric("derecho")
	rubric.Version, rubric.PassScore = 2, 7.5
	if err := a.store.PutRubric(ctx, rubric, time.Now()); err != nil {
		t.Fatal(err)
	}

	// A mock exam: two composed takes, then self-assessed and graded.
	ana, luis := p.students[0], p.students[1]
	mock, _, _, err := a.exams.Start(ctx, ana, exams.StartRequest{Mode: domain.ModeMock})
	if err != nil {
		t.Fatal(err)
	}
	if mock, err = a.exams.Advance(ctx, ana, mock.ID, 0); err != nil {
		t.Fatal(err)
	}
	p.take(t, a, ana, mock.ID, "toma-presentacion-1", 1, 5, true)
	p.take(t, a, ana, mock.ID, "toma-borrada-0001", 1, 2, true)
	if err := a.exams.DeleteRecording(ctx, ana, mock.ID, "toma-borrada-0001"); err != nil {
		t.Fatal(err)
	}
	delete(p.recordings, mock.ID+"/toma-borrada-0001")
	if mock, err = a.exams.Advance(ctx, ana, mock.ID, 1); err != nil {
		t.Fatal(err)
	}
	if mock, err = a.exams.Advance(ctx, ana, mock.ID, 2); err != nil {
		t.Fatal(err)
	}
	p.take(t, a, ana, mock.ID, "toma-respuesta-01", 3, 40, true) // two compose levels in a bucket
	for mock.Phases[mock.Current()].Kind != domain.PhaseSelfAssessment {
		if mock, err = a.exams.Advance(ctx, ana, mock.ID, mock.Current()); err != nil {
			t.Fatal(err)
		}
	}
	levels := domain.Levels{}
	for _, c := range mock.Rubric.Criteria {
		levels[c.ID] = 3
	}
	if mock, err = a.exams.SelfAssess(ctx, ana, mock.ID, levels); err != nil {
		t.Fatal(err)
	}
	if _, err := a.feedback.SaveTranscript(ctx, ana, mock, "toma-presentacion-1", domain.TranscriptBrowser, "es-EC",
		[]domain.Segment{{StartMs: 0, EndMs: 2000, Text: "Señores miembros del tribunal"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.feedback.SaveTranscript(ctx, p.tutor, mock, "toma-respuesta-01", domain.TranscriptEdited, "es-EC",
		[]domain.Segment{{StartMs: 0, EndMs: 3000, Text: "Según el artículo 76 de la Constitución"}}); err != nil {
		t.Fatal(err)
	}
	levels[mock.Rubric.Criteria[0].ID] = 4
	if _, err := a.exams.Grade(ctx, p.tutor, mock.ID, levels, "Buena estructura; cite la norma exacta."); err != nil {
		t.Fatal(err)
	}

	// A training attempt in progress: takes still uploading.
	training, _, _, err := a.exams.Start(ctx, luis, exams.StartRequest{Mode: domain.ModeTraining})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.exams.Advance(ctx, luis, training.ID, 0); err != nil {
		t.Fatal(err)
	}
	p.take(t, a, luis, training.ID, "toma-en-curso-01", 1, 3, false)
	p.take(t, a, luis, training.ID, "toma-con-hueco-1", 1, 5, false, 2) // chunk 2 never arrived
	if err := a.store.EnqueueJob(ctx, domain.Job{ID: domain.NewID(), Kind: "transcribe", Subject: domain.RecordingSubject(mock.ID, "toma-presentacion-1"),
		Payload: fmt.Sprintf(`{"attemptId":%q,"recordingId":"toma-presentacion-1"}`, mock.ID), NextRunAt: time.Now(), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	for _, s := range p.students {
		if p.storage[s.ID], err = a.store.StorageUsed(ctx, s.ID); err != nil {
			t.Fatal(err)
		}
	}
	tr := a.store.(store.Transfer)
	for _, kind := range store.Kinds {
		n, err := tr.CountRecords(ctx, kind)
		if err != nil {
			t.Fatal(err)
		}
		p.records += int(n)
	}
	return p
}

// setUpLTI starts a platform and the tool's key set (served over HTTP, as
// /lti/jwks), makes the tool's first key and rotates it, registers the
// platform, has the tutor (as instructor) and the first student launch
// from its course, and links the group to the course and a new column.
func (p *pilot) setUpLTI(t testing.TB, a *app) {
	t.Helper()
	ctx := context.Background()
	tool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys := p.toolKeys.Load()
		if r.URL.Path != "/lti/jwks" || keys == nil {
			http.NotFound(w, r)
			return
		}
		set, err := keys.JWKS(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(tool.Close)
	p.toolURL = tool.URL
	var err error
	if p.platform, err = ltitest.Start(ltitest.Options{ToolURL: tool.URL}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.platform.Close() })

	if err := a.lti.Keys().Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.lti.Keys().Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	set, err := a.lti.Keys().JWKS(ctx)
	if err != nil || len(set.Keys) != 2 {
		t.Fatalf("the tool's keys = %+v, %v", set, err)
	}
	jwks, _ := json.Marshal(set)
	p.jwks = string(jwks)

	info := p.platform.Info()
	if _, err := a.lti.AddPlatform(ctx, lti.Registration{Issuer: info.Issuer, ClientID: info.ClientID, DeploymentIDs: []string{info.DeploymentID},
		AuthURL: info.AuthURL, TokenURL: info.TokenURL, JWKSURL: info.JWKSURL, AllowTutors: true}); err != nil {
		t.Fatal(err)
	}
	p.platform.AddUser(ltitest.User{Sub: tutorSubject, Email: p.tutor.Mail, Name: p.tutor.DisplayName, Roles: []string{ltitest.RoleInstructor}})
	p.platform.AddUser(ltitest.User{Sub: anaSubject, Email: p.students[0].Mail, Name: p.students[0].DisplayName, Roles: []string{ltitest.RoleLearner}})
	p.platform.AddCourse(ltitest.Course{ID: pilotCourse, Title: "Examen complexivo", Label: "EC-1", Members: []string{tutorSubject, anaSubject}})
	// A launch never links a tutor by e-mail, nor opens one with two-step
	// verification (the pilot's tutor has it): the tutor's platform account
	// is linked directly, and only the student launches.
	if err := a.store.LinkIdentity(ctx, domain.Identity{Provider: "lti:" + info.Issuer, Subject: tutorSubject, UserID: p.tutor.ID}); err != nil {
		t.Fatal(err)
	}
	p.launch(t, a.lti, anaSubject)
	p.column = p.platform.AddLineItem(pilotCourse, "Simulacro oral", 10)
	at := time.Now().UTC()
	if err := a.store.PutLTIGroupLink(ctx, domain.LTIGroupLink{GroupID: p.groupID, CourseID: domain.LTICourseID(domain.LTIPlatformID(info.Issuer, info.ClientID), pilotCourse),
		LineItemURL: p.column.ID, LineItemLabel: p.column.Label, CreatedAt: at, UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
}

// launch runs a launch of sub from the pilot's course through svc (the
// login, the platform's signed id_token, its validation) and signs them in.
func (p *pilot) launch(t testing.TB, svc *lti.Service, sub string) domain.User {
	t.Helper()
	ctx := context.Background()
	info := p.platform.Info()
	login, err := svc.Login(ctx, lti.LoginRequest{Issuer: info.Issuer, LoginHint: sub, TargetLinkURI: p.toolURL + lti.LaunchPath,
		ClientID: info.ClientID, DeploymentID: info.DeploymentID, ClientAddress: "192.0.2.1"}, p.toolURL)
	if err != nil {
		t.Fatalf("login of %s: %v", sub, err)
	}
	redirect, err := url.Parse(login.Redirect)
	if err != nil {
		t.Fatal(err)
	}
	token, err := p.platform.IDToken(ltitest.Message{Sub: sub, Context: pilotCourse, Nonce: redirect.Query().Get("nonce")})
	if err != nil {
		t.Fatal(err)
	}
	l, err := svc.Launch(ctx, lti.LaunchRequest{IDToken: token, State: login.State, StateCookie: login.State, ToolURL: p.toolURL})
	if err != nil {
		t.Fatalf("launch of %s: %v", sub, err)
	}
	u, _, err := svc.SignIn(ctx, l)
	if err != nil {
		t.Fatalf("sign-in of %s: %v", sub, err)
	}
	return u
}

// take uploads n chunks of random audio as recording rid of phase; with
// complete, the take is completed (and composed). Chunks in skip are not
// sent.
func (p *pilot) take(t testing.TB, a *app, u domain.User, attemptID, rid string, phase, n int, complete bool, skip ...int) {
	t.Helper()
	ctx := context.Background()
	if _, err := a.exams.PutRecording(ctx, u, attemptID, rid, phase, "audio/webm;codecs=opus"); err != nil {
		t.Fatal(err)
	}
	var played []byte
	gap := false
	for seq := range n {
		if slices.Contains(skip, seq) {
			gap = true
			continue
		}
		chunk := make([]byte, 700+seq*37)
		rand.Read(chunk)
		sum := sha256.Sum256(chunk)
		if _, err := a.exams.PutChunk(ctx, u, attemptID, rid, seq, bytes.NewReader(chunk), hex.EncodeToString(sum[:])); err != nil {
			t.Fatal(err)
		}
		if !gap {
			played = append(played, chunk...)
		}
	}
	if complete {
		r, err := a.exams.Complete(ctx, u, attemptID, rid, n, int64(n)*2000, []float64{0.2, 0.4})
		if err != nil || !r.Composed {
			t.Fatalf("complete %s: composed %v, %v", rid, r.Composed, err)
		}
	} else {
		p.openChunks = append(p.openChunks, attemptID+"/"+rid)
	}
	p.recordings[attemptID+"/"+rid] = played
}

// checkMoved checks a store and its audio after a migration: passwords
// sign in, the group and its students, the graded attempt, transcripts
// and the pending job are there, every recording plays as it did, and the
// open takes are still chunks the server will compose once complete.
func (p *pilot) checkMoved(t *testing.T, st store.Store, m media.Store) {
	t.Helper()
	ctx := context.Background()
	sessions := auth.NewSessions(st, time.Hour, 24*time.Hour)
	as := auth.NewService(st, sessions, nil)
	for _, u := range append([]domain.User{p.tutor}, p.students...) {
		got, err := as.LoginPassword(ctx, strings.ToUpper(u.Mail), pilotPassword, "192.0.2.1")
		if err != nil || got.ID != u.ID {
			t.Fatalf("%s does not sign in after the move: %+v, %v", u.Mail, got, err)
		}
	}
	if u, err := st.UserByIdentity(ctx, "microsoft", "00000000-entra-sub"); err != nil || u.ID != p.students[0].ID {
		t.Errorf("the Microsoft account is not linked after the move: %+v, %v", u, err)
	}
	gs := groups.NewService(st)
	g, err := gs.ActiveGroup(ctx, p.tutor)
	if err != nil || len(g.Estudiantes) != len(p.students) {
		t.Fatalf("active group after the move = %+v, %v", g, err)
	}
	cat := catalog.NewService(st, false)
	ex := exams.NewService(st, cat, gs, m)
	queue, err := ex.GradingQueue(ctx, p.tutor)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := ex.History(ctx, p.students[0])
	if err != nil || len(hist) != 1 || hist[0].TutorScore == nil || len(queue) != 0 {
		t.Fatalf("history after the move = %+v, %v; grading queue %+v", hist, err, queue)
	}
	mock, err := ex.Get(ctx, p.students[0], hist[0].ID)
	if err != nil || mock.Grade == nil || mock.Grade.Comments != "Buena estructura; cite la norma exacta." {
		t.Fatalf("graded attempt after the move = %+v, %v", mock.Grade, err)
	}
	trs, err := st.ListTranscripts(ctx, mock.ID)
	if err != nil || len(trs) != 2 {
		t.Fatalf("transcripts after the move = %+v, %v", trs, err)
	}
	for key, want := range p.recordings {
		attemptID, rid := store.SplitKey(key)
		owner := p.students[0]
		if attemptID != mock.ID {
			owner = p.students[1]
		}
		md, err := ex.OpenMedia(ctx, owner, attemptID, rid)
		if err != nil {
			t.Fatalf("open %s after the move: %v", key, err)
		}
		got, err := io.ReadAll(md.Content)
		md.Content.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s plays %d bytes after the move, want %d (%v)", key, len(got), len(want), err)
		}
	}
	for _, key := range p.openChunks {
		attemptID, rid := store.SplitKey(key)
		r, err := st.GetRecording(ctx, attemptID, rid)
		if err != nil || r.Composed || r.Complete {
			t.Errorf("open take %s after the move: %+v, %v", key, r, err)
		}
	}
	jobs, _, err := st.(store.Transfer).ExportPage(ctx, store.KindJobs, "", 10)
	if err != nil || len(jobs) != 2 {
		t.Fatalf("jobs after the move: %+v, %v", jobs, err)
	}
	for _, rec := range jobs {
		j := rec.Value.(store.JobRecord).Job
		if j.Status != domain.JobPending || (j.Subject != domain.RecordingSubject(mock.ID, "toma-presentacion-1") && !strings.HasPrefix(j.Subject, mock.ID+"|")) {
			t.Errorf("a pending job after the move (a transcription, the grade for the course): %+v", j)
		}
	}

	// Each student's storage total, as the quota reads it.
	for _, s := range p.students {
		if used, err := st.StorageUsed(ctx, s.ID); err != nil || used != p.storage[s.ID] {
			t.Errorf("storage of %s after the move = %d, %v; want %d", s.Mail, used, err, p.storage[s.ID])
		}
	}
	// The tutor's second factor.
	if mfa, err := as.MFAStatus(ctx, p.tutor); err != nil || !mfa.Enabled || mfa.RecoveryCodesLeft != 10 {
		t.Errorf("the tutor's second factor after the move = %+v, %v", mfa, err)
	}
	// LTI: the same keys published under the same ids (a platform that
	// cached the key set still verifies), the platform, the group's column.
	svc := lti.NewService(st, gs, lti.Options{})
	set, err := svc.Keys().JWKS(ctx)
	if jwks, _ := json.Marshal(set); err != nil || string(jwks) != p.jwks {
		t.Errorf("the tool's key set after the move:\n%s\nwant\n%s (%v)", jwks, p.jwks, err)
	}
	if platforms, err := svc.Platforms(ctx); err != nil || len(platforms) != 1 || platforms[0].Issuer != p.platform.Info().Issuer {
		t.Errorf("the platforms after the move: %+v, %v", platforms, err)
	}
	if link, err := st.GetLTIGroupLink(ctx, p.groupID); err != nil || link.LineItemURL != p.column.ID {
		t.Errorf("the group's course column after the move: %+v, %v", link, err)
	}
}

// useAfterMove uses what a move must not break, writing to st: the tutor
// signs in with a code from their phone, and with a recovery code; a
// launch from the course validates against the moved registration; and
// the graded mock exam's grade waiting for the course is published, with a
// client assertion the platform verifies against the tool's key set.
func (p *pilot) useAfterMove(t *testing.T, st store.Store) {
	t.Helper()
	ctx := context.Background()
	as := auth.NewService(st, auth.NewSessions(st, time.Hour, 24*time.Hour), nil)
	code, err := totp.GenerateCode(p.totpSecret, time.Now().Add(30*time.Second)) // a step after the one enrolment used
	if err != nil {
		t.Fatal(err)
	}
	for _, second := range []struct{ code, method string }{{code, auth.MethodPasswordTOTP}, {p.recoveryCode, auth.MethodRecoveryCode}} {
		u, err := as.LoginPassword(ctx, p.tutor.Mail, pilotPassword, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if need, err := as.SecondFactorRequired(ctx, u); err != nil || !need {
			t.Fatalf("the tutor's sign-in does not ask for a code after the move: %v, %v", need, err)
		}
		token, err := as.BeginSecondFactor(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if got, method, err := as.FinishSecondFactor(ctx, token, second.code); err != nil || got.ID != p.tutor.ID || method != second.method {
			t.Errorf("the tutor's second step (%s) after the move: %+v, %q, %v", second.method, got, method, err)
		}
	}

	svc := lti.NewService(st, groups.NewService(st), lti.Options{})
	p.toolKeys.Store(svc.Keys())
	if u, err := st.UserByIdentity(ctx, "lti:"+p.platform.Info().Issuer, tutorSubject); err != nil || u.ID != p.tutor.ID {
		t.Errorf("the tutor's platform account after the move belongs to %+v (%v), not the tutor", u, err)
	}
	if u := p.launch(t, svc, anaSubject); u.ID != p.students[0].ID {
		t.Errorf("a launch after the move signs in %+v, not the student", u)
	}
	if ran, err := svc.RunOnce(ctx); err != nil || !ran {
		t.Fatalf("the grade for the course after the move: ran %v, %v", ran, err)
	}
	scores := p.platform.Scores()
	if len(scores) != 1 || scores[0].LineItem != p.column.ID || scores[0].Score["userId"] != anaSubject {
		t.Fatalf("the platform's gradebook after the move: %+v (requests %v)", scores, p.platform.Requests())
	}
}

// migrate runs migrate-data and returns what it printed.
func migrateData(t testing.TB, args ...string) result {
	t.Helper()
	return runCLI(t, "", append([]string{"migrate-data"}, args...)...)
}

func mustMigrate(t testing.TB, args ...string) result {
	t.Helper()
	r := migrateData(t, args...)
	if r.code != 0 {
		t.Fatalf("migrate-data %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

func copiedNothing(t testing.TB, r result) {
	t.Helper()
	if !strings.Contains(r.stdout, "Nothing new to copy") {
		t.Errorf("a second run does not say it copied nothing:\n%s\n%s", r.stdout, r.stderr)
	}
}

// newPostgresDB creates an empty database and returns its URL, with a
// password that must never be printed (the test server trusts every
// connection, so any password works).
func newPostgresDB(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: migration to PostgreSQL skipped (scripts/with-postgres.sh starts a server)")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	name := "migrate_" + strings.ToLower(rand.Text()[:10])
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	u.User = url.UserPassword(u.User.Username(), "s3cr3t-de-prueba")
	return u.String()
}

func noSecret(t *testing.T, rs ...result) {
	t.Helper()
	for _, r := range rs {
		if strings.Contains(r.stdout+r.stderr, "s3cr3t") {
			t.Fatalf("a password was printed:\n%s\n%s", r.stdout, r.stderr)
		}
	}
}

// destination is a store to migrate to, with where its audio goes.
type destination struct {
	name string
	args []string // --to and --to-media
	// from is the same store as --from and --from-media.
	from []string
	open func(t testing.TB) (store.Store, media.Store)
}

func postgresDestination(t testing.TB) destination {
	t.Helper()
	dbURL := newPostgresDB(t)
	gcstest.New(t, "grabaciones-nube")
	return destination{
		name: "PostgreSQL+bucket",
		args: []string{"--to", dbURL, "--to-media", "gs://grabaciones-nube"},
		from: []string{"--from", dbURL, "--from-media", "gs://grabaciones-nube"},
		open: func(t testing.TB) (store.Store, media.Store) {
			st, err := postgres.Open(context.Background(), dbURL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st, bucketStore(t, "grabaciones-nube")
		},
	}
}

func firestoreDestination(t testing.TB) destination {
	t.Helper()
	host := os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")
	if host == "" {
		t.Skip("TEST_FIRESTORE_EMULATOR_HOST not set: migration to Firestore skipped (scripts/with-firestore.sh starts the emulator)")
	}
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := "demo-migrate-" + strings.ToLower(rand.Text()[:8])
	gcstest.New(t, "grabaciones-firebase")
	return destination{
		name: "Firestore+bucket",
		args: []string{"--to", "firestore://" + project, "--to-media", "gs://grabaciones-firebase"},
		from: []string{"--from", "firestore://" + project, "--from-media", "gs://grabaciones-firebase"},
		open: func(t testing.TB) (store.Store, media.Store) {
			st, err := firestore.Open(context.Background(), project)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st, bucketStore(t, "grabaciones-firebase")
		},
	}
}

func bucketStore(t testing.TB, name string) media.Store {
	t.Helper()
	b, err := openBucket(context.Background(), name, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip moves a pilot (SQLite and a directory) to dest and back to a
// new SQLite and directory: everything arrives and still works (signing
// in with a second factor, an LTI launch and a grade sent to the course
// at the end, as they write), a second run copies nothing, and no
// password is printed.
func roundTrip(t *testing.T, newDest func(t testing.TB) destination) {
	p := newPilot(t) // first: it clears the environment
	dest := newDest(t)
	start := time.Now()
	r := mustMigrate(t, append([]string{"--from", "sqlite://" + p.dir}, dest.args...)...)
	t.Logf("SQLite+directory → %s: %d records, the audio of %d recordings, in %s", dest.name, p.records, len(p.recordings), time.Since(start).Round(time.Millisecond))
	// The destination's schema (or seed) already holds the degree derecho.
	if want := fmt.Sprintf("Copied %d records and the audio of %d recordings; both sides match", p.records-1, len(p.recordings)); !strings.Contains(r.stdout, want) {
		t.Errorf("the summary does not say %q:\n%s", want, r.stdout)
	}
	for _, kind := range append(slices.Clone(store.Kinds), "audio") {
		if !strings.Contains(r.stdout, "\n"+string(kind)+" ") {
			t.Errorf("the summary has no line for %s:\n%s", kind, r.stdout)
		}
	}
	st, m := dest.open(t)
	p.checkMoved(t, st, m)
	again := mustMigrate(t, append([]string{"--from", "sqlite://" + p.dir}, dest.args...)...)
	copiedNothing(t, again)

	back := t.TempDir()
	start = time.Now()
	r2 := mustMigrate(t, append(slices.Clone(dest.from), "--to", "sqlite://"+back)...)
	t.Logf("%s → SQLite+directory: in %s", dest.name, time.Since(start).Round(time.Millisecond))
	lite, err := sqlite.Open(context.Background(), filepath.Join(back, "simulador.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	dir, err := media.NewDir(filepath.Join(back, "media"))
	if err != nil {
		t.Fatal(err)
	}
	p.checkMoved(t, lite, dir)
	again2 := mustMigrate(t, append(slices.Clone(dest.from), "--to", "sqlite://"+back)...)
	copiedNothing(t, again2)
	noSecret(t, r, again, r2, again2)
	p.useAfterMove(t, lite)
}

func TestMigratePilotToPostgreSQLAndBack(t *testing.T) { roundTrip(t, postgresDestination) }

func TestMigratePilotToFirestoreAndBack(t *testing.T) { roundTrip(t, firestoreDestination) }

// A run stopped half way (as a kill would) leaves a destination that the
// next run completes; the stop falls among the audio, then among records.
func TestMigrateInterruptedRunFinishes(t *testing.T) {
	for _, tc := range []struct {
		name string
		dest func(t testing.TB) destination
	}{{"postgres", postgresDestination}, {"firestore", firestoreDestination}} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPilot(t)
			dest := tc.dest(t)
			args := append([]string{"--from", "sqlite://" + p.dir}, dest.args...)
			for _, stop := range []int{2, 25} {
				migrateStopAfter = stop
				r := migrateData(t, args...)
				migrateStopAfter = 0
				if r.code == 0 || !strings.Contains(r.stdout, "run the same command again to finish") {
					t.Fatalf("a run stopped after %d: exit %d\n%s\n%s", stop, r.code, r.stdout, r.stderr)
				}
			}
			r := mustMigrate(t, args...)
			if !strings.Contains(r.stdout, "both sides match") || strings.Contains(r.stdout, "Nothing new") {
				t.Errorf("the run after the stops:\n%s", r.stdout)
			}
			st, m := dest.open(t)
			p.checkMoved(t, st, m)
			copiedNothing(t, mustMigrate(t, args...))
			p.useAfterMove(t, st)
		})
	}
}

// Audio that no longer matches the hashes acknowledged to the browser is
// not copied, and the run says which recording and fails; everything else
// is copied.
func TestMigrateReportsDamagedSourceAudio(t *testing.T) {
	p := newPilot(t)
	dest := postgresDestination(t)
	var composed string
	for key := range p.recordings {
		if !slices.Contains(p.openChunks, key) {
			composed = key
		}
	}
	damage := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0x55
		if err := os.WriteFile(path, b, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	damage(filepath.Join(p.dir, "media", filepath.FromSlash(p.openChunks[0]), "000001.chunk"))
	damage(filepath.Join(p.dir, "media", filepath.FromSlash(composed), "recording"))
	args := append([]string{"--from", "sqlite://" + p.dir}, dest.args...)
	r := migrateData(t, args...)
	if r.code == 0 || !strings.Contains(r.stdout, "FAILED: 2 problems") {
		t.Fatalf("damaged audio: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, key := range []string{p.openChunks[0], composed} {
		if !strings.Contains(r.stdout, "audio of recording "+key+": the source's audio does not match its chunks' sizes and SHA-256") {
			t.Errorf("the damaged recording %s is not named:\n%s", key, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "\nrecordings                  5            5") {
		t.Errorf("the records were not all copied:\n%s", r.stdout)
	}
	// Run again: still reported, nothing else to copy.
	r = migrateData(t, args...)
	if r.code == 0 || !strings.Contains(r.stdout, "FAILED: 2 problems") {
		t.Fatalf("second run over damaged audio: exit %d\n%s", r.code, r.stdout)
	}
}

// TestMigrateRefusesOtherData: a destination holding other data under the
// same IDs, or records the source lacks, is refused before anything is
// written; --dry-run says so too, and --overwrite replaces what differs.
func TestMigrateRefusesOtherData(t *testing.T) {
	p := newPilot(t)
	to := t.TempDir()
	args := []string{"--from", "sqlite://" + p.dir, "--to", "sqlite://" + to}
	mustMigrate(t, args...)

	// The pilot goes on: a name changes, a new student arrives.
	ctx := context.Background()
	t.Setenv("DATA_DIR", p.dir)
	a, err := newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	renamed := p.students[2]
	renamed.DisplayName = "Nombre Corregido"
	if err := a.store.UpdateUser(ctx, renamed); err != nil {
		t.Fatal(err)
	}
	if _, err := a.auth.CreateUser(ctx, "nueva@utpl.edu.ec", pilotPassword, domain.RoleStudent, "Nueva Estudiante"); err != nil {
		t.Fatal(err)
	}
	a.Close()

	r := migrateData(t, args...)
	if r.code == 0 || !strings.Contains(r.stdout, "users: 1 records differ at the destination (e.g. ["+renamed.ID+"]); --overwrite replaces them") ||
		!strings.Contains(r.stderr, "nothing was written") {
		t.Fatalf("a changed record: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	dry := migrateData(t, append(args, "--dry-run", "--overwrite")...)
	if dry.code != 0 || !strings.Contains(dry.stdout, "Dry run: nothing was written. 2 records and the audio of 0 recordings would be copied.") {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	r = mustMigrate(t, append(args, "--overwrite")...)
	if !strings.Contains(r.stdout, "Copied 2 records and the audio of 0 recordings; both sides match") {
		t.Errorf("overwrite:\n%s", r.stdout)
	}
	copiedNothing(t, mustMigrate(t, args...))

	// A server started on an empty destination first loads the demo bank:
	// its cases are not the pilot's (other IDs, the same titles).
	fresh := t.TempDir()
	t.Setenv("DATA_DIR", fresh)
	a, err = newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	r = migrateData(t, "--from", "sqlite://"+p.dir, "--to", "sqlite://"+fresh)
	if r.code == 0 || !strings.Contains(r.stdout, "cases: the destination holds 93 records the source does not have") {
		t.Fatalf("a destination with its own demo bank: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestMigrateArguments(t *testing.T) {
	p := newPilot(t)
	for _, tc := range []struct {
		want string
		args []string
	}{
		{"--from and --to are required", []string{"--from", "sqlite://" + p.dir}},
		{"--from and --to name the same store", []string{"--from", "sqlite://" + p.dir, "--to", "sqlite://" + p.dir + "/"}},
		{"--from SQLite " + filepath.Join(p.dir, "falta", "simulador.db") + ": no database there",
			[]string{"--from", "sqlite://" + p.dir + "/falta", "--to", "sqlite://" + t.TempDir()}},
		{"--to-media: say where the audio of PostgreSQL", []string{"--from", "sqlite://" + p.dir, "--to", "postgres://u:s3cr3t@127.0.0.1:1/x"}},
		{"--to: expected sqlite:///DATA_DIR, postgres://… or firestore://PROJECT_ID", []string{"--from", "sqlite://" + p.dir, "--to", "mysql://x"}},
		{"--to-media s3://b: expected dir:///PATH or gs://BUCKET", []string{"--from", "sqlite://" + p.dir, "--to", "sqlite://" + t.TempDir(), "--to-media", "s3://b"}},
		{"--to PostgreSQL u@127.0.0.1:1/x: connect to PostgreSQL", []string{"--from", "sqlite://" + p.dir, "--to", "postgres://u:s3cr3t@127.0.0.1:1/x?sslmode=disable", "--to-media", "dir://" + t.TempDir()}},
		{`unexpected argument "x"`, []string{"--from", "sqlite://" + p.dir, "--to", "sqlite://" + t.TempDir(), "x"}},
	} {
		r := fails(t, tc.want, append([]string{"migrate-data"}, tc.args...)...)
		noSecret(t, r)
	}
	// Moving only the audio (the records stay) is allowed.
	media := t.TempDir()
	r := mustMigrate(t, "--from", "sqlite://"+p.dir, "--to", "sqlite://"+p.dir, "--to-media", "dir://"+media, "--list")
	if !strings.Contains(r.stderr, "only the audio is copied") || !strings.Contains(r.stdout, fmt.Sprintf("Copied 0 records and the audio of %d recordings", len(p.recordings))) {
		t.Errorf("audio only:\n%s\n%s", r.stdout, r.stderr)
	}
	// --list: every recording with its size and the SHA-256 of its audio on both sides.
	for key, audio := range p.recordings {
		if slices.Contains(p.openChunks, key) {
			continue // a take with a gap holds more than it plays
		}
		sum := sha256.Sum256(audio)
		if want := fmt.Sprintf("source %s  destination %s  ok", hex.EncodeToString(sum[:]), hex.EncodeToString(sum[:])); !strings.Contains(r.stdout, want) {
			t.Errorf("--list does not show %s as %q:\n%s", key, want, r.stdout)
		}
	}
	if help := runCLI(t, "", "migrate-data", "-h"); !strings.Contains(help.stderr, "Stop the server on both sides first") {
		t.Errorf("help:\n%s", help.stderr)
	}
}
