package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"
)

// TestLookupsAnswerDuringUpdate holds each of three updates of a
// restarted workspace (the first edit, which the saved symbols index
// answers before; an edit that renumbers the graph; a body edit made in
// place) at the point where it holds mu, and asks callers, callees and
// find_symbol meanwhile: they answer at once, as a server of the tree
// before the edit does, marked as of the graph before the update. Once
// the update ends they answer as a server of the edited tree. Without
// the answers from before the update the calls wait for it.
func TestLookupsAnswerDuringUpdate(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	hooks := &testHooks{updating: func() {
		entered <- struct{}{}
		<-release
	}}
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	hooked := opt
	hooked.hooks = hooks
	s2, ws := restartUnchanged(t, s, hooked)
	queries := []toolQuery{
		{"callers", map[string]any{"symbol": "helper"}},
		{"callers", map[string]any{"symbol": "twice", "depth": 2}},
		{"callees", map[string]any{"symbol": "probe7"}},
		{"find_symbol", map[string]any{"query": "probe7"}},
		{"find_symbol", map[string]any{"query": "added200"}},
	}
	edits := []struct{ what, path, src string }{
		{"first edit", "drivers/d007.c", "#include \"util.h\"\nstatic int local7(int v) { return helper(v) + twice(v); }\nint probe7(void) { return local7(7); }\n"},
		{"a file added", "drivers/d200.c", "#include \"util.h\"\nint added200(void) { return probe7() + helper(2); }\n"},
		{"a body edit", "drivers/d200.c", "#include \"util.h\"\nint added200(void) { return probe7() + twice(2); }\n"},
	}
	tree := slimTree()
	for _, e := range edits {
		before := connect(t, maps.Clone(tree), opt)
		if _, err := before.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		writeTree(t, s2.root, map[string]string{e.path: e.src})
		tree[e.path] = e.src
		done := make(chan struct{})
		go func() {
			defer close(done)
			s2.call("file_info", map[string]any{"path": e.path}) // takes the change in
		}()
		<-entered
		for _, q := range queries {
			answered := make(chan struct{})
			var got []byte
			var gotText string
			var gotErr bool
			go func() {
				defer close(answered)
				res := s2.call(q.tool, q.args)
				got, _ = json.Marshal(res.StructuredContent)
				gotText, gotErr = text(res), res.IsError
			}()
			select {
			case <-answered:
			case <-time.After(20 * time.Second):
				close(release)
				t.Fatalf("%s: %s %v waited for the update", e.what, q.tool, q.args)
			}
			want := before.call(q.tool, q.args)
			wantJSON, _ := json.Marshal(want.StructuredContent)
			if gotErr || want.IsError {
				// A name not found: an error, with no coverage.
				if gotErr != want.IsError || gotText != text(want) {
					t.Errorf("%s: %s %v during the update:\n got %s\nwant %s", e.what, q.tool, q.args, gotText, text(want))
				}
				continue
			}
			if withoutCoverage(t, got) != withoutCoverage(t, wantJSON) {
				t.Errorf("%s: %s %v during the update:\n got %s\nwant %s", e.what, q.tool, q.args, got, wantJSON)
			}
			if !strings.Contains(string(got), `"coverage":"`+updatingPrefix) || !strings.Contains(gotText, "before an update in progress") {
				t.Errorf("%s: %s %v during the update is not marked as of the graph before it:\n%s\n%s", e.what, q.tool, q.args, got, gotText)
			}
		}
		release <- struct{}{}
		<-done
		// The update left the edited graph's lookup index built: the
		// next lookup does not build it.
		ws.mu.RLock()
		ws.lookupMu.Lock()
		current := ws.lookupIx != nil && ws.lookupGraph == ws.callGraph() && ws.lookupEdits == ws.edits
		ws.lookupMu.Unlock()
		ws.mu.RUnlock()
		if !current {
			t.Errorf("%s: the update left no lookup index of the edited graph", e.what)
		}
		after := connect(t, maps.Clone(tree), opt)
		if _, err := after.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, fmt.Sprintf("after %s", e.what), s2, after, queries)
	}
}

// withoutCoverage returns a structured answer without its coverage.
func withoutCoverage(t *testing.T, b []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	delete(m, "coverage")
	out, _ := json.Marshal(m)
	return string(out)
}
