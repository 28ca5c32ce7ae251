// Package benchkit holds what the load benchmarks (backend/cmd/upload-bench,
// backend/cmd/examday-bench) share: starting bin/simulador and the fake
// Cloud Storage server as child processes, creating users with the
// terminal commands, measuring a process's memory and CPU through /proc,
// the machine's load average and pressure, latency quantiles, and plain
// HTTP helpers that speak to the API as a browser does.
//
// FOR BENCHMARKS ONLY: nothing in the product imports it.
package benchkit

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Child is a bin/simulador serve started by StartServer.
type Child struct {
	Cmd  *exec.Cmd
	URL  string // http://127.0.0.1:PORT
	Addr string // 127.0.0.1:PORT
	Log  string // path of its log (standard output and error)
	done chan struct{}
}

// PID is the child's process id.
func (c *Child) PID() int { return c.Cmd.Process.Pid }

// ServerOptions say how to start the server.
type ServerOptions struct {
	Bin      string   // the simulador binary
	DataDir  string   // its DATA_DIR; the log goes to DATA_DIR/server.log
	LogLevel string   // LOG_LEVEL; "" is info
	Env      []string // more variables (KEY=VALUE), after the defaults
	Addr     string   // listen address; "" picks a free port on 127.0.0.1
	LogPath  string   // where the log goes; "" is DATA_DIR/server.log
}

// FreeAddr returns a free 127.0.0.1 port (closed again, so another process
// may take it first: good enough for a benchmark).
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr, nil
}

// StartServer starts `bin serve` with DATA_DIR and a free port, and waits
// until /api/health answers 200 (30 s at most). The store and media are
// the defaults (SQLite and DATA_DIR/media) unless Env says otherwise.
func StartServer(ctx context.Context, o ServerOptions) (*Child, error) {
	addr := o.Addr
	if addr == "" {
		var err error
		if addr, err = FreeAddr(); err != nil {
			return nil, err
		}
	}
	logPath := o.LogPath
	if logPath == "" {
		logPath = filepath.Join(o.DataDir, "server.log")
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	level := o.LogLevel
	if level == "" {
		level = "info"
	}
	cmd := exec.Command(o.Bin, "serve")
	cmd.Env = append(os.Environ(), "DATA_DIR="+o.DataDir, "ADDR="+addr, "PORT=", "LOG_LEVEL="+level, "MEDIA_BUCKET=", "STORAGE_EMULATOR_HOST=")
	cmd.Env = append(cmd.Env, o.Env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s serve: %w", o.Bin, err)
	}
	c := &Child{Cmd: cmd, URL: "http://" + addr, Addr: addr, Log: logPath, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logFile.Close(); close(c.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(c.URL + "/api/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				Logf("server pid %d at %s (DATA_DIR %s)", cmd.Process.Pid, c.URL, o.DataDir)
				return c, nil
			}
		}
		select {
		case <-c.done:
			return nil, fmt.Errorf("the server exited at start:\n%s", Tail(logPath, 20))
		case <-ctx.Done():
			c.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.Stop()
			return nil, fmt.Errorf("the server did not answer /api/health in 30s:\n%s", Tail(logPath, 20))
		}
	}
}

// Stop ends the server with SIGTERM (SIGKILL after 20 s) and waits for it.
func (c *Child) Stop() {
	_ = c.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		_ = c.Cmd.Process.Kill()
		<-c.done
	}
}

// Exited reports whether the server has exited.
func (c *Child) Exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// GCSChild is bin/gcs-test-server (fake Cloud Storage) started by StartGCS.
type GCSChild struct {
	Cmd          *exec.Cmd
	Host, Bucket string
	done         chan struct{}
}

// StartGCS starts the fake Cloud Storage server on a free port with its
// objects as files under root, and waits for the line it prints once it
// listens. Its in-memory backend scans every object on each write, which a
// long run would measure instead of the server.
func StartGCS(ctx context.Context, bin, root, bucket string) (*GCSChild, error) {
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-bucket", bucket, "-dir", root)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s (make bench builds it): %w", bin, err)
	}
	g := &GCSChild{Cmd: cmd, done: make(chan struct{})}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, out)
	}()
	go func() { _ = cmd.Wait(); close(g.done) }()
	select {
	case line, ok := <-lines:
		var ready struct{ Host, Bucket string }
		if !ok || json.Unmarshal([]byte(line), &ready) != nil || ready.Host == "" {
			g.Stop()
			return nil, fmt.Errorf("%s did not start (printed %q)", bin, line)
		}
		g.Host, g.Bucket = ready.Host, ready.Bucket
		Logf("fake Cloud Storage pid %d at %s, bucket %s", cmd.Process.Pid, g.Host, g.Bucket)
		return g, nil
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	g.Stop()
	return nil, fmt.Errorf("%s did not start in 30s", bin)
}

// Stop ends the fake Cloud Storage server.
func (g *GCSChild) Stop() {
	_ = g.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-g.done:
	case <-time.After(10 * time.Second):
		_ = g.Cmd.Process.Kill()
		<-g.done
	}
}

// FakeGCSRoot makes the directory of the fake bucket's files: in /dev/shm
// when there is one. The fake writes each object with an fsync under one
// lock, so on a disk its queue would measure this machine's disk flushes
// rather than the server (Cloud Storage's own durability is not what the
// benchmarks are about).
func FakeGCSRoot(tmp string) (string, error) {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		tmp = "/dev/shm"
	}
	return os.MkdirTemp(tmp, "bench-gcs-")
}

// StartPerf runs `perf record -g` on pid until the returned func is called.
func StartPerf(out string, pid int) (func(), error) {
	if pid <= 0 {
		return nil, errors.New("perf needs the server's process id")
	}
	cmd := exec.Command("perf", "record", "-F", "499", "-g", "-p", strconv.Itoa(pid), "-o", out)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	return func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		Logf("server profile written to %s (perf report -i %s)", out, out)
	}, nil
}

// CreateUser runs `bin users create` with the password on standard input
// (never on the command line), in the environment env (DATA_DIR or
// DATABASE_URL of the server).
func CreateUser(ctx context.Context, bin string, env []string, email, role, password string) error {
	cmd := exec.CommandContext(ctx, bin, "users", "create", "--email", email, "--role", role)
	cmd.Stdin = strings.NewReader(password + "\n")
	cmd.Env = append(append(os.Environ(), env...), "LOG_LEVEL=warn")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("users create %s: %w: %s", email, err, out)
	}
	return nil
}

// Parallel runs fn(0..n-1) on workers goroutines and returns the first error.
func Parallel(ctx context.Context, workers, n int, fn func(int) error) error {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n))
					return
				}
			}
		})
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// WriteJSON writes v, indented, to path (creating its directory).
func WriteJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// DirSize is the total size of the files under dir.
func DirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// Tail is the last n lines of the file at path.
func Tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Logf prints a time-stamped progress line on standard error.
func Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
