package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/movein"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/testsupport/earlierapp"
)

// BenchmarkMovingIn measures moving a faculty of realistic size in on the
// Firestore emulator: 5,000 profiles as the earlier app wrote them (50
// tutors, 4,950 students), 50 active groups of 99 students, and an
// Authentication export of the 5,000 accounts; adopt, a second adopt, and
// import-firebase. The hashes are random (the import stores them; only a
// sign-in computes one). Run it with
//
//	scripts/with-firestore.sh go test -run '^$' -bench MovingIn -benchtime 1x ./backend/cmd/simulador/
func BenchmarkMovingIn(b *testing.B) {
	host := os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")
	if host == "" {
		b.Skip("TEST_FIRESTORE_EMULATOR_HOST not set (scripts/with-firestore.sh starts the emulator)")
	}
	b.Setenv("FIRESTORE_EMULATOR_HOST", host)
	const tutors, perGroup = 50, 99
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for b.Loop() {
		project := "demo-bench-movein-" + strings.ToLower(rand.Text()[:8])
		app, err := gcloud.NewApp(ctx, project)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := app.Firestore(ctx)
		if err != nil {
			b.Fatal(err)
		}
		bw := raw.BulkWriter(ctx)
		must := func(_ any, err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		must(bw.Set(raw.Collection("degree").Doc("DegBenchDerecho"), map[string]any{"id": "DegBenchDerecho", "nombre": "Derecho"}))
		var users []map[string]any
		key := earlierapp.Params().SignerKey
		hash := make([]byte, len(key))
		for g := range tutors {
			tutor := fmt.Sprintf("Docente.%02d@UTPL.edu.ec", g)
			uid := fmt.Sprintf("uidTutor%020d", g)
			must(bw.Set(raw.Collection("users").Doc(uid), map[string]any{"id": uid, "mail": tutor, "displayName": "Docente", "role": "tutor"}))
			users = append(users, map[string]any{"localId": uid, "email": strings.ToLower(tutor), "providerUserInfo": []any{map[string]any{"providerId": "microsoft.com"}}})
			var list []any
			for s := range perGroup {
				mail := fmt.Sprintf("estudiante.%02d.%03d@utpl.edu.ec", g, s)
				suid := fmt.Sprintf("uidEst%02d%020d", g, s)
				must(bw.Set(raw.Collection("users").Doc(suid), map[string]any{"id": suid, "mail": mail, "displayName": "Estudiante", "role": "estudiante"}))
				list = append(list, map[string]any{"email": mail, "attempts": []any{}})
				_, _ = rand.Read(hash)
				users = append(users, map[string]any{"localId": suid, "email": mail, "passwordHash": base64.StdEncoding.EncodeToString(hash),
					"salt": base64.StdEncoding.EncodeToString(hash[:12]), "createdAt": "1690000000000"})
			}
			gid := fmt.Sprintf("grpBench%012d", g)
			must(bw.Set(raw.Collection("groupStudents").Doc(gid), map[string]any{"id": gid, "carrera": "DegBenchDerecho",
				"docente": map[string]any{"email": tutor}, "status": "activo", "estudiantes": list}))
		}
		bw.End()
		raw.Close()
		export, _ := json.Marshal(map[string]any{"users": users})

		st, err := firestore.OpenForAdopt(ctx, project)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		rep, err := st.Adopt(ctx, false, log, start)
		if err != nil || rep.StudentsCopied != tutors*perGroup {
			b.Fatalf("adopt: %+v, %v", rep, err)
		}
		adoptTime := time.Since(start)
		start = time.Now()
		if rep, err := st.Adopt(ctx, false, log, start); err != nil || rep.Writes != 0 {
			b.Fatalf("second adopt: %+v, %v", rep, err)
		}
		again := time.Since(start)
		st.Close()

		full, err := firestore.Open(ctx, project)
		if err != nil {
			b.Fatal(err)
		}
		exp, err := movein.ReadAuthExport(bytes.NewReader(export))
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		irep, err := movein.ImportFirebase(ctx, full, exp, earlierapp.Params(), false, log, start)
		if err != nil || irep.Passwords != tutors*perGroup {
			b.Fatalf("import: %+v, %v", irep, err)
		}
		importTime := time.Since(start)
		full.Close()
		b.ReportMetric(adoptTime.Seconds(), "adopt-s")
		b.ReportMetric(again.Seconds(), "adopt-again-s")
		b.ReportMetric(importTime.Seconds(), "import-s")
	}
}
