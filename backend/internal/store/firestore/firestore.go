// Package firestore is the store for deployments on Google Cloud: Cloud
// Firestore in Native mode through the Firebase Admin SDK, selected with
// DATABASE_URL=firestore://PROJECT_ID. Several server instances can share
// it.
//
// Firestore has no unique indexes, no joins and no multi-statement SQL, so
// the rules the SQL stores leave to the database are written here: every
// write runs in a Firestore transaction whose reads take the documents it
// depends on, and uniqueness (one mail per user, one active group per
// tutor, one attempt in progress per student, one job per subject, ...)
// is a document with a deterministic ID read and created in the same
// transaction. docs/store-firestore.md describes the data model.
//
// The files follow sqlstore's areas (users.go, groups.go, ...); tx.go holds
// the transaction with buffered writes, query.go the queries, doc.go the
// helpers that turn documents into domain values and back.
package firestore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/store"
)

// Collection names. users, groupStudents (with its estudiantes), degree
// and their field names are the ones the product's earlier Firebase app
// used, so its data reads as is; the others are this server's.
const (
	colUsers         = "users"
	colCredentials   = "credentials"
	colUserMails     = "userMails"
	colIdentities    = "identities"
	colSessions      = "sessions"
	colDegrees       = "degree"
	colDegreeNames   = "degreeNames"
	colGroups        = "groupStudents"
	colMembers       = "estudiantes" // under each groupStudents document
	colActiveGroups  = "activeGroups"
	colActiveMembers = "activeMembers"
	colStorage       = "storageUsage"
	colTakes         = "takes" // under each attempt, one per phase
	colCases         = "cases"
	colCaseTitles    = "caseTitles"
	colBlueprints    = "blueprints"
	colRubrics       = "rubrics"
	colMeta          = "meta"
	colAttempts      = "attempts"
	colInProgress    = "inProgressAttempts"
	colRecordings    = "recordings"  // under each attempt
	colChunks        = "chunks"      // under each recording
	colTranscripts   = "transcripts" // under each attempt, one per recording
	colJobs          = "jobs"
	colJobSubjects   = "jobSubjects"
	colTokens        = "oneTimeTokens"
	colMFA           = "mfa"
	colStoreState    = "storeState" // the adapter's own bookkeeping (one-time backfills)
)

// Store is a store.Store on Cloud Firestore. Inside InTx, tx is the
// transaction every read and write goes through.
type Store struct {
	c       *firestore.Client
	project string
	tx      *txn
}

var _ store.Store = (*Store)(nil)

// Open connects to the project's (default) database, through the emulator
// when FIRESTORE_EMULATOR_HOST is set, checks that it answers and stores
// the seed data a fresh install needs. Bound ctx: an unreachable
// Firestore is retried until ctx ends.
func Open(ctx context.Context, projectID string) (*Store, error) {
	s, err := connect(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if err := s.seed(ctx); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("seed Firestore in project %s: %w", projectID, err)
	}
	if err := s.backfillMemberships(ctx); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("active-group memberships in project %s: %w", projectID, err)
	}
	return s, nil
}

// connect makes the project's client and checks that the database answers.
func connect(ctx context.Context, projectID string) (*Store, error) {
	app, err := gcloud.NewApp(ctx, projectID)
	if err != nil {
		return nil, err
	}
	c, err := app.Firestore(ctx)
	if err != nil {
		return nil, fmt.Errorf("firestore client: %w", err)
	}
	s := &Store{c: c, project: projectID}
	if err := s.Ping(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("reach Firestore in project %s: %w", projectID, err)
	}
	return s, nil
}

// Project is the Google Cloud project the store uses.
func (s *Store) Project() string { return s.project }

// Ping reads one document that is never written (health/ping): it proves
// the database answers and the credentials are accepted.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.c.Collection("health").Doc("ping").Get(ctx)
	if err != nil && status.Code(err) != codes.NotFound {
		return err
	}
	return nil
}

// Close closes the client; inside InTx it does nothing.
func (s *Store) Close() error {
	if s.tx != nil {
		return nil
	}
	return s.c.Close()
}

// seed gives a fresh database the degree the SQL migrations create, unless
// a degree of that name already exists (the earlier app's data), also
// spelt in another case or without its accents ("DERECHO", "derecho").
func (s *Store) seed(ctx context.Context) error {
	degrees, err := s.ListDegrees(ctx)
	if err != nil {
		return err
	}
	for _, d := range degrees {
		if domain.FoldName(d.Nombre) == domain.FoldName(store.SeedDegree.Nombre) {
			return nil
		}
	}
	err = s.CreateDegree(ctx, store.SeedDegree)
	if errors.Is(err, domain.ErrConflict) {
		return nil
	}
	return err
}

// InTx runs fn in one Firestore transaction (see store.Store.InTx for
// what fn may rely on). fn runs again when Firestore aborts the
// transaction because another one touched the same documents.
func (s *Store) InTx(ctx context.Context, fn func(store.Store) error) error {
	if s.tx != nil {
		return fn(s)
	}
	return s.runTx(ctx, func(t *txn) error {
		return fn(&Store{c: s.c, project: s.project, tx: t})
	})
}

// write runs fn in the current transaction, or in a new one.
func (s *Store) write(ctx context.Context, fn func(t *txn) error) error {
	if s.tx != nil {
		return fn(s.tx)
	}
	return s.runTx(ctx, fn)
}

// read returns what reads go through: the transaction inside InTx,
// otherwise the database directly.
func (s *Store) read() reader {
	if s.tx != nil {
		return s.tx
	}
	return direct{s.c}
}

// maxTxAttempts bounds how often a transaction that keeps losing to
// others is run.
const maxTxAttempts = 30

// runTx runs fn in a transaction, again after a random pause when
// Firestore aborts it for contention. The client library can retry by
// itself, but its pauses start at one second: contention here is brief
// (two tabs, two workers, a sign-in racing a sign-out). The pause is
// drawn from [0, p), p starting at 20 ms and doubling up to 2 s, so
// transactions that collided spread out instead of colliding again.
func (s *Store) runTx(ctx context.Context, fn func(t *txn) error) error {
	pause := 20 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
			t := newTxn(ctx, s.c, tx)
			if err := fn(t); err != nil {
				return err
			}
			return t.flush()
		}, firestore.MaxAttempts(1))
		if err == nil {
			return nil
		}
		if status.Code(err) != codes.Aborted || attempt == maxTxAttempts {
			return mapErr(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(pause)):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// mapErr turns Firestore's status codes into the domain's sentinels.
func mapErr(err error) error {
	switch status.Code(err) {
	case codes.NotFound:
		return fmt.Errorf("%w: %v", domain.ErrNotFound, err)
	case codes.AlreadyExists:
		return fmt.Errorf("%w: %v", domain.ErrConflict, err)
	}
	return err
}
