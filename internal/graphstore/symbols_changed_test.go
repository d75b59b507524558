package graphstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOpenSymbolsChanged: the index opens with the files changed, added
// and removed since it was saved named, while OpenSymbols refuses it;
// a changed go.mod makes it stale.
func TestOpenSymbolsChanged(t *testing.T) {
	root := symbolsTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	s, changed, err := OpenSymbolsChanged(ctx, Options{Root: root})
	if err != nil || len(changed) != 0 {
		t.Fatalf("fresh index: %v, changed %v", err, changed)
	}
	s.Close()
	write(t, root, "lib/lib.go", "package lib\n\nfunc Changed() {}\n")
	write(t, root, "web/new.js", "function added() {}\n")
	os.Remove(filepath.Join(root, "pkg", "m3.py"))
	if _, err := OpenSymbols(ctx, Options{Root: root}); !errors.Is(err, ErrStale) {
		t.Fatalf("OpenSymbols after edits: %v, want ErrStale", err)
	}
	s, changed, err = OpenSymbolsChanged(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := []string{"lib/lib.go", "pkg/m3.py", "web/new.js"}; !slices.Equal(changed, want) {
		t.Errorf("changed %v, want %v", changed, want)
	}
	if ids := s.Named("changed"); len(ids) != 0 {
		t.Errorf("the index knows a symbol saved after it: %v", ids)
	}
	write(t, root, "go.mod", "module example.com/y\n")
	if _, _, err := OpenSymbolsChanged(ctx, Options{Root: root}); !errors.Is(err, ErrStale) {
		t.Errorf("after a go.mod edit: %v, want ErrStale", err)
	}
}
