package norms_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/norms"
)

func TestLookup(t *testing.T) {
	for in, want := range map[string]string{
		"COIP":                              "COIP",
		"coip":                              "COIP",
		"Código Orgánico Integral Penal":    "COIP",
		"c.o.i.p.":                          "COIP",
		"C O I P":                           "COIP",
		"co gep":                            "COGEP",
		"Constitución":                      "Constitución",
		"Constitución (2008)":               "Constitución",
		"Carta Magna":                       "Constitución",
		"  código   civil ":                 "Código Civil",
		"CC":                                "Código Civil",
		"Código de la Niñez y Adolescencia": "Código de la Niñez y Adolescencia",
		"CONA":                              "Código de la Niñez y Adolescencia",
		"Ley de Compañías":                  "Ley de Compañías",
		"Pacto de San José":                 "Convención Americana sobre Derechos Humanos",
		"COOTAD":                            "COOTAD",
		"Ley Orgánica de Régimen Tributario Interno": "LORTI",
		"lopdp":                        "LOPDP",
		"Código Orgánico del Ambiente": "Código Orgánico del Ambiente",
	} {
		n, ok := norms.Lookup(in)
		if !ok || n.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, n.Name, ok, want)
		}
	}
	for _, in := range []string{"", "   ", "Código de Procedimiento Civil", "Reglamento", "ley", "código", "COIPX", "c o i", "2008"} {
		if n, ok := norms.Lookup(in); ok {
			t.Errorf("Lookup(%q) = %q; want not found", in, n.Name)
		}
	}
}

// TestCatalogue checks what every entry must have: a name that finds
// itself, an official source over https, a plausible last article.
func TestCatalogue(t *testing.T) {
	all := norms.All()
	if len(all) < 30 {
		t.Fatalf("catalogue has %d norms", len(all))
	}
	seen := map[string]bool{}
	for _, n := range all {
		if seen[n.Name] {
			t.Errorf("%s twice", n.Name)
		}
		seen[n.Name] = true
		if got, ok := norms.Lookup(n.Name); !ok || got.Name != n.Name {
			t.Errorf("Lookup(%q) = %q, %v", n.Name, got.Name, ok)
		}
		if got, ok := norms.Lookup(n.FullName); !ok || got.Name != n.Name {
			t.Errorf("Lookup(%q) = %q, %v", n.FullName, got.Name, ok)
		}
		if !strings.HasPrefix(n.Source, "https://") {
			t.Errorf("%s: source %q is not an https address", n.Name, n.Source)
		}
		if n.Kind == 0 || n.LastArticle < 10 || n.LastArticle > norms.MaxArticle {
			t.Errorf("%s: kind %d, last article %d", n.Name, n.Kind, n.LastArticle)
		}
		for _, a := range append(append(n.Aliases, n.Acronyms...), n.AmbiguousAcronyms...) {
			if a != strings.Join(strings.Fields(norms.Fold(a)), " ") {
				t.Errorf("%s: alias %q is not folded", n.Name, a)
			}
		}
	}
	// The names the first case bank uses must stay.
	for _, name := range []string{"Constitución", "COIP", "Código Civil", "COGEP", "Código del Trabajo", "LOGJCC",
		"Código de la Niñez y Adolescencia", "COA", "LOSEP", "LOSNCP", "LOES", "COFJ", "LOEI"} {
		if !seen[name] {
			t.Errorf("canonical name %q is gone", name)
		}
	}
}

func TestParseArticle(t *testing.T) {
	for in, want := range map[string]norms.Article{
		"76":           {Number: 76},
		"195.1":        {Number: 195, Numeral: 1},
		"76.7.l":       {Number: 76, Numeral: 7, Literal: "l"},
		"66.l":         {Number: 66, Literal: "l"},
		"76.7.ñ":       {Number: 76, Numeral: 7, Literal: "ñ"},
		"125+2":        {Number: 125, Innumerado: 2},
		"125+2.3.a":    {Number: 125, Innumerado: 2, Numeral: 3, Literal: "a"},
		" Art. 76.7.L": {Number: 76, Numeral: 7, Literal: "l"},
		"artículo 88":  {Number: 88},
		"2410":         {Number: 2410},
	} {
		got, err := norms.ParseArticle(in)
		if err != nil || got != want {
			t.Errorf("ParseArticle(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "x", "39-42", "76.7.8", "76..7", "76.", "76.7.l.m", "12345", "125+", "+2", "125+0",
		"125+100", "76.1000", "76.ab", "artículo cinco", "76 7", "1e3", "-5"} {
		if got, err := norms.ParseArticle(in); !errors.Is(err, norms.ErrArticle) {
			t.Errorf("ParseArticle(%q) = %+v, %v; want ErrArticle", in, got, err)
		}
	}
}

func TestArticleStringAndDisplay(t *testing.T) {
	for in, want := range map[string][2]string{
		"76":          {"76", "art. 76"},
		"195.1":       {"195.1", "art. 195, num. 1"},
		"Art. 76.7.L": {"76.7.l", "art. 76, num. 7, lit. l"},
		"125+2":       {"125+2", "art. innumerado 2 a continuación del art. 125"},
		"125+2.3":     {"125+2.3", "art. innumerado 2 a continuación del art. 125, num. 3"},
	} {
		a, err := norms.ParseArticle(in)
		if err != nil {
			t.Fatal(err)
		}
		if a.String() != want[0] || a.Display() != want[1] {
			t.Errorf("%q: String %q, Display %q; want %q", in, a.String(), a.Display(), want)
		}
		if !norms.ValidArticle(want[0]) {
			t.Errorf("ValidArticle(%q) = false", want[0])
		}
	}
	for _, in := range []string{"Art. 76", "076", "76.7.L", " 76"} {
		if norms.ValidArticle(in) {
			t.Errorf("ValidArticle(%q) = true; only the canonical notation is valid", in)
		}
	}
}
