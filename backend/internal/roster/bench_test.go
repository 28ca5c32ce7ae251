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
