package sqlstore

import (
	"context"

	"github.com/utpl/simulador/backend/internal/domain"
)

func (s *DB) ListDegrees(ctx context.Context) ([]domain.Degree, error) {
	rows, err := s.query(ctx, `SELECT id, nombre FROM degrees ORDER BY nombre`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Degree
	for rows.Next() {
		var d domain.Degree
		if err := rows.Scan(&d.ID, &d.Nombre); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
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
