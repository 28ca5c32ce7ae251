package domain

import "time"

// PhaseKind is a step of the oral exam (docs/product.md, "Phases").
type PhaseKind string

const (
	PhasePreparation    PhaseKind = "preparation"
	PhasePresentation   PhaseKind = "presentation"
	PhaseThink          PhaseKind = "think"
	PhaseAnswer         PhaseKind = "answer"
	PhaseClosing        PhaseKind = "closing"
	PhaseSelfAssessment PhaseKind = "self_assessment"
)

// Recorded reports whether the student speaks (and is recorded) in k.
func (k PhaseKind) Recorded() bool {
	return k == PhasePresentation || k == PhaseAnswer || k == PhaseClosing
}

// AttemptStatus is an attempt's state.
type AttemptStatus string

const (
	AttemptInProgress AttemptStatus = "in_progress"
	AttemptFinished   AttemptStatus = "finished"
	AttemptAbandoned  AttemptStatus = "abandoned"
)

// Phase is one timed step of an attempt. A limit of 0 means untimed.
type Phase struct {
	Kind      PhaseKind  `json:"kind"`
	Index     int        `json:"index"` // tribunal question number (1-based) for think/answer
	LimitSec  int        `json:"limitSec"`
	StartedAt *time.Time `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt"`
	PausedSec int        `json:"pausedSec"` // completed pauses
	PausedAt  *time.Time `json:"pausedAt"`  // a pause under way
	Skipped   bool       `json:"skipped"`
}

// Deadline is when the phase ends by itself: its start plus its limit plus
// the time spent paused. Untimed, unstarted and paused phases have none.
func (p Phase) Deadline() (time.Time, bool) {
	if p.LimitSec == 0 || p.StartedAt == nil || p.PausedAt != nil {
		return time.Time{}, false
	}
	return p.StartedAt.Add(time.Duration(p.LimitSec+p.PausedSec) * time.Second), true
}

// UsedSec is the time the student spent in the phase, pauses excluded.
func (p Phase) UsedSec(now time.Time) int {
	if p.StartedAt == nil {
		return 0
	}
	end := now
	if p.EndedAt != nil {
		end = *p.EndedAt
	} else if p.PausedAt != nil {
		end = *p.PausedAt
	}
	used := int(end.Sub(*p.StartedAt)/time.Second) - p.PausedSec
	return max(used, 0)
}

// SelfAssessment is the student's own grading with the rubric.
type SelfAssessment struct {
	Levels Levels    `json:"levels"`
	Score  float64   `json:"score"`
	At     time.Time `json:"at"`
}

// TutorGrade is the tutor's grading with the rubric and comments.
type TutorGrade struct {
	Levels   Levels    `json:"levels"`
	Score    float64   `json:"score"`
	Comments string    `json:"comments"`
	By       string    `json:"by"`               // the tutor's email
	ByName   string    `json:"byName,omitempty"` // their name when they graded, for the student
	At       time.Time `json:"at"`
}

// Attempt is one rehearsal: a drawn case run through the phases. It keeps
// copies of the case, the blueprint and the rubric as they were when it
// started.
type Attempt struct {
	ID           string
	StudentID    string
	StudentEmail string
	StudentName  string
	GroupID      string // the active group it was made in ("" for a tutor's own practice)
	TutorEmail   string // that group's tutor, who may see and grade it
	DegreeID     string
	Mode         Mode
	Status       AttemptStatus
	Case         Case
	Blueprint    Blueprint
	Rubric       Rubric
	Phases       []Phase
	Notes        string
	Self         *SelfAssessment
	Grade        *TutorGrade
	CreatedAt    time.Time
	FinishedAt   *time.Time
	Version      int // optimistic concurrency
}

// Attempt state errors (codes for the API).
var (
	ErrPhaseOrder    = Conflict("phase_order", "Esa fase ya no está disponible: las fases se realizan en orden.")
	ErrModeForbids   = Conflict("mode_forbids", "En el modo simulacro no se puede pausar, saltar ni repetir fases.")
	ErrNotInProgress = Conflict("not_in_progress", "El intento ya terminó y no puede modificarse.")
	ErrNotFinished   = Conflict("not_finished", "El intento aún no ha terminado.")
	ErrNotSelfPhase  = Conflict("not_self_assessment", "La autoevaluación se hace al final del intento.")
	// Refusals of a new take (the uploader drops such a take for good).
	ErrPhaseNotStarted = Conflict("phase_not_started", "Esa fase aún no ha comenzado: todavía no se puede grabar.")
	ErrAttemptGraded   = Conflict("attempt_graded", "El tutor ya calificó este intento: no se pueden agregar grabaciones.")
)

// NewAttempt plans the phases from the blueprint (the case's follow-up
// questions bound how many tribunal questions there are) and starts the
// first one at now.
func NewAttempt(id string, student User, c Case, bp Blueprint, r Rubric, mode Mode, now time.Time) Attempt {
	questions := min(bp.Questions, len(c.FollowUps))
	phases := []Phase{
		{Kind: PhasePreparation, LimitSec: bp.PreparationSec},
		{Kind: PhasePresentation, LimitSec: bp.PresentationSec},
	}
	for q := 1; q <= questions; q++ {
		phases = append(phases,
			Phase{Kind: PhaseThink, Index: q, LimitSec: bp.ThinkSec},
			Phase{Kind: PhaseAnswer, Index: q, LimitSec: bp.AnswerSec})
	}
	phases = append(phases, Phase{Kind: PhaseClosing, LimitSec: bp.ClosingSec}, Phase{Kind: PhaseSelfAssessment})
	t := now.UTC()
	phases[0].StartedAt = &t
	return Attempt{ID: id, StudentID: student.ID, StudentEmail: student.Mail, StudentName: student.DisplayName,
		DegreeID: c.DegreeID, Mode: mode, Status: AttemptInProgress, Case: c, Blueprint: bp, Rubric: r,
		Phases: phases, CreatedAt: t}
}

// Current is the index of the phase under way (len(Phases) when none).
func (a *Attempt) Current() int {
	for i, p := range a.Phases {
		if p.EndedAt == nil {
			return i
		}
	}
	return len(a.Phases)
}

// Sync closes every phase whose deadline has passed at its deadline and
// starts the next one then, so that limits hold by server time whatever the
// browser did (closed tab, lost connection). It reports whether it changed
// anything.
func (a *Attempt) Sync(now time.Time) bool {
	if a.Status != AttemptInProgress {
		return false
	}
	changed := false
	for {
		i := a.Current()
		if i >= len(a.Phases) {
			return changed
		}
		deadline, ok := a.Phases[i].Deadline()
		if !ok || now.Before(deadline) {
			return changed
		}
		a.endAndStartNext(i, deadline)
		changed = true
	}
}

func (a *Attempt) endAndStartNext(i int, at time.Time) {
	t := at.UTC()
	a.Phases[i].EndedAt = &t
	if i+1 < len(a.Phases) {
		a.Phases[i+1].StartedAt = &t
	}
}

// Advance ends phase from (the student finished it early, or the browser
// saw its time run out) and starts the next. A from already behind is a
// harmless retry; a from ahead of the current phase is refused: phases
// cannot be skipped.
func (a *Attempt) Advance(from int, now time.Time) error {
	return a.finishPhase(from, now, false)
}

// Skip passes over phase from without doing it (training only).
func (a *Attempt) Skip(from int, now time.Time) error {
	if a.Mode != ModeTraining {
		return ErrModeForbids
	}
	return a.finishPhase(from, now, true)
}

func (a *Attempt) finishPhase(from int, now time.Time, skipped bool) error {
	if a.Status != AttemptInProgress {
		return ErrNotInProgress
	}
	a.Sync(now)
	cur := a.Current()
	switch {
	case from < cur:
		return nil
	case from > cur || cur >= len(a.Phases):
		return ErrPhaseOrder
	case a.Phases[cur].Kind == PhaseSelfAssessment:
		return ErrNotSelfPhase
	}
	a.resume(cur, now)
	a.Phases[cur].Skipped = skipped
	a.endAndStartNext(cur, now)
	return nil
}

// Pause stops the clock of the current timed phase (training only).
func (a *Attempt) Pause(now time.Time) error {
	if a.Mode != ModeTraining {
		return ErrModeForbids
	}
	if a.Status != AttemptInProgress {
		return ErrNotInProgress
	}
	a.Sync(now)
	cur := a.Current()
	if cur >= len(a.Phases) || a.Phases[cur].LimitSec == 0 || a.Phases[cur].PausedAt != nil {
		return nil
	}
	t := now.UTC()
	a.Phases[cur].PausedAt = &t
	return nil
}

// Resume restarts the clock of a paused phase (training only).
func (a *Attempt) Resume(now time.Time) error {
	if a.Mode != ModeTraining {
		return ErrModeForbids
	}
	if a.Status != AttemptInProgress {
		return ErrNotInProgress
	}
	a.resume(a.Current(), now)
	return nil
}

func (a *Attempt) resume(i int, now time.Time) {
	if i >= len(a.Phases) || a.Phases[i].PausedAt == nil {
		return
	}
	// Rounded, not truncated: many short pauses must not eat the student's time.
	a.Phases[i].PausedSec += int(now.Sub(*a.Phases[i].PausedAt).Round(time.Second) / time.Second)
	a.Phases[i].PausedAt = nil
}

// SelfAssess records the student's self-assessment, which finishes the
// attempt and reveals the case's key points and legal bases.
func (a *Attempt) SelfAssess(levels Levels, now time.Time) error {
	if a.Status != AttemptInProgress {
		return ErrNotInProgress
	}
	a.Sync(now)
	cur := a.Current()
	if cur >= len(a.Phases) || a.Phases[cur].Kind != PhaseSelfAssessment {
		return ErrNotSelfPhase
	}
	if err := a.Rubric.ValidateLevels(levels); err != nil {
		return err
	}
	t := now.UTC()
	a.Self = &SelfAssessment{Levels: levels, Score: a.Rubric.Score(levels), At: t}
	a.Phases[cur].EndedAt = &t
	a.Status = AttemptFinished
	a.FinishedAt = &t
	return nil
}

// GradeBy records (or replaces) the tutor's grade of a finished attempt.
func (a *Attempt) GradeBy(tutor User, levels Levels, comments string, now time.Time) error {
	if a.Status != AttemptFinished {
		return ErrNotFinished
	}
	if err := a.Rubric.ValidateLevels(levels); err != nil {
		return err
	}
	if len([]rune(comments)) > 5000 {
		return Invalid("comments_too_long", "Los comentarios no pueden superar los 5000 caracteres.")
	}
	a.Grade = &TutorGrade{Levels: levels, Score: a.Rubric.Score(levels), Comments: comments, By: tutor.Mail, ByName: tutor.DisplayName, At: now.UTC()}
	return nil
}

// Abandon ends an attempt in progress without a result.
func (a *Attempt) Abandon(now time.Time) error {
	if a.Status != AttemptInProgress {
		return ErrNotInProgress
	}
	t := now.UTC()
	cur := a.Current()
	if cur < len(a.Phases) {
		a.resume(cur, now)
		a.Phases[cur].EndedAt = &t
	}
	a.Status = AttemptAbandoned
	a.FinishedAt = &t
	return nil
}

// Score is the attempt's mark for summaries: the tutor's when graded,
// otherwise the student's own; ok is false when there is neither.
func (a Attempt) Score() (score float64, ok bool) {
	if a.Grade != nil {
		return a.Grade.Score, true
	}
	if a.Self != nil {
		return a.Self.Score, true
	}
	return 0, false
}

// Revealed reports whether the case's key points and legal bases may be
// shown to the student.
func (a Attempt) Revealed() bool { return a.Status == AttemptFinished }

// IsPhaseRecorded reports whether phase i exists and is spoken.
func (a Attempt) IsPhaseRecorded(i int) bool {
	return i >= 0 && i < len(a.Phases) && a.Phases[i].Kind.Recorded()
}

// AcceptsTake says whether a new take of recorded phase i may be registered
// (call Sync first, so server time has started the phases it should). A take
// is never accepted for a phase that has not started, nor once the tutor has
// graded the attempt. Otherwise it is, whatever the attempt's state: uploads
// lag behind recording (a reload, a network drop), and a take registered
// after its phase ended is kept but marked late (TakeLate).
func (a Attempt) AcceptsTake(i int) error {
	switch {
	case a.Grade != nil:
		return ErrAttemptGraded
	case i < 0 || i >= len(a.Phases) || a.Phases[i].StartedAt == nil:
		return ErrPhaseNotStarted
	}
	return nil
}

// LateTakeGrace is how long after its phase ended a take may register and
// still count as made in time: the browser registers a take with its first
// chunk, one recorder timeslice (2 s) after it began, so a take begun in
// the last moments of a phase reaches the server just after it.
const LateTakeGrace = 5 * time.Second

// TakeLate reports whether recording r was registered after its phase ended
// (beyond LateTakeGrace): sent late after a reload or a network drop, or
// recorded after the phase. It is derived from the server's times, never
// from the browser's.
func (a Attempt) TakeLate(r Recording) bool {
	if r.Phase < 0 || r.Phase >= len(a.Phases) {
		return false
	}
	end := a.Phases[r.Phase].EndedAt
	return end != nil && r.CreatedAt.After(end.Add(LateTakeGrace))
}

// Recording is one take of a recorded phase, uploaded in chunks.
type Recording struct {
	ID         string // client-made UUID
	AttemptID  string
	Phase      int
	MimeType   string
	Chunks     int   // chunks received
	Bytes      int64 // bytes received
	DurationMs int64
	Levels     []float64 // audio level every 200 ms (for pause detection)
	Complete   bool
	Deleted    bool
	// Composed says the chunks were joined into one verified media object
	// and removed: playback reads that object (see docs/media.md).
	Composed  bool
	CreatedAt time.Time // when the server registered the take
	Late      bool      // registered after its phase ended (Attempt.TakeLate; derived, not stored)
}

// ChunkInfo is one stored chunk of a recording.
type ChunkInfo struct {
	Seq    int
	Bytes  int64
	SHA256 string
}

// AttemptSummary is the part of an attempt lists show.
type AttemptSummary struct {
	ID           string
	StudentID    string
	StudentEmail string
	StudentName  string
	GroupID      string
	Mode         Mode
	Status       AttemptStatus
	CaseTitle    string
	Area         string
	SelfScore    *float64
	TutorScore   *float64
	CreatedAt    time.Time
	FinishedAt   *time.Time
	// Version is the attempt's version (see Attempt.Version): it changes
	// with every save, so it tells whether what was read of an attempt
	// before is still current.
	Version int
}
