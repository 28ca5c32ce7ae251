package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

func emptyCatalog(tb testing.TB) (*catalog.Service, store.Store) {
	tb.Helper()
	st := sqlitetest.Open(tb)
	return catalog.NewService(st, false), st
}

func validCase(i int) catalog.ExchangeCase {
	return catalog.ExchangeCase{Degree: "Derecho", Area: "Civil", Title: fmt.Sprintf("Caso %d", i), Facts: "Hechos.",
		Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Qué norma?", "¿Ante quién?"}, KeyPoints: []string{"Punto"},
		LegalBases: []domain.LegalBase{{Norm: "Código Civil", Article: "1453"}}, Status: "active"}
}

// countingReader reports how much of the file the import read.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func importProblems(t *testing.T, err error) []catalog.ImportProblem {
	t.Helper()
	var ue *domain.UserError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want the import's problems", err)
	}
	ps, ok := ue.Details.([]catalog.ImportProblem)
	if !ok {
		t.Fatalf("details = %#v", ue.Details)
	}
	return ps
}

// The review's probe: 8 MB of "[{},{},…]" (2.8 million cases) took 48 s
// and 2 GB. The import now stops at the row cap, without reading the rest.
func TestCaseImportStopsAtTheRowCap(t *testing.T) {
	cat, st := emptyCatalog(t)
	cat.SetImportMaxRows(50)
	n := (catalog.MaxImportBytes - 2) / 3
	many := "[" + strings.Repeat("{},", n-1) + "{}]"
	for _, tc := range []struct{ name, file string }{
		{"many.json", many},
		{"many.csv", "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n" + strings.Repeat("x\n", (catalog.MaxImportBytes-100)/2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{r: strings.NewReader(tc.file)}
			_, err := cat.ImportCases(context.Background(), r, tc.name)
			ps := importProblems(t, err)
			if len(ps) != 1 || !strings.Contains(ps[0].Message, "más de 50 casos") {
				t.Fatalf("problems = %+v", ps)
			}
			if r.n > len(tc.file)/10 {
				t.Fatalf("read %d of %d bytes: the import did not stop at the cap", r.n, len(tc.file))
			}
		})
	}
	// The cap itself is allowed, and nothing was written before.
	var rows []catalog.ExchangeCase
	for i := range 50 {
		rows = append(rows, validCase(i))
	}
	data, _ := json.Marshal(rows)
	if list, _ := st.ListCases(context.Background(), store.CaseFilter{}); len(list) != 0 {
		t.Fatalf("a refused import wrote %d cases", len(list))
	}
	res, err := cat.ImportCases(context.Background(), bytes.NewReader(data), "casos.json")
	if err != nil || res.Created != 50 {
		t.Fatalf("50 cases = %+v, %v", res, err)
	}
}

// Reading stops once 20 problems are found (the rest of the file is not
// parsed), and the last entry says there are more.
func TestCaseImportStopsAfterTwentyProblems(t *testing.T) {
	cat, _ := emptyCatalog(t)
	for _, tc := range []struct{ name, file string }{
		{"unknown.json", "[" + strings.Repeat(`{"titel":"x"},`, 1500) + `{"titel":"x"}]`},
		{"demo.csv", "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n" +
			strings.Repeat("Derecho,Civil,T,H,P,F,K,Código Civil: 1,active,quizás\n", 1500)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{r: strings.NewReader(tc.file)}
			_, err := cat.ImportCases(context.Background(), r, tc.name)
			ps := importProblems(t, err)
			if len(ps) != 21 || !strings.Contains(ps[20].Message, "Hay más errores") || ps[19].Row == 0 {
				t.Fatalf("%d problems: %+v", len(ps), ps)
			}
			if r.n > len(tc.file)/4 {
				t.Fatalf("read %d of %d bytes after the 20th problem", r.n, len(tc.file))
			}
		})
	}
}

func TestCaseImportRefusesFilesOver8MB(t *testing.T) {
	cat, _ := emptyCatalog(t)
	for name, file := range map[string]string{
		"big.json": "[" + strings.Repeat(" ", catalog.MaxImportBytes-1) + "]",
		"big.csv":  strings.Join(csvHeaderForTest, ",") + strings.Repeat("\n", catalog.MaxImportBytes),
	} {
		_, err := cat.ImportCases(context.Background(), strings.NewReader(file), name)
		if ps := importProblems(t, err); len(ps) != 1 || ps[0].Message != "El archivo supera el límite de 8 MB." {
			t.Fatalf("%s: %+v", name, ps)
		}
	}
}

var csvHeaderForTest = []string{"degree", "area", "title", "facts", "questions", "followUps", "keyPoints", "legalBases", "status", "demo"}

// A case's text fields are capped, and a message never repeats more than
// the start of a huge value.
func TestCaseImportCapsTextAndEchoesLittle(t *testing.T) {
	cat, _ := emptyCatalog(t)
	huge := strings.Repeat("x", 1<<20)
	c := validCase(1)
	c.Degree, c.Facts = huge, huge
	c.LegalBases = []domain.LegalBase{{Norm: "COIP", Article: huge}}
	data, _ := json.Marshal([]catalog.ExchangeCase{c})
	_, err := cat.ImportCases(context.Background(), bytes.NewReader(data), "casos.json")
	ps := importProblems(t, err)
	columns := map[string]bool{}
	for _, p := range ps {
		columns[p.Column] = true
		if len(p.Message) > 300 {
			t.Errorf("%s: message of %d bytes", p.Column, len(p.Message))
		}
	}
	if !columns["degree"] || !columns["facts"] || !columns["legalBases"] {
		t.Fatalf("problems = %v", columns)
	}
}
