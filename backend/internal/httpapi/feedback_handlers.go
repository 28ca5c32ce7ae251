package httpapi

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/feedback"
)

type transcriptRequest struct {
	Source   string           `json:"source"`
	Language string           `json:"language"`
	Segments []domain.Segment `json:"segments"`
}

// putTranscript saves a live transcript (the student's browser) or a
// correction (the student or the group's tutor).
func (a *api) putTranscript(c echo.Context) error {
	var req transcriptRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	at, err := a.exams.Get(ctx, u, c.Param("id"))
	if err != nil {
		return err
	}
	t, err := a.feedback.SaveTranscript(ctx, u, at, c.Param("rid"), req.Source, req.Language, req.Segments)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, transcriptDTO{Source: t.Source, Language: t.Language, Segments: domain.NonNil(t.Segments), Text: t.Text(),
		UpdatedAt: t.UpdatedAt, UpdatedBy: t.UpdatedBy})
}

// reportGroup is the group a report is about: the one asked for (the
// tutor's own), else the active one, else the newest.
func (a *api) reportGroup(c echo.Context) (domain.Group, error) {
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	if id := c.QueryParam("group"); id != "" {
		return a.groups.Group(ctx, u, id)
	}
	g, err := a.groups.ActiveGroup(ctx, u)
	if err == nil || !errors.Is(err, domain.ErrNotFound) {
		return g, err
	}
	history, err := a.groups.History(ctx, u)
	if err != nil {
		return domain.Group{}, err
	}
	if len(history) == 0 {
		return domain.Group{}, domain.NotFound("no_groups", "Aún no tiene grupos: cargue uno para ver reportes.")
	}
	return history[0], nil
}

func (a *api) memberNames(c echo.Context, g domain.Group) map[string]string {
	members, _ := a.groups.Members(c.Request().Context(), g)
	names := make(map[string]string, len(members))
	for _, m := range members {
		names[m.Email] = m.Name
		if m.User != nil && m.User.DisplayName != "" {
			names[m.Email] = m.User.DisplayName
		}
	}
	return names
}

type groupReportResponse struct {
	Group  groupDTO             `json:"group"`
	Report feedback.GroupReport `json:"report"`
}

func (a *api) groupReport(c echo.Context) error {
	g, err := a.reportGroup(c)
	if err != nil {
		return err
	}
	// Display names are looked up only for the students the report lists
	// by name (the inactive ones).
	names := func(emails []string) map[string]string {
		subset := domain.Group{ID: g.ID, Estudiantes: make([]domain.GroupStudent, len(emails))}
		for i, e := range emails {
			subset.Estudiantes[i] = domain.GroupStudent{Email: e}
		}
		return a.memberNames(c, subset)
	}
	r, err := a.feedback.Report(c.Request().Context(), g, names)
	if err != nil {
		return err
	}
	dto, err := a.toGroupDTO(c, g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, groupReportResponse{Group: dto, Report: r})
}

func (a *api) exportGrades(c echo.Context) error {
	g, err := a.reportGroup(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	kind, file := "grades", "calificaciones-"
	switch c.QueryParam("by") {
	case "":
		err = a.feedback.WriteGradesCSV(c.Request().Context(), &buf, g, a.memberNames(c, g))
	case "area":
		// The report's section by area of law, for the same spreadsheets.
		kind, file = "areas", "resultados-por-area-"
		err = a.feedback.WriteAreasCSV(c.Request().Context(), &buf, g)
	default:
		return domain.Invalid("invalid_export", "Exportación no válida.")
	}
	if err != nil {
		return err
	}
	a.event(c, "data.export", slog.String("kind", kind), slog.String("format", "csv"), slog.String("groupId", g.ID))
	c.Response().Header().Set("Content-Disposition", attachment(file+g.ID+".csv"))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}
