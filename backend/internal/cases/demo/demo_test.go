package demo_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/cases/demo"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/norms"
)

// What the bank must hold. The areas are those of domain.Areas; the ones
// the first edition lacked need at least minPerNewArea cases each.
const (
	minCases       = 90
	minAreas       = 18
	minPerNewArea  = 3
	minUnfavorable = 18
)

var (
	newAreas = []string{"Tributario", "Mercantil y Societario", "Ambiental y derechos de la naturaleza", "Internacional",
		"Sucesiones", "Procesal Penal", "Seguridad Social", "Inquilinato", "Protección al Consumidor", "Arbitraje y Mediación",
		"Laboral Colectivo"}

	// unfavorable are the cases whose correct answer goes against the
	// person consulting. The bank needs them so that students do not learn
	// that the client always wins; docs/demo-cases.md lists them too, with
	// their count, and TestDerechoDocsListsOutcomes keeps the two equal.
	unfavorable = []string{
		"Acción de protección por las multas de un contrato de consultoría con una prefectura",
		"Acuerdo de procedimiento abreviado en un proceso por robo",
		"Apelación presentada tarde contra una sentencia de cobro en Cuenca",
		"Cláusula arbitral invocada en la apelación por un distribuidor de Babahoyo",
		"Coactiva del SRI por impuestos de 2017 y 2019",
		"Compraventa de inmueble por documento privado y venta posterior a un tercero",
		"Demanda de terminación del arriendo de un local por pensiones atrasadas en Cuenca",
		"Comunidad que rechazó en la consulta ambiental un relleno sanitario en Santa Isabel",
		"Denuncia de una deportista adolescente contra su entrenador",
		"Derrame de combustible de una gasolinera en un estero de Machala",
		"Estafa o incumplimiento contractual en la construcción de una vivienda",
		"Estudiante que quiere devolver una laptop comprada en línea porque la encontró más barata",
		"Excepciones del deudor frente al banco que recibió un pagaré por endoso",
		"Herencia de un hijo sin descendencia reclamada por sus padres y por su conviviente",
		"Hábeas data contra un reporte crediticio de una deuda pagada",
		"Huelga anunciada por los obreros de la empresa municipal de agua potable de Manta",
		"Jubilación por vejez negada a una afiliada de sesenta y dos años en Ambato",
		"Junta constituyente de un comité de empresa en una fábrica textil de Atuntaqui",
		"Impugnación judicial de una determinación del impuesto de patentes en Riobamba",
		"Motociclista herido por un bache en una vía municipal",
		"Nulidad de una junta universal que aprobó un aumento de capital en Machala",
		"Padre que deja de pagar la pensión cuando su hijo cumple dieciocho años",
		"Pedido de extradición de un ciudadano ecuatoriano a Colombia",
		"Recurso de casación para que se valore de nuevo un testimonio",
		"Suspensión condicional de la pena pedida por una condenada por estafa",
		"Terminación unilateral de un contrato de obra pública",
		"Testamento que deja todos los bienes a la vecina que cuidó al causante",
		"Tratado bilateral de inversiones con arbitraje ante el CIADI",
		"Venta de participaciones de una compañía limitada a un tercero",
		"Visto bueno por atrasos reiterados de una operadora de call center",
	}

	// wrongRemedy are the cases where the person consulting chose an
	// improper remedy but can still win by the right one. They are not
	// counted as unfavourable.
	wrongRemedy = []string{
		"Acción reivindicatoria de una heredera contra su hermano que ocupa la casa de la madre",
		"Atropello mortal de un peatón en Santo Domingo",
		"Constructora que quiere apelar un laudo arbitral ante la Corte Provincial de Pichincha",
		"Denuncia por calumnia presentada ante la Fiscalía",
		"Determinación presuntiva a una contribuyente que llevaba contabilidad",
		"Familia que quiere demandar al Ecuador directamente ante la Corte Interamericana",
	}

	caseKeys = []string{
		"degree", "area", "title", "difficulty", "facts", "questions", "followUps",
		"keyPoints", "followUpKeyPoints", "legalBases", "status", "demo",
	}
	baseKeys = []string{"norm", "article", "note"}
)

// decodeStrict decodes the embedded bank in the exchange format the
// importer reads, rejecting unknown fields and trailing data.
func decodeStrict(t *testing.T) []catalog.ExchangeCase {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(demo.Derecho))
	dec.DisallowUnknownFields()
	var cases []catalog.ExchangeCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("decode derecho.json: %v", err)
	}
	if err := dec.Decode(new(json.RawMessage)); !errors.Is(err, io.EOF) {
		t.Fatalf("derecho.json has data after the array (err=%v)", err)
	}
	return cases
}

// TestDerechoExactKeys checks the exact spelling of every key, which
// DisallowUnknownFields alone does not (encoding/json matches keys
// case-insensitively), and that no field is left out.
func TestDerechoExactKeys(t *testing.T) {
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(demo.Derecho, &raw); err != nil {
		t.Fatalf("decode derecho.json: %v", err)
	}
	for i, obj := range raw {
		if got := slices.Sorted(maps.Keys(obj)); !slices.Equal(got, slices.Sorted(slices.Values(caseKeys))) {
			t.Errorf("case %d: keys %v, want %v", i, got, caseKeys)
		}
		var bases []map[string]json.RawMessage
		if err := json.Unmarshal(obj["legalBases"], &bases); err != nil {
			t.Errorf("case %d: legalBases: %v", i, err)
			continue
		}
		for j, b := range bases {
			if got := slices.Sorted(maps.Keys(b)); !slices.Equal(got, slices.Sorted(slices.Values(baseKeys))) {
				t.Errorf("case %d, legal base %d: keys %v, want %v", i, j, got, baseKeys)
			}
		}
	}
}

// TestDerechoCoverage: enough cases, areas, difficulties and unfavourable
// answers for a complexivo.
func TestDerechoCoverage(t *testing.T) {
	cases := decodeStrict(t)
	if len(cases) < minCases {
		t.Errorf("%d cases, want at least %d", len(cases), minCases)
	}
	perArea := map[string]int{}
	perDifficulty := map[string]int{}
	titles := map[string]bool{}
	for _, c := range cases {
		if !slices.Contains(domain.Areas, c.Area) {
			t.Errorf("%q: area %q is not one of domain.Areas %v", c.Title, c.Area, domain.Areas)
		}
		perArea[c.Area]++
		perDifficulty[c.Difficulty]++
		titles[c.Title] = true
	}
	if len(perArea) < minAreas {
		t.Errorf("%d areas, want at least %d: %v", len(perArea), minAreas, perArea)
	}
	for _, a := range newAreas {
		if perArea[a] < minPerNewArea {
			t.Errorf("area %q has %d cases, want at least %d", a, perArea[a], minPerNewArea)
		}
	}
	// Every area has a case the person consulting should lose, or where
	// the remedy they want is the wrong one: students must not learn that
	// the client always wins.
	against := map[string]bool{}
	for _, c := range cases {
		if slices.Contains(unfavorable, c.Title) || slices.Contains(wrongRemedy, c.Title) {
			against[c.Area] = true
		}
	}
	for a, n := range perArea {
		if n < minPerNewArea {
			t.Errorf("area %q has %d cases, want at least %d", a, n, minPerNewArea)
		}
		if !against[a] {
			t.Errorf("area %q has no unfavourable or wrong-remedy case", a)
		}
	}
	for _, d := range domain.Difficulties {
		if perDifficulty[string(d)] == 0 {
			t.Errorf("no case of difficulty %s", d)
		}
	}
	if len(unfavorable) < minUnfavorable {
		t.Errorf("%d unfavourable cases, want at least %d", len(unfavorable), minUnfavorable)
	}
	for _, u := range slices.Concat(unfavorable, wrongRemedy) {
		if !titles[u] {
			t.Errorf("unfavourable or wrong-remedy case %q is not in the bank", u)
		}
	}
	for _, u := range unfavorable {
		if slices.Contains(wrongRemedy, u) {
			t.Errorf("%q is listed both as unfavourable and as a wrong remedy", u)
		}
	}
	for now, before := range demo.FormerTitles {
		if !titles[now] {
			t.Errorf("FormerTitles: %q is not a title of the bank", now)
		}
		if titles[before] {
			t.Errorf("FormerTitles: the former title %q is still in use", before)
		}
	}
	t.Logf("%d cases; per area %v; per difficulty %v; %d unfavourable", len(cases), perArea, perDifficulty, len(unfavorable))
}

// TestDerechoDocsListsOutcomes: docs/demo-cases.md states the number of
// unfavourable and wrong-remedy cases and lists exactly the cases named
// here, so that the description of the bank cannot drift from it.
func TestDerechoDocsListsOutcomes(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/demo-cases.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct {
		heading string
		titles  []string
	}{{"### Unfavourable cases", unfavorable}, {"### Wrong remedy", wrongRemedy}} {
		section, ok := docSection(string(doc), l.heading)
		if !ok {
			t.Errorf("docs/demo-cases.md has no section %q", l.heading)
			continue
		}
		if want := fmt.Sprintf("%s (%d)", l.heading, len(l.titles)); !strings.HasPrefix(section, want+"\n") {
			t.Errorf("section heading %q, want %q", strings.SplitN(section, "\n", 2)[0], want)
		}
		var listed []string
		for _, line := range strings.Split(section, "\n") {
			if title, ok := strings.CutPrefix(line, "- "); ok {
				listed = append(listed, title)
			}
		}
		if got, want := slices.Sorted(slices.Values(listed)), slices.Sorted(slices.Values(l.titles)); !slices.Equal(got, want) {
			t.Errorf("%s lists %q, want %q", l.heading, got, want)
		}
	}
}

// docSection is the text from a heading line starting with prefix to the
// next heading.
func docSection(doc, prefix string) (string, bool) {
	i := strings.Index(doc, "\n"+prefix)
	if i < 0 {
		return "", false
	}
	rest := doc[i+1:]
	if j := strings.Index(rest[1:], "\n#"); j >= 0 {
		rest = rest[:j+2]
	}
	return rest, true
}

func TestDerechoTitlesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range decodeStrict(t) {
		key := strings.ToLower(strings.TrimSpace(c.Title))
		if seen[key] {
			t.Errorf("duplicate title %q", c.Title)
		}
		seen[key] = true
	}
}

func TestDerechoCaseFields(t *testing.T) {
	for i, c := range decodeStrict(t) {
		name := c.Title
		if name == "" {
			name = fmt.Sprintf("case %d", i)
		}
		t.Run(name, func(t *testing.T) {
			if c.Degree != "Derecho" || c.Status != "active" || !c.Demo {
				t.Errorf("degree %q, status %q, demo %v; want Derecho, active, true", c.Degree, c.Status, c.Demo)
			}
			// The product's own validation, as an import would run it.
			for _, p := range c.Case().Validate() {
				t.Errorf("%s: %s", p.Field, p.Message)
			}
			if n := len(strings.Fields(c.Facts)); n < 80 || n > 220 {
				t.Errorf("facts have %d words, want 80 to 220", n)
			}
			listLen(t, "questions", c.Questions, 1, 2)
			listLen(t, "followUps", c.FollowUps, 2, 3)
			listLen(t, "keyPoints", c.KeyPoints, 3, 10)
			// Every tribunal question has a key point that answers it.
			if len(c.FollowUpKeyPoints) != len(c.FollowUps) || slices.Contains(c.FollowUpKeyPoints, 0) {
				t.Errorf("followUpKeyPoints %v: want a key point for each of the %d follow-ups", c.FollowUpKeyPoints, len(c.FollowUps))
			}
			if len(c.LegalBases) == 0 {
				t.Error("no legal bases")
			}
			seen := map[string]bool{}
			for _, b := range c.LegalBases {
				n, ok := norms.Lookup(b.Norm)
				if !ok || n.Name != b.Norm {
					t.Errorf("norm %q is not a canonical name of the norms catalogue", b.Norm)
				} else if a, err := norms.ParseArticle(b.Article); err != nil || a.Number > n.LastArticle {
					t.Errorf("%s %s: not an article of the norm (last about %d)", b.Norm, b.Article, n.LastArticle)
				}
				if !norms.ValidArticle(b.Article) {
					t.Errorf("%s article %q is not in the canonical notation", b.Norm, b.Article)
				}
				if strings.TrimSpace(b.Note) == "" {
					t.Errorf("%s %s has no description", b.Norm, b.Article)
				}
				key := b.Norm + " " + b.Article
				if seen[key] {
					t.Errorf("duplicate legal base %s", key)
				}
				seen[key] = true
			}
		})
	}
}

// TestDerechoDescriptionsAgree: an article is described the same way in
// every case that cites it, so faculty review each description once.
func TestDerechoDescriptionsAgree(t *testing.T) {
	notes := map[string]string{}
	for _, c := range decodeStrict(t) {
		for _, b := range c.LegalBases {
			key := b.Norm + " " + b.Article
			if prev, ok := notes[key]; ok && prev != b.Note {
				t.Errorf("%s is described as %q and as %q", key, prev, b.Note)
			}
			notes[key] = b.Note
		}
	}
}

func listLen(t *testing.T, field string, list []string, lo, hi int) {
	t.Helper()
	if len(list) < lo || len(list) > hi {
		t.Errorf("%s has %d items, want %d to %d", field, len(list), lo, hi)
	}
}
