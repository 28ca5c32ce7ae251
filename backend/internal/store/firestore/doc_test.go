package firestore

import (
	"regexp"
	"strings"
	"testing"
)

func TestDocIDIsValidAndOneToOne(t *testing.T) {
	for key, want := range map[string]string{
		"ana.perez@utpl.edu.ec": "ana.perez@utpl.edu.ec",
		"01HZX4K9Q2ABCDEFGH":    "01HZX4K9Q2ABCDEFGH",
		"a/b":                   "a%2Fb",
		"50%":                   "50%25",
		".":                     "%2E",
		"..":                    "%2E.",
		"__name__":              "%5F_name__",
		"":                      "%",
		"Acción de protección":  "Acci%C3%B3n%20de%20protecci%C3%B3n",
	} {
		if got := docID(key); got != want {
			t.Errorf("docID(%q) = %q, want %q", key, got, want)
		}
	}
	reserved := regexp.MustCompile(`^__.*__$`)
	keys := [][]string{
		{"a", "b"}, {"a|b"}, {"a%7Cb"}, {"a", "|b"}, {"a/b"}, {"a%2Fb"}, {"."}, {"%2E"}, {".."}, {"%2E."},
		{"__x__"}, {"%5F_x__"}, {""}, {"%"}, {"", ""}, {"transcribe", "att/rec"}, {"transcribe/att", "rec"},
		{strings.Repeat("x", 2000)}, {strings.Repeat("x", 2001)}, {strings.Repeat("/", 400)},
	}
	seen := map[string][]string{}
	for _, k := range keys {
		id := docID(k...)
		if strings.Contains(id, "/") || id == "." || id == ".." || reserved.MatchString(id) || len(id) > 1500 || id == "" {
			t.Errorf("docID(%q) = %q is not a valid document ID", k, id)
		}
		if prev, dup := seen[id]; dup {
			t.Errorf("docID(%q) and docID(%q) are both %q", prev, k, id)
		}
		seen[id] = k
	}
}
