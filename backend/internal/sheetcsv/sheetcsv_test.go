package sheetcsv

import (
	"encoding/csv"
	"errors"
	"io"
	"testing"
)

func TestRowsAreNumberedAsASpreadsheetShowsThem(t *testing.T) {
	text := "a,b\n" + // row 1
		"1,\"two\nlines\"\n" + // row 2, two lines of the file
		"\n" + // row 3, blank: encoding/csv skips it
		"3,x\n" + // row 4
		"4,\"three\nlines\nhere\"\n" + // row 5
		"5,y" // row 6, no final newline
	next := Rows(text, ',')
	var got []int
	for {
		row, rec, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(rec) != 2 {
			t.Fatalf("row %d = %q", row, rec)
		}
		got = append(got, row)
	}
	want := []int{1, 2, 4, 5, 6}
	if len(got) != len(want) {
		t.Fatalf("rows = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rows = %v, want %v", got, want)
		}
	}
}

func TestASyntaxErrorNamesItsRow(t *testing.T) {
	next := Rows("a;b\n1;\"x\ny\"\n2;bad \"quote\"\n", ';')
	for range 2 {
		if _, _, err := next(); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := next()
	var se *SyntaxError
	if !errors.As(err, &se) || se.Row != 3 || !errors.Is(err, csv.ErrBareQuote) {
		t.Fatalf("err = %v", err)
	}
}
