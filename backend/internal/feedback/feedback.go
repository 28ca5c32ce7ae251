// Package feedback turns what a student said into evidence they can act on:
// transcripts (live from the browser, from a transcription server, or
// corrected by hand), the automatic measures beside the rubric, and the
// tutor's group reports.
package feedback

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/measures"
	"github.com/utpl/simulador/backend/internal/store"
)

// Service keeps transcripts and computes evidence.
type Service struct {
	store store.Store
	now   func() time.Time
	// reports keeps finished attempts' contributions to group reports.
	reports contributions
}

// NewService returns the feedback service.
func NewService(s store.Store) *Service {
	return &Service{store: s, now: time.Now, reports: contributions{m: map[string]contribution{}}}
}

// SaveTranscript stores a transcript sent by a browser (the live one, by
// the student) or a correction (by the student or the group's tutor). A
// correction is never replaced by a machine transcript. The tutor's word
// is final: once the tutor corrected a transcript or graded the attempt,
// the student can no longer change it (the grade and the evidence beside
// it rest on that text), nor a transcript of a recording they deleted.
func (s *Service) SaveTranscript(ctx context.Context, by domain.User, a domain.Attempt, recordingID, source, language string, segs []domain.Segment) (domain.Transcript, error) {
	if source != domain.TranscriptBrowser && source != domain.TranscriptEdited {
		return domain.Transcript{}, domain.Invalid("invalid_source", "Origen de la transcripción no válido.")
	}
	isOwner := a.StudentID == by.ID
	isTutor := by.IsTutor() && a.TutorEmail != "" && a.TutorEmail == by.Mail
	if !isOwner && !(isTutor && source == domain.TranscriptEdited) {
		return domain.Transcript{}, domain.Forbidden("not_allowed", "No puede modificar esta transcripción.")
	}
	if err := domain.ValidateSegments(segs); err != nil {
		return domain.Transcript{}, err
	}
	rec, err := s.store.GetRecording(ctx, a.ID, recordingID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Transcript{}, domain.NotFound("recording_not_found", "La grabación no existe.")
	}
	if err != nil {
		return domain.Transcript{}, err
	}
	if isOwner && !isTutor {
		if err := s.studentMayChange(ctx, by, a, rec, source); err != nil {
			return domain.Transcript{}, err
		}
	}
	for i := range segs {
		segs[i].Text = strings.TrimSpace(segs[i].Text)
	}
	t := domain.Transcript{AttemptID: a.ID, RecordingID: rec.ID, Source: source, Language: clip(language, 16), Segments: segs,
		UpdatedAt: s.now().UTC(), UpdatedBy: by.Mail}
	defer s.reports.forget(a.ID)
	if source == domain.TranscriptEdited {
		return t, s.store.PutTranscript(ctx, t)
	}
	// A live transcript never overwrites a better one, even one saved
	// while this request was on its way.
	stored, err := s.store.PutTranscriptOver(ctx, t, domain.TranscriptBrowser)
	if err != nil || stored {
		return t, err
	}
	return s.store.GetTranscript(ctx, a.ID, rec.ID)
}

// studentMayChange refuses a student's transcript once the tutor has the
// final word on it.
func (s *Service) studentMayChange(ctx context.Context, student domain.User, a domain.Attempt, rec domain.Recording, source string) error {
	if a.Grade != nil {
		return domain.Conflict("attempt_graded", "El tutor ya calificó este intento: la transcripción ya no se puede modificar.")
	}
	if rec.Deleted {
		return domain.Conflict("recording_closed", "La grabación fue eliminada.")
	}
	if source != domain.TranscriptEdited {
		return nil // a live transcript never replaces a correction anyway
	}
	stored, err := s.store.GetTranscript(ctx, a.ID, rec.ID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return nil
	case err != nil:
		return err
	case stored.Source == domain.TranscriptEdited && stored.UpdatedBy != student.Mail:
		return domain.Conflict("transcript_corrected", "El tutor corrigió esta transcripción: ya no se puede reemplazar.")
	}
	return nil
}

// SaveServerTranscript stores a transcription server's result, replacing a
// live transcript but never a person's correction. An empty result (the
// take was silence, or the server heard nothing) changes nothing: it would
// only erase what the browser heard. It reports whether it stored the
// result.
func (s *Service) SaveServerTranscript(ctx context.Context, attemptID, recordingID, language string, segs []domain.Segment) (bool, error) {
	if !hasText(segs) {
		return false, nil
	}
	defer s.reports.forget(attemptID)
	return s.store.PutTranscriptOver(ctx, domain.Transcript{AttemptID: attemptID, RecordingID: recordingID, Source: domain.TranscriptServer,
		Language: clip(language, 16), Segments: segs, UpdatedAt: s.now().UTC(), UpdatedBy: "servidor"},
		domain.TranscriptBrowser, domain.TranscriptServer)
}

func hasText(segs []domain.Segment) bool {
	for _, sg := range segs {
		if strings.TrimSpace(sg.Text) != "" {
			return true
		}
	}
	return false
}

// Transcripts returns an attempt's transcripts by recording id.
func (s *Service) Transcripts(ctx context.Context, attemptID string) (map[string]domain.Transcript, error) {
	list, err := s.store.ListTranscripts(ctx, attemptID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]domain.Transcript, len(list))
	for _, t := range list {
		out[t.RecordingID] = t
	}
	return out, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Pause detection from the recorder's level samples (one every 200 ms).
const (
	levelIntervalMs = 200
	silenceLevel    = 0.2 // the recorder reports (20·log10(rms)+60)/60: below 0.2 is about -48 dBFS
	longPauseMs     = 3000
)

// PhaseEvidence is what was measured in one spoken phase.
type PhaseEvidence struct {
	Phase            int              `json:"phase"`
	Kind             domain.PhaseKind `json:"kind"`
	Index            int              `json:"index"`
	UsedSec          int              `json:"usedSec"`
	LimitSec         int              `json:"limitSec"`
	SpokenMs         int64            `json:"spokenMs"`
	HasTranscript    bool             `json:"hasTranscript"`
	Words            int              `json:"words"`
	WordsPerMinute   float64          `json:"wordsPerMinute"`
	PaceBand         string           `json:"paceBand"`
	Fillers          map[string]int   `json:"fillers"`
	FillersPerMinute float64          `json:"fillersPerMinute"`
	LongPauses       []PauseEvidence  `json:"longPauses"`
}

// PauseEvidence is a long silence in one recording.
type PauseEvidence struct {
	RecordingID string `json:"recordingId"`
	StartMs     int64  `json:"startMs"`
	EndMs       int64  `json:"endMs"`
}

// Evidence is the automatic evidence of an attempt: shown beside the
// rubric, never a grade by itself.
type Evidence struct {
	HasTranscript bool             `json:"hasTranscript"`
	Overall       measures.Report  `json:"overall"`
	Phases        []PhaseEvidence  `json:"phases"`
	Greeting      bool             `json:"greeting"`
	Closing       bool             `json:"closing"`
	KeyPoints     []KeyPointStatus `json:"keyPoints"`
}

// KeyPointStatus says whether a case key point was found in the speech.
type KeyPointStatus struct {
	Text    string `json:"text"`
	Covered bool   `json:"covered"`
}

// Measure computes an attempt's evidence from its transcripts and
// recordings, against its case. Deleted recordings count for nothing.
func Measure(a domain.Attempt, recs []domain.Recording, transcripts map[string]domain.Transcript) Evidence {
	c := measuresCase(a.Case)
	ev := Evidence{Phases: []PhaseEvidence{}, KeyPoints: []KeyPointStatus{}}
	var all []string
	var allMs int64
	texts := map[int][]string{} // phase -> texts of its takes
	for i, p := range a.Phases {
		if !p.Kind.Recorded() {
			continue
		}
		pe := PhaseEvidence{Phase: i, Kind: p.Kind, Index: p.Index, UsedSec: p.UsedSec(time.Now()), LimitSec: p.LimitSec,
			Fillers: map[string]int{}, LongPauses: []PauseEvidence{}}
		var segs []measures.Segment
		offset := int64(0)
		for _, r := range recs {
			if r.Phase != i || r.Deleted {
				continue
			}
			pe.SpokenMs += r.DurationMs
			for _, lp := range measures.LongPauses(r.Levels, levelIntervalMs, silenceLevel, longPauseMs) {
				pe.LongPauses = append(pe.LongPauses, PauseEvidence{RecordingID: r.ID, StartMs: lp.StartMs, EndMs: lp.EndMs})
			}
			if t, ok := transcripts[r.ID]; ok && len(t.Segments) > 0 {
				pe.HasTranscript = true
				for _, sg := range t.Segments {
					segs = append(segs, measures.Segment{StartMs: offset + sg.StartMs, EndMs: offset + sg.EndMs, Text: sg.Text})
				}
				texts[i] = append(texts[i], t.Text())
			}
			offset += r.DurationMs
		}
		if pe.HasTranscript {
			rep := measures.Analyze(measures.Input{Segments: segs, DurationMs: pe.SpokenMs})
			pe.Words, pe.WordsPerMinute, pe.PaceBand = rep.Words, rep.WordsPerMinute, rep.PaceBand
			pe.Fillers, pe.FillersPerMinute = rep.Fillers, rep.FillersPerMinute
			all = append(all, texts[i]...)
			allMs += pe.SpokenMs
			ev.HasTranscript = true
		}
		ev.Phases = append(ev.Phases, pe)
	}
	// Takes are paragraphs (a blank line); the segments of one take are
	// lines (Transcript.Text).
	ev.Overall = measures.Analyze(measures.Input{Text: strings.Join(all, "\n\n"), DurationMs: allMs, Case: &c})
	// Protocol is judged where it belongs: the greeting opens the
	// presentation; the closing ends the closing statement (or, without one,
	// the presentation).
	closingSaid := false
	for i, p := range a.Phases {
		if len(texts[i]) == 0 {
			continue
		}
		r := measures.Analyze(measures.Input{Text: strings.Join(texts[i], "\n\n")})
		switch p.Kind {
		case domain.PhasePresentation:
			ev.Greeting = r.Greeting
			if !closingSaid {
				ev.Closing = r.Closing
			}
		case domain.PhaseClosing:
			ev.Closing, closingSaid = r.Closing, true
		}
	}
	covered := map[int]bool{}
	for _, k := range ev.Overall.KeyPointsCovered {
		covered[k] = true
	}
	for i, k := range a.Case.KeyPoints {
		ev.KeyPoints = append(ev.KeyPoints, KeyPointStatus{Text: k, Covered: covered[i]})
	}
	return ev
}

func measuresCase(c domain.Case) measures.Case {
	mc := measures.Case{KeyPoints: c.KeyPoints}
	for _, b := range c.LegalBases {
		mc.LegalBases = append(mc.LegalBases, measures.LegalBase{Norm: b.Norm, Article: b.Article})
	}
	return mc
}
