package storedjson

import (
	"reflect"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
)

// The golden bytes below were written by the code that stored the domain
// types directly, before this package existed: rows saved then must read
// back the same, and what is written now must be the same bytes. A failure
// here means the stored format changed: old rows would lose that field.
const (
	goldenAttempt    = `{"case":{"id":"case-1","degreeId":"derecho","area":"Penal","title":"Robo agravado","facts":"Hechos.\nSegunda línea.","questions":["¿Qué delito?"],"followUps":["¿Pena?","¿Atenuantes?"],"keyPoints":["Tipicidad","Pena"],"legalBases":[{"norm":"COIP","article":"189","note":"Robo"},{"norm":"Constitución","article":"76.7.l"}],"followUpKeyPoints":[2,0],"difficulty":"avanzado","status":"active","demo":true,"review":{"by":"tutora@utpl.edu.ec","byName":"Tutora","at":"2026-03-02T15:04:05.123456Z"},"createdAt":"2026-03-02T15:04:05.123456Z","updatedAt":"2026-03-02T15:05:35.123456Z"},"blueprint":{"degreeId":"derecho","preparationSec":600,"presentationSec":300,"questions":2,"thinkSec":30,"answerSec":120,"closingSec":60,"defaultMode":"simulacro","difficultyMix":{"basico":20,"intermedio":50,"avanzado":30}},"rubric":{"degreeId":"derecho","version":3,"passScore":7.5,"criteria":[{"id":"c1","group":"Fondo","name":"Argumentación","weight":60,"description":"Argumenta.","descriptors":["a","b","c","d"]}]},"phases":[{"kind":"preparation","index":0,"limitSec":600,"startedAt":"2026-03-02T15:04:05.123456Z","endedAt":"2026-03-02T15:05:35.123456Z","pausedSec":5,"pausedAt":null,"skipped":false},{"kind":"think","index":1,"limitSec":30,"startedAt":"2026-03-02T15:05:35.123456Z","endedAt":null,"pausedSec":0,"pausedAt":"2026-03-02T15:06:05.123456Z","skipped":true}],"self":{"levels":{"c1":3},"score":7.25,"at":"2026-03-02T15:05:35.123456Z"},"grade":{"levels":{"c1":4},"score":10,"comments":"Bien.","by":"tutora@utpl.edu.ec","byName":"Tutora","at":"2026-03-02T15:06:05.123456Z"}}`
	goldenOldNotes   = `{"case":{"id":"","degreeId":"","area":"","title":"","facts":"","questions":null,"followUps":null,"keyPoints":null,"legalBases":null,"status":"","demo":false,"createdAt":"0001-01-01T00:00:00Z","updatedAt":"0001-01-01T00:00:00Z"},"blueprint":{"degreeId":"","preparationSec":0,"presentationSec":0,"questions":0,"thinkSec":0,"answerSec":0,"closingSec":0,"defaultMode":"","difficultyMix":{"basico":0,"intermedio":0,"avanzado":0}},"rubric":{"degreeId":"","version":0,"passScore":0,"criteria":null},"phases":null,"notes":"old notes","self":null,"grade":null}`
	goldenBlueprint  = `{"degreeId":"derecho","preparationSec":600,"presentationSec":300,"questions":2,"thinkSec":30,"answerSec":120,"closingSec":60,"defaultMode":"simulacro","difficultyMix":{"basico":20,"intermedio":50,"avanzado":30}}`
	goldenRubric     = `{"degreeId":"derecho","version":3,"passScore":7.5,"criteria":[{"id":"c1","group":"Fondo","name":"Argumentación","weight":60,"description":"Argumenta.","descriptors":["a","b","c","d"]}]}`
	goldenLegalBases = `[{"norm":"COIP","article":"189","note":"Robo"},{"norm":"Constitución","article":"76.7.l"}]`
	// As the Firestore adapter wrote them, with the notes always present.
	goldenFirestoreNotes = `{"case":{"id":"","degreeId":"","area":"","title":"","facts":"","questions":null,"followUps":null,"keyPoints":null,"legalBases":null,"status":"","demo":false,"createdAt":"0001-01-01T00:00:00Z","updatedAt":"0001-01-01T00:00:00Z"},"blueprint":{"degreeId":"","preparationSec":0,"presentationSec":0,"questions":0,"thinkSec":0,"answerSec":0,"closingSec":0,"defaultMode":"","difficultyMix":{"basico":0,"intermedio":0,"avanzado":0}},"rubric":{"degreeId":"","version":0,"passScore":0,"criteria":null},"phases":[],"notes":"Mis notas","self":null,"grade":null}`
	goldenFirestoreEmpty = `{"case":{"id":"","degreeId":"","area":"","title":"","facts":"","questions":null,"followUps":null,"keyPoints":null,"legalBases":null,"status":"","demo":false,"createdAt":"0001-01-01T00:00:00Z","updatedAt":"0001-01-01T00:00:00Z"},"blueprint":{"degreeId":"","preparationSec":0,"presentationSec":0,"questions":0,"thinkSec":0,"answerSec":0,"closingSec":0,"defaultMode":"","difficultyMix":{"basico":0,"intermedio":0,"avanzado":0}},"rubric":{"degreeId":"","version":0,"passScore":0,"criteria":null},"phases":null,"notes":"","self":null,"grade":null}`
	goldenSegments       = `[{"startMs":0,"endMs":1500,"text":"Buenos días"}]`
)

func TestAttemptGolden(t *testing.T) {
	a := fullAttempt()
	if got := EncodeAttempt(a); got != goldenAttempt {
		t.Fatalf("stored attempt changed:\n got %s\nwant %s", got, goldenAttempt)
	}
	var back domain.Attempt
	if err := DecodeAttempt([]byte(goldenAttempt), &back); err != nil {
		t.Fatal(err)
	}
	want := domain.Attempt{Case: a.Case, Blueprint: a.Blueprint, Rubric: a.Rubric, Phases: a.Phases, Self: a.Self, Grade: a.Grade}
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("stored attempt read back as\n%+v\nwant\n%+v", back, want)
	}
}

func TestAttemptOldRowKeepsItsNotes(t *testing.T) {
	var a domain.Attempt
	if err := DecodeAttempt([]byte(goldenOldNotes), &a); err != nil {
		t.Fatal(err)
	}
	if a.Notes != "old notes" || a.Phases != nil || a.Case.Questions != nil || a.Self != nil {
		t.Fatalf("old row read as %+v", a)
	}
}

func TestFirestoreAttemptKeepsItsNotes(t *testing.T) {
	for _, tc := range []struct{ golden, notes string }{{goldenFirestoreNotes, "Mis notas"}, {goldenFirestoreEmpty, ""}} {
		var a domain.Attempt
		if err := DecodeAttempt([]byte(tc.golden), &a); err != nil {
			t.Fatal(err)
		}
		if a.Notes != tc.notes {
			t.Fatalf("notes read as %q, want %q", a.Notes, tc.notes)
		}
		if got := EncodeAttemptWithNotes(a); got != tc.golden {
			t.Fatalf("Firestore attempt changed:\n got %s\nwant %s", got, tc.golden)
		}
	}
}

func TestCatalogGolden(t *testing.T) {
	a := fullAttempt()
	if got := EncodeBlueprint(a.Blueprint); got != goldenBlueprint {
		t.Errorf("stored blueprint changed:\n got %s\nwant %s", got, goldenBlueprint)
	}
	if b, err := DecodeBlueprint([]byte(goldenBlueprint)); err != nil || b != a.Blueprint {
		t.Errorf("blueprint read back as %+v, %v", b, err)
	}
	if got := EncodeRubric(a.Rubric); got != goldenRubric {
		t.Errorf("stored rubric changed:\n got %s\nwant %s", got, goldenRubric)
	}
	if r, err := DecodeRubric([]byte(goldenRubric)); err != nil || !reflect.DeepEqual(r, a.Rubric) {
		t.Errorf("rubric read back as %+v, %v", r, err)
	}
	if got := EncodeLegalBases(a.Case.LegalBases); got != goldenLegalBases {
		t.Errorf("stored legal bases changed:\n got %s\nwant %s", got, goldenLegalBases)
	}
	if bs, err := DecodeLegalBases([]byte(goldenLegalBases)); err != nil || !reflect.DeepEqual(bs, a.Case.LegalBases) {
		t.Errorf("legal bases read back as %+v, %v", bs, err)
	}
	if got := EncodeLegalBases(nil); got != "[]" {
		t.Errorf("no legal bases stored as %s", got)
	}
}

func TestSegmentsGolden(t *testing.T) {
	segs := []domain.Segment{{StartMs: 0, EndMs: 1500, Text: "Buenos días"}}
	if got := EncodeSegments(segs); got != goldenSegments {
		t.Errorf("stored segments changed:\n got %s\nwant %s", got, goldenSegments)
	}
	if back, err := DecodeSegments([]byte(goldenSegments)); err != nil || !reflect.DeepEqual(back, segs) {
		t.Errorf("segments read back as %+v, %v", back, err)
	}
	if got := EncodeSegments(nil); got != "[]" {
		t.Errorf("no segments stored as %s", got)
	}
}
