package roster

import (
	"bytes"
	"strings"
	"testing"
)

// The product's budget: a 5,000-row roster loads in under 2 s with bounded
// memory. Run with -benchmem.

func BenchmarkParseCSV5000(b *testing.B) {
	data := roster(MaxRows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rows, err := ParseCSV(strings.NewReader(data))
		if err != nil || len(rows) != MaxRows {
			b.Fatalf("got %d rows, %v", len(rows), err)
		}
	}
}

func BenchmarkParseXLSX5000(b *testing.B) {
	data := xlsxRoster(b, MaxRows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rows, err := ParseXLSX(bytes.NewReader(data))
		if err != nil || len(rows) != MaxRows {
			b.Fatalf("got %d rows, %v", len(rows), err)
		}
	}
}

// The security review's wide sparse workbook (budget in
// scripts/bench-budgets.sh): refused without filling rows to 16,384 cells.
func BenchmarkParseXLSXWideSparse(b *testing.B) {
	data := wideSparseRoster(b, MaxRows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if rows, err := ParseXLSX(bytes.NewReader(data)); err == nil {
			b.Fatalf("got %d rows", len(rows))
		}
	}
}
