package feedback_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/measures"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// take is a student's attempt with one completed recording of the
// presentation, on a real SQLite store.
type take struct {
	store    store.Store
	feedback *feedback.Service
	student  domain.User
	attempt  domain.Attempt
	recID    string
}

func newTake(t *testing.T) *take {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.Open(t)
	ms, err := media.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.NewService(st, false)
	if _, err := cat.ImportDemoBank(ctx); err != nil {
		t.Fatal(err)
	}
	ex := exams.NewService(st, cat, groups.NewService(st), ms)
	tk := &take{store: st, feedback: feedback.NewService(st), recID: "rec-feedback-0001",
		student: domain.User{ID: "stu", Mail: "est@utpl.edu.ec", DisplayName: "Est", Role: domain.RoleStudent, CreatedAt: time.Now()}}
	if err := st.CreateUser(ctx, tk.student); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateGroup(ctx, domain.Group{ID: "g", Carrera: "derecho", DocenteEmail: "tutor@utpl.edu.ec", Status: domain.GroupActive,
		CreatedAt: time.Now(), Estudiantes: []domain.GroupStudent{{Email: tk.student.Mail, AddedAt: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	if tk.attempt, _, _, err = ex.Start(ctx, tk.student, exams.StartRequest{Mode: domain.ModeMock}); err != nil {
		t.Fatal(err)
	}
	if tk.attempt, err = ex.Advance(ctx, tk.student, tk.attempt.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := ex.PutRecording(ctx, tk.student, tk.attempt.ID, tk.recID, 1, "audio/webm;codecs=opus"); err != nil {
		t.Fatal(err)
	}
	if _, err := ex.PutChunk(ctx, tk.student, tk.attempt.ID, tk.recID, 0, strings.NewReader("audio"), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ex.Complete(ctx, tk.student, tk.attempt.ID, tk.recID, 1, 30000, nil); err != nil {
		t.Fatal(err)
	}
	// A case the transcripts below speak to.
	tk.attempt.Case.KeyPoints = []string{"presunción de inocencia", "legítima defensa"}
	tk.attempt.Case.LegalBases = []domain.LegalBase{{Norm: "Constitución", Article: "76.2"}, {Norm: "COIP", Article: "33"}}
	return tk
}

// evidence measures the attempt from what the store holds now, as the API
// does each time it shows an attempt.
func (tk *take) evidence(t *testing.T) feedback.Evidence {
	t.Helper()
	ctx := context.Background()
	recs, err := tk.store.ListRecordings(ctx, tk.attempt.ID)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := tk.feedback.Transcripts(ctx, tk.attempt.ID)
	if err != nil {
		t.Fatal(err)
	}
	return feedback.Measure(tk.attempt, recs, ts)
}

func segments(texts ...string) []domain.Segment {
	out := make([]domain.Segment, len(texts))
	for i, s := range texts {
		out[i] = domain.Segment{StartMs: int64(i) * 3000, EndMs: int64(i+1) * 3000, Text: s}
	}
	return out
}

// What a browser's recognizer returns: lower case, no punctuation, cut
// wherever the speaker paused, mid-citation included.
var live = segments(
	"buenos días señores miembros del tribunal",
	"el caso trata de la legítima defensa según el artículo",
	"treinta y tres del c o i p",
	"y el artículo setenta y seis numeral dos de la",
	"constitución consagra la presunción de inocencia",
	"muchas gracias por su atención",
)

// What a transcription server returns for the same speech.
var server = segments(
	"Buenos días, señores miembros del tribunal.",
	"El caso trata de la legítima defensa, según el artículo 33 del COIP,",
	"y el artículo 76, numeral 2, de la Constitución consagra la presunción de inocencia.",
	"Muchas gracias por su atención.",
)

var wantCitations = []measures.Citation{{Norm: "COIP", Article: 33}, {Norm: "Constitución", Article: 76}}

func checkEvidence(t *testing.T, ev feedback.Evidence, source string) {
	t.Helper()
	if !ev.HasTranscript || !slices.Equal(ev.Overall.Citations, wantCitations) {
		t.Errorf("%s transcript: citations %v, want %v", source, ev.Overall.Citations, wantCitations)
	}
	if b := ev.Overall.Bases; b == nil || len(b.Matched) != 2 || len(b.Missing) != 0 {
		t.Errorf("%s transcript: bases %+v, want both matched", source, b)
	}
	if !ev.Greeting || !ev.Closing {
		t.Errorf("%s transcript: greeting %v, closing %v", source, ev.Greeting, ev.Closing)
	}
	for _, k := range ev.KeyPoints {
		if !k.Covered {
			t.Errorf("%s transcript: key point %q not covered", source, k.Text)
		}
	}
}

func TestLiveTranscriptIsMeasured(t *testing.T) {
	tk := newTake(t)
	if _, err := tk.feedback.SaveTranscript(context.Background(), tk.student, tk.attempt, tk.recID, domain.TranscriptBrowser, "es-EC", live); err != nil {
		t.Fatal(err)
	}
	checkEvidence(t, tk.evidence(t), "live")
}

// The server's transcript replaces the live one and goes through the same
// analysis, with the same result for the same speech.
func TestServerTranscriptIsMeasuredLikeTheLiveOne(t *testing.T) {
	tk := newTake(t)
	ctx := context.Background()
	if _, err := tk.feedback.SaveTranscript(ctx, tk.student, tk.attempt, tk.recID, domain.TranscriptBrowser, "es-EC", live); err != nil {
		t.Fatal(err)
	}
	liveEv := tk.evidence(t)
	if stored, err := tk.feedback.SaveServerTranscript(ctx, tk.attempt.ID, tk.recID, "es", server); err != nil || !stored {
		t.Fatalf("server transcript stored %v, err %v", stored, err)
	}
	serverEv := tk.evidence(t)
	checkEvidence(t, serverEv, "server")
	if !slices.Equal(liveEv.Overall.Citations, serverEv.Overall.Citations) || liveEv.Greeting != serverEv.Greeting ||
		liveEv.Closing != serverEv.Closing || !slices.Equal(liveEv.KeyPoints, serverEv.KeyPoints) {
		t.Errorf("live and server transcripts of the same speech measured differently:\n%+v\n%+v", liveEv, serverEv)
	}
}

// A transcript the student corrects is measured again, and a later server
// transcript does not undo the correction.
func TestCorrectedTranscriptIsMeasuredAgain(t *testing.T) {
	tk := newTake(t)
	ctx := context.Background()
	misheard := segments(
		"buenos días señores miembros del tribunal",
		"el caso trata de la legítima defensa según el artículo",
		"treinta y tres del coco y el artículo sesenta y siete",
		"de la constitución consagra la presunción de inocencia",
	)
	if _, err := tk.feedback.SaveTranscript(ctx, tk.student, tk.attempt, tk.recID, domain.TranscriptBrowser, "es-EC", misheard); err != nil {
		t.Fatal(err)
	}
	before := tk.evidence(t)
	if slices.Equal(before.Overall.Citations, wantCitations) || before.Closing {
		t.Fatalf("misheard transcript: citations %v, closing %v", before.Overall.Citations, before.Closing)
	}
	if _, err := tk.feedback.SaveTranscript(ctx, tk.student, tk.attempt, tk.recID, domain.TranscriptEdited, "es-EC", live); err != nil {
		t.Fatal(err)
	}
	checkEvidence(t, tk.evidence(t), "corrected")
	if stored, err := tk.feedback.SaveServerTranscript(ctx, tk.attempt.ID, tk.recID, "es", misheard); err != nil || stored {
		t.Fatalf("server transcript over a correction: stored %v, err %v", stored, err)
	}
	checkEvidence(t, tk.evidence(t), "corrected, after a late server transcript")
}
