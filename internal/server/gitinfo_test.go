package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestGitHeadBounded spoils the files gitHead reads (see fixture.Spoil):
// none blocks it or is read without bound, and none yields a commit; nor
// does a HEAD that is a symbolic link to a file elsewhere.
func TestGitHeadBounded(t *testing.T) {
	sha := strings.Repeat("ab", 20)
	for _, file := range []string{"HEAD", "refs/heads/main", "packed-refs"} {
		for _, how := range fixture.Spoilings {
			t.Run(file+"/"+string(how), func(t *testing.T) {
				root := t.TempDir()
				files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": sha + "\n"}
				if file == "packed-refs" {
					files = map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/packed-refs": sha + " refs/heads/main\n"}
				}
				writeTree(t, root, files)
				if got := gitHead(root); got != sha {
					t.Fatalf("gitHead before spoiling = %q, want %q", got, sha)
				}
				fixture.Spoil(t, filepath.Join(root, ".git", filepath.FromSlash(file)), how)
				done := make(chan string, 1)
				go func() { done <- gitHead(root) }()
				select {
				case got := <-done:
					if got != "" {
						t.Errorf("gitHead = %q, want none", got)
					}
				case <-time.After(2 * time.Minute): // a guard against a hang, not a measure
					t.Fatal("gitHead blocked")
				}
			})
		}
	}
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, outside, map[string]string{"HEAD": sha + "\n"})
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	if err := os.Symlink(filepath.Join(outside, "HEAD"), filepath.Join(root, ".git", "HEAD")); err != nil {
		t.Skip(err)
	}
	if got := gitHead(root); got != "" {
		t.Errorf("gitHead through a linked HEAD = %q, want none", got)
	}
}
