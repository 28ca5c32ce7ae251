package feedback

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/measures"
	"github.com/utpl/simulador/backend/internal/sheetcsv"
	"github.com/utpl/simulador/backend/internal/store"
)

// InactiveAfter is how long without practising makes a student show up in
// the tutor's report.
const InactiveAfter = 14 * 24 * time.Hour

// ReportWindow is how far back the tutor's report looks: about a semester.
// Without it every view would list every attempt the group ever had, and
// on Firestore each listed attempt is a billed read, so the report's cost
// would grow all year.
const ReportWindow = 183 * 24 * time.Hour

// CriterionAverage is a criterion's average level over a group's graded or
// self-assessed attempts.
type CriterionAverage struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Group        string  `json:"group"`
	AverageLevel float64 `json:"averageLevel"`
	Count        int     `json:"count"`
}

// WeekCount is how many attempts started in an ISO week.
type WeekCount struct {
	Week     string   `json:"week"` // 2026-W47
	Start    string   `json:"start"`
	Attempts int      `json:"attempts"`
	Average  *float64 `json:"average"`
}

// InactiveStudent has not practised lately.
type InactiveStudent struct {
	Email        string     `json:"email"`
	Name         string     `json:"name"`
	LastActivity *time.Time `json:"lastActivity"`
}

// AreaReport is a group's finished attempts in one area of law.
type AreaReport struct {
	Area     string   `json:"area"`
	Finished int      `json:"finished"`
	Average  *float64 `json:"average"`  // of the marks (the tutor's, or the self-assessment's)
	PassRate *float64 `json:"passRate"` // share of marked attempts that pass
	// Heard is how many of them have a transcript, the only evidence of
	// what was said; Missed lists the key points those leave out most.
	Heard  int              `json:"heard"`
	Missed []MissedKeyPoint `json:"missed"`
}

// MissedKeyPoint is a case's key point the group's transcripts leave out.
type MissedKeyPoint struct {
	Case   string `json:"case"`
	Text   string `json:"text"`
	Missed int    `json:"missed"` // attempts of the case with a transcript that leave it out
	Heard  int    `json:"heard"`  // attempts of the case with a transcript
}

// missedShown is how many key points each area lists.
const missedShown = 3

// GroupReport is the tutor's view of a group's progress.
type GroupReport struct {
	Students    int                `json:"students"`
	Attempts    int                `json:"attempts"`
	Finished    int                `json:"finished"`
	Graded      int                `json:"graded"`
	PassRate    *float64           `json:"passRate"` // share of finished attempts whose mark reaches the pass score
	Average     *float64           `json:"average"`
	ByCriterion []CriterionAverage `json:"byCriterion"`
	Weeks       []WeekCount        `json:"weeks"`
	Inactive    []InactiveStudent  `json:"inactive"`
	// ByArea is in the order of the lowest average first, so the areas
	// the group needs most stand at the top.
	ByArea []AreaReport `json:"byArea"`
}

// finishedAttempts loads the group's attempts in full (the levels live in
// the JSON part); a group has hundreds at most.
func (s *Service) groupAttempts(ctx context.Context, g domain.Group) ([]domain.Attempt, error) {
	list, err := s.store.ListAttempts(ctx, store.AttemptFilter{GroupID: g.ID})
	if err != nil {
		return nil, err
	}
	out := make([]domain.Attempt, 0, len(list))
	for _, sum := range list {
		a, err := s.store.GetAttempt(ctx, sum.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// levelsOf is the grading that counts: the tutor's when there is one.
func levelsOf(a domain.Attempt) domain.Levels {
	if a.Grade != nil {
		return a.Grade.Levels
	}
	if a.Self != nil {
		return a.Self.Levels
	}
	return nil
}

// Names returns the display names of some of a group's students, by
// email; a missing one falls back to the name on the roster.
type Names func(emails []string) map[string]string

// Report computes a group's figures. The group's attempts are listed
// (one query: id, version, student, status, scores, start); what a
// finished attempt adds beyond that — its rubric's levels and pass
// mark — is read once per version of the attempt and kept in memory
// (see contributions), so a tutor's report costs one list and a pass over
// it however many attempts were graded. It is always current: any change
// to an attempt (grading, finishing) gives it a new version in the store,
// which every instance sees in the list, and the roster is read anew.
func (s *Service) Report(ctx context.Context, g domain.Group, names Names) (GroupReport, error) {
	list, err := s.store.ListAttempts(ctx, store.AttemptFilter{GroupID: g.ID, Since: s.now().Add(-ReportWindow)})
	if err != nil {
		return GroupReport{}, err
	}
	contrib, err := s.contributionsOf(ctx, list)
	if err != nil {
		return GroupReport{}, err
	}
	now := s.now()
	r := GroupReport{Students: len(g.Estudiantes), Attempts: len(list), ByCriterion: []CriterionAverage{}, Weeks: []WeekCount{}, Inactive: []InactiveStudent{}}
	areas := areaTally{}
	type acc struct {
		sum   float64
		count int
		c     criterionLevel
	}
	crit := map[string]*acc{}
	var order []string
	type week struct {
		WeekCount
		sum    float64
		scored int
	}
	weeks := map[weekKey]*week{}
	last := make(map[string]time.Time, len(g.Estudiantes))
	passed, scored := 0, 0
	total := 0.0
	for _, a := range list {
		if t, ok := last[a.StudentEmail]; !ok || a.CreatedAt.After(t) {
			last[a.StudentEmail] = a.CreatedAt
		}
		local := a.CreatedAt.In(ecuador)
		y, wn := local.ISOWeek()
		key := weekKey{y, wn}
		w := weeks[key]
		if w == nil {
			w = &week{WeekCount: WeekCount{Week: fmt.Sprintf("%d-W%02d", y, wn), Start: weekStart(local).Format("2006-01-02")}}
			weeks[key] = w
		}
		w.Attempts++
		if a.Status != domain.AttemptFinished {
			continue
		}
		r.Finished++
		if a.TutorScore != nil {
			r.Graded++
		}
		c := contrib[a.ID]
		areas.add(a.Area, c)
		if c.scored {
			scored++
			total += c.score
			if c.passed {
				passed++
			}
			w.sum += c.score
			w.scored++
		}
		for _, l := range c.levels {
			if crit[l.ID] == nil {
				crit[l.ID] = &acc{c: l}
				order = append(order, l.ID)
			}
			crit[l.ID].sum += float64(l.level)
			crit[l.ID].count++
		}
	}
	if scored > 0 {
		rate := domain.Round2(float64(passed) / float64(scored))
		avg := domain.Round2(total / float64(scored))
		r.PassRate, r.Average = &rate, &avg
	}
	for _, id := range order {
		a := crit[id]
		r.ByCriterion = append(r.ByCriterion, CriterionAverage{ID: id, Name: a.c.Name, Group: a.c.Group, AverageLevel: domain.Round2(a.sum / float64(a.count)), Count: a.count})
	}
	for _, w := range weeks {
		if w.scored > 0 {
			avg := domain.Round2(w.sum / float64(w.scored))
			w.Average = &avg
		}
		r.Weeks = append(r.Weeks, w.WeekCount)
	}
	sort.Slice(r.Weeks, func(i, j int) bool { return r.Weeks[i].Week < r.Weeks[j].Week })
	r.ByArea = areas.reports()
	var inactive []string
	for _, st := range g.Estudiantes {
		t, ok := last[st.Email]
		if ok && now.Sub(t) < InactiveAfter {
			continue
		}
		in := InactiveStudent{Email: st.Email, Name: st.Name}
		if ok {
			t := t
			in.LastActivity = &t
		}
		r.Inactive = append(r.Inactive, in)
		inactive = append(inactive, st.Email)
	}
	if len(inactive) > 0 && names != nil {
		known := names(inactive)
		for i := range r.Inactive {
			if n := known[r.Inactive[i].Email]; n != "" {
				r.Inactive[i].Name = n
			}
		}
	}
	return r, nil
}

type weekKey struct{ year, week int }

// areaTally sums finished attempts per area of law.
type areaTally map[string]*areaSum

type areaSum struct {
	AreaReport
	sum    float64
	scored int
	passed int
	// points counts, per case and key point, the transcribed attempts
	// that leave it out and those heard.
	points map[[2]string]*MissedKeyPoint
	order  [][2]string
}

func (t areaTally) add(area string, c contribution) {
	a := t[area]
	if a == nil {
		a = &areaSum{AreaReport: AreaReport{Area: area, Missed: []MissedKeyPoint{}}, points: map[[2]string]*MissedKeyPoint{}}
		t[area] = a
	}
	a.Finished++
	if c.scored {
		a.scored++
		a.sum += c.score
		if c.passed {
			a.passed++
		}
	}
	if !c.heard {
		return
	}
	a.Heard++
	for _, kp := range c.keyPoints {
		key := [2]string{c.caseTitle, kp.Text}
		m := a.points[key]
		if m == nil {
			m = &MissedKeyPoint{Case: c.caseTitle, Text: kp.Text}
			a.points[key] = m
			a.order = append(a.order, key)
		}
		m.Heard++
		if !kp.Covered {
			m.Missed++
		}
	}
}

func (t areaTally) reports() []AreaReport {
	out := make([]AreaReport, 0, len(t))
	for _, a := range t {
		if a.scored > 0 {
			avg := domain.Round2(a.sum / float64(a.scored))
			rate := domain.Round2(float64(a.passed) / float64(a.scored))
			a.Average, a.PassRate = &avg, &rate
		}
		var missed []MissedKeyPoint
		for _, key := range a.order {
			if m := a.points[key]; m.Missed > 0 {
				missed = append(missed, *m)
			}
		}
		// Most often left out first; then the larger share.
		sort.SliceStable(missed, func(i, j int) bool {
			if missed[i].Missed != missed[j].Missed {
				return missed[i].Missed > missed[j].Missed
			}
			return missed[i].Missed*missed[j].Heard > missed[j].Missed*missed[i].Heard
		})
		a.Missed = append(a.Missed, missed[:min(len(missed), missedShown)]...)
		out = append(out, a.AreaReport)
	}
	// Lowest average first; areas without a mark last; then by name.
	sort.Slice(out, func(i, j int) bool {
		ai, aj := out[i].Average, out[j].Average
		switch {
		case ai != nil && aj != nil && *ai != *aj:
			return *ai < *aj
		case (ai == nil) != (aj == nil):
			return ai != nil
		}
		return out[i].Area < out[j].Area
	})
	return out
}

// criterionLevel is one criterion's level in a finished attempt's counted
// grading, with the criterion's name and group in that attempt's rubric.
type criterionLevel struct {
	ID, Name, Group string
	level           int
}

// contribution is what a finished attempt adds to its group's report
// beyond its summary: its counted levels, whether its mark passes and,
// when it has a transcript, which of its case's key points were said.
type contribution struct {
	version   int
	scored    bool
	score     float64
	passed    bool
	levels    []criterionLevel
	caseTitle string
	heard     bool
	keyPoints []KeyPointStatus
}

func contributionOf(a domain.Attempt, transcripts []domain.Transcript) contribution {
	c := contribution{version: a.Version, caseTitle: a.Case.Title}
	if texts := transcriptTexts(transcripts); len(texts) > 0 {
		mc := measuresCase(a.Case)
		rep := measures.Analyze(measures.Input{Text: strings.Join(texts, "\n\n"), Case: &mc})
		covered := map[int]bool{}
		for _, k := range rep.KeyPointsCovered {
			covered[k] = true
		}
		c.heard = true
		for i, k := range a.Case.KeyPoints {
			c.keyPoints = append(c.keyPoints, KeyPointStatus{Text: k, Covered: covered[i]})
		}
	}
	if score, ok := a.Score(); ok {
		c.scored, c.score, c.passed = true, score, a.Rubric.Passed(score)
	}
	levels := levelsOf(a)
	for _, cr := range a.Rubric.Criteria {
		if l, ok := levels[cr.ID]; ok {
			c.levels = append(c.levels, criterionLevel{ID: cr.ID, Name: cr.Name, Group: cr.Group, level: l})
		}
	}
	return c
}

// transcriptTexts is what an attempt's transcripts say, one text per take.
func transcriptTexts(list []domain.Transcript) []string {
	var out []string
	for _, t := range list {
		if text := strings.TrimSpace(t.Text()); text != "" {
			out = append(out, text)
		}
	}
	return out
}

// contributions keeps finished attempts' contributions by attempt id, each
// valid for the version it was read at: an attempt that changes gets a new
// version, so an old entry is never used again.
type contributions struct {
	mu sync.Mutex
	m  map[string]contribution
}

// contributionsMax bounds the cache; past it, it starts over.
const contributionsMax = 100000

// reportReaders is how many finished attempts are read at once for a
// report whose contributions are not in memory yet (after a start).
const reportReaders = 4

// reportReadTimeout bounds the reading of the contributions a report
// needs, which goes on when the request that started it is cancelled.
const reportReadTimeout = 5 * time.Minute

// contributionsOf returns the contributions of the finished attempts of
// list, reading those not known at their listed version. Each one read is
// kept at once, and the reading goes on (up to reportReadTimeout) when ctx
// is cancelled: after a start, a large group's first report can outlast
// the request (Firebase Hosting cuts it at 60 s), and its retry then finds
// what was read instead of starting from nothing.
func (s *Service) contributionsOf(ctx context.Context, list []domain.AttemptSummary) (map[string]contribution, error) {
	out := make(map[string]contribution, len(list))
	var missing []string
	s.reports.mu.Lock()
	for _, a := range list {
		if a.Status != domain.AttemptFinished {
			continue
		}
		if c, ok := s.reports.m[a.ID]; ok && c.version == a.Version {
			out[a.ID] = c
		} else {
			missing = append(missing, a.ID)
		}
	}
	s.reports.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), reportReadTimeout)
	read := make([]contribution, len(missing))
	var next atomic.Int64
	errs := make([]error, reportReaders)
	var wg sync.WaitGroup
	for w := range min(reportReaders, len(missing)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(missing) || errs[w] != nil {
					return
				}
				a, err := s.store.GetAttempt(readCtx, missing[i])
				if err != nil {
					errs[w] = err
					return
				}
				transcripts, err := s.store.ListTranscripts(readCtx, missing[i])
				if err != nil {
					errs[w] = err
					return
				}
				read[i] = contributionOf(a, transcripts)
				s.reports.keep(missing[i], read[i])
			}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		cancel()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, ctx.Err() // the readers finish on their own
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, id := range missing {
		out[id] = read[i]
	}
	return out, nil
}

// forget drops an attempt's contribution: a transcript saved since it was
// read changes what the attempt says without changing its version.
func (c *contributions) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// keep remembers a contribution, starting over past contributionsMax.
func (c *contributions) keep(id string, v contribution) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; !ok && len(c.m) >= contributionsMax {
		clear(c.m)
	}
	c.m[id] = v
}

// ecuador is the product's time zone (UTC-5, no daylight saving), so weeks
// start on Monday in Loja, not in UTC.
var ecuador = time.FixedZone("ECT", -5*60*60)

func weekStart(t time.Time) time.Time {
	wd := (int(t.Weekday()) + 6) % 7 // Monday = 0
	y, m, d := t.AddDate(0, 0, -wd).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// WriteGradesCSV writes the group's attempts and grades as CSV for Excel in
// Ecuador (es-EC): UTF-8 with a BOM so it shows accents right, ";" between
// fields because that locale's list separator is ";" (its decimal
// separator is the comma, so a comma-separated file opens in one column),
// and decimal commas. A cell a spreadsheet would read as a formula (a name
// or comment starting with = + - @) is neutralised.
func (s *Service) WriteGradesCSV(ctx context.Context, w io.Writer, g domain.Group, names map[string]string) error {
	attempts, err := s.groupAttempts(ctx, g)
	if err != nil {
		return err
	}
	sheet, err := newSheet(w)
	if err != nil {
		return err
	}
	// The criteria columns follow the newest rubric among the attempts.
	var criteria []domain.Criterion
	for _, a := range attempts {
		if len(a.Rubric.Criteria) > 0 {
			criteria = a.Rubric.Criteria
			break
		}
	}
	write := sheet.write
	header := []string{"Estudiante", "Correo", "Fecha", "Modo", "Caso", "Área", "Estado", "Nota autoevaluación", "Nota tutor", "Aprobado"}
	for _, c := range criteria {
		header = append(header, c.ID+" "+c.Name)
	}
	header = append(header, "Comentarios del tutor", "Calificado por", "Fecha de calificación")
	if err := write(header); err != nil {
		return err
	}
	status := map[domain.AttemptStatus]string{domain.AttemptInProgress: "En curso", domain.AttemptFinished: "Terminado", domain.AttemptAbandoned: "Abandonado"}
	mode := map[domain.Mode]string{domain.ModeTraining: "Entrenamiento", domain.ModeMock: "Simulacro"}
	for _, a := range attempts {
		name := names[a.StudentEmail]
		if name == "" {
			name = a.StudentName
		}
		self, tutorScore, passed := "", "", ""
		if a.Self != nil {
			self = num(a.Self.Score)
		}
		if a.Grade != nil {
			tutorScore = num(a.Grade.Score)
		}
		if sc, ok := a.Score(); ok && a.Status == domain.AttemptFinished {
			passed = map[bool]string{true: "Sí", false: "No"}[a.Rubric.Passed(sc)]
		}
		rec := []string{name, a.StudentEmail, a.CreatedAt.In(ecuador).Format("2006-01-02 15:04"), mode[a.Mode], a.Case.Title, a.Case.Area,
			status[a.Status], self, tutorScore, passed}
		levels := levelsOf(a)
		for _, c := range criteria {
			if l, ok := levels[c.ID]; ok {
				rec = append(rec, fmt.Sprint(l))
			} else {
				rec = append(rec, "")
			}
		}
		comments, by, at := "", "", ""
		if a.Grade != nil {
			comments, by, at = a.Grade.Comments, a.Grade.By, a.Grade.At.In(ecuador).Format("2006-01-02 15:04")
		}
		rec = append(rec, comments, by, at)
		if err := write(rec); err != nil {
			return err
		}
	}
	return sheet.flush()
}

// WriteAreasCSV writes the report's section by area of law as CSV, for
// the same spreadsheets as WriteGradesCSV: one row per area, then one per
// key point the group's transcripts leave out most.
func (s *Service) WriteAreasCSV(ctx context.Context, w io.Writer, g domain.Group) error {
	r, err := s.Report(ctx, g, nil)
	if err != nil {
		return err
	}
	sheet, err := newSheet(w)
	if err != nil {
		return err
	}
	opt := func(f *float64, scale float64) string {
		if f == nil {
			return ""
		}
		return num(*f * scale)
	}
	if err := sheet.write([]string{"Área", "Intentos terminados", "Nota promedio", "Tasa de aprobación (%)", "Intentos con transcripción",
		"Punto clave omitido", "Caso", "Omitido en"}); err != nil {
		return err
	}
	for _, a := range r.ByArea {
		row := []string{a.Area, fmt.Sprint(a.Finished), opt(a.Average, 1), opt(a.PassRate, 100), fmt.Sprint(a.Heard), "", "", ""}
		if err := sheet.write(row); err != nil {
			return err
		}
		for _, m := range a.Missed {
			if err := sheet.write([]string{a.Area, "", "", "", "", m.Text, m.Case, fmt.Sprintf("%d de %d", m.Missed, m.Heard)}); err != nil {
				return err
			}
		}
	}
	return sheet.flush()
}

// num writes a number with a decimal comma, as es-EC spreadsheets read it.
func num(f float64) string { return strings.Replace(fmt.Sprintf("%.2f", f), ".", ",", 1) }

// sheet is a CSV for Excel in Ecuador (see WriteGradesCSV).
type sheet struct{ cw *csv.Writer }

func newSheet(w io.Writer) (sheet, error) {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return sheet{}, err
	}
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	return sheet{cw}, nil
}

func (s sheet) write(rec []string) error {
	for i, c := range rec {
		rec[i] = sheetcsv.EscapeFormula(c)
	}
	return s.cw.Write(rec)
}

func (s sheet) flush() error {
	s.cw.Flush()
	return s.cw.Error()
}
