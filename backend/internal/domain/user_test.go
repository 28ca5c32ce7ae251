package domain

import "testing"

func TestValidEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"ana@utpl.edu.ec": true, "a.b+c@x.ec": true, "": false, "ana": false, "ana@utpl": false,
		"Ana <ana@utpl.edu.ec>": false, "a@@b.ec": false, "a b@c.ec": false, "a@b.ec.": false,
	} {
		if got := ValidEmail(s); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSplitName(t *testing.T) {
	for full, want := range map[string][2]string{
		"": {"", ""}, "Ana": {"Ana", ""}, "Ana Pérez": {"Ana", "Pérez"}, "Ana Pérez Loaiza": {"Ana", "Pérez Loaiza"},
		"Ana María Pérez Loaiza": {"Ana María", "Pérez Loaiza"}, "  Juan   Carlos  Ruiz  Soto ": {"Juan Carlos", "Ruiz Soto"},
	} {
		g, s := SplitName(full)
		if g != want[0] || s != want[1] {
			t.Errorf("SplitName(%q) = %q, %q; want %q", full, g, s, want)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	if got := NormalizeEmail("  Ana.Perez@UTPL.edu.EC "); got != "ana.perez@utpl.edu.ec" {
		t.Fatal(got)
	}
}

// Only ASCII letters are case-folded: a non-ASCII lookalike (the Kelvin
// sign, U+212A, which Unicode lower-cases to k) stays a different address.
func TestNormalizeEmailKeepsLookalikesDistinct(t *testing.T) {
	for in, want := range map[string]string{
		"\u212Aate@utpl.edu.ec": "\u212Aate@utpl.edu.ec",
		"KATE@UTPL.EDU.EC":      "kate@utpl.edu.ec",
		"JOSÉ@utpl.edu.ec":      "josÉ@utpl.edu.ec",
		"\u0130nes@utpl.edu.ec": "\u0130nes@utpl.edu.ec", // dotted capital I, lower-cased to i + a combining dot
	} {
		if got := NormalizeEmail(in); got != want {
			t.Errorf("NormalizeEmail(%q) = %q, want %q", in, got, want)
		}
	}
}
