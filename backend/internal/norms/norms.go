// Package norms is the one catalogue of the legal norms the product knows:
// the names cases store in their legal bases, the names students say aloud,
// and the syntax of an article reference. The case bank validates against
// it (catalog) and the transcript analyser finds citations with it
// (measures). It is pure data and functions: no I/O, no state.
package norms

import (
	"slices"
	"strings"
)

// Kind groups norms so that a bare "el código" or "la ley" in a transcript
// can only refer back to a norm of its own kind.
type Kind uint8

const (
	KindConstitution Kind = iota + 1
	KindCode
	KindLaw
	KindTreaty
)

// Norm is one norm of the catalogue.
type Norm struct {
	// Name is the canonical name, what a case stores in a legal base
	// ("COIP", "Constitución", "Código Civil").
	Name string
	// FullName is the official name.
	FullName string
	// Abbreviation is the acronym in use, "" when the norm has none.
	Abbreviation string
	Kind         Kind
	// Aliases are the ways people write or say the norm, folded (see Fold)
	// and matched as whole word sequences. The folded Name and FullName
	// are aliases too (added by the catalogue).
	Aliases []string
	// Acronyms are folded acronyms that a speech recognizer may also write
	// letter by letter ("c o i p") or split ("co gep").
	Acronyms []string
	// AmbiguousAcronyms also mean something else ("CC" is the Corte
	// Constitucional too): in a transcript they name the norm only right
	// after an article number.
	AmbiguousAcronyms []string
	// LastArticle is a little above the norm's last article: a number
	// beyond it cannot be an article of the norm.
	LastArticle int
	// Source is the https address of the official text, or of the
	// official site that publishes it (see the comments in catalogue).
	Source string
}

// All returns the catalogue, in display order. The slice is a copy; the
// norms share their alias slices with the catalogue and must not be
// changed.
func All() []Norm { return slices.Clone(catalogue) }

// Names returns the canonical names, in display order.
func Names() []string {
	out := make([]string, len(catalogue))
	for i, n := range catalogue {
		out[i] = n.Name
	}
	return out
}

// Lookup finds a norm by its canonical name, official name, abbreviation or
// an alias, ignoring case, accents, punctuation and spacing: "COIP",
// "Código Orgánico Integral Penal", "c.o.i.p.", "Carta Magna". A year after
// the name is ignored ("Constitución 2008", "Constitución (2008)").
func Lookup(name string) (Norm, bool) {
	words := strings.Fields(Fold(name))
	for len(words) > 1 && isYear(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return Norm{}, false
	}
	if i, ok := byAlias[strings.Join(words, " ")]; ok {
		return catalogue[i], true
	}
	// An acronym spelled or split: "c o i p", "co gep", "l.o.s.e.p."
	if len(words) > 1 {
		short := true
		for _, w := range words {
			if len(w) > 4 {
				short = false
				break
			}
		}
		if short {
			if i, ok := byAcronym[strings.Join(words, "")]; ok {
				return catalogue[i], true
			}
		}
	}
	return Norm{}, false
}

func isYear(w string) bool {
	if len(w) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

var (
	byAlias   = map[string]int{} // folded alias -> catalogue index
	byAcronym = map[string]int{} // folded acronym (strong or ambiguous) -> catalogue index
)

func init() {
	for i := range catalogue {
		n := &catalogue[i]
		own := []string{foldPhrase(n.Name), foldPhrase(n.FullName)}
		if n.Abbreviation != "" {
			own = append(own, foldPhrase(n.Abbreviation))
		}
		for _, a := range own {
			if !slices.Contains(n.Aliases, a) {
				n.Aliases = append(n.Aliases, a)
			}
		}
		for _, a := range n.Aliases {
			claim(byAlias, a, i)
		}
		for _, a := range n.Acronyms {
			claim(byAlias, a, i)
			claim(byAcronym, a, i)
		}
		for _, a := range n.AmbiguousAcronyms {
			claim(byAlias, a, i)
			claim(byAcronym, a, i)
		}
	}
}

// claim registers a name for norm i; two norms may not share a name.
func claim(m map[string]int, name string, i int) {
	if prev, taken := m[name]; taken && prev != i {
		panic("norms: " + catalogue[prev].Name + " and " + catalogue[i].Name + " share the name " + name)
	}
	m[name] = i
}

// foldPhrase folds s and joins its words with single spaces.
func foldPhrase(s string) string { return strings.Join(strings.Fields(Fold(s)), " ") }
