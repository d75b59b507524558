package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// enrichTree is slimTree with files of more languages: a Go package of
// two files (sharing a module node), functions used as values, and
// calls left unresolved, some for ambiguity, and calls made in
// anonymous functions outside named functions (places).
func enrichTree() map[string]string {
	t := slimTree()
	t["go.mod"] = "module example.com/x\n"
	t["pkg/a.go"] = "package pkg\n\nfunc Helper(x int) int { return x + Twice(x) }\n\nvar hook = Helper\n\nfunc Use() int { return run(Helper) + missing() }\n"
	t["pkg/b.go"] = "package pkg\n\nfunc Twice(x int) int { return x * 2 }\n\nfunc run(f func(int) int) int { return f(1) + Helper(2) }\n"
	t["pkg/c.go"] = "package pkg\n\nvar cmds = map[string]func() int{\n\t\"a\": func() int { return Twice(1) },\n}\n"
	t["py/tasks.py"] = "class A:\n    def go(self):\n        return 1\n\nclass B:\n    def go(self):\n        return 2\n\ndef by_name(x):\n    return x\n\ndef each(items, thing):\n    thing.go()\n    thing.go()\n    thing.go()\n    unknown()\n    return sorted(items, key=by_name)\n"
	t["web/app.js"] = "function handler(req) { return req; }\nfunction start(app) { app.use(handler); return helperJs(); }\nmodule.exports = { start };\n"
	return t
}

// enrichAnswers is what enrich makes of one file over a graph: the
// basic artifact, the prompt, the callers' keys, the digests and an
// enriched artifact rendered from an empty report.
type enrichAnswers struct {
	basic, prompt, enriched string
	keys                    []string
	digests                 enrich.Digests
}

func answersOver(t *testing.T, s *Server, ws *workspace, g enrich.Graph) map[string]enrichAnswers {
	t.Helper()
	out := map[string]enrichAnswers{}
	paths := make([]string, 0, len(ws.files))
	for p := range ws.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		src, err := ws.full(ws.files[p])
		if err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(filepath.Join(ws.root, p))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := s.builder.Prompt(src.file, g, text, enrich.Options{MaxTokens: 100000})
		if err != nil {
			t.Fatal(err)
		}
		d := enrich.SymbolDigests(src.file, g, text)
		body, err := enrich.RenderEnriched(src.file, g, enrich.Update(nil, nil, src.file), d)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = enrichAnswers{
			basic: string(enrich.RenderBasic(src.file, g)), prompt: pr.Text, enriched: string(body),
			keys: enrich.CallerKeys(src.file, g), digests: d,
		}
	}
	return out
}

// TestFileInfoLeavesGraphPending: on a start from the saved state,
// file_info and what enrich reads for it (prompts, artifacts, the
// callers' keys and digests) answer from the saved indexes without
// restoring the graph, and every answer is byte for byte the restored
// graph's, for files in C, Go, Python and JavaScript.
func TestFileInfoLeavesGraphPending(t *testing.T) {
	s2, ws, p := restartPending(t, enrichTree())

	for _, path := range []string{"lib/util.c", "pkg/a.go", "py/tasks.py", "web/app.js"} {
		s2.ok("file_info", map[string]any{"path": path}, &map[string]any{})
	}
	if p.restored() != nil {
		t.Fatal("file_info restored the graph")
	}
	ws.mu.RLock()
	v, ok := ws.enrichGraph().(*savedView)
	if !ok {
		ws.mu.RUnlock()
		t.Fatal("enrich does not read the saved view while the graph is pending")
	}
	saved := answersOver(t, s2.srv, ws, v)
	unresolved := 0
	for path := range ws.files {
		unresolved += len(v.UnresolvedIn(path))
	}
	ws.mu.RUnlock()
	if p.restored() != nil {
		t.Fatal("the saved view restored the graph")
	}
	if unresolved == 0 {
		t.Fatal("the tree has no unresolved calls to compare")
	}

	ws.mu.RLock()
	g := ws.callGraph()
	restored := answersOver(t, s2.srv, ws, g)
	ws.mu.RUnlock()
	if len(restored) != len(saved) {
		t.Fatalf("%d files over the restored graph, %d over the saved view", len(restored), len(saved))
	}
	connected := 0
	for path, want := range restored {
		if got := saved[path]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: over the saved view:\n%+v\nover the restored graph:\n%+v", path, got, want)
		}
		if len(want.keys) > 0 {
			connected++
		}
	}
	if connected == 0 {
		t.Fatal("no file is called from another: nothing compared")
	}
	if want := "`cmds.a` (pkg/c.go:4)"; !strings.Contains(saved["pkg/b.go"].prompt, want) {
		t.Errorf("pkg/b.go's prompt over the saved view does not name the place of a call (%s):\n%s", want, saved["pkg/b.go"].prompt)
	}
}

// TestFileInfoDamagedIndexRestores: a saved symbols index damaged since
// it was opened, or graph.bin's graph damaged since the load, is never
// an answer: file_info restores the graph (or builds it) and answers as
// from the graph.
func TestFileInfoDamagedIndexRestores(t *testing.T) {
	for _, what := range []string{graphstore.SymbolsFile, graphstore.FileName} {
		t.Run(what, func(t *testing.T) {
			s2, ws, p := restartPending(t, enrichTree())
			file := filepath.Join(ws.root, ".artifacts", ".index", what)
			st, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			// Damaged in place: every byte after the first 4 KiB of
			// symbols.idx (its nodes and edges), or graph.bin's last
			// bytes (the graph's unresolved calls).
			from := 4 << 10
			if what == graphstore.FileName {
				from = int(st.Size()) - 16
			}
			damageAfter(t, file, from)

			ws.mu.RLock()
			v, ok := ws.enrichGraph().(*savedView)
			if !ok {
				ws.mu.RUnlock()
				t.Fatal("no saved view")
			}
			got := answersOver(t, s2.srv, ws, v)
			ws.mu.RUnlock()
			if p.restored() == nil {
				t.Fatal("the damage was read as an answer: the graph was not restored")
			}
			ws.mu.RLock()
			want := answersOver(t, s2.srv, ws, ws.callGraph())
			ws.mu.RUnlock()
			if !reflect.DeepEqual(got, want) {
				t.Error("answers over the damaged saved view differ from the graph's")
			}
			s2.ok("file_info", map[string]any{"path": "py/tasks.py"}, &map[string]any{})
		})
	}
}

// BenchmarkSavedViewPrompt is a file's prompt over the saved view of a
// pending graph (the first file_info after a restart) and over the
// restored graph.
func BenchmarkSavedViewPrompt(b *testing.B) {
	files := enrichTree()
	for i := range 300 {
		files[fmt.Sprintf("drivers/x%03d.c", i)] = fmt.Sprintf("#include \"util.h\"\nint x%d(void) { return helper(%d) + twice(%d); }\n", i, i, i)
	}
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(b, files, opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	s2, ws := restartUnchanged(b, s, opt)
	src, err := ws.full(ws.files["lib/util.c"])
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(ws.root, "lib/util.c"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    func() enrich.Graph
	}{{"saved", ws.enrichGraph}, {"restored", func() enrich.Graph { return ws.callGraph() }}} {
		b.Run(c.name, func(b *testing.B) {
			ws.mu.RLock()
			defer ws.mu.RUnlock()
			g := c.g()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s2.srv.builder.Prompt(src.file, g, text, enrich.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
