package firestore_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
)

// indexFile is the index definition firebase deploy reads.
const indexFile = "../../../../firestore.indexes.json"

// indexSpec is an index as firestore.indexes.json and the emulator's
// usage report both describe it.
type indexSpec struct {
	CollectionGroup string       `json:"collectionGroup"`
	QueryScope      string       `json:"queryScope"`
	Fields          []indexField `json:"fields"`
}

type indexField struct {
	FieldPath   string `json:"fieldPath"`
	Order       string `json:"order,omitempty"`
	ArrayConfig string `json:"arrayConfig,omitempty"`
}

type fieldOverride struct {
	CollectionGroup string `json:"collectionGroup"`
	FieldPath       string `json:"fieldPath"`
	Indexes         []struct {
		Order       string `json:"order,omitempty"`
		ArrayConfig string `json:"arrayConfig,omitempty"`
		QueryScope  string `json:"queryScope"`
	} `json:"indexes"`
}

type indexFileContent struct {
	Indexes        []indexSpec     `json:"indexes"`
	FieldOverrides []fieldOverride `json:"fieldOverrides"`
}

// own is the index's fields without the trailing __name__ Firestore adds
// to every index in the direction of the field before it.
func (ix indexSpec) own() []indexField {
	fields := ix.Fields
	if n := len(fields); n > 1 && fields[n-1].FieldPath == "__name__" &&
		(fields[n-1].Order == fields[n-2].Order || fields[n-2].Order == "") {
		fields = fields[:n-1]
	}
	return fields
}

// key names an index: scope, collection and its own fields in order.
func (ix indexSpec) key() string {
	var parts []string
	for _, f := range ix.own() {
		parts = append(parts, f.FieldPath+" "+strings.ToLower(f.Order+f.ArrayConfig))
	}
	scope := ix.QueryScope
	if scope == "" {
		scope = "COLLECTION"
	}
	return fmt.Sprintf("%s %s (%s)", scope, ix.CollectionGroup, strings.Join(parts, ", "))
}

// usedIndexes reads the emulator's report of the indexes the queries of
// project would need.
func usedIndexes(t *testing.T, project string) []indexSpec {
	t.Helper()
	url := fmt.Sprintf("http://%s/emulator/v1/projects/%s:indexUsage?database=projects/%s/databases/(default)", emulatorHost, project, project)
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	var report struct {
		Reports []struct {
			Index struct {
				Name string `json:"name"`
				indexSpec
			} `json:"index"`
		} `json:"reports"`
	}
	if err := json.NewDecoder(res.Body).Decode(&report); err != nil {
		t.Fatal(err)
	}
	var out []indexSpec
	for _, r := range report.Reports {
		ix := r.Index.indexSpec
		// .../collectionGroups/<name>/indexes/_
		if parts := strings.Split(r.Index.Name, "/"); len(parts) >= 3 {
			ix.CollectionGroup = parts[len(parts)-3]
		}
		out = append(out, ix)
	}
	return out
}

// TestIndexesMatchTheQueries runs after TestContract and compares the
// indexes the contract's queries needed, over all its projects, with
// firestore.indexes.json: the emulator serves any query without an index,
// production refuses one whose composite index is missing.
//
// A query on one field is served by Firestore's automatic single-field
// indexes, except in a collection-group query, which needs the field
// enabled for collection groups (a fieldOverride). Any other query needs
// a composite index; one whose filters are all equalities could be served
// by merging single-field indexes, but the file lists it too, so every
// query reads one index.
func TestIndexesMatchTheQueries(t *testing.T) {
	needEmulator(t)
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		t.Skip("runs only after the whole TestContract (not with -run)")
	}
	projectsMu.Lock()
	projects := slices.Clone(projectsRun)
	projectsMu.Unlock()
	if len(projects) == 0 {
		t.Skip("TestContract did not run")
	}
	data, err := os.ReadFile(indexFile)
	if err != nil {
		t.Fatal(err)
	}
	var file indexFileContent
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("%s: %v", indexFile, err)
	}

	used := map[string]indexSpec{}
	for _, p := range projects {
		for _, ix := range usedIndexes(t, p) {
			used[ix.key()] = ix
		}
	}
	declared := map[string]bool{}
	for _, ix := range file.Indexes {
		declared[ix.key()] = true
	}
	groupFields := map[string]bool{} // "collection field" enabled for collection-group queries
	exempt := map[string]bool{}      // "collection field" not indexed at all
	for _, o := range file.FieldOverrides {
		if len(o.Indexes) == 0 {
			exempt[o.CollectionGroup+" "+o.FieldPath] = true
		}
		for _, ix := range o.Indexes {
			if ix.QueryScope == "COLLECTION_GROUP" {
				groupFields[o.CollectionGroup+" "+o.FieldPath] = true
			}
		}
	}

	for k, ix := range used {
		for _, f := range ix.own() {
			if exempt[ix.CollectionGroup+" "+f.FieldPath] {
				t.Errorf("%s: a query uses %s.%s, which firestore.indexes.json exempts from indexing", k, ix.CollectionGroup, f.FieldPath)
			}
		}
		single := len(ix.own()) == 1
		switch {
		case single && ix.QueryScope == "COLLECTION_GROUP":
			if !groupFields[ix.CollectionGroup+" "+ix.Fields[0].FieldPath] {
				t.Errorf("a collection-group query on %s.%s needs a fieldOverride enabling it for COLLECTION_GROUP in firestore.indexes.json",
					ix.CollectionGroup, ix.Fields[0].FieldPath)
			}
		case single:
			// automatic single-field index
		case !declared[k]:
			b, _ := json.Marshal(ix)
			t.Errorf("missing composite index in firestore.indexes.json: %s\n\t%s", k, b)
		}
	}
	for _, ix := range file.Indexes {
		if _, ok := used[ix.key()]; !ok {
			t.Errorf("firestore.indexes.json declares an index no query of the contract suite used: %s", ix.key())
		}
	}
}
