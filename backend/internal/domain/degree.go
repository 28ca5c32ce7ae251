package domain

// Degree is a programme of study (spec section 3, collection degree).
type Degree struct {
	ID     string
	Nombre string
}
