package domain

// Degree is a programme of study. Nombre keeps its Spanish name on purpose
// (docs/glossary.md).
type Degree struct {
	ID     string
	Nombre string
}
