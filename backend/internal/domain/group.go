package domain

import "time"

// GroupStatus is a group's state: created activo, finalized by its tutor
// (docs/product.md, "The group").
type GroupStatus string

const (
	GroupActive    GroupStatus = "activo"
	GroupFinalized GroupStatus = "finalizado"
)

// Group is a tutor's group of students. Its Spanish field names are kept on
// purpose (docs/glossary.md).
type Group struct {
	ID           string
	Carrera      string // degree id
	Departamento string
	Facultad     string
	Modalidad    string
	DocenteEmail string
	Estudiantes  []GroupStudent
	Status       GroupStatus
	CreatedAt    time.Time
	FinalizedAt  *time.Time
}

// GroupStudent is one member of a group, keyed by normalised email.
type GroupStudent struct {
	Email   string
	Name    string // as given in the roster; the profile's name wins when it exists
	AddedAt time.Time
}

// HasStudent reports whether email (normalised) belongs to the group.
func (g Group) HasStudent(email string) bool {
	for _, s := range g.Estudiantes {
		if s.Email == email {
			return true
		}
	}
	return false
}
