package norms_test

import (
	"testing"

	"github.com/utpl/simulador/backend/internal/norms"
)

func TestFold(t *testing.T) {
	for in, want := range map[string][2]string{
		// in: {Fold, FoldText}
		"Constitución, art. 76":    {"constitucion  art  76", "constitucion, art. 76"},
		"NIÑEZ":                    {"ninez", "ninez"},
		"Cons\u0301titucio\u0301n": {"constitucion", "constitucion"}, // decomposed accents
		"¿Šimić?":                  {" simic ", "¿simic?"},
		"línea\nnueva":             {"linea nueva", "linea\nnueva"},
	} {
		if got := norms.Fold(in); got != want[0] {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want[0])
		}
		if got := norms.FoldText(in); got != want[1] {
			t.Errorf("FoldText(%q) = %q, want %q", in, got, want[1])
		}
	}
}
