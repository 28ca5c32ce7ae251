package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/domain"
)

// degree/{id} {nombre}, as the earlier app named them; degreeNames/{nombre}
// makes names unique.

func degreeFrom(d doc) (domain.Degree, error) {
	return domain.Degree{ID: d.ref.ID, Nombre: d.data.str("nombre")}, nil
}

func (s *Store) ListDegrees(ctx context.Context) ([]domain.Degree, error) {
	docs, err := s.read().query(ctx, collection(colDegrees))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, degreeFrom)
	slices.SortFunc(out, func(a, b domain.Degree) int { return strings.Compare(a.Nombre, b.Nombre) })
	return out, err
}

func (s *Store) GetDegree(ctx context.Context, id string) (domain.Degree, error) {
	return getOne(ctx, s.read(), s.ref(colDegrees, id), degreeFrom)
}

func (s *Store) GetDegreeByName(ctx context.Context, nombre string) (domain.Degree, error) {
	docs, err := s.read().query(ctx, collection(colDegrees).whereEq("nombre", nombre).take(1))
	if err != nil {
		return domain.Degree{}, err
	}
	if len(docs) == 0 {
		return domain.Degree{}, fmt.Errorf("degree %q: %w", nombre, domain.ErrNotFound)
	}
	return degreeFrom(docs[0])
}

// CreateDegree refuses a taken name (by its degreeNames document, or by a
// query for degrees the earlier app wrote) and a taken ID.
func (s *Store) CreateDegree(ctx context.Context, dg domain.Degree) error {
	return s.write(ctx, func(t *txn) error {
		ref, key := s.ref(colDegrees, dg.ID), s.ref(colDegreeNames, dg.Nombre)
		docs, err := t.getAll(ctx, []*firestoreRef{ref, key})
		if err != nil {
			return err
		}
		if docs[0].exists || docs[1].exists {
			return fmt.Errorf("degree %s %q: %w", dg.ID, dg.Nombre, domain.ErrConflict)
		}
		same, err := t.query(ctx, collection(colDegrees).whereEq("nombre", dg.Nombre).take(1))
		if err != nil {
			return err
		}
		if len(same) > 0 {
			return fmt.Errorf("degree %q: %w", dg.Nombre, domain.ErrConflict)
		}
		t.create(ref, map[string]any{"nombre": dg.Nombre})
		t.create(key, map[string]any{"degreeId": dg.ID})
		return nil
	})
}
