package domain

import "testing"

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{"Derecho": "derecho", "  DERECHO ": "derecho", "Psicología  Clínica": "psicologia clinica"} {
		if got := FoldName(in); got != want {
			t.Errorf("FoldName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRound2(t *testing.T) {
	for in, want := range map[float64]float64{7.254: 7.25, 7.255: 7.26, 10: 10, 0.005: 0.01} {
		if got := Round2(in); got != want {
			t.Errorf("Round2(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestNonNil(t *testing.T) {
	if s := NonNil[int](nil); s == nil || len(s) != 0 {
		t.Errorf("NonNil(nil) = %#v", s)
	}
	if s := NonNil([]int{1}); len(s) != 1 {
		t.Errorf("NonNil([1]) = %#v", s)
	}
}
