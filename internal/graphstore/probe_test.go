package graphstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSavedFor: a graph saved by Sync is saved for the same options and
// not for another key; a missing, foreign or cut file is not.
func TestSavedFor(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.go", "package a\n\nfunc A() { B() }\n\nfunc B() {}\n")
	opt := Options{Root: root, Key: "one"}
	if SavedFor(opt) {
		t.Fatal("SavedFor before anything was saved")
	}
	if _, err := Sync(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if !SavedFor(opt) {
		t.Fatal("SavedFor(the options it was saved with) = false")
	}
	if other := (Options{Root: root, Key: "two"}); SavedFor(other) {
		t.Fatal("SavedFor(another key) = true")
	}
	small := opt
	small.Extract.MaxFileSize = 1 << 10
	if SavedFor(small) {
		t.Fatal("SavedFor(another size limit) = true")
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 7, headerSize - 1, headerSize + 3} {
		if err := os.WriteFile(file, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		if SavedFor(opt) {
			t.Errorf("SavedFor(a file cut to %d bytes) = true", cut)
		}
	}
}

// FuzzDecodeKey: any payload gives a key or false, never a panic.
func FuzzDecodeKey(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 'a', 'b', 'c'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, payload []byte) {
		if key, ok := decodeKey(payload); ok && len(key) > len(payload) {
			t.Fatalf("key of %d bytes from %d", len(key), len(payload))
		}
	})
}
