package httpapi

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// S3-18: a value the caller chose (Origin, path) is logged cut to a few
// hundred bytes, on a rune boundary, so an unauthenticated request cannot
// write a 60 KB line.
func TestS318CallerChosenLogValuesAreClipped(t *testing.T) {
	t.Parallel()
	long := "https://evil.example/" + strings.Repeat("ñ", 30000)
	got := clip(long)
	if len(got) > logValueMax+len("…") || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Fatalf("clip of a 60 KB value: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	if clip("https://ok.example") != "https://ok.example" {
		t.Fatal("a short value is kept as it is")
	}
}
