package lti

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
)

// Error codes of the course actions (the frontend switches on them).
const (
	CodeCourseNotFound = "course_not_found"
	CodeNoRoster       = "course_without_roster"
	CodeNoGrades       = "course_without_grades"
	CodeNotLinked      = "group_not_linked"
	CodePlatform       = "platform_error"
)

// maxCourses bounds the courses listed for a tutor (the latest launches).
const maxCourses = 20

// TutorCourses are the courses the tutor launched the simulator from as
// an instructor, latest first, whose platform is still registered.
func (s *Service) TutorCourses(ctx context.Context, tutor domain.User) ([]domain.LTICourse, error) {
	list, err := s.store.ListLTICoursesOfTutor(ctx, tutor.ID)
	if err != nil {
		return nil, err
	}
	platforms, err := s.store.ListLTIPlatforms(ctx)
	if err != nil {
		return nil, err
	}
	out := []domain.LTICourse{}
	for _, c := range list {
		if slices.ContainsFunc(platforms, func(p domain.LTIPlatform) bool { return p.ID == c.PlatformID }) && len(out) < maxCourses {
			out = append(out, c)
		}
	}
	return out, nil
}

func courseNotFound() error {
	return domain.NotFound(CodeCourseNotFound, "No encontramos ese curso entre los cursos desde los que abrió el simulador como docente. Ábralo desde el curso e intente de nuevo.")
}

// tutorCourse is one of the tutor's courses, with its platform: a tutor
// reaches only courses they launched from as an instructor.
func (s *Service) tutorCourse(ctx context.Context, tutor domain.User, courseID string) (domain.LTICourse, domain.LTIPlatform, error) {
	list, err := s.store.ListLTICoursesOfTutor(ctx, tutor.ID)
	if err != nil {
		return domain.LTICourse{}, domain.LTIPlatform{}, err
	}
	i := slices.IndexFunc(list, func(c domain.LTICourse) bool { return c.ID == courseID })
	if i < 0 {
		return domain.LTICourse{}, domain.LTIPlatform{}, courseNotFound()
	}
	p, err := s.store.GetLTIPlatform(ctx, list[i].PlatformID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.LTICourse{}, domain.LTIPlatform{}, courseNotFound()
	}
	return list[i], p, err
}

// Omitted is a course member who was not put in the group.
type Omitted struct {
	Name   string `json:"name"`
	Email  string `json:"email"`
	Reason string `json:"reason"`
}

// roster reads the course's active learners: the students to load, those
// left out (no usable email), and who each is on the platform.
func (s *Service) roster(ctx context.Context, c domain.LTICourse, p domain.LTIPlatform) ([]domain.GroupStudent, []Omitted, error) {
	if c.MembershipsURL == "" {
		return nil, nil, domain.Invalid(CodeNoRoster, "La plataforma no ofrece la lista de participantes de este curso (servicio de nombres y roles). Revise que la herramienta lo tenga habilitado.")
	}
	members, err := s.members(ctx, p, c.MembershipsURL)
	if err != nil {
		return nil, nil, platformFailure(err)
	}
	now := s.now().UTC()
	var students []domain.GroupStudent
	var omitted []Omitted
	var subjects []domain.LTISubject
	for _, m := range members {
		if !m.Learner() {
			continue
		}
		name := strings.TrimSpace(m.Name)
		if name == "" {
			name = strings.TrimSpace(m.GivenName + " " + m.FamilyName)
		}
		email := domain.NormalizeEmail(m.Email)
		if !domain.ValidEmail(email) {
			reason := "La plataforma no compartió su correo."
			if email != "" {
				reason = fmt.Sprintf("Su correo «%s» no es válido.", m.Email)
			}
			omitted = append(omitted, Omitted{Name: name, Email: m.Email, Reason: reason})
			continue
		}
		students = append(students, domain.GroupStudent{Email: email, Name: name, AddedAt: now})
		if m.UserID != "" {
			subjects = append(subjects, domain.LTISubject{PlatformID: p.ID, Email: email, Subject: m.UserID, UpdatedAt: now})
		}
	}
	if err := s.store.PutLTISubjects(ctx, subjects); err != nil {
		return nil, nil, err
	}
	return students, omitted, nil
}

// platformFailure turns a failed service call into the tutor's message.
func platformFailure(err error) error {
	var pe *PlatformError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w (%w)", &domain.UserError{Code: CodePlatform, Message: pe.Spanish()}, err)
	}
	return err
}

// RosterResult is a group loaded from a course.
type RosterResult struct {
	groups.LoadResult
	Omitted []Omitted
}

// LoadGroupFromCourse creates the tutor's active group from the course's
// active learners, with the rules of a roster file (groups.LoadGroupFromList),
// and ties the group to the course. degreeName is the group's degree; ""
// takes the course's custom parameter "carrera".
func (s *Service) LoadGroupFromCourse(ctx context.Context, tutor domain.User, courseID, degreeName string) (RosterResult, error) {
	c, p, err := s.tutorCourse(ctx, tutor, courseID)
	if err != nil {
		return RosterResult{}, err
	}
	if strings.TrimSpace(degreeName) == "" {
		degreeName = c.Degree
	}
	// The roster is read only when it can be used: a tutor who has an
	// active group keeps it (as with a file), and the degree must exist.
	if g, err := s.groups.ActiveGroup(ctx, tutor); err == nil {
		return RosterResult{LoadResult: groups.LoadResult{Group: g, Skipped: true}}, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return RosterResult{}, err
	}
	if _, err := s.groups.DegreeByName(ctx, degreeName); err != nil {
		return RosterResult{}, err
	}
	students, omitted, err := s.roster(ctx, c, p)
	if err != nil {
		return RosterResult{}, err
	}
	res, err := s.groups.LoadGroupFromList(ctx, tutor, degreeName, students)
	if err != nil {
		return RosterResult{}, err
	}
	if !res.Skipped {
		now := s.now().UTC()
		if err := s.store.PutLTIGroupLink(ctx, domain.LTIGroupLink{GroupID: res.Group.ID, CourseID: c.ID, CreatedAt: now, UpdatedAt: now}); err != nil {
			return RosterResult{}, err
		}
	}
	return RosterResult{LoadResult: res, Omitted: omitted}, nil
}

// GroupCourse is the course a group was loaded from.
type GroupCourse struct {
	Group  domain.Group
	Course domain.LTICourse
	Link   domain.LTIGroupLink
}

// ActiveGroupCourse returns the tutor's active group's course; a nil
// result when the tutor has no active group or it was not loaded from a
// course.
func (s *Service) ActiveGroupCourse(ctx context.Context, tutor domain.User) (*GroupCourse, error) {
	g, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	link, err := s.store.GetLTIGroupLink(ctx, g.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c, err := s.store.GetLTICourse(ctx, link.CourseID)
	if err != nil {
		return nil, err
	}
	return &GroupCourse{Group: g, Course: c, Link: link}, nil
}

func (s *Service) linkedGroup(ctx context.Context, tutor domain.User) (*GroupCourse, domain.LTIPlatform, error) {
	if _, err := s.groups.ActiveGroup(ctx, tutor); err != nil {
		return nil, domain.LTIPlatform{}, err
	}
	gc, err := s.ActiveGroupCourse(ctx, tutor)
	if err != nil {
		return nil, domain.LTIPlatform{}, err
	}
	if gc == nil {
		return nil, domain.LTIPlatform{}, domain.Invalid(CodeNotLinked, "El grupo activo no se cargó desde un curso.")
	}
	p, err := s.store.GetLTIPlatform(ctx, gc.Course.PlatformID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.LTIPlatform{}, domain.Invalid(CodeNotLinked, "La plataforma del curso ya no está registrada en el simulador.")
	}
	return gc, p, err
}

// UpdateResult is the outcome of updating a group from its course.
type UpdateResult struct {
	Added   int
	Group   domain.Group
	Left    []domain.GroupStudent // in the group, no longer active learners of the course
	Omitted []Omitted
}

// UpdateDetails are the details of the error "Los estudiantes ya están en
// el grupo" when nothing was added: who left the course, who was left
// out.
type UpdateDetails struct {
	Left    []LeftStudent `json:"left"`
	Omitted []Omitted     `json:"omitted"`
}

// LeftStudent is a group student no longer in the course.
type LeftStudent struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

// UpdateGroupFromCourse adds to the tutor's active group the course's
// learners who joined since, with the rules of adding students. Nobody is
// removed: those who left the course are listed.
func (s *Service) UpdateGroupFromCourse(ctx context.Context, tutor domain.User) (UpdateResult, error) {
	gc, p, err := s.linkedGroup(ctx, tutor)
	if err != nil {
		return UpdateResult{}, err
	}
	students, omitted, err := s.roster(ctx, gc.Course, p)
	if err != nil {
		return UpdateResult{}, err
	}
	inCourse := make(map[string]bool, len(students))
	for _, st := range students {
		inCourse[st.Email] = true
	}
	var left []domain.GroupStudent
	for _, st := range gc.Group.Estudiantes {
		if !inCourse[st.Email] {
			left = append(left, st)
		}
	}
	if students == nil {
		students = []domain.GroupStudent{}
	}
	res, err := s.groups.AddStudents(ctx, tutor, groups.AddInput{Students: students})
	var ue *domain.UserError
	if errors.As(err, &ue) && ue.Code == groups.CodeAlreadyInGroup {
		return UpdateResult{}, &domain.UserError{Kind: ue.Kind, Code: ue.Code, Message: ue.Message,
			Details: UpdateDetails{Left: leftStudents(left), Omitted: domain.NonNil(omitted)}}
	}
	if err != nil {
		return UpdateResult{}, err
	}
	return UpdateResult{Added: res.Added, Group: res.Group, Left: left, Omitted: omitted}, nil
}

func leftStudents(list []domain.GroupStudent) []LeftStudent {
	out := make([]LeftStudent, len(list))
	for i, st := range list {
		out[i] = LeftStudent{Email: st.Email, Name: st.Name}
	}
	return out
}

// The column the tool creates.
const (
	ColumnLabel    = "Simulacro oral"
	ColumnMaximum  = 10
	columnResource = "simulacro-oral"
	columnTag      = "simulador-complexivo"
)

func (s *Service) gradesOf(ctx context.Context, tutor domain.User) (*GroupCourse, domain.LTIPlatform, error) {
	gc, p, err := s.linkedGroup(ctx, tutor)
	if err != nil {
		return nil, p, err
	}
	if gc.Course.LineItemsURL == "" {
		return nil, p, domain.Invalid(CodeNoGrades, "La plataforma no ofrece el libro de calificaciones de este curso (servicio de calificaciones). Revise que la herramienta lo tenga habilitado.")
	}
	return gc, p, nil
}

// LineItems lists the columns of the active group's course the tool may
// use.
func (s *Service) LineItems(ctx context.Context, tutor domain.User) ([]LineItem, error) {
	gc, p, err := s.gradesOf(ctx, tutor)
	if err != nil {
		return nil, err
	}
	items, err := s.lineItems(ctx, p, gc.Course)
	if err != nil {
		return nil, platformFailure(err)
	}
	return domain.NonNil(items), nil
}

// CreateColumn creates the "Simulacro oral" column (out of 10) in the
// active group's course, unless the tool made it there already, and links
// the group to it.
func (s *Service) CreateColumn(ctx context.Context, tutor domain.User) (domain.LTIGroupLink, error) {
	gc, p, err := s.gradesOf(ctx, tutor)
	if err != nil {
		return domain.LTIGroupLink{}, err
	}
	if len(gc.Course.ServiceScopes) > 0 && !slices.Contains(gc.Course.ServiceScopes, ScopeLineItem) {
		return domain.LTIGroupLink{}, domain.Invalid(CodeNoGrades, "La plataforma no permite que el simulador cree columnas en este curso. Elija una columna existente.")
	}
	// A column the tool made before in this course (a second click, another
	// group of the same course) is linked rather than made again.
	items, err := s.lineItems(ctx, p, gc.Course)
	if err != nil {
		return domain.LTIGroupLink{}, platformFailure(err)
	}
	for _, it := range items {
		if it.ResourceID == columnResource && it.Tag == columnTag {
			return s.linkColumn(ctx, gc, it)
		}
	}
	item, err := s.createLineItem(ctx, p, gc.Course.LineItemsURL, LineItem{Label: ColumnLabel, ScoreMaximum: ColumnMaximum, ResourceID: columnResource, Tag: columnTag})
	if err != nil {
		return domain.LTIGroupLink{}, platformFailure(err)
	}
	return s.linkColumn(ctx, gc, item)
}

// LinkColumn links the active group to one of its course's columns.
func (s *Service) LinkColumn(ctx context.Context, tutor domain.User, lineItemID string) (domain.LTIGroupLink, error) {
	gc, p, err := s.gradesOf(ctx, tutor)
	if err != nil {
		return domain.LTIGroupLink{}, err
	}
	items, err := s.lineItems(ctx, p, gc.Course)
	if err != nil {
		return domain.LTIGroupLink{}, platformFailure(err)
	}
	i := slices.IndexFunc(items, func(it LineItem) bool { return it.ID == lineItemID && it.ID != "" })
	if i < 0 {
		return domain.LTIGroupLink{}, domain.NotFound("column_not_found", "Esa columna no está en el curso. Actualice la lista e intente de nuevo.")
	}
	return s.linkColumn(ctx, gc, items[i])
}

func (s *Service) linkColumn(ctx context.Context, gc *GroupCourse, item LineItem) (domain.LTIGroupLink, error) {
	if err := CheckPlatformURL(item.ID); err != nil {
		return domain.LTIGroupLink{}, domain.Invalid("column_not_usable", "La plataforma dio una columna sin dirección válida.")
	}
	link := gc.Link
	link.LineItemURL, link.LineItemLabel, link.UpdatedAt = item.ID, item.Label, s.now().UTC()
	return link, s.store.PutLTIGroupLink(ctx, link)
}
