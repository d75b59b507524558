package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fileinfo/fileinfo/callgraph"
)

// largeRepo returns golang.org/x/tools from the module cache (go.mod
// requires it, so a build has downloaded it), or else a generated
// repository of about its size.
func largeRepo(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/tools").Output()
	if dir := strings.TrimSpace(string(out)); err == nil && dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "go", "packages")); err == nil {
			return dir
		}
	}
	t.Log("golang.org/x/tools is not in the module cache: generating a repository")
	dir := t.TempDir()
	writeTree(t, dir, generatedRepo(40, 30))
	return dir
}

// generatedRepo is a Go module of pkgs packages of files files, each of
// eight functions that call the next one and hub.Log, the hub.
func generatedRepo(pkgs, files int) map[string]string {
	out := map[string]string{"go.mod": "module example.com/gen\n\ngo 1.22\n",
		"hub/hub.go": "package hub\n\n// Log is called from everywhere.\nfunc Log(s string) {}\n"}
	for p := range pkgs {
		for f := range files {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\nimport \"example.com/gen/hub\"\n\n", p)
			for fn := range 8 {
				fmt.Fprintf(&b, "func F%d_%d() {\n\thub.Log(\"x\")\n\tF%d_%d()\n}\n\n", f, fn, f, (fn+1)%8)
			}
			out[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
	}
	return out
}

func TestViewBrowserLargeRepo(t *testing.T) {
	if testing.Short() {
		t.Skip("loads golang.org/x/tools")
	}
	ctx := browser(t)
	root := largeRepo(t)
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	srv, err := New(sctx, Options{Root: root, NoWatch: true, NoDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ws := srv.workspace()
	if err := ws.wait(sctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s loaded in %v: %d files, %d symbols", root, time.Since(start).Round(time.Millisecond), len(ws.files), ws.callGraph().Len())
	link, err := srv.StartView(sctx, "127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}

	// First paint: the tree of the root's entries, nothing below them. Its
	// time (the bound is a second once the server has loaded) is
	// logged, not checked: a loaded machine makes it many times longer.
	// What keeps it short is checked: the rows drawn are the root's
	// entries, whatever the number of files.
	navStart := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the tree", `document.body.dataset.ready === "1" && document.querySelectorAll('#treebody .dir').length > 0`)
	wall := time.Since(navStart)
	marks := evalJS[[]float64](t, ctx, `[performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1, performance.getEntriesByName("fileinfo-tree")[0]?.startTime ?? -1]`)
	t.Logf("first paint: first contentful paint %.0f ms, tree drawn %.0f ms after navigation (%v measured from Go)", marks[0], marks[1], wall.Round(time.Millisecond))
	if marks[1] < 0 {
		t.Error("no fileinfo-tree mark: the page did not say when it drew the tree")
	}
	top := map[string]bool{}
	for p := range ws.files {
		top[strings.Split(p, "/")[0]] = true
	}
	rows := evalJS[[]int](t, ctx, `[document.querySelectorAll('#treebody .dir, #treebody a.file').length, document.querySelectorAll('#treebody > .dir, #treebody > a.file').length]`)
	t.Logf("first paint: %d rows drawn for %d files, %d entries at the root", rows[0], len(ws.files), len(top))
	if rows[0] != rows[1] || rows[1] != len(top) {
		t.Errorf("first paint drew %d rows, %d at the root; want the root's %d entries only (of %d files)", rows[0], rows[1], len(top), len(ws.files))
	}
	screenshot(t, ctx, "5-large-tree")

	// A depth-2 graph around the symbol with the most callers.
	ws.mu.RLock()
	hub, most := callgraph.SymbolID(0), -1
	for i := range ws.callGraph().Len() {
		id := callgraph.SymbolID(i)
		if ws.callGraph().Node(id).Kind == callgraph.KindModule {
			continue
		}
		if n := len(ws.callGraph().Callers(id)); n > most {
			hub, most = id, n
		}
	}
	within := len(ws.callGraph().Neighbourhood([]callgraph.SymbolID{hub}, 2, callgraph.Both).Nodes)
	n := ws.callGraph().Node(hub)
	ws.mu.RUnlock()
	graphStart := time.Now()
	evalJS[any](t, ctx, fmt.Sprintf(`location.hash = %q`, fmt.Sprintf("#/graph?file=%s&line=%d&symbol=%s&depth=2", n.File, n.Line, n.Qualified)))
	waitPage(t, ctx, "the hub's graph", `window.fiCy && !fiCy.destroyed() && fiCy.nodes().length > 0 && fiCy.nodes()[0].data('label') === `+fmt.Sprintf("%q", n.Name))
	drawn := time.Since(graphStart)
	// The page answers after drawing: it is not frozen. How soon is logged,
	// not checked; the cap on the symbols drawn is what keeps it short.
	pctx, pcancel := context.WithTimeout(ctx, hangBound)
	shown, err := chromedp.Run(pctx, chromedp.Evaluate[int](`fiCy.nodes().length`))
	pcancel()
	if err != nil {
		t.Fatalf("the page did not answer within %v of drawing the graph: %v", hangBound, err)
	}
	note := evalJS[string](t, ctx, `document.querySelector('.note')?.textContent ?? ""`)
	t.Logf("depth-2 graph of %s (%d callers, %d symbols within 2 calls): %d drawn in %v; %q", n.Qualified, most, within, shown, drawn.Round(time.Millisecond), note)
	if shown > 120 {
		t.Errorf("%d symbols drawn; the cap is 120", shown)
	}
	if shown == 120 && !strings.Contains(note, "left out") {
		t.Errorf("a capped graph does not say how many were left out: %q", note)
	}
	screenshot(t, ctx, "6-hub-graph")

	// A large file of the repository, highlighted.
	evalJS[any](t, ctx, fmt.Sprintf(`location.hash = %q`, fmt.Sprintf("#/file?path=%s&line=%d", n.File, n.Line)))
	waitPage(t, ctx, "the hub's file", `!!document.querySelector('.code .chroma') && !!document.querySelector('.code .target')`)
	screenshot(t, ctx, "7-large-file")
}
