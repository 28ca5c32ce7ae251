package main

import (
	"os"
	"reflect"
	"testing"
)

// The checked-in listing the frontend's test reads must be what the server
// encodes today: a changed DTO needs the file regenerated (and then the
// TypeScript types updated until frontend/src/types/api-fields.test.ts
// passes).
func TestListingIsCurrent(t *testing.T) {
	want, err := listing()
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../../frontend/src/types/api-fields.json"
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is out of date: run go run ./backend/cmd/apitypes > frontend/src/types/api-fields.json", path[9:])
	}
}

func TestEmbeddedStructsArePromoted(t *testing.T) {
	type inner struct {
		A string `json:"a"`
	}
	type outer struct {
		inner
		B      string `json:"b,omitempty"`
		Hidden string `json:"-"`
		hidden string
	}
	got := fields(reflectTypeOf(outer{}))
	if len(got) != 2 || got[0] != (Field{Name: "a"}) || got[1] != (Field{Name: "b", Optional: true}) {
		t.Fatalf("fields = %+v", got)
	}
	_ = outer{}.hidden
}

func reflectTypeOf(v any) reflect.Type { return reflect.TypeOf(v) }
