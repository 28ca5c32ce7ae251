package firestore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// groupStudents/{id} holds a group with the earlier app's field names
// (carrera, docente {email}, status activo|finalizado...); its students are
// documents in the subcollection groupStudents/{id}/estudiantes/{email}
// ({email, name, addedAt, attempts: []}) rather than one list field, so a
// group of thousands stays far below the 1 MiB document limit and adding
// students writes only the new ones. activeGroups/{tutor email} names the
// tutor's active group: creating an active group writes it in the same
// transaction, finalizing deletes it, so two concurrent creations cannot
// both succeed.

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
		t.create(ref, groupFields(g))
		s.addMembers(t, ref.ID, dedupe(g.Estudiantes))
		return nil
	})
}

// dedupe normalises emails and keeps the first of each.
func dedupe(students []domain.GroupStudent) []domain.GroupStudent {
	seen := make(map[string]bool, len(students))
	out := make([]domain.GroupStudent, 0, len(students))
	for _, st := range students {
		st.Email = domain.NormalizeEmail(st.Email)
		if !seen[st.Email] {
			seen[st.Email] = true
			out = append(out, st)
		}
	}
	return out
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

// activeGroupsOfStudent finds the member documents with email in every
// group (one collection-group query) and keeps the active groups.
func (s *Store) activeGroupsOfStudent(ctx context.Context, email string) ([]domain.Group, error) {
	r := s.read()
	members, err := r.query(ctx, collectionGroup(colMembers).whereEq("email", domain.NormalizeEmail(email)))
	if err != nil || len(members) == 0 {
		return nil, err
	}
	refs := make([]*firestoreRef, 0, len(members))
	for _, m := range members {
		if g := m.ref.Parent.Parent; g != nil && g.Parent.ID == colGroups {
			refs = append(refs, g)
		}
	}
	groups, err := r.getAll(ctx, refs)
	if err != nil {
		return nil, err
	}
	var out []domain.Group
	for _, d := range groups {
		if isActive(d) {
			g, _ := groupFrom(d)
			out = append(out, g)
		}
	}
	return out, nil
}

func (s *Store) IsActiveGroupMember(ctx context.Context, email string) (bool, error) {
	groups, err := s.activeGroupsOfStudent(ctx, email)
	return len(groups) > 0, err
}

func (s *Store) ActiveGroupOfStudent(ctx context.Context, email string) (domain.Group, error) {
	groups, err := s.activeGroupsOfStudent(ctx, email)
	if err != nil {
		return domain.Group{}, err
	}
	if len(groups) == 0 {
		return domain.Group{}, fmt.Errorf("active group of student %s: %w", domain.NormalizeEmail(email), domain.ErrNotFound)
	}
	return slices.MinFunc(groups, newestFirst), nil
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
		students := dedupe(students)
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
		t.update(d, map[string]any{"status": string(domain.GroupFinalized), "finalizedAt": ts(at)})
		return nil
	})
}
