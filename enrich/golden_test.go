package enrich

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden compares the prompt and both artifacts of each golden file
// with testdata/golden/<base>.{prompt.md,basic.md,enriched.md}. Run
// `go test ./enrich -run TestGolden -update` to rewrite them, then review
// the diff.
func TestGolden(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	for _, p := range goldenFiles {
		base := filepath.Base(p)
		t.Run(base, func(t *testing.T) {
			f, src := r.file(t, p)
			pr, err := sharedBuilder().Prompt(f, r.graph, src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Parts != 1 || pr.Part != 1 {
				t.Errorf("part %d of %d, want 1 of 1", pr.Part, pr.Parts)
			}
			checkGolden(t, base+".prompt.md", []byte(pr.Text))

			checkGolden(t, base+".basic.md", RenderBasic(f, r.graph))

			rep := readReport(t, base+".report.json")
			if err := Validate(rep, f, nil); err != nil {
				t.Fatalf("the golden report is invalid: %v", err)
			}
			md, err := RenderEnriched(f, r.graph, rep, Digests{})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, base+".enriched.md", md)
		})
	}
}

func readReport(t *testing.T, name string) *Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
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
		t.Errorf("%s differs; run `go test ./enrich -run TestGolden -update` and review the diff\n%s", golden, lineDiff(string(want), string(got)))
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString(fmt.Sprintf("line %d:\n", i+1) + "  want " + wl + "\n  got  " + gl + "\n")
			shown++
		}
	}
	return b.String()
}
