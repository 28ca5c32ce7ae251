package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
)

func (a *api) respondAttempt(c echo.Context, status int, at domain.Attempt) error {
	return a.respondAttemptWith(c, status, at, nil)
}

// respondAttemptWith answers with the attempt and, for a directed start,
// where its draw aimed.
func (a *api) respondAttemptWith(c echo.Context, status int, at domain.Attempt, directed *directedDTO) error {
	ctx := c.Request().Context()
	recs, err := a.store.ListRecordings(ctx, at.ID)
	if err != nil {
		return err
	}
	names, err := a.catalog.DegreeNames(ctx)
	if err != nil {
		return err
	}
	transcripts, err := a.feedback.Transcripts(ctx, at.ID)
	if err != nil {
		return err
	}
	dto := toAttemptDTO(at, names[at.DegreeID], recs, transcripts, a.now())
	dto.Directed = directed
	return c.JSON(status, dto)
}

type overviewDTO struct {
	Degree    degreeDTO        `json:"degree"`
	Blueprint domain.Blueprint `json:"blueprint"`
	Rubric    rubricDTO        `json:"rubric"`
	Areas     []string         `json:"areas"`
	// Difficulties of the active cases, in display order, with their labels.
	Difficulties []difficultyDTO    `json:"difficulties"`
	InProgress   *attemptSummaryDTO `json:"inProgress"`
}

type difficultyDTO struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

func (a *api) examOverview(c echo.Context) error {
	u, _ := currentUser(c)
	o, err := a.exams.Overview(c.Request().Context(), u, c.QueryParam("degree"))
	if err != nil {
		return err
	}
	dto := overviewDTO{Degree: degreeDTO{ID: o.Degree.ID, Nombre: o.Degree.Nombre}, Blueprint: o.Blueprint,
		Rubric: toRubricDTO(o.Rubric), Areas: domain.NonNil(o.Areas), Difficulties: []difficultyDTO{}}
	for _, d := range o.Difficulties {
		dto.Difficulties = append(dto.Difficulties, difficultyDTO{Value: string(d), Label: d.Label()})
	}
	if o.InProgress != nil {
		s := toSummaryDTOs([]domain.AttemptSummary{summaryOf(*o.InProgress)})[0]
		dto.InProgress = &s
	}
	return c.JSON(http.StatusOK, dto)
}

func summaryOf(at domain.Attempt) domain.AttemptSummary {
	s := domain.AttemptSummary{ID: at.ID, StudentID: at.StudentID, StudentEmail: at.StudentEmail, StudentName: at.StudentName,
		GroupID: at.GroupID, Mode: at.Mode, Status: at.Status, CaseTitle: at.Case.Title, Area: at.Case.Area,
		CreatedAt: at.CreatedAt, FinishedAt: at.FinishedAt}
	if at.Self != nil {
		s.SelfScore = &at.Self.Score
	}
	if at.Grade != nil {
		s.TutorScore = &at.Grade.Score
	}
	return s
}

type startRequest struct {
	Mode       string `json:"mode"`
	Area       string `json:"area"`
	Difficulty string `json:"difficulty"`
	Degree     string `json:"degree"`
	// Directed asks for a "Sorteo dirigido" (training only).
	Directed bool `json:"directed"`
}

func (a *api) startAttempt(c echo.Context) error {
	var req startRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	mode, ok := domain.ParseMode(req.Mode)
	if !ok {
		return domain.Invalid("invalid_mode", "Elija el modo: entrenamiento o simulacro.")
	}
	difficulty := domain.Difficulty(req.Difficulty)
	if _, ok := domain.ParseDifficulty(req.Difficulty); req.Difficulty != "" && !ok {
		return domain.Invalid("invalid_difficulty", "Elija la dificultad: básico, intermedio o avanzado.")
	}
	u, _ := currentUser(c)
	at, created, target, err := a.exams.Start(c.Request().Context(), u, exams.StartRequest{Mode: mode, Area: req.Area, Difficulty: difficulty, Degree: req.Degree, Directed: req.Directed})
	if err != nil {
		return err
	}
	if !created {
		return a.respondAttempt(c, http.StatusOK, at)
	}
	if target == nil {
		return a.respondAttempt(c, http.StatusCreated, at)
	}
	return a.respondAttemptWith(c, http.StatusCreated, at, &directedDTO{Area: target.Area, Difficulty: string(target.Difficulty), Reason: target.Reason})
}

func (a *api) getAttempt(c echo.Context) error {
	u, _ := currentUser(c)
	at, err := a.exams.Get(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

type phaseRequest struct {
	From *int `json:"from"`
}

func (r phaseRequest) from() (int, error) {
	if r.From == nil {
		return 0, domain.Invalid("missing_from", "Indique la fase que termina.")
	}
	return *r.From, nil
}

func (a *api) advanceAttempt(c echo.Context) error {
	return a.phaseAction(c, false)
}

func (a *api) skipPhase(c echo.Context) error {
	return a.phaseAction(c, true)
}

func (a *api) phaseAction(c echo.Context, skip bool) error {
	var req phaseRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	from, err := req.from()
	if err != nil {
		return err
	}
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	var at domain.Attempt
	if skip {
		at, err = a.exams.Skip(ctx, u, c.Param("id"), from)
	} else {
		at, err = a.exams.Advance(ctx, u, c.Param("id"), from)
	}
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

func (a *api) pauseAttempt(c echo.Context) error {
	u, _ := currentUser(c)
	at, err := a.exams.Pause(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

func (a *api) resumeAttempt(c echo.Context) error {
	u, _ := currentUser(c)
	at, err := a.exams.Resume(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

type notesRequest struct {
	Notes string `json:"notes"`
}

func (a *api) saveNotes(c echo.Context) error {
	var req notesRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	if err := a.exams.SaveNotes(c.Request().Context(), u, c.Param("id"), req.Notes); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type levelsRequest struct {
	Levels   domain.Levels `json:"levels"`
	Comments string        `json:"comments"`
}

func (a *api) selfAssess(c echo.Context) error {
	var req levelsRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	at, err := a.exams.SelfAssess(c.Request().Context(), u, c.Param("id"), req.Levels)
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

func (a *api) abandonAttempt(c echo.Context) error {
	u, _ := currentUser(c)
	at, err := a.exams.Abandon(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

func (a *api) gradeAttempt(c echo.Context) error {
	var req levelsRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	at, err := a.exams.Grade(c.Request().Context(), u, c.Param("id"), req.Levels, req.Comments)
	if err != nil {
		return err
	}
	return a.respondAttempt(c, http.StatusOK, at)
}

func (a *api) myAttempts(c echo.Context) error {
	u, _ := currentUser(c)
	list, err := a.exams.History(c.Request().Context(), u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSummaryDTOs(list))
}

type criterionSeriesDTO struct {
	ID     string              `json:"id"`
	Name   string              `json:"name"`
	Group  string              `json:"group"`
	Points []criterionPointDTO `json:"points"`
}

type criterionPointDTO struct {
	At    string `json:"at"`
	Level int    `json:"level"`
}

type progressDTO struct {
	statsDTO
	Recent      []attemptSummaryDTO  `json:"recent"`
	ByCriterion []criterionSeriesDTO `json:"byCriterion"`
	ByArea      []areaResultDTO      `json:"byArea"`
	// Directed is where a "Sorteo dirigido" would aim now, and why; null
	// without results yet.
	Directed *directedDTO `json:"directed"`
}

type areaResultDTO struct {
	Area     string  `json:"area"`
	Attempts int     `json:"attempts"`
	Average  float64 `json:"average"`
	Passed   int     `json:"passed"`
}

type directedDTO struct {
	Area       string `json:"area"`
	Difficulty string `json:"difficulty"`
	Reason     string `json:"reason"`
}

func (a *api) myProgress(c echo.Context) error {
	u, _ := currentUser(c)
	p, err := a.exams.Progress(c.Request().Context(), u)
	if err != nil {
		return err
	}
	dto := progressDTO{statsDTO: toStatsDTO(p.Stats), Recent: toSummaryDTOs(p.Recent), ByCriterion: []criterionSeriesDTO{}, ByArea: []areaResultDTO{}}
	for _, r := range p.ByArea {
		dto.ByArea = append(dto.ByArea, areaResultDTO{Area: r.Area, Attempts: r.Attempts, Average: r.Average, Passed: r.Passed})
	}
	if p.Directed != nil {
		dto.Directed = &directedDTO{Area: p.Directed.Area, Difficulty: string(p.Directed.Difficulty), Reason: p.Directed.Reason}
	}
	for _, cr := range p.Criteria {
		s := criterionSeriesDTO{ID: cr.ID, Name: cr.Name, Group: cr.Group, Points: []criterionPointDTO{}}
		for _, pt := range p.ByCriterion[cr.ID] {
			s.Points = append(s.Points, criterionPointDTO{At: pt.At.UTC().Format("2006-01-02T15:04:05Z"), Level: pt.Level})
		}
		dto.ByCriterion = append(dto.ByCriterion, s)
	}
	return c.JSON(http.StatusOK, dto)
}

// getRubric lets anyone signed in read what each criterion looks for, before
// and after practising.
func (a *api) getRubric(c echo.Context) error {
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	degree := c.QueryParam("degree")
	if degree == "" {
		if pc, err := a.exams.PracticeContext(ctx, u, ""); err == nil {
			degree = pc.Degree.ID
		} else {
			ds, err := a.catalog.Degrees(ctx)
			if err != nil {
				return err
			}
			if len(ds) == 0 {
				return domain.ErrNotFound
			}
			degree = ds[0].ID
		}
	}
	if _, err := a.catalog.Degree(ctx, degree); err != nil {
		return err
	}
	r, err := a.catalog.Rubric(ctx, degree)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRubricDTO(r))
}

func (a *api) gradingQueue(c echo.Context) error {
	u, _ := currentUser(c)
	list, err := a.exams.GradingQueue(c.Request().Context(), u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSummaryDTOs(list))
}

// studentAttempts names the student by user id, not e-mail: a path is
// written to access logs, and an address there is personal data.
func (a *api) studentAttempts(c echo.Context) error {
	u, _ := currentUser(c)
	list, err := a.exams.StudentAttempts(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSummaryDTOs(list))
}

func intParam(c echo.Context, name string) (int, error) {
	v, err := strconv.Atoi(c.Param(name))
	if err != nil {
		return 0, domain.Invalid("invalid_"+name, "Parámetro no válido: "+name+".")
	}
	return v, nil
}
