package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// setMemoryLimit sets the Go runtime's soft memory limit (GOMEMLIMIT) to
// 90 % of the container's memory limit (its cgroup's memory.max), so the
// garbage collector works harder before the container would be killed for
// memory rather than after. An explicit GOMEMLIMIT wins; AUTOMEMLIMIT sets
// another ratio or "off". Without a cgroup limit nothing changes.
func setMemoryLimit(log *slog.Logger) {
	limit, err := memlimit.Set(memlimit.WithRatio(0.9), memlimit.WithProvider(memlimit.FromCgroup))
	switch {
	case err != nil:
		log.Warn("could not set the Go memory limit from the container's", "err", err)
	case limit > 0 && limit < 1<<62:
		log.Info("memory limit", "GOMEMLIMIT", limit)
	}
}

// startDebug serves Go's profiler (/debug/pprof/) on DEBUG_ADDR, a loopback
// address apart from the public listener, until ctx ends. Off unless the
// variable is set.
func startDebug(ctx context.Context, addr string, log *slog.Logger) error {
	if addr == "" {
		return nil
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("debug listener stopped", "err", err)
		}
	}()
	log.Info("profiler listening (DEBUG_ADDR)", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return nil
}

// logBuffer batches the server's log lines: one request writes one access
// line, and a write system call per line costs more than the line. Lines
// go out every 100 ms or every 32 KiB, and at once for a warning or an
// error, so that what explains a crash is written before it; a kill can
// lose at most the last 100 ms of request lines.
type logBuffer struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	stop chan struct{}
	done chan struct{}
}

const (
	logFlushEvery = 100 * time.Millisecond
	logBufferMax  = 32 << 10
)

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: w, buf: make([]byte, 0, logBufferMax), stop: make(chan struct{}), done: make(chan struct{})}
	go b.run()
	return b
}

var urgentLevels = [][]byte{[]byte("level=WARN"), []byte("level=ERROR"), []byte(`"level":"WARN"`), []byte(`"level":"ERROR"`)}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	urgent := len(b.buf) >= logBufferMax
	for _, l := range urgentLevels {
		urgent = urgent || bytes.Contains(p, l)
	}
	if urgent {
		b.flushLocked()
	}
	return len(p), nil
}

func (b *logBuffer) flushLocked() {
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

func (b *logBuffer) run() {
	defer close(b.done)
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.mu.Lock()
			b.flushLocked()
			b.mu.Unlock()
		}
	}
}

// Close writes what is left and stops the flushing.
func (b *logBuffer) Close() {
	close(b.stop)
	<-b.done
	b.mu.Lock()
	b.flushLocked()
	b.mu.Unlock()
}
