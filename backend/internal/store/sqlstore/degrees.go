package sqlstore

import (
	"context"

	"github.com/utpl/simulador/backend/internal/domain"
)

func (s *DB) ListDegrees(ctx context.Context) ([]domain.Degree, error) {
	return queryAll(ctx, s, func(r scanner) (domain.Degree, error) {
		var d domain.Degree
		err := r.Scan(&d.ID, &d.Nombre)
		return d, err
	}, `SELECT id, nombre FROM degrees ORDER BY nombre`)
}

func (s *DB) GetDegree(ctx context.Context, id string) (domain.Degree, error) {
	var d domain.Degree
	err := s.queryRow(ctx, `SELECT id, nombre FROM degrees WHERE id = ?`, id).Scan(&d.ID, &d.Nombre)
	return d, s.mapErr(err)
}

func (s *DB) GetDegreeByName(ctx context.Context, nombre string) (domain.Degree, error) {
	var d domain.Degree
	err := s.queryRow(ctx, `SELECT id, nombre FROM degrees WHERE nombre = ?`, nombre).Scan(&d.ID, &d.Nombre)
	return d, s.mapErr(err)
}

func (s *DB) CreateDegree(ctx context.Context, d domain.Degree) error {
	_, err := s.exec(ctx, `INSERT INTO degrees (id, nombre) VALUES (?, ?)`, d.ID, d.Nombre)
	return err
}
