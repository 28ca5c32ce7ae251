package httpapi

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
)

func (a *api) listCases(c echo.Context) error {
	ctx := c.Request().Context()
	reviewed := c.QueryParam("reviewed")
	if reviewed != "" && reviewed != "si" && reviewed != "no" {
		return domain.Invalid("invalid_filter", "El filtro de revisión debe ser si o no.")
	}
	cases, err := a.catalog.Cases(ctx, catalog.CaseQuery{DegreeID: c.QueryParam("degree"), Area: c.QueryParam("area"),
		Status: domain.CaseStatus(c.QueryParam("status")), Difficulty: domain.Difficulty(c.QueryParam("difficulty")),
		Reviewed: reviewed, Text: c.QueryParam("q")})
	if err != nil {
		return err
	}
	names, err := a.catalog.DegreeNames(ctx)
	if err != nil {
		return err
	}
	out := make([]caseDTO, len(cases))
	for i, cs := range cases {
		out[i] = toCaseDTO(cs, names[cs.DegreeID])
	}
	return c.JSON(http.StatusOK, out)
}

func (a *api) caseFromRequest(c echo.Context) (domain.Case, error) {
	var req caseDTO
	if err := c.Bind(&req); err != nil {
		return domain.Case{}, err
	}
	degreeID := req.DegreeID
	if degreeID == "" && req.Degree != "" {
		d, err := a.catalog.DegreeByName(c.Request().Context(), req.Degree)
		if err != nil {
			return domain.Case{}, err
		}
		degreeID = d.ID
	}
	return domain.Case{DegreeID: degreeID, Area: req.Area, Title: req.Title, Difficulty: domain.Difficulty(req.Difficulty), Facts: req.Facts,
		Questions: req.Questions, FollowUps: req.FollowUps, KeyPoints: req.KeyPoints, FollowUpKeyPoints: req.FollowUpKeyPoints,
		LegalBases: fromLegalBaseDTOs(req.LegalBases), Status: domain.CaseStatus(req.Status), Demo: req.Demo}, nil
}

func (a *api) respondCase(c echo.Context, status int, cs domain.Case) error {
	names, err := a.catalog.DegreeNames(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(status, toCaseDTO(cs, names[cs.DegreeID]))
}

func (a *api) createCase(c echo.Context) error {
	cs, err := a.caseFromRequest(c)
	if err != nil {
		return err
	}
	cs, err = a.catalog.CreateCase(c.Request().Context(), cs)
	if err != nil {
		return err
	}
	return a.respondCase(c, http.StatusCreated, cs)
}

func (a *api) getCase(c echo.Context) error {
	cs, err := a.catalog.Case(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return a.respondCase(c, http.StatusOK, cs)
}

func (a *api) updateCase(c echo.Context) error {
	cs, err := a.caseFromRequest(c)
	if err != nil {
		return err
	}
	cs, err = a.catalog.UpdateCase(c.Request().Context(), c.Param("id"), cs)
	if err != nil {
		return err
	}
	return a.respondCase(c, http.StatusOK, cs)
}

// reviewCase marks a case reviewed by the signed-in tutor.
func (a *api) reviewCase(c echo.Context) error {
	u, _ := currentUser(c)
	cs, err := a.catalog.MarkReviewed(c.Request().Context(), c.Param("id"), u)
	if err != nil {
		return err
	}
	return a.respondCase(c, http.StatusOK, cs)
}

func (a *api) importCases(c echo.Context) error {
	file, name, err := uploadedFile(c, "file")
	if err != nil {
		return domain.Invalid("no_file", "Seleccione un archivo .json o .csv.")
	}
	res, err := a.catalog.ImportCases(c.Request().Context(), file, name)
	if err != nil {
		return err
	}
	a.event(c, "data.import", slog.String("kind", "cases"), slog.Int("created", res.Created), slog.Int("updated", res.Updated))
	return c.JSON(http.StatusOK, res)
}

func (a *api) exportCases(c echo.Context) error {
	ctx := c.Request().Context()
	degree := c.QueryParam("degree")
	cases, err := a.catalog.Export(ctx, degree)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	format := strings.ToLower(c.QueryParam("format"))
	switch format {
	case "", "json":
		format = "json"
		err = catalog.WriteJSON(&buf, cases)
	case "csv":
		err = catalog.WriteCSV(&buf, cases)
	default:
		return domain.Invalid("invalid_format", "Formato no admitido; use json o csv.")
	}
	if err != nil {
		return err
	}
	name := "casos"
	if degree != "" {
		name += "-" + degree
	}
	ctype := "application/json; charset=utf-8"
	if format == "csv" {
		ctype = "text/csv; charset=utf-8"
	}
	a.event(c, "data.export", slog.String("kind", "cases"), slog.String("format", format), slog.Int("cases", len(cases)))
	c.Response().Header().Set("Content-Disposition", attachment(name+"."+format))
	return c.Blob(http.StatusOK, ctype, buf.Bytes())
}

type configDTO struct {
	Degree    degreeDTO              `json:"degree"`
	Blueprint domain.Blueprint       `json:"blueprint"`
	Rubric    rubricDTO              `json:"rubric"`
	Bounds    domain.BlueprintBounds `json:"bounds"`
}

func (a *api) getDegreeConfig(c echo.Context) error {
	ctx := c.Request().Context()
	d, err := a.catalog.Degree(ctx, c.Param("degree"))
	if err != nil {
		return err
	}
	bp, err := a.catalog.Blueprint(ctx, d.ID)
	if err != nil {
		return err
	}
	r, err := a.catalog.Rubric(ctx, d.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, configDTO{Degree: degreeDTO{ID: d.ID, Nombre: d.Nombre}, Blueprint: bp, Rubric: toRubricDTO(r), Bounds: a.catalog.Bounds()})
}

func (a *api) putBlueprint(c echo.Context) error {
	var bp domain.Blueprint
	if err := c.Bind(&bp); err != nil {
		return err
	}
	bp.DegreeID = c.Param("degree")
	bp, err := a.catalog.SetBlueprint(c.Request().Context(), bp)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, bp)
}

type rubricRequest struct {
	Criteria  []domain.Criterion `json:"criteria"`
	PassScore float64            `json:"passScore"`
}

func (a *api) putRubric(c echo.Context) error {
	var req rubricRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	r, err := a.catalog.SetRubric(c.Request().Context(), c.Param("degree"), req.Criteria, req.PassScore)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toRubricDTO(r))
}
