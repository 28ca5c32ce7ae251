package firestore

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// notMigrated are the collections no kind of record is exported from, and
// why (docs/migrate-data.md, "What is copied"). Key documents are written
// again by the import of the records that hold them.
var notMigrated = map[string]string{
	colCredentials:     "exported with its user (the password hash)",
	colUserMails:       "key documents: written by the import of each user",
	colSessions:        "short-lived; everyone signs in again after a move",
	colTokens:          "reset links and sign-ins waiting for their code: short-lived secrets, issued again",
	colCounters:        "sign-in throttle and rate-limit counts: they expire within the hour and a move starts them afresh",
	colDegreeNames:     "key documents: written by the import of each degree",
	colMembers:         "exported with its group",
	colActiveGroups:    "key documents: written by the import of each active group",
	colActiveMembers:   "derived: an imported active group claims its students' memberships",
	colStorage:         "derived: the import counts a recording's chunks, or the total is added up when first needed",
	colTakes:           "a phase's counter document, which only makes concurrent takes conflict; the takes are counted by a query",
	colCaseTitles:      "key documents: written by the import of each case",
	colInProgress:      "key documents: written by the import of each attempt in progress",
	colChunks:          "exported with its recording",
	colJobSubjects:     "key documents: written by the import of each job",
	colStoreState:      "the adapter's own bookkeeping, written by Open on the destination",
	colLTIPlatformKeys: "key documents: written by the import of each platform",
	colLTIOnce:         "LTI login states, used nonces, hand-off codes, deep-linking requests: an hour at most",
}

// TestEveryCollectionIsMigrated: a new collection (a col… constant of this
// package) is either the collection of a kind of record that migrate-data
// copies or listed above with the reason it is not, as
// TestEveryTableIsMigrated does for the SQL tables.
func TestEveryCollectionIsMigrated(t *testing.T) {
	exported := map[string]bool{}
	for _, k := range transferKinds {
		exported[k.coll] = true
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for name, coll := range collectionConstants(f) {
			found++
			if _, skipped := notMigrated[coll]; !skipped && !exported[coll] {
				t.Errorf("collection %s (%s) is not migrated by migrate-data: add a kind of record for it "+
					"(docs/migrate-data.md, \"Extending\") or list it in notMigrated with the reason", coll, name)
			}
		}
	}
	if found < len(transferKinds) {
		t.Fatalf("found %d collection constants, fewer than the %d kinds", found, len(transferKinds))
	}
}

// collectionConstants returns the file's string constants named col….
func collectionConstants(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "col") || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					out[name.Name], _ = strconv.Unquote(lit.Value)
				}
			}
		}
	}
	return out
}
