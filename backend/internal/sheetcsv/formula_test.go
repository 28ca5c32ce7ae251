package sheetcsv

import "testing"

func TestEscapeFormula(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"Ana Pérez":           "Ana Pérez",
		"10,00":               "10,00",
		"=1+1":                "'=1+1",
		"+593 99":             "'+593 99",
		"-2":                  "'-2",
		"@SUM(A1:A2)":         "'@SUM(A1:A2)",
		"\t=1":                "'\t=1",
		"\r=1":                "'\r=1",
		" =1":                 " =1",
		"Revise; la vía = ok": "Revise; la vía = ok",
		"'hola":               "'hola",
		"'=1+1":               "''=1+1",
		"''-2":                "'''-2",
		"'":                   "'",
	} {
		if got := EscapeFormula(in); got != want {
			t.Errorf("EscapeFormula(%q) = %q, want %q", in, got, want)
		}
		if back := UnescapeFormula(EscapeFormula(in)); back != in {
			t.Errorf("UnescapeFormula(EscapeFormula(%q)) = %q", in, back)
		}
	}
}

func FuzzFormulaRoundTrip(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "''", "'", "@x", "texto"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := EscapeFormula(s)
		if UnescapeFormula(e) != s {
			t.Fatalf("round trip of %q gave %q", s, UnescapeFormula(e))
		}
		if e != "" && (e[0] == '=' || e[0] == '+' || e[0] == '-' || e[0] == '@' || e[0] == '\t' || e[0] == '\r') {
			t.Fatalf("EscapeFormula(%q) = %q starts a formula", s, e)
		}
	})
}
