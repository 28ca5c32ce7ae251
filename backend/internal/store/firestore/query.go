package firestore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"golang.org/x/sync/errgroup"
)

// query describes a Firestore query in a form this package can both send
// to Firestore and evaluate itself on a transaction's buffered writes
// (txn.query). It covers what the store asks: equality, "in" and range
// filters, ordering and a limit.
type query struct {
	parent *firestore.DocumentRef // a subcollection's document; nil for a top-level collection
	coll   string
	group  bool // every collection named coll, wherever it is
	where  []cond
	order  []ordering
	limit  int
	fields []string // only these fields (Select); nil reads whole documents
	after  []any    // start after this position: one value per ordering (a *DocumentRef for DocumentID)
}

type cond struct {
	field string // dotted path
	op    string // "==", "in", "<", "<=", ">", ">="
	value any
}

type ordering struct {
	field string // dotted path, or firestore.DocumentID
	desc  bool
}

func collection(name string) query { return query{coll: name} }

func subcollection(parent *firestore.DocumentRef, name string) query {
	return query{parent: parent, coll: name}
}

func collectionGroup(name string) query { return query{coll: name, group: true} }

func (q query) whereEq(field string, v any) query { return q.with(cond{field, "==", v}) }

func (q query) with(c cond) query {
	q.where = append(slices.Clip(q.where), c)
	return q
}

func (q query) orderBy(field string, desc bool) query {
	q.order = append(slices.Clip(q.order), ordering{field, desc})
	return q
}

func (q query) take(n int) query {
	q.limit = n
	return q
}

// startAfter pages: the next results come after the document with these
// values of q's orderings.
func (q query) startAfter(values ...any) query {
	q.after = values
	return q
}

func (q query) selecting(fields ...string) query {
	q.fields = fields
	return q
}

func (q query) build(c *firestore.Client) firestore.Query {
	var fq firestore.Query
	switch {
	case q.group:
		fq = c.CollectionGroup(q.coll).Query
	case q.parent != nil:
		fq = q.parent.Collection(q.coll).Query
	default:
		fq = c.Collection(q.coll).Query
	}
	for _, w := range q.where {
		v := normalize(map[string]any{"v": w.value})["v"]
		fq = fq.Where(w.field, w.op, v)
	}
	for _, o := range q.order {
		dir := firestore.Asc
		if o.desc {
			dir = firestore.Desc
		}
		fq = fq.OrderBy(o.field, dir)
	}
	if q.after != nil {
		fq = fq.StartAfter(q.after...)
	}
	if q.limit > 0 {
		fq = fq.Limit(q.limit)
	}
	if q.fields != nil {
		fq = fq.Select(q.fields...)
	}
	return fq
}

// inScope reports whether ref is a document the query reads from.
func (q query) inScope(ref *firestore.DocumentRef) bool {
	if ref.Parent == nil || ref.Parent.ID != q.coll {
		return false
	}
	if q.group {
		return true
	}
	if q.parent == nil {
		return ref.Parent.Parent == nil
	}
	return ref.Parent.Parent != nil && ref.Parent.Parent.Path == q.parent.Path
}

// overlay applies a transaction's buffered writes (all in scope) to the
// documents Firestore returned for q, as if they had been committed.
func (q query) overlay(docs []doc, writes []*pendingWrite) []doc {
	byPath := make(map[string]doc, len(docs)+len(writes))
	for _, d := range docs {
		byPath[d.ref.Path] = d
	}
	for _, w := range writes {
		delete(byPath, w.ref.Path)
		if d := w.doc(); d.exists && q.matches(d.data) && q.hasOrderFields(d.data) && q.isAfter(d) {
			byPath[w.ref.Path] = d
		}
	}
	out := make([]doc, 0, len(byPath))
	for _, d := range byPath {
		out = append(out, d)
	}
	slices.SortFunc(out, q.compareDocs)
	if q.limit > 0 && len(out) > q.limit {
		out = out[:q.limit]
	}
	return out
}

// matches evaluates q's filters on a document's fields.
func (q query) matches(data map[string]any) bool {
	for _, w := range q.where {
		v, ok := fieldAt(data, w.field)
		if !ok {
			return false // Firestore never matches a missing field
		}
		want := normalize(map[string]any{"v": w.value})["v"]
		switch w.op {
		case "==":
			if c, ok := compareValues(v, want); !ok || c != 0 {
				return false
			}
		case "in":
			found := false
			for _, x := range want.([]any) {
				if c, ok := compareValues(v, x); ok && c == 0 {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		default:
			c, ok := compareValues(v, want)
			if !ok {
				return false
			}
			switch w.op {
			case "<":
				ok = c < 0
			case "<=":
				ok = c <= 0
			case ">":
				ok = c > 0
			case ">=":
				ok = c >= 0
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// hasOrderFields reports whether data has every field q orders by:
// Firestore leaves out documents that lack one.
func (q query) hasOrderFields(data map[string]any) bool {
	for _, o := range q.order {
		if _, ok := fieldAt(data, o.field); !ok && o.field != firestore.DocumentID {
			return false
		}
	}
	return true
}

// isAfter reports whether d comes after q's cursor (if any).
func (q query) isAfter(d doc) bool {
	for i, o := range q.order {
		if i >= len(q.after) {
			break
		}
		var c int
		if o.field == firestore.DocumentID {
			ref, _ := q.after[i].(*firestore.DocumentRef)
			if ref == nil {
				return true
			}
			c = comparePaths(d.ref.Path, ref.Path)
		} else {
			v, _ := fieldAt(d.data, o.field)
			c, _ = compareValues(v, normalizeValue(q.after[i]))
		}
		if o.desc {
			c = -c
		}
		if c != 0 {
			return c > 0
		}
	}
	return len(q.after) == 0
}

// compareDocs orders documents as Firestore does for q: by its orderings,
// then by document path in the direction of the last ordering.
func (q query) compareDocs(a, b doc) int {
	desc := false
	for _, o := range q.order {
		var c int
		if o.field == firestore.DocumentID {
			c = comparePaths(a.ref.Path, b.ref.Path)
		} else {
			va, _ := fieldAt(a.data, o.field)
			vb, _ := fieldAt(b.data, o.field)
			c, _ = compareValues(va, vb)
		}
		if o.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		desc = o.desc
	}
	c := comparePaths(a.ref.Path, b.ref.Path)
	if desc {
		c = -c
	}
	return c
}

func comparePaths(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

// fieldAt follows a dotted path into nested maps.
func fieldAt(data map[string]any, path string) (any, bool) {
	var cur any = data
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// compareValues compares two normalized field values of comparable kinds
// (null, booleans, numbers, strings, timestamps); ok is false otherwise.
func compareValues(a, b any) (int, bool) {
	switch x := a.(type) {
	case nil:
		return 0, b == nil
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case int64, float64:
		fx, okx := number(a)
		fy, oky := number(b)
		if !okx || !oky {
			return 0, false
		}
		return cmp.Compare(fx, fy), true
	case string:
		y, ok := b.(string)
		return strings.Compare(x, y), ok
	case time.Time:
		y, ok := b.(time.Time)
		return x.Compare(y), ok
	}
	return 0, false
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// queryAll runs several queries and returns their documents, each once.
// Outside a transaction they run side by side (a transaction's reads
// are sequential).
func queryAll(ctx context.Context, r reader, qs []query) ([]doc, error) {
	results := make([][]doc, len(qs))
	if _, inTx := r.(*txn); inTx || len(qs) == 1 {
		for i, q := range qs {
			docs, err := r.query(ctx, q)
			if err != nil {
				return nil, err
			}
			results[i] = docs
		}
	} else {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(8)
		for i, q := range qs {
			g.Go(func() error {
				docs, err := r.query(gctx, q)
				results[i] = docs
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	var out []doc
	for _, docs := range results {
		for _, d := range docs {
			if !seen[d.ref.Path] {
				seen[d.ref.Path] = true
				out = append(out, d)
			}
		}
	}
	return out, nil
}
