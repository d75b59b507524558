package bounded

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok", "hello")
	big := write("big", strings.Repeat("x", 100))
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // a 1 TB hole
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	linkToOK := filepath.Join(dir, "link")
	if err := os.Symlink(ok, linkToOK); err != nil {
		t.Fatal(err)
	}
	lim := Limit{"test file", 64}
	for _, tc := range []struct {
		path string
		want string // "" reads "hello"
	}{
		{ok, ""},
		{big, "100 bytes, over the 64-byte limit of a test file"},
		{sparse, "1099511627776 bytes, over the 64-byte limit"},
		{fifo, "not a regular file (named pipe)"},
		{zero, "a symbolic link"},
		{linkToOK, "a symbolic link"},
		{dir, "not a regular file (directory)"},
		{"/dev/zero", "not a regular file (device)"},
		{filepath.Join(dir, "missing"), "no such file"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			data, err := ReadFile(tc.path, lim)
			if tc.want == "" {
				if err != nil || string(data) != "hello" {
					t.Fatalf("ReadFile = %q, %v", data, err)
				}
				return
			}
			var skip *SkipError
			if !errors.As(err, &skip) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadFile = %q, %v; want a SkipError saying %q", data, err, tc.want)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), lim); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadFileIn(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if data, err := ReadFileIn(r, "in", State); err != nil || string(data) != "hello" {
		t.Errorf("ReadFileIn(in) = %q, %v", data, err)
	}
	for _, name := range []string{"out/secret", "../" + filepath.Base(outside) + "/secret"} {
		if data, err := ReadFileIn(r, name, State); err == nil {
			t.Errorf("ReadFileIn(%s) = %q, read outside the root", name, data)
		}
	}
}
