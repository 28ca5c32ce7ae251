package roster

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// Go minimises every new interesting fuzz input for up to 60 s by
	// default. Parsing a workbook costs about 0.1 ms, so minimising a 2 kB
	// zip eats the whole -fuzztime and the fuzzers barely run. A short cap
	// keeps `go test -fuzz FuzzParseXLSX -fuzztime 45s` fuzzing; an explicit
	// -fuzzminimizetime on the command line still wins, since flags are
	// parsed after this default is set.
	if err := flag.Set("test.fuzzminimizetime", "1s"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
