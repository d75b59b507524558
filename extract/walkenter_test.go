package extract

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkEnter checks that WalkOptions.Enter opens a directory of
// DefaultSkipDirs, and that ignore files still apply inside it.
func TestWalkEnter(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"main.go":             "package main\n",
		"vendor/modules.txt":  "# x\n",
		"vendor/x/x.go":       "package x\n",
		"vendor/x/gen.go":     "package x\n",
		".gitignore":          "vendor/x/gen.go\n",
		"node_modules/y/y.js": "y\n",
		"web/vendor/lib/a.js": "a\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	walk := func(opt WalkOptions) []string {
		files, _, err := Walk(context.Background(), root, opt)
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	if got, want := walk(WalkOptions{}), []string{".gitignore", "main.go"}; !slices.Equal(got, want) {
		t.Errorf("default walk %q, want %q", got, want)
	}
	want := []string{".gitignore", "main.go", "vendor/modules.txt", "vendor/x/x.go", "web/vendor/lib/a.js"}
	if got := walk(WalkOptions{Enter: []string{"vendor"}}); !slices.Equal(got, want) {
		t.Errorf("walk entering vendor %q, want %q", got, want)
	}
	if got := walk(WalkOptions{Enter: []string{"vendor"}, SkipDirs: []string{"vendor"}}); !slices.Equal(got, []string{".gitignore", "main.go"}) {
		t.Errorf("SkipDirs over Enter: %q", got)
	}
}
