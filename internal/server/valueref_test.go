package server

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// valueTree is enrichTree with more functions used as values, not
// called: a Python function imported by name into another file, a Go
// function taken through its package's name in another package,
// TypeScript callbacks in their own file and another's; and Rust, whose
// extraction finds no such uses.
func valueTree() map[string]string {
	t := enrichTree()
	t["py/user.py"] = "from py.tasks import by_name\n\nITEMS = sorted([], key=by_name)\n"
	t["app/app.go"] = "package app\n\nimport \"example.com/x/pkg\"\n\nvar h = pkg.Helper\n"
	t["ts/t.ts"] = "export function cb(): void {}\nsetTimeout(cb, 1);\n"
	t["ts/u.ts"] = "import { cb } from './t';\nqueue.push(cb);\n"
	t["rust/src/lib.rs"] = "fn f() {}\nfn g() { let h = f; h(); }\n"
	return t
}

// TestRestartAnswersAsFirstStart: a restarted server's prompts and
// rendered artifacts, over the saved view (the graph pending) and over
// the restored graph, are byte for byte the first start's, whose graph
// was built from full extractions; among them the "used as a value"
// lines of Go, Python, JavaScript and TypeScript files, which a restart
// left out when the restored files had no references. Damage to the
// saved index is never an answer: the view restores the graph, which
// reads the sites from graph.bin, and the answers are the first start's
// still.
func TestRestartAnswersAsFirstStart(t *testing.T) {
	for _, damaged := range []bool{false, true} {
		name := "whole"
		if damaged {
			name = "damaged"
		}
		t.Run(name, func(t *testing.T) {
			opt := Options{NoDocs: true, NoWatch: true}
			s := connect(t, valueTree(), opt)
			ws1, err := s.srv.ready(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			ws1.mu.RLock()
			first := answersOver(t, s.srv, ws1, ws1.enrichGraph())
			ws1.mu.RUnlock()
			for _, p := range []string{"pkg/a.go", "py/tasks.py", "web/app.js", "ts/t.ts"} {
				a := first[p]
				if !strings.Contains(a.prompt, "used as a value, not called, in:") || !strings.Contains(a.basic+a.enriched, "Used as a value, not called") {
					t.Fatalf("the first start's answers for %s have no value uses: nothing to compare", p)
				}
			}

			s2, ws := restartUnchanged(t, s, opt)
			p := pendingOf(t, ws)
			if damaged {
				damageAfter(t, filepath.Join(ws.root, ".artifacts", ".index", graphstore.SymbolsFile), 4<<10)
			}
			ws.mu.RLock()
			v, ok := ws.enrichGraph().(*savedView)
			if !ok {
				ws.mu.RUnlock()
				t.Fatal("enrich does not read the saved view while the graph is pending")
			}
			saved := answersOver(t, s2.srv, ws, v)
			ws.mu.RUnlock()
			if restored := p.restored() != nil; restored != damaged {
				t.Fatalf("the graph restored: %v; the index damaged: %v", restored, damaged)
			}
			ws.mu.RLock()
			restored := answersOver(t, s2.srv, ws, ws.callGraph())
			ws.mu.RUnlock()
			for what, got := range map[string]map[string]enrichAnswers{"the saved view": saved, "the restored graph": restored} {
				if len(got) != len(first) {
					t.Fatalf("%d files over %s, %d at the first start", len(got), what, len(first))
				}
				for path, want := range first {
					if g := got[path]; !reflect.DeepEqual(g, want) {
						t.Errorf("%s: over %s after a restart:\n%+v\nat the first start:\n%+v", path, what, g, want)
					}
				}
			}
		})
	}
}

// damageAfter flips every byte of file from offset from on, in place.
func damageAfter(t *testing.T, file string, from int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= from {
		t.Fatalf("%s has %d bytes, none after %d", file, len(data), from)
	}
	for i := from; i < len(data); i++ {
		data[i] ^= 0x5a
	}
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data[from:], int64(from)); err != nil {
		t.Fatal(err)
	}
}
