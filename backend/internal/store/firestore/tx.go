package firestore

import (
	"context"
	"fmt"
	"maps"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/utpl/simulador/backend/internal/domain"
)

// reader is what store methods read through: the database directly, or a
// transaction (which also sees its own buffered writes).
type reader interface {
	get(ctx context.Context, ref *firestore.DocumentRef) (doc, error)
	getAll(ctx context.Context, refs []*firestore.DocumentRef) ([]doc, error)
	query(ctx context.Context, q query) ([]doc, error)
}

// direct reads the database outside any transaction.
type direct struct{ c *firestore.Client }

func (d direct) get(ctx context.Context, ref *firestore.DocumentRef) (doc, error) {
	snap, err := ref.Get(ctx)
	if status.Code(err) == codes.NotFound {
		return doc{ref: ref}, nil
	}
	if err != nil {
		return doc{}, err
	}
	return fromSnapshot(snap), nil
}

func (d direct) getAll(ctx context.Context, refs []*firestore.DocumentRef) ([]doc, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	snaps, err := d.c.GetAll(ctx, refs)
	if err != nil {
		return nil, err
	}
	return fromSnapshots(snaps), nil
}

func (d direct) query(ctx context.Context, q query) ([]doc, error) {
	snaps, err := q.build(d.c).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	return fromSnapshots(snaps), nil
}

// txn is one attempt of a Firestore transaction with its writes held back.
//
// Firestore refuses a read once the transaction has written, but store
// methods (and the services' InTx functions) read and write in any order.
// So writes are buffered here and handed to Firestore only when the
// function has returned (flush); until then every read of the transaction
// goes to Firestore, which locks what was read, and is then overlaid with
// the buffered writes: a document written earlier in the transaction is
// returned as written (or as missing once deleted), and a query's result
// gains, loses or reorders the buffered documents its filters select.
// Reads therefore see the transaction's own writes, and the transaction
// still commits only if nothing it read changed meanwhile.
type txn struct {
	ctx     context.Context
	c       *firestore.Client
	tx      *firestore.Transaction
	pending map[string]*pendingWrite // by document path
	order   []string                 // paths in the order first written
}

// pendingWrite is the state a document will have at commit.
type pendingWrite struct {
	ref  *firestore.DocumentRef
	data map[string]any // nil deletes the document
	// create asks Firestore to refuse the commit if the document exists
	// (it was read as missing in this transaction, so that only happens
	// if Firestore's locking failed us; belt and braces).
	create bool
}

func newTxn(ctx context.Context, c *firestore.Client, tx *firestore.Transaction) *txn {
	return &txn{ctx: ctx, c: c, tx: tx, pending: map[string]*pendingWrite{}}
}

func (t *txn) get(_ context.Context, ref *firestore.DocumentRef) (doc, error) {
	if w, ok := t.pending[ref.Path]; ok {
		return w.doc(), nil
	}
	snap, err := t.tx.Get(ref)
	if status.Code(err) == codes.NotFound {
		return doc{ref: ref}, nil
	}
	if err != nil {
		return doc{}, err
	}
	return fromSnapshot(snap), nil
}

// existing is get for a document that must exist: a missing one is
// domain.ErrNotFound, named by what ("user u1").
func (t *txn) existing(ctx context.Context, ref *firestore.DocumentRef, what string) (doc, error) {
	d, err := t.get(ctx, ref)
	if err == nil && !d.exists {
		err = fmt.Errorf("%s: %w", what, domain.ErrNotFound)
	}
	return d, err
}

func (t *txn) getAll(_ context.Context, refs []*firestore.DocumentRef) ([]doc, error) {
	out := make([]doc, len(refs))
	var missing []*firestore.DocumentRef
	var at []int
	for i, ref := range refs {
		if w, ok := t.pending[ref.Path]; ok {
			out[i] = w.doc()
			continue
		}
		missing = append(missing, ref)
		at = append(at, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	snaps, err := t.tx.GetAll(missing)
	if err != nil {
		return nil, err
	}
	for j, d := range fromSnapshots(snaps) {
		out[at[j]] = d
	}
	return out, nil
}

func (t *txn) query(_ context.Context, q query) ([]doc, error) {
	var mine []*pendingWrite
	for _, p := range t.order {
		if w := t.pending[p]; q.inScope(w.ref) {
			mine = append(mine, w)
		}
	}
	fetch := q
	if fetch.limit > 0 {
		// Buffered deletes or changes may drop documents from the
		// database's answer: ask for enough to still fill the limit.
		fetch.limit += len(mine)
	}
	snaps, err := t.tx.Documents(fetch.build(t.c)).GetAll()
	if err != nil {
		return nil, err
	}
	docs := fromSnapshots(snaps)
	if len(mine) == 0 {
		return docs, nil
	}
	return q.overlay(docs, mine), nil
}

// create buffers a new document; reads in this transaction must have
// found it missing.
func (t *txn) create(ref *firestore.DocumentRef, data map[string]any) {
	prev, ok := t.pending[ref.Path]
	t.put(ref, data, !ok || prev.create)
}

// set buffers the whole new content of a document.
func (t *txn) set(ref *firestore.DocumentRef, data map[string]any) {
	prev, ok := t.pending[ref.Path]
	t.put(ref, data, ok && prev.create)
}

// update buffers changed fields of a document read in this transaction
// (d), keeping the fields this server does not know (data written by the
// earlier app or by a later version).
func (t *txn) update(d doc, changes map[string]any) {
	data := maps.Clone(d.data)
	if data == nil {
		data = map[string]any{}
	}
	maps.Copy(data, changes)
	t.set(d.ref, data)
}

func (t *txn) delete(ref *firestore.DocumentRef) {
	t.put(ref, nil, false)
}

func (t *txn) put(ref *firestore.DocumentRef, data map[string]any, create bool) {
	if _, ok := t.pending[ref.Path]; !ok {
		t.order = append(t.order, ref.Path)
	}
	t.pending[ref.Path] = &pendingWrite{ref: ref, data: normalize(data), create: create && data != nil}
}

// flush hands the buffered writes to Firestore, which commits them with
// the transaction.
func (t *txn) flush() error {
	for _, p := range t.order {
		w := t.pending[p]
		var err error
		switch {
		case w.data == nil:
			err = t.tx.Delete(w.ref)
		case w.create:
			err = t.tx.Create(w.ref, w.data)
		default:
			err = t.tx.Set(w.ref, w.data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *pendingWrite) doc() doc {
	if w.data == nil {
		return doc{ref: w.ref}
	}
	return doc{ref: w.ref, data: maps.Clone(w.data), exists: true}
}
