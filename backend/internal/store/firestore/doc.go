package firestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/domain"
)

// doc is a document as store methods see it: its reference and, when it
// exists, its fields with Firestore's value types (string, int64,
// float64, bool, time.Time, nil, []any, map[string]any).
type doc struct {
	ref    *firestore.DocumentRef
	data   fields
	exists bool
}

func fromSnapshot(s *firestore.DocumentSnapshot) doc {
	if !s.Exists() {
		return doc{ref: s.Ref}
	}
	return doc{ref: s.Ref, data: s.Data(), exists: true}
}

func fromSnapshots(snaps []*firestore.DocumentSnapshot) []doc {
	out := make([]doc, len(snaps))
	for i, s := range snaps {
		out[i] = fromSnapshot(s)
	}
	return out
}

// existing keeps the documents that exist.
func existing(docs []doc) []doc {
	out := docs[:0:0]
	for _, d := range docs {
		if d.exists {
			out = append(out, d)
		}
	}
	return out
}

// decodeAll turns documents into domain values with from.
func decodeAll[T any](docs []doc, from func(doc) (T, error)) ([]T, error) {
	out := make([]T, 0, len(docs))
	for _, d := range docs {
		v, err := from(d)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// one decodes d, or reports domain.ErrNotFound when it does not exist.
func one[T any](d doc, from func(doc) (T, error)) (T, error) {
	if !d.exists {
		var zero T
		return zero, fmt.Errorf("%s: %w", d.ref.Path, domain.ErrNotFound)
	}
	return from(d)
}

// getOne reads one document and converts it; a missing one is
// domain.ErrNotFound.
func getOne[T any](ctx context.Context, r reader, ref *firestore.DocumentRef, from func(doc) (T, error)) (T, error) {
	d, err := r.get(ctx, ref)
	if err != nil {
		var zero T
		return zero, err
	}
	return one(d, from)
}

// docID turns a key (an email, a title, "kind|subject"...) into a valid
// document ID, one to one: each part is path-escaped (so "/" cannot occur
// and "|" only separates parts), and the few IDs Firestore reserves get a
// first character escaped too, which path-escaping never produces. IDs
// made by the server pass through unchanged. Keys too long for an ID
// (over 1 KiB escaped) become a SHA-256 digest.
func docID(parts ...string) string {
	esc := make([]string, len(parts))
	for i, p := range parts {
		esc[i] = url.PathEscape(p)
	}
	id := strings.Join(esc, "|")
	switch {
	case id == "":
		return "%"
	case id == "." || id == "..":
		return "%2E" + id[1:]
	case strings.HasPrefix(id, "__"):
		return "%5F" + id[1:]
	case len(id) > 1024:
		sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
		return "%sha256-" + hex.EncodeToString(sum[:])
	}
	return id
}

type firestoreRef = firestore.DocumentRef

func (s *Store) ref(coll string, id ...string) *firestore.DocumentRef {
	return s.c.Collection(coll).Doc(docID(id...))
}

// fields are a document's data.
type fields map[string]any

func (f fields) str(k string) string {
	s, _ := f[k].(string)
	return s
}

func (f fields) int(k string) int64 {
	switch n := f[k].(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

func (f fields) floatPtr(k string) *float64 {
	n, ok := number(f[k])
	if !ok {
		return nil
	}
	return &n
}

func (f fields) bool(k string) bool {
	b, _ := f[k].(bool)
	return b
}

func (f fields) time(k string) time.Time {
	t, _ := f[k].(time.Time)
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func (f fields) timePtr(k string) *time.Time {
	t := f.time(k)
	if t.IsZero() {
		return nil
	}
	return &t
}

// strs reads a list of strings (never nil).
func (f fields) strs(k string) []string {
	list, _ := f[k].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// list reads a list of maps.
func (f fields) list(k string) []fields {
	list, _ := f[k].([]any)
	out := make([]fields, 0, len(list))
	for _, v := range list {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out
}

func (f fields) sub(k string) fields {
	m, _ := f[k].(map[string]any)
	return m
}

// json decodes a field holding JSON text into dst.
func (f fields) json(k string, dst any) error {
	if err := json.Unmarshal([]byte(f.str(k)), dst); err != nil {
		return fmt.Errorf("field %s: %w", k, err)
	}
	return nil
}

// ts is how a time is stored: a timestamp in UTC, at Firestore's
// microsecond precision; null for the zero time.
func ts(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Truncate(time.Microsecond)
}

func tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ts(*t)
}

func floatOrNull(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// jsonText stores a value the server never filters on and that may grow
// (snapshots, segments, levels) as JSON text.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain data is marshalled here
	}
	return string(b)
}

// normalize converts a document's Go values into the types Firestore
// returns on read, so a buffered write reads back exactly like a committed
// one.
func normalize(data map[string]any) map[string]any {
	if data == nil {
		return nil
	}
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = normalizeValue(v)
	}
	return out
}

func normalizeValue(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	case time.Time:
		return ts(x)
	case *time.Time:
		return tsPtr(x)
	case fields:
		return normalize(x)
	case map[string]any:
		return normalize(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = normalize(m)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeValue(e)
		}
		return out
	}
	return v
}

func isNotFound(err error) bool { return errors.Is(err, domain.ErrNotFound) }
