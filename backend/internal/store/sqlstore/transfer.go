package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// Export and import for `simulador migrate-data` (docs/migrate-data.md).
// Each kind is one entry of transferKinds: where its rows are, how a row
// becomes a record (with the scan functions the store's own methods use,
// so a new column reaches the migration once they read it) and how a
// record is written back as it is. A new kind is a new entry here and in
// the Firestore store's transfer.go, and a constant in store.Kinds.

var _ store.Transfer = (*DB)(nil)

// transferKind is how one kind is exported and imported.
type transferKind struct {
	from    string   // the table (with an alias when columns use one)
	columns string   // the select list
	key     []string // the key columns, as selected; records are paged in their order
	scan    func(r scanner) (store.Record, error)
	// fill completes the records of a page (a group's students, a
	// recording's chunks) once its rows are closed.
	fill func(ctx context.Context, s *DB, recs []store.Record) error
	put  func(ctx context.Context, tx *DB, v any) error
}

var transferKinds = map[store.Kind]transferKind{
	store.KindUsers: {
		from: "users", columns: userColumns + ", password_hash", key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			var v store.UserRecord
			u, err := scanUser(withExtra(r, &v.PasswordHash))
			v.User = u
			return store.Record{Kind: store.KindUsers, Key: u.ID, Value: v}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			r := v.(store.UserRecord)
			_, err := tx.exec(ctx, upsert("users", userColumns+", password_hash", "id"), append(userArgs(r.User), r.PasswordHash)...)
			return err
		},
	},
	store.KindMFA: {
		from: "user_mfa", columns: "user_id", key: []string{"user_id"},
		scan: func(r scanner) (store.Record, error) {
			var id string
			err := r.Scan(&id)
			return store.Record{Kind: store.KindMFA, Key: id}, err
		},
		// The second factor is read as sign-in reads it, recovery codes
		// included.
		fill: func(ctx context.Context, s *DB, recs []store.Record) error {
			for i, rec := range recs {
				m, err := s.GetMFA(ctx, rec.Key)
				if err != nil {
					return err
				}
				recs[i].Value = m
			}
			return nil
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			return tx.PutMFA(ctx, v.(domain.MFA))
		},
	},
	store.KindIdentities: {
		from: "identities", columns: "provider, subject, user_id", key: []string{"provider", "subject"},
		scan: func(r scanner) (store.Record, error) {
			var id domain.Identity
			err := r.Scan(&id.Provider, &id.Subject, &id.UserID)
			return store.Record{Kind: store.KindIdentities, Key: store.IdentityKey(id.Provider, id.Subject), Value: id}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			id := v.(domain.Identity)
			_, err := tx.exec(ctx, upsert("identities", "provider, subject, user_id", "provider, subject"), id.Provider, id.Subject, id.UserID)
			return err
		},
	},
	store.KindDegrees: {
		from: "degrees", columns: "id, nombre", key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			var d domain.Degree
			err := r.Scan(&d.ID, &d.Nombre)
			return store.Record{Kind: store.KindDegrees, Key: d.ID, Value: d}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			d := v.(domain.Degree)
			if seed := store.SeedDegree; d.Nombre == seed.Nombre && d.ID != seed.ID {
				// The schema's seed gives way to the source's degree of its
				// name; the foreign keys refuse while anything refers to it.
				if _, err := tx.exec(ctx, `DELETE FROM degrees WHERE id = ? AND nombre = ?`, seed.ID, seed.Nombre); err != nil {
					return fmt.Errorf("degree %s %q replaces the seed degree %s, which is in use: %w", d.ID, d.Nombre, seed.ID, err)
				}
			}
			_, err := tx.exec(ctx, upsert("degrees", "id, nombre", "id"), d.ID, d.Nombre)
			return err
		},
	},
	store.KindGroups: {
		from: "groups", columns: groupColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			g, err := scanGroup(r)
			return store.Record{Kind: store.KindGroups, Key: g.ID, Value: g}, err
		},
		fill: func(ctx context.Context, s *DB, recs []store.Record) error {
			for i, rec := range recs {
				g := rec.Value.(domain.Group)
				students, err := s.groupStudents(ctx, g.ID)
				if err != nil {
					return err
				}
				slices.SortFunc(students, func(a, b domain.GroupStudent) int { return strings.Compare(a.Email, b.Email) })
				g.Estudiantes = students
				recs[i].Value = g
			}
			return nil
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			g := v.(domain.Group)
			if _, err := tx.exec(ctx, upsert("groups", groupColumns, "id"), g.ID, g.Carrera, g.Departamento, g.Facultad, g.Modalidad,
				domain.NormalizeEmail(g.DocenteEmail), string(g.Status), ms(g.CreatedAt), nullMS(g.FinalizedAt)); err != nil {
				return err
			}
			if _, err := tx.exec(ctx, `DELETE FROM group_students WHERE group_id = ?`, g.ID); err != nil {
				return err
			}
			if _, err := tx.insertStudents(ctx, g.ID, g.Estudiantes); err != nil {
				return err
			}
			return tx.putMemberships(ctx, g)
		},
	},
	store.KindCases: {
		from: "cases", columns: caseColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			c, err := scanCase(r)
			return store.Record{Kind: store.KindCases, Key: c.ID, Value: c}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			c := v.(domain.Case)
			args := append([]any{c.ID}, caseArgs(c)...)
			_, err := tx.exec(ctx, upsert("cases", caseColumns, "id"), append(args, ms(c.CreatedAt), ms(c.UpdatedAt))...)
			return err
		},
	},
	store.KindBlueprints: {
		from: "blueprints", columns: "degree_id, data, updated_at", key: []string{"degree_id"},
		scan: func(r scanner) (store.Record, error) {
			var b store.BlueprintRecord
			var id string
			data, err := scanJSONRow(r, &id, &b.UpdatedAt)
			if err == nil {
				b.Blueprint, err = storedjson.DecodeBlueprint(data)
			}
			return store.Record{Kind: store.KindBlueprints, Key: id, Value: b}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			b := v.(store.BlueprintRecord)
			return tx.PutBlueprint(ctx, b.Blueprint, b.UpdatedAt)
		},
	},
	store.KindRubrics: {
		from: "rubrics", columns: "degree_id, data, updated_at", key: []string{"degree_id"},
		scan: func(r scanner) (store.Record, error) {
			var rb store.RubricRecord
			var id string
			data, err := scanJSONRow(r, &id, &rb.UpdatedAt)
			if err == nil {
				rb.Rubric, err = storedjson.DecodeRubric(data)
			}
			return store.Record{Kind: store.KindRubrics, Key: id, Value: rb}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			r := v.(store.RubricRecord)
			return tx.PutRubric(ctx, r.Rubric, r.UpdatedAt)
		},
	},
	store.KindMeta: {
		from: "meta", columns: "key, value", key: []string{"key"},
		scan: func(r scanner) (store.Record, error) {
			var m store.MetaRecord
			err := r.Scan(&m.Key, &m.Value)
			return store.Record{Kind: store.KindMeta, Key: m.Key, Value: m}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			m := v.(store.MetaRecord)
			return tx.SetMeta(ctx, m.Key, m.Value)
		},
	},
	store.KindLTIPlatforms: {
		from: "lti_platforms", columns: platformColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			p, err := scanPlatform(r)
			return store.Record{Kind: store.KindLTIPlatforms, Key: p.ID, Value: p}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			_, err := tx.exec(ctx, upsert("lti_platforms", platformColumns, "id"), platformArgs(v.(domain.LTIPlatform))...)
			return err
		},
	},
	store.KindLTIKeys: {
		from: "lti_keys", columns: ltiKeyColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			k, err := scanLTIKey(r)
			return store.Record{Kind: store.KindLTIKeys, Key: k.ID, Value: k}, err
		},
		// A second current key breaks the index lti_keys_one_current:
		// domain.ErrConflict.
		put: func(ctx context.Context, tx *DB, v any) error {
			k := v.(domain.LTIKey)
			_, err := tx.exec(ctx, upsert("lti_keys", ltiKeyColumns, "id"), k.ID, k.PrivateKeyPEM, ms(k.CreatedAt), nullMS(k.RetiredAt))
			return err
		},
	},
	store.KindLTICourses: {
		from: "lti_courses", columns: courseColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			c, err := scanCourse(r)
			return store.Record{Kind: store.KindLTICourses, Key: c.ID, Value: c}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			return tx.PutLTICourse(ctx, v.(domain.LTICourse))
		},
	},
	store.KindLTICourseTutors: {
		from: "lti_course_tutors", columns: "course_id, user_id, launched_at", key: []string{"course_id", "user_id"},
		scan: func(r scanner) (store.Record, error) {
			var t store.LTICourseTutorRecord
			var launched int64
			err := r.Scan(&t.CourseID, &t.UserID, &launched)
			t.LaunchedAt = fromMS(launched)
			return store.Record{Kind: store.KindLTICourseTutors, Key: store.LTICourseTutorKey(t.CourseID, t.UserID), Value: t}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			t := v.(store.LTICourseTutorRecord)
			return tx.LinkLTICourseTutor(ctx, t.CourseID, t.UserID, t.LaunchedAt)
		},
	},
	store.KindLTISubjects: {
		from: "lti_subjects", columns: subjectColumns, key: []string{"platform_id", "email"},
		scan: func(r scanner) (store.Record, error) {
			sub, err := scanSubject(r)
			return store.Record{Kind: store.KindLTISubjects, Key: store.LTISubjectKey(sub.PlatformID, sub.Email), Value: sub}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			return tx.PutLTISubjects(ctx, []domain.LTISubject{v.(domain.LTISubject)})
		},
	},
	store.KindLTIGroupLinks: {
		from: "lti_group_links", columns: groupLinkColumns, key: []string{"group_id"},
		scan: func(r scanner) (store.Record, error) {
			l, err := scanGroupLink(r)
			return store.Record{Kind: store.KindLTIGroupLinks, Key: l.GroupID, Value: l}, err
		},
		// Replaced whole, its creation time included (PutLTIGroupLink
		// keeps the first one).
		put: func(ctx context.Context, tx *DB, v any) error {
			_, err := tx.exec(ctx, upsert("lti_group_links", groupLinkColumns, "group_id"), groupLinkArgs(v.(domain.LTIGroupLink))...)
			return err
		},
	},
	store.KindAttempts: {
		from: "attempts", columns: attemptColumns, key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			a, err := scanAttempt(r)
			return store.Record{Kind: store.KindAttempts, Key: a.ID, Value: a}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			a := v.(domain.Attempt)
			_, err := tx.exec(ctx, upsert("attempts", attemptRowColumns, "id"), attemptRow(a, a.Version)...)
			return err
		},
	},
	store.KindRecordings: {
		from: "recordings r", columns: recordingColumns, key: []string{"r.attempt_id", "r.id"},
		scan: func(r scanner) (store.Record, error) {
			rec, err := scanRecording(r)
			return store.Record{Kind: store.KindRecordings, Key: store.RecordingKey(rec.AttemptID, rec.ID), Value: store.RecordingRecord{Recording: rec}}, err
		},
		fill: func(ctx context.Context, s *DB, recs []store.Record) error {
			for i, rec := range recs {
				v := rec.Value.(store.RecordingRecord)
				chunks, err := s.ListChunks(ctx, v.Recording.AttemptID, v.Recording.ID)
				if err != nil {
					return err
				}
				v.Chunks = chunks
				recs[i].Value = v
			}
			return nil
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			r := v.(store.RecordingRecord)
			rec := r.Recording
			if _, err := tx.exec(ctx, upsert("recordings", recordingRowColumns, "attempt_id, id"), recordingRow(rec)...); err != nil {
				return err
			}
			// DeleteChunks gives the replaced chunks' bytes back to the
			// student's storage total; the imported ones are counted in.
			if err := tx.DeleteChunks(ctx, rec.AttemptID, rec.ID); err != nil {
				return err
			}
			if err := tx.insertChunks(ctx, rec.AttemptID, rec.ID, r.Chunks); err != nil {
				return err
			}
			// The recording's row counts its chunks (chunk_count, chunk_bytes).
			var total int64
			for _, c := range r.Chunks {
				total += c.Bytes
			}
			if _, err := tx.exec(ctx, `UPDATE recordings SET chunk_count = ?, chunk_bytes = ? WHERE attempt_id = ? AND id = ?`,
				len(r.Chunks), total, rec.AttemptID, rec.ID); err != nil {
				return err
			}
			return tx.countImportedChunks(ctx, rec.AttemptID, r.Chunks)
		},
	},
	store.KindTranscripts: {
		from: "transcripts", columns: transcriptColumns, key: []string{"attempt_id", "recording_id"},
		scan: func(r scanner) (store.Record, error) {
			t, err := scanTranscript(r)
			return store.Record{Kind: store.KindTranscripts, Key: store.RecordingKey(t.AttemptID, t.RecordingID), Value: t}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			return tx.PutTranscript(ctx, v.(domain.Transcript))
		},
	},
	store.KindJobs: {
		from: "jobs", columns: jobColumns + ", locked_until, updated_at", key: []string{"id"},
		scan: func(r scanner) (store.Record, error) {
			var v store.JobRecord
			var locked, updated int64
			j, err := scanJob(withExtra(r, &locked, &updated))
			v.Job, v.LockedUntil, v.UpdatedAt = j, fromMS(locked), fromMS(updated)
			return store.Record{Kind: store.KindJobs, Key: j.ID, Value: v}, err
		},
		put: func(ctx context.Context, tx *DB, v any) error {
			r := v.(store.JobRecord)
			j := r.Job
			_, err := tx.exec(ctx, upsert("jobs", jobColumns+", locked_until, updated_at", "id"),
				j.ID, j.Kind, j.Subject, j.Payload, j.Status, j.Attempts, ms(j.NextRunAt), j.LastError, ms(j.CreatedAt),
				ms(r.LockedUntil), ms(r.UpdatedAt))
			return err
		},
	},
}

func transferKindOf(kind store.Kind) (transferKind, error) {
	k, ok := transferKinds[kind]
	if !ok {
		return k, fmt.Errorf("unknown kind of record %q", kind)
	}
	return k, nil
}

func (s *DB) ExportPage(ctx context.Context, kind store.Kind, cursor string, limit int) ([]store.Record, string, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return nil, "", err
	}
	where, args := "1 = 1", []any(nil)
	if cursor != "" {
		where, args = k.after(cursor)
	}
	recs, err := s.exportWhere(ctx, k, fmt.Sprintf("%s ORDER BY %s LIMIT %d", where, strings.Join(k.key, ", "), max(limit, 1)), args...)
	if err != nil || len(recs) < limit {
		return recs, "", err
	}
	return recs, recs[len(recs)-1].Key, nil
}

func (s *DB) ExportKeys(ctx context.Context, kind store.Kind, keys []string) ([]store.Record, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return nil, err
	}
	var out []store.Record
	// In batches, to stay under the engines' parameter limits.
	for batch := range slices.Chunk(keys, 200) {
		where, args := k.among(batch)
		recs, err := s.exportWhere(ctx, k, where, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

func (s *DB) exportWhere(ctx context.Context, k transferKind, where string, args ...any) ([]store.Record, error) {
	recs, err := queryAll(ctx, s, k.scan, `SELECT `+k.columns+` FROM `+k.from+` WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	if k.fill != nil {
		// After the rows are closed: SQLite in a transaction has one connection.
		if err := k.fill(ctx, s, recs); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// after selects the rows whose key comes after key.
func (k transferKind) after(key string) (string, []any) {
	if len(k.key) == 1 {
		return k.key[0] + " > ?", []any{key}
	}
	a, b := store.SplitKey(key)
	return "(" + strings.Join(k.key, ", ") + ") > (?, ?)", []any{a, b}
}

// among selects the rows with these keys.
func (k transferKind) among(keys []string) (string, []any) {
	if len(keys) == 0 {
		return "1 = 0", nil
	}
	args := make([]any, 0, len(keys)*len(k.key))
	if len(k.key) == 1 {
		for _, key := range keys {
			args = append(args, key)
		}
		return k.key[0] + " IN (" + placeholders(len(keys)) + ")", args
	}
	terms := make([]string, len(keys))
	for i, key := range keys {
		a, b := store.SplitKey(key)
		terms[i] = "(" + k.key[0] + " = ? AND " + k.key[1] + " = ?)"
		args = append(args, a, b)
	}
	return "(" + strings.Join(terms, " OR ") + ")", args
}

func (s *DB) CountRecords(ctx context.Context, kind store.Kind) (int64, error) {
	k, err := transferKindOf(kind)
	if err != nil {
		return 0, err
	}
	var n int64
	err = s.queryRow(ctx, `SELECT COUNT(*) FROM `+k.from).Scan(&n)
	return n, err
}

// ImportRecords writes the records in one transaction.
func (s *DB) ImportRecords(ctx context.Context, records []store.Record) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		for _, rec := range records {
			k, err := transferKindOf(rec.Kind)
			if err != nil {
				return err
			}
			if err := putRecord(ctx, tx, k, rec); err != nil {
				return fmt.Errorf("import %s %s: %w", rec.Kind, rec.Key, err)
			}
		}
		return nil
	})
}

// putRecord turns a value of the wrong type into an error, not a panic.
func putRecord(ctx context.Context, tx *DB, k transferKind, rec store.Record) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("record of kind %s holds a %T: %v", rec.Kind, rec.Value, r)
		}
	}()
	return k.put(ctx, tx, rec.Value)
}

// upsert is an INSERT of columns that replaces every other column of the
// row whose conflict columns match.
func upsert(table, columns, conflict string) string {
	cols := splitColumns(columns)
	keys := splitColumns(conflict)
	set := assignments(columns, func(c string) string { return "excluded." + c }, keys...)
	return `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` + placeholders(len(cols)) + `)
		ON CONFLICT (` + strings.Join(keys, ", ") + `) DO UPDATE SET ` + strings.Join(set, ", ")
}

// assignments are "column = value(column)" for each column of the list
// but those skipped, for an UPDATE's SET list.
func assignments(columns string, value func(column string) string, skip ...string) []string {
	var set []string
	for _, c := range splitColumns(columns) {
		if !slices.Contains(skip, c) {
			set = append(set, c+" = "+value(c))
		}
	}
	return set
}

func splitColumns(list string) []string {
	var out []string
	for c := range strings.SplitSeq(list, ",") {
		out = append(out, strings.TrimSpace(c))
	}
	return out
}

// insertChunks adds chunk rows in batches.
func (s *DB) insertChunks(ctx context.Context, attemptID, recordingID string, chunks []domain.ChunkInfo) error {
	for batch := range slices.Chunk(chunks, 150) {
		q := `INSERT INTO recording_chunks (attempt_id, recording_id, seq, bytes, sha256) VALUES `
		args := make([]any, 0, len(batch)*5)
		for i, c := range batch {
			if i > 0 {
				q += ", "
			}
			q += "(?, ?, ?, ?, ?)"
			args = append(args, attemptID, recordingID, c.Seq, c.Bytes, c.SHA256)
		}
		if _, err := s.exec(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// scanJSONRow reads a settings row: its degree, its JSON data (returned)
// and when it was saved.
func scanJSONRow(r scanner, id *string, updatedAt *time.Time) ([]byte, error) {
	var raw string
	var updated int64
	if err := r.Scan(id, &raw, &updated); err != nil {
		return nil, err
	}
	*updatedAt = fromMS(updated)
	return []byte(raw), nil
}

// withExtra is r scanning dest followed by more: a scan function that
// reads a fixed list of columns reads a longer select list.
func withExtra(r scanner, more ...any) scanner { return extraScanner{r, more} }

type extraScanner struct {
	r    scanner
	more []any
}

func (e extraScanner) Scan(dest ...any) error { return e.r.Scan(append(dest, e.more...)...) }

// putMemberships makes active_memberships say what g says: the students
// of an active group are its members, claimed as CreateGroup claims them
// (domain.ErrConflict when one is a member of another active group), and
// a membership g no longer gives (the student left, the group was
// finalized) ends.
func (s *DB) putMemberships(ctx context.Context, g domain.Group) error {
	if _, err := s.exec(ctx, `DELETE FROM active_memberships WHERE group_id = ?`, g.ID); err != nil {
		return err
	}
	if g.Status != domain.GroupActive {
		return nil
	}
	err := s.claimMemberships(ctx, g.ID, store.UniqueStudents(g.Estudiantes))
	if taken := (*store.MembersTakenError)(nil); errors.As(err, &taken) {
		return fmt.Errorf("%w: %w", err, domain.ErrConflict)
	}
	return err
}

// countImportedChunks adds chunks of an attempt's recording to its
// student's storage total, as AddChunk counts each.
func (s *DB) countImportedChunks(ctx context.Context, attemptID string, chunks []domain.ChunkInfo) error {
	var bytes int64
	for _, c := range chunks {
		bytes += c.Bytes
	}
	if bytes == 0 {
		return nil
	}
	var student string
	if err := s.queryRow(ctx, `SELECT student_id FROM attempts WHERE id = ?`, attemptID).Scan(&student); err != nil {
		return fmt.Errorf("attempt %s: %w", attemptID, s.mapErr(err))
	}
	if err := s.lockStorage(ctx, student); err != nil {
		return err
	}
	_, err := s.exec(ctx, `UPDATE storage_usage SET bytes = bytes + ? WHERE student_id = ?`, bytes, student)
	return err
}
