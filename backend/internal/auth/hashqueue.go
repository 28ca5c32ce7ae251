package auth

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// hashQueue bounds the argon2id computations of sign-ins, the one costly
// step of a sign-in: each takes ~25 ms of a core and 19 MiB while it runs.
// slots run at once; the others wait in order of arrival, holding little
// (a request, no hash memory). A sign-in whose wait would pass maxWait, by
// the queue's length and the recent time per hash, or that finds maxQueue
// waiting, is answered at once with 429 and a Retry-After that spreads the
// retries, instead of waiting: so a sign-in storm neither exhausts memory
// nor keeps students waiting past a minute without an answer.
type hashQueue struct {
	slots    chan struct{}
	waiting  atomic.Int64
	maxQueue int64
	maxWait  time.Duration
	// perHash is a moving average of one hash's wall time (ns), CPU
	// contention included.
	perHash atomic.Int64
}

const (
	// hashQueueMax bounds the sign-ins waiting at once (their memory).
	hashQueueMax = 2000
	// hashMaxWait is the longest a sign-in is asked to wait in the queue.
	// A refused sign-in comes back later, at the end of the queue, and
	// while the refused wait, the queue may run dry and the cores idle:
	// waiting is the faster way through a storm, as long as the answer
	// comes well before the browser or a proxy gives up (Firebase Hosting
	// waits 60 s for Cloud Run).
	hashMaxWait = 20 * time.Second
	// firstHashGuess is the time per hash assumed before any was timed.
	firstHashGuess = 40 * time.Millisecond
)

// maxHashing bounds concurrent argon2id computations: one per core (at
// least two, at most eight); more would only queue for the CPU while each
// held its 19 MiB.
func maxHashing() int { return min(max(runtime.GOMAXPROCS(0), 2), 8) }

func newHashQueue(slots int) *hashQueue {
	q := &hashQueue{slots: make(chan struct{}, slots), maxQueue: hashQueueMax, maxWait: hashMaxWait}
	q.perHash.Store(int64(firstHashGuess))
	return q
}

// estimate is how long a sign-in arriving now would wait for a slot.
func (q *hashQueue) estimate(ahead int64) time.Duration {
	return time.Duration(ahead * q.perHash.Load() / int64(cap(q.slots)))
}

// acquire waits for a slot and returns the function that gives it back
// (and times the hash). It refuses with busy when the queue is too long,
// and with busy wrapping ctx's error when the request ends while waiting.
func (q *hashQueue) acquire(ctx context.Context) (func(), error) {
	select {
	case q.slots <- struct{}{}:
		return q.releaser(), nil
	default:
	}
	ahead := q.waiting.Add(1) - 1
	defer q.waiting.Add(-1)
	if est := q.estimate(ahead); ahead >= q.maxQueue || est > q.maxWait {
		return nil, busy(retryAfter(est), fmt.Errorf("%d sign-ins wait for a password check (about %s)", ahead, est.Round(time.Millisecond)))
	}
	select {
	case q.slots <- struct{}{}:
		return q.releaser(), nil
	case <-ctx.Done():
		return nil, busy(time.Duration(retryAfterSeconds)*time.Second, ctx.Err())
	}
}

// imitate takes as long as a password check arriving now would, without
// taking a slot or a core: the answer for an account that has no password
// to check (unknown, or Microsoft only). So a flood of made-up accounts
// fills no slot that a real sign-in needs, and still cannot tell, by the
// time of the answer, an account that exists from one that does not: both
// wait for the queue ahead and one hash, and both are refused as busy when
// that wait is too long.
func (q *hashQueue) imitate(ctx context.Context) error {
	ahead := q.waiting.Load()
	if len(q.slots) < cap(q.slots) {
		ahead = 0
	}
	est := q.estimate(ahead)
	if ahead >= q.maxQueue || est > q.maxWait {
		return busy(retryAfter(est), fmt.Errorf("%d sign-ins wait for a password check (about %s)", ahead, est.Round(time.Millisecond)))
	}
	t := time.NewTimer(est + time.Duration(q.perHash.Load()))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return busy(time.Duration(retryAfterSeconds)*time.Second, ctx.Err())
	}
}

func (q *hashQueue) releaser() func() {
	start := time.Now()
	return func() {
		d := int64(time.Since(start))
		// An exponential moving average over about 16 hashes.
		old := q.perHash.Load()
		q.perHash.Store(old + (d-old)/16)
		<-q.slots
	}
}

// retryAfter spreads the retries of refused sign-ins over the time the
// queue needs to drain: at half the estimated wait, between 1 and 30 s
// (the browser adds jitter).
func retryAfter(est time.Duration) time.Duration {
	return min(max(est/2, time.Second), 30*time.Second)
}

// retryAfterSeconds is the pause asked of a client that went away while
// queued (it rarely reads it).
const retryAfterSeconds = 5

// busy is the answer when a sign-in cannot wait for a password check: the
// queue is full, or the request ended while waiting (then the client has
// usually gone, so it is not logged as a failure).
func busy(wait time.Duration, cause error) error {
	secs := int((wait + time.Second - 1) / time.Second)
	return fmt.Errorf("%w (%w)", &domain.UserError{Kind: domain.ErrTooManyRequests, Code: CodeServerBusy,
		Message: "El servidor está ocupado. Intente de nuevo en un momento.", Details: map[string]int{"retryAfterSeconds": secs}}, cause)
}
