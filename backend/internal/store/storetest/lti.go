package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

func samplePlatform(issuer, clientID string) domain.LTIPlatform {
	return domain.LTIPlatform{
		ID: domain.LTIPlatformID(issuer, clientID), Issuer: issuer, ClientID: clientID, DeploymentIDs: []string{"1:abc", "2:def"},
		AuthURL: issuer + "/api/lti/authorize_redirect", TokenURL: issuer + "/login/oauth2/token", JWKSURL: issuer + "/api/lti/security/jwks",
		FrameOrigins: []string{"https://utpl.instructure.com"}, AllowTutors: true, CreatedAt: now(),
	}
}

func testLTIPlatforms(t *testing.T, s store.Store) {
	canvas := samplePlatform("https://canvas.instructure.com", "10000000000001")
	if err := s.CreateLTIPlatform(ctx, canvas); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetLTIPlatform(ctx, canvas.ID)
	if err != nil || !slices.Equal(got.DeploymentIDs, canvas.DeploymentIDs) || !slices.Equal(got.FrameOrigins, canvas.FrameOrigins) ||
		got.Issuer != canvas.Issuer || got.ClientID != canvas.ClientID || got.AuthURL != canvas.AuthURL || got.TokenURL != canvas.TokenURL ||
		got.JWKSURL != canvas.JWKSURL || !got.AllowTutors || !got.CreatedAt.Equal(canvas.CreatedAt) {
		t.Fatalf("GetLTIPlatform = %+v, %v; want %+v", got, err, canvas)
	}
	if err := s.CreateLTIPlatform(ctx, canvas); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("registering the same issuer and client id again: %v", err)
	}
	// Another client id of the same issuer is another registration; no
	// deployments and no origins read back as empty lists.
	moodle := samplePlatform("https://canvas.instructure.com", "0002")
	moodle.DeploymentIDs, moodle.FrameOrigins, moodle.AllowTutors = nil, nil, false
	if err := s.CreateLTIPlatform(ctx, moodle); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListLTIPlatforms(ctx)
	if err != nil || len(all) != 2 || all[0].ClientID != "0002" || all[1].ClientID != "10000000000001" {
		t.Fatalf("ListLTIPlatforms = %+v, %v", all, err)
	}
	if all[0].DeploymentIDs == nil || len(all[0].DeploymentIDs) != 0 || all[0].FrameOrigins == nil || all[0].AllowTutors {
		t.Fatalf("empty lists = %+v", all[0])
	}
	if err := s.DeleteLTIPlatform(ctx, canvas.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetLTIPlatform(ctx, canvas.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleted platform: %v", err)
	}
	if err := s.DeleteLTIPlatform(ctx, canvas.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleting again: %v", err)
	}
	// Once removed, it can be registered again.
	if err := s.CreateLTIPlatform(ctx, canvas); err != nil {
		t.Fatalf("registering again after removal: %v", err)
	}
}

func testLTIKeys(t *testing.T, s store.Store) {
	if keys, err := s.ListLTIKeys(ctx); err != nil || len(keys) != 0 {
		t.Fatalf("no keys yet = %+v, %v", keys, err)
	}
	t0 := now()
	if err := s.AddLTIKey(ctx, domain.LTIKey{ID: "k1", PrivateKeyPEM: "pem-1", CreatedAt: t0}, t0); err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(time.Hour)
	if err := s.AddLTIKey(ctx, domain.LTIKey{ID: "k2", PrivateKeyPEM: "pem-2", CreatedAt: t1}, t1); err != nil {
		t.Fatal(err)
	}
	keys, err := s.ListLTIKeys(ctx)
	if err != nil || len(keys) != 2 || keys[0].ID != "k2" || keys[1].ID != "k1" {
		t.Fatalf("ListLTIKeys = %+v, %v", keys, err)
	}
	if keys[0].RetiredAt != nil || keys[0].PrivateKeyPEM != "pem-2" || !keys[0].CreatedAt.Equal(t1) {
		t.Fatalf("the new key is current: %+v", keys[0])
	}
	if keys[1].RetiredAt == nil || !keys[1].RetiredAt.Equal(t1) {
		t.Fatalf("the old key is retired at the rotation: %+v", keys[1])
	}
	// A key already retired keeps its retirement time.
	t2 := t1.Add(time.Hour)
	if err := s.AddLTIKey(ctx, domain.LTIKey{ID: "k3", PrivateKeyPEM: "pem-3", CreatedAt: t2}, t2); err != nil {
		t.Fatal(err)
	}
	keys, _ = s.ListLTIKeys(ctx)
	if len(keys) != 3 || keys[2].RetiredAt == nil || !keys[2].RetiredAt.Equal(t1) || keys[1].RetiredAt == nil || !keys[1].RetiredAt.Equal(t2) {
		t.Fatalf("after a second rotation = %+v", keys)
	}
	// Rotations at once leave exactly one current key.
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := t2.Add(time.Duration(i+1) * time.Minute)
			if err := s.AddLTIKey(ctx, domain.LTIKey{ID: fmt.Sprint("r", i), PrivateKeyPEM: "pem", CreatedAt: at}, at); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	keys, _ = s.ListLTIKeys(ctx)
	current := 0
	for _, k := range keys {
		if k.RetiredAt == nil {
			current++
		}
	}
	if len(keys) != 3+racers || current != 1 {
		t.Fatalf("after concurrent rotations: %d keys, %d current", len(keys), current)
	}
}

func testLTIOnce(t *testing.T, s store.Store) {
	t0 := now()
	state := domain.LTIOnce{Kind: "state", Key: "h1", Data: `{"nonce":"n"}`, ExpiresAt: t0.Add(10 * time.Minute)}
	if err := s.PutLTIOnce(ctx, state); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLTIOnce(ctx, state); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("same kind and key again: %v", err)
	}
	other := state
	other.Kind = "nonce"
	if err := s.PutLTIOnce(ctx, other); err != nil {
		t.Fatalf("same key, other kind: %v", err)
	}
	got, err := s.TakeLTIOnce(ctx, "state", "h1", t0)
	if err != nil || got.Data != state.Data || !got.ExpiresAt.Equal(state.ExpiresAt) || got.Kind != "state" || got.Key != "h1" {
		t.Fatalf("TakeLTIOnce = %+v, %v", got, err)
	}
	if _, err := s.TakeLTIOnce(ctx, "state", "h1", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("taken twice: %v", err)
	}
	// An expired record is not given, and is gone.
	old := domain.LTIOnce{Kind: "code", Key: "h2", Data: "x", ExpiresAt: t0.Add(time.Minute)}
	if err := s.PutLTIOnce(ctx, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeLTIOnce(ctx, "code", "h2", t0.Add(time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("expired record taken: %v", err)
	}
	if err := s.PutLTIOnce(ctx, old); err != nil {
		t.Fatalf("an expired record that was taken is gone: %v", err)
	}
	// Concurrent takes: exactly one gets it.
	race := domain.LTIOnce{Kind: "code", Key: "race", Data: "d", ExpiresAt: t0.Add(time.Minute)}
	if err := s.PutLTIOnce(ctx, race); err != nil {
		t.Fatal(err)
	}
	var got1 atomic.Int32
	var wg sync.WaitGroup
	for range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.TakeLTIOnce(ctx, "code", "race", t0)
			switch {
			case err == nil:
				got1.Add(1)
			case !errors.Is(err, domain.ErrNotFound):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got1.Load() != 1 {
		t.Fatalf("%d takes got the record", got1.Load())
	}
	// The sweep removes what expired (the nonce and "h2"), not the rest.
	if err := s.PutLTIOnce(ctx, domain.LTIOnce{Kind: "code", Key: "later", ExpiresAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	n, err := s.DeleteExpiredLTIOnce(ctx, t0.Add(10*time.Minute))
	if err != nil || n != 2 {
		t.Fatalf("DeleteExpiredLTIOnce = %d, %v", n, err)
	}
	if _, err := s.TakeLTIOnce(ctx, "code", "later", t0); err != nil {
		t.Fatalf("the unexpired record was swept: %v", err)
	}
}

func testLTICourses(t *testing.T, s store.Store) {
	p := samplePlatform("https://canvas.instructure.com", "1")
	tutor := mustUser(t, s, "tutor@utpl.edu.ec", domain.RoleTutor)
	other := mustUser(t, s, "otro@utpl.edu.ec", domain.RoleTutor)
	t0 := now()
	course := func(ctxID, title string) domain.LTICourse {
		return domain.LTICourse{ID: domain.LTICourseID(p.ID, ctxID), PlatformID: p.ID, DeploymentID: "1:abc", ContextID: ctxID, Title: title,
			Label: "DER-101", MembershipsURL: "https://utpl.instructure.com/api/lti/courses/1/names_and_roles",
			LineItemsURL: "https://utpl.instructure.com/api/lti/courses/1/line_items", ServiceScopes: []string{"a", "b"}, Degree: "Derecho", UpdatedAt: t0}
	}
	a, b := course("ctx-a", "Derecho Procesal"), course("ctx-b", "Práctica Jurídica")
	for _, c := range []domain.LTICourse{a, b} {
		if err := s.PutLTICourse(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GetLTICourse(ctx, a.ID)
	if err != nil || got.Title != a.Title || got.ContextID != "ctx-a" || got.MembershipsURL != a.MembershipsURL || got.LineItemsURL != a.LineItemsURL ||
		!slices.Equal(got.ServiceScopes, a.ServiceScopes) || got.Degree != "Derecho" || got.DeploymentID != "1:abc" || got.Label != "DER-101" ||
		!got.UpdatedAt.Equal(t0) || got.PlatformID != p.ID {
		t.Fatalf("GetLTICourse = %+v, %v", got, err)
	}
	// A later launch replaces what the course says.
	a.Title, a.ServiceScopes, a.UpdatedAt = "Derecho Procesal II", nil, t0.Add(time.Minute)
	if err := s.PutLTICourse(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetLTICourse(ctx, a.ID); got.Title != "Derecho Procesal II" || len(got.ServiceScopes) != 0 || got.ServiceScopes == nil {
		t.Fatalf("replaced course = %+v", got)
	}
	if _, err := s.GetLTICourse(ctx, "missing"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing course: %v", err)
	}

	if err := s.LinkLTICourseTutor(ctx, a.ID, tutor.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.LinkLTICourseTutor(ctx, b.ID, tutor.ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListLTICoursesOfTutor(ctx, tutor.ID)
	if err != nil || len(list) != 2 || list[0].ID != b.ID || list[1].ID != a.ID || !list[0].LaunchedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("ListLTICoursesOfTutor = %+v, %v", list, err)
	}
	// Launching again moves the course first.
	if err := s.LinkLTICourseTutor(ctx, a.ID, tutor.ID, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	list, _ = s.ListLTICoursesOfTutor(ctx, tutor.ID)
	if len(list) != 2 || list[0].ID != a.ID || !list[0].LaunchedAt.Equal(t0.Add(2*time.Minute)) || list[0].Title != "Derecho Procesal II" {
		t.Fatalf("after a new launch = %+v", list)
	}
	if none, err := s.ListLTICoursesOfTutor(ctx, other.ID); err != nil || len(none) != 0 {
		t.Fatalf("another tutor's courses = %+v, %v", none, err)
	}

	// Subjects: by platform and email (normalised), replaced by a later one.
	subs := []domain.LTISubject{
		{PlatformID: p.ID, Email: "Ana@UTPL.edu.ec", Subject: "sub-ana", UpdatedAt: t0},
		{PlatformID: p.ID, Email: "luis@utpl.edu.ec", Subject: "sub-luis", UpdatedAt: t0},
		{PlatformID: "other", Email: "ana@utpl.edu.ec", Subject: "elsewhere", UpdatedAt: t0},
		{PlatformID: p.ID, Email: "ana@utpl.edu.ec", Subject: "sub-ana-2", UpdatedAt: t0.Add(time.Second)},
	}
	if err := s.PutLTISubjects(ctx, subs); err != nil {
		t.Fatal(err)
	}
	sub, err := s.LTISubjectByEmail(ctx, p.ID, "ANA@utpl.edu.ec")
	if err != nil || sub.Subject != "sub-ana-2" || sub.Email != "ana@utpl.edu.ec" || sub.PlatformID != p.ID {
		t.Fatalf("LTISubjectByEmail = %+v, %v", sub, err)
	}
	if sub, _ := s.LTISubjectByEmail(ctx, "other", "ana@utpl.edu.ec"); sub.Subject != "elsewhere" {
		t.Fatalf("per platform = %+v", sub)
	}
	if _, err := s.LTISubjectByEmail(ctx, p.ID, "nadie@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown email: %v", err)
	}
	if err := s.PutLTISubjects(ctx, nil); err != nil {
		t.Fatalf("no subjects: %v", err)
	}
	// A roster of thousands is stored in one call.
	many := make([]domain.LTISubject, 1200)
	for i := range many {
		many[i] = domain.LTISubject{PlatformID: p.ID, Email: fmt.Sprintf("e%d@utpl.edu.ec", i), Subject: fmt.Sprint("s", i), UpdatedAt: t0}
	}
	if err := s.PutLTISubjects(ctx, many); err != nil {
		t.Fatal(err)
	}
	if sub, _ := s.LTISubjectByEmail(ctx, p.ID, "e1199@utpl.edu.ec"); sub.Subject != "s1199" {
		t.Fatalf("last of many = %+v", sub)
	}

	// Group links: one per group, replaced keeping when it was made.
	g := newGroup(t, s, tutor.Mail, "ana@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetLTIGroupLink(ctx, g.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("no link yet: %v", err)
	}
	link := domain.LTIGroupLink{GroupID: g.ID, CourseID: a.ID, CreatedAt: t0, UpdatedAt: t0}
	if err := s.PutLTIGroupLink(ctx, link); err != nil {
		t.Fatal(err)
	}
	link.LineItemURL, link.LineItemLabel, link.CreatedAt, link.UpdatedAt = "https://utpl.instructure.com/api/lti/courses/1/line_items/7", "Simulacro oral", t0.Add(time.Hour), t0.Add(time.Hour)
	if err := s.PutLTIGroupLink(ctx, link); err != nil {
		t.Fatal(err)
	}
	gotLink, err := s.GetLTIGroupLink(ctx, g.ID)
	if err != nil || gotLink.CourseID != a.ID || gotLink.LineItemURL != link.LineItemURL || gotLink.LineItemLabel != "Simulacro oral" ||
		!gotLink.CreatedAt.Equal(t0) || !gotLink.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("GetLTIGroupLink = %+v, %v", gotLink, err)
	}
}

func testJobBySubject(t *testing.T, s store.Store) {
	t0 := now()
	j := domain.Job{ID: "g1", Kind: "lti_score", Subject: "attempt|1", Payload: "{}", NextRunAt: t0, CreatedAt: t0}
	if err := s.EnqueueJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	if err := s.EnqueueJob(ctx, domain.Job{ID: "g0", Kind: "lti_score", Payload: "{}", NextRunAt: t0.Add(time.Second), CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetJobBySubject(ctx, "lti_score", "attempt|1")
	if err != nil || got.ID != "g1" || got.Status != domain.JobPending {
		t.Fatalf("GetJobBySubject = %+v, %v", got, err)
	}
	for _, c := range [][2]string{{"lti_score", "attempt|2"}, {"transcribe", "attempt|1"}, {"lti_score", ""}} {
		if _, err := s.GetJobBySubject(ctx, c[0], c[1]); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("GetJobBySubject(%q, %q) = %v", c[0], c[1], err)
		}
	}

	// A running job cannot be retried; a failed one goes back to the queue
	// with its attempts kept and its error cleared.
	claimed, err := s.ClaimJob(ctx, "lti_score", t0, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RetryJob(ctx, claimed.ID, t0); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("retrying a running job: %v", err)
	}
	if err := s.FinishJob(ctx, claimed.ID, 1, domain.JobFailed, "HTTP 400", t0, t0); err != nil {
		t.Fatal(err)
	}
	later := t0.Add(time.Hour)
	if err := s.RetryJob(ctx, claimed.ID, later); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetJob(ctx, claimed.ID)
	if got.Status != domain.JobPending || got.LastError != "" || got.Attempts != 1 || !got.NextRunAt.Equal(later) {
		t.Fatalf("retried job = %+v", got)
	}
	if _, err := s.ClaimJob(ctx, "lti_score", t0.Add(time.Minute), t0.Add(2*time.Minute)); err != nil {
		t.Fatalf("the other job is due: %v", err)
	}
	if _, err := s.ClaimJob(ctx, "lti_score", t0.Add(time.Minute), t0.Add(2*time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the retried job is not due before its time: %v", err)
	}
	again, err := s.ClaimJob(ctx, "lti_score", later, later.Add(time.Minute))
	if err != nil || again.ID != claimed.ID || again.Attempts != 2 {
		t.Fatalf("claim after retry = %+v, %v", again, err)
	}
	if err := s.RetryJob(ctx, "missing", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("retrying a missing job: %v", err)
	}
}
