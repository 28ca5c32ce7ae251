package roster

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

var headerRow = []any{"Correo", "Nombre", "Carrera", "Departamento", "Facultad", "Modalidad"}

func TestParseXLSXAccents(t *testing.T) {
	data := buildXLSX(t, sheet{"Estudiantes", [][]any{
		headerRow,
		{"ana.perez@utpl.edu.ec", "Ana Muñoz Álvarez", "Derecho", "Ciencias Jurídicas", "Ciencias Sociales, Educación y Humanidades", "Presencial"},
		{"  JOSE@UTPL.EDU.EC ", "  José   Peña ", "Derecho", "", "", "A distancia"},
	}})
	rows, err := ParseXLSX(bytes.NewReader(data))
	wantRows(t, rows, err,
		Row{Line: 2, Email: "ana.perez@utpl.edu.ec", Name: "Ana Muñoz Álvarez", Degree: "Derecho", Department: "Ciencias Jurídicas", Faculty: "Ciencias Sociales, Educación y Humanidades", Modality: "Presencial"},
		Row{Line: 3, Email: "jose@utpl.edu.ec", Name: "José Peña", Degree: "Derecho", Modality: "A distancia"},
	)
}

func TestParseXLSXMissingColumn(t *testing.T) {
	data := buildXLSX(t, sheet{"Hoja1", [][]any{
		{"Correo", "Nombre", "Departamento", "Facultad", "Modalidad"},
		{"ana@utpl.edu.ec", "Ana", "", "Ciencias Sociales", ""},
	}})
	rows, err := ParseXLSX(bytes.NewReader(data))
	wantProblems(t, rows, err, Problem{Column: "carrera", Message: "Falta la columna «carrera»."})
}

func TestParseXLSXRowNumbers(t *testing.T) {
	// Row numbers are Excel's: a title row and blank rows count.
	data := buildXLSX(t, sheet{"Hoja1", [][]any{
		nil, // 1
		{"CARRERA", "E-mail", "Notas", "Name", "Department", "Faculty", "Modality"}, // 2: header
		{"Derecho", "ana@utpl.edu.ec"},                                              // 3
		nil,                                                                         // 4
		{"", "", ""},                                                                // 5: empty strings are blank too
		{"Derecho", "luis@utpl"},                                                    // 6
		{"", "ana@utpl.edu.ec", "x"},                                                // 7
	}})
	rows, err := ParseXLSX(bytes.NewReader(data))
	wantProblems(t, rows, err,
		Problem{Row: 6, Column: "E-mail", Message: "El correo «luis@utpl» no es válido."},
		Problem{Row: 7, Column: "E-mail", Message: "El correo «ana@utpl.edu.ec» está repetido (ya aparece en la fila 3)."},
		Problem{Row: 7, Column: "CARRERA", Message: "La carrera está vacía."},
	)
}

func TestParseXLSXNumericCells(t *testing.T) {
	data := buildXLSX(t, sheet{"Hoja1", [][]any{
		{"Cédula", "correo", "nombre", "carrera", "departamento", "modalidad", "fecha", "facultad"},
		{1104567890, "ana@utpl.edu.ec", 1104567890, "Derecho", 3.5, true, time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)},
		{int64(1900000001), "luis@utpl.edu.ec", -7, 101, 0.1, false, nil},
	}})
	rows, err := ParseXLSX(bytes.NewReader(data))
	wantRows(t, rows, err,
		Row{Line: 2, Email: "ana@utpl.edu.ec", Name: "1104567890", Degree: "Derecho", Department: "3.5", Modality: "TRUE"},
		Row{Line: 3, Email: "luis@utpl.edu.ec", Name: "-7", Degree: "101", Department: "0.1", Modality: "FALSE"},
	)
}

func TestParseXLSXNotAnXLSX(t *testing.T) {
	zipNoWorkbook := storedZip(map[string][]byte{"hola.txt": []byte("hola")})
	for name, data := range map[string][]byte{
		"empty":            {},
		"CSV renamed":      []byte("correo;carrera\nana@utpl.edu.ec;Derecho\n"),
		"PDF renamed":      []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
		"old .xls (OLE2)":  append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...),
		"truncated xlsx":   buildXLSX(t, sheet{"Hoja1", [][]any{headerRow}})[:300],
		"zip, no workbook": zipNoWorkbook,
	} {
		t.Run(name, func(t *testing.T) {
			rows, err := Parse(bytes.NewReader(data), "lista.xlsx")
			got := problemsOf(t, rows, err)
			// A zip without a workbook opens but has no sheets.
			if len(got) != 1 || (got[0].Message != msgBadXLSX && got[0].Message != msgNoStudents) {
				t.Fatalf("got %s", dump(got))
			}
		})
	}
}

func TestParseXLSXSheetChoice(t *testing.T) {
	students := [][]any{
		{"correo", "carrera", "nombre", "departamento", "facultad", "modalidad"},
		{"ana@utpl.edu.ec", "Derecho"},
	}
	want := Row{Line: 2, Email: "ana@utpl.edu.ec", Degree: "Derecho"}

	t.Run("header on the second sheet only", func(t *testing.T) {
		data := buildXLSX(t,
			sheet{"Instrucciones", [][]any{{"Llene la hoja Estudiantes"}, {"Un estudiante por fila"}}},
			sheet{"Estudiantes", students},
		)
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantRows(t, rows, err, want)
	})
	t.Run("first sheet empty", func(t *testing.T) {
		data := buildXLSX(t, sheet{"Vacía", nil}, sheet{"Estudiantes", students})
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantRows(t, rows, err, want)
	})
	t.Run("the first sheet with a full header wins", func(t *testing.T) {
		data := buildXLSX(t,
			sheet{"A", [][]any{{"correo", "nombre", "carrera"}, {"x@utpl.edu.ec", "X", "Derecho"}}},
			sheet{"B", students},
			sheet{"C", [][]any{students[0], {"otro@utpl.edu.ec", "Derecho"}}},
		)
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantRows(t, rows, err, want)
	})
	t.Run("no full header: the closest sheet is reported", func(t *testing.T) {
		data := buildXLSX(t,
			sheet{"Instrucciones", [][]any{{"Léame"}}},
			sheet{"Lejos", [][]any{{"correo", "nombre"}, {"x@utpl.edu.ec", "X"}}},
			sheet{"Casi", [][]any{{"correo", "nombre", "departamento", "facultad", "modalidad"}, {"x@utpl.edu.ec", "X"}}},
		)
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantProblems(t, rows, err, Problem{Column: "carrera", Message: "Falta la columna «carrera»."})
	})
	t.Run("no data anywhere", func(t *testing.T) {
		data := buildXLSX(t, sheet{"Hoja1", nil}, sheet{"Hoja2", [][]any{nil, {"", " "}}})
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantProblems(t, rows, err, Problem{Message: "El archivo no tiene estudiantes."})
	})
	t.Run("header only", func(t *testing.T) {
		data := buildXLSX(t, sheet{"Hoja1", [][]any{headerRow}})
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantProblems(t, rows, err, Problem{Message: "El archivo no tiene estudiantes."})
	})
}

// xlsxRoster builds a workbook with n valid students.
func xlsxRoster(tb testing.TB, n int) []byte {
	rows := [][]any{headerRow}
	for i := range n {
		rows = append(rows, []any{fmt.Sprintf("estudiante%d@utpl.edu.ec", i), fmt.Sprintf("Estudiante Número %d", i),
			"Derecho", "Ciencias Jurídicas", "Ciencias Sociales, Educación y Humanidades", "A distancia"})
	}
	return buildXLSX(tb, sheet{"Estudiantes", rows})
}

func TestParseXLSXLimits(t *testing.T) {
	t.Run("MaxRows", func(t *testing.T) {
		rows, err := ParseXLSX(bytes.NewReader(xlsxRoster(t, MaxRows)))
		if err != nil || len(rows) != MaxRows || rows[MaxRows-1].Line != MaxRows+1 {
			t.Fatalf("got %d rows, %v", len(rows), err)
		}
	})
	t.Run("one student too many", func(t *testing.T) {
		rows, err := ParseXLSX(bytes.NewReader(xlsxRoster(t, MaxRows+1)))
		wantProblems(t, rows, err, Problem{Message: "El archivo tiene más de 5000 filas."})
	})
	t.Run("too large", func(t *testing.T) {
		data := append(xlsxRoster(t, 1), make([]byte, MaxBytes)...)
		rows, err := ParseXLSX(bytes.NewReader(data))
		wantProblems(t, rows, err, Problem{Message: "El archivo supera el límite de 2 MB."})
	})
	t.Run("zip bombs", func(t *testing.T) {
		// Megabytes of zeros or repeated XML deflate to a few kB: a small
		// upload that unzips huge.
		bomb := func(name string, size int, unit string) []byte {
			files := unzipAll(t, xlsxRoster(t, 1))
			files[name] = []byte(strings.Repeat(unit, size/len(unit)+1))
			data := deflatedZip(t, files)
			if len(data) > MaxBytes {
				t.Fatalf("bomb is %d bytes", len(data))
			}
			return data
		}
		tooBig := "El archivo Excel es demasiado grande al descomprimirlo; deje solo la hoja de estudiantes o guárdela como CSV."
		for name, data := range map[string][]byte{
			"whole file":     bomb("xl/media/relleno.bin", unzipLimit, "\x00"),
			"shared strings": bomb("xl/sharedStrings.xml", partsLimit, "<si><t>a</t></si>"),
			"styles":         bomb("xl/styles.xml", partsLimit, "<xf/>"),
			"big worksheet":  bomb("xl/worksheets/sheet2.xml", unzipLimit, " "),
		} {
			start := time.Now()
			rows, err := ParseXLSX(bytes.NewReader(data))
			wantProblems(t, rows, err, Problem{Message: tooBig})
			if d := time.Since(start); d > time.Second {
				t.Errorf("%s: took %v", name, d)
			}
		}
		// Just under the limits is still read.
		files := unzipAll(t, xlsxRoster(t, 1))
		files["xl/media/relleno.bin"] = make([]byte, unzipLimit-partsLimit)
		rows, err := ParseXLSX(bytes.NewReader(deflatedZip(t, files)))
		if err != nil || len(rows) != 1 {
			t.Fatalf("got %d rows, %v", len(rows), err)
		}
	})
	t.Run("forged row number", func(t *testing.T) {
		// r="2000000000" would make the iterator count gap rows for ages;
		// reading stops at Excel's last row, so the student is never seen.
		files := unzipAll(t, xlsxRoster(t, 1))
		sheetXML := string(files["xl/worksheets/sheet1.xml"])
		sheetXML = strings.Replace(sheetXML, `<row r="2"`, `<row r="2000000000"`, 1)
		files["xl/worksheets/sheet1.xml"] = []byte(sheetXML)
		start := time.Now()
		rows, err := ParseXLSX(bytes.NewReader(storedZip(files)))
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("took %v", d)
		}
		wantProblems(t, rows, err, Problem{Message: "El archivo no tiene estudiantes."})
	})
}

func TestMinimalXLSX(t *testing.T) {
	// The fuzzers' seed must be a workbook that reads, or they would only
	// explore error paths.
	rows, err := ParseXLSX(bytes.NewReader(minimalXLSX(testSheetXML, testSSTXML)))
	wantRows(t, rows, err, Row{Line: 2, Email: "ana@utpl.edu.ec", Name: "3.5", Degree: "Derecho"})
}
