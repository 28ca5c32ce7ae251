package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/cases/demo"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/norms"
)

func TestDemoBankCitesOnlyCataloguedNorms(t *testing.T) {
	var rows []struct {
		Title      string             `json:"title"`
		LegalBases []domain.LegalBase `json:"legalBases"`
	}
	if err := json.Unmarshal(demo.Derecho, &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		for _, b := range r.LegalBases {
			if n, ok := norms.Lookup(b.Norm); !ok || n.Name != b.Norm {
				t.Errorf("%s: norm %q is not a canonical name of the catalogue", r.Title, b.Norm)
			}
			if !norms.ValidArticle(b.Article) {
				t.Errorf("%s: article %q", r.Title, b.Article)
			}
		}
	}
	cat, _, _ := bank(t, 0)
	res, err := cat.ImportDemoBank(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Created != len(rows) || len(rows) < 60 {
		t.Fatalf("demo bank: created %d of %d cases", res.Created, len(rows))
	}
}

func TestCaseLegalBasesAgainstTheCatalogue(t *testing.T) {
	ctx := context.Background()
	cat, _, _ := bank(t, 0)
	c := domain.Case{DegreeID: "derecho", Area: "Tributario", Title: "Determinación presuntiva", Facts: "Hechos.",
		Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Qué norma?", "¿Ante quién?"}, KeyPoints: []string{"Punto"},
		Difficulty: domain.DifficultyBasic,
		LegalBases: []domain.LegalBase{{Norm: "Código Orgánico Integral Penal", Article: "Art. 76.7.L"},
			{Norm: "c.o.n.a.", Article: "125+2"}, {Norm: "Código de Procedimiento Civil", Article: "1"}}}

	_, err := cat.CreateCase(ctx, c)
	var ue *domain.UserError
	if !errors.As(err, &ue) {
		t.Fatalf("a case citing a repealed code: err %v, want a user error", err)
	}
	ps, _ := ue.Details.([]domain.CaseProblem)
	if len(ps) != 1 || ps[0].Field != "legalBases" || !strings.Contains(ps[0].Message, "«Código de Procedimiento Civil» no está en el catálogo") {
		t.Fatalf("problems %+v", ue.Details)
	}

	c.LegalBases = c.LegalBases[:2]
	got, err := cat.CreateCase(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.LegalBase{{Norm: "COIP", Article: "76.7.l"}, {Norm: "Código de la Niñez y Adolescencia", Article: "125+2"}}
	if stored, _ := cat.Case(ctx, got.ID); len(stored.LegalBases) != 2 || stored.LegalBases[0] != want[0] || stored.LegalBases[1] != want[1] {
		t.Fatalf("stored legal bases %+v, want %+v", stored.LegalBases, want)
	}

	file := `[{"degree":"Derecho","area":"Civil","title":"Uno","facts":"Hechos","questions":["¿P?"],"followUps":["¿F?","¿G?"],` +
		`"keyPoints":["K"],"legalBases":[{"norm":"Ley de Propiedad Horizontal de Marte","article":"3"},{"norm":"COIP","article":"125.2.c"}],"status":"active","demo":false}]`
	_, err = cat.ImportCases(ctx, strings.NewReader(file), "bank.json")
	if !errors.As(err, &ue) || !strings.Contains(ue.Error()+errorDetails(ue), "«Ley de Propiedad Horizontal de Marte» no está en el catálogo") {
		t.Fatalf("import with an unknown norm: %v %s", err, errorDetails(ue))
	}
	if strings.Contains(errorDetails(ue), "125.2.c") {
		t.Fatalf("125.2.c (article, numeral, literal) refused: %s", errorDetails(ue))
	}
}

func errorDetails(ue *domain.UserError) string {
	if ue == nil {
		return ""
	}
	b, _ := json.Marshal(ue.Details)
	return string(b)
}
