package httpapi

import (
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/roster"
)

// rosterUploadLimit is the roster's 2 MB plus room for the multipart framing.
const (
	rosterUploadLimit = roster.MaxBytes + 64<<10
	rosterTooLarge    = "El archivo supera el límite de 2 MB."
)

type groupStudentDTO struct {
	Email    string `json:"email"`
	Attempts []any  `json:"attempts"`
}

// docenteDTO is the group's docente {email}, a name kept on purpose
// (docs/glossary.md).
type docenteDTO struct {
	Email string `json:"email"`
}

type groupDTO struct {
	ID            string            `json:"id"`
	Carrera       string            `json:"carrera"`
	CarreraNombre string            `json:"carreraNombre"`
	Departamento  string            `json:"departamento"`
	Facultad      string            `json:"facultad"`
	Modalidad     string            `json:"modalidad"`
	Docente       docenteDTO        `json:"docente"`
	Estudiantes   []groupStudentDTO `json:"estudiantes"`
	Status        string            `json:"status"`
	CreatedAt     time.Time         `json:"createdAt"`
	FinalizedAt   *time.Time        `json:"finalizedAt"`
}

func (a *api) toGroupDTO(c echo.Context, g domain.Group) (groupDTO, error) {
	names, err := a.catalog.DegreeNames(c.Request().Context())
	if err != nil {
		return groupDTO{}, err
	}
	dto := groupDTO{ID: g.ID, Carrera: g.Carrera, CarreraNombre: names[g.Carrera], Departamento: g.Departamento,
		Facultad: g.Facultad, Modalidad: g.Modalidad, Status: string(g.Status), CreatedAt: g.CreatedAt, FinalizedAt: g.FinalizedAt,
		Estudiantes: make([]groupStudentDTO, len(g.Estudiantes))}
	dto.Docente.Email = g.DocenteEmail
	for i, s := range g.Estudiantes {
		dto.Estudiantes[i] = groupStudentDTO{Email: s.Email, Attempts: []any{}}
	}
	return dto, nil
}

// activeGroupResponse is the tutor's active group, null when there is none.
type activeGroupResponse struct {
	Group *groupDTO `json:"group"`
}

// groupResponse is a group the tutor acted on.
type groupResponse struct {
	Group groupDTO `json:"group"`
}

// getActiveGroup returns {group: null} when the tutor has no active group.
func (a *api) getActiveGroup(c echo.Context) error {
	u, _ := currentUser(c)
	g, err := a.groups.ActiveGroup(c.Request().Context(), u)
	if errors.Is(err, domain.ErrNotFound) {
		return c.JSON(http.StatusOK, activeGroupResponse{})
	}
	if err != nil {
		return err
	}
	dto, err := a.toGroupDTO(c, g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, activeGroupResponse{Group: &dto})
}

type loadGroupResponse struct {
	Skipped bool     `json:"skipped"`
	Group   groupDTO `json:"group"`
}

func (a *api) loadGroup(c echo.Context) error {
	u, _ := currentUser(c)
	file, name, err := uploadedFile(c, "file")
	if err != nil {
		return err
	}
	res, err := a.groups.LoadGroup(c.Request().Context(), u, file, name)
	if err != nil {
		return err
	}
	if !res.Skipped {
		a.event(c, "data.import", slog.String("kind", "roster"), slog.String("groupId", res.Group.ID),
			slog.Int("students", len(res.Group.Estudiantes)))
	}
	dto, err := a.toGroupDTO(c, res.Group)
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if res.Skipped {
		status = http.StatusOK
	}
	return c.JSON(status, loadGroupResponse{Skipped: res.Skipped, Group: dto})
}

type addStudentsRequest struct {
	Emails []string `json:"emails"`
}

type addStudentsResponse struct {
	Added int      `json:"added"`
	Group groupDTO `json:"group"`
}

func (a *api) addStudents(c echo.Context) error {
	var req addStudentsRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	return a.respondAdded(c, groups.AddInput{Emails: req.Emails})
}

func (a *api) addStudentsFile(c echo.Context) error {
	file, name, err := uploadedFile(c, "file")
	if err != nil {
		return err
	}
	return a.respondAdded(c, groups.AddInput{File: file, Filename: name})
}

func (a *api) respondAdded(c echo.Context, in groups.AddInput) error {
	u, _ := currentUser(c)
	res, err := a.groups.AddStudents(c.Request().Context(), u, in)
	if err != nil {
		return err
	}
	a.event(c, "data.import", slog.String("kind", "roster_additions"), slog.String("groupId", res.Group.ID), slog.Int("students", res.Added))
	dto, err := a.toGroupDTO(c, res.Group)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, addStudentsResponse{Added: res.Added, Group: dto})
}

// removeStudent takes one student out of the tutor's active group.
// removeStudentRequest names the student in the body, not the path, so
// that no address is written into access-log URLs.
type removeStudentRequest struct {
	Email string `json:"email"`
}

func (a *api) removeStudent(c echo.Context) error {
	u, _ := currentUser(c)
	var req removeStudentRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	if _, err := a.groups.RemoveStudent(c.Request().Context(), u, req.Email); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *api) finalizeGroup(c echo.Context) error {
	u, _ := currentUser(c)
	g, err := a.groups.Finalize(c.Request().Context(), u)
	if err != nil {
		return err
	}
	dto, err := a.toGroupDTO(c, g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, groupResponse{Group: dto})
}

type memberDTO struct {
	Email string `json:"email"`
	// Name, SignedIn and LastSignInAt are null when the profiles could not
	// be read (infoUnavailable): unknown, which is not "never signed in".
	Name         *string    `json:"name"`
	SignedIn     *bool      `json:"signedIn"`
	LastSignInAt *time.Time `json:"lastSignInAt"`
	UserID       string     `json:"userId,omitempty"`
	AddedAt      time.Time  `json:"addedAt"`
	Attempts     int        `json:"attempts"`
	Finished     int        `json:"finished"`
	LastActivity *time.Time `json:"lastActivity"`
	LastScore    *float64   `json:"lastScore"`
	AverageScore *float64   `json:"averageScore"`
	Trend        string     `json:"trend"`
}

type membersResponse struct {
	Group           groupDTO    `json:"group"`
	Students        []memberDTO `json:"students"`
	InfoUnavailable bool        `json:"infoUnavailable"`
}

func (a *api) membersOf(c echo.Context, g domain.Group) error {
	dto, err := a.toGroupDTO(c, g)
	if err != nil {
		return err
	}
	members, unavailable := a.groups.Members(c.Request().Context(), g)
	stats, err := a.exams.MemberStats(c.Request().Context(), g)
	if err != nil {
		return err
	}
	out := membersResponse{Group: dto, Students: make([]memberDTO, len(members)), InfoUnavailable: unavailable}
	for i, m := range members {
		st := stats[m.Email]
		d := memberDTO{Email: m.Email, AddedAt: m.AddedAt, Attempts: st.Attempts,
			Finished: st.Finished, LastActivity: st.LastActivity, LastScore: st.LastScore, AverageScore: st.Average, Trend: st.Trend}
		if !unavailable {
			name, signedIn := m.Name, m.SignedIn()
			if m.User != nil {
				d.UserID = m.User.ID
				if m.User.DisplayName != "" {
					name = m.User.DisplayName
				}
				if signedIn {
					at := m.User.LastLoginAt
					d.LastSignInAt = &at
				}
			}
			d.Name, d.SignedIn = &name, &signedIn
		}
		out.Students[i] = d
	}
	return c.JSON(http.StatusOK, out)
}

func (a *api) activeGroupStudents(c echo.Context) error {
	u, _ := currentUser(c)
	g, err := a.groups.ActiveGroup(c.Request().Context(), u)
	if err != nil {
		return err
	}
	return a.membersOf(c, g)
}

func (a *api) getGroup(c echo.Context) error {
	u, _ := currentUser(c)
	g, err := a.groups.Group(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return a.membersOf(c, g)
}

func (a *api) groupHistory(c echo.Context) error {
	u, _ := currentUser(c)
	gs, err := a.groups.History(c.Request().Context(), u)
	if err != nil {
		return err
	}
	out := make([]groupDTO, 0, len(gs))
	for _, g := range gs {
		dto, err := a.toGroupDTO(c, g)
		if err != nil {
			return err
		}
		out = append(out, dto)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *api) searchStudents(c echo.Context) error {
	u, _ := currentUser(c)
	users, err := a.groups.SearchStudents(c.Request().Context(), u, c.QueryParam("q"))
	if err != nil {
		return err
	}
	out := make([]*userDTO, len(users))
	for i, s := range users {
		out[i] = toUserDTO(s)
	}
	return c.JSON(http.StatusOK, out)
}

// uploadedFile streams the multipart part named field without buffering the
// request: the route's body limit already bounds it.
func uploadedFile(c echo.Context, field string) (io.Reader, string, error) {
	noFile := domain.Invalid("no_file", "Seleccione un archivo .csv o .xlsx.")
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return nil, "", noFile
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, "", noFile
		}
		if err != nil {
			return nil, "", tooLargeOr(err, noFile)
		}
		if part.FormName() == field && part.FileName() != "" {
			return &limitErrReader{r: part}, part.FileName(), nil
		}
		_ = drain(part)
	}
}

func drain(p *multipart.Part) error {
	_, err := io.Copy(io.Discard, p)
	return err
}

// limitErrReader turns the body limit's error into the 413 it stands for.
type limitErrReader struct{ r io.Reader }

func (l *limitErrReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if err != nil && err != io.EOF {
		return n, tooLargeOr(err, err)
	}
	return n, err
}

func tooLargeOr(err, other error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
	}
	return other
}
