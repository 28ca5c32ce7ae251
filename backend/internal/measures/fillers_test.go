package measures

import (
	"maps"
	"testing"
)

func TestFillers(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]int
	}{
		{"hesitations", "Eh, el caso, ehh, trata, mmm, de un despido, em, verbal.", map[string]int{"eh": 4}},
		{"hesitation variants", "eeh ehm hmm mm", map[string]int{"eh": 4}},
		{"este filler comma", "Este, los hechos son los siguientes.", map[string]int{"este": 1}},
		{"este filler ellipsis", "Y también, este... el artículo 75.", map[string]int{"este": 1}},
		{"este before filler", "y este eh el artículo 75", map[string]int{"este": 1, "eh": 1}},
		{"este pronoun before filler", "el problema es este eh si procede", map[string]int{"eh": 1}},
		{"este repeated", "este este caso", map[string]int{"este": 1}},
		{"este determiner", "En este caso, este tribunal debe resolver este problema.", nil},
		{"este pronoun", "Un caso como este, que es complejo, exige análisis.", nil},
		{"este colon", "El problema es este: si procede la acción.", nil},
		{"o sea", "O sea, no tiene antecedentes, o sea que procede.", map[string]int{"o sea": 2}},
		{"ya sea o sea", "ya sea por acción o sea por omisión", nil},
		{"bueno clause start", "Bueno, el caso es sencillo. Bueno el problema es otro.", map[string]int{"bueno": 2}},
		{"bueno after filler", "eh bueno en cuanto a la norma", map[string]int{"eh": 1, "bueno": 1}},
		{"bueno between commas", "La norma, bueno, es clara.", map[string]int{"bueno": 1}},
		{"visto bueno", "no hubo visto bueno ni causa legal", nil},
		{"bueno adjective", "Es bueno, pero insuficiente, y es un bueno argumento.", nil},
		{"tag no", "Es excepcional, ¿no? Y además hay que motivar, no?", map[string]int{"¿no?": 2}},
		{"answer no", "¿Procede la acción? No. ¿Procede o no?", nil},
		{"pues initial", "Pues, en el análisis, el juez debe motivar.", map[string]int{"pues": 1}},
		{"pues with filler", "y eh pues la norma es clara", map[string]int{"eh": 1, "pues": 1}},
		{"pues causal", "No procede, pues no se cumplen los requisitos.", nil},
		{"pues bien", "Pues bien, analicemos el caso.", nil},
		{"pues parenthetical", "Se trata, pues, de una garantía.", nil},
		{"digamos", "la prisión es, digamos, la última medida, digamos que sí", map[string]int{"digamos": 2}},
		{"tipo filler", "firmó algo tipo que renuncia", map[string]int{"tipo": 1}},
		{"tipo penal", "el tipo penal de estafa y el tipo que describe el artículo; este tipo de casos", nil},
		{"entonces skipped", "Entonces, el problema jurídico es claro.", nil},
		// Live transcripts: one segment per line, no punctuation.
		{"segment start pues", "el despido fue verbal\npues el empleador no notificó", map[string]int{"pues": 1}},
		{"segment start bueno", "la norma es clara\nbueno en cuanto al análisis", map[string]int{"bueno": 1}},
		{"mid-segment pues and bueno", "no procede pues no se cumplen los requisitos y es bueno saberlo", nil},
		{"tag no at segment end", "la defensa es un derecho fundamental no\nademás el juez debe motivar no\n", map[string]int{"¿no?": 2}},
		{"tag no before a blank line", "la defensa es un derecho fundamental no\n\nen conclusión procede", map[string]int{"¿no?": 1}},
		{"answer no at segment end", "el juez dijo que no\nla respuesta es no\nya no\nno\ncreo que no\nsí o no\n", nil},
		{"no mid-segment", "el empleador no notificó el despido\n", nil},
		{"no at the end of typed text", "la defensa es un derecho fundamental no", nil},
		{"short segment no", "eso no\nprocede no\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := countFillers(tokenize(tt.text))
			if tt.want == nil {
				tt.want = map[string]int{}
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			sum := 0
			for _, n := range tt.want {
				sum += n
			}
			if total != sum {
				t.Errorf("total %d, want %d", total, sum)
			}
		})
	}
}
