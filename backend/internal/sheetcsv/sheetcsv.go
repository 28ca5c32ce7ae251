// Package sheetcsv reads CSV records with the row numbers a spreadsheet
// shows for them, so that an import error names the row a person sees when
// they open the file in Excel or LibreOffice.
package sheetcsv

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
)

// SyntaxError is a record that could not be read, at spreadsheet row Row.
type SyntaxError struct {
	Row int
	Err error // csv.ErrQuote, csv.ErrBareQuote, ...
}

func (e *SyntaxError) Error() string { return "row " + strconv.Itoa(e.Row) + ": " + e.Err.Error() }
func (e *SyntaxError) Unwrap() error { return e.Err }

// Rows returns a function that yields the records of text in order with their
// spreadsheet row numbers (the first line is row 1), then io.EOF.
// encoding/csv skips empty lines and counts physical lines, so the row number
// is rebuilt from field positions: each skipped line is one blank row, and a
// record is one row however many lines its quoted fields span. Records may
// have any number of fields; the slice is reused between calls.
func Rows(text string, sep rune) func() (row int, rec []string, err error) {
	return RowsFrom(strings.NewReader(text), sep)
}

// RowsFrom is Rows reading from r as records are asked for, so a caller
// that stops early never reads the rest of a large file. An error of r
// other than io.EOF is returned as is.
func RowsFrom(r io.Reader, sep rune) func() (row int, rec []string, err error) {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	row, lastLine := 0, 0 // row number and last physical line of the previous record
	return func() (int, []string, error) {
		rec, err := cr.Read()
		if err == io.EOF {
			return 0, nil, io.EOF
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return 0, nil, err
			}
			return 0, nil, &SyntaxError{Row: row + max(pe.StartLine-lastLine, 1), Err: pe.Err}
		}
		start, _ := cr.FieldPos(0)
		end, _ := cr.FieldPos(len(rec) - 1)
		row += start - lastLine
		lastLine = end + strings.Count(rec[len(rec)-1], "\n")
		return row, rec, nil
	}
}
