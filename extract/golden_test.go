package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// TestGolden extracts every source file under testdata/golden/<language>/
// (rooted at that directory) and compares the result with the .json file
// beside it. Run `go test ./extract -run TestGolden -update` to rewrite
// them, then review the diff.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		root := filepath.Join("testdata/golden", d.Name())
		ex, err := New(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ex.Close()
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") || name == "go.mod" {
				continue
			}
			t.Run(d.Name()+"/"+name, func(t *testing.T) {
				f, err := ex.File(context.Background(), name)
				if err != nil {
					t.Fatal(err)
				}
				seen[f.Language] = true
				if len(f.Symbols) == 0 {
					t.Errorf("no symbols extracted")
				}
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(f); err != nil {
					t.Fatal(err)
				}
				got := buf.Bytes()
				golden := filepath.Join(root, name+".json")
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the extraction; run `go test ./extract -run TestGolden -update` and review the diff\n%s", golden, lineDiff(string(want), string(got)))
				}
			})
		}
	}
	for _, l := range Languages() {
		if !seen[l] && !t.Failed() {
			t.Errorf("language %s has no golden file in testdata/golden", l)
		}
	}
}

// lineDiff shows the first differing lines of want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return ""
}
