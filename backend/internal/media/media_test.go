package media

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestStageCommitOpen(t *testing.T) {
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"hola ", "tribunal, ", "buenos días"}
	var sizes []int64
	for i, p := range parts {
		s, err := d.Stage(strings.NewReader(p), 100)
		if err != nil {
			t.Fatal(err)
		}
		if s.Bytes != int64(len(p)) || len(s.SHA256) != 64 {
			t.Fatalf("staged = %+v", s)
		}
		if err := d.Commit(s, "att1/rec1", i); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, s.Bytes)
	}
	r, err := d.Open("att1/rec1", sizes)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, err := io.ReadAll(r)
	if err != nil || string(all) != strings.Join(parts, "") {
		t.Fatalf("read %q, %v", all, err)
	}
	// Seeking across chunk boundaries (what a Range request does).
	if _, err := r.Seek(3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	n, _ := io.ReadFull(r, buf)
	if string(buf[:n]) != "a tribunal" {
		t.Fatalf("after seek: %q", buf[:n])
	}
	if end, _ := r.Seek(-4, io.SeekEnd); end != int64(len(strings.Join(parts, "")))-4 {
		t.Fatalf("seek end = %d", end)
	}
	rest, _ := io.ReadAll(r)
	if string(rest) != "días"[len("días")-4:] {
		t.Fatalf("tail = %q", rest)
	}
	if err := d.Delete("att1/rec1"); err != nil {
		t.Fatal(err)
	}
	r2, _ := d.Open("att1/rec1", sizes)
	if _, err := io.ReadAll(r2); err == nil {
		t.Fatal("deleted media still readable")
	}
}

func TestStageRefusesOversizedChunks(t *testing.T) {
	d, _ := NewDir(t.TempDir())
	if _, err := d.Stage(bytes.NewReader(make([]byte, 101)), 100); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestKeysCannotEscape(t *testing.T) {
	d, _ := NewDir(t.TempDir())
	s, _ := d.Stage(strings.NewReader("x"), 10)
	defer s.Discard()
	for _, k := range []string{"../x/y", "a/../../b", "a", "a/b/c", "a/b c"} {
		if err := d.Commit(s, k, 0); err == nil {
			t.Errorf("key %q accepted", k)
		}
	}
}
