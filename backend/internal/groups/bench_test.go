package groups

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// BenchmarkLoadGroup5000 loads a 5,000-row roster end to end on SQLite:
// parse, validate, look up the degree, and write the group in one
// transaction. The budget is under 2 s per load.
func BenchmarkLoadGroup5000(b *testing.B) {
	var csv bytes.Buffer
	csv.WriteString("email;name;degree;department;faculty;modality\n")
	for i := range 5000 {
		fmt.Fprintf(&csv, "estudiante%04d@utpl.edu.ec;Estudiante Número %d;Derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia\n", i, i)
	}
	data := csv.Bytes()
	ctx := context.Background()
	st := sqlitetest.Open(b)
	s := NewService(st)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tutor := domain.User{ID: fmt.Sprint(i), Mail: fmt.Sprintf("tutor%d@utpl.edu.ec", i), Role: domain.RoleTutor, CreatedAt: time.Now()}
		res, err := s.LoadGroup(ctx, tutor, bytes.NewReader(data), "grupo.csv")
		if err != nil || res.Skipped || len(res.Group.Estudiantes) != 5000 {
			b.Fatalf("load = %+v, %v", res.Skipped, err)
		}
	}
}
