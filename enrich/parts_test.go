package enrich

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// bigPython generates a Python module with every shape the splitter must
// handle: small functions with comments above them, a class larger than a
// small budget, a function larger than any budget tried, a long run of
// lines outside any symbol, and a line longer than a small budget.
func bigPython(funcs int) string {
	var b strings.Builder
	b.WriteString("\"\"\"A generated module.\"\"\"\n\nimport os\nimport json\n\n")
	for i := range funcs {
		fmt.Fprintf(&b, "\n# helper %d does a little arithmetic.\ndef helper_%d(x, y=%d):\n", i, i, i)
		fmt.Fprintf(&b, "    \"\"\"Return a mix of x and y.\"\"\"\n")
		for j := range i % 7 {
			fmt.Fprintf(&b, "    x = x * %d + y  # step %d\n", j+2, j)
		}
		if i > 0 {
			fmt.Fprintf(&b, "    return helper_%d(x, y)\n", i-1)
		} else {
			b.WriteString("    return x\n")
		}
	}
	b.WriteString("\n\nclass Machine:\n    \"\"\"A class with many methods.\"\"\"\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "    def op_%d(self, v):\n        \"\"\"Operation %d.\"\"\"\n        v = helper_%d(v)\n        return self.op_%d(v) if v else v\n\n", i, i, i%funcs, (i+1)%40)
	}
	b.WriteString("\nTABLE = [\n")
	for i := range 600 {
		fmt.Fprintf(&b, "    (%d, %q, %d.5),\n", i, fmt.Sprintf("entry-%d", i), i*3)
	}
	b.WriteString("]\n\n\ndef giant(data):\n    \"\"\"One function too long for a small budget.\"\"\"\n    total = 0\n")
	for i := range 900 {
		fmt.Fprintf(&b, "    total += data.get(%q, %d) * helper_%d(%d)\n", fmt.Sprintf("k%d", i), i, i%funcs, i)
	}
	fmt.Fprintf(&b, "    blob = %q\n", strings.Repeat("lorem ipsum dolor sit amet ", 2000))
	b.WriteString("    return total\n\n\ndef tail():\n    return giant({})\n")
	return b.String()
}

// extractOne writes src as path under a temporary root and extracts it.
func extractOne(t testing.TB, path, src string) (*extract.File, *callgraph.Graph) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, path), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Sources of one long line are extracted too: they are what the
	// budget is tested on.
	ex, err := extract.New(root, extract.Options{KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f, callgraph.Build([]extract.File{*f})
}

func TestPartsSplitBigFile(t *testing.T) {
	src := bigPython(120)
	f, g := extractOne(t, "big.py", src)
	lines := len(sourceLines([]byte(src)))
	b := sharedBuilder()
	e, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{3000, 8000, 24000, 1_000_000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			first, err := b.Prompt(f, g, []byte(src), Options{MaxTokens: budget})
			if err != nil {
				t.Fatal(err)
			}
			if budget == 1_000_000 && first.Parts != 1 {
				t.Errorf("%d parts under a budget larger than the file", first.Parts)
			}
			if budget == 3000 && first.Parts < 10 {
				t.Errorf("only %d parts under budget 3000", first.Parts)
			}
			seen := map[string]int{}
			prevEnd := 0
			var cut, chunked bool
			for k := 1; k <= first.Parts; k++ {
				p, err := b.Prompt(f, g, []byte(src), Options{MaxTokens: budget, Part: k})
				if err != nil {
					t.Fatalf("part %d: %v", k, err)
				}
				if p.Part != k || p.Parts != first.Parts {
					t.Errorf("part %d says it is %d of %d (first said %d)", k, p.Part, p.Parts, first.Parts)
				}
				if p.Tokens > budget {
					t.Errorf("part %d: %d tokens over the budget %d", k, p.Tokens, budget)
				}
				byLine, _ := b.Count(p.Text)
				if p.Tokens != byLine {
					t.Errorf("part %d: Tokens %d, Count(Text) %d", k, p.Tokens, byLine)
				}
				if whole := len(e.EncodeOrdinary(p.Text)); whole > p.Tokens {
					t.Errorf("part %d: %d tokens encoded whole, more than the %d counted", k, whole, p.Tokens)
				}
				if p.StartLine != prevEnd+1 || p.EndLine < p.StartLine {
					t.Errorf("part %d: lines %d–%d after a part ending at %d", k, p.StartLine, p.EndLine, prevEnd)
				}
				for _, l := range []int{p.StartLine, p.EndLine} {
					if !strings.Contains(p.Text, fmt.Sprintf("\n%d\t", l)) {
						t.Errorf("part %d: line %d not shown", k, l)
					}
				}
				prevEnd = p.EndLine
				for _, s := range p.Symbols {
					seen[s]++
				}
				for _, s := range f.Symbols {
					// A part asks for a symbol it shows the declaration of,
					// or, for one split by lines, the end of.
					in := func(l int) bool { return p.StartLine <= l && l <= p.EndLine }
					if slicesContains(p.Symbols, localName(f, s.Qualified)) && !in(s.StartLine) && !in(s.EndLine) {
						t.Errorf("part %d (lines %d–%d) asks for %s, lines %d–%d", k, p.StartLine, p.EndLine, s.Qualified, s.StartLine, s.EndLine)
					}
				}
				if first.Parts > 1 && !strings.Contains(p.Text, fmt.Sprintf("This is part %d of %d", k, first.Parts)) {
					t.Errorf("part %d does not say which part it is", k)
				}
				cut = cut || strings.Contains(p.Text, "…[line cut:")
				chunked = chunked || strings.Contains(p.Text, "is larger than the budget on its own, so its source is split by lines")
			}
			if prevEnd != lines {
				t.Errorf("the parts end at line %d of %d", prevEnd, lines)
			}
			for _, s := range f.Symbols {
				name := localName(f, s.Qualified)
				if seen[name] != 1 {
					t.Errorf("%s asked for in %d parts", name, seen[name])
				}
			}
			if budget == 3000 && (!cut || !chunked) {
				t.Errorf("budget 3000: a cut line %v, a symbol split by lines %v; want both", cut, chunked)
			}
			if _, err := b.Prompt(f, g, []byte(src), Options{MaxTokens: budget, Part: first.Parts + 1}); err == nil || !strings.Contains(err.Error(), "out of range") {
				t.Errorf("part past the last: %v", err)
			}
		})
	}
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestPartsBudgetTooSmall(t *testing.T) {
	src := bigPython(10)
	f, g := extractOne(t, "big.py", src)
	_, err := sharedBuilder().Prompt(f, g, []byte(src), Options{MaxTokens: 500})
	if err == nil || !strings.Contains(err.Error(), "too small") {
		t.Fatalf("got %v, want a budget too small", err)
	}
	if _, err := sharedBuilder().Prompt(f, g, []byte(src), Options{MaxTokens: -1}); err == nil {
		t.Error("a negative budget was accepted")
	}
}
