package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// testTransfer checks the export and import the migration uses: every
// kind pages completely, keys find the same records, an import into an
// empty store reproduces the source record for record and keeps its rules
// (unique mails, titles, active groups and memberships, attempts in
// progress, job subjects, platforms, the current LTI key) and what it
// derives (storage totals), importing again changes nothing, a changed
// record replaces the stored one (its old keys freed), and a record that
// would break a rule held by another is refused whole. Short-lived data
// (sessions, one-time tokens, rate limits, LTI single-use records) is not
// carried over.
func testTransfer(t *testing.T, newStore func(t *testing.T) store.Store) {
	src, dst := transferOf(t, newStore(t)), transferOf(t, newStore(t))
	fillForTransfer(t, src)

	all := exportAll(t, src, 2)
	for _, kind := range store.Kinds {
		if len(all[kind]) == 0 {
			t.Errorf("the dataset has no %s", kind)
		}
		n, err := src.CountRecords(ctx, kind)
		if err != nil || n != int64(len(all[kind])) {
			t.Errorf("CountRecords(%s) = %d, %v; paging found %d", kind, n, err, len(all[kind]))
		}
		keys := slices.Collect(maps.Keys(all[kind]))
		got, err := src.ExportKeys(ctx, kind, append(keys, "no-existe", "no/existe"))
		if err != nil || len(got) != len(keys) {
			t.Fatalf("ExportKeys(%s) = %d records, %v; want %d", kind, len(got), err, len(keys))
		}
		for _, rec := range got {
			if canonical(t, rec) != canonical(t, all[kind][rec.Key]) {
				t.Errorf("%s %s by key differs from its page:\n%s\n%s", kind, rec.Key, canonical(t, rec), canonical(t, all[kind][rec.Key]))
			}
		}
	}
	users := all[store.KindUsers]
	var withPassword int
	for _, rec := range users {
		if rec.Value.(store.UserRecord).PasswordHash != "" {
			withPassword++
		}
	}
	if withPassword != 1 {
		t.Errorf("%d exported users carry a password hash, want 1", withPassword)
	}

	// Into an empty store, twice: the same records, the same rules.
	for range 2 {
		importAll(t, dst, all)
		sameRecords(t, all, exportAll(t, dst, 3))
	}
	checkImportedRules(t, dst)
	checkNotCarriedOver(t, dst)
	// A chunk uploaded after the import counts on top of the imported ones.
	var open store.RecordingRecord
	for _, rec := range all[store.KindRecordings] {
		if r := rec.Value.(store.RecordingRecord); r.Recording.ID == "rec-abierta" {
			open = r
		}
	}
	if err := dst.AddChunk(ctx, open.Recording.AttemptID, open.Recording.ID, domain.ChunkInfo{Seq: 2, Bytes: 500, SHA256: "sha-tarde"}); err != nil {
		t.Fatal(err)
	}
	student, err := dst.GetUserByMail(ctx, "importada@utpl.edu.ec")
	if err != nil {
		t.Fatal(err)
	}
	if used, err := dst.StorageUsed(ctx, student.ID); err != nil || used != transferStorage+500 {
		t.Errorf("storage after a chunk uploaded after the import = %d, %v; want %d", used, err, transferStorage+500)
	}
	// What the checks changed (an attempt saved, a job claimed, a second
	// factor used, a chunk added) is put back.
	importAll(t, dst, all)
	sameRecords(t, all, exportAll(t, dst, 50))
	if used, err := dst.StorageUsed(ctx, student.ID); err != nil || used != transferStorage {
		t.Errorf("storage after the recording was imported again = %d, %v; want %d", used, err, transferStorage)
	}

	// A changed record replaces the stored one and frees its old keys.
	changed := map[store.Kind]store.Record{}
	for _, rec := range all[store.KindUsers] {
		v := rec.Value.(store.UserRecord)
		if v.User.Mail == "importada@utpl.edu.ec" {
			v.User.Mail, v.PasswordHash = "renombrada@utpl.edu.ec", ""
			changed[store.KindUsers] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: v}
		}
	}
	for _, rec := range all[store.KindCases] {
		c := rec.Value.(domain.Case)
		c.Title += " (revisado)"
		changed[store.KindCases] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: c}
		break
	}
	for _, rec := range all[store.KindGroups] {
		if g := rec.Value.(domain.Group); g.Status == domain.GroupActive {
			g.Estudiantes = g.Estudiantes[:1]
			at := now()
			g.Status, g.FinalizedAt = domain.GroupFinalized, &at
			changed[store.KindGroups] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: g}
		}
	}
	for _, rec := range all[store.KindMFA] {
		m := rec.Value.(domain.MFA)
		m.EnabledAt, m.LastStep, m.RecoveryCodes = nil, 0, nil // reset, as `users reset-mfa` and a new enrolment leave it
		changed[store.KindMFA] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: m}
	}
	for _, rec := range all[store.KindLTIPlatforms] {
		p := rec.Value.(domain.LTIPlatform)
		p.ClientID, p.DeploymentIDs = "transfer-client-2", append(p.DeploymentIDs, "3:ghi")
		changed[store.KindLTIPlatforms] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: p}
	}
	for _, rec := range all[store.KindLTIKeys] {
		if k := rec.Value.(domain.LTIKey); k.RetiredAt == nil {
			at := now()
			k.RetiredAt = &at
			changed[store.KindLTIKeys] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: k}
		}
	}
	for _, rec := range all[store.KindLTIGroupLinks] {
		l := rec.Value.(domain.LTIGroupLink)
		l.LineItemURL, l.LineItemLabel, l.CreatedAt = l.LineItemURL+"0", "Simulacro final", l.CreatedAt.Add(-time.Hour)
		changed[store.KindLTIGroupLinks] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: l}
	}
	for _, rec := range all[store.KindRecordings] {
		if r := rec.Value.(store.RecordingRecord); len(r.Chunks) == 3 {
			r.Chunks = r.Chunks[:2]
			r.Recording.Chunks, r.Recording.Bytes = 2, r.Chunks[0].Bytes+r.Chunks[1].Bytes
			changed[store.KindRecordings] = store.Record{Kind: rec.Kind, Key: rec.Key, Value: r}
		}
	}
	for _, kind := range store.Kinds {
		if rec, ok := changed[kind]; ok {
			if err := dst.ImportRecords(ctx, []store.Record{rec}); err != nil {
				t.Fatalf("replace %s %s: %v", kind, rec.Key, err)
			}
			all[kind][rec.Key] = rec
		}
	}
	sameRecords(t, all, exportAll(t, dst, 100))
	if _, err := dst.GetUserByMail(ctx, "renombrada@utpl.edu.ec"); err != nil {
		t.Errorf("the new mail does not find the user: %v", err)
	}
	if err := dst.CreateUser(ctx, domain.User{ID: domain.NewID(), Mail: "importada@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: now()}); err != nil {
		t.Errorf("the old mail is still taken: %v", err)
	}
	if err := dst.CreateCase(ctx, sampleCase("Caso exportado", "Penal")); err != nil {
		t.Errorf("the old title is still taken: %v", err)
	}
	if _, err := dst.ActiveGroupByTutor(ctx, "tutora.export@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a finalized group is still the tutor's active group: %v", err)
	}
	for _, mail := range []string{"importada@utpl.edu.ec", "tercera@utpl.edu.ec"} {
		if in, err := dst.IsActiveGroupMember(ctx, mail); err != nil || in {
			t.Errorf("%s is still a member of the finalized group: %v, %v", mail, in, err)
		}
	}
	// The replaced recording lost its last chunk (1002 bytes).
	if used, err := dst.StorageUsed(ctx, student.ID); err != nil || used != transferStorage-1002 {
		t.Errorf("storage of the student after a recording was replaced = %d, %v; want %d", used, err, transferStorage-1002)
	}
	tutor, err := dst.GetUserByMail(ctx, "tutora.export@utpl.edu.ec")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := dst.GetMFA(ctx, tutor.ID); err != nil || m.Enabled() || len(m.RecoveryCodes) != 0 {
		t.Errorf("a replaced second factor = %+v, %v", m, err)
	}
	again := samplePlatform(transferIssuer, transferClient)
	again.ID = domain.NewID()
	if err := dst.CreateLTIPlatform(ctx, again); err != nil {
		t.Errorf("the platform's old client id is still taken: %v", err)
	}
	link := changed[store.KindLTIGroupLinks].Value.(domain.LTIGroupLink)
	if l, err := dst.GetLTIGroupLink(ctx, link.GroupID); err != nil || l.LineItemLabel != "Simulacro final" || !l.CreatedAt.Equal(link.CreatedAt) {
		t.Errorf("a replaced group link = %+v, %v", l, err)
	}
	// With the current key retired, another can be current.
	next := domain.LTIKey{ID: "kid-siguiente", PrivateKeyPEM: "pem-siguiente", CreatedAt: now()}
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindLTIKeys, Key: next.ID, Value: next}}); err != nil {
		t.Errorf("a current key after the imported one was retired: %v", err)
	}

	// A record that breaks a rule another record holds is refused whole.
	intruder := domain.User{ID: domain.NewID(), Mail: "renombrada@utpl.edu.ec", Role: domain.RoleTutor, CreatedAt: now()}
	err = dst.ImportRecords(ctx, []store.Record{{Kind: store.KindUsers, Key: intruder.ID, Value: store.UserRecord{User: intruder, PasswordHash: "$argon2id$y"}}})
	if !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second user with a taken mail: %v", err)
	}
	if _, err := dst.GetUser(ctx, intruder.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the refused user was stored: %v", err)
	}
	other := sampleCase("Caso exportado", "Civil")
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindCases, Key: other.ID, Value: other}}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second case with a taken title: %v", err)
	}
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindCases, Key: "x", Value: "not a case"}}); err == nil {
		t.Fatal("a record of the wrong type was accepted")
	}
	// A student is a member of one active group.
	if err := dst.CreateGroup(ctx, newGroup(t, dst, "nuevo.tutor@utpl.edu.ec", "miembro@utpl.edu.ec")); err != nil {
		t.Fatal(err)
	}
	rival := newGroup(t, dst, "rival.tutor@utpl.edu.ec", "libre@utpl.edu.ec", "miembro@utpl.edu.ec")
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindGroups, Key: rival.ID, Value: rival}}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("an active group with a member of another: %v", err)
	}
	if _, err := dst.GetGroup(ctx, rival.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the refused group was stored: %v", err)
	}
	if in, err := dst.IsActiveGroupMember(ctx, "libre@utpl.edu.ec"); err != nil || in {
		t.Fatalf("a student of the refused group is a member: %v, %v", in, err)
	}
	// One registration of an issuer and client ID; one current key.
	twin := samplePlatform(transferIssuer, "transfer-client-2")
	twin.ID = domain.NewID()
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindLTIPlatforms, Key: twin.ID, Value: twin}}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second platform with the same issuer and client id: %v", err)
	}
	second := domain.LTIKey{ID: "kid-intrusa", PrivateKeyPEM: "pem-intrusa", CreatedAt: now()}
	if err := dst.ImportRecords(ctx, []store.Record{{Kind: store.KindLTIKeys, Key: second.ID, Value: second}}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second current key: %v", err)
	}
	if keys, err := dst.ListLTIKeys(ctx); err != nil || len(keys) != 3 || keys[0].ID != "kid-siguiente" {
		t.Fatalf("keys after a refused one = %+v, %v", keys, err)
	}
}

// The dataset's LTI platform, and the bytes of its student's recordings
// (two takes of 3 and 2 chunks; a deleted one holds none).
const (
	transferIssuer  = "https://utpl.instructure.com"
	transferClient  = "transfer-client"
	transferStorage = 1000 + 1001 + 1002 + 1000 + 1001
	transferToken   = "hash-de-enlace-de-restablecimiento"
	transferOnce    = "hash-de-estado-de-ingreso"
	transferSession = "hash-de-sesion"
)

// checkNotCarriedOver: short-lived data stays behind (docs/migrate-data.md).
func checkNotCarriedOver(t *testing.T, s store.Store) {
	t.Helper()
	if _, err := s.GetSession(ctx, transferSession); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a session was carried over: %v", err)
	}
	if _, err := s.GetToken(ctx, transferToken); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a reset link was carried over: %v", err)
	}
	if _, err := s.TakeLTIOnce(ctx, "state", transferOnce, now()); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an LTI login state was carried over: %v", err)
	}
	if c, err := s.GetCounter(ctx, transferCounter, now()); err != nil || !c.IsZero() {
		t.Errorf("a counter was carried over: %+v, %v", c, err)
	}
}

// transferCounter is a counter the source holds and the destination must
// not get (counters are not migrated).
const transferCounter = "limit:login:importada@utpl.edu.ec"

func transferOf(t *testing.T, s store.Store) store.Transfer {
	t.Helper()
	tr, ok := s.(store.Transfer)
	if !ok {
		t.Fatalf("%T does not implement store.Transfer", s)
	}
	return tr
}

// fillForTransfer stores at least one record of every kind, with the
// details a copy could lose: a password, a version above 1, flags, chunk
// metadata, a grade, a finished job.
func fillForTransfer(t *testing.T, s store.Transfer) {
	t.Helper()
	student := mustUser(t, s, "Importada@UTPL.edu.ec", domain.RoleStudent)
	if err := s.SetPasswordHash(ctx, student.ID, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"); err != nil {
		t.Fatal(err)
	}
	tutor := mustUser(t, s, "tutora.export@utpl.edu.ec", domain.RoleTutor)
	if err := s.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: "sub-123", UserID: tutor.ID}); err != nil {
		t.Fatal(err)
	}
	// An LTI identity's provider names the platform's issuer, a URL.
	for _, id := range []domain.Identity{{Provider: "lti:" + transferIssuer, Subject: "sub/importada%20", UserID: student.ID},
		{Provider: "lti:" + transferIssuer, Subject: "sub-tutora", UserID: tutor.ID}} {
		if err := s.LinkIdentity(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	// The tutor's second factor, one recovery code used.
	enabled, used := now().Add(-time.Hour), now()
	if err := s.PutMFA(ctx, domain.MFA{UserID: tutor.ID, Secret: "KRSXG5CTMVRXEZLU", EnabledAt: &enabled, LastStep: 57000000,
		RecoveryCodes: []domain.RecoveryCode{{Hash: "codigo-a"}, {Hash: "codigo-b", UsedAt: &used}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateDegree(ctx, domain.Degree{ID: "educacion", Nombre: "Educación"}); err != nil {
		t.Fatal(err)
	}
	// A finished group of the student's, then the active one (a student is
	// in at most one active group at a time).
	old := newGroup(t, s, "otro.tutor@utpl.edu.ec", "importada@utpl.edu.ec")
	if err := s.CreateGroup(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeGroup(ctx, old.ID, now()); err != nil {
		t.Fatal(err)
	}
	g := newGroup(t, s, "tutora.export@utpl.edu.ec", "importada@utpl.edu.ec", "otra@utpl.edu.ec", "tercera@utpl.edu.ec")
	if err := s.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}

	// LTI: a platform, the tool's keys (the first retired, still
	// published), a course with its tutor, the student's subject, and the
	// group's link to the course and its column.
	platform := samplePlatform(transferIssuer, transferClient)
	if err := s.CreateLTIPlatform(ctx, platform); err != nil {
		t.Fatal(err)
	}
	for i, kid := range []string{"kid-retirada", "kid-actual"} {
		at := now().Add(time.Duration(i-1) * time.Minute)
		if err := s.AddLTIKey(ctx, domain.LTIKey{ID: kid, PrivateKeyPEM: "-----BEGIN PRIVATE KEY-----\n" + kid, CreatedAt: at}, at); err != nil {
			t.Fatal(err)
		}
	}
	course := domain.LTICourse{ID: domain.LTICourseID(platform.ID, "curso-penal"), PlatformID: platform.ID, DeploymentID: "1:abc",
		ContextID: "curso-penal", Title: "Derecho Penal", Label: "DP-1", MembershipsURL: transferIssuer + "/api/lti/courses/7/names_and_roles",
		LineItemsURL: transferIssuer + "/api/lti/courses/7/line_items", ServiceScopes: []string{"https://purl.imsglobal.org/spec/lti-ags/scope/score"},
		Degree: "Derecho", UpdatedAt: now()}
	if err := s.PutLTICourse(ctx, course); err != nil {
		t.Fatal(err)
	}
	if err := s.LinkLTICourseTutor(ctx, course.ID, tutor.ID, now()); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLTISubjects(ctx, []domain.LTISubject{{PlatformID: platform.ID, Email: "Importada@UTPL.edu.ec", Subject: "sub-importada", UpdatedAt: now()}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLTIGroupLink(ctx, domain.LTIGroupLink{GroupID: g.ID, CourseID: course.ID, LineItemURL: course.LineItemsURL + "/31",
		LineItemLabel: "Simulacro oral", CreatedAt: now().Add(-time.Minute), UpdatedAt: now()}); err != nil {
		t.Fatal(err)
	}

	// Short-lived data a migration leaves behind.
	if err := s.CreateSession(ctx, domain.Session{ID: "sesion-1", TokenHash: transferSession, UserID: student.ID, CreatedAt: now(),
		LastSeenAt: now(), ExpiresAt: now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, domain.OneTimeToken{Hash: transferToken, Kind: domain.TokenPasswordReset, UserID: student.ID, IssuedBy: tutor.ID,
		CreatedAt: now(), ExpiresAt: now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutLTIOnce(ctx, domain.LTIOnce{Kind: "state", Key: transferOnce, Data: "{}", ExpiresAt: now().Add(10 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateCounter(ctx, transferCounter, now(), func(c store.Counter) store.Counter {
		return store.Counter{Count: 3, Start: now(), ExpiresAt: now().Add(time.Hour)}
	}); err != nil {
		t.Fatal(err)
	}
	c := sampleCase("Caso exportado", "Penal")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	bp := domain.DefaultBlueprint("derecho")
	bp.ClosingSec = 75
	if err := s.PutBlueprint(ctx, bp, now()); err != nil {
		t.Fatal(err)
	}
	rb := domain.DefaultRubric("derecho")
	rb.Version = 3
	if err := s.PutRubric(ctx, rb, now()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMeta(ctx, "demo_bank_v1", "1"); err != nil {
		t.Fatal(err)
	}

	finished := newAttempt(t, s, student, c)
	if err := s.CreateAttempt(ctx, finished); err != nil {
		t.Fatal(err)
	}
	finished.Version = 1
	finished.Sync(now().Add(3 * time.Hour))
	levels := domain.Levels{}
	for _, cr := range finished.Rubric.Criteria {
		levels[cr.ID] = 3
	}
	if err := finished.SelfAssess(levels, now().Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, finished); err != nil {
		t.Fatal(err)
	}
	finished.Version = 2
	if err := finished.GradeBy(tutor, levels, "Bien argumentado.", now().Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, finished); err != nil {
		t.Fatal(err)
	}
	current := newAttempt(t, s, student, c)
	current.CreatedAt = now().Add(5 * time.Hour)
	if err := s.CreateAttempt(ctx, current); err != nil {
		t.Fatal(err)
	}

	recs := []domain.Recording{
		{ID: "rec-compuesta", AttemptID: finished.ID, Phase: 1, MimeType: "audio/webm;codecs=opus", CreatedAt: now()},
		{ID: "rec-abierta", AttemptID: current.ID, Phase: 1, MimeType: "audio/webm;codecs=opus", CreatedAt: now()},
		{ID: "rec-borrada", AttemptID: finished.ID, Phase: 3, MimeType: "audio/ogg", CreatedAt: now()},
	}
	for i, r := range recs {
		if _, err := s.CreateRecording(ctx, r); err != nil {
			t.Fatal(err)
		}
		for seq := range 3 - i {
			if err := s.AddChunk(ctx, r.AttemptID, r.ID, domain.ChunkInfo{Seq: seq, Bytes: int64(1000 + seq), SHA256: "sha-" + r.ID + string(rune('a'+seq))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	done := recs[0]
	done.Complete, done.DurationMs, done.Levels = true, 6000, []float64{0.25, 0.5}
	if err := s.UpdateRecording(ctx, done); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRecordingComposed(ctx, done.AttemptID, done.ID); err != nil {
		t.Fatal(err)
	}
	gone := recs[2]
	gone.Deleted = true
	if err := s.DeleteChunks(ctx, gone.AttemptID, gone.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateRecording(ctx, gone); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTranscript(ctx, domain.Transcript{AttemptID: done.AttemptID, RecordingID: done.ID, Source: domain.TranscriptEdited,
		Language: "es", Segments: []domain.Segment{{StartMs: 0, EndMs: 1500, Text: "Señores del tribunal"}}, UpdatedAt: now(), UpdatedBy: tutor.Mail}); err != nil {
		t.Fatal(err)
	}
	pending := domain.Job{ID: domain.NewID(), Kind: "transcribe", Subject: domain.RecordingSubject(current.ID, "rec-abierta"),
		Payload: `{"attemptId":"x"}`, NextRunAt: now(), CreatedAt: now()}
	finishedJob := domain.Job{ID: domain.NewID(), Kind: "transcribe", Subject: domain.RecordingSubject(done.AttemptID, done.ID),
		Payload: `{"attemptId":"y"}`, NextRunAt: now().Add(-time.Minute), CreatedAt: now().Add(-time.Hour)}
	// A grade waiting to go to the course's column (lti.JobKind).
	score := domain.Job{ID: domain.NewID(), Kind: "lti_score", Subject: fmt.Sprintf("%s|%d", finished.ID, finished.Grade.At.UnixMilli()),
		Payload: fmt.Sprintf(`{"attemptId":%q,"gradedAt":%d}`, finished.ID, finished.Grade.At.UnixMilli()), NextRunAt: now(), CreatedAt: now()}
	for _, j := range []domain.Job{pending, finishedJob, score} {
		if err := s.EnqueueJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	claimed, err := s.ClaimJob(ctx, "transcribe", now(), now().Add(time.Minute))
	if err != nil || claimed.ID != finishedJob.ID {
		t.Fatalf("ClaimJob = %+v, %v", claimed, err)
	}
	if err := s.FinishJob(ctx, claimed.ID, claimed.Attempts, domain.JobFailed, "sin audio", now(), now()); err != nil {
		t.Fatal(err)
	}
	if used, err := s.StorageUsed(ctx, student.ID); err != nil || used != transferStorage {
		t.Fatalf("storage of the student = %d, %v; want %d", used, err, transferStorage)
	}
}

// exportAll pages through every kind, limit records a page.
func exportAll(t *testing.T, s store.Exporter, limit int) map[store.Kind]map[string]store.Record {
	t.Helper()
	out := map[store.Kind]map[string]store.Record{}
	for _, kind := range store.Kinds {
		out[kind] = map[string]store.Record{}
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > 1000 {
				t.Fatalf("paging through %s does not end", kind)
			}
			recs, next, err := s.ExportPage(ctx, kind, cursor, limit)
			if err != nil {
				t.Fatalf("ExportPage(%s): %v", kind, err)
			}
			if len(recs) > limit {
				t.Fatalf("ExportPage(%s) returned %d records, limit %d", kind, len(recs), limit)
			}
			for _, rec := range recs {
				if _, dup := out[kind][rec.Key]; dup || rec.Kind != kind {
					t.Fatalf("ExportPage(%s): record %s %s twice or of the wrong kind", kind, rec.Kind, rec.Key)
				}
				out[kind][rec.Key] = rec
			}
			if next == "" {
				break
			}
			cursor = next
		}
	}
	return out
}

func importAll(t *testing.T, s store.Importer, all map[store.Kind]map[string]store.Record) {
	t.Helper()
	for _, kind := range store.Kinds {
		keys := slices.Sorted(maps.Keys(all[kind]))
		var recs []store.Record
		for _, k := range keys {
			recs = append(recs, all[kind][k])
		}
		if err := s.ImportRecords(ctx, recs); err != nil {
			t.Fatalf("import %s: %v", kind, err)
		}
	}
}

func sameRecords(t *testing.T, want, got map[store.Kind]map[string]store.Record) {
	t.Helper()
	for _, kind := range store.Kinds {
		if len(got[kind]) != len(want[kind]) {
			t.Errorf("%d %s, want %d", len(got[kind]), kind, len(want[kind]))
		}
		for key, w := range want[kind] {
			if g, ok := got[kind][key]; !ok {
				t.Errorf("%s %s missing", kind, key)
			} else if canonical(t, g) != canonical(t, w) {
				t.Errorf("%s %s differs:\n got %s\nwant %s", kind, key, canonical(t, g), canonical(t, w))
			}
		}
	}
}

func canonical(t *testing.T, rec store.Record) string {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkImportedRules: an imported store answers the services' lookups and
// enforces their rules as if its records had been made there.
func checkImportedRules(t *testing.T, s store.Store) {
	t.Helper()
	student, err := s.GetUserByMail(ctx, "IMPORTADA@utpl.edu.ec")
	if err != nil {
		t.Fatalf("user by mail after import: %v", err)
	}
	if h, err := s.PasswordHash(ctx, student.ID); err != nil || h == "" {
		t.Errorf("password hash after import = %q, %v", h, err)
	}
	if err := s.CreateUser(ctx, domain.User{ID: domain.NewID(), Mail: "importada@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: now()}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an imported mail is not taken: %v", err)
	}
	if u, err := s.UserByIdentity(ctx, "microsoft", "sub-123"); err != nil || u.Mail != "tutora.export@utpl.edu.ec" {
		t.Errorf("identity after import = %+v, %v", u, err)
	}
	if u, err := s.UserByIdentity(ctx, "lti:"+transferIssuer, "sub/importada%20"); err != nil || u.ID != student.ID {
		t.Errorf("LTI identity after import = %+v, %v", u, err)
	}
	if err := s.CreateDegree(ctx, domain.Degree{ID: domain.NewID(), Nombre: "Educación"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an imported degree name is not taken: %v", err)
	}
	if _, err := s.GetCaseByTitle(ctx, "derecho", "Caso exportado"); err != nil {
		t.Errorf("case by title after import: %v", err)
	}
	if err := s.CreateCase(ctx, sampleCase("Caso exportado", "Civil")); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an imported title is not taken: %v", err)
	}
	g, err := s.ActiveGroupByTutor(ctx, "tutora.export@utpl.edu.ec")
	if err != nil || len(g.Estudiantes) != 3 {
		t.Fatalf("active group after import = %+v, %v", g, err)
	}
	if in, err := s.IsActiveGroupMember(ctx, "tercera@utpl.edu.ec"); err != nil || !in {
		t.Errorf("member of the imported group = %v, %v", in, err)
	}
	if err := s.CreateGroup(ctx, newGroup(t, s, "tutora.export@utpl.edu.ec", "x@utpl.edu.ec")); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second active group beside an imported one: %v", err)
	}
	var taken *store.MembersTakenError
	if err := s.CreateGroup(ctx, newGroup(t, s, "otro.tutor@utpl.edu.ec", "OTRA@utpl.edu.ec")); !errors.As(err, &taken) {
		t.Errorf("another tutor's group with a member of the imported one: %v", err)
	}
	if used, err := s.StorageUsed(ctx, student.ID); err != nil || used != transferStorage {
		t.Errorf("storage of the student after import = %d, %v; want %d", used, err, transferStorage)
	}
	checkImportedAccountsAndLTI(t, s, g)
	cur, err := s.InProgressAttempt(ctx, student.ID)
	if err != nil {
		t.Fatalf("attempt in progress after import: %v", err)
	}
	if err := s.CreateAttempt(ctx, newAttempt(t, s, student, cur.Case)); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second attempt in progress beside an imported one: %v", err)
	}
	mine, err := s.ListAttempts(ctx, store.AttemptFilter{StudentID: student.ID})
	graded := slices.DeleteFunc(mine, func(a domain.AttemptSummary) bool { return a.Status != domain.AttemptFinished })
	if err != nil || len(graded) != 1 || graded[0].TutorScore == nil {
		t.Fatalf("finished attempts after import = %+v, %v", graded, err)
	}
	a, _ := s.GetAttempt(ctx, graded[0].ID)
	if a.Version != 3 || a.Grade == nil || a.Grade.Comments != "Bien argumentado." {
		t.Errorf("imported attempt: version %d, grade %+v", a.Version, a.Grade)
	}
	a.Notes = "después de migrar"
	if err := s.UpdateAttempt(ctx, a); err != nil {
		t.Errorf("saving an imported attempt with its version: %v", err)
	}
	r, err := s.GetRecording(ctx, a.ID, "rec-compuesta")
	if err != nil || !r.Composed || !r.Complete || r.Chunks != 3 || r.Bytes != 3003 || len(r.Levels) != 2 {
		t.Errorf("imported recording = %+v, %v", r, err)
	}
	if toCompose, _ := s.RecordingsToCompose(ctx, 10); len(toCompose) != 0 {
		t.Errorf("a composed recording is to compose after import: %+v", toCompose)
	}
	if tr, err := s.GetTranscript(ctx, a.ID, "rec-compuesta"); err != nil || tr.Source != domain.TranscriptEdited || len(tr.Segments) != 1 {
		t.Errorf("imported transcript = %+v, %v", tr, err)
	}
	err = s.EnqueueJob(ctx, domain.Job{ID: domain.NewID(), Kind: "transcribe", Subject: domain.RecordingSubject(cur.ID, "rec-abierta"), NextRunAt: now(), CreatedAt: now()})
	if !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second job for an imported job's subject: %v", err)
	}
	job, err := s.ClaimJob(ctx, "transcribe", now().Add(time.Second), now().Add(time.Minute))
	if err != nil || job.Subject != domain.RecordingSubject(cur.ID, "rec-abierta") {
		t.Errorf("the imported pending job is not claimed: %+v, %v", job, err)
	}
}

// checkImportedAccountsAndLTI: a second factor works as before (a used
// step or code refused, the next accepted), and the LTI data answers as a
// launch, a roster and a grade need it.
func checkImportedAccountsAndLTI(t *testing.T, s store.Store, g domain.Group) {
	t.Helper()
	tutor, err := s.GetUserByMail(ctx, "tutora.export@utpl.edu.ec")
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetMFA(ctx, tutor.ID)
	if err != nil || !m.Enabled() || m.Secret != "KRSXG5CTMVRXEZLU" || m.RecoveryCodesLeft() != 1 {
		t.Errorf("imported second factor = %+v, %v", m, err)
	}
	if err := s.UseTOTPStep(ctx, tutor.ID, 57000000); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a TOTP step used before the import: %v", err)
	}
	if err := s.UseTOTPStep(ctx, tutor.ID, 57000001); err != nil {
		t.Errorf("the next TOTP step after the import: %v", err)
	}
	if err := s.UseRecoveryCode(ctx, tutor.ID, "codigo-b", now()); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a recovery code used before the import: %v", err)
	}
	if err := s.UseRecoveryCode(ctx, tutor.ID, "codigo-a", now()); err != nil {
		t.Errorf("an unused recovery code after the import: %v", err)
	}

	platformID := domain.LTIPlatformID(transferIssuer, transferClient)
	if p, err := s.GetLTIPlatform(ctx, platformID); err != nil || p.ClientID != transferClient || len(p.DeploymentIDs) != 2 || !p.AllowTutors {
		t.Errorf("imported platform = %+v, %v", p, err)
	}
	if err := s.CreateLTIPlatform(ctx, samplePlatform(transferIssuer, transferClient)); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an imported platform's issuer and client id are not taken: %v", err)
	}
	keys, err := s.ListLTIKeys(ctx)
	if err != nil || len(keys) != 2 || keys[0].ID != "kid-actual" || keys[0].RetiredAt != nil || keys[1].RetiredAt == nil ||
		keys[0].PrivateKeyPEM != "-----BEGIN PRIVATE KEY-----\nkid-actual" {
		t.Errorf("imported keys = %+v, %v", keys, err)
	}
	courses, err := s.ListLTICoursesOfTutor(ctx, tutor.ID)
	if err != nil || len(courses) != 1 || courses[0].Title != "Derecho Penal" || courses[0].LaunchedAt.IsZero() || len(courses[0].ServiceScopes) != 1 {
		t.Errorf("imported courses of the tutor = %+v, %v", courses, err)
	}
	if sub, err := s.LTISubjectByEmail(ctx, platformID, "IMPORTADA@utpl.edu.ec"); err != nil || sub.Subject != "sub-importada" {
		t.Errorf("imported subject = %+v, %v", sub, err)
	}
	if l, err := s.GetLTIGroupLink(ctx, g.ID); err != nil || l.LineItemLabel != "Simulacro oral" || !strings.HasSuffix(l.LineItemURL, "/line_items/31") {
		t.Errorf("imported group link = %+v, %v", l, err)
	}
	job, err := s.ClaimJob(ctx, "lti_score", now().Add(time.Second), now().Add(time.Minute))
	if err != nil || !strings.Contains(job.Subject, "|") {
		t.Errorf("the imported grade to publish is not claimed: %+v, %v", job, err)
	}
}
