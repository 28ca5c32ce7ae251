package firestore_test

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/store/storetest"
)

// emulatorHost is the Cloud Firestore emulator the tests use
// (scripts/with-firestore.sh starts one and sets the variable).
var emulatorHost = os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")

func TestMain(m *testing.M) {
	flag.Parse()
	if emulatorHost != "" {
		// The client library finds the emulator through this variable.
		os.Setenv("FIRESTORE_EMULATOR_HOST", emulatorHost)
	}
	// The contract's tests mostly wait for the emulator (a contended
	// transaction waits two seconds for its locks there), not for a core:
	// run more of them at once than -parallel's default, the number of
	// cores, unless it was given.
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", "8"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

func needEmulator(t *testing.T) {
	t.Helper()
	if emulatorHost == "" {
		t.Skip("TEST_FIRESTORE_EMULATOR_HOST not set: Firestore tests skipped (scripts/with-firestore.sh starts the emulator)")
	}
}

var (
	runID       = strings.ToLower(rand.Text()[:6])
	projectSeq  atomic.Int64
	projectsMu  sync.Mutex
	projectsRun []string // the projects the contract suite used, for the index check
)

// newProject returns a project ID of its own: the emulator keeps one
// database per project, so tests never see each other's data.
func newProject(prefix string) string {
	return fmt.Sprintf("demo-%s-%s-%d", prefix, runID, projectSeq.Add(1))
}

func open(t *testing.T, project string) *firestore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := firestore.Open(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	needEmulator(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		p := newProject("c")
		projectsMu.Lock()
		projectsRun = append(projectsRun, p)
		projectsMu.Unlock()
		return open(t, p)
	}, storetest.Parallel())
}
