package domain

import (
	"strings"

	"github.com/utpl/simulador/backend/internal/norms"
)

// NonNil is s, or an empty slice when s is nil, so that a list is encoded
// as [] (never null) in JSON: the API, the exchange format and stored
// lists all say "none" that way.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Round2 rounds a score, an average or a rate to two decimals (half up),
// as every report and progress page shows them.
func Round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// FoldName is the form in which names (degrees, people, case titles) are
// compared: lower case, without accents, single-spaced.
func FoldName(s string) string { return strings.Join(strings.Fields(norms.FoldText(s)), " ") }
