// Package storetest is the contract every store adapter must satisfy. Each
// adapter's tests call Run with a constructor that returns an empty, migrated
// store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Option changes how Run runs the contract.
type Option func(*options)

type options struct{ parallel bool }

// Parallel runs the contract's tests side by side, each on its own store:
// for a store whose tests mostly wait (on a network round trip, on an
// emulator's lock timeout) rather than compute.
func Parallel() Option { return func(o *options) { o.parallel = true } }

// Run runs the whole contract. newStore must return a fresh store each call.
func Run(t *testing.T, newStore func(t *testing.T) store.Store, opts ...Option) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	tests := map[string]func(t *testing.T, s store.Store){
		"Users":             testUsers,
		"Identities":        testIdentities,
		"Sessions":          testSessions,
		"SessionRevocation": testSessionRevocation,
		"Degrees":           testDegrees,
		"Groups":            testGroups,
		"OneActiveGroup":    testOneActiveGroupConcurrent,
		"TxRollback":        testTxRollback,
		"TxReadsOwnWrites":  testTxReadsOwnWrites,
		"GroupsByStudent":   testGroupsByStudent,
		"ExclusiveMember":   testExclusiveMembershipRace,
		"TakeLimit":         testTakeLimit,
		"ChunkLimits":       testChunkLimits,
		"ChunkLimitRace":    testChunkLimitRace,
		"AddToFinalized":    testAddToFinalizedGroup,
		"LastLogin":         testLastLogin,
		"LargeMailInLookup": testLargeMailInLookup,
		"LargeGroup":        testLargeGroup,
		"Cases":             testCases,
		"CatalogSettings":   testCatalogSettings,
		"Attempts":          testAttempts,
		"AttemptStartRace":  testConcurrentAttemptStart,
		"AttemptVersion":    testAttemptVersionRace,
		"SaveNotes":         testSaveNotes,
		"Recordings":        testRecordings,
		"RecordingComposed": testRecordingComposed,
		"Transcripts":       testTranscripts,
		"TranscriptOver":    testTranscriptOver,
		"RecordingsNoJob":   testRecordingsWithoutJob,
		"Jobs":              testJobs,
		"UserSessions":      testUserSessions,
		"Tokens":            testTokens,
		"MFA":               testMFA,
		"JobBySubject":      testJobBySubject,
		"LTIPlatforms":      testLTIPlatforms,
		"LTIKeys":           testLTIKeys,
		"LTIOnce":           testLTIOnce,
		"LTICourses":        testLTICourses,
		"Counters":          testCounters,
		"CountersRace":      testCountersConcurrent,
	}
	// Tests that need more than one store get the constructor.
	withStores := map[string]func(t *testing.T, newStore func(t *testing.T) store.Store){
		"Transfer": testTransfer,
	}
	for name, fn := range withStores {
		t.Run(name, func(t *testing.T) {
			if o.parallel {
				t.Parallel()
			}
			fn(t, newStore)
		})
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) {
			if o.parallel {
				t.Parallel()
			}
			fn(t, newStore(t))
		})
	}
}

var ctx = context.Background()

// racers is how many callers the race tests start at once: enough to
// race, and few enough for the Firestore emulator, which settles each
// conflict between transactions with a two-second lock timeout.
const racers = 4

func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

func mustUser(t *testing.T, s store.Store, mail string, role domain.Role) domain.User {
	t.Helper()
	u := domain.User{ID: domain.NewID(), Mail: mail, DisplayName: "Ana Pérez", GivenName: "Ana", Surname: "Pérez", Role: role, CreatedAt: now()}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatalf("CreateUser(%s): %v", mail, err)
	}
	u.Mail = domain.NormalizeEmail(mail)
	return u
}

func testUsers(t *testing.T, s store.Store) {
	u := mustUser(t, s, " Ana.Perez@UTPL.edu.ec ", domain.RoleStudent)
	got, err := s.GetUser(ctx, u.ID)
	if err != nil || got != u {
		t.Fatalf("GetUser = %+v, %v; want %+v", got, err, u)
	}
	got, err = s.GetUserByMail(ctx, "ANA.PEREZ@utpl.edu.ec")
	if err != nil || got.ID != u.ID {
		t.Fatalf("GetUserByMail case-insensitive = %+v, %v", got, err)
	}
	if _, err := s.GetUserByMail(ctx, "nadie@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing user: err = %v, want ErrNotFound", err)
	}
	dup := domain.User{ID: domain.NewID(), Mail: "ana.perez@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: now()}
	if err := s.CreateUser(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate mail: err = %v, want ErrConflict", err)
	}
	tutor := mustUser(t, s, "tutor@utpl.edu.ec", domain.RoleTutor)

	byRole, err := s.ListUsersByRole(ctx, domain.RoleStudent)
	if err != nil || len(byRole) != 1 || byRole[0].ID != u.ID {
		t.Fatalf("ListUsersByRole = %+v, %v", byRole, err)
	}
	byMail, err := s.ListUsersByMail(ctx, []string{"TUTOR@utpl.edu.ec", "ana.perez@utpl.edu.ec", "x@y.ec"})
	if err != nil || len(byMail) != 2 {
		t.Fatalf("ListUsersByMail = %+v, %v", byMail, err)
	}
	if none, err := s.ListUsersByMail(ctx, nil); err != nil || len(none) != 0 {
		t.Fatalf("ListUsersByMail(nil) = %+v, %v", none, err)
	}

	tutor.Role = domain.RoleStudent
	tutor.DisplayName = "Otro Nombre"
	if err := s.UpdateUser(ctx, tutor); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetUser(ctx, tutor.ID); got.Role != domain.RoleStudent || got.DisplayName != "Otro Nombre" {
		t.Fatalf("UpdateUser not persisted: %+v", got)
	}
	if err := s.UpdateUser(ctx, domain.User{ID: "missing", Mail: "m@x.ec", Role: domain.RoleStudent}); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("UpdateUser missing: %v", err)
	}

	if h, err := s.PasswordHash(ctx, u.ID); err != nil || h != "" {
		t.Fatalf("PasswordHash initially = %q, %v", h, err)
	}
	if err := s.SetPasswordHash(ctx, u.ID, "$argon2id$x"); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.PasswordHash(ctx, u.ID); h != "$argon2id$x" {
		t.Fatalf("PasswordHash = %q", h)
	}
}

func testIdentities(t *testing.T, s store.Store) {
	u := mustUser(t, s, "ms@utpl.edu.ec", domain.RoleStudent)
	if _, err := s.UserByIdentity(ctx, "microsoft", "tid:oid"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown identity: %v", err)
	}
	if err := s.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: "tid:oid", UserID: u.ID}); err != nil {
		t.Fatal(err)
	}
	got, err := s.UserByIdentity(ctx, "microsoft", "tid:oid")
	if err != nil || got.ID != u.ID {
		t.Fatalf("UserByIdentity = %+v, %v", got, err)
	}
	if err := s.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: "tid:oid", UserID: u.ID}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("relink: %v", err)
	}
}

func testSessions(t *testing.T, s store.Store) {
	u := mustUser(t, s, "s@utpl.edu.ec", domain.RoleStudent)
	t0 := now()
	se := domain.Session{TokenHash: "h1", UserID: u.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour), UserAgent: "ua", IP: "127.0.0.1"}
	if err := s.CreateSession(ctx, se); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, "h1")
	if err != nil || got != se {
		t.Fatalf("GetSession = %+v, %v; want %+v", got, err, se)
	}
	if err := s.TouchSession(ctx, "h1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetSession(ctx, "h1"); !got.LastSeenAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("TouchSession: last seen %v", got.LastSeenAt)
	}
	se2 := se
	se2.TokenHash = "h2"
	se2.LastSeenAt = t0.Add(-2 * time.Hour) // idle
	if err := s.CreateSession(ctx, se2); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeleteExpiredSessions(ctx, t0, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}
	if err := s.DeleteSession(ctx, "h1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, "h1"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleted session: %v", err)
	}
	for _, h := range []string{"a", "b"} {
		se.TokenHash = h
		if err := s.CreateSession(ctx, se); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteUserSessions(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, "a"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("DeleteUserSessions left a session: %v", err)
	}
}

func testLastLogin(t *testing.T, s store.Store) {
	u := mustUser(t, s, "nuevo@utpl.edu.ec", domain.RoleStudent)
	other := mustUser(t, s, "otro@utpl.edu.ec", domain.RoleStudent)
	if got, _ := s.GetUser(ctx, u.ID); !got.LastLoginAt.IsZero() {
		t.Fatalf("a new profile has signed in at %v", got.LastLoginAt)
	}
	t0 := now().Add(-time.Hour)
	for i, at := range []time.Time{t0, t0.Add(30 * time.Minute)} {
		se := domain.Session{TokenHash: fmt.Sprintf("login-%d", i), UserID: u.ID, CreatedAt: at, LastSeenAt: at, ExpiresAt: at.Add(time.Hour)}
		if err := s.CreateSession(ctx, se); err != nil {
			t.Fatal(err)
		}
		for name, get := range map[string]func() (domain.User, error){
			"GetUser":       func() (domain.User, error) { return s.GetUser(ctx, u.ID) },
			"GetUserByMail": func() (domain.User, error) { return s.GetUserByMail(ctx, u.Mail) },
			"ListUsersByMail": func() (domain.User, error) {
				us, err := s.ListUsersByMail(ctx, []string{u.Mail})
				if err != nil || len(us) != 1 {
					return domain.User{}, fmt.Errorf("got %d users, %v", len(us), err)
				}
				return us[0], nil
			},
		} {
			if got, err := get(); err != nil || !got.LastLoginAt.Equal(at) {
				t.Fatalf("%s after session %d: last login %v, %v; want %v", name, i, got.LastLoginAt, err, at)
			}
		}
	}
	// Touching a session is activity, not a sign-in.
	if err := s.TouchSession(ctx, "login-1", t0.Add(50*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetUser(ctx, u.ID); !got.LastLoginAt.Equal(t0.Add(30 * time.Minute)) {
		t.Fatalf("TouchSession moved the last login to %v", got.LastLoginAt)
	}
	if got, _ := s.GetUser(ctx, other.ID); !got.LastLoginAt.IsZero() {
		t.Fatalf("another user's sign-in was recorded on %s: %v", other.Mail, got.LastLoginAt)
	}
	// A session refused (its token exists) records no sign-in.
	if err := s.CreateSession(ctx, domain.Session{TokenHash: "login-0", UserID: other.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour)}); err == nil {
		t.Fatal("duplicate session token accepted")
	}
	if got, _ := s.GetUser(ctx, other.ID); !got.LastLoginAt.IsZero() {
		t.Fatalf("a refused session recorded a sign-in: %v", got.LastLoginAt)
	}
}

func testDegrees(t *testing.T, s store.Store) {
	all, err := s.ListDegrees(ctx)
	if err != nil || len(all) != 1 || all[0].Nombre != "Derecho" {
		t.Fatalf("fresh install degrees = %+v, %v; want [Derecho]", all, err)
	}
	d, err := s.GetDegreeByName(ctx, "Derecho")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetDegree(ctx, d.ID); err != nil || got != d {
		t.Fatalf("GetDegree = %+v, %v", got, err)
	}
	if err := s.CreateDegree(ctx, domain.Degree{ID: domain.NewID(), Nombre: "Derecho"}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate degree: %v", err)
	}
	if _, err := s.GetDegree(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing degree: %v", err)
	}
}

func newGroup(t *testing.T, s store.Store, tutor string, students ...string) domain.Group {
	t.Helper()
	d, err := s.GetDegreeByName(ctx, "Derecho")
	if err != nil {
		t.Fatal(err)
	}
	g := domain.Group{ID: domain.NewID(), Carrera: d.ID, Departamento: "Ciencias Jurídicas", Facultad: "Ciencias Sociales",
		Modalidad: "Distancia", DocenteEmail: tutor, Status: domain.GroupActive, CreatedAt: now()}
	for _, e := range students {
		g.Estudiantes = append(g.Estudiantes, domain.GroupStudent{Email: e, Name: "Estudiante " + e, AddedAt: now()})
	}
	return g
}

func testGroups(t *testing.T, s store.Store) {
	g := newGroup(t, s, "Tutor@utpl.edu.ec", "a@utpl.edu.ec", "B@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.ActiveGroupByTutor(ctx, "tutor@UTPL.edu.ec")
	if err != nil || got.ID != g.ID || got.DocenteEmail != "tutor@utpl.edu.ec" || len(got.Estudiantes) != 2 {
		t.Fatalf("ActiveGroupByTutor = %+v, %v", got, err)
	}
	if !got.HasStudent("b@utpl.edu.ec") {
		t.Fatalf("emails are not normalised: %+v", got.Estudiantes)
	}
	second := newGroup(t, s, "tutor@utpl.edu.ec", "c@utpl.edu.ec")
	if err := s.CreateGroup(ctx, second); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second active group: err = %v, want ErrConflict", err)
	}
	if _, err := s.GetGroup(ctx, second.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("refused group was partly written: %v", err)
	}

	n, err := s.AddGroupStudents(ctx, g.ID, []domain.GroupStudent{{Email: "A@utpl.edu.ec", AddedAt: now()}, {Email: "c@utpl.edu.ec", AddedAt: now()}})
	if err != nil || n != 1 {
		t.Fatalf("AddGroupStudents = %d, %v; want 1 (a is already there)", n, err)
	}
	if got, _ := s.GetGroup(ctx, g.ID); len(got.Estudiantes) != 3 {
		t.Fatalf("students after add = %+v", got.Estudiantes)
	}

	if err := s.FinalizeGroup(ctx, g.ID, now()); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeGroup(ctx, g.ID, now()); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("finalize twice: %v", err)
	}
	if _, err := s.ActiveGroupByTutor(ctx, "tutor@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("active group after finalize: %v", err)
	}
	fin, err := s.GetGroup(ctx, g.ID)
	if err != nil || fin.Status != domain.GroupFinalized || fin.FinalizedAt == nil {
		t.Fatalf("finalized group = %+v, %v", fin, err)
	}
	if err := s.CreateGroup(ctx, second); err != nil {
		t.Fatalf("new group after finalize: %v", err)
	}
	all, err := s.ListGroupsByTutor(ctx, "tutor@utpl.edu.ec")
	if err != nil || len(all) != 2 {
		t.Fatalf("ListGroupsByTutor = %d groups, %v", len(all), err)
	}
}

func testOneActiveGroupConcurrent(t *testing.T, s store.Store) {
	const n = racers
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateGroup(ctx, newGroup(t, s, "race@utpl.edu.ec", fmt.Sprintf("s%d@utpl.edu.ec", i)))
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, domain.ErrConflict):
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d concurrent creations succeeded, want exactly 1", ok)
	}
	groups, err := s.ListGroupsByTutor(ctx, "race@utpl.edu.ec")
	if err != nil || len(groups) != 1 || len(groups[0].Estudiantes) != 1 {
		t.Fatalf("groups after race = %+v, %v", groups, err)
	}
}

func testTxRollback(t *testing.T, s store.Store) {
	boom := errors.New("boom")
	err := s.InTx(ctx, func(tx store.Store) error {
		if err := tx.CreateUser(ctx, domain.User{ID: "tx1", Mail: "tx@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: now()}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx err = %v", err)
	}
	if _, err := s.GetUser(ctx, "tx1"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("rolled-back user visible: %v", err)
	}
}

// testGroupsByStudent: a student is a member of at most one active group;
// membership ends when the group is finalized or the student removed.
func testGroupsByStudent(t *testing.T, s store.Store) {
	g1 := newGroup(t, s, "t1@utpl.edu.ec", "est@utpl.edu.ec", "otra@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g1); err != nil {
		t.Fatal(err)
	}
	for _, mail := range []string{"est@utpl.edu.ec", "Est@UTPL.edu.ec", " otra@utpl.edu.ec "} {
		if ok, err := s.IsActiveGroupMember(ctx, mail); err != nil || !ok {
			t.Fatalf("IsActiveGroupMember(%q) = %v, %v; want true", mail, ok, err)
		}
	}
	got, err := s.ActiveGroupOfStudent(ctx, "Est@utpl.edu.ec")
	if err != nil || got.ID != g1.ID || got.Carrera != g1.Carrera || got.DocenteEmail != "t1@utpl.edu.ec" || got.Status != domain.GroupActive {
		t.Fatalf("ActiveGroupOfStudent = %+v, %v; want %s", got, err, g1.ID)
	}
	if got.Estudiantes != nil {
		t.Fatalf("ActiveGroupOfStudent loaded the roster: %+v", got.Estudiantes)
	}

	// Another tutor's group with a member of g1 is refused whole.
	g2 := newGroup(t, s, "t2@utpl.edu.ec", "nuevo@utpl.edu.ec", "EST@utpl.edu.ec")
	var taken *store.MembersTakenError
	if err := s.CreateGroup(ctx, g2); !errors.As(err, &taken) || !slices.Equal(taken.Emails, []string{"est@utpl.edu.ec"}) {
		t.Fatalf("CreateGroup with a member of another active group: err = %v, want MembersTakenError [est]", err)
	}
	if _, err := s.GetGroup(ctx, g2.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("refused group was written: %v", err)
	}
	if ok, _ := s.IsActiveGroupMember(ctx, "nuevo@utpl.edu.ec"); ok {
		t.Fatal("a student of a refused group became a member")
	}
	g2 = newGroup(t, s, "t2@utpl.edu.ec", "nuevo@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g2); err != nil {
		t.Fatal(err)
	}
	// Adding refuses the whole call, naming only the taken students.
	n, err := s.AddGroupStudents(ctx, g2.ID, []domain.GroupStudent{{Email: "libre@utpl.edu.ec", AddedAt: now()},
		{Email: "OTRA@utpl.edu.ec", AddedAt: now()}, {Email: "est@utpl.edu.ec", AddedAt: now()}})
	if !errors.As(err, &taken) || n != 0 || !slices.Equal(taken.Emails, []string{"otra@utpl.edu.ec", "est@utpl.edu.ec"}) {
		t.Fatalf("AddGroupStudents with members of another group = %d, %v; want 0, MembersTakenError [otra est]", n, err)
	}
	if got, _ := s.GetGroup(ctx, g2.ID); len(got.Estudiantes) != 1 {
		t.Fatalf("a refused addition added students: %+v", got.Estudiantes)
	}
	if ok, _ := s.IsActiveGroupMember(ctx, "libre@utpl.edu.ec"); ok {
		t.Fatal("a student of a refused addition became a member")
	}

	// Removing a student ends the membership at once and frees them.
	if err := s.RemoveGroupStudent(ctx, g1.ID, "EST@utpl.edu.ec"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.IsActiveGroupMember(ctx, "est@utpl.edu.ec"); err != nil || ok {
		t.Fatalf("IsActiveGroupMember after removal = %v, %v; want false", ok, err)
	}
	if _, err := s.ActiveGroupOfStudent(ctx, "est@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("ActiveGroupOfStudent after removal: %v", err)
	}
	if got, _ := s.GetGroup(ctx, g1.ID); got.HasStudent("est@utpl.edu.ec") || !got.HasStudent("otra@utpl.edu.ec") {
		t.Fatalf("group after removal = %+v", got.Estudiantes)
	}
	if err := s.RemoveGroupStudent(ctx, g1.ID, "est@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("removing a student the group does not list: %v", err)
	}
	if err := s.RemoveGroupStudent(ctx, g2.ID, "otra@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("removing another group's student: %v", err)
	}
	if ok, _ := s.IsActiveGroupMember(ctx, "otra@utpl.edu.ec"); !ok {
		t.Fatal("a refused removal ended another group's membership")
	}
	if n, err := s.AddGroupStudents(ctx, g2.ID, []domain.GroupStudent{{Email: "est@utpl.edu.ec", AddedAt: now()}}); err != nil || n != 1 {
		t.Fatalf("adding the removed student to another group = %d, %v", n, err)
	}
	if got, err := s.ActiveGroupOfStudent(ctx, "est@utpl.edu.ec"); err != nil || got.ID != g2.ID {
		t.Fatalf("ActiveGroupOfStudent after moving = %+v, %v; want %s", got, err, g2.ID)
	}

	// Finalizing frees the group's students for another group.
	if err := s.FinalizeGroup(ctx, g2.ID, now()); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveGroupStudent(ctx, g2.ID, "nuevo@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("removing from a finalized group: %v", err)
	}
	if got, _ := s.GetGroup(ctx, g2.ID); len(got.Estudiantes) != 2 {
		t.Fatalf("a finalized group keeps its students as history: %+v", got.Estudiantes)
	}
	if n, err := s.AddGroupStudents(ctx, g1.ID, []domain.GroupStudent{{Email: "est@utpl.edu.ec", AddedAt: now()}}); err != nil || n != 1 {
		t.Fatalf("adding a student of a finalized group = %d, %v", n, err)
	}
	if got, err := s.ActiveGroupOfStudent(ctx, "est@utpl.edu.ec"); err != nil || got.ID != g1.ID {
		t.Fatalf("ActiveGroupOfStudent = %+v, %v; want %s", got, err, g1.ID)
	}
	if err := s.FinalizeGroup(ctx, g1.ID, now()); err != nil {
		t.Fatal(err)
	}
	// Membership ends with the group, at once.
	for _, mail := range []string{"est@utpl.edu.ec", "otra@utpl.edu.ec", "nuevo@utpl.edu.ec", "nadie@utpl.edu.ec"} {
		if ok, err := s.IsActiveGroupMember(ctx, mail); err != nil || ok {
			t.Fatalf("IsActiveGroupMember(%q) after finalize = %v, %v; want false", mail, ok, err)
		}
		if _, err := s.ActiveGroupOfStudent(ctx, mail); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("ActiveGroupOfStudent(%q) after finalize: err = %v, want ErrNotFound", mail, err)
		}
	}
}

// testAddToFinalizedGroup: adding re-checks the status inside its own
// transaction, so a group finalized after the caller read it gets nothing.
func testAddToFinalizedGroup(t *testing.T, s store.Store) {
	g := newGroup(t, s, "fin@utpl.edu.ec", "a@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeGroup(ctx, g.ID, now()); err != nil {
		t.Fatal(err)
	}
	n, err := s.AddGroupStudents(ctx, g.ID, []domain.GroupStudent{{Email: "b@utpl.edu.ec", AddedAt: now()}})
	if !errors.Is(err, domain.ErrNotFound) || n != 0 {
		t.Fatalf("AddGroupStudents to a finalized group = %d, %v; want 0, ErrNotFound", n, err)
	}
	if got, _ := s.GetGroup(ctx, g.ID); len(got.Estudiantes) != 1 {
		t.Fatalf("a finalized group got students: %+v", got.Estudiantes)
	}
	if _, err := s.AddGroupStudents(ctx, "missing", []domain.GroupStudent{{Email: "b@utpl.edu.ec", AddedAt: now()}}); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("AddGroupStudents to a missing group: %v", err)
	}

	// Racing adds and a finalize: whatever the order, every add either
	// reports ErrNotFound or its students are in the finalized group.
	g2 := newGroup(t, s, "fin@utpl.edu.ec", "a@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g2); err != nil {
		t.Fatal(err)
	}
	const n2 = 6
	var wg sync.WaitGroup
	added := make([]int, n2)
	errs := make([]error, n2)
	for i := range n2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			added[i], errs[i] = s.AddGroupStudents(ctx, g2.ID, []domain.GroupStudent{{Email: fmt.Sprintf("r%d@utpl.edu.ec", i), AddedAt: now()}})
		}()
	}
	if err := s.FinalizeGroup(ctx, g2.ID, now()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	want := 1
	for i := range n2 {
		switch {
		case errs[i] == nil && added[i] == 1:
			want++
		case errors.Is(errs[i], domain.ErrNotFound) && added[i] == 0:
		default:
			t.Fatalf("add %d = %d, %v", i, added[i], errs[i])
		}
	}
	if got, _ := s.GetGroup(ctx, g2.ID); len(got.Estudiantes) != want {
		t.Fatalf("finalized group has %d students, want %d (the adds that succeeded)", len(got.Estudiantes), want)
	}
}

func testLargeMailInLookup(t *testing.T, s store.Store) {
	var mails []string
	for i := range 1200 {
		m := fmt.Sprintf("u%04d@utpl.edu.ec", i)
		mails = append(mails, m)
		if i%3 == 0 {
			mustUser(t, s, m, domain.RoleStudent)
		}
	}
	got, err := s.ListUsersByMail(ctx, mails)
	if err != nil || len(got) != 400 {
		t.Fatalf("ListUsersByMail over 1200 mails = %d, %v; want 400", len(got), err)
	}
	g := newGroup(t, s, "big@utpl.edu.ec", mails...)
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetGroup(ctx, g.ID); len(got.Estudiantes) != 1200 {
		t.Fatalf("group of 1200 has %d students", len(got.Estudiantes))
	}
}

// testSessionRevocation: a revocation takes effect at once. Once
// DeleteUserSessions or DeleteSession returns, no read finds the session,
// and a touch racing the revocation (a request of that user arriving at
// the same time) does not bring it back.
func testSessionRevocation(t *testing.T, s store.Store) {
	u := mustUser(t, s, "revocar@utpl.edu.ec", domain.RoleStudent)
	t0 := now()
	hashes := []string{"rev-0", "rev-1", "rev-2"}
	for _, h := range hashes {
		if err := s.CreateSession(ctx, domain.Session{TokenHash: h, UserID: u.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	gone := func(when string, hs ...string) {
		t.Helper()
		for _, h := range hs {
			if se, err := s.GetSession(ctx, h); !errors.Is(err, domain.ErrNotFound) {
				t.Fatalf("%s: session %s = %+v, %v; want ErrNotFound", when, h, se, err)
			}
		}
	}
	var wg sync.WaitGroup
	for i, h := range hashes {
		wg.Go(func() {
			if err := s.TouchSession(ctx, h, t0.Add(time.Duration(i+1)*time.Minute)); err != nil {
				t.Error(err)
			}
		})
	}
	if err := s.DeleteUserSessions(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	gone("the read right after DeleteUserSessions", hashes...)
	wg.Wait()
	gone("after the racing touches", hashes...)

	// One session, signed out while its user keeps using it.
	if err := s.CreateSession(ctx, domain.Session{TokenHash: "rev-one", UserID: u.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	wg.Go(func() {
		if err := s.TouchSession(ctx, "rev-one", t0.Add(time.Minute)); err != nil {
			t.Error(err)
		}
	})
	if err := s.DeleteSession(ctx, "rev-one"); err != nil {
		t.Fatal(err)
	}
	gone("the read right after DeleteSession", "rev-one")
	wg.Wait()
	gone("after the racing touch", "rev-one")
}

// testLargeGroup: a group of the largest roster a tutor can load (5,000
// rows) is stored whole, in one call, and can still grow.
func testLargeGroup(t *testing.T, s store.Store) {
	const size = 5000
	g := newGroup(t, s, "grande@utpl.edu.ec")
	for i := range size {
		g.Estudiantes = append(g.Estudiantes, domain.GroupStudent{
			Email:   fmt.Sprintf("estudiante.numero.%04d@alumnos.utpl.edu.ec", i),
			Name:    fmt.Sprintf("Nombre Segundo Nombre Apellido Paterno Materno %04d", i),
			AddedAt: g.CreatedAt,
		})
	}
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	more := []domain.GroupStudent{{Email: g.Estudiantes[size-1].Email, AddedAt: now()}, {Email: "nuevo.grande@utpl.edu.ec", AddedAt: now()}}
	if n, err := s.AddGroupStudents(ctx, g.ID, more); err != nil || n != 1 {
		t.Fatalf("AddGroupStudents to a group of %d = %d, %v; want 1", size, n, err)
	}
	got, err := s.GetGroup(ctx, g.ID)
	if err != nil || len(got.Estudiantes) != size+1 || got.Estudiantes[size].Email != "nuevo.grande@utpl.edu.ec" {
		t.Fatalf("GetGroup = %d students, %v", len(got.Estudiantes), err)
	}
	if ok, err := s.IsActiveGroupMember(ctx, g.Estudiantes[size-1].Email); err != nil || !ok {
		t.Fatalf("IsActiveGroupMember(the last student) = %v, %v", ok, err)
	}
}
