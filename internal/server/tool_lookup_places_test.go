package server

import (
	"context"
	"strings"
	"testing"
)

// placesTree is a Go package whose package-level anonymous functions
// (places) call into another file.
var placesTree = map[string]string{
	"go.mod":  "module example.com/p\n",
	"cmd.go":  "package p\n\ntype Command struct{ Run func() }\n\nvar rootCmd = &Command{\n\tRun: func() {\n\t\twork()\n\t},\n}\n\nvar started = work()\n",
	"work.go": "package p\n\nfunc work() bool { return true }\n\nfunc Main() { work() }\n",
}

// TestCallersNamePlaces: the callers tool says which place a caller's
// call is in, on a first start and over the saved state, and leaves a
// call of the package's own code outside places, and a function's,
// without one.
func TestCallersNamePlaces(t *testing.T) {
	check := func(what string, s *session) {
		t.Helper()
		var tree treeOut
		res := s.ok("callers", map[string]any{"symbol": "work"}, &tree)
		in := map[string]string{}
		for _, r := range tree.Calls {
			in[r.Site] = r.In
		}
		if in["cmd.go:7"] != "rootCmd.Run" || in["cmd.go:11"] != "" || in["work.go:5"] != "" || len(in) != 3 {
			t.Errorf("%s: places of the calls %v", what, in)
		}
		if !strings.Contains(text(res), "<- example.com/p, in rootCmd.Run (cmd.go:7) [local]") {
			t.Errorf("%s: text:\n%s", what, text(res))
		}
	}
	s := connect(t, placesTree, Options{NoWatch: true})
	s.srv.workspace().wait(context.Background())
	check("first start", s)
	s2, _, _ := restartPending(t, placesTree)
	check("saved state", s2)
}
