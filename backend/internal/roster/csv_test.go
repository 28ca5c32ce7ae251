package roster

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseCSVRows(t *testing.T) {
	ana := Row{Line: 2, Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", Degree: "Derecho",
		Department: "Ciencias Jurídicas", Faculty: "Ciencias Sociales", Modality: "Presencial"}
	luis := Row{Line: 3, Email: "luis@utpl.edu.ec", Name: "Luis Muñoz", Degree: "Derecho",
		Department: "Ciencias Jurídicas", Faculty: "Ciencias Sociales", Modality: "A distancia"}
	onlyDegree := func(r Row) Row {
		return Row{Line: r.Line, Email: r.Email, Degree: r.Degree}
	}

	tests := []struct {
		name string
		in   string
		want []Row
	}{
		{
			name: "comma, English headers",
			in: "email,name,degree,department,faculty,modality\n" +
				"ana.perez@utpl.edu.ec,Ana Pérez,Derecho,Ciencias Jurídicas,Ciencias Sociales,Presencial\n" +
				"luis@utpl.edu.ec,Luis Muñoz,Derecho,Ciencias Jurídicas,Ciencias Sociales,A distancia\n",
			want: []Row{ana, luis},
		},
		{
			name: "semicolon, Spanish headers, no final newline",
			in: "correo;nombre;carrera;departamento;facultad;modalidad\n" +
				"ana.perez@utpl.edu.ec;Ana Pérez;Derecho;Ciencias Jurídicas;Ciencias Sociales;Presencial\n" +
				"luis@utpl.edu.ec;Luis Muñoz;Derecho;Ciencias Jurídicas;Ciencias Sociales;A distancia",
			want: []Row{ana, luis},
		},
		{
			name: "tab",
			in: "correo\tnombre\tcarrera\tdepartamento\tfacultad\tmodalidad\n" +
				"ana.perez@utpl.edu.ec\tAna Pérez\tDerecho\tCiencias Jurídicas\tCiencias Sociales\tPresencial\n",
			want: []Row{ana},
		},
		{
			name: "UTF-8 BOM, accented and spaced headers in another order",
			in: "\uFEFFModalidad;  CARRERA ;Correo Electrónico;Nombre  Completo;FACULTAD;Departamento\r\n" +
				"Presencial;Derecho;ana.perez@utpl.edu.ec;Ana Pérez;Ciencias Sociales;Ciencias Jurídicas\r\n",
			want: []Row{ana},
		},
		{
			name: "English headers in mixed case and order",
			in: "Faculty,EMAIL,Modality,Name,Department,Degree\n" +
				"Ciencias Sociales,ana.perez@utpl.edu.ec,Presencial,Ana Pérez,Ciencias Jurídicas,Derecho\n",
			want: []Row{ana},
		},
		{
			name: "header aliases: email institucional, nombres; empty optional values",
			in: "nombres,email institucional,carrera,departamento,facultad,modalidad\n" +
				"Ana Pérez,ana.perez@utpl.edu.ec,Derecho,,,\n",
			want: []Row{{Line: 2, Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", Degree: "Derecho"}},
		},
		{
			name: "extra columns ignored, only email and degree filled in",
			in: "Cédula;correo;Observaciones;carrera;nombre;departamento;facultad;modalidad\n" +
				"1104567890;ana.perez@utpl.edu.ec;cualquier cosa;Derecho;;;;\n",
			want: []Row{onlyDegree(ana)},
		},
		{
			name: "quoted fields with separators, quotes and newlines",
			in: "correo,nombre,carrera,departamento,facultad,modalidad\n" +
				"\"ana.perez@utpl.edu.ec\",\"Pérez, Ana\",Derecho,\"Ciencias \"\"Jurídicas\"\"\"\n" +
				"luis@utpl.edu.ec,\"Luis\nMuñoz\",\"Derecho,\nen línea\",\n" +
				"maria@utpl.edu.ec,María,Derecho,\n",
			want: []Row{
				{Line: 2, Email: "ana.perez@utpl.edu.ec", Name: "Pérez, Ana", Degree: "Derecho", Department: `Ciencias "Jurídicas"`},
				{Line: 3, Email: "luis@utpl.edu.ec", Name: "Luis Muñoz", Degree: "Derecho, en línea"},
				// The record above spans two lines but is one spreadsheet row.
				{Line: 4, Email: "maria@utpl.edu.ec", Name: "María", Degree: "Derecho"},
			},
		},
		{
			name: "blank lines and rows of separators are skipped but counted",
			in:   "\n;;\ncorreo;carrera;nombre;departamento;facultad;modalidad\n\nana.perez@utpl.edu.ec;Derecho\n;\n   \nluis@utpl.edu.ec;Derecho\n\n\n",
			want: []Row{
				{Line: 5, Email: "ana.perez@utpl.edu.ec", Degree: "Derecho"},
				{Line: 8, Email: "luis@utpl.edu.ec", Degree: "Derecho"},
			},
		},
		{
			name: "CRLF line endings, also inside quotes",
			in: "correo,nombre,carrera,departamento,facultad,modalidad\r\n\r\n" +
				"ana.perez@utpl.edu.ec,\"Ana\r\nPérez\",Derecho\r\n" +
				"luis@utpl.edu.ec,Luis Muñoz,Derecho\r\n",
			want: []Row{
				{Line: 3, Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", Degree: "Derecho"},
				{Line: 4, Email: "luis@utpl.edu.ec", Name: "Luis Muñoz", Degree: "Derecho"},
			},
		},
		{
			name: "normalisation: email lowercased, spaces collapsed, NFD accents to NFC",
			in: "correo;nombre;carrera;modalidad;departamento;facultad\n" +
				"  Ana.Perez@UTPL.edu.ec ;  Ana \u00a0  Pe\u0301rez\t;\u200bDerecho  ;  A   distancia \n",
			want: []Row{{Line: 2, Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", Degree: "Derecho", Modality: "A distancia"}},
		},
		{
			name: "short rows leave optional fields empty",
			in:   "correo,carrera,nombre,modalidad,departamento,facultad\nana.perez@utpl.edu.ec,Derecho\n",
			want: []Row{onlyDegree(ana)},
		},
		{
			name: "Excel's sep= line names the separator and is not a row",
			in:   "sep=,\r\ncorreo,carrera,notas;a;b;c,nombre,departamento,facultad,modalidad\r\nana.perez@utpl.edu.ec,Derecho; penal\r\n",
			want: []Row{{Line: 2, Email: "ana.perez@utpl.edu.ec", Degree: "Derecho; penal"}},
		},
		{
			name: "a comma in the data does not confuse separator detection",
			in:   "correo;carrera;nombre;departamento;facultad;modalidad\nana.perez@utpl.edu.ec;Derecho, mención penal\n",
			want: []Row{{Line: 2, Email: "ana.perez@utpl.edu.ec", Degree: "Derecho, mención penal"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := ParseCSV(strings.NewReader(tt.in))
			wantRows(t, rows, err, tt.want...)
		})
	}
}

func TestParseCSVEncodings(t *testing.T) {
	want := []Row{
		{Line: 2, Email: "ana@utpl.edu.ec", Name: "Ana Muñoz Álvarez", Degree: "Derecho", Department: "Ciencias Jurídicas", Faculty: "Facultad de Ciencias Sociales, Educación y Humanidades"},
		{Line: 3, Email: "jose@utpl.edu.ec", Name: "José Peña", Degree: "Derecho", Department: "Ciencias Jurídicas", Faculty: "Facultad de Ciencias Sociales, Educación y Humanidades"},
	}
	text := "Correo electrónico;Nombres;Carrera;Departamento;Facultad;Modalidad\r\n" +
		"ana@utpl.edu.ec;Ana Muñoz Álvarez;Derecho;Ciencias Jurídicas;\"Facultad de Ciencias Sociales, Educación y Humanidades\"\r\n" +
		"jose@utpl.edu.ec;José Peña;Derecho;Ciencias Jurídicas;\"Facultad de Ciencias Sociales, Educación y Humanidades\"\r\n"

	// Windows-1252, as Excel on Windows saves "CSV (delimitado por comas)":
	// ñ=F1, á=E1, é=E9, í=ED, ó=F3, Á=C1.
	cp1252 := strings.NewReplacer("ñ", "\xf1", "á", "\xe1", "é", "\xe9", "í", "\xed", "ó", "\xf3", "Á", "\xc1").Replace(text)
	if strings.ContainsAny(cp1252, "ñáéíóÁ") {
		t.Fatal("test data not fully converted")
	}
	utf16le := []byte{0xFF, 0xFE}
	for _, r := range strings.ReplaceAll(text, ";", "\t") {
		utf16le = append(utf16le, byte(r), byte(r>>8))
	}

	for name, in := range map[string][]byte{
		"UTF-8":                     []byte(text),
		"UTF-8 with BOM":            append([]byte("\xEF\xBB\xBF"), text...),
		"Windows-1252":              []byte(cp1252),
		"UTF-16LE with BOM and tab": utf16le,
	} {
		t.Run(name, func(t *testing.T) {
			rows, err := ParseCSV(bytes.NewReader(in))
			wantRows(t, rows, err, want...)
		})
	}
}

func TestParseCSVProblems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Problem
	}{
		{
			name: "empty file",
			in:   "",
			want: []Problem{{Message: "El archivo no tiene estudiantes."}},
		},
		{
			name: "only blank lines",
			in:   "\r\n\n ;; \n",
			want: []Problem{{Message: "El archivo no tiene estudiantes."}},
		},
		{
			name: "header only",
			in:   "correo;nombre;carrera;departamento;facultad;modalidad\n\n",
			want: []Problem{{Message: "El archivo no tiene estudiantes."}},
		},
		{
			name: "missing email column",
			in:   "nombre;carrera;departamento;facultad;modalidad\nAna;Derecho;;;\n",
			want: []Problem{{Row: 0, Column: "correo", Message: "Falta la columna «correo»."}},
		},
		{
			name: "missing name column, English headers: named in Spanish",
			in:   "email,degree,department,faculty,modality\nana@utpl.edu.ec,Derecho,,,\n",
			want: []Problem{{Column: "nombre", Message: "Falta la columna «nombre»."}},
		},
		{
			name: "only email and degree: every missing column named, in order",
			in:   "correo;carrera\nana@utpl.edu.ec;Derecho\n",
			want: []Problem{
				{Column: "nombre", Message: "Falta la columna «nombre»."},
				{Column: "departamento", Message: "Falta la columna «departamento»."},
				{Column: "facultad", Message: "Falta la columna «facultad»."},
				{Column: "modalidad", Message: "Falta la columna «modalidad»."},
			},
		},
		{
			name: "no header at all: the first student is taken as the header",
			in:   "ana@utpl.edu.ec;Ana;Derecho\nluis@utpl.edu.ec;Luis;Derecho\n",
			want: []Problem{
				{Column: "correo", Message: "Falta la columna «correo»."},
				{Column: "nombre", Message: "Falta la columna «nombre»."},
				{Column: "carrera", Message: "Falta la columna «carrera»."},
				{Column: "departamento", Message: "Falta la columna «departamento»."},
				{Column: "facultad", Message: "Falta la columna «facultad»."},
				{Column: "modalidad", Message: "Falta la columna «modalidad»."},
			},
		},
		{
			name: "repeated column",
			in:   "Correo;carrera;nombre;departamento;facultad;modalidad;Email\nana@utpl.edu.ec;Derecho;;;;;ana@utpl.edu.ec\n",
			want: []Problem{{Row: 1, Column: "Email", Message: "Las columnas «Correo» y «Email» son la misma; deje solo una."}},
		},
		{
			name: "same column twice",
			in:   "\ncarrera,correo,nombre,departamento,facultad,modalidad,carrera\nDerecho,ana@utpl.edu.ec,,,,,Derecho\n",
			want: []Problem{{Row: 2, Column: "carrera", Message: "La columna «carrera» está repetida."}},
		},
		{
			name: "empty email and degree, columns named as the user wrote them",
			in:   "Correo Electrónico;Nombre;CARRERA;Departamento;Facultad;Modalidad\n\n;Ana;Derecho\nluis@utpl.edu.ec;Luis; \n   ;Sin nada;\n",
			want: []Problem{
				{Row: 3, Column: "Correo Electrónico", Message: "El correo está vacío."},
				{Row: 4, Column: "CARRERA", Message: "La carrera está vacía."},
				{Row: 5, Column: "Correo Electrónico", Message: "El correo está vacío."},
				{Row: 5, Column: "CARRERA", Message: "La carrera está vacía."},
			},
		},
		{
			name: "invalid emails",
			in: "correo;carrera;nombre;departamento;facultad;modalidad\n" +
				"ana;Derecho\n" + // 2: no @
				"ana@utpl;Derecho\n" + // 3: no dot in domain
				"Ana Pérez <ana@utpl.edu.ec>;Derecho\n" + // 4: display name
				"<ana@utpl.edu.ec>;Derecho\n" + // 5: angle brackets
				"ana@@utpl.edu.ec;Derecho\n" + // 6
				"\"\"\"a@b\"\"@utpl.edu.ec\";Derecho\n" + // 7: two @, even if quoted
				"ana@utpl..edu.ec;Derecho\n" + // 8
				"ana pérez@utpl.edu.ec;Derecho\n" + // 9
				"ana@utpl.edu.ec.;Derecho\n" + // 10
				"ana@[10.0.0.1];Derecho\n" + // 11: address literal
				"ana@utpl.edu.ec (Ana);Derecho\n" + // 12: comment
				"ana,luis@utpl.edu.ec;Derecho\n" + // 13: a list
				"ANA@UTPL;Derecho\n", // 14: shown as written
			want: []Problem{
				{Row: 2, Column: "correo", Message: "El correo «ana» no es válido."},
				{Row: 3, Column: "correo", Message: "El correo «ana@utpl» no es válido."},
				{Row: 4, Column: "correo", Message: "El correo «Ana Pérez <ana@utpl.edu.ec>» no es válido."},
				{Row: 5, Column: "correo", Message: "El correo «<ana@utpl.edu.ec>» no es válido."},
				{Row: 6, Column: "correo", Message: "El correo «ana@@utpl.edu.ec» no es válido."},
				{Row: 7, Column: "correo", Message: "El correo «\"a@b\"@utpl.edu.ec» no es válido."},
				{Row: 8, Column: "correo", Message: "El correo «ana@utpl..edu.ec» no es válido."},
				{Row: 9, Column: "correo", Message: "El correo «ana pérez@utpl.edu.ec» no es válido."},
				{Row: 10, Column: "correo", Message: "El correo «ana@utpl.edu.ec.» no es válido."},
				{Row: 11, Column: "correo", Message: "El correo «ana@[10.0.0.1]» no es válido."},
				{Row: 12, Column: "correo", Message: "El correo «ana@utpl.edu.ec (Ana)» no es válido."},
				{Row: 13, Column: "correo", Message: "El correo «ana,luis@utpl.edu.ec» no es válido."},
				{Row: 14, Column: "correo", Message: "El correo «ANA@UTPL» no es válido."},
			},
		},
		{
			name: "repeated email, compared after lowercasing",
			in: "email,degree,name,department,faculty,modality\n" +
				"ana@utpl.edu.ec,Derecho\n" +
				"luis@utpl.edu.ec,Derecho\n" +
				"\n" +
				" ANA@utpl.edu.ec ,Derecho\n" +
				"ana@utpl.edu.ec,Derecho\n",
			want: []Problem{
				{Row: 5, Column: "email", Message: "El correo «ANA@utpl.edu.ec» está repetido (ya aparece en la fila 2)."},
				{Row: 6, Column: "email", Message: "El correo «ana@utpl.edu.ec» está repetido (ya aparece en la fila 2)."},
			},
		},
		{
			name: "a very long value is shortened in the message",
			in:   "correo;carrera;nombre;departamento;facultad;modalidad\n" + strings.Repeat("x", 300) + ";Derecho\n",
			want: []Problem{{Row: 2, Column: "correo", Message: "El correo «" + strings.Repeat("x", 80) + "…» no es válido."}},
		},
		{
			name: "bare quote: the row is reported after earlier problems",
			in:   "correo;carrera;nombre;departamento;facultad;modalidad\nana@utpl.edu.ec;\nluis\"@utpl.edu.ec;Derecho\nmaria@utpl.edu.ec;Derecho\n",
			want: []Problem{
				{Row: 2, Column: "carrera", Message: "La carrera está vacía."},
				{Row: 3, Message: `No se pudo leer la fila: hay comillas (") dentro de un campo que no está entre comillas; encierre el campo entre comillas y duplique las interiores ("").`},
			},
		},
		{
			name: "unclosed quote",
			in:   "correo,carrera,nombre,departamento,facultad,modalidad\n\nana@utpl.edu.ec,\"Derecho\nluis@utpl.edu.ec,Derecho\n",
			want: []Problem{{Row: 3, Message: `No se pudo leer la fila: hay comillas (") sin cerrar o de más en un campo entre comillas.`}},
		},
		{
			name: "an xlsx renamed .csv",
			in:   "PK\x03\x04\x14\x00\x00\x00",
			want: []Problem{{Message: "El archivo parece ser un Excel (.xlsx), no un CSV; cárguelo con la extensión .xlsx."}},
		},
		{
			name: "binary",
			in:   "correo\x00carrera",
			want: []Problem{{Message: "El archivo no es un CSV de texto."}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := ParseCSV(strings.NewReader(tt.in))
			wantProblems(t, rows, err, tt.want...)
		})
	}
}

// fullHeaderComma has the six columns in the order the tests' rows use:
// email and degree first, so short rows leave the rest empty.
const fullHeaderComma = "correo,carrera,nombre,departamento,facultad,modalidad"

// roster builds a CSV with n valid students after the header.
func roster(n int) string {
	var b strings.Builder
	b.WriteString("correo;nombre;carrera;departamento;facultad;modalidad\r\n")
	for i := range n {
		fmt.Fprintf(&b, "estudiante%d@utpl.edu.ec;Estudiante Número %d;Derecho;Ciencias Jurídicas;Ciencias Sociales, Educación y Humanidades;A distancia\r\n", i, i)
	}
	return b.String()
}

func TestParseCSVProblemCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(fullHeaderComma + "\n")
	for i := range 25 {
		fmt.Fprintf(&b, "e%d@utpl.edu.ec,\n", i)
	}
	rows, err := ParseCSV(strings.NewReader(b.String()))
	got := problemsOf(t, rows, err)
	if len(got) != MaxProblems+1 {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), MaxProblems+1, dump(got))
	}
	for i, p := range got[:MaxProblems] {
		if want := (Problem{Row: i + 2, Column: "carrera", Message: "La carrera está vacía."}); p != want {
			t.Errorf("problem %d = %#v, want %#v", i, p, want)
		}
	}
	if want := (Problem{Message: "Hay más errores; corrija los anteriores y vuelva a cargar el archivo."}); got[MaxProblems] != want {
		t.Errorf("last problem = %#v, want %#v", got[MaxProblems], want)
	}

	// Exactly MaxProblems problems: all reported, no "more" marker.
	b.Reset()
	b.WriteString(fullHeaderComma + "\n")
	for i := range MaxProblems {
		fmt.Fprintf(&b, ",Derecho\nok%d@utpl.edu.ec,Derecho\n", i)
	}
	rows, err = ParseCSV(strings.NewReader(b.String()))
	got = problemsOf(t, rows, err)
	if len(got) != MaxProblems || got[len(got)-1].Message == msgMore {
		t.Fatalf("got %d problems:\n%s", len(got), dump(got))
	}
}

func TestParseCSVHeaderProblemCap(t *testing.T) {
	in := "carrera" + strings.Repeat(";correo", 30) + "\nDerecho;ana@utpl.edu.ec\n"
	rows, err := ParseCSV(strings.NewReader(in))
	got := problemsOf(t, rows, err)
	if len(got) != MaxProblems+1 || got[0] != (Problem{Row: 1, Column: "correo", Message: "La columna «correo» está repetida."}) || got[MaxProblems].Message != msgMore {
		t.Fatalf("got %d problems:\n%s", len(got), dump(got))
	}
}

func TestParseCSVLimits(t *testing.T) {
	t.Run("MaxRows students with blank lines between", func(t *testing.T) {
		in := strings.ReplaceAll(roster(MaxRows), "\r\n", "\r\n\r\n")
		rows, err := ParseCSV(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != MaxRows || rows[MaxRows-1].Line != 2*MaxRows+1 {
			t.Fatalf("got %d rows, last at line %d", len(rows), rows[len(rows)-1].Line)
		}
	})
	t.Run("one student too many", func(t *testing.T) {
		rows, err := ParseCSV(strings.NewReader(roster(MaxRows + 1)))
		wantProblems(t, rows, err, Problem{Message: "El archivo tiene más de 5000 filas."})
	})
	t.Run("problem cap reached before the row limit", func(t *testing.T) {
		in := "correo;carrera;nombre;departamento;facultad;modalidad\n" + strings.Repeat("ana@utpl.edu.ec;Derecho\n", MaxRows+1)
		rows, err := ParseCSV(strings.NewReader(in))
		// Repeated emails pass the problem cap long before the row limit.
		if got := problemsOf(t, rows, err); len(got) != MaxProblems+1 {
			t.Fatalf("got %d problems", len(got))
		}
	})
	t.Run("stops reading as soon as MaxRows is passed", func(t *testing.T) {
		// The broken row after the limit is never reached.
		in := roster(MaxRows+1) + "luis\"@utpl.edu.ec;Derecho\n"
		rows, err := ParseCSV(strings.NewReader(in))
		wantProblems(t, rows, err, Problem{Message: "El archivo tiene más de 5000 filas."})
	})
	t.Run("exactly MaxBytes is read", func(t *testing.T) {
		in := "correo;carrera;nombre;departamento;facultad;modalidad;notas\r\nana@utpl.edu.ec;Derecho;;;;;"
		in += strings.Repeat("x", MaxBytes-len(in))
		if len(in) != MaxBytes {
			t.Fatal(len(in))
		}
		rows, err := ParseCSV(strings.NewReader(in))
		wantRows(t, rows, err, Row{Line: 2, Email: "ana@utpl.edu.ec", Degree: "Derecho"})
	})
	t.Run("one byte over MaxBytes", func(t *testing.T) {
		in := strings.Repeat(" ", MaxBytes+1)
		rows, err := ParseCSV(strings.NewReader(in))
		wantProblems(t, rows, err, Problem{Message: "El archivo supera el límite de 2 MB."})
	})
	t.Run("reads at most MaxBytes+1", func(t *testing.T) {
		r := &countingReader{}
		rows, err := ParseCSV(r)
		wantProblems(t, rows, err, Problem{Message: "El archivo supera el límite de 2 MB."})
		if r.n != MaxBytes+1 {
			t.Fatalf("read %d bytes", r.n)
		}
	})
	t.Run("http.MaxBytesReader", func(t *testing.T) {
		body := http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(roster(10))), 100)
		rows, err := ParseCSV(body)
		wantProblems(t, rows, err, Problem{Message: "El archivo supera el límite de 2 MB."})
	})
	t.Run("read failure is returned as is", func(t *testing.T) {
		rows, err := ParseCSV(iotest.ErrReader(io.ErrUnexpectedEOF))
		if rows != nil || err == nil || !strings.Contains(err.Error(), io.ErrUnexpectedEOF.Error()) {
			t.Fatalf("got %v, %v", rows, err)
		}
	})
}

// countingReader is an endless stream of spaces that counts what was read.
type countingReader struct{ n int }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.n += len(p)
	return len(p), nil
}
