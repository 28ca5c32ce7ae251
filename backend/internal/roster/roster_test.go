package roster

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseByExtension(t *testing.T) {
	csvData := []byte("correo;carrera\nana@utpl.edu.ec;Derecho\n")
	xlsxData := buildXLSX(t, sheet{"Hoja1", [][]any{{"correo", "carrera"}, {"ana@utpl.edu.ec", "Derecho"}}})
	want := Row{Line: 2, Email: "ana@utpl.edu.ec", Degree: "Derecho"}

	for _, name := range []string{"lista.csv", "LISTA.CSV", "C:/Users/tutor/Mis documentos/lista.2025.Csv"} {
		rows, err := Parse(bytes.NewReader(csvData), name)
		wantRows(t, rows, err, want)
	}
	for _, name := range []string{"lista.xlsx", "Lista.XLSX"} {
		rows, err := Parse(bytes.NewReader(xlsxData), name)
		wantRows(t, rows, err, want)
	}
	for name, msg := range map[string]string{
		"lista.xls":     "Los archivos .xls (Excel 97-2003) no son compatibles; guarde el archivo como .xlsx o .csv.",
		"lista.pdf":     "Formato de archivo no admitido; use un archivo .csv o .xlsx.",
		"lista":         "Formato de archivo no admitido; use un archivo .csv o .xlsx.",
		"lista.csv.exe": "Formato de archivo no admitido; use un archivo .csv o .xlsx.",
	} {
		rows, err := Parse(bytes.NewReader(csvData), name)
		wantProblems(t, rows, err, Problem{Message: msg})
	}
	// A CSV renamed .xlsx is not an Excel file.
	rows, err := Parse(bytes.NewReader(csvData), "lista.xlsx")
	wantProblems(t, rows, err, Problem{Message: "No se pudo leer el archivo Excel (.xlsx)."})
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		problems []Problem
		want     string
	}{
		{nil, "El archivo no es válido."},
		{[]Problem{{Message: "El archivo no tiene estudiantes."}}, "El archivo no tiene estudiantes."},
		{[]Problem{{Column: "correo", Message: "Falta la columna «correo»."}}, "Falta la columna «correo»."},
		{[]Problem{{Column: "carrera", Message: "La carrera «Medicina» no existe."}}, "Columna «carrera»: La carrera «Medicina» no existe."},
		{
			[]Problem{
				{Row: 2, Column: "correo", Message: "El correo está vacío."},
				{Row: 3, Message: "No se pudo leer la fila."},
			},
			"Fila 2, columna «correo»: El correo está vacío. Fila 3: No se pudo leer la fila.",
		},
		{
			[]Problem{{Row: 2, Message: "a."}, {Row: 3, Message: "b."}, {Row: 4, Message: "c."}, {Row: 5, Message: "d."}, {Row: 6, Message: "e."}},
			"Fila 2: a. Fila 3: b. Fila 4: c. (y 2 problemas adicionales)",
		},
		{
			[]Problem{{Row: 2, Message: "a."}, {Row: 3, Message: "b."}, {Row: 4, Message: "c."}, {Row: 5, Message: "d."}, {Message: msgMore}},
			"Fila 2: a. Fila 3: b. Fila 4: c. (y más de 1 problemas adicionales)",
		},
	}
	for _, tt := range tests {
		if got := NewError(tt.problems...).Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestErrorIsUsableByCallers(t *testing.T) {
	// The caller reports degrees unknown to the database with NewError and
	// serialises Problems as JSON for the UI.
	var err error = NewError(Problem{Row: 7, Column: "Carrera", Message: "La carrera «Medicina» no existe."})
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != 1 {
		t.Fatalf("errors.As failed on %v", err)
	}
	b, _ := json.Marshal(e.Problems)
	if got, want := string(b), `[{"row":7,"column":"Carrera","message":"La carrera «Medicina» no existe."}]`; got != want {
		t.Errorf("JSON = %s, want %s", got, want)
	}
}

func TestHeaderKey(t *testing.T) {
	for _, h := range []string{"Correo Electrónico", "\uFEFFcorreo electronico", "  CORREO   ELECTRÓNICO ", "correo_electronico", "Correo-Electro\u0301nico"} {
		if got := headerKey(h); got != "correoelectronico" {
			t.Errorf("headerKey(%q) = %q", h, got)
		}
	}
}

func TestValidEmail(t *testing.T) {
	for _, s := range []string{"ana@utpl.edu.ec", "ana.perez+examen@utpl.edu.ec", "a_b-c@sub.utpl.edu.ec", "1104567890@utpl.edu.ec"} {
		if !validEmail(s) {
			t.Errorf("validEmail(%q) = false", s)
		}
	}
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 190) + ".ec"
	for _, s := range []string{"", "@utpl.edu.ec", "ana@", "ana@.ec", "ana@utpl", "ana@utpl.edu.ec>", long} {
		if validEmail(s) {
			t.Errorf("validEmail(%q) = true", s)
		}
	}
}
