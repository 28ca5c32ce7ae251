package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// A degree's bank holds at most MAX_CASES_PER_DEGREE cases, whether they
// come from the editor or an import; a refused import writes nothing, and
// an import that only updates existing cases is not refused.
func TestCaseBankIsCapped(t *testing.T) {
	ctx := context.Background()
	cat, st := emptyCatalog(t)
	cat.SetMaxCasesPerDegree(3)
	rows := func(from, to int) []byte {
		var list []any
		for i := from; i < to; i++ {
			list = append(list, validCase(i))
		}
		data, _ := json.Marshal(list)
		return data
	}
	if res, err := cat.ImportCases(ctx, bytes.NewReader(rows(0, 2)), "casos.json"); err != nil || res.Created != 2 {
		t.Fatalf("import of 2 = %+v, %v", res, err)
	}
	_, err := cat.ImportCases(ctx, bytes.NewReader(rows(1, 4)), "casos.json") // 1 update, 2 new: 4 in all
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != "case_bank_full" || !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("an import past the cap: %v", err)
	}
	if list, _ := st.ListCases(ctx, store.CaseFilter{}); len(list) != 2 {
		t.Fatalf("a refused import wrote: %d cases", len(list))
	}
	if res, err := cat.ImportCases(ctx, bytes.NewReader(rows(0, 2)), "casos.json"); err != nil || res.Updated != 2 {
		t.Fatalf("updating at the cap = %+v, %v", res, err)
	}
	c := validCase(7)
	third := domain.Case{DegreeID: "derecho", Area: c.Area, Title: c.Title, Facts: c.Facts, Questions: c.Questions, FollowUps: c.FollowUps,
		KeyPoints: c.KeyPoints, LegalBases: c.LegalBases, Difficulty: domain.DifficultyBasic, Status: domain.CaseActive}
	if _, err := cat.CreateCase(ctx, third); err != nil {
		t.Fatal(err)
	}
	third.Title = "Otro título"
	if _, err := cat.CreateCase(ctx, third); !errors.As(err, &ue) || ue.Code != "case_bank_full" {
		t.Fatalf("a case past the cap: %v", err)
	}
}
