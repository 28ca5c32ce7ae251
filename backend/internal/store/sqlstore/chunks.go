package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// chunkBatcher is the group commit of recording chunks. An upload is
// acknowledged only once its chunk's record is durable (the browser then
// deletes its copy), so each acknowledgement waits for a commit that
// survives a power cut. One goroutine takes every chunk waiting when the
// previous batch ends and records them in one transaction with one
// durable commit, so the price of durability is paid once per batch: the
// more uploads arrive at once, the larger the batches. Each chunk is
// still checked against its recording's and its student's limits in that
// transaction, in order of arrival, so the limits hold exactly.
type chunkBatcher struct {
	s       *DB
	in      chan *chunkReq
	once    sync.Once
	started atomic.Bool
	closing sync.Once
	stop    chan struct{}
	done    chan struct{}
}

const (
	// maxChunkBatch bounds one transaction (and how long the writer's
	// other users wait behind it).
	maxChunkBatch = 128
	// chunkQueueLen is how many chunks may wait for a batch; past it an
	// upload is refused as busy and retried by the browser.
	chunkQueueLen = 4096
	// chunkBatchTimeout bounds one batch's transaction.
	chunkBatchTimeout = 30 * time.Second
)

func newChunkBatcher(s *DB) *chunkBatcher {
	return &chunkBatcher{s: s, in: make(chan *chunkReq, chunkQueueLen), stop: make(chan struct{}), done: make(chan struct{})}
}

var errStoreClosed = errors.New("the store is closed")

// add queues r for the next batch and waits for its outcome. When ctx
// ends first (the client went away) the chunk is still recorded: its
// media is stored, and the browser's retry then finds it.
func (b *chunkBatcher) add(ctx context.Context, r *chunkReq) error {
	b.once.Do(func() { b.started.Store(true); go b.run() })
	r.done = make(chan struct{})
	select {
	case b.in <- r:
	case <-b.stop:
		return errStoreClosed
	default:
		return &domain.BusyError{RetryAfter: time.Second, Cause: fmt.Errorf("%d chunks wait to be recorded", len(b.in))}
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *chunkBatcher) run() {
	defer close(b.done)
	batch := make([]*chunkReq, 0, maxChunkBatch)
	for {
		select {
		case <-b.stop:
			b.drain(errStoreClosed)
			return
		case r := <-b.in:
			batch = append(batch[:0], r)
		}
	more:
		for len(batch) < maxChunkBatch {
			select {
			case r := <-b.in:
				batch = append(batch, r)
			default:
				break more
			}
		}
		b.commit(batch)
		for i := range batch {
			close(batch[i].done)
			batch[i] = nil
		}
	}
}

// commit records a batch. A failure of the database for the batch as a
// whole (not a chunk's own refusal) is retried chunk by chunk, so that one
// chunk cannot fail the others.
func (b *chunkBatcher) commit(batch []*chunkReq) {
	ctx, cancel := context.WithTimeout(context.Background(), chunkBatchTimeout)
	defer cancel()
	err := b.s.durably(ctx, func(tx *DB) error { return tx.addChunks(ctx, batch) })
	if err == nil {
		return
	}
	if len(batch) == 1 {
		batch[0].err = err
		return
	}
	for _, r := range batch {
		one := []*chunkReq{r}
		if err := b.s.durably(ctx, func(tx *DB) error { return tx.addChunks(ctx, one) }); err != nil {
			r.err = err
		}
	}
}

// drain answers the chunks still queued when the store closes.
func (b *chunkBatcher) drain(err error) {
	for {
		select {
		case r := <-b.in:
			r.err = err
			close(r.done)
		default:
			return
		}
	}
}

func (b *chunkBatcher) close() {
	b.closing.Do(func() { close(b.stop) })
	if b.started.Load() {
		<-b.done
	}
}

// durably runs fn in a transaction, with the writer's turn, whose commit
// survives a power cut (Options.DurableChunks).
func (s *DB) durably(ctx context.Context, fn func(tx *DB) error) error {
	release, err := s.enterWriter(ctx)
	if err != nil {
		return err
	}
	defer release()
	dc := s.opts.DurableChunks
	if dc == nil {
		return s.inTxLocked(ctx, func(st store.Store) error { return fn(st.(*DB)) })
	}
	s.wstmts.preparePending(ctx)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return s.mapErr(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, dc.Before); err != nil {
		return fmt.Errorf("durable commit: %w", s.mapErr(err))
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), dc.After) }()
	tx, err := conn.BeginTx(ctx, s.d.TxOptions)
	if err != nil {
		return fmt.Errorf("begin: %w", s.mapErr(err))
	}
	if err := fn(&DB{db: s.db, rd: s.rd, tx: tx, d: s.d, shared: s.shared}); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", s.mapErr(err))
	}
	return nil
}
