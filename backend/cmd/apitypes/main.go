// Command apitypes writes the server's side of the API contract for the
// frontend to check itself against:
//
//   - frontend/src/types/api-fields.json: for each TypeScript type name in
//     frontend/src/types/api.ts (httpapi.APIShapes), the JSON fields the Go
//     server encodes or decodes, whether each may be left out (omitempty),
//     and, for a field that holds a struct (or a list or map of them), the
//     name of that nested shape;
//   - frontend/src/types/areas.json: the legal areas a case form suggests
//     (domain.Areas).
//
// The test beside this file fails when either file is out of date, and
// frontend/src/types/api-fields.test.ts fails when the TypeScript types
// disagree with the listing. Regenerate both, from the repository root, with:
//
//	go run ./backend/cmd/apitypes
package main

import (
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/httpapi"
)

// Field is one JSON field of a shape.
type Field struct {
	Name string `json:"name"`
	// Optional: the server may leave it out (omitempty).
	Optional bool `json:"optional"`
	// Shape names the listed shape the field holds (itself, or as the
	// elements of a list or the values of a map); "" for anything else.
	Shape string `json:"shape,omitempty"`
}

// The generated files, relative to the repository root.
const (
	fieldsFile = "frontend/src/types/api-fields.json"
	areasFile  = "frontend/src/types/areas.json"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	if err := write(*root); err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
}

func write(root string) error {
	files, err := generated()
	if err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generated is each generated file's content, by path from the root.
func generated() (map[string][]byte, error) {
	fields, err := listing(httpapi.APIShapes())
	if err != nil {
		return nil, err
	}
	areas, err := indented(domain.Areas)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{fieldsFile: fields, areasFile: areas}, nil
}

func indented(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// listing is the JSON document: shape name → fields sorted by name. A
// struct nested in a shape must be a listed shape too, so that each
// shape has one name and one TypeScript type.
func listing(named map[string]any) ([]byte, error) {
	names := map[reflect.Type]string{}
	for name, v := range named {
		t := reflect.TypeOf(v)
		if other, dup := names[t]; dup {
			return nil, fmt.Errorf("%s and %s are the same Go type %s: list it once", other, name, t)
		}
		names[t] = name
	}
	shapes := map[string][]Field{}
	var missing []string
	for name, v := range named {
		fs, err := fields(reflect.TypeOf(v), names)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		shapes[name] = fs
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("add these to httpapi.APIShapes:\n  %s", strings.Join(missing, "\n  "))
	}
	return indented(shapes)
}

// fields lists a struct's JSON fields as encoding/json writes them:
// exported fields, renamed by their json tag, "-" skipped, and the fields
// of an embedded struct without a tag promoted into the outer one. names
// gives the listed shapes; a field holding another struct must hold one.
func fields(t reflect.Type, names map[reflect.Type]string) ([]Field, error) {
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
				inner, err := fields(et, names)
				if err != nil {
					return nil, err
				}
				out = append(out, inner...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		field := Field{Name: name, Optional: strings.Contains(","+opts+",", ",omitempty,")}
		if st := nestedStruct(f.Type); st != nil {
			shape, ok := names[st]
			if !ok {
				return nil, fmt.Errorf("field %s holds %s, which is not listed", name, st)
			}
			field.Shape = shape
		}
		out = append(out, field)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

var (
	marshaler     = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// nestedStruct is the struct type a field's value is encoded from, through
// pointers, lists and map values; nil when it holds no struct, or one that
// encodes itself (time.Time is a string).
func nestedStruct(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
			continue
		case reflect.Struct:
			if t == reflect.TypeFor[time.Time]() || t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) ||
				t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
				return nil
			}
			return t
		default:
			return nil
		}
	}
}
