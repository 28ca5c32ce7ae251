// Package migrate copies everything the simulator stores from one store to
// another: every record (store.Transfer) and every recording's audio
// (media.Transfer), keeping IDs. A run plans by comparing what is on both
// sides, refuses a destination that holds other data, copies what is
// missing, and verifies both sides at the end; running it again copies
// nothing, and a run that was stopped finishes when run again.
// docs/migrate-data.md explains the design.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
)

// Side is one end of a migration.
type Side struct {
	// Name says which store it is, for messages; never a password.
	Name  string
	Store store.Transfer
	// MediaName says where the audio is ("directory …", "bucket gs://…");
	// the same name on both sides means the same place.
	MediaName string
	Media     media.Transfer
}

// Options configure a run.
type Options struct {
	From, To Side
	// Overwrite replaces destination records and audio that differ from
	// the source's; without it they stop the run before anything is written.
	Overwrite bool
	// DryRun plans and reports without writing anything.
	DryRun bool
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
	// StopAfter, when positive, stops the run as a kill would once it has
	// written that many records and recordings (for tests).
	StopAfter int
}

// ErrInterrupted is returned when a run stopped before it finished (see
// Options.StopAfter); running it again finishes the job.
var ErrInterrupted = errors.New("the migration stopped before it finished; run it again to finish")

// pageSize is how many records are read, compared or written at a time.
const pageSize = 200

// mediaWorkers is how many recordings are checked or copied at once: the
// work waits on the network (a bucket) or the disk, not on a core.
const mediaWorkers = 8

// run is one migration under way.
type run struct {
	Options
	ctx     context.Context
	report  *Report
	written int
	// toCopy lists, per kind, the keys of the records to write.
	toCopy map[store.Kind][]string
	// mediaPlan lists the recordings whose audio is to be copied.
	mediaPlan []mediaJob
	start     time.Time
	logMu     sync.Mutex
}

// Run migrates. The report is filled as far as the run went; the error
// says why it did not finish or what the verification found wrong.
func Run(ctx context.Context, opts Options) (*Report, error) {
	r := &run{Options: opts, ctx: ctx, report: &Report{DryRun: opts.DryRun, SameMedia: opts.From.MediaName == opts.To.MediaName},
		toCopy: map[store.Kind][]string{}}
	if r.Progress == nil {
		r.Progress = io.Discard
	}
	r.start = time.Now()
	defer func() { r.report.Elapsed = time.Since(r.start) }()

	r.logf("plan: comparing %s with %s", opts.From.Name, opts.To.Name)
	if err := r.planRecords(); err != nil {
		return r.report, err
	}
	if err := r.planMedia(); err != nil {
		return r.report, err
	}
	if n := len(r.report.Problems); n > 0 {
		return r.report, fmt.Errorf("the plan found %d problems: nothing was written", n)
	}
	if r.DryRun {
		return r.report, nil
	}
	// Audio first: a recording's record never reaches the destination
	// before its audio does.
	if err := r.copyMedia(); err != nil {
		return r.report, err
	}
	if err := r.copyRecords(); err != nil {
		return r.report, err
	}
	if err := r.verify(); err != nil {
		return r.report, err
	}
	if n := len(r.report.Problems); n > 0 {
		return r.report, fmt.Errorf("verification failed (%d problems)", n)
	}
	return r.report, nil
}

func (r *run) logf(format string, args ...any) {
	r.logMu.Lock()
	defer r.logMu.Unlock()
	fmt.Fprintf(r.Progress, "%7s  "+format+"\n", append([]any{time.Since(r.start).Round(100 * time.Millisecond)}, args...)...)
}

func (r *run) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.report.Problems = append(r.report.Problems, msg)
	r.logf("problem: %s", msg)
}

// count notes n more written things and stops the run at StopAfter.
func (r *run) count(n int) error {
	r.written += n
	if r.StopAfter > 0 && r.written >= r.StopAfter {
		r.report.Interrupted = true
		return ErrInterrupted
	}
	return r.ctx.Err()
}

// planRecords compares every source record with the destination's record
// of the same key: missing ones are to copy, equal ones are left, different
// ones are conflicts (or, with Overwrite, to copy). Destination records of
// a kind that the source lacks are conflicts too: the destination holds
// data that did not come from here.
func (r *run) planRecords() error {
	for _, kind := range store.Kinds {
		k := r.report.kind(kind)
		var conflicts, claiming []string
		var seedGivesWay seedCheck
		mails := map[string]string{}
		err := eachPage(r.ctx, r.From.Store, kind, func(recs []store.Record) error {
			k.Source += int64(len(recs))
			switch kind {
			case store.KindDegrees:
				seedGivesWay.see(recs)
			case store.KindUsers:
				r.checkMails(mails, recs)
			}
			keys := make([]string, len(recs))
			for i, rec := range recs {
				keys[i] = rec.Key
			}
			there, err := r.To.Store.ExportKeys(r.ctx, kind, keys)
			if err != nil {
				return fmt.Errorf("read %s from the destination: %w", kind, err)
			}
			byKey := make(map[string]store.Record, len(there))
			for _, rec := range there {
				byKey[rec.Key] = rec
			}
			for _, rec := range recs {
				d, ok := byKey[rec.Key]
				write := false
				switch {
				case !ok:
					write = true
				case recordHash(d) == recordHash(rec):
					k.Present++
				default:
					k.Different++
					if r.Overwrite {
						write = true
					} else {
						conflicts = append(conflicts, rec.Key)
					}
				}
				switch {
				case !write:
				case holdsClaim(rec):
					claiming = append(claiming, rec.Key)
				default:
					r.toCopy[kind] = append(r.toCopy[kind], rec.Key)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		r.toCopy[kind] = append(r.toCopy[kind], claiming...)
		k.ToCopy = int64(len(r.toCopy[kind]))
		if len(conflicts) > 0 {
			r.problem("%s: %d records differ at the destination (e.g. %s); --overwrite replaces them with the source's", kind, len(conflicts), sample(conflicts))
		}
		destCount, err := r.To.Store.CountRecords(r.ctx, kind)
		if err != nil {
			return fmt.Errorf("count %s at the destination: %w", kind, err)
		}
		extra := destCount - k.Present - k.Different
		if extra > 0 && kind == store.KindDegrees {
			seed, err := seedGivesWay.atDestination(r)
			if err != nil {
				return err
			}
			if seed {
				extra--
				r.logf("plan: the destination's seed degree %s (%s) gives way to the source's of that name", store.SeedDegree.Nombre, store.SeedDegree.ID)
			}
		}
		if extra > 0 {
			r.problem("%s: the destination holds %d records the source does not have (migrate into an empty database: "+
				"a server started on it first loads the demo case bank, for instance)", kind, extra)
		}
		r.logf("plan: %-17s %6d in the source, %6d already at the destination, %6d to copy", kind, k.Source, k.Present, k.ToCopy)
	}
	return nil
}

// checkMails reports two source profiles with one mail (in another case,
// say): every store keeps one profile per mail, so the second could not be
// written. The earlier app's Firestore may hold such pairs, and adopt
// leaves them for the operator to settle.
func (r *run) checkMails(seen map[string]string, recs []store.Record) {
	for _, rec := range recs {
		u, ok := rec.Value.(store.UserRecord)
		if !ok {
			return
		}
		mail := domain.NormalizeEmail(u.User.Mail)
		if other, dup := seen[mail]; dup {
			r.problem("users: %s and %s have the same mail %s; change or delete one of them at the source", other, rec.Key, mail)
			continue
		}
		seen[mail] = rec.Key
	}
}

// seedCheck finds whether the destination's seed degree (store.SeedDegree)
// is to give way to a source degree of its name under another ID, as the
// earlier app's Derecho does when it moves into a fresh SQL database: the
// seed then is not data the destination holds, and the import replaces it.
type seedCheck struct {
	sourceHasID, sourceHasName bool
}

func (c *seedCheck) see(recs []store.Record) {
	for _, rec := range recs {
		d, ok := rec.Value.(domain.Degree)
		if !ok {
			return
		}
		c.sourceHasID = c.sourceHasID || d.ID == store.SeedDegree.ID
		c.sourceHasName = c.sourceHasName || d.Nombre == store.SeedDegree.Nombre
	}
}

func (c *seedCheck) atDestination(r *run) (bool, error) {
	if c.sourceHasID || !c.sourceHasName {
		return false, nil
	}
	there, err := r.To.Store.ExportKeys(r.ctx, store.KindDegrees, []string{store.SeedDegree.ID})
	if err != nil {
		return false, fmt.Errorf("read degrees from the destination: %w", err)
	}
	return len(there) == 1 && there[0].Value == store.SeedDegree, nil
}

// holdsClaim reports whether a record takes one of the claims a store
// keeps unique beside the record's key: an active group (its tutor's one
// active group, its students' memberships), an attempt in progress (its
// student's one), the current LTI signing key. Such records are written
// after the others of their kind, so that a record that gave its claim up
// at the source since an earlier run (a group finalized, an attempt
// finished, a key retired by a rotation) frees it at the destination
// before another record takes it.
func holdsClaim(rec store.Record) bool {
	switch v := rec.Value.(type) {
	case domain.Group:
		return v.Status == domain.GroupActive
	case domain.Attempt:
		return v.Status == domain.AttemptInProgress
	case domain.LTIKey:
		return v.RetiredAt == nil
	}
	return false
}

func sample(keys []string) string {
	const show = 3
	if len(keys) <= show {
		return fmt.Sprint(keys)
	}
	return fmt.Sprintf("%v and %d more", keys[:show], len(keys)-show)
}

// eachPage calls fn with every page of kind in s.
func eachPage(ctx context.Context, s store.Exporter, kind store.Kind, fn func([]store.Record) error) error {
	cursor := ""
	for {
		recs, next, err := s.ExportPage(ctx, kind, cursor, pageSize)
		if err != nil {
			return fmt.Errorf("read %s: %w", kind, err)
		}
		if len(recs) > 0 {
			if err := fn(recs); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

// copyRecords writes the planned records, kind by kind in the order of
// store.Kinds, reading each batch from the source again.
func (r *run) copyRecords() error {
	for _, kind := range store.Kinds {
		keys := r.toCopy[kind]
		k := r.report.kind(kind)
		for len(keys) > 0 {
			n := min(len(keys), pageSize)
			if r.StopAfter > 0 {
				n = min(n, r.StopAfter-r.written)
			}
			batch := keys[:n]
			recs, err := r.From.Store.ExportKeys(r.ctx, kind, batch)
			if err != nil {
				return fmt.Errorf("read %s from the source: %w", kind, err)
			}
			// In the key order of the plan, so a rerun goes the same way.
			at := make(map[string]int, len(batch))
			for i, key := range batch {
				at[key] = i
			}
			slices.SortFunc(recs, func(a, b store.Record) int { return at[a.Key] - at[b.Key] })
			if err := r.To.Store.ImportRecords(r.ctx, recs); err != nil {
				return fmt.Errorf("write %s to the destination: %w", kind, err)
			}
			k.Copied += len(recs)
			keys = keys[n:]
			if err := r.count(len(recs)); err != nil {
				return err
			}
		}
		if k.Copied > 0 {
			r.logf("copy: %-17s %6d records written", kind, k.Copied)
		}
	}
	return nil
}
