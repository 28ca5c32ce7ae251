package roster

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Limits on what a workbook may unzip to. A 2 MB zip can expand a
// thousandfold, and excelize parses some parts whole into structs many times
// their size: 4 MB of tiny shared strings cost about 75 MB of heap and 0.5 s.
// A real 5,000-row roster with six columns unzips to about 1.5 MB, 0.4 MB of
// it shared strings, so these leave about ten times that room while holding a
// hostile upload to roughly 150 MB of heap and 1.5 s (measured).
const (
	// unzipLimit caps the whole unzipped workbook. Worksheets are kept in
	// memory up to the same limit, so nothing goes to temporary files.
	unzipLimit = 16 << 20
	// partsLimit caps the XML parts excelize parses whole (shared strings,
	// styles, workbook, theme, calculation chain...): everything but the
	// worksheets, which are streamed.
	partsLimit = 4 << 20
)

// MaxColumns is the last worksheet column that may hold data (IV, the
// width of an old .xls sheet). The reader fills each row with empty cells
// up to its last value, so one value in column XFD on every row made a
// 5,000-row roster cost 82 million cells; a real roster uses a few dozen.
const MaxColumns = 256

var lastColumnName, _ = excelize.ColumnNumberToName(MaxColumns)

const msgXLSXTooBig = "El archivo Excel es demasiado grande al descomprimirlo; deje solo la hoja de estudiantes o guárdela como CSV."

// ParseXLSX reads a roster saved as an Excel workbook. It uses the first
// sheet whose header has the required columns or, failing that, the first
// sheet with data, so a workbook with an instructions sheet in front works.
// Cells are read as Excel displays them (numbers formatted).
func ParseXLSX(r io.Reader) ([]Row, error) {
	return parseXLSXReader(r, nil)
}

func parseXLSXReader(r io.Reader, check DegreeCheck) (rows []Row, err error) {
	data, err := readLimited(r)
	if err != nil {
		return nil, err
	}
	// excelize is large and not hardened against hostile files; a panic in it
	// must not take the request down with it.
	defer func() {
		if recover() != nil {
			rows, err = nil, fileError(msgBadXLSX)
		}
	}()
	return parseXLSX(data, check)
}

func parseXLSX(data []byte, check DegreeCheck) ([]Row, error) {
	if err := checkZip(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    unzipLimit,
		UnzipXMLSizeLimit: unzipLimit,
	})
	if f != nil {
		defer f.Close()
	}
	if err != nil {
		return nil, fileError(msgBadXLSX)
	}
	next, closeRows, err := pickSheet(f)
	if err != nil {
		return nil, err
	}
	defer closeRows()
	return parseRows(next, check)
}

// pickSheet returns the rows of the sheet to read, header first.
func pickSheet(f *excelize.File) (nextRowFunc, func(), error) {
	fallback := ""
	fallbackFound := -1
	for _, sheet := range f.GetSheetList() {
		next, closeRows, err := sheetRows(f, sheet)
		if err != nil {
			continue // a sheet excelize cannot open is not the roster
		}
		line, cells, err := firstNonBlank(next)
		if err != nil {
			closeRows()
			continue // empty (io.EOF) or unreadable
		}
		_, _, found := readHeader(line, cells)
		if found == len(required) {
			return replay(line, cells, next), closeRows, nil
		}
		closeRows()
		if found > fallbackFound {
			fallback, fallbackFound = sheet, found
		}
	}
	if fallbackFound < 0 {
		return nil, nil, fileError(msgNoStudents)
	}
	// No sheet has a complete header: read the closest one so the tutor is
	// told which columns are missing.
	next, closeRows, err := sheetRows(f, fallback)
	if err != nil {
		return nil, nil, fileError(msgBadXLSX)
	}
	return next, closeRows, nil
}

// sheetRows streams a sheet's rows; GetRows would hold the whole sheet as
// strings at once.
// The close function drops the sheet's temporary reader; its error
// cannot change what was read.
func sheetRows(f *excelize.File, sheet string) (nextRowFunc, func(), error) {
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil, nil, err
	}
	line := 0
	next := func() (int, []string, error) {
		// The iterator yields one call per row number, filling gaps in the
		// sheet with empty rows, so counting calls gives Excel's row
		// number. A forged r="2000000000" would make that loop run for
		// ages; no real sheet goes past Excel's last row.
		if line >= excelize.TotalRows || !rows.Next() {
			return 0, nil, io.EOF
		}
		line++
		cells, err := rows.Columns()
		if err != nil {
			return 0, nil, NewError(Problem{Row: line, Message: "No se pudo leer esta fila del archivo Excel."})
		}
		return line, cells, nil
	}
	return next, func() { _ = rows.Close() }, nil
}

// replay yields the given row once, then the rest of next.
func replay(line int, cells []string, next nextRowFunc) nextRowFunc {
	done := false
	return func() (int, []string, error) {
		if !done {
			done = true
			return line, cells, nil
		}
		return next()
	}
}

// checkZip enforces unzipLimit and partsLimit from the zip's directory,
// before excelize unzips anything. The sizes it declares are an upper bound:
// archive/zip fails on an entry that inflates to more.
func checkZip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fileError(msgBadXLSX)
	}
	var total, parts uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		name := strings.ToLower(strings.ReplaceAll(f.Name, "\\", "/"))
		if (strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".rels")) &&
			!strings.HasPrefix(name, "xl/worksheets/") {
			parts += f.UncompressedSize64
		}
		if total > unzipLimit || parts > partsLimit {
			return fileError(msgXLSXTooBig)
		}
	}
	for _, f := range zr.File {
		name := strings.ToLower(strings.ReplaceAll(f.Name, "\\", "/"))
		if strings.HasPrefix(name, "xl/worksheets/") && strings.HasSuffix(name, ".xml") {
			if err := checkColumns(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkColumns refuses a worksheet with a value past MaxColumns. It reads
// the sheet's XML tokens once, without building cells; a sheet it cannot
// read is left for excelize to report. A styled cell without a value is
// not data (excelize does not fill a row up to it).
func checkColumns(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	row, col, inCell := 0, 0, false
	for {
		tok, err := d.RawToken()
		if err != nil {
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				row, col = row+1, 0
				if n, err := strconv.Atoi(attr(t, "r")); err == nil {
					row = n
				}
			case "c":
				inCell, col = true, col+1
				if c, r, err := excelize.CellNameToCoordinates(attr(t, "r")); err == nil {
					col, row = c, r
				}
			case "v", "is", "f":
				if inCell && col > MaxColumns {
					name, _ := excelize.ColumnNumberToName(col)
					return NewError(Problem{Row: row, Column: name, Message: fmt.Sprintf(
						"Hay datos en la columna %s; el archivo puede usar hasta la columna %s. Borre las columnas sobrantes o guarde la hoja como CSV.",
						name, lastColumnName)})
				}
			}
		case xml.EndElement:
			if t.Name.Local == "c" {
				inCell = false
			}
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
