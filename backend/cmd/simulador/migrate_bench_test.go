package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

// growPilot adds a class's worth of practice to a pilot, straight through
// the store and the media directory (the services would hash a password
// per student): students in a group, two abandoned mock exams each with
// two takes of chunks of audio, three of four takes composed, and a
// transcript per take. It returns the number of takes and audio bytes.
func growPilot(tb testing.TB, p *pilot, students, chunks int) (takes int, audio int64) {
	tb.Helper()
	ctx := context.Background()
	a, err := newApp(ctx, io.Discard, true)
	if err != nil {
		tb.Fatal(err)
	}
	defer a.Close()
	hash, err := auth.HashPassword(pilotPassword)
	if err != nil {
		tb.Fatal(err)
	}
	cases, err := a.store.ListCases(ctx, store.CaseFilter{})
	if err != nil {
		tb.Fatal(err)
	}
	g := domain.Group{ID: domain.NewID(), Carrera: "derecho", DocenteEmail: "tutor.clase@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: time.Now()}
	for i := range students {
		u := domain.User{ID: domain.NewID(), Mail: fmt.Sprintf("estudiante%04d@utpl.edu.ec", i), DisplayName: fmt.Sprintf("Estudiante %d", i),
			Role: domain.RoleStudent, CreatedAt: time.Now()}
		if err := a.store.CreateUser(ctx, u); err != nil {
			tb.Fatal(err)
		}
		if err := a.store.SetPasswordHash(ctx, u.ID, hash); err != nil {
			tb.Fatal(err)
		}
		g.Estudiantes = append(g.Estudiantes, domain.GroupStudent{Email: u.Mail, Name: u.DisplayName, AddedAt: time.Now()})
		for j := range 2 {
			at := domain.NewAttempt(domain.NewID(), u, cases[(i+j)%len(cases)], domain.DefaultBlueprint("derecho"), domain.DefaultRubric("derecho"), domain.ModeMock, time.Now())
			if err := at.Abandon(time.Now()); err != nil {
				tb.Fatal(err)
			}
			if err := a.store.CreateAttempt(ctx, at); err != nil {
				tb.Fatal(err)
			}
			for k := range 2 {
				r := domain.Recording{ID: fmt.Sprintf("toma-%d-%d-%04d", j, k, i), AttemptID: at.ID, Phase: 1, MimeType: "audio/webm;codecs=opus", CreatedAt: time.Now()}
				if _, err := a.store.CreateRecording(ctx, r); err != nil {
					tb.Fatal(err)
				}
				key := at.ID + "/" + r.ID
				var described []media.Chunk
				for seq := range chunks {
					b := make([]byte, 2000+seq)
					rand.Read(b)
					st, err := a.media.Stage(bytes.NewReader(b), 1<<20)
					if err != nil {
						tb.Fatal(err)
					}
					info := domain.ChunkInfo{Seq: seq, Bytes: st.Bytes, SHA256: st.SHA256}
					if err := a.media.Commit(ctx, st, key, seq); err != nil {
						tb.Fatal(err)
					}
					if err := a.store.AddChunk(ctx, at.ID, r.ID, info); err != nil {
						tb.Fatal(err)
					}
					described = append(described, media.Chunk{Bytes: info.Bytes, SHA256: info.SHA256})
					audio += info.Bytes
				}
				r.Complete, r.DurationMs = true, int64(chunks)*2000
				if err := a.store.UpdateRecording(ctx, r); err != nil {
					tb.Fatal(err)
				}
				if (i+j+k)%4 != 0 {
					if err := a.media.Compose(ctx, key, described); err != nil {
						tb.Fatal(err)
					}
					if err := a.store.MarkRecordingComposed(ctx, at.ID, r.ID); err != nil {
						tb.Fatal(err)
					}
				}
				if err := a.store.PutTranscript(ctx, domain.Transcript{AttemptID: at.ID, RecordingID: r.ID, Source: domain.TranscriptBrowser, Language: "es-EC",
					Segments: []domain.Segment{{StartMs: 0, EndMs: 1500, Text: "Señores miembros del tribunal"}}, UpdatedAt: time.Now()}); err != nil {
					tb.Fatal(err)
				}
				takes++
			}
		}
	}
	if err := a.store.CreateGroup(ctx, g); err != nil {
		tb.Fatal(err)
	}
	return takes, audio
}

// BenchmarkMigratePilot times migrate-data on a pilot of 100 students (two
// mock exams each, 400 takes of 20 chunks, about 16 MB of audio, some 1,200
// records): into a new SQLite data directory always; and, when
// scripts/with-postgres.sh and scripts/with-firestore.sh provide them, to
// PostgreSQL or Firestore with a bucket (fake-gcs-server) and back to a new
// SQLite data directory (one operation is both ways).
func BenchmarkMigratePilot(b *testing.B) {
	p := newPilot(b)
	takes, audio := growPilot(b, p, 100, 20)
	b.Logf("pilot: %d records, %d takes with audio (%d bytes of it)", countRecords(b, p.dir), takes+len(p.recordings), audio+pilotAudio(p))
	from := []string{"--from", "sqlite://" + p.dir}
	b.Run("sqlite", func(b *testing.B) {
		for b.Loop() {
			mustMigrate(b, append(from, "--to", "sqlite://"+b.TempDir())...)
		}
	})
	for _, tc := range []struct {
		name string
		dest func(testing.TB) destination
	}{{"postgres+bucket", postgresDestination}, {"firestore+bucket", firestoreDestination}} {
		b.Run(tc.name+"-and-back", func(b *testing.B) {
			for b.Loop() {
				dest := tc.dest(b)
				start := time.Now()
				mustMigrate(b, append(from, dest.args...)...)
				there := time.Since(start)
				mustMigrate(b, append(dest.from, "--to", "sqlite://"+b.TempDir())...)
				b.ReportMetric(there.Seconds(), "s-there/op")
				b.ReportMetric((time.Since(start) - there).Seconds(), "s-back/op")
			}
		})
	}
}

func countRecords(tb testing.TB, dataDir string) int64 {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(dataDir, "simulador.db"))
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	var n int64
	for _, kind := range store.Kinds {
		c, err := st.CountRecords(context.Background(), kind)
		if err != nil {
			tb.Fatal(err)
		}
		n += c
	}
	return n
}

func pilotAudio(p *pilot) int64 {
	var n int64
	for _, b := range p.recordings {
		n += int64(len(b))
	}
	return n
}
