package graphstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestRebuildsHostileFile puts in place of graph.bin what a hostile or
// unlucky user leaves there (a link to /dev/zero, a FIFO, a 1 TB sparse
// file, garbage, a truncated copy): Sync must refuse it without blocking
// or reading it whole, answer as from scratch, say so in one log line
// naming the file and why, and save a good file in its place.
func TestRebuildsHostileFile(t *testing.T) {
	for _, how := range fixture.Spoilings {
		t.Run(string(how), func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "a.py", "def f():\n    g()\n\ndef g():\n    pass\n")
			ctx := context.Background()
			if _, err := Sync(ctx, Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(root, ".artifacts", ".index", FileName)
			fixture.Spoil(t, file, how)
			var logs bytes.Buffer
			snap := syncGuarded(t, Options{Root: root, Log: slog.New(slog.NewTextHandler(&logs, nil))})
			if snap.Extracted != 1 || len(snap.Files) != 1 || len(snap.Graph().Edges()) != 1 {
				t.Errorf("extracted %d, %d files, %d edges; want 1, 1, 1", snap.Extracted, len(snap.Files), len(snap.Graph().Edges()))
			}
			want := map[fixture.Spoiling]string{
				fixture.LinkToDevZero: "symbolic link",
				fixture.FIFO:          "named pipe",
				fixture.Sparse:        "over the",
				fixture.Garbage:       "not a saved graph",
				fixture.Truncated:     "truncated",
			}[how]
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], "rebuilding the saved graph") || !strings.Contains(lines[0], file) || !strings.Contains(lines[0], want) {
				t.Errorf("log %q; want one rebuild line naming %s and saying %q", logs.String(), file, want)
			}
			if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s not replaced by a regular file: %v", file, err)
			}
			if _, err := Load(file); err != nil {
				t.Errorf("the rebuilt file does not load: %v", err)
			}
		})
	}
}

// syncGuarded runs Sync, failing t if it does not return: a file that
// blocks it (a FIFO) would otherwise hang the test binary.
func syncGuarded(t *testing.T, opt Options) *Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	type result struct {
		snap *Snapshot
		err  error
	}
	done := make(chan result, 1)
	go func() {
		snap, err := Sync(ctx, opt)
		done <- result{snap, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.snap
	case <-ctx.Done():
		t.Fatal("Sync blocked on the saved state")
		return nil
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// endless reads as /dev/zero does, after a prefix.
type endless struct{ prefix []byte }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	clear(p[n:])
	return len(p), nil
}

// TestLoadReadsHeaderFirst checks a file whose header is wrong, or whose
// header declares a payload its size does not hold, is refused after its
// header is read, not after gigabytes: nothing past the header is read.
func TestLoadReadsHeaderFirst(t *testing.T) {
	good, err := Encode(&State{Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	withLength := func(n uint64) []byte {
		h := bytes.Clone(good[:headerSize])
		binary.LittleEndian.PutUint64(h[len(magic)+12:], n)
		return h
	}
	const big = 3 << 30 // a file of 3 GB, under the cap of a state file
	for _, tc := range []struct {
		name   string
		prefix []byte
		size   int64
		want   string
	}{
		{"garbage", bytes.Repeat([]byte("garbage!"), 8), big, "bad header"},
		{"zeros", nil, big, "bad header"},
		{"old version", append([]byte(magic), make([]byte, headerSize)...), big, "another version"},
		{"longer than declared", withLength(10), big, "header says 10"},
		{"shorter than declared", withLength(big), 1 << 20, "truncated"},
		{"too short for a header", nil, int64(headerSize) - 1, "bad header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{r: &endless{prefix: tc.prefix}}
			_, err := read(r, tc.size)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("read = %v; want an error saying %q", err, tc.want)
			}
			if r.n > int64(headerSize) {
				t.Errorf("read %d bytes before refusing; want at most the %d of the header", r.n, headerSize)
			}
		})
	}
	// A good file reads whole, once.
	r := &countingReader{r: bytes.NewReader(good)}
	if st, err := read(r, int64(len(good))); err != nil || st.Key != "k" || r.n != int64(len(good)) {
		t.Errorf("read of a good file = %+v, %v after %d of %d bytes", st, err, r.n, len(good))
	}
}

// TestLoadRefusesBeforeReading checks Load refuses what is no regular
// file of a state file's size from its open and fstat alone, with a
// *bounded.SkipError saying why.
func TestLoadRefusesBeforeReading(t *testing.T) {
	for _, how := range []fixture.Spoiling{fixture.LinkToDevZero, fixture.FIFO, fixture.Sparse} {
		t.Run(string(how), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), FileName)
			os.WriteFile(file, []byte("x"), 0o644)
			fixture.Spoil(t, file, how)
			done := make(chan error, 1)
			go func() { _, err := Load(file); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("Load blocked")
			}
			var skip *bounded.SkipError
			if !errors.As(err, &skip) {
				t.Fatalf("Load = %v; want a *bounded.SkipError", err)
			}
		})
	}
}

// TestNoLoadThroughLink checks a saved state reached through a
// .artifacts that links outside the root is not taken for the root's:
// none is saved there (TestNoSaveThroughLink), and one found there was
// put by someone else.
func TestNoLoadThroughLink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, root, "a.py", "def f():\n    pass\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a.py"), old, old)
	if _, err := Sync(context.Background(), Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(outside, "artifacts")
	if err := os.Rename(filepath.Join(root, ".artifacts"), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, filepath.Join(root, ".artifacts")); err != nil {
		t.Skip(err)
	}
	var logs bytes.Buffer
	snap, err := Sync(context.Background(), Options{Root: root, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Reused != 0 || snap.Extracted != 1 || !strings.Contains(logs.String(), "rebuilding the saved graph") {
		t.Errorf("reused %d, extracted %d, log %q; want the linked state refused", snap.Reused, snap.Extracted, logs.String())
	}
}

// FuzzDecodeFile fuzzes whole files, header included (FuzzDecode fuzzes
// the payload behind a good header): read, as Load reads a file, and
// Decode agree and never panic; a header they refuse is refused before
// anything past it is read; and a state they accept round-trips.
func FuzzDecodeFile(f *testing.F) {
	good, err := Encode(&State{Key: "k", Files: []Entry{{Path: "a.py", Size: 3, Hash: "h", Skip: "s"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:headerSize])
	f.Add(good[:len(good)-1])
	f.Add(append(bytes.Clone(good), 0))
	f.Add([]byte(magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &countingReader{r: bytes.NewReader(data)}
		st, err := read(r, int64(len(data)))
		st2, err2 := Decode(data)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("read: %v; Decode: %v", err, err2)
		}
		if err != nil {
			if len(data) < headerSize {
				if r.n > 0 {
					t.Errorf("read %d bytes of a file shorter than a header", r.n)
				}
			} else if _, _, herr := parseHeader(data[:headerSize], int64(len(data))); herr != nil && r.n > int64(headerSize) {
				t.Errorf("read %d bytes past a header refused: %v", r.n, herr)
			}
			return
		}
		if !reflect.DeepEqual(st, st2) {
			t.Fatal("read and Decode differ")
		}
		again, err := Encode(st)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(again)
		if err != nil || !reflect.DeepEqual(back, st) {
			t.Fatalf("a decoded state does not round-trip: %v", err)
		}
	})
}
