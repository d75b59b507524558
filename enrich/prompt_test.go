package enrich

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestPromptDeterministic builds each golden prompt with a fresh Builder
// and, concurrently, with a shared warm one: the text never differs.
func TestPromptDeterministic(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	for _, p := range goldenFiles {
		f, src := r.file(t, p)
		want, err := NewBuilder().Prompt(f, r.graph, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				got, err := sharedBuilder().Prompt(f, r.graph, src, Options{})
				if err != nil {
					t.Error(err)
					return
				}
				if got.Text != want.Text || got.Tokens != want.Tokens {
					t.Errorf("%s: the prompt differs between builders", p)
				}
			})
		}
		wg.Wait()
	}
}

func TestPromptCapsCallers(t *testing.T) {
	var src strings.Builder
	src.WriteString("def target():\n    return 1\n\n")
	for i := range 12 {
		fmt.Fprintf(&src, "def caller_%02d():\n    return target()\n\n", i)
	}
	f, g := extractOne(t, "m.py", src.String())
	p, err := sharedBuilder().Prompt(f, g, []byte(src.String()), Options{MaxCallers: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := "  - called by: `caller_00` (m.py:5), `caller_01` (m.py:8), `caller_02` (m.py:11) and 9 more\n"
	if !strings.Contains(p.Text, want) {
		t.Errorf("no %q in\n%s", want, p.Text)
	}
	if !strings.Contains(p.Text, "  - calls: `target` (m.py:1)\n") {
		t.Errorf("callee missing in\n%s", p.Text)
	}
}

func TestPromptEdgeFiles(t *testing.T) {
	b := sharedBuilder()
	t.Run("empty", func(t *testing.T) {
		f := &extract.File{Path: "empty.py", Language: "python", Module: "empty"}
		p, err := b.Prompt(f, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Parts != 1 || p.StartLine != 0 || p.EndLine != 0 || len(p.Symbols) != 0 {
			t.Errorf("got %+v", p)
		}
		if !strings.Contains(p.Text, "### Symbols\n(none)\n") {
			t.Errorf("no symbols line in\n%s", p.Text)
		}
	})
	t.Run("no graph, CRLF, invalid UTF-8", func(t *testing.T) {
		src := "def f():\r\n    return '\xff'\r\n"
		f, _ := extractOne(t, "crlf.py", src)
		p, err := b.Prompt(f, nil, []byte(src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Text, "1\tdef f():\n2\t    return '\uFFFD'\n```") {
			t.Errorf("source lines not cleaned:\n%s", p.Text)
		}
		if !strings.Contains(p.Text, "(none found in the call graph)") {
			t.Errorf("connections without a graph:\n%s", p.Text)
		}
	})
	t.Run("bad options", func(t *testing.T) {
		src := "def f():\n    pass\n"
		f, g := extractOne(t, "x.py", src)
		if _, err := b.Prompt(f, g, []byte(src), Options{Part: 2}); err == nil || err.Error() != "part 2 out of range: x.py has 1 part(s) at max_tokens 24000" {
			t.Errorf("part 2 of 1: %v", err)
		}
		if _, err := b.Prompt(f, g, []byte(src), Options{Part: -1}); err == nil {
			t.Error("part -1 accepted")
		}
	})
}
