package domain

import (
	"fmt"
	"strings"
	"time"
)

// Transcript sources, from least to most trusted for replacement: a
// server transcript replaces a browser one; nothing replaces a correction.
const (
	TranscriptBrowser = "browser"
	TranscriptServer  = "server"
	TranscriptEdited  = "edited"
)

// Segment is a piece of speech with its place in the recording.
type Segment struct {
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	Text    string `json:"text"`
}

// Transcript is what was said in one recording.
type Transcript struct {
	AttemptID   string
	RecordingID string
	Source      string
	Language    string
	Segments    []Segment
	UpdatedAt   time.Time
	UpdatedBy   string
}

// Text joins the segments one per line. A live recognizer's segments end
// where the speaker paused and carry no punctuation: the line break keeps
// that boundary for the measures (a filler opening a segment, a tag "no"
// closing one), where a space would run two clauses together.
func (t Transcript) Text() string {
	parts := make([]string, 0, len(t.Segments))
	for _, s := range t.Segments {
		if s := strings.TrimSpace(s.Text); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// Transcript limits: a 15-minute take is about 2,500 words.
const (
	MaxSegments       = 3000
	MaxTranscriptText = 200_000
)

// ValidateSegments checks segments sent by a browser or a person.
func ValidateSegments(segs []Segment) error {
	if len(segs) > MaxSegments {
		return Invalid("transcript_too_long", fmt.Sprintf("La transcripción tiene más de %d segmentos.", MaxSegments))
	}
	total := 0
	for i, s := range segs {
		total += len(s.Text)
		if s.StartMs < 0 || s.EndMs < s.StartMs || s.EndMs > int64(4*time.Hour/time.Millisecond) {
			return Invalid("transcript_times", fmt.Sprintf("El segmento %d tiene tiempos no válidos.", i+1))
		}
	}
	if total > MaxTranscriptText {
		return Invalid("transcript_too_long", "La transcripción es demasiado larga.")
	}
	return nil
}

// Job is a background task that survives restarts.
type Job struct {
	ID        string
	Kind      string
	Subject   string // what it is about; at most one job per kind and subject ("" = no limit)
	Payload   string
	Status    string // pending, running, done, failed
	Attempts  int
	NextRunAt time.Time
	LastError string
	CreatedAt time.Time
}

// RecordingSubject is the subject of a job about one recording.
func RecordingSubject(attemptID, recordingID string) string { return attemptID + "/" + recordingID }

// Job states.
const (
	JobPending = "pending"
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
)
