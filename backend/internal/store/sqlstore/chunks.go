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
// previous batch ends and records them in one transaction; another syncs
// the commits (Options.SyncChunks) outside the writer's turn, once for
// every batch committed while the previous sync ran, and then acknowledges
// them. The price of durability is paid once per batch, or less, and the
// more uploads arrive at once, the larger the batches. Each chunk is still
// checked against its recording's and its student's limits in its batch's
// transaction, in order of arrival, so the limits hold exactly.
type chunkBatcher struct {
	s       *DB
	in      chan *chunkReq
	synced  chan []*chunkReq // committed batches waiting for a sync
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
	return &chunkBatcher{s: s, in: make(chan *chunkReq, chunkQueueLen), synced: make(chan []*chunkReq, chunkQueueLen/maxChunkBatch+1),
		stop: make(chan struct{}), done: make(chan struct{})}
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
	syncDone := make(chan struct{})
	go b.syncLoop(syncDone)
	defer func() {
		close(b.synced)
		<-syncDone
	}()
	for {
		var batch []*chunkReq
		select {
		case <-b.stop:
			b.drain(errStoreClosed)
			return
		case r := <-b.in:
			batch = append(make([]*chunkReq, 0, maxChunkBatch), r)
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
		b.synced <- batch
	}
}

// syncLoop acknowledges committed batches once a sync made them durable:
// every batch waiting when a sync starts is covered by it.
func (b *chunkBatcher) syncLoop(done chan struct{}) {
	defer close(done)
	syncFn := b.s.opts.SyncChunks
	for batch := range b.synced {
		batches := [][]*chunkReq{batch}
	more:
		for {
			select {
			case next, ok := <-b.synced:
				if !ok {
					break more
				}
				batches = append(batches, next)
			default:
				break more
			}
		}
		var err error
		if syncFn != nil {
			if err = syncFn(); err != nil {
				err = fmt.Errorf("sync the chunks' commit: %w", err)
			}
		}
		for _, batch := range batches {
			for _, r := range batch {
				if err != nil && r.err == nil {
					r.err = err
				}
				close(r.done)
			}
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

// durably runs fn in a transaction with the writer's turn; the commit is
// made durable by the sync that follows (see syncLoop).
func (s *DB) durably(ctx context.Context, fn func(tx *DB) error) error {
	release, err := s.enterWriter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return s.inTxLocked(ctx, func(st store.Store) error { return fn(st.(*DB)) })
}
