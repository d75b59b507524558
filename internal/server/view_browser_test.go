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
)

// The browser tests drive Debian's chromium, headless, through chromedp.
// Without chromium they skip, saying so, except under CI (CI=true), where
// they fail: .ci/run installs it. Screenshots of each view go to
// $FILEINFO_SCREENSHOTS, or to the test's temporary directory.

// browser starts a headless chromium for t and returns its context.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := os.Getenv("FILEINFO_CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if exe != "" {
			break
		}
		exe, _ = exec.LookPath(name)
	}
	if exe == "" {
		msg := "no chromium on PATH (apt-get install chromium, or set FILEINFO_CHROMIUM)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		fmt.Fprintf(os.Stderr, "%s skipped: %s\n", t.Name(), msg)
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900)); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// screenshot saves the page as name.png.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("FILEINFO_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// waitPage polls the page until the JavaScript expression cond is truthy.
func waitPage(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(hangBound))); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 800)`))
		t.Fatalf("waiting for %s (%s): %v\npage: %s", what, cond, err, text)
	}
}

// evalJS evaluates a JavaScript expression on the page.
func evalJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func TestViewBrowser(t *testing.T) {
	ctx := browser(t)
	files := map[string]string{"README.md": "# Shop\n\nA store of integers by key: see lib/store.go.\n"}
	for k, v := range shop {
		files[k] = v
	}
	s := connect(t, files, Options{Debounce: 20 * time.Millisecond})
	s.call("file_info", map[string]any{"path": "lib/store.go"})
	s.call("report_file_info", storeReport())
	// open_view's link carries the view's key once; the page keeps it in
	// a cookie and drops it from the address bar. The server's token
	// opens the view as a bearer header only: it is never in the link.
	link, err := s.srv.StartView(context.Background(), "127.0.0.1:0", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	var out openViewOut
	s.ok("open_view", nil, &out)
	if key := viewOf(t, link).key; out.URL != link+"#/" || strings.Contains(out.URL, "s3cret") {
		t.Fatalf("open_view URL %q; want the view's link %q with its key %q, and not the server's token", out.URL, link+"#/", key)
	}

	// The tree, with each file's status and language.
	if err := chromedp.Do(ctx, chromedp.Navigate(out.URL)); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the tree", `document.body.dataset.ready === "1" && !!document.querySelector('#treebody a.file[data-path="main.go"] .dot.missing')`)
	if search := evalJS[string](t, ctx, `location.search`); search != "" {
		t.Errorf("the token stays in the address bar: %q", search)
	}
	if got := evalJS[string](t, ctx, `document.querySelector('#counts').textContent`); !strings.Contains(got, "1 enriched") || !strings.Contains(got, "2 files") {
		t.Errorf("counts %q", got)
	}
	// What exists is in sight without a click: the folder of the file
	// with an artifact is open, and the project's docs are listed.
	waitPage(t, ctx, "the documented file, shown", `(() => { const a = document.querySelector('#treebody a.file[data-path="lib/store.go"] .dot.enriched'); return !!a && a.offsetParent !== null; })()`)
	waitPage(t, ctx, "the README in the tree", `!!document.querySelector('#treebody a.file.doc[data-doc="README.md"]')`)
	screenshot(t, ctx, "1-tree")

	// A file: its artifact beside its highlighted source.
	evalJS[any](t, ctx, `location.hash = "#/file?path=lib%2Fstore.go&line=7"`)
	waitPage(t, ctx, "the artifact", `document.querySelector('.markdown') && document.querySelector('.markdown').innerText.includes("Returns an empty Store.")`)
	waitPage(t, ctx, "the source", `!!document.querySelector('.code .chroma #L7') && !!document.querySelector('.code .target')`)
	waitPage(t, ctx, "the file's status in the tree", `!!document.querySelector('a.file.sel[data-path="lib/store.go"] .dot.enriched')`)
	screenshot(t, ctx, "2-artifact")

	// Search over code, docs and artifacts.
	evalJS[any](t, ctx, `document.querySelector('#q').value = "store"; document.querySelector('#search').requestSubmit()`)
	waitPage(t, ctx, "search results", `document.querySelectorAll('.hit').length > 0`)
	for _, kind := range []string{"Code", "Artifacts", "Docs"} {
		waitPage(t, ctx, kind+" results", fmt.Sprintf(`[...document.querySelectorAll('.results h3')].some(h => h.textContent.startsWith(%q))`, kind))
	}
	screenshot(t, ctx, "3-search")

	// The graph of NewStore, reached from its search hit; click its caller.
	evalJS[any](t, ctx, `location.hash = "#/search?q=NewStore"`)
	waitPage(t, ctx, "the NewStore hit", `!!document.querySelector('.hit a[href^="#/graph"][href*="NewStore"]')`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.hit a[href^="#/graph"][href*="NewStore"]`))); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the graph", `window.fiCy && fiCy.nodes().length >= 2 && fiCy.nodes()[0].data('label') === "NewStore"`)
	screenshot(t, ctx, "4-graph")
	// Depth and direction are selectable.
	evalJS[any](t, ctx, `(() => { const s = document.querySelector('select[aria-label="dir"]'); s.value = "callees"; s.dispatchEvent(new Event("change")); })()`)
	waitPage(t, ctx, "the callees-only graph", `location.hash.includes("dir=callees") && window.fiCy && fiCy.nodes().length === 1`)
	evalJS[any](t, ctx, `(() => { const s = document.querySelector('select[aria-label="dir"]'); s.value = "both"; s.dispatchEvent(new Event("change")); })()`)
	waitPage(t, ctx, "the graph again", `location.hash.includes("dir=both") && window.fiCy && fiCy.nodes().length >= 2`)
	xy := evalJS[[]float64](t, ctx, `(() => { const n = fiCy.nodes().filter(n => n.data('label') === "main")[0], r = fiCy.container().getBoundingClientRect(), p = n.renderedPosition(); return [r.left + p.x, r.top + p.y]; })()`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the graph of main after a click", `location.hash.includes("symbol=") && fiCy.nodes()[0].data('label') === "main"`)

	// A document of the doc index, rendered.
	evalJS[any](t, ctx, `location.hash = "#/doc?path=README.md"`)
	waitPage(t, ctx, "the README", `!!document.querySelector('.markdown h1') && document.querySelector('.markdown h1').textContent === "Shop"`)

	// The page follows changes the watcher sees.
	writeTree(t, s.root, map[string]string{"lib/extra.go": "package lib\n\nfunc Extra() int { return NewStore().Get(\"x\") }\n"})
	waitPage(t, ctx, "the new file in the tree", `state.tree.files.some(f => f.path === "lib/extra.go")`)
	evalJS[any](t, ctx, `document.querySelector('#filter').value = "extra"; document.querySelector('#filter').dispatchEvent(new Event("input"))`)
	waitPage(t, ctx, "the new file shown", `!!document.querySelector('#treebody a.file[data-path="lib/extra.go"] .dot.missing')`)
}
