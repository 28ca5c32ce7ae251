package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// bank returns a catalog on a fresh SQLite database with n active cases and
// one retired case in the area "Tributario" (ids in creation order), all
// intermedio.
func bank(t *testing.T, n int) (*catalog.Service, []string, string) {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.Open(t)
	cat := catalog.NewService(st, false)
	add := func(title string, status domain.CaseStatus) string {
		c, err := cat.CreateCase(ctx, domain.Case{DegreeID: "derecho", Area: "Tributario", Title: title, Facts: "Hechos.",
			Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Qué norma?", "¿Ante quién?"}, KeyPoints: []string{"Punto"},
			LegalBases: []domain.LegalBase{{Norm: "Constitución", Article: "300"}}, Difficulty: domain.DifficultyIntermediate, Status: status})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	var active []string
	for i := range n {
		active = append(active, add(fmt.Sprintf("Caso %d", i+1), domain.CaseActive))
	}
	return cat, active, add("Caso retirado", domain.CaseRetired)
}

func TestDrawFallsBackToTheLeastRecentlySeenCase(t *testing.T) {
	cat, ids, retired := bank(t, 3)
	// recent is newest first: ids[2] was seen longest ago. The retired case
	// was never seen, yet it is never drawn.
	recent := []string{ids[0], ids[1], ids[0], ids[2]}
	for range 20 {
		c, err := cat.Draw(context.Background(), catalog.DrawRequest{DegreeID: "derecho", Area: "Tributario", Recent: recent})
		if err != nil {
			t.Fatal(err)
		}
		if c.ID == retired {
			t.Fatal("drew a retired case")
		}
		if c.ID != ids[2] {
			t.Fatalf("drew %s (%s), want the least recently seen %s", c.ID, c.Title, ids[2])
		}
	}
}

func TestDrawNeverGivesARetiredCase(t *testing.T) {
	cat, ids, retired := bank(t, 2)
	for range 30 {
		c, err := cat.Draw(context.Background(), catalog.DrawRequest{DegreeID: "derecho", Area: "Tributario"})
		if err != nil {
			t.Fatal(err)
		}
		if c.ID == retired || (c.ID != ids[0] && c.ID != ids[1]) {
			t.Fatalf("drew %s", c.Title)
		}
	}
	if _, err := cat.Draw(context.Background(), catalog.DrawRequest{DegreeID: "derecho", Area: "Sin casos"}); err == nil {
		t.Fatal("an area without active cases drew something")
	}
}
