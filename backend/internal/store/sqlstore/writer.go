package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// writeGate gives an engine with one writer at a time (SQLite) its writers
// one by one, in order of arrival: a Go channel wakes blocked senders
// first come, first served. Without it every writer would take its own
// connection and poll the engine's lock under busy_timeout, in no order,
// so that one could starve past the timeout (SQLITE_BUSY).
type writeGate struct {
	turn     chan struct{}
	waiting  atomic.Int64
	maxWait  time.Duration
	maxQueue int64
}

// Defaults of the single writer's queue: a write that waited 5 s, or that
// finds 2,000 writes ahead of it, is refused as busy.
const (
	defaultMaxWriteWait = 5 * time.Second
	defaultMaxQueue     = 2000
)

func newWriteGate(maxWait time.Duration, maxQueue int) *writeGate {
	if maxWait <= 0 {
		maxWait = defaultMaxWriteWait
	}
	if maxQueue <= 0 {
		maxQueue = defaultMaxQueue
	}
	return &writeGate{turn: make(chan struct{}, 1), maxWait: maxWait, maxQueue: int64(maxQueue)}
}

// errWriterBusy is the cause of a refusal by the queue.
var errWriterBusy = errors.New("the database's write queue is full")

// enter waits for the writer's turn. It fails with a *domain.BusyError
// when the queue is too long or the wait too long, and with ctx's error
// when the request ends first (the client went away).
func (g *writeGate) enter(ctx context.Context) (func(), error) {
	select {
	case g.turn <- struct{}{}:
		return g.leave, nil
	default:
	}
	n := g.waiting.Add(1)
	defer g.waiting.Add(-1)
	if n > g.maxQueue {
		return nil, &domain.BusyError{RetryAfter: time.Second, Cause: fmt.Errorf("%w (%d waiting)", errWriterBusy, n-1)}
	}
	timer := time.NewTimer(g.maxWait)
	defer timer.Stop()
	select {
	case g.turn <- struct{}{}:
		return g.leave, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		return nil, &domain.BusyError{RetryAfter: 2 * time.Second, Cause: fmt.Errorf("%w: waited %s", errWriterBusy, g.maxWait)}
	}
}

func (g *writeGate) leave() { <-g.turn }

// stmtCache keeps statements prepared on a pool. database/sql prepares a
// *sql.Stmt again on each connection that runs it, once, and keeps it;
// with a pool whose connections stay open, each query is compiled once
// per connection instead of once per call. A transaction reuses a
// statement already prepared on its connection.
//
// The single writer's pool has one connection, which a transaction holds
// throughout: preparing then would wait for that very connection. A query
// first seen inside a transaction is therefore run unprepared and
// prepared at the writer's next turn, before its transaction begins
// (preparePending).
type stmtCache struct {
	db      *sql.DB
	mu      sync.RWMutex
	m       map[string]*sql.Stmt
	pending map[string]bool
}

// maxCachedStatements bounds the cache: queries built with a variable
// number of placeholders (lists of emails) are not kept past it.
const maxCachedStatements = 256

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

// get returns the prepared statement of q, preparing it when prepare is
// true; nil when there is none (no cache, cache full, not prepared yet,
// or q failed to prepare: the caller runs q unprepared and gets the error).
func (c *stmtCache) get(ctx context.Context, q string, prepare bool) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	st := c.m[q]
	n := len(c.m) + len(c.pending)
	c.mu.RUnlock()
	if st != nil || n >= maxCachedStatements {
		return st
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.m[q]; st != nil {
		return st
	}
	if !prepare {
		c.pending[q] = true
		return nil
	}
	return c.prepareLocked(ctx, q)
}

func (c *stmtCache) prepareLocked(ctx context.Context, q string) *sql.Stmt {
	delete(c.pending, q)
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	c.m[q] = st
	return st
}

// preparePending prepares the queries first seen inside a transaction;
// the caller has the writer's turn and no transaction open.
func (c *stmtCache) preparePending(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.RLock()
	n := len(c.pending)
	c.mu.RUnlock()
	if n == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := range c.pending {
		c.prepareLocked(ctx, q)
	}
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}
