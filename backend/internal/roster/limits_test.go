package roster

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A 3 KB workbook stored a student whose name was 1.5 MB long: every text
// field has a cap, reported at its row and column.
func TestTextFieldsAreCapped(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	ok := []any{"ana@utpl.edu.ec", long(MaxNameLength), "Derecho", long(MaxFieldLength), long(MaxFieldLength), long(MaxFieldLength)}
	rows, err := ParseXLSX(bytes.NewReader(buildXLSX(t, sheet{"Hoja1", [][]any{headerRow, ok}})))
	if err != nil || len(rows) != 1 {
		t.Fatalf("values at the caps: %d rows, %v", len(rows), err)
	}

	huge := strings.Repeat("Ñandú ", 250_000) // 1.5 MB of one shared string
	data := buildXLSX(t, sheet{"Hoja1", [][]any{headerRow,
		{"ana@utpl.edu.ec", huge, "Derecho", "Ciencias Jurídicas", "Ciencias Sociales", "Distancia"},
		{"luis@utpl.edu.ec", "Luis", long(MaxFieldLength + 1), long(MaxFieldLength + 1), long(MaxFieldLength + 1), long(MaxFieldLength + 1)},
	}})
	if len(data) > 16<<10 {
		t.Fatalf("the workbook is %d bytes; the probe was a small file", len(data))
	}
	rows, err = ParseXLSX(bytes.NewReader(data))
	wantProblems(t, rows, err,
		Problem{Row: 2, Column: "Nombre", Message: fmt.Sprintf("El nombre supera los %d caracteres.", MaxNameLength)},
		Problem{Row: 3, Column: "Carrera", Message: fmt.Sprintf("La carrera supera los %d caracteres.", MaxFieldLength)},
		Problem{Row: 3, Column: "Departamento", Message: fmt.Sprintf("El departamento supera los %d caracteres.", MaxFieldLength)},
		Problem{Row: 3, Column: "Facultad", Message: fmt.Sprintf("La facultad supera los %d caracteres.", MaxFieldLength)},
		Problem{Row: 3, Column: "Modalidad", Message: fmt.Sprintf("La modalidad supera los %d caracteres.", MaxFieldLength)},
	)
	csvRows, err := ParseCSV(strings.NewReader("correo,nombre,carrera,departamento,facultad,modalidad\nana@utpl.edu.ec," + long(2<<19) + ",Derecho,,,\n"))
	wantProblems(t, csvRows, err, Problem{Row: 2, Column: "nombre", Message: fmt.Sprintf("El nombre supera los %d caracteres.", MaxNameLength)})
}

// wideSparseRoster is the review's probe: valid rows, each with one more
// cell in Excel's last column (XFD), which made the reader fill every row
// out to 16,384 cells (3.2 s for 5,000 rows).
func wideSparseRoster(tb testing.TB, n int) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	set := func(cell string, v any) {
		if err := f.SetCellValue("Sheet1", cell, v); err != nil {
			tb.Fatal(err)
		}
	}
	for i, h := range headerRow {
		c, _ := excelize.CoordinatesToCellName(i+1, 1)
		set(c, h)
	}
	for r := 2; r <= n+1; r++ {
		for i, v := range []any{fmt.Sprintf("e%d@utpl.edu.ec", r), "Nombre", "Derecho", "Dep", "Fac", "Distancia"} {
			c, _ := excelize.CoordinatesToCellName(i+1, r)
			set(c, v)
		}
		set(fmt.Sprintf("XFD%d", r), "x")
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func TestWideSparseWorkbookIsRefusedBeforeReadingRows(t *testing.T) {
	rows, err := ParseXLSX(bytes.NewReader(wideSparseRoster(t, 50)))
	wantProblems(t, rows, err, Problem{Row: 2, Column: "XFD",
		Message: fmt.Sprintf("Hay datos en la columna XFD; el archivo puede usar hasta la columna %s. Borre las columnas sobrantes o guarde la hoja como CSV.", lastColumnName)})

	// A styled but empty cell far to the right is not data: the roster reads.
	f, err := excelize.OpenReader(bytes.NewReader(xlsxRoster(t, 2)))
	if err != nil {
		t.Fatal(err)
	}
	style, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err := f.SetCellStyle("Estudiantes", "XFD2", "XFD2", style); err != nil {
		t.Fatal(err)
	}
	// The last allowed column may hold data.
	if err := f.SetCellValue("Estudiantes", lastColumnName+"3", "nota"); err != nil {
		t.Fatal(err)
	}
	buf, _ := f.WriteToBuffer()
	f.Close()
	rows, err = ParseXLSX(bytes.NewReader(buf.Bytes()))
	if err != nil || len(rows) != 2 {
		t.Fatalf("styled far cell: %d rows, %v", len(rows), err)
	}
}
