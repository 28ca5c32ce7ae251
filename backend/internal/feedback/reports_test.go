package feedback

import "testing"

func TestSpreadsheetSafe(t *testing.T) {
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
	} {
		if got := spreadsheetSafe(in); got != want {
			t.Errorf("spreadsheetSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
