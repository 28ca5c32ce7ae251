// Package safebuf is a bytes.Buffer that goroutines may write to while a
// test reads it: the place a test points a server's or a service's log.
package safebuf

import (
	"bytes"
	"sync"
)

// Buffer collects writes from any goroutine; the zero value is ready.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
