package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// mixedBank is a catalog with the given number of active cases per
// difficulty, in the area "Tributario"; it returns their ids by difficulty.
func mixedBank(t *testing.T, counts map[domain.Difficulty]int) (*catalog.Service, map[domain.Difficulty][]string) {
	t.Helper()
	ctx := context.Background()
	st := sqlitetest.Open(t)
	cat := catalog.NewService(st, false)
	ids := map[domain.Difficulty][]string{}
	for _, d := range domain.Difficulties {
		for i := range counts[d] {
			c, err := cat.CreateCase(ctx, sampleCase(fmt.Sprintf("%s %d", d, i+1), d))
			if err != nil {
				t.Fatal(err)
			}
			ids[d] = append(ids[d], c.ID)
		}
	}
	return cat, ids
}

func sampleCase(title string, d domain.Difficulty) domain.Case {
	return domain.Case{DegreeID: "derecho", Area: "Tributario", Title: title, Facts: "Hechos.", Difficulty: d,
		Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Qué norma?", "¿Ante quién?"}, KeyPoints: []string{"Norma", "Juez"},
		FollowUpKeyPoints: []int{1, 2}, LegalBases: []domain.LegalBase{{Norm: "Constitución", Article: "300", Note: "Principios tributarios."}},
		Status: domain.CaseActive}
}

// dice returns each of rolls in turn (modulo n), then zeros.
func dice(rolls ...int) func(int) int {
	return func(n int) int {
		if len(rolls) == 0 {
			return 0
		}
		r := rolls[0] % n
		rolls = rolls[1:]
		return r
	}
}

func TestMockDrawFollowsTheMix(t *testing.T) {
	ctx := context.Background()
	cat, ids := mixedBank(t, map[domain.Difficulty]int{domain.DifficultyBasic: 2, domain.DifficultyIntermediate: 2, domain.DifficultyAdvanced: 2})
	mix := domain.DifficultyMix{Basic: 25, Intermediate: 50, Advanced: 25}
	// The first roll picks the difficulty on 0..99 (25 basic, then 50
	// intermediate, then 25 advanced); the second picks the case.
	for _, tc := range []struct {
		roll int
		want domain.Difficulty
	}{{0, domain.DifficultyBasic}, {24, domain.DifficultyBasic}, {25, domain.DifficultyIntermediate}, {74, domain.DifficultyIntermediate},
		{75, domain.DifficultyAdvanced}, {99, domain.DifficultyAdvanced}} {
		cat.SetRandom(dice(tc.roll, 1))
		c, err := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &mix})
		if err != nil {
			t.Fatal(err)
		}
		if c.Difficulty != tc.want || c.ID != ids[tc.want][1] {
			t.Errorf("roll %d drew %s (%s), want the second %s case", tc.roll, c.Title, c.Difficulty, tc.want)
		}
	}
	// A difficulty the mix leaves out is never drawn.
	only := domain.DifficultyMix{Advanced: 100}
	for roll := range 100 {
		cat.SetRandom(dice(roll))
		if c, _ := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &only}); c.Difficulty != domain.DifficultyAdvanced {
			t.Fatalf("mix 0/0/100, roll %d drew %s", roll, c.Difficulty)
		}
	}
	// Recent cases are avoided within the drawn difficulty; when all of
	// them are recent, the one seen longest ago is drawn.
	cat.SetRandom(dice(80, 0))
	c, _ := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &mix, Recent: []string{ids[domain.DifficultyAdvanced][0]}})
	if c.ID != ids[domain.DifficultyAdvanced][1] {
		t.Fatalf("drew %s, want the fresh advanced case", c.Title)
	}
	cat.SetRandom(dice(80))
	recent := []string{ids[domain.DifficultyAdvanced][1], ids[domain.DifficultyBasic][0], ids[domain.DifficultyAdvanced][0]}
	if c, _ := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &mix, Recent: recent}); c.ID != ids[domain.DifficultyAdvanced][0] {
		t.Fatalf("drew %s, want the advanced case seen longest ago", c.Title)
	}
}

func TestMockDrawFallsBackWhenADifficultyHasNoCase(t *testing.T) {
	ctx := context.Background()
	cat, ids := mixedBank(t, map[domain.Difficulty]int{domain.DifficultyBasic: 1, domain.DifficultyIntermediate: 1})
	// No advanced case: its share goes to the others in proportion (25 and
	// 50 of 75 left).
	mix := domain.DefaultDifficultyMix
	for roll, want := range map[int]domain.Difficulty{0: domain.DifficultyBasic, 24: domain.DifficultyBasic, 25: domain.DifficultyIntermediate, 74: domain.DifficultyIntermediate} {
		cat.SetRandom(dice(roll))
		if c, _ := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &mix}); c.Difficulty != want {
			t.Errorf("roll %d drew %s, want %s", roll, c.Difficulty, want)
		}
	}
	// A mix that only wants advanced cases still draws a case: any
	// difficulty there is, equally likely.
	only := domain.DifficultyMix{Advanced: 100}
	seen := map[string]bool{}
	for roll := range 2 {
		cat.SetRandom(dice(roll))
		c, err := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Mix: &only})
		if err != nil {
			t.Fatal(err)
		}
		seen[c.ID] = true
	}
	if !seen[ids[domain.DifficultyBasic][0]] || !seen[ids[domain.DifficultyIntermediate][0]] {
		t.Fatalf("fallback drew %v", seen)
	}
}

func TestTrainingDrawByDifficulty(t *testing.T) {
	ctx := context.Background()
	cat, ids := mixedBank(t, map[domain.Difficulty]int{domain.DifficultyBasic: 1, domain.DifficultyAdvanced: 1})
	c, err := cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Area: "Tributario", Difficulty: domain.DifficultyAdvanced})
	if err != nil || c.ID != ids[domain.DifficultyAdvanced][0] {
		t.Fatalf("drew %+v, %v", c, err)
	}
	_, err = cat.Draw(ctx, catalog.DrawRequest{DegreeID: "derecho", Area: "Tributario", Difficulty: domain.DifficultyIntermediate})
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Message != "No hay casos activos del área «Tributario» y de dificultad intermedio. Elija otra opción." {
		t.Fatalf("no intermediate case: %v", err)
	}
	if ds, err := cat.Difficulties(ctx, "derecho"); err != nil || fmt.Sprint(ds) != "[basico avanzado]" {
		t.Fatalf("difficulties = %v, %v", ds, err)
	}
}

func TestBlueprintKeepsTheMix(t *testing.T) {
	ctx := context.Background()
	cat, _ := mixedBank(t, nil)
	bp, err := cat.Blueprint(ctx, "derecho")
	if err != nil || bp.DifficultyMix != domain.DefaultDifficultyMix {
		t.Fatalf("default blueprint mix = %+v, %v", bp.DifficultyMix, err)
	}
	bp.DifficultyMix = domain.DifficultyMix{Basic: 10, Intermediate: 30, Advanced: 60}
	if _, err := cat.SetBlueprint(ctx, bp); err != nil {
		t.Fatal(err)
	}
	if got, _ := cat.Blueprint(ctx, "derecho"); got.DifficultyMix != bp.DifficultyMix {
		t.Fatalf("saved mix = %+v", got.DifficultyMix)
	}
	bp.DifficultyMix = domain.DifficultyMix{Basic: 10, Intermediate: 10, Advanced: 10}
	if _, err := cat.SetBlueprint(ctx, bp); err == nil || !strings.Contains(err.Error(), "deben sumar 100") {
		t.Fatalf("mix summing 30: %v", err)
	}
	// A client that does not know mixes (none sent) gets the default.
	bp.DifficultyMix = domain.DifficultyMix{}
	if saved, err := cat.SetBlueprint(ctx, bp); err != nil || saved.DifficultyMix != domain.DefaultDifficultyMix {
		t.Fatalf("unset mix saved as %+v, %v", saved.DifficultyMix, err)
	}
}

func TestReviewMark(t *testing.T) {
	ctx := context.Background()
	cat, ids := mixedBank(t, map[domain.Difficulty]int{domain.DifficultyBasic: 1})
	id := ids[domain.DifficultyBasic][0]
	c, _ := cat.Case(ctx, id)
	c.Demo = true
	if _, err := cat.UpdateCase(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	tutor := domain.User{Mail: "revisora@utpl.edu.ec", DisplayName: "Rosa Revisora"}
	got, err := cat.MarkReviewed(ctx, id, tutor)
	if err != nil || got.Demo || got.Review == nil || got.Review.By != tutor.Mail || got.Review.ByName != "Rosa Revisora" || got.Review.At.IsZero() {
		t.Fatalf("reviewed = %+v, %v", got, err)
	}
	if list, _ := cat.Cases(ctx, catalog.CaseQuery{DegreeID: "derecho", Reviewed: "si"}); len(list) != 1 {
		t.Fatalf("reviewed filter: %d", len(list))
	}
	if list, _ := cat.Cases(ctx, catalog.CaseQuery{DegreeID: "derecho", Reviewed: "no"}); len(list) != 0 {
		t.Fatalf("unreviewed filter: %d", len(list))
	}
	// An edit keeps the review; whatever the request says, it is the
	// server's to set.
	got.Facts = "Hechos corregidos."
	got.Review = &domain.CaseReview{By: "otro@utpl.edu.ec", At: time.Now()}
	edited, err := cat.UpdateCase(ctx, id, got)
	if err != nil || edited.Review == nil || edited.Review.By != tutor.Mail {
		t.Fatalf("edited = %+v, %v", edited.Review, err)
	}
	// Marking it demo content again clears the review.
	edited.Demo = true
	if again, err := cat.UpdateCase(ctx, id, edited); err != nil || again.Review != nil {
		t.Fatalf("demo again = %+v, %v", again.Review, err)
	}
	// A new case is never born reviewed.
	fresh := sampleCase("Nuevo", domain.DifficultyBasic)
	fresh.Review = &domain.CaseReview{By: "x@utpl.edu.ec", At: time.Now()}
	if created, err := cat.CreateCase(ctx, fresh); err != nil || created.Review != nil {
		t.Fatalf("created = %+v, %v", created.Review, err)
	}
	if _, err := cat.MarkReviewed(ctx, "no-existe", tutor); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing case: %v", err)
	}
}

func TestImportCarriesOverWhatOlderFilesCannotSay(t *testing.T) {
	ctx := context.Background()
	cat, ids := mixedBank(t, map[domain.Difficulty]int{domain.DifficultyAdvanced: 1})
	id := ids[domain.DifficultyAdvanced][0]
	if _, err := cat.MarkReviewed(ctx, id, domain.User{Mail: "t@utpl.edu.ec"}); err != nil {
		t.Fatal(err)
	}
	// A CSV file of the first format: no difficulty or followUpKeyPoints
	// column, legal bases without descriptions.
	old := "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n" +
		"Derecho,Tributario,avanzado 1,Hechos nuevos,¿Procede?,\"¿Qué norma?\n¿Ante quién?\",\"Norma\nJuez\",Constitución: 300,active,false\n" +
		"Derecho,Tributario,Caso nuevo,Hechos,¿Procede?,\"¿Qué norma?\n¿Ante quién?\",Punto,Constitución: 301,active,false\n"
	res, err := cat.ImportCases(ctx, strings.NewReader(old), "viejo.csv")
	if err != nil || res.Created != 1 || res.Updated != 1 {
		t.Fatalf("import = %+v, %v", res, err)
	}
	got, _ := cat.Case(ctx, id)
	if got.Facts != "Hechos nuevos" || got.Difficulty != domain.DifficultyAdvanced || fmt.Sprint(got.FollowUpKeyPoints) != "[1 2]" ||
		got.LegalBases[0].Note != "Principios tributarios." || got.Review == nil {
		t.Fatalf("updated from an old file: %+v", got)
	}
	list, _ := cat.Cases(ctx, catalog.CaseQuery{DegreeID: "derecho", Text: "Caso nuevo"})
	if len(list) != 1 || list[0].Difficulty != domain.DefaultDifficulty || list[0].FollowUpKeyPoints != nil {
		t.Fatalf("created from an old file: %+v", list)
	}

	// The current format round-trips every new field.
	exported, err := cat.Export(ctx, "derecho")
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := catalog.WriteCSV(&buf, exported); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(strings.TrimPrefix(buf.String(), "\ufeff"), "\n")
	if header != "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo,difficulty,followUpKeyPoints" {
		t.Fatalf("CSV header %q", header)
	}
	if !strings.Contains(buf.String(), "Constitución: 300 | Principios tributarios.") {
		t.Fatalf("CSV without the legal base's description:\n%s", buf.String())
	}
	edited := strings.Replace(buf.String(), ",avanzado,\"1\n2\"", ",basico,\"2\n1\"", 1)
	if edited == buf.String() {
		t.Fatalf("difficulty and links not found in:\n%s", buf.String())
	}
	if _, err := cat.ImportCases(ctx, strings.NewReader(edited), "nuevo.csv"); err != nil {
		t.Fatal(err)
	}
	if got, _ := cat.Case(ctx, id); got.Difficulty != domain.DifficultyBasic || fmt.Sprint(got.FollowUpKeyPoints) != "[2 1]" {
		t.Fatalf("after a new-format import: %+v", got)
	}
	// Bad values name their column.
	bad := strings.Replace(edited, ",basico,\"2\n1\"", ",facil,\"dos\n1\"", 1)
	_, err = cat.ImportCases(ctx, strings.NewReader(bad), "malo.csv")
	if err == nil || !strings.Contains(errorDetails(asUserError(err)), "«dos» no es el número de un punto clave") {
		t.Fatalf("bad link: %v %s", err, errorDetails(asUserError(err)))
	}
	bad = strings.Replace(edited, ",basico,", ",facil,", 1)
	_, err = cat.ImportCases(ctx, strings.NewReader(bad), "malo.csv")
	if err == nil || !strings.Contains(errorDetails(asUserError(err)), `"column":"difficulty"`) {
		t.Fatalf("bad difficulty: %v %s", err, errorDetails(asUserError(err)))
	}
}

func asUserError(err error) *domain.UserError {
	var ue *domain.UserError
	errors.As(err, &ue)
	return ue
}

// The first edition of the demo bank, as an installation has it: a case
// nobody touched and one a tutor edited, under titles of the first edition.
func TestDemoBankSecondEditionUpgradesOnlyUntouchedCases(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	cat := catalog.NewService(st, false)
	old := func(title string, edited bool) domain.Case {
		at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		c := sampleCase(title, domain.DefaultDifficulty)
		c.ID, c.Area, c.Demo, c.FollowUpKeyPoints, c.CreatedAt, c.UpdatedAt = domain.NewID(), "Laboral", true, nil, at, at
		if edited {
			c.UpdatedAt = at.Add(time.Hour)
		}
		if err := st.CreateCase(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	untouched := old("Despido ineficaz de una trabajadora embarazada", false)
	edited := old("Horas suplementarias y extraordinarias impagas", true)
	if err := st.SetMeta(ctx, "demo_bank_v1", "1"); err != nil {
		t.Fatal(err)
	}
	res, err := cat.ImportDemoBank(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := st.ListCases(ctx, store.CaseFilter{DegreeID: "derecho"})
	if res.Updated != 1 || res.Created != len(all)-2 {
		t.Fatalf("upgrade = %+v with %d cases", res, len(all))
	}
	if got, _ := st.GetCase(ctx, untouched.ID); got.Difficulty == "" || len(got.FollowUpKeyPoints) == 0 || got.LegalBases[0].Note == "" || !got.CreatedAt.Equal(untouched.CreatedAt) {
		t.Fatalf("untouched case not upgraded: %+v", got)
	}
	if got, _ := st.GetCase(ctx, edited.ID); got.Facts != "Hechos." || got.FollowUpKeyPoints != nil {
		t.Fatalf("an edited case was replaced: %+v", got)
	}
	// Loaded once: a second start changes nothing.
	if res, err := cat.ImportDemoBank(ctx); err != nil || res != (catalog.ImportResult{}) {
		t.Fatalf("second start = %+v, %v", res, err)
	}
}

// An installation that loaded the second edition gets the third: a case
// nobody touched since is replaced, one a tutor edited afterwards or
// reviewed is kept.
func TestDemoBankThirdEditionUpgradesCasesUntouchedSinceTheSecond(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	cat := catalog.NewService(st, false)
	loaded := time.Date(2025, 10, 1, 12, 0, 0, 0, time.UTC)
	second := func(title string, updated time.Time, reviewed bool) domain.Case {
		c := sampleCase(title, domain.DefaultDifficulty)
		c.ID, c.Area, c.Demo, c.FollowUpKeyPoints = domain.NewID(), "Procesal", true, nil
		// A first-edition case replaced during the second edition's load:
		// created long before, updated a moment after the marker's time.
		c.CreatedAt, c.UpdatedAt = loaded.AddDate(0, -6, 0), updated
		if reviewed {
			c.Review = &domain.CaseReview{By: "tutor@utpl.edu.ec", ByName: "Tutor", At: updated}
		}
		if err := st.CreateCase(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	untouched := second("Cobro de un pagaré con un abono no descontado", loaded.Add(800*time.Millisecond), false)
	edited := second("Cobro de facturas impagas sin título ejecutivo", loaded.Add(48*time.Hour), false)
	reviewed := second("Archivo de una demanda incompleta y competencia territorial", loaded.Add(time.Second), true)
	if err := st.SetMeta(ctx, "demo_bank_v2", loaded.Format(time.RFC3339)); err != nil {
		t.Fatal(err)
	}
	res, err := cat.ImportDemoBank(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := st.ListCases(ctx, store.CaseFilter{DegreeID: "derecho"})
	if res.Updated != 1 || res.Created != len(all)-3 {
		t.Fatalf("upgrade = %+v with %d cases", res, len(all))
	}
	got, _ := st.GetCase(ctx, untouched.ID)
	if !strings.Contains(strings.Join(got.KeyPoints, " "), "CC 1715") || len(got.FollowUpKeyPoints) == 0 {
		t.Fatalf("untouched case not upgraded: %+v", got)
	}
	for _, c := range []domain.Case{edited, reviewed} {
		if got, _ := st.GetCase(ctx, c.ID); got.Facts != "Hechos." {
			t.Fatalf("%q was replaced: %+v", c.Title, got)
		}
	}
	if _, err := st.GetMeta(ctx, "demo_bank_v5"); err != nil {
		t.Fatalf("current edition not recorded: %v", err)
	}
	if res, err := cat.ImportDemoBank(ctx); err != nil || res != (catalog.ImportResult{}) {
		t.Fatalf("second start = %+v, %v", res, err)
	}
}

// An installation that loaded the edition before the current one gets
// the new cases, and its cases untouched since then are replaced; a second
// start loads nothing.
func TestDemoBankUpgradeAddsTheNewCases(t *testing.T) {
	fifth := []string{"Jubilación por vejez negada a una afiliada de sesenta y dos años en Ambato",
		"Familia que quiere demandar al Ecuador directamente ante la Corte Interamericana"}
	for _, tc := range []struct {
		name, loaded string
		// degree is the ID of the degree named Derecho: the seed's, or
		// the earlier app's in a store that moved in from it.
		degree   string
		newCases []string
	}{
		{"from the third", "demo_bank_v3", "derecho", []string{"Apelación presentada tarde contra una sentencia de cobro en Cuenca",
			"Padre que deja de pagar la pensión cuando su hijo cumple dieciocho años"}},
		{"from the fourth", "demo_bank_v4", "derecho", fifth},
		{"from the fourth, moved in from the earlier app", "demo_bank_v4", "Dg9DerechoAutoId00001", fifth},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := sqlitetest.Open(t)
			if tc.degree != store.SeedDegree.ID {
				// As migrate-data writes it: the seed gives way.
				if err := st.ImportRecords(ctx, []store.Record{{Kind: store.KindDegrees, Key: tc.degree,
					Value: domain.Degree{ID: tc.degree, Nombre: "Derecho"}}}); err != nil {
					t.Fatal(err)
				}
			}
			cat := catalog.NewService(st, false)
			loaded := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
			old := sampleCase("Cobro de un pagaré con un abono no descontado", domain.DefaultDifficulty)
			old.ID, old.DegreeID, old.Area, old.Demo, old.FollowUpKeyPoints = domain.NewID(), tc.degree, "Procesal", true, nil
			old.CreatedAt, old.UpdatedAt = loaded.AddDate(0, -6, 0), loaded.Add(800*time.Millisecond)
			if err := st.CreateCase(ctx, old); err != nil {
				t.Fatal(err)
			}
			if err := st.SetMeta(ctx, tc.loaded, loaded.Format(time.RFC3339)); err != nil {
				t.Fatal(err)
			}
			res, err := cat.ImportDemoBank(ctx)
			if err != nil {
				t.Fatal(err)
			}
			all, _ := st.ListCases(ctx, store.CaseFilter{DegreeID: tc.degree})
			if res.Updated != 1 || res.Created != len(all)-1 {
				t.Fatalf("upgrade = %+v with %d cases", res, len(all))
			}
			for _, title := range tc.newCases {
				if _, err := st.GetCaseByTitle(ctx, tc.degree, title); err != nil {
					t.Fatalf("new case %q not added: %v", title, err)
				}
			}
			if got, _ := st.GetCase(ctx, old.ID); got.Facts == "Hechos." {
				t.Fatalf("case untouched since %s not upgraded: %+v", tc.loaded, got)
			}
			if _, err := st.GetMeta(ctx, "demo_bank_v5"); err != nil {
				t.Fatalf("current edition not recorded: %v", err)
			}
			if res, err := cat.ImportDemoBank(ctx); err != nil || res != (catalog.ImportResult{}) {
				t.Fatalf("second start = %+v, %v", res, err)
			}
		})
	}
}
