package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/view"
)

// viewAt is a web view: its address and its key.
type viewAt struct{ base, key string }

// viewOf splits a link to the view's page into its address and its key.
func viewOf(t testing.TB, link string) viewAt {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("token") == "" {
		t.Fatalf("view link %q: %v (want http://host:port/?token=KEY)", link, err)
	}
	return viewAt{u.Scheme + "://" + u.Host, u.Query().Get("token")}
}

// viewGet fetches path of the web view v, with its key, and decodes its
// JSON.
func viewGet(t *testing.T, v viewAt, path string, out any) {
	t.Helper()
	req, err := http.NewRequest("GET", v.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+v.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
}

// openView calls open_view and returns the view and the URL's fragment.
func (s *session) openView(args map[string]any) (v viewAt, frag string) {
	s.t.Helper()
	var out openViewOut
	s.ok("open_view", args, &out)
	u, err := url.Parse(out.URL)
	if err != nil || u.Hostname() != "127.0.0.1" {
		s.t.Fatalf("open_view URL %q: %v", out.URL, err)
	}
	return viewOf(s.t, out.URL), u.Fragment
}

func TestViewFollowsReports(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	base, frag := s.openView(nil)
	if frag != "/" {
		t.Errorf("fragment %q, want /", frag)
	}
	var tree view.Tree
	viewGet(t, base, "/api/tree", &tree) // may be loading
	if err := s.srv.workspace().wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	viewGet(t, base, "/api/tree", &tree)
	want := []view.FileEntry{{Path: "lib/store.go", Language: "go", Status: "missing"}, {Path: "main.go", Language: "go", Status: "missing"}}
	if len(tree.Files) != 2 || tree.Files[0] != want[0] || tree.Files[1] != want[1] {
		t.Fatalf("tree %+v, want %+v", tree.Files, want)
	}
	var v1, v2 struct{ Version string }
	viewGet(t, base, "/api/version", &v1)

	s.call("file_info", map[string]any{"path": "lib/store.go"})
	s.call("report_file_info", storeReport())
	viewGet(t, base, "/api/version", &v2)
	if v1.Version == v2.Version {
		t.Error("version did not change with a new artifact")
	}
	viewGet(t, base, "/api/tree", &tree)
	if tree.Files[0].Status != "enriched" || tree.Counts["enriched"] != 1 || tree.Counts["missing"] != 1 {
		t.Errorf("after the report: %+v %v", tree.Files, tree.Counts)
	}
	var f struct {
		Status       string
		Symbols      []view.Symbol
		SourceHTML   string `json:"source_html"`
		ArtifactHTML string `json:"artifact_html"`
	}
	viewGet(t, base, "/api/file?path=lib/store.go", &f)
	if f.Status != "enriched" || !strings.Contains(f.ArtifactHTML, "Returns an empty Store.") || !strings.Contains(f.SourceHTML, `id="L7"`) {
		t.Errorf("file: status %s, artifact %.300s, source %.300s", f.Status, f.ArtifactHTML, f.SourceHTML)
	}
	if len(f.Symbols) < 4 {
		t.Errorf("symbols %+v", f.Symbols)
	}
}

func TestViewGraphAndSearch(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	base, frag := s.openView(map[string]any{"path": "lib/store.go", "line": 7})
	if frag != "/file?line=7&path=lib/store.go" {
		t.Errorf("fragment %q", frag)
	}
	var g view.Graph
	viewGet(t, base, "/api/graph?file=lib/store.go&line=7&depth=2", &g)
	if len(g.Nodes) < 2 || g.Nodes[0].Name != "NewStore" || g.Total != len(g.Nodes) {
		t.Fatalf("graph %+v", g)
	}
	caller := g.Nodes[1]
	if caller.Name != "main" || caller.Side != -1 || len(g.Edges) == 0 || g.Edges[0].From != 1 || g.Edges[0].To != 0 {
		t.Errorf("graph %+v", g)
	}
	// A cap keeps the symbol and says how many were left out.
	viewGet(t, base, "/api/graph?file=lib/store.go&line=7&max=1", &g)
	if len(g.Nodes) != 1 || g.Total < 2 || len(g.Edges) != 0 {
		t.Errorf("capped graph %+v", g)
	}

	var res struct{ Hits []view.Hit }
	viewGet(t, base, "/api/search?q=newstore", &res)
	if len(res.Hits) == 0 || res.Hits[0].Kind != view.HitCode || res.Hits[0].Symbol.Name != "NewStore" || res.Hits[0].Line != 7 {
		t.Errorf("hits %+v", res.Hits)
	}

	s.fails("open_view", map[string]any{"path": "../outside.go"}, "outside")
}

func TestViewStops(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	base, _ := s.openView(nil)
	again, _ := s.openView(nil)
	if again != base {
		t.Errorf("a second open_view started another view: %s, then %s", base, again)
	}
	s.srv.stopView()
	if res, err := http.Get(base.base + "/api/version"); err == nil {
		res.Body.Close()
		t.Fatalf("the view still answers after it stopped: %s", res.Status)
	}
	// open_view starts a new one.
	next, _ := s.openView(nil)
	var v struct{ Version string }
	viewGet(t, next, "/api/version", &v)
}
