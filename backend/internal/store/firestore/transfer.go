package firestore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"cloud.google.com/go/firestore"
	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"golang.org/x/sync/errgroup"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// Export and import for `simulador migrate-data` (docs/migrate-data.md).
// Each kind is one entry of transferKinds: the collection of its main
// documents, how a document becomes a record (with the …From functions
// the store's own methods use, so a new field reaches the migration once
// they read it) and how a record is written back as it is, with the key
// documents that keep the store's uniqueness rules. A new kind is a new
// entry here and in sqlstore's transfer.go, and a constant in store.Kinds.

var _ store.Transfer = (*Store)(nil)

// transferKind is how one kind is exported and imported.
type transferKind struct {
	coll  string // the collection of the main documents
	group bool   // a subcollection under every attempt: read as a collection group
	// ref is the main document of a key.
	ref func(s *Store, key string) *firestoreRef
	// decode turns main documents into records, reading what else they
	// need (credentials, a group's students, a recording's chunks).
	decode func(ctx context.Context, s *Store, r reader, docs []doc) ([]store.Record, error)
	// put writes v as it is, in t.
	put func(ctx context.Context, s *Store, t *txn, v any) error
	// writes estimates how many documents put writes, to size transactions.
	writes func(v any) int
}

func byID(coll string) func(s *Store, key string) *firestoreRef {
	return func(s *Store, key string) *firestoreRef { return s.ref(coll, key) }
}

// each decodes documents one by one with from.
func each(kind store.Kind, from func(d doc) (store.Record, error)) func(context.Context, *Store, reader, []doc) ([]store.Record, error) {
	return func(_ context.Context, _ *Store, _ reader, docs []doc) ([]store.Record, error) {
		out := make([]store.Record, 0, len(docs))
		for _, d := range docs {
			rec, err := from(d)
			if err != nil {
				return nil, err
			}
			rec.Kind = kind
			out = append(out, rec)
		}
		return out, nil
	}
}

func oneWrite(any) int { return 1 }

var transferKinds = map[store.Kind]transferKind{
	store.KindUsers: {
		coll: colUsers, ref: byID(colUsers),
		decode: func(ctx context.Context, s *Store, r reader, docs []doc) ([]store.Record, error) {
			refs := make([]*firestoreRef, len(docs))
			for i, d := range docs {
				refs[i] = s.ref(colCredentials, d.ref.ID)
			}
			creds, err := r.getAll(ctx, refs)
			if err != nil {
				return nil, err
			}
			out := make([]store.Record, len(docs))
			for i, d := range docs {
				u, _ := userFrom(d)
				out[i] = store.Record{Kind: store.KindUsers, Key: u.ID, Value: store.UserRecord{User: u, PasswordHash: creds[i].data.str("passwordHash")}}
			}
			return out, nil
		},
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			r := v.(store.UserRecord)
			u := r.User
			ref := s.ref(colUsers, u.ID)
			d, err := t.get(ctx, ref)
			if err != nil {
				return err
			}
			mail := domain.NormalizeEmail(u.Mail)
			if old := domain.NormalizeEmail(d.data.str("mail")); d.exists && old != mail {
				if err := s.releaseMail(ctx, t, old, u.ID); err != nil {
					return err
				}
			}
			if err := s.claimMail(ctx, t, mail, u.ID); err != nil {
				return err
			}
			t.set(ref, userFields(u))
			if cred := s.ref(colCredentials, u.ID); r.PasswordHash != "" {
				t.set(cred, map[string]any{"passwordHash": r.PasswordHash})
			} else {
				t.delete(cred)
			}
			return nil
		},
		writes: func(any) int { return 4 },
	},
	store.KindMFA: {
		coll: colMFA, ref: byID(colMFA),
		decode: each(store.KindMFA, func(d doc) (store.Record, error) {
			m, err := mfaFrom(d)
			return store.Record{Key: m.UserID, Value: m}, err
		}),
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			m := v.(domain.MFA)
			t.set(s.ref(colMFA, m.UserID), mfaFields(m))
			return nil
		},
		writes: oneWrite,
	},
	store.KindIdentities: {
		coll: colIdentities,
		ref: func(s *Store, key string) *firestoreRef {
			provider, subject := store.SplitKey(key)
			return s.ref(colIdentities, provider, subject)
		},
		decode: each(store.KindIdentities, func(d doc) (store.Record, error) {
			id := domain.Identity{Provider: d.data.str("provider"), Subject: d.data.str("subject"), UserID: d.data.str("userId")}
			return store.Record{Key: store.IdentityKey(id.Provider, id.Subject), Value: id}, nil
		}),
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			id := v.(domain.Identity)
			t.set(s.ref(colIdentities, id.Provider, id.Subject), map[string]any{"provider": id.Provider, "subject": id.Subject, "userId": id.UserID})
			return nil
		},
		writes: oneWrite,
	},
	store.KindDegrees: {
		coll: colDegrees, ref: byID(colDegrees),
		decode: each(store.KindDegrees, func(d doc) (store.Record, error) {
			dg, err := degreeFrom(d)
			return store.Record{Key: dg.ID, Value: dg}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			dg := v.(domain.Degree)
			ref := s.ref(colDegrees, dg.ID)
			key := func(name string) *firestoreRef { return s.ref(colDegreeNames, name) }
			if err := s.moveKey(ctx, t, ref, "nombre", key, dg.Nombre, "degreeId", dg.ID); err != nil {
				return fmt.Errorf("degree %q: %w", dg.Nombre, err)
			}
			// Degrees the earlier app wrote have no key document.
			same, err := t.query(ctx, collection(colDegrees).whereEq("nombre", dg.Nombre).take(2))
			if err != nil {
				return err
			}
			for _, d := range same {
				if d.ref.ID != ref.ID {
					return fmt.Errorf("degree %q: %w", dg.Nombre, domain.ErrConflict)
				}
			}
			t.set(ref, map[string]any{"nombre": dg.Nombre})
			return nil
		},
		writes: func(any) int { return 3 },
	},
	store.KindGroups: {
		coll: colGroups, ref: byID(colGroups),
		decode: func(ctx context.Context, s *Store, r reader, docs []doc) ([]store.Record, error) {
			out := make([]store.Record, len(docs))
			for i, d := range docs {
				g, _ := groupFrom(d)
				g, err := s.withMembers(ctx, r, g)
				if err != nil {
					return nil, err
				}
				slices.SortFunc(g.Estudiantes, func(a, b domain.GroupStudent) int { return strings.Compare(a.Email, b.Email) })
				out[i] = store.Record{Kind: store.KindGroups, Key: g.ID, Value: g}
			}
			return out, nil
		},
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			g := v.(domain.Group)
			if err := s.putActiveGroupLock(ctx, t, g); err != nil {
				return err
			}
			if err := s.putMemberships(ctx, t, g); err != nil {
				return err
			}
			ref := s.ref(colGroups, g.ID)
			t.set(ref, groupFields(g))
			students := store.UniqueStudents(g.Estudiantes)
			keep := make(map[string]bool, len(students))
			for _, st := range students {
				m := s.memberRef(g.ID, st.Email)
				keep[m.Path] = true
				t.set(m, map[string]any{"email": st.Email, "name": st.Name, "addedAt": ts(st.AddedAt), "attempts": []any{}})
			}
			return s.deleteOthers(ctx, t, subcollection(ref, colMembers), keep)
		},
		// The group, its tutor's lock, and per student a member and a
		// membership document.
		writes: func(v any) int { return 3 + 2*len(v.(domain.Group).Estudiantes) },
	},
	store.KindCases: {
		coll: colCases, ref: byID(colCases),
		decode: each(store.KindCases, func(d doc) (store.Record, error) {
			c, err := caseFrom(d)
			return store.Record{Key: c.ID, Value: c}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			c := v.(domain.Case)
			ref := s.ref(colCases, c.ID)
			d, err := t.get(ctx, ref)
			if err != nil {
				return err
			}
			newKey := s.caseTitleRef(c.DegreeID, c.Title)
			if d.exists {
				if old := s.caseTitleRef(d.data.str("degreeId"), d.data.str("title")); old.Path != newKey.Path {
					if err := s.releaseKey(ctx, t, old, "caseId", c.ID); err != nil {
						return err
					}
				}
			}
			if err := s.claimKey(ctx, t, newKey, "caseId", c.ID); err != nil {
				return fmt.Errorf("case %q: %w", c.Title, err)
			}
			t.set(ref, caseFields(c))
			return nil
		},
		writes: func(any) int { return 3 },
	},
	store.KindBlueprints: {
		coll: colBlueprints, ref: byID(colBlueprints),
		decode: each(store.KindBlueprints, func(d doc) (store.Record, error) {
			var b store.BlueprintRecord
			var err error
			b.Blueprint, err = storedjson.DecodeBlueprint([]byte(d.data.str("data")))
			b.UpdatedAt = d.data.time("updatedAt")
			return store.Record{Key: d.ref.ID, Value: b}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			b := v.(store.BlueprintRecord)
			return s.PutBlueprint(ctx, b.Blueprint, b.UpdatedAt)
		},
		writes: oneWrite,
	},
	store.KindRubrics: {
		coll: colRubrics, ref: byID(colRubrics),
		decode: each(store.KindRubrics, func(d doc) (store.Record, error) {
			var r store.RubricRecord
			var err error
			r.Rubric, err = storedjson.DecodeRubric([]byte(d.data.str("data")))
			r.UpdatedAt = d.data.time("updatedAt")
			return store.Record{Key: d.ref.ID, Value: r}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			r := v.(store.RubricRecord)
			return s.PutRubric(ctx, r.Rubric, r.UpdatedAt)
		},
		writes: oneWrite,
	},
	store.KindMeta: {
		coll: colMeta, ref: byID(colMeta),
		decode: each(store.KindMeta, func(d doc) (store.Record, error) {
			return store.Record{Key: d.ref.ID, Value: store.MetaRecord{Key: d.ref.ID, Value: d.data.str("value")}}, nil
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			m := v.(store.MetaRecord)
			return s.SetMeta(ctx, m.Key, m.Value)
		},
		writes: oneWrite,
	},
	store.KindLTIPlatforms: {
		coll: colLTIPlatforms, ref: byID(colLTIPlatforms),
		decode: each(store.KindLTIPlatforms, func(d doc) (store.Record, error) {
			p, err := platformFrom(d)
			return store.Record{Key: p.ID, Value: p}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			p := v.(domain.LTIPlatform)
			ref := s.ref(colLTIPlatforms, p.ID)
			d, err := t.get(ctx, ref)
			if err != nil {
				return err
			}
			keyOf := func(issuer, clientID string) *firestoreRef { return s.ref(colLTIPlatformKeys, issuer, clientID) }
			if old := keyOf(d.data.str("issuer"), d.data.str("clientId")); d.exists && old.Path != keyOf(p.Issuer, p.ClientID).Path {
				if err := s.releaseKey(ctx, t, old, "platformId", p.ID); err != nil {
					return err
				}
			}
			if err := s.claimKey(ctx, t, keyOf(p.Issuer, p.ClientID), "platformId", p.ID); err != nil {
				return fmt.Errorf("platform %s with client id %s: %w", p.Issuer, p.ClientID, err)
			}
			t.set(ref, platformFields(p))
			return nil
		},
		writes: func(any) int { return 3 },
	},
	store.KindLTIKeys: {
		coll: colLTIKeys, ref: byID(colLTIKeys),
		decode: each(store.KindLTIKeys, func(d doc) (store.Record, error) {
			k, err := keyFrom(d)
			return store.Record{Key: k.ID, Value: k}, err
		}),
		// At most one key is current, as AddLTIKey keeps it: every key is
		// read (there are a handful).
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			k := v.(domain.LTIKey)
			ref := s.ref(colLTIKeys, k.ID)
			if k.RetiredAt == nil {
				keys, err := t.query(ctx, collection(colLTIKeys))
				if err != nil {
					return err
				}
				for _, d := range keys {
					if d.ref.ID != ref.ID && d.data["retiredAt"] == nil {
						return fmt.Errorf("key %s is current: %w", d.ref.ID, domain.ErrConflict)
					}
				}
			}
			t.set(ref, keyFields(k))
			return nil
		},
		writes: oneWrite,
	},
	store.KindLTICourses: {
		coll: colLTICourses, ref: byID(colLTICourses),
		decode: each(store.KindLTICourses, func(d doc) (store.Record, error) {
			c, err := courseFrom(d)
			return store.Record{Key: c.ID, Value: c}, err
		}),
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			c := v.(domain.LTICourse)
			t.set(s.ref(colLTICourses, c.ID), courseFields(c))
			return nil
		},
		writes: oneWrite,
	},
	store.KindLTICourseTutors: {
		coll: colLTICourseTutors,
		ref: func(s *Store, key string) *firestoreRef {
			course, user := store.SplitKey(key)
			return s.ref(colLTICourseTutors, course, user)
		},
		decode: each(store.KindLTICourseTutors, func(d doc) (store.Record, error) {
			r := store.LTICourseTutorRecord{CourseID: d.data.str("courseId"), UserID: d.data.str("userId"), LaunchedAt: d.data.time("launchedAt")}
			return store.Record{Key: store.LTICourseTutorKey(r.CourseID, r.UserID), Value: r}, nil
		}),
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			r := v.(store.LTICourseTutorRecord)
			t.set(s.ref(colLTICourseTutors, r.CourseID, r.UserID), courseTutorFields(r.CourseID, r.UserID, r.LaunchedAt))
			return nil
		},
		writes: oneWrite,
	},
	store.KindLTISubjects: {
		coll: colLTISubjects,
		ref: func(s *Store, key string) *firestoreRef {
			platform, email := store.SplitKey(key)
			return s.subjectRef(platform, email)
		},
		decode: each(store.KindLTISubjects, func(d doc) (store.Record, error) {
			sub, err := subjectFrom(d)
			return store.Record{Key: store.LTISubjectKey(sub.PlatformID, sub.Email), Value: sub}, err
		}),
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			sub := v.(domain.LTISubject)
			t.set(s.subjectRef(sub.PlatformID, sub.Email), subjectFields(sub))
			return nil
		},
		writes: oneWrite,
	},
	store.KindLTIGroupLinks: {
		coll: colLTIGroupLinks, ref: byID(colLTIGroupLinks),
		decode: each(store.KindLTIGroupLinks, func(d doc) (store.Record, error) {
			l, err := groupLinkFrom(d)
			return store.Record{Key: l.GroupID, Value: l}, err
		}),
		// Replaced whole, its creation time included (PutLTIGroupLink
		// keeps the first one).
		put: func(_ context.Context, s *Store, t *txn, v any) error {
			l := v.(domain.LTIGroupLink)
			t.set(s.ref(colLTIGroupLinks, l.GroupID), groupLinkFields(l))
			return nil
		},
		writes: oneWrite,
	},
	store.KindAttempts: {
		coll: colAttempts, ref: byID(colAttempts),
		decode: each(store.KindAttempts, func(d doc) (store.Record, error) {
			a, err := attemptFrom(d)
			return store.Record{Key: a.ID, Value: a}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			a := v.(domain.Attempt)
			lock := s.ref(colInProgress, a.StudentID)
			l, err := t.get(ctx, lock)
			if err != nil {
				return err
			}
			switch {
			case a.Status == domain.AttemptInProgress:
				if l.exists && l.data.str("attemptId") != a.ID {
					cur, err := t.get(ctx, s.ref(colAttempts, l.data.str("attemptId")))
					if err != nil {
						return err
					}
					if cur.exists && cur.data.str("status") == string(domain.AttemptInProgress) {
						return fmt.Errorf("student %s has another attempt in progress: %w", a.StudentID, domain.ErrConflict)
					}
				}
				t.set(lock, map[string]any{"attemptId": a.ID})
			case l.exists && l.data.str("attemptId") == a.ID:
				t.delete(lock)
			}
			f := attemptFields(a)
			f["version"] = int64(a.Version)
			t.set(s.ref(colAttempts, a.ID), f)
			return nil
		},
		writes: func(any) int { return 2 },
	},
	store.KindRecordings: {
		coll: colRecordings, group: true,
		ref: func(s *Store, key string) *firestoreRef {
			a, r := store.SplitKey(key)
			return s.recordingRef(a, r)
		},
		decode: func(ctx context.Context, s *Store, r reader, docs []doc) ([]store.Record, error) {
			out := make([]store.Record, len(docs))
			// One query per recording for its chunks: a few at once, each a
			// round trip.
			g, gctx := errgroup.WithContext(ctx)
			g.SetLimit(8)
			for i, d := range docs {
				g.Go(func() error {
					rec, err := recordingFrom(d)
					if err != nil {
						return err
					}
					chunkDocs, err := r.query(gctx, subcollection(d.ref, colChunks))
					if err != nil {
						return err
					}
					chunks, _ := decodeAll(chunkDocs, chunkFrom)
					slices.SortFunc(chunks, func(a, b domain.ChunkInfo) int { return a.Seq - b.Seq })
					out[i] = store.Record{Kind: store.KindRecordings, Key: store.RecordingKey(rec.AttemptID, rec.ID),
						Value: store.RecordingRecord{Recording: rec, Chunks: chunks}}
					return nil
				})
			}
			return out, g.Wait()
		},
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			r := v.(store.RecordingRecord)
			rec := r.Recording
			rec.Chunks, rec.Bytes = len(r.Chunks), 0
			ref := s.recordingRef(rec.AttemptID, rec.ID)
			keep := make(map[string]bool, len(r.Chunks))
			for _, c := range r.Chunks {
				rec.Bytes += c.Bytes
				cref := s.chunkRef(rec.AttemptID, rec.ID, c.Seq)
				keep[cref.Path] = true
				t.set(cref, chunkFields(c))
			}
			if err := s.countImportedBytes(ctx, t, ref, rec); err != nil {
				return err
			}
			t.set(ref, recordingFields(rec))
			return s.deleteOthers(ctx, t, subcollection(ref, colChunks), keep)
		},
		// The recording, its chunks and its student's storage total.
		writes: func(v any) int { return 2 + len(v.(store.RecordingRecord).Chunks) },
	},
	store.KindTranscripts: {
		coll: colTranscripts, group: true,
		ref: func(s *Store, key string) *firestoreRef {
			a, r := store.SplitKey(key)
			return s.transcriptRef(a, r)
		},
		decode: each(store.KindTranscripts, func(d doc) (store.Record, error) {
			tr, err := transcriptFrom(d)
			return store.Record{Key: store.RecordingKey(tr.AttemptID, tr.RecordingID), Value: tr}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			return s.PutTranscript(ctx, v.(domain.Transcript))
		},
		writes: oneWrite,
	},
	store.KindJobs: {
		coll: colJobs, ref: byID(colJobs),
		decode: each(store.KindJobs, func(d doc) (store.Record, error) {
			j, err := jobFrom(d)
			return store.Record{Key: j.ID, Value: store.JobRecord{Job: j, LockedUntil: d.data.time("lockedUntil"), UpdatedAt: d.data.time("updatedAt")}}, err
		}),
		put: func(ctx context.Context, s *Store, t *txn, v any) error {
			r := v.(store.JobRecord)
			j := r.Job
			ref := s.ref(colJobs, j.ID)
			d, err := t.get(ctx, ref)
			if err != nil {
				return err
			}
			subjectKey := func(j domain.Job) *firestoreRef { return s.ref(colJobSubjects, j.Kind, j.Subject) }
			if old := (domain.Job{Kind: d.data.str("kind"), Subject: d.data.str("subject")}); d.exists && old.Subject != "" &&
				subjectKey(old).Path != subjectKey(j).Path {
				if err := s.releaseKey(ctx, t, subjectKey(old), "jobId", j.ID); err != nil {
					return err
				}
			}
			if j.Subject != "" {
				if err := s.claimKey(ctx, t, subjectKey(j), "jobId", j.ID); err != nil {
					return fmt.Errorf("a %s job for %q: %w", j.Kind, j.Subject, err)
				}
			}
			t.set(ref, jobFields(j, r.LockedUntil, r.UpdatedAt))
			return nil
		},
		writes: func(any) int { return 3 },
	},
}

func transferKindOf(kind store.Kind) (transferKind, error) {
	k, ok := transferKinds[kind]
	if !ok {
		return k, fmt.Errorf("unknown kind of record %q", kind)
	}
	return k, nil
}

func (k transferKind) query() query {
	if k.group {
		return collectionGroup(k.coll)
	}
	return collection(k.coll)
}

// ExportPage pages through the kind's documents by path; the cursor is
// the path of the last document returned.
func (s *Store) ExportPage(ctx context.Context, kind store.Kind, cursor string, limit int) ([]store.Record, string, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return nil, "", err
	}
	limit = max(limit, 1)
	q := k.query().orderBy(firestore.DocumentID, false).take(limit)
	if cursor != "" {
		q = q.startAfter(s.c.Doc(cursor))
	}
	r := s.read()
	docs, err := r.query(ctx, q)
	if err != nil {
		return nil, "", err
	}
	recs, err := k.decode(ctx, s, r, docs)
	if err != nil || len(docs) < limit {
		return recs, "", err
	}
	return recs, relativePath(docs[len(docs)-1].ref), nil
}

// relativePath is a document's path below the database's documents, as
// Client.Doc takes it.
func relativePath(ref *firestoreRef) string {
	_, rel, _ := strings.Cut(ref.Path, "/documents/")
	return rel
}

func (s *Store) ExportKeys(ctx context.Context, kind store.Kind, keys []string) ([]store.Record, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return nil, err
	}
	r := s.read()
	var out []store.Record
	for batch := range slices.Chunk(keys, 300) {
		refs := make([]*firestoreRef, len(batch))
		for i, key := range batch {
			refs[i] = k.ref(s, key)
		}
		docs, err := r.getAll(ctx, refs)
		if err != nil {
			return nil, err
		}
		recs, err := k.decode(ctx, s, r, existing(docs))
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// CountRecords asks Firestore for a count, which reads no documents.
func (s *Store) CountRecords(ctx context.Context, kind store.Kind) (int64, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return 0, err
	}
	q := k.query().build(s.c)
	res, err := q.NewAggregationQuery().WithCount("n").Get(ctx)
	if err != nil {
		return 0, err
	}
	v, ok := res["n"].(*firestorepb.Value)
	if !ok {
		return 0, fmt.Errorf("count of %s: unexpected answer %T", kind, res["n"])
	}
	return v.GetIntegerValue(), nil
}

// importBudget is about how many documents one import transaction writes:
// records are grouped until they reach it, and a record that writes more
// (a large group, a long recording) gets a transaction of its own.
const importBudget = 400

// ImportRecords writes the records in transactions of several records each;
// each record's documents (main, key documents, students or chunks) are
// written in one.
func (s *Store) ImportRecords(ctx context.Context, records []store.Record) error {
	for start := 0; start < len(records); {
		end, writes := start, 0
		for end < len(records) && (end == start || writes+recordWrites(records[end]) <= importBudget) {
			writes += recordWrites(records[end])
			end++
		}
		batch := records[start:end]
		err := s.write(ctx, func(t *txn) error {
			for _, rec := range batch {
				if err := s.putRecord(ctx, t, rec); err != nil {
					return fmt.Errorf("import %s %s: %w", rec.Kind, rec.Key, err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		start = end
	}
	return nil
}

func recordWrites(rec store.Record) int {
	k, err := transferKindOf(rec.Kind)
	if err != nil {
		return 1
	}
	defer func() { _ = recover() }() // a value of the wrong type fails in putRecord
	return k.writes(rec.Value)
}

// putRecord writes one record in t; a value of the wrong type is an
// error, not a panic.
func (s *Store) putRecord(ctx context.Context, t *txn, rec store.Record) (err error) {
	k, err := transferKindOf(rec.Kind)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("record of kind %s holds a %T: %v", rec.Kind, rec.Value, r)
		}
	}()
	// The methods a put reuses (PutBlueprint, SetMeta…) join t.
	inTx := &Store{c: s.c, project: s.project, tx: t}
	return k.put(ctx, inTx, t, rec.Value)
}

// claimKey makes the key document ref name id (in field), or reports
// domain.ErrConflict when it names another record.
func (s *Store) claimKey(ctx context.Context, t *txn, ref *firestoreRef, field, id string) error {
	k, err := t.get(ctx, ref)
	if err != nil {
		return err
	}
	if k.exists && k.data.str(field) != id {
		return fmt.Errorf("%s is taken by %s: %w", ref.ID, k.data.str(field), domain.ErrConflict)
	}
	if !k.exists {
		t.set(ref, map[string]any{field: id})
	}
	return nil
}

// releaseKey deletes the key document ref if it names id.
func (s *Store) releaseKey(ctx context.Context, t *txn, ref *firestoreRef, field, id string) error {
	k, err := t.get(ctx, ref)
	if err != nil {
		return err
	}
	if k.exists && k.data.str(field) == id {
		t.delete(ref)
	}
	return nil
}

// moveKey points the key document of value (keyOf) at id, releasing the
// one of the value the main document ref had (its field) if it changed.
func (s *Store) moveKey(ctx context.Context, t *txn, ref *firestoreRef, field string, keyOf func(string) *firestoreRef, value, keyField, id string) error {
	d, err := t.get(ctx, ref)
	if err != nil {
		return err
	}
	if old := d.data.str(field); d.exists && old != value {
		if err := s.releaseKey(ctx, t, keyOf(old), keyField, id); err != nil {
			return err
		}
	}
	return s.claimKey(ctx, t, keyOf(value), keyField, id)
}

// putActiveGroupLock keeps activeGroups/{tutor} right for g: an active
// group takes its tutor's lock (refused when another active group holds
// it, or, for the earlier app's groups, is active without one); a group
// that is not active gives up a lock naming it.
func (s *Store) putActiveGroupLock(ctx context.Context, t *txn, g domain.Group) error {
	tutor := domain.NormalizeEmail(g.DocenteEmail)
	old, err := t.get(ctx, s.ref(colGroups, g.ID))
	if err != nil {
		return err
	}
	if was := domain.NormalizeEmail(old.data.sub("docente").str("email")); old.exists && was != tutor {
		if err := s.releaseKey(ctx, t, s.ref(colActiveGroups, was), "groupId", g.ID); err != nil {
			return err
		}
	}
	lock := s.ref(colActiveGroups, tutor)
	if g.Status != domain.GroupActive {
		return s.releaseKey(ctx, t, lock, "groupId", g.ID)
	}
	if cur, err := s.activeGroupOf(ctx, t, tutor); err == nil && cur.ID != g.ID {
		return fmt.Errorf("tutor %s already has an active group: %w", tutor, domain.ErrConflict)
	} else if err != nil && !isNotFound(err) {
		return err
	}
	t.set(lock, map[string]any{"groupId": g.ID})
	return nil
}

// putMemberships keeps activeMembers/{email} right for g: the students of
// an active group are its members, claimed as CreateGroup claims them
// (domain.ErrConflict when one is a member of another active group), and
// a membership g no longer gives (the student left, the group was
// finalized) ends.
func (s *Store) putMemberships(ctx context.Context, t *txn, g domain.Group) error {
	keep := map[string]bool{}
	if g.Status == domain.GroupActive {
		students := store.UniqueStudents(g.Estudiantes)
		err := s.claimMemberships(ctx, t, g.ID, students)
		if taken := (*store.MembersTakenError)(nil); errors.As(err, &taken) {
			return fmt.Errorf("%w: %w", err, domain.ErrConflict)
		} else if err != nil {
			return err
		}
		for _, st := range students {
			keep[s.membershipRef(st.Email).Path] = true
		}
	}
	return s.deleteOthers(ctx, t, collection(colActiveMembers).whereEq("groupId", g.ID), keep)
}

// countImportedBytes keeps the storage total of the student of rec's
// attempt right when the recording at ref is replaced by rec: as
// DeleteChunks and AddChunk do, the document (when it exists) loses the
// bytes of the chunks replaced and gains those of rec's. A student
// without one has it made from their recordings when it is first needed
// (storageUsed), this one included.
func (s *Store) countImportedBytes(ctx context.Context, t *txn, ref *firestoreRef, rec domain.Recording) error {
	docs, err := t.getAll(ctx, []*firestoreRef{ref, s.ref(colAttempts, rec.AttemptID)})
	if err != nil {
		return err
	}
	old, attempt := docs[0], docs[1]
	delta := rec.Bytes - old.data.int("bytes")
	if delta == 0 || attempt.data.str("studentId") == "" {
		return nil
	}
	usage, err := t.get(ctx, s.ref(colStorage, attempt.data.str("studentId")))
	if err != nil || !usage.exists {
		return err
	}
	t.update(usage, map[string]any{"bytes": max(usage.data.int("bytes")+delta, 0)})
	return nil
}

// deleteOthers deletes the documents q reads whose paths keep lacks.
func (s *Store) deleteOthers(ctx context.Context, t *txn, q query, keep map[string]bool) error {
	docs, err := t.query(ctx, q)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if !keep[d.ref.Path] {
			t.delete(d.ref)
		}
	}
	return nil
}
