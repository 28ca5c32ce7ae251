package firestore

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// groupStudents/{id} holds a group with the earlier app's field names
// (carrera, docente {email}, status activo|finalizado...); its students are
// documents in the subcollection groupStudents/{id}/estudiantes/{email}
// ({email, name, addedAt, attempts: []}) rather than one list field, so a
// group of thousands stays far below the 1 MiB document limit and adding
// students writes only the new ones. activeGroups/{tutor email} names the
// tutor's active group: creating an active group writes it in the same
// transaction, finalizing deletes it, so two concurrent creations cannot
// both succeed. activeMembers/{student email} ({groupId}) names the one
// active group a student is a member of, the same way: creating or adding
// to an active group reads the students' documents and writes them with
// the members, removing a student or finalizing the group deletes them.

func groupFields(g domain.Group) map[string]any {
	return map[string]any{
		"carrera":      g.Carrera,
		"departamento": g.Departamento,
		"facultad":     g.Facultad,
		"modalidad":    g.Modalidad,
		"docente":      map[string]any{"email": domain.NormalizeEmail(g.DocenteEmail)},
		"status":       string(g.Status),
		"createdAt":    ts(g.CreatedAt),
		"finalizedAt":  tsPtr(g.FinalizedAt),
	}
}

// groupFrom decodes a group without its students.
func groupFrom(d doc) (domain.Group, error) {
	f := d.data
	return domain.Group{
		ID:           d.ref.ID,
		Carrera:      f.str("carrera"),
		Departamento: f.str("departamento"),
		Facultad:     f.str("facultad"),
		Modalidad:    f.str("modalidad"),
		DocenteEmail: domain.NormalizeEmail(f.sub("docente").str("email")),
		Status:       domain.GroupStatus(f.str("status")),
		CreatedAt:    f.time("createdAt"),
		FinalizedAt:  f.timePtr("finalizedAt"),
	}, nil
}

func memberFrom(d doc) (domain.GroupStudent, error) {
	f := d.data
	return domain.GroupStudent{Email: domain.NormalizeEmail(f.str("email")), Name: f.str("name"), AddedAt: f.time("addedAt")}, nil
}

func isActive(d doc) bool {
	return d.exists && d.data.str("status") == string(domain.GroupActive)
}

// newestFirst orders groups by creation, newest first, then by ID.
func newestFirst(a, b domain.Group) int {
	if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func (s *Store) CreateGroup(ctx context.Context, g domain.Group) error {
	tutor := domain.NormalizeEmail(g.DocenteEmail)
	active := g.Status == domain.GroupActive
	return s.write(ctx, func(t *txn) error {
		ref, lock := s.ref(colGroups, g.ID), s.ref(colActiveGroups, tutor)
		docs, err := t.getAll(ctx, []*firestoreRef{ref, lock})
		if err != nil {
			return err
		}
		if docs[0].exists {
			return fmt.Errorf("group %s: %w", g.ID, domain.ErrConflict)
		}
		if active {
			// Every creation of an active group reads and writes the
			// tutor's lock document, so two at once cannot both commit.
			// Whether the tutor has an active group is read from the
			// groups, which covers those the earlier app made active
			// (they have no lock).
			if _, err := s.activeGroupOf(ctx, t, tutor); err == nil {
				return fmt.Errorf("tutor %s already has an active group: %w", tutor, domain.ErrConflict)
			} else if !isNotFound(err) {
				return err
			}
			t.set(lock, map[string]any{"groupId": g.ID})
		}
		students := store.UniqueStudents(g.Estudiantes)
		if active {
			if err := s.claimMemberships(ctx, t, g.ID, students); err != nil {
				return err
			}
		}
		t.create(ref, groupFields(g))
		s.addMembers(t, ref.ID, students)
		return nil
	})
}

func (s *Store) membershipRef(email string) *firestoreRef {
	return s.ref(colActiveMembers, domain.NormalizeEmail(email))
}

// claimMemberships reads the students' activeMembers documents in the
// transaction and, unless one names another group (then
// *store.MembersTakenError and nothing is written), writes them for
// groupID. Two transactions claiming the same student both read its
// document, so one commits and the other runs again and finds it taken.
func (s *Store) claimMemberships(ctx context.Context, t *txn, groupID string, students []domain.GroupStudent) error {
	refs := make([]*firestoreRef, len(students))
	for i, st := range students {
		refs[i] = s.membershipRef(st.Email)
	}
	docs, err := t.getAll(ctx, refs)
	if err != nil {
		return err
	}
	var taken []string
	for i, d := range docs {
		if d.exists && d.data.str("groupId") != groupID {
			taken = append(taken, students[i].Email)
		}
	}
	if len(taken) > 0 {
		return &store.MembersTakenError{Emails: taken}
	}
	for i, d := range docs {
		if !d.exists {
			t.create(refs[i], map[string]any{"email": students[i].Email, "groupId": groupID})
		}
	}
	return nil
}

func (s *Store) memberRef(groupID, email string) *firestoreRef {
	return s.ref(colGroups, groupID).Collection(colMembers).Doc(docID(email))
}

// addMembers buffers new member documents (checked absent by the caller).
func (s *Store) addMembers(t *txn, groupID string, students []domain.GroupStudent) {
	for _, st := range students {
		t.create(s.memberRef(groupID, st.Email), map[string]any{
			"email": st.Email, "name": st.Name, "addedAt": ts(st.AddedAt), "attempts": []any{},
		})
	}
}

func (s *Store) GetGroup(ctx context.Context, id string) (domain.Group, error) {
	r := s.read()
	d, err := r.get(ctx, s.ref(colGroups, id))
	if err != nil {
		return domain.Group{}, err
	}
	g, err := one(d, groupFrom)
	if err != nil {
		return g, err
	}
	return s.withMembers(ctx, r, g)
}

// withMembers loads g's students, oldest first.
func (s *Store) withMembers(ctx context.Context, r reader, g domain.Group) (domain.Group, error) {
	docs, err := r.query(ctx, subcollection(s.ref(colGroups, g.ID), colMembers))
	if err != nil {
		return g, err
	}
	g.Estudiantes, err = decodeAll(docs, memberFrom)
	slices.SortFunc(g.Estudiantes, func(a, b domain.GroupStudent) int {
		return cmp.Or(a.AddedAt.Compare(b.AddedAt), strings.Compare(a.Email, b.Email))
	})
	return g, err
}

// activeGroupOf returns the tutor's active group (the newest, should the
// earlier app have left several) without its students.
func (s *Store) activeGroupOf(ctx context.Context, r reader, tutor string) (domain.Group, error) {
	docs, err := r.query(ctx, collection(colGroups).whereEq("docente.email", tutor))
	if err != nil {
		return domain.Group{}, err
	}
	var active []domain.Group
	for _, d := range docs {
		if isActive(d) {
			g, _ := groupFrom(d)
			active = append(active, g)
		}
	}
	if len(active) == 0 {
		return domain.Group{}, fmt.Errorf("active group of %s: %w", tutor, domain.ErrNotFound)
	}
	return slices.MinFunc(active, newestFirst), nil
}

func (s *Store) ActiveGroupByTutor(ctx context.Context, tutorEmail string) (domain.Group, error) {
	r := s.read()
	g, err := s.activeGroupOf(ctx, r, domain.NormalizeEmail(tutorEmail))
	if err != nil {
		return g, err
	}
	return s.withMembers(ctx, r, g)
}

func (s *Store) ListGroupsByTutor(ctx context.Context, tutorEmail string) ([]domain.Group, error) {
	r := s.read()
	docs, err := r.query(ctx, collection(colGroups).whereEq("docente.email", domain.NormalizeEmail(tutorEmail)))
	if err != nil {
		return nil, err
	}
	groups, err := decodeAll(docs, groupFrom)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(groups, newestFirst)
	for i := range groups {
		if groups[i], err = s.withMembers(ctx, r, groups[i]); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

func (s *Store) IsActiveGroupMember(ctx context.Context, email string) (bool, error) {
	d, err := s.read().get(ctx, s.membershipRef(email))
	return d.exists, err
}

func (s *Store) ActiveGroupOfStudent(ctx context.Context, email string) (domain.Group, error) {
	r := s.read()
	notFound := fmt.Errorf("active group of student %s: %w", domain.NormalizeEmail(email), domain.ErrNotFound)
	m, err := r.get(ctx, s.membershipRef(email))
	if err != nil || !m.exists {
		return domain.Group{}, cmp.Or(err, notFound)
	}
	d, err := r.get(ctx, s.ref(colGroups, m.data.str("groupId")))
	if err != nil {
		return domain.Group{}, err
	}
	if !isActive(d) {
		return domain.Group{}, notFound
	}
	return groupFrom(d)
}

// AddGroupStudents reads the group in its transaction: a finalization
// committed first makes it refuse; one committed after it read the group
// makes Firestore abort and rerun it, and then it refuses.
func (s *Store) AddGroupStudents(ctx context.Context, groupID string, students []domain.GroupStudent) (int, error) {
	var added int
	err := s.write(ctx, func(t *txn) error {
		added = 0
		d, err := t.get(ctx, s.ref(colGroups, groupID))
		if err != nil {
			return err
		}
		if !isActive(d) {
			return fmt.Errorf("add students to group %s: %w", groupID, domain.ErrNotFound)
		}
		students := store.UniqueStudents(students)
		refs := make([]*firestoreRef, len(students))
		for i, st := range students {
			refs[i] = s.memberRef(groupID, st.Email)
		}
		docs, err := t.getAll(ctx, refs)
		if err != nil {
			return err
		}
		var fresh []domain.GroupStudent
		for i, m := range docs {
			if !m.exists {
				fresh = append(fresh, students[i])
			}
		}
		if err := s.claimMemberships(ctx, t, groupID, fresh); err != nil {
			return err
		}
		s.addMembers(t, groupID, fresh)
		added = len(fresh)
		return nil
	})
	return added, err
}

func (s *Store) FinalizeGroup(ctx context.Context, groupID string, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.get(ctx, s.ref(colGroups, groupID))
		if err != nil {
			return err
		}
		if !isActive(d) {
			return fmt.Errorf("finalize group %s: %w", groupID, domain.ErrNotFound)
		}
		lock := s.ref(colActiveGroups, domain.NormalizeEmail(d.data.sub("docente").str("email")))
		l, err := t.get(ctx, lock)
		if err != nil {
			return err
		}
		if l.exists && l.data.str("groupId") == groupID {
			t.delete(lock)
		}
		members, err := t.query(ctx, collection(colActiveMembers).whereEq("groupId", groupID))
		if err != nil {
			return err
		}
		for _, m := range members {
			t.delete(m.ref)
		}
		t.update(d, map[string]any{"status": string(domain.GroupFinalized), "finalizedAt": ts(at)})
		return nil
	})
}

func (s *Store) RemoveGroupStudent(ctx context.Context, groupID, email string) error {
	email = domain.NormalizeEmail(email)
	return s.write(ctx, func(t *txn) error {
		docs, err := t.getAll(ctx, []*firestoreRef{s.ref(colGroups, groupID), s.memberRef(groupID, email), s.membershipRef(email)})
		if err != nil {
			return err
		}
		group, member, membership := docs[0], docs[1], docs[2]
		if !isActive(group) {
			return fmt.Errorf("remove a student from group %s: %w", groupID, domain.ErrNotFound)
		}
		if !member.exists {
			return fmt.Errorf("student %s of group %s: %w", email, groupID, domain.ErrNotFound)
		}
		t.delete(member.ref)
		if membership.exists && membership.data.str("groupId") == groupID {
			t.delete(membership.ref)
		}
		return nil
	})
}

// membershipsBackfilled is the document written once every group that was
// active before activeMembers existed has its students' documents. It is
// the adapter's own bookkeeping, kept apart from the application's meta
// settings (which migrate-data copies between stores).
func (s *Store) membershipsBackfilled() *firestoreRef {
	return s.ref(colStoreState, "activeMembersBackfill")
}

// backfillMemberships writes the activeMembers documents of groups that
// were active before those documents existed, once per database. A
// student listed in several active groups stays a member of the newest
// (ties: the smaller id), as they practised there, and is taken out of
// the older ones, each logged as a warning; their attempts keep their
// group. Each group is one transaction, so the work survives a restart
// half way, and two instances starting at once reach the same result.
func (s *Store) backfillMemberships(ctx context.Context) error {
	if d, err := s.read().get(ctx, s.membershipsBackfilled()); err != nil || d.exists {
		return err
	}
	docs, err := s.read().query(ctx, collection(colGroups).whereEq("status", string(domain.GroupActive)))
	if err != nil {
		return err
	}
	groups, err := decodeAll(docs, groupFrom)
	if err != nil {
		return err
	}
	slices.SortFunc(groups, newestFirst)
	for _, g := range groups {
		var released []string
		err := s.write(ctx, func(t *txn) error {
			released = nil
			ref := s.ref(colGroups, g.ID)
			d, err := t.get(ctx, ref)
			if err != nil || !isActive(d) {
				return err
			}
			members, err := t.query(ctx, subcollection(ref, colMembers))
			if err != nil {
				return err
			}
			refs := make([]*firestoreRef, len(members))
			for i, m := range members {
				refs[i] = s.membershipRef(m.data.str("email"))
			}
			locks, err := t.getAll(ctx, refs)
			if err != nil {
				return err
			}
			for i, l := range locks {
				email := domain.NormalizeEmail(members[i].data.str("email"))
				switch {
				case !l.exists:
					t.create(l.ref, map[string]any{"email": email, "groupId": g.ID})
				case l.data.str("groupId") != g.ID:
					t.delete(members[i].ref)
					released = append(released, email)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("memberships of group %s: %w", g.ID, err)
		}
		for _, email := range released {
			slog.Default().Warn("a student was in several active groups; kept in the newest, taken out of this one (their attempts keep their group)",
				"student", email, "removedFromGroup", g.ID, "removedFromTutor", g.DocenteEmail)
		}
	}
	return s.write(ctx, func(t *txn) error {
		t.set(s.membershipsBackfilled(), map[string]any{"done": true})
		return nil
	})
}
