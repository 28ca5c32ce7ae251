package measures

import (
	"reflect"
	"testing"
)

// c is shorthand for a citation in the tables.
func c(norm string, article int) Citation { return Citation{Norm: norm, Article: article} }

func inn(norm string, article, innumerado int) Citation {
	return Citation{Norm: norm, Article: article, Innumerado: innumerado}
}

const (
	cre   = "Constitución"
	coip  = "COIP"
	cc    = "Código Civil"
	gep   = "COGEP"
	ct    = "Código del Trabajo"
	lgj   = "LOGJCC"
	cona  = "Código de la Niñez y Adolescencia"
	coa   = "COA"
	cofj  = "COFJ"
	losep = "LOSEP"
	losnc = "LOSNCP"
	cadh  = "Convención Americana sobre Derechos Humanos"
	loes  = "LOES"
	loei  = "LOEI"
)

func TestExtractCitations(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		want  []Citation
		unatt []int
	}{
		// Article then norm.
		{"article numeral literal", "El artículo 76 numeral 7 literal l de la Constitución garantiza la motivación.", []Citation{c(cre, 76)}, nil},
		{"art dot", "Según el art. 33 del COIP, la legítima defensa excluye la antijuridicidad.", []Citation{c(coip, 33)}, nil},
		{"arts list of two", "Los arts. 18 y 30 del COIP definen la infracción y sus causas de exclusión.", []Citation{c(coip, 18), c(coip, 30)}, nil},
		{"list of three", "Los artículos 1459, 1740 y 1698 del Código Civil regulan la solemnidad.", []Citation{c(cc, 1459), c(cc, 1740), c(cc, 1698)}, nil},
		{"art no space", "Art.76 de la Constitución.", []Citation{c(cre, 76)}, nil},
		{"art without dot", "art 76 constitucion", []Citation{c(cre, 76)}, nil},
		{"lowercase no accents", "conforme al articulo 76 de la constitucion de la republica", []Citation{c(cre, 76)}, nil},
		{"uppercase", "ARTÍCULO 88 DE LA CONSTITUCIÓN", []Citation{c(cre, 88)}, nil},
		{"dotted sub-article", "el artículo 195.1 del Código del Trabajo", []Citation{c(ct, 195)}, nil},
		{"dotted with letter", "art. 76.7.l de la Constitución", []Citation{c(cre, 76)}, nil},
		{"numeral spelled out", "el artículo 77 numeral 1 de la Constitución", []Citation{c(cre, 77)}, nil},
		{"numeral with commas", "el artículo 76, numeral 7, literal l, de la Constitución", []Citation{c(cre, 76)}, nil},
		{"literals list", "artículo 76 numeral 7 literales a, c y l de la Constitución", []Citation{c(cre, 76)}, nil},
		{"literal letter name", "articulo 76 numeral 7 literal ele de la constitucion", []Citation{c(cre, 76)}, nil},
		{"inciso ordinal", "el artículo 11 inciso segundo del COGEP", []Citation{c(gep, 11)}, nil},
		{"numeral before article", "el numeral 9 del artículo 77 de la Constitución", []Citation{c(cre, 77)}, nil},
		{"with numero", "el artículo número 534 del COIP", []Citation{c(coip, 534)}, nil},
		{"previsto en", "el artículo 140 previsto en el Código Orgánico Integral Penal", []Citation{c(coip, 140)}, nil},
		{"two triggers one norm", "el artículo 18 y el artículo 30 del COIP", []Citation{c(coip, 18), c(coip, 30)}, nil},
		{"two norms", "el artículo 76 de la Constitución y el artículo 30 del COIP", []Citation{c(cre, 76), c(coip, 30)}, nil},
		{"y el with subdivisions", "el artículo 11 numeral 2 y el 66 numeral 4 de la Constitución", []Citation{c(cre, 11), c(cre, 66)}, nil},
		{"abbreviated subdivisions", "Art. 76 num. 7 lit. l) de la CRE", []Citation{c(cre, 76)}, nil},
		{"list y el after norm before", "el COIP en el artículo 534 y el 536 regula la prisión preventiva", []Citation{c(coip, 534), c(coip, 536)}, nil},
		{"ibidem after article", "el artículo 76 de la Constitución de la República del Ecuador, y el artículo 77 ibídem", []Citation{c(cre, 76), c(cre, 77)}, nil},
		{"two subarticles then list", "los artículos 76 numeral 7 y 77 numeral 1 de la Constitución", []Citation{c(cre, 76), c(cre, 77)}, nil},

		// Norm before article.
		{"norm before en su", "según el Código Orgánico Integral Penal en su artículo 30, no hay infracción", []Citation{c(coip, 30)}, nil},
		{"norm before comma", "el COIP, en su artículo 30, excluye la antijuridicidad", []Citation{c(coip, 30)}, nil},
		{"norm before same sentence", "La Constitución garantiza el debido proceso y en el artículo 76 enumera sus garantías.", []Citation{c(cre, 76)}, nil},
		{"norm after wins", "El COIP, en concordancia con el artículo 76 de la Constitución, exige motivar.", []Citation{c(cre, 76)}, nil},
		{"year after constitution", "la Constitución de 2008 en el artículo 92 reconoce el hábeas data", []Citation{c(cre, 92)}, nil},

		// Ranges.
		{"range al", "los artículos 39 al 42 de la LOGJCC", []Citation{c(lgj, 39), c(lgj, 40), c(lgj, 41), c(lgj, 42)}, nil},
		{"range a", "arts. 39 a 42 de la LOGJCC", []Citation{c(lgj, 39), c(lgj, 40), c(lgj, 41), c(lgj, 42)}, nil},
		{"range del al", "los artículos del 39 al 42 de la Ley Orgánica de Garantías Jurisdiccionales y Control Constitucional", []Citation{c(lgj, 39), c(lgj, 40), c(lgj, 41), c(lgj, 42)}, nil},
		{"range desde hasta", "artículos desde el 43 hasta el 45 de la ley de garantías jurisdiccionales", []Citation{c(lgj, 43), c(lgj, 44), c(lgj, 45)}, nil},
		{"range hyphen", "arts. 527-529 del COIP", []Citation{c(coip, 527), c(coip, 528), c(coip, 529)}, nil},
		{"range spelled", "los artículos cincuenta y ocho a sesenta de la LOGJCC", []Citation{c(lgj, 58), c(lgj, 59), c(lgj, 60)}, nil},
		{"absurd range ends only", "los artículos 1 al 500 del COIP", []Citation{c(coip, 1), c(coip, 500)}, nil},

		// Bare numbers with a norm right after.
		{"bare carta magna", "el 88 de la Carta Magna prevé la acción de protección", []Citation{c(cre, 88)}, nil},
		{"bare after y", "el artículo 33 del COIP y 76 de la Constitución", []Citation{c(coip, 33), c(cre, 76)}, nil},
		{"bare backref", "el artículo 527 del COIP y el 529 del mismo código", []Citation{c(coip, 527), c(coip, 529)}, nil},

		// Back-references.
		{"mismo cuerpo legal before", "El COIP regula la prisión preventiva. El mismo cuerpo legal, artículo 534, fija los requisitos.", []Citation{c(coip, 534)}, nil},
		{"del mismo codigo", "El artículo 30 del COIP y el artículo 33 del mismo código.", []Citation{c(coip, 30), c(coip, 33)}, nil},
		{"de la misma ley", "La LOGJCC regula la acción. El artículo 42 de la misma ley trata la improcedencia.", []Citation{c(lgj, 42)}, nil},
		{"ibidem", "El artículo 32 de la Constitución reconoce la salud. En el artículo 50, ibídem, se protege a los enfermos catastróficos.", []Citation{c(cre, 32), c(cre, 50)}, nil},
		{"citada ley", "la LOSEP en su artículo 48 enumera las causales; el artículo 44 de la citada ley regula el sumario", []Citation{c(losep, 48), c(losep, 44)}, nil},
		{"inferred norm too short", "La LOGJCC regula la acción. Según el artículo 534, no cabe la prisión preventiva.", nil, []int{534}},
		{"explicit norm kept as said", "el artículo 534 de la LOGJCC", []Citation{c(lgj, 534)}, nil},
		{"no continuation across sentences", "La normativa aplicable es el Código Civil. Conforme al artículo 702, la tradición se hace por inscripción.", nil, []int{702}},
		{"continuation with además", "La normativa aplicable es el Código Civil. Además, los artículos 1698 y 1704 regulan la nulidad, y el artículo 1570 la promesa.", []Citation{c(cc, 1698), c(cc, 1704), c(cc, 1570)}, nil},
		{"continuation with y también", "La Constitución, en el artículo 44, protege a los niños. Y también el artículo 45, sobre la familia.", []Citation{c(cre, 44), c(cre, 45)}, nil},
		{"unnamed switch of norm", "La Constitución protege la vida en el artículo 66. El artículo 144 sanciona el homicidio.", []Citation{c(cre, 66)}, []int{144}},
		{"unnamed switch of norm unpunctuated", "la constitucion protege la vida en el articulo 66 el articulo 144 sanciona el homicidio", []Citation{c(cre, 66)}, []int{144}},
		{"determiner after an article opens a clause", "la constitucion protege la vida en el articulo 66 numeral 1 el coip en el articulo 144 sanciona el homicidio", []Citation{c(cre, 66), c(coip, 144)}, nil},
		{"norm named on its own frames its clause only", "la constitución garantiza el debido proceso y el artículo 140 tipifica el asesinato", nil, []int{140}},
		{"norm named on its own, lost period", "la constitucion garantiza el debido proceso el articulo 140 tipifica el asesinato", nil, []int{140}},
		{"norm named on its own, comma", "La Constitución garantiza el debido proceso, y el artículo 140 tipifica el asesinato.", nil, []int{140}},
		{"norm in apposition", "el código civil el artículo 715 define la posesión", []Citation{c(cc, 715)}, nil},
		{"norm then colon", "Lo regula la Constitución: el artículo 43 protege a la embarazada.", []Citation{c(cre, 43)}, nil},
		{"norm then citing verb", "la constitución como establece el artículo 76 garantiza la defensa", []Citation{c(cre, 76)}, nil},
		{"norm then segment break", "la constitución de la república\nen el artículo 76 garantiza la defensa", []Citation{c(cre, 76)}, nil},
		{"norm then segment break and a new subject", "la constitución garantiza el debido proceso\nel artículo 140 tipifica el asesinato", nil, []int{140}},
		{"enumeration after an attached article", "el articulo 76 de la constitucion garantiza la defensa y el articulo 77 la libertad", []Citation{c(cre, 76), c(cre, 77)}, nil},
		{"weak CC right after", "El Art. 2214 del CC obliga a indemnizar.", []Citation{c(cc, 2214)}, nil},
		{"generic codigo", "El COIP tipifica el robo. El artículo 189 del código exige violencia.", []Citation{c(coip, 189)}, nil},

		// Spelled-out numbers.
		{"spelled tens", "el artículo setenta y seis de la Constitución", []Citation{c(cre, 76)}, nil},
		{"spelled hundreds", "el artículo ciento noventa y cinco del Código del Trabajo", []Citation{c(ct, 195)}, nil},
		{"spelled thousand", "el artículo mil cuatrocientos cincuenta y nueve del Código Civil", []Citation{c(cc, 1459)}, nil},
		{"spelled two thousand", "el artículo dos mil cuatrocientos diez del código civil", []Citation{c(cc, 2410)}, nil},
		{"spelled list", "los artículos dieciocho y treinta del COIP", []Citation{c(coip, 18), c(coip, 30)}, nil},
		{"spelled list of compounds", "los artículos treinta y tres y ciento cincuenta y dos del COIP", []Citation{c(coip, 33), c(coip, 152)}, nil},
		{"ordinal primero", "el artículo primero del COIP", []Citation{c(coip, 1)}, nil},
		{"ordinal tercero", "el artículo tercero del Código Orgánico Integral Penal", []Citation{c(coip, 3)}, nil},
		{"spelled numeral", "el artículo sesenta y nueve numeral uno de la constitución", []Citation{c(cre, 69)}, nil},
		{"thousands dot", "el art. 1.459 del Código Civil", []Citation{c(cc, 1459)}, nil},
		{"spelled list without commas", "los artículos setenta y cinco setenta y seis y ochenta y dos de la constitucion", []Citation{c(cre, 75), c(cre, 76), c(cre, 82)}, nil},
		{"spelled list without commas, digits", "los artículos 75 76 y 82 de la constitucion", []Citation{c(cre, 75), c(cre, 76), c(cre, 82)}, nil},
		{"smaller number said right after is a sub-division", "el artículo 76 7 de la constitución", []Citation{c(cre, 76)}, nil},
		{"spelled smaller after is a sub-division", "el artículo setenta y seis siete de la constitución", []Citation{c(cre, 76)}, nil},
		{"punto spelled", "artículo ciento noventa y cinco punto uno del COIP", []Citation{c(coip, 195)}, nil},
		{"punto digits", "artículo 195 punto 1 del COIP", []Citation{c(coip, 195)}, nil},
		{"punto twice with a letter", "el artículo setenta y seis punto siete punto ele de la constitución", []Citation{c(cre, 76)}, nil},
		{"bare punto", "el 195 punto 1 del COIP", []Citation{c(coip, 195)}, nil},

		// A list continued after the norm.
		{"continued after norm", "el 42 del código civil y el 43", []Citation{c(cc, 42), c(cc, 43)}, nil},
		{"continued after norm, spelled", "artículo setenta y seis de la constitución y setenta y siete", []Citation{c(cre, 76), c(cre, 77)}, nil},
		{"continued with a verb", "el artículo 76 numeral 7 de la constitucion y setenta y siete establecen garantías", []Citation{c(cre, 76), c(cre, 77)}, nil},
		{"continued list", "el 42 del código civil, y el 43 y el 44 regulan la capacidad", []Citation{c(cc, 42), c(cc, 43), c(cc, 44)}, nil},
		{"continued with en el", "el artículo 100 del COA y en el 105 las causas de nulidad", []Citation{c(coa, 100), c(coa, 105)}, nil},
		{"continued then named", "el artículo 140 del COIP y el 141 del mismo código", []Citation{c(coip, 140), c(coip, 141)}, nil},
		{"elided verb", "el artículo 2410 del código civil regula la prescripción extraordinaria y el 2411 fija el tiempo", []Citation{c(cc, 2410), c(cc, 2411)}, nil},
		{"continued untracked", "el artículo 8 de la Convención Interamericana contra la Corrupción y el 9", nil, nil},
		{"continued treaty", "el artículo 8 de la Convención Americana y el 9", []Citation{c(cadh, 8), c(cadh, 9)}, nil},

		// Norm aliases and recognizer spellings.
		{"alias CRE", "art. 82 CRE", []Citation{c(cre, 82)}, nil},
		{"alias norma suprema", "el artículo 424 de la Norma Suprema", []Citation{c(cre, 424)}, nil},
		{"alias codigo penal", "el artículo 140 del código penal", []Citation{c(coip, 140)}, nil},
		{"spelled letters", "el artículo 278 del c o i p", []Citation{c(coip, 278)}, nil},
		{"dotted letters", "el artículo 278 del C.O.I.P.", []Citation{c(coip, 278)}, nil},
		{"cojip", "el cojip en el artículo 16 numeral 4", []Citation{c(coip, 16)}, nil},
		{"cogep lowercase", "el cogep en el artículo 289", []Citation{c(gep, 289)}, nil},
		{"logjcc lowercase", "artículo 43 de la logjcc", []Citation{c(lgj, 43)}, nil},
		{"codigo de trabajo", "el artículo 188 del código de trabajo", []Citation{c(ct, 188)}, nil},
		{"codigo laboral", "el artículo 153 del código laboral", []Citation{c(ct, 153)}, nil},
		{"codigo de la ninez", "el artículo 11 del Código de la Niñez", []Citation{c(cona, 11)}, nil},
		{"cona", "el artículo 106 del CONA", []Citation{c(cona, 106)}, nil},
		{"coa", "el artículo 100 del Código Orgánico Administrativo", []Citation{c(coa, 100)}, nil},
		{"cofj", "el artículo 130 del Código Orgánico de la Función Judicial", []Citation{c(cofj, 130)}, nil},
		{"losncp", "el artículo 6 de la LOSNCP", []Citation{c(losnc, 6)}, nil},
		{"loes", "el artículo 207 de la Ley Orgánica de Educación Superior", []Citation{c(loes, 207)}, nil},
		{"loei", "el artículo 2 de la LOEI", []Citation{c(loei, 2)}, nil},
		{"asr no punctuation", "la constitucion en su articulo 77 numeral 1 establece que la privacion de libertad no sera la regla general y el articulo 89 de la constitucion regula el habeas corpus", []Citation{c(cre, 77), c(cre, 89)}, nil},
		{"asr list without commas", "el coip en los articulos 527 528 y 529 regula la flagrancia", []Citation{c(coip, 527), c(coip, 528), c(coip, 529)}, nil},

		// Unattributed.
		{"no norm at all", "Según el artículo 534, la prisión preventiva exige requisitos.", nil, []int{534}},
		{"norm only later in another sentence", "El artículo 220 sanciona el tráfico. Otra cosa dice la Constitución.", nil, []int{220}},
		{"repeat is not unattributed", "El artículo 188 del Código del Trabajo.\n\nSe paga la indemnización del artículo 188.", []Citation{c(ct, 188)}, nil},

		// Decoys: none of these is a citation.
		{"amount usd", "una moto de USD 1.800 y un anticipo de 10.000 dólares", nil, nil},
		{"amount digits", "pagó 1800 dólares en 2023", nil, nil},
		{"durations", "tras 36 horas, en 30 días y con una pena de 15 años", nil, nil},
		{"percent", "abandonó la obra al 30 % y luego al 30 por ciento", nil, nil},
		{"date", "el 12 de marzo de 2023, en el año 2008", nil, nil},
		{"ruling number", "la sentencia 1158-17-EP/21 de la Corte Constitucional", nil, nil},
		{"ruling number cc", "la sentencia No. 001-10-SIN-CC de la CC", nil, nil},
		{"case file", "el proceso 17230-2023-01234 del COIP", nil, nil},
		{"innumerado", "el artículo innumerado dos a continuación del artículo ciento veinticinco del código de la niñez y adolescencia",
			[]Citation{inn(cona, 125, 2)}, nil},
		{"innumerado said short", "según el cona el innumerado 2 después del 125 fija la pensión", []Citation{inn(cona, 125, 2)}, nil},
		{"innumerado ordinal", "el artículo innumerado primero a continuación del 125 del CONA", []Citation{inn(cona, 125, 1)}, nil},
		{"innumerado without its article", "el código de la niñez en el artículo innumerado 2 dice que es irrenunciable", nil, nil},
		{"innumerado unattributed", "el artículo innumerado 2 a continuación del artículo 125 dice", nil, nil},
		{"split acronym", "el artículo 332 del co gep", []Citation{c(gep, 332)}, nil},
		{"split acronym with letters", "el artículo 332 del c o gep", []Citation{c(gep, 332)}, nil},
		{"common words are no acronym", "el artículo 20 lo es", nil, []int{20}},
		{"con a is no acronym", "el artículo 20 con a", nil, []int{20}},
		{"across segments", "según el artículo setenta y seis\nnumeral siete de la\nconstitución", []Citation{c(cre, 76)}, nil},
		{"list across segments", "los artículos 527\n528 y\n529 del c o i p", []Citation{c(coip, 527), c(coip, 528), c(coip, 529)}, nil},
		{"paragraph still separates", "el coip\n\nel artículo 5 establece", nil, []int{5}},
		{"list numerals", "en primer lugar, la Constitución; en segundo lugar, el COIP", nil, nil},
		{"constitution year", "la Constitución de 2008 es garantista", nil, nil},
		{"article without number", "el artículo establece que la Constitución prevalece", nil, nil},
		{"innumerados", "el Código de la Niñez en sus artículos innumerados regula los alimentos", nil, nil},
		{"range of years", "con pena de 3 a 5 años según el COIP", nil, nil},
		{"article then duration", "El COIP, en el artículo 377, 3 a 5 años de pena", []Citation{c(coip, 377)}, nil},
		{"article list then duration", "el artículo 377 del COIP y 2 años de pena", []Citation{c(coip, 377)}, nil},
		{"civil constitucion en mora", "la constitución en mora del deudor, según el artículo 1567, produce efectos", nil, []int{1567}},
		{"corte constitucional", "la Corte Constitucional en la sentencia 001-16-PJO-CC", nil, nil},
		{"bare number date", "el 20 de octubre de 2008 se aprobó la Constitución", nil, nil},
		{"untracked norm", "el artículo 8 de la Convención Interamericana para Prevenir y Sancionar la Tortura", nil, nil},
		{"treaty", "el artículo 8 de la Convención Americana sobre Derechos Humanos", []Citation{c(cadh, 8)}, nil},
		{"untracked law before", "El COIP no aplica aquí. La Ley Orgánica de Discapacidades, en su artículo 47, protege el empleo.", nil, nil},
		{"untracked code", "el artículo 5 del Código de Policía", nil, nil},
		{"repealed code", "el artículo 5 del Código de Procedimiento Civil", nil, nil},
		{"commercial code", "el artículo 5 del Código de Comercio", []Citation{c("Código de Comercio", 5)}, nil},
		{"untracked regulation of tracked law", "el artículo 30 del Reglamento General a la LOSNCP", nil, nil},
		{"ruling number cn", "la sentencia 11-18-CN/19 de la Corte Constitucional", nil, nil},
		{"clock time", "a las 22:30 del 8 de agosto, según la Constitución", nil, nil},
		{"cedula", "con cédula 1104567890 y teléfono 0991234567", nil, nil},
		{"quantity after article", "el artículo 30 días después fue derogado", nil, nil},
		{"un is not a number", "los artículos 18 y 30 del COIP y una norma más", []Citation{c(coip, 18), c(coip, 30)}, nil},
		{"continuation decoy date", "el artículo 76 de la constitución y el 30 de marzo se dictó sentencia", []Citation{c(cre, 76)}, nil},
		{"continuation decoy duration", "el artículo 76 de la constitución y 30 días después", []Citation{c(cre, 76)}, nil},
		{"continuation decoy year", "el artículo 1453 del código civil y en el 2008 se reformó", []Citation{c(cc, 1453)}, nil},
		{"continuation decoy count", "el artículo 76 de la constitución y 2 hijos menores", []Citation{c(cre, 76)}, nil},
		{"continuation decoy percent", "el artículo 140 del coip y el 10 % de la pena", []Citation{c(coip, 140)}, nil},
		{"continuation decoy amount", "el artículo 188 del código del trabajo y 1800 dólares", []Citation{c(ct, 188)}, nil},
		{"continuation decoy spelled count", "el artículo 188 del código del trabajo y tres meses de sueldo", []Citation{c(ct, 188)}, nil},
		{"elided decoy smaller", "el artículo 22 del cogep enumera 12 causas y el 13 de ellas es la amistad", []Citation{c(gep, 22)}, nil},
		{"elided decoy far", "el artículo 100 del COA regula el acto y el 150 de los casos", []Citation{c(coa, 100)}, nil},
		{"elided decoy another sentence", "El artículo 100 del COA regula el acto. Y el 105 es el número del expediente.", []Citation{c(coa, 100)}, nil},
		{"punto decoy", "en este punto el artículo 76 de la constitución", []Citation{c(cre, 76)}, nil},
		{"punto y aparte", "el artículo 76 punto y aparte", nil, []int{76}},
		{"compound not split", "con una pena de treinta y seis del COIP", nil, nil},
		{"empty", "", nil, nil},
	}
	if len(tests) < 60 {
		t.Fatalf("only %d rows", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unatt := ExtractCitations(tt.text)
			if tt.want == nil {
				tt.want = []Citation{}
			}
			if tt.unatt == nil {
				tt.unatt = []int{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("citations\n got %v\nwant %v", got, tt.want)
			}
			if !reflect.DeepEqual(unatt, tt.unatt) {
				t.Errorf("unattributed\n got %v\nwant %v", unatt, tt.unatt)
			}
		})
	}
}

func TestInsideSpelled(t *testing.T) {
	d := tokenize("setenta y seis y ochenta y dos mil cuatrocientos diez")
	inside := map[int]bool{2: true, 6: true, 7: true, 8: true, 9: true}
	for i := range d.toks {
		if d.toks[i].text == "y" {
			continue
		}
		if got := insideSpelled(d, i); got != inside[i] {
			t.Errorf("insideSpelled(%q at %d) = %v, want %v", d.toks[i].text, i, got, inside[i])
		}
	}
}

func TestContinuationStopsAtParagraph(t *testing.T) {
	text := "La normativa aplicable es el Código Civil.\n\nAdemás, el artículo 1570 exige un plazo."
	got, unatt := ExtractCitations(text)
	if len(got) != 0 || !reflect.DeepEqual(unatt, []int{1570}) {
		t.Fatalf("got %v %v; want none and [1570]", got, unatt)
	}
}

func TestCanonicalNorm(t *testing.T) {
	tests := map[string]string{
		"Código Orgánico Integral Penal": coip,
		"COIP":                           coip,
		"c.o.i.p.":                       coip,
		"Constitución":                   cre,
		"Constitución de la República":   cre,
		"constitucion de la republica del ecuador": cre,
		"Carta Magna":                         cre,
		"CRE":                                 cre,
		"Constitución (2008)":                 cre,
		"Código Civil":                        cc,
		"CC":                                  cc,
		"COGEP":                               gep,
		"Código Orgánico General de Procesos": gep,
		"Código del Trabajo":                  ct,
		"LOGJCC":                              lgj,
		"Ley Orgánica de Garantías Jurisdiccionales y Control Constitucional": lgj,
		"Código de la Niñez y Adolescencia":                                   cona,
		"Código de la Niñez":                                                  cona,
		"COA":                                                                 coa,
		"COFJ":                                                                cofj,
		"LOSEP":                                                               losep,
		"LOSNCP":                                                              losnc,
		"LOES":                                                                loes,
		"LOEI":                                                                loei,
		"co gep":                                                              gep,
		"Pacto de San José":                                                   cadh,
	}
	for in, want := range tests {
		if got, ok := CanonicalNorm(in); !ok || got != want {
			t.Errorf("CanonicalNorm(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "Código de Procedimiento Civil", "Corte Constitucional", "ley", "Constitución y COIP", "la constitución en mora", "lo es", "con a"} {
		if got, ok := CanonicalNorm(in); ok {
			t.Errorf("CanonicalNorm(%q) = %q; want not found", in, got)
		}
	}
}

func TestArticleNumber(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"76.7.l", 76, true},
		{"88", 88, true},
		{"195.1", 195, true},
		{"Art. 76", 76, true},
		{"artículo 534", 534, true},
		{"setenta y seis", 76, true},
		{"1.459", 1459, true},
		{"39-42", 39, true},
		{"innumerado", 0, false},
		{"", 0, false},
		{"0", 0, false},
		{"cuatrocientas mil", 0, false}, // found by FuzzAnalyze: an amount, not an article
		{"12000", 0, false},
		{"39 al 12000", 39, true},
	}
	for _, tt := range tests {
		got, ok := ArticleNumber(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ArticleNumber(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if got := articleNumbers("39–42"); !reflect.DeepEqual(got, []int{39, 40, 41, 42}) {
		t.Errorf("articleNumbers(39–42) = %v", got)
	}
	if got := articleNumbers("2410 a 2411"); !reflect.DeepEqual(got, []int{2410, 2411}) {
		t.Errorf("articleNumbers(2410 a 2411) = %v", got)
	}
}

func TestSpelledNumbers(t *testing.T) {
	tests := map[string]int{
		"uno": 1, "siete": 7, "quince": 15, "veintiuno": 21, "treinta y tres": 33,
		"setenta y seis": 76, "cien": 100, "ciento uno": 101, "ciento noventa y cinco": 195,
		"quinientos veintisiete": 527, "mil": 1000, "mil cuatrocientos cincuenta y nueve": 1459,
		"dos mil cuatrocientos diez": 2410, "dos mil cuatrocientos quince": 2415,
	}
	for in, want := range tests {
		d := tokenize(in)
		got, next, ok := spelledAt(d, 0)
		if !ok || got != want || next != len(d.toks) {
			t.Errorf("spelledAt(%q) = %d (next %d of %d), %v; want %d", in, got, next, len(d.toks), ok, want)
		}
	}
	for _, in := range []string{"un", "una", "y", "mil mil", "articulo"} {
		d := tokenize(in)
		if v, next, ok := spelledAt(d, 0); ok && next == len(d.toks) {
			t.Errorf("spelledAt(%q) = %d; want no full parse", in, v)
		}
	}
}
