package measures_test

import (
	"fmt"

	"github.com/utpl/simulador/backend/internal/measures"
)

func ExampleExtractCitations() {
	cites, unattributed := measures.ExtractCitations(
		"El artículo 76 numeral 7 literal l de la Constitución exige motivar. " +
			"Los artículos 39 al 42 de la LOGJCC regulan la acción, y el artículo 42 de la misma ley " +
			"fija las causales de improcedencia. Según el artículo 534, no cabe la prisión preventiva.")
	fmt.Println(cites)
	fmt.Println(unattributed)
	// Output:
	// [Constitución 76 LOGJCC 39 LOGJCC 40 LOGJCC 41 LOGJCC 42]
	// [534]
}

func ExampleAnalyze() {
	r := measures.Analyze(measures.Input{
		Text: "Buenos días, señores miembros del tribunal. Eh, el caso, este, trata de un despido. " +
			"El artículo 188 del Código del Trabajo fija la indemnización. Muchas gracias.",
		DurationMs: 12000,
		Case: &measures.Case{
			KeyPoints:  []string{"indemnización por despido", "procedimiento sumario"},
			LegalBases: []measures.LegalBase{{Norm: "Código del Trabajo", Article: "188"}},
		},
	})
	fmt.Println(r.Words, r.WordsPerMinute, r.PaceBand)
	fmt.Println(r.Greeting, r.Closing, r.Fillers, r.KeyPointsCovered)
	fmt.Println(r.Bases.Matched)
	// Output:
	// 26 130 adecuado
	// true true map[eh:1 este:1] [0]
	// [Código del Trabajo 188]
}
