// Command apitypes prints, as JSON, the fields of the API's shapes as the Go
// server encodes them: for each TypeScript type name in
// frontend/src/types/api.ts, its JSON field names and whether each may be
// left out (omitempty). frontend/src/types/api-fields.json holds its output;
// the test beside this file fails when that file is out of date, and
// frontend/src/types/api-fields.test.ts fails when the TypeScript types
// disagree with it. Regenerate with:
//
//	go run ./backend/cmd/apitypes > frontend/src/types/api-fields.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/utpl/simulador/backend/internal/httpapi"
)

// Field is one JSON field of a shape.
type Field struct {
	Name string `json:"name"`
	// Optional: the server may leave it out (omitempty).
	Optional bool `json:"optional"`
}

func main() {
	out, err := listing()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

// listing is the JSON document: shape name → fields sorted by name.
func listing() ([]byte, error) {
	shapes := map[string][]Field{}
	for name, v := range httpapi.APIShapes() {
		shapes[name] = fields(reflect.TypeOf(v))
	}
	b, err := json.MarshalIndent(shapes, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// fields lists a struct's JSON fields as encoding/json writes them:
// exported fields, renamed by their json tag, "-" skipped, and the fields
// of an embedded struct without a tag promoted into the outer one.
func fields(t reflect.Type) []Field {
	var out []Field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, fields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, Field{Name: name, Optional: strings.Contains(","+opts+",", ",omitempty,")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
