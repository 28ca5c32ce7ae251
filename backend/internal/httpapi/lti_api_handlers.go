package httpapi

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/lti"
)

// The tutor's course actions (the admin Grupo and Calificar pages): the
// courses they launched from, a group loaded or updated from a course's
// roster, the gradebook column of the group, and whether each Simulacro's
// grade reached the course.

type ltiCourseDTO struct {
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Label      string     `json:"label"`
	Degree     string     `json:"degree"`
	LaunchedAt *time.Time `json:"launchedAt,omitempty"`
	Roster     bool       `json:"roster"` // the platform offers the course's roster
	Grades     bool       `json:"grades"` // the platform offers the course's gradebook
}

func toCourseDTO(c domain.LTICourse) ltiCourseDTO {
	d := ltiCourseDTO{ID: c.ID, Title: c.Title, Label: c.Label, Degree: c.Degree, Roster: c.MembershipsURL != "", Grades: c.LineItemsURL != ""}
	if !c.LaunchedAt.IsZero() {
		at := c.LaunchedAt
		d.LaunchedAt = &at
	}
	return d
}

type ltiColumnDTO struct {
	ID           string  `json:"id"`
	Label        string  `json:"label"`
	ScoreMaximum float64 `json:"scoreMaximum,omitempty"`
}

type ltiGroupCourseDTO struct {
	GroupID string        `json:"groupId"`
	Course  ltiCourseDTO  `json:"course"`
	Column  *ltiColumnDTO `json:"column"`
}

type ltiCoursesResponse struct {
	Courses []ltiCourseDTO     `json:"courses"`
	Group   *ltiGroupCourseDTO `json:"group"`
}

func (a *api) ltiCourses(c echo.Context) error {
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	list, err := a.lti.TutorCourses(ctx, u)
	if err != nil {
		return err
	}
	out := ltiCoursesResponse{Courses: make([]ltiCourseDTO, len(list))}
	for i, course := range list {
		out.Courses[i] = toCourseDTO(course)
	}
	gc, err := a.lti.ActiveGroupCourse(ctx, u)
	if err != nil {
		return err
	}
	if gc != nil {
		out.Group = &ltiGroupCourseDTO{GroupID: gc.Group.ID, Course: toCourseDTO(gc.Course)}
		if gc.Link.LineItemURL != "" {
			out.Group.Column = &ltiColumnDTO{ID: gc.Link.LineItemURL, Label: gc.Link.LineItemLabel}
		}
	}
	return c.JSON(http.StatusOK, out)
}

type ltiLoadRequest struct {
	CourseID string `json:"courseId"`
	Degree   string `json:"degree"`
}

type ltiLoadResponse struct {
	Skipped bool          `json:"skipped"`
	Group   groupDTO      `json:"group"`
	Omitted []lti.Omitted `json:"omitted"`
}

func (a *api) ltiLoadGroup(c echo.Context) error {
	var req ltiLoadRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	res, err := a.lti.LoadGroupFromCourse(c.Request().Context(), u, req.CourseID, req.Degree)
	if err != nil {
		return err
	}
	dto, err := a.toGroupDTO(c, res.Group)
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if res.Skipped {
		status = http.StatusOK
	}
	return c.JSON(status, ltiLoadResponse{Skipped: res.Skipped, Group: dto, Omitted: domain.NonNil(res.Omitted)})
}

type ltiUpdateResponse struct {
	Added   int               `json:"added"`
	Group   groupDTO          `json:"group"`
	Left    []lti.LeftStudent `json:"left"`
	Omitted []lti.Omitted     `json:"omitted"`
}

func (a *api) ltiUpdateGroup(c echo.Context) error {
	u, _ := currentUser(c)
	res, err := a.lti.UpdateGroupFromCourse(c.Request().Context(), u)
	if err != nil {
		return err
	}
	dto, err := a.toGroupDTO(c, res.Group)
	if err != nil {
		return err
	}
	left := make([]lti.LeftStudent, len(res.Left))
	for i, st := range res.Left {
		left[i] = lti.LeftStudent{Email: st.Email, Name: st.Name}
	}
	return c.JSON(http.StatusOK, ltiUpdateResponse{Added: res.Added, Group: dto, Left: left, Omitted: domain.NonNil(res.Omitted)})
}

// ltiColumnsResponse is the gradebook columns of the active group's course.
type ltiColumnsResponse struct {
	Items []ltiColumnDTO `json:"items"`
}

func (a *api) ltiLineItems(c echo.Context) error {
	u, _ := currentUser(c)
	items, err := a.lti.LineItems(c.Request().Context(), u)
	if err != nil {
		return err
	}
	out := make([]ltiColumnDTO, len(items))
	for i, it := range items {
		out[i] = ltiColumnDTO{ID: it.ID, Label: it.Label, ScoreMaximum: it.ScoreMaximum}
	}
	return c.JSON(http.StatusOK, ltiColumnsResponse{Items: out})
}

type ltiColumnRequest struct {
	// ID is a column of the course; "" creates the "Simulacro oral" column.
	ID string `json:"id"`
}

// ltiLinkedColumnResponse is the column the group's grades now go to.
type ltiLinkedColumnResponse struct {
	Column ltiColumnDTO `json:"column"`
}

func (a *api) ltiLinkColumn(c echo.Context) error {
	var req ltiColumnRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	var link domain.LTIGroupLink
	var err error
	if req.ID == "" {
		link, err = a.lti.CreateColumn(c.Request().Context(), u)
	} else {
		link, err = a.lti.LinkColumn(c.Request().Context(), u, req.ID)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ltiLinkedColumnResponse{Column: ltiColumnDTO{ID: link.LineItemURL, Label: link.LineItemLabel}})
}

type scoreStatusDTO struct {
	// State is none, unlinked, unsent, pending, sent or error.
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
	Column string `json:"column,omitempty"`
}

func (a *api) ltiScoreStatus(c echo.Context) error {
	u, _ := currentUser(c)
	st, err := a.lti.ScoreStatus(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, scoreStatusDTO{State: st.State, Error: st.Error, Column: st.Column})
}

func (a *api) ltiSendScore(c echo.Context) error {
	u, _ := currentUser(c)
	st, err := a.lti.SendScore(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, scoreStatusDTO{State: st.State, Error: st.Error, Column: st.Column})
}
