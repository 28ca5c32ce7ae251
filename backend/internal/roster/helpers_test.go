package roster

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/utpl/simulador/backend/internal/domain"
)

// problemsOf returns the problems of an *Error, failing the test for rows or
// any other kind of error.
func problemsOf(t *testing.T, rows []Row, err error) []Problem {
	t.Helper()
	if rows != nil {
		t.Fatalf("got %d rows with error %v; want no rows", len(rows), err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T); want *Error", err, err)
	}
	return e.Problems
}

// wantProblems compares the problems of err with want.
func wantProblems(t *testing.T, rows []Row, err error, want ...Problem) {
	t.Helper()
	got := problemsOf(t, rows, err)
	if len(got) != len(want) {
		t.Fatalf("got %d problems:\n%s\nwant %d:\n%s", len(got), dump(got), len(want), dump(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("problem %d:\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

func dump(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %#v\n", p)
	}
	return b.String()
}

// wantRows compares rows with want, failing on any error.
func wantRows(t *testing.T, rows []Row, err error, want ...Row) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows %+v; want %d %+v", len(rows), rows, len(want), want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, rows[i], want[i])
		}
	}
}

// checkResult asserts the package's contract on any input: either valid rows
// or an *Error with a sensible list of problems, never both.
func checkResult(t *testing.T, rows []Row, err error) {
	t.Helper()
	if err != nil {
		if rows != nil {
			t.Fatalf("got rows and error %v", err)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is %T, want *Error", err, err)
		}
		if n := len(e.Problems); n == 0 || n > MaxProblems+1 {
			t.Fatalf("got %d problems", n)
		}
		for _, p := range e.Problems {
			if p.Message == "" || p.Row < 0 {
				t.Fatalf("bad problem %#v", p)
			}
		}
		_ = e.Error()
		return
	}
	if len(rows) == 0 || len(rows) > MaxRows {
		t.Fatalf("got %d rows and no error", len(rows))
	}
	seen := map[string]bool{}
	last := 0
	for _, r := range rows {
		if r.Line <= last {
			t.Fatalf("row lines not increasing: %d after %d", r.Line, last)
		}
		last = r.Line
		if !validEmail(r.Email) || r.Email != domain.NormalizeEmail(r.Email) || seen[r.Email] {
			t.Fatalf("bad or repeated email in %+v", r)
		}
		seen[r.Email] = true
		if r.Degree == "" {
			t.Fatalf("empty degree in %+v", r)
		}
	}
}

// sheet is one worksheet for buildXLSX: its name and its rows from row 1.
type sheet struct {
	name string
	rows [][]any
}

// buildXLSX writes a workbook with the given sheets, in order. A nil row
// leaves that spreadsheet row empty.
func buildXLSX(tb testing.TB, sheets ...sheet) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.name); err != nil {
				tb.Fatal(err)
			}
		} else if _, err := f.NewSheet(s.name); err != nil {
			tb.Fatal(err)
		}
		for r, row := range s.rows {
			if row == nil {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(s.name, cell, &row); err != nil {
				tb.Fatal(err)
			}
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// unzipAll returns the entries of a zip file.
func unzipAll(tb testing.TB, data []byte) map[string][]byte {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
	}
	return files
}

// storedZip writes files uncompressed and without CRCs (archive/zip skips
// the check when the CRC is 0), so that a fuzzer's byte flips reach the XML
// instead of dying on a checksum.
func storedZip(files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data := files[name]
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name:               name,
			Method:             zip.Store,
			CompressedSize64:   uint64(len(data)),
			UncompressedSize64: uint64(len(data)),
		})
		if err != nil {
			panic(err)
		}
		if _, err := w.Write(data); err != nil {
			panic(err)
		}
	}
	zw.Close()
	return buf.Bytes()
}

// deflatedZip writes files compressed, as Excel does.
func deflatedZip(tb testing.TB, files map[string][]byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(files[name]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// A worksheet and shared strings for minimalXLSX: header in row 1, one
// student in row 2, a rich-text string and inline strings.
const (
	testSheetXML = `<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>carrera</t></is></c>` +
		`<c r="C1" t="inlineStr"><is><t>nombre</t></is></c><c r="D1" t="inlineStr"><is><t>departamento</t></is></c>` +
		`<c r="E1" t="inlineStr"><is><t>facultad</t></is></c><c r="F1" t="inlineStr"><is><t>modalidad</t></is></c></row>` +
		`<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>2</v></c><c r="C2"><v>3.5</v></c></row></sheetData></worksheet>`
	testSSTXML = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<si><t>correo</t></si><si><t>ana@utpl.edu.ec</t></si><si><r><t>Dere</t></r><r><t>cho</t></r></si></sst>`
)

// minimalXLSX is the smallest workbook excelize reads, with one sheet: a
// fast, small seed for the fuzzers.
func minimalXLSX(sheetXML, sstXML string) []byte {
	const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
	return storedZip(map[string][]byte{
		"[Content_Types].xml": []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`),
		"_rels/.rels": []byte(rels + `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
		"xl/workbook.xml": []byte(`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			`<sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
		"xl/_rels/workbook.xml.rels": []byte(rels + `<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`),
		"xl/worksheets/sheet1.xml":   []byte(sheetXML),
		"xl/sharedStrings.xml":       []byte(sstXML),
	})
}
