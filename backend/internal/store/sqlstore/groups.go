package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

const groupColumns = `id, carrera, departamento, facultad, modalidad, docente_email, status, created_at, finalized_at`

func (s *DB) CreateGroup(ctx context.Context, g domain.Group) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		_, err := tx.exec(ctx, `INSERT INTO groups (`+groupColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.Carrera, g.Departamento, g.Facultad, g.Modalidad, domain.NormalizeEmail(g.DocenteEmail),
			string(g.Status), ms(g.CreatedAt), nullMS(g.FinalizedAt))
		if err != nil {
			return err
		}
		students := store.UniqueStudents(g.Estudiantes)
		if g.Status == domain.GroupActive {
			if err := tx.claimMemberships(ctx, g.ID, students); err != nil {
				return err
			}
		}
		_, err = tx.insertStudents(ctx, g.ID, students)
		return err
	})
}

// membershipBatch is how many emails one statement claims or looks up.
const membershipBatch = 400

// claimMemberships makes the students (new to the group) members of it in
// active_memberships, whose primary key is the email: a student claimed by
// another group is not inserted (ON CONFLICT DO NOTHING waits for a
// concurrent claim to commit or roll back, then decides), and then the
// whole call fails with *store.MembersTakenError, rolling back what it
// claimed.
//
// Emails are claimed in sorted order, so two transactions claiming
// overlapping sets wait for each other instead of deadlocking.
func (s *DB) claimMemberships(ctx context.Context, groupID string, students []domain.GroupStudent) error {
	emails := make([]string, len(students))
	for i, st := range students {
		emails[i] = st.Email
	}
	slices.Sort(emails)
	claimed := make(map[string]bool, len(emails))
	for start := 0; start < len(emails); start += membershipBatch {
		part := emails[start:min(start+membershipBatch, len(emails))]
		q := `INSERT INTO active_memberships (email, group_id) VALUES `
		args := make([]any, 0, 2*len(part))
		for i, e := range part {
			if i > 0 {
				q += ", "
			}
			q += "(?, ?)"
			args = append(args, e, groupID)
		}
		got, err := queryAll(ctx, s, scanString, q+` ON CONFLICT (email) DO NOTHING RETURNING email`, args...)
		if err != nil {
			return err
		}
		for _, e := range got {
			claimed[e] = true
		}
	}
	var taken []string
	for _, st := range students {
		if !claimed[st.Email] {
			taken = append(taken, st.Email)
		}
	}
	if len(taken) > 0 {
		return &store.MembersTakenError{Emails: taken}
	}
	return nil
}

// insertStudents inserts in batches and skips emails already in the group.
func (s *DB) insertStudents(ctx context.Context, groupID string, students []domain.GroupStudent) (int, error) {
	const batch = 200 // 4 parameters a row stays well under engine limits
	added := 0
	for start := 0; start < len(students); start += batch {
		end := min(start+batch, len(students))
		args := make([]any, 0, (end-start)*4)
		q := `INSERT INTO group_students (group_id, email, name, added_at) VALUES `
		for i, st := range students[start:end] {
			if i > 0 {
				q += ", "
			}
			q += "(?, ?, ?, ?)"
			args = append(args, groupID, domain.NormalizeEmail(st.Email), st.Name, ms(st.AddedAt))
		}
		n, err := s.execCount(ctx, q+` ON CONFLICT (group_id, email) DO NOTHING`, args...)
		if err != nil {
			return added, err
		}
		added += int(n)
	}
	return added, nil
}

func scanGroup(r scanner) (domain.Group, error) {
	var g domain.Group
	var status string
	var created int64
	var finalized sql.NullInt64
	if err := r.Scan(&g.ID, &g.Carrera, &g.Departamento, &g.Facultad, &g.Modalidad, &g.DocenteEmail, &status, &created, &finalized); err != nil {
		return g, err
	}
	g.Status = domain.GroupStatus(status)
	g.CreatedAt = fromMS(created)
	g.FinalizedAt = fromNullMS(finalized)
	return g, nil
}

func (s *DB) GetGroup(ctx context.Context, id string) (domain.Group, error) {
	return s.oneGroup(ctx, `SELECT `+groupColumns+` FROM groups WHERE id = ?`, id)
}

func (s *DB) ActiveGroupByTutor(ctx context.Context, tutorEmail string) (domain.Group, error) {
	return s.oneGroup(ctx, `SELECT `+groupColumns+` FROM groups WHERE docente_email = ? AND status = 'activo'`, domain.NormalizeEmail(tutorEmail))
}

func (s *DB) oneGroup(ctx context.Context, q string, args ...any) (domain.Group, error) {
	g, err := scanGroup(s.queryRow(ctx, q, args...))
	if err != nil {
		return g, s.mapErr(err)
	}
	g.Estudiantes, err = s.groupStudents(ctx, g.ID)
	return g, err
}

func (s *DB) ListGroupsByTutor(ctx context.Context, tutorEmail string) ([]domain.Group, error) {
	return s.listGroups(ctx, `SELECT `+groupColumns+` FROM groups WHERE docente_email = ? ORDER BY created_at DESC`, domain.NormalizeEmail(tutorEmail))
}

// IsActiveGroupMember reads one row of active_memberships by its key.
func (s *DB) IsActiveGroupMember(ctx context.Context, email string) (bool, error) {
	var member bool
	err := s.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM active_memberships WHERE email = ?)`, domain.NormalizeEmail(email)).Scan(&member)
	return member, err
}

func (s *DB) ActiveGroupOfStudent(ctx context.Context, email string) (domain.Group, error) {
	g, err := scanGroup(s.queryRow(ctx, `SELECT g.id, g.carrera, g.departamento, g.facultad, g.modalidad, g.docente_email, g.status, g.created_at, g.finalized_at
		FROM active_memberships m JOIN groups g ON g.id = m.group_id
		WHERE m.email = ? AND g.status = 'activo'`, domain.NormalizeEmail(email)))
	return g, s.mapErr(err)
}

func (s *DB) listGroups(ctx context.Context, q string, args ...any) ([]domain.Group, error) {
	out, err := queryAll(ctx, s, scanGroup, q, args...)
	if err != nil {
		return nil, err
	}
	// Students are loaded after the rows are closed: SQLite in a transaction
	// has a single connection.
	for i := range out {
		if out[i].Estudiantes, err = s.groupStudents(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *DB) groupStudents(ctx context.Context, groupID string) ([]domain.GroupStudent, error) {
	out, err := queryAll(ctx, s, func(r scanner) (domain.GroupStudent, error) {
		var st domain.GroupStudent
		var added int64
		err := r.Scan(&st.Email, &st.Name, &added)
		st.AddedAt = fromMS(added)
		return st, err
	}, `SELECT email, name, added_at FROM group_students WHERE group_id = ? ORDER BY added_at, email`, groupID)
	return domain.NonNil(out), err
}

func (s *DB) AddGroupStudents(ctx context.Context, groupID string, students []domain.GroupStudent) (int, error) {
	var added int
	err := s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		added = 0
		if err := tx.lockActiveGroup(ctx, groupID); err != nil {
			return fmt.Errorf("add students to group %s: %w", groupID, err)
		}
		fresh, err := tx.notInGroup(ctx, groupID, store.UniqueStudents(students))
		if err != nil {
			return err
		}
		if err := tx.claimMemberships(ctx, groupID, fresh); err != nil {
			return err
		}
		added, err = tx.insertStudents(ctx, groupID, fresh)
		return err
	})
	return added, err
}

// lockActiveGroup is a no-op write on the group row, conditional on its
// status: it takes the row's lock (PostgreSQL) or the write lock (SQLite),
// so a concurrent FinalizeGroup, addition or removal either waits for this
// transaction or has already committed. domain.ErrNotFound when the group
// is not active.
func (s *DB) lockActiveGroup(ctx context.Context, groupID string) error {
	res, err := s.exec(ctx, `UPDATE groups SET status = 'activo' WHERE id = ? AND status = 'activo'`, groupID)
	return s.expectOne(res, err)
}

// notInGroup keeps the students the group does not list yet.
func (s *DB) notInGroup(ctx context.Context, groupID string, students []domain.GroupStudent) ([]domain.GroupStudent, error) {
	present := map[string]bool{}
	for start := 0; start < len(students); start += membershipBatch {
		part := students[start:min(start+membershipBatch, len(students))]
		args := []any{groupID}
		for _, st := range part {
			args = append(args, st.Email)
		}
		got, err := queryAll(ctx, s, scanString, `SELECT email FROM group_students WHERE group_id = ? AND email IN (`+placeholders(len(part))+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, e := range got {
			present[e] = true
		}
	}
	fresh := make([]domain.GroupStudent, 0, len(students))
	for _, st := range students {
		if !present[st.Email] {
			fresh = append(fresh, st)
		}
	}
	return fresh, nil
}

func (s *DB) RemoveGroupStudent(ctx context.Context, groupID, email string) error {
	email = domain.NormalizeEmail(email)
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		if err := tx.lockActiveGroup(ctx, groupID); err != nil {
			return fmt.Errorf("remove a student from group %s: %w", groupID, err)
		}
		res, err := tx.exec(ctx, `DELETE FROM group_students WHERE group_id = ? AND email = ?`, groupID, email)
		if err := tx.expectOne(res, err); err != nil {
			return fmt.Errorf("student %s of group %s: %w", email, groupID, err)
		}
		_, err = tx.exec(ctx, `DELETE FROM active_memberships WHERE email = ? AND group_id = ?`, email, groupID)
		return err
	})
}

func (s *DB) FinalizeGroup(ctx context.Context, groupID string, at time.Time) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		res, err := tx.exec(ctx, `UPDATE groups SET status = 'finalizado', finalized_at = ? WHERE id = ? AND status = 'activo'`, ms(at), groupID)
		if err := tx.expectOne(res, err); err != nil {
			return fmt.Errorf("finalize group %s: %w", groupID, err)
		}
		_, err = tx.exec(ctx, `DELETE FROM active_memberships WHERE group_id = ?`, groupID)
		return err
	})
}
