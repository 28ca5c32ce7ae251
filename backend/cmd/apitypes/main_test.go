package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The checked-in files the frontend reads must be what the server encodes
// today: a changed DTO (or area list) needs them regenerated, and then the
// TypeScript types updated until frontend/src/types/api-fields.test.ts
// passes.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is out of date: run go run ./backend/cmd/apitypes", name)
		}
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
	got, err := fields(reflect.TypeOf(outer{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != (Field{Name: "a"}) || got[1] != (Field{Name: "b", Optional: true}) {
		t.Fatalf("fields = %+v", got)
	}
	_ = outer{}.hidden
}

func TestNestedStructsAreNamedShapes(t *testing.T) {
	type leaf struct {
		N int `json:"n"`
	}
	type root struct {
		One  leaf            `json:"one"`
		Many []*leaf         `json:"many"`
		ByID map[string]leaf `json:"byId"`
		At   time.Time       `json:"at"`
	}
	b, err := listing(map[string]any{"Root": root{}, "Leaf": leaf{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "one",`, `"name": "many",`, `"name": "byId",`} {
		if !strings.Contains(string(b), want+"\n      \"optional\": false,\n      \"shape\": \"Leaf\"") {
			t.Errorf("%s does not name the shape Leaf:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), `"shape": "Time"`) {
		t.Errorf("a time is a string, not a shape:\n%s", b)
	}

	_, err = listing(map[string]any{"Root": root{}})
	if err == nil || !strings.Contains(err.Error(), "Root: field") {
		t.Fatalf("a nested struct missing from the list: err = %v", err)
	}
	_, err = listing(map[string]any{"Leaf": leaf{}, "Other": leaf{}})
	if err == nil {
		t.Fatal("one Go type under two names was accepted")
	}
}
