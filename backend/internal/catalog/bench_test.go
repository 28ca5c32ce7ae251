package catalog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/catalog"
)

// F-03 in docs/security.md: an 8 MB import of empty cases ("[{},{},…]",
// 2.8 million of them) took 48 s and 2 GB of memory; the same size of empty
// CSV rows took 526 MB. The budget (scripts/bench-budgets.sh) holds both to
// a few megabytes: the import stops at the row cap.

func BenchmarkCaseImport8MBJSON(b *testing.B) {
	n := (catalog.MaxImportBytes - 2) / 3
	benchmarkImport(b, "many.json", "["+strings.Repeat("{},", n-1)+"{}]")
}

func BenchmarkCaseImport8MBCSV(b *testing.B) {
	header := "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n"
	benchmarkImport(b, "many.csv", header+strings.Repeat("x,,,,,,,,,\n", (catalog.MaxImportBytes-len(header))/11))
}

func benchmarkImport(b *testing.B, name, file string) {
	cat, _ := emptyCatalog(b)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cat.ImportCases(context.Background(), strings.NewReader(file), name); err == nil {
			b.Fatal("the import of empty cases succeeded")
		}
	}
}
