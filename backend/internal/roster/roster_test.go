package roster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseByExtension(t *testing.T) {
	csvData := []byte("correo;carrera;nombre;departamento;facultad;modalidad\nana@utpl.edu.ec;Derecho\n")
	xlsxData := buildXLSX(t, sheet{"Hoja1", [][]any{{"correo", "carrera", "nombre", "departamento", "facultad", "modalidad"}, {"ana@utpl.edu.ec", "Derecho"}}})
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

func TestParseCheckedReportsDegreeProblemsWithTheFileProblems(t *testing.T) {
	var seen []string
	unknown := func(degree string) string {
		seen = append(seen, degree)
		if degree != "Derecho" {
			return "La carrera «" + degree + "» no existe."
		}
		return ""
	}
	in := "Correo;Nombre;Degree;Departamento;Facultad;Modalidad\n" +
		"ana@utpl.edu.ec;Ana;Derecho\n" +
		"no-es-correo;Luis;Medicina\n" + // both problems of row 3
		"beto@utpl.edu.ec;Beto;\n" + // empty degree: not passed to the check
		"ana@utpl.edu.ec;Ana otra vez;Derecho\n" +
		"carla@utpl.edu.ec;Carla;Arquitectura\n"
	for _, name := range []string{"lista.csv", "lista.xlsx"} {
		seen = nil
		data := []byte(in)
		if name == "lista.xlsx" {
			var rows [][]any
			for _, line := range strings.Split(strings.TrimSpace(in), "\n") {
				var cells []any
				for _, c := range strings.Split(line, ";") {
					cells = append(cells, c)
				}
				rows = append(rows, cells)
			}
			data = buildXLSX(t, sheet{"Hoja1", rows})
		}
		rows, err := ParseChecked(bytes.NewReader(data), name, unknown)
		wantProblems(t, rows, err,
			Problem{Row: 3, Column: "Correo", Message: "El correo «no-es-correo» no es válido."},
			Problem{Row: 3, Column: "Degree", Message: "La carrera «Medicina» no existe."},
			Problem{Row: 4, Column: "Degree", Message: "La carrera está vacía."},
			Problem{Row: 5, Column: "Correo", Message: "El correo «ana@utpl.edu.ec» está repetido (ya aparece en la fila 2)."},
			Problem{Row: 6, Column: "Degree", Message: "La carrera «Arquitectura» no existe."},
		)
		if got := strings.Join(seen, ","); got != "Derecho,Medicina,Derecho,Arquitectura" {
			t.Errorf("%s: check called with %s", name, got)
		}
	}

	// A check that accepts everything changes nothing.
	rows, err := ParseChecked(strings.NewReader(roster(3)), "a.csv", func(string) string { return "" })
	if err != nil || len(rows) != 3 {
		t.Fatalf("got %d rows, %v", len(rows), err)
	}
}

func TestParseCheckedProblemCap(t *testing.T) {
	never := func(d string) string { return "La carrera «" + d + "» no existe." }
	build := func(degreeProblems, emailProblems int) string {
		var b strings.Builder
		b.WriteString(fullHeaderComma + "\n")
		for i := range emailProblems {
			fmt.Fprintf(&b, "mal%d,\n", i) // invalid email and empty degree: two problems
		}
		for i := range degreeProblems {
			fmt.Fprintf(&b, "e%d@utpl.edu.ec,Medicina\n", i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name             string
		degrees, emails  int
		wantProblems     int
		wantMoreFlag     bool
		wantLastDegreeAt int // row of the last degree problem reported, 0 = none
	}{
		{"exactly MaxProblems degree problems", MaxProblems, 0, MaxProblems, false, MaxProblems + 1},
		{"one degree problem too many", MaxProblems + 1, 0, MaxProblems + 1, true, MaxProblems + 1},
		{"file problems first, degree problems fill the cap", 4, 8, MaxProblems, false, 1 + 8 + 4},
		{"file and degree problems past the cap", 5, 9, MaxProblems + 1, true, 1 + 9 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := ParseChecked(strings.NewReader(build(tc.degrees, tc.emails)), "g.csv", never)
			got := problemsOf(t, rows, err)
			if len(got) != tc.wantProblems || (got[len(got)-1].Message == msgMore) != tc.wantMoreFlag {
				t.Fatalf("got %d problems:\n%s", len(got), dump(got))
			}
			last := 0
			for _, p := range got {
				if strings.Contains(p.Message, "no existe") {
					last = p.Row
				}
			}
			if last != tc.wantLastDegreeAt {
				t.Fatalf("last degree problem at row %d, want %d:\n%s", last, tc.wantLastDegreeAt, dump(got))
			}
		})
	}
}
