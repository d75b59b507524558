package lookup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// load extracts the files of testdata/name (a txtar archive: "-- path --"
// lines start files) and indexes their graph, through Static as the CLI
// does after loading the saved graph.
func load(t testing.TB, name string) *Index {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	files := extractArchive(t, string(data))
	g := callgraph.Build(files)
	nodes := make([]callgraph.Node, g.Len())
	for i := range nodes {
		nodes[i] = g.Node(callgraph.SymbolID(i))
	}
	byPath := map[string]*extract.File{}
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	return New(NewStatic(nodes, g.Edges()), func(p string) *extract.File { return byPath[p] })
}

func TestFind(t *testing.T) {
	ix := load(t, "app.txtar")
	for _, tc := range []struct {
		query, kind string
		want        []string // "qualified how", in order
	}{
		{"pkg.helpers.url_for", "", []string{"pkg.helpers.url_for exact"}},
		{"url_for", "", []string{"pkg.helpers.url_for partial"}},
		{"pkg/helpers.py:url_for", "", []string{"pkg.helpers.url_for exact"}},
		{"send", "", []string{"pkg.helpers.Request.send partial", "pkg.helpers.Response.send partial"}},
		{"Response.send", "", []string{"pkg.helpers.Response.send partial"}},
		{"register_blueprint", "", []string{"pkg.scaffold.Scaffold.register_blueprint partial"}},
		{"Flask.register_blueprint", "", []string{"pkg.scaffold.Scaffold.register_blueprint inherited"}},
		{"Flask.preprocess_request", "", []string{"pkg.app.App.preprocess_request inherited"}},
		{"urlfor", "", []string{"pkg.helpers.url_for fuzzy"}},
		{"registerBlueprint", "", []string{"pkg.scaffold.Scaffold.register_blueprint fuzzy"}},
		{"Flask", "class", []string{"pkg.app.Flask partial"}},
		{"url_for", "class", []string{}},
	} {
		t.Run(tc.query+"/"+tc.kind, func(t *testing.T) {
			ms, err := ix.Find(tc.query, tc.kind)
			var nf *NotFound
			if len(tc.want) == 0 {
				if !errors.As(err, &nf) {
					t.Fatalf("Find: %v, %v; want NotFound", ms, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, ix.Node(m.ID).Qualified+" "+m.How)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestFindDetails(t *testing.T) {
	ix := load(t, "app.txtar")
	ms, err := ix.Find("register_blueprint", "")
	if err != nil {
		t.Fatal(err)
	}
	s := ix.Symbol(ms[0])
	if s.Path != "pkg/scaffold.py" || s.Line != 2 || s.Doc != "Register a blueprint on the application." || !strings.Contains(s.Signature, "def register_blueprint(self, bp)") {
		t.Errorf("got %+v", s)
	}
}

func TestFindErrors(t *testing.T) {
	ix := load(t, "app.txtar")
	for q, want := range map[string]string{
		"":        "empty query",
		"zzzzqqq": "no symbol matches",
	} {
		if _, err := ix.Find(q, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Find(%q): %v; want %q", q, err, want)
		}
	}
	if _, err := ix.Find("x", "klass"); err == nil || !strings.Contains(err.Error(), "kinds: function") {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestResolve(t *testing.T) {
	ix := load(t, "app.txtar")
	_, err := ix.Resolve("send")
	var amb *Ambiguous
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 || !strings.Contains(err.Error(), "pkg/helpers.py:9") {
		t.Errorf("Resolve(send): %v; want both send methods with path:line", err)
	}
	_, err = ix.Resolve("url_fro")
	var unk *Unknown
	if !errors.As(err, &unk) || !strings.Contains(err.Error(), "pkg.helpers.url_for") {
		t.Errorf("Resolve(url_fro): %v; want url_for suggested", err)
	}
	if ids, err := ix.Resolve("Flask.register_blueprint"); err != nil || len(ids) != 1 {
		t.Errorf("Resolve(Flask.register_blueprint) = %v, %v", ids, err)
	}
}

func expectTree(t *testing.T, ix *Index, sym string, callers bool, depth int, want ...string) {
	t.Helper()
	ids, err := ix.Resolve(sym)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := ix.Tree(ids, callers, depth)
	var got []string
	for _, r := range rows {
		got = append(got, strings.TrimSpace(r.Text(callers)))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s depth %d:\ngot\n%s\nwant\n%s", sym, depth, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTree(t *testing.T) {
	ix := load(t, "app.txtar")
	expectTree(t, ix, "url_for", true, 1,
		"<- pkg.app.App.preprocess_request (pkg/app.py:6) [import]",
		"<- pkg.helpers.Response.send (pkg/helpers.py:10) [local]",
		"<- tests.test_helpers.test_url_for (tests/test_helpers.py:4) [import]")
	expectTree(t, ix, "url_for", true, 2,
		"<- pkg.app.App.preprocess_request (pkg/app.py:6) [import]",
		"<- pkg.app.Flask.run (pkg/app.py:10) [inherited]",
		"<- pkg.helpers.Response.send (pkg/helpers.py:10) [local]",
		"<- tests.test_helpers.test_url_for (tests/test_helpers.py:4) [import]")
	expectTree(t, ix, "pkg.app.Flask.run", false, 2,
		"-> pkg.app.App.preprocess_request (pkg/app.py:10) [inherited] def pkg/app.py:5",
		"-> pkg.helpers.url_for (pkg/app.py:6) [import] def pkg/helpers.py:1",
		"-> pkg.scaffold.Scaffold.register_blueprint (pkg/app.py:11) [inherited] def pkg/scaffold.py:2",
		"-> pkg.scaffold.Scaffold.record (pkg/scaffold.py:4) [receiver] def pkg/scaffold.py:6")
	expectTree(t, ix, "Flask.run", false, 3,
		"-> pkg.app.App.preprocess_request (pkg/app.py:10) [inherited] def pkg/app.py:5",
		"-> pkg.helpers.url_for (pkg/app.py:6) [import] def pkg/helpers.py:1",
		"-> pkg.helpers._join (pkg/helpers.py:3) [local] def pkg/helpers.py:5",
		"-> pkg.scaffold.Scaffold.register_blueprint (pkg/app.py:11) [inherited] def pkg/scaffold.py:2",
		"-> pkg.scaffold.Scaffold.record (pkg/scaffold.py:4) [receiver] def pkg/scaffold.py:6")
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"parseHTTPRequest_v2": "parse http request v2",
		"register_blueprint":  "register blueprint",
		"URLFor":              "url for",
		"Command.Find":        "command find",
	} {
		if got := strings.Join(Words(in), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNearKeepsKind checks a kind filter applies before the near names
// are cut to maxNear, and a qualifier ranks its own near names first.
func TestNearKeepsKind(t *testing.T) {
	ix := load(t, "app.txtar")
	ms, err := ix.Find("Respons", "class")
	if err != nil || ix.Node(ms[0].ID).Qualified != "pkg.helpers.Response" || ms[0].How != Fuzzy {
		t.Errorf("Find(Respons, class) = %v, %v", ms, err)
	}
	ms, err = ix.Find("Request.sendd", "")
	if err != nil || ix.Node(ms[0].ID).Qualified != "pkg.helpers.Request.send" {
		t.Errorf("Find(Request.sendd): first %v, %v; want Request.send", ix.Node(ms[0].ID).Qualified, err)
	}
}

// FuzzFind checks any query and kind either match or fail with an error,
// never panic, and that matches carry a known How.
func FuzzFind(f *testing.F) {
	ix := load(f, "app.txtar")
	for _, q := range []string{"url_for", "Flask.register_blueprint", "pkg/app.py:Flask.run", "a.b.c.", ":", "./", "ÅÄ.ö", "send"} {
		f.Add(q, "")
	}
	f.Add("Flask", "class")
	f.Fuzz(func(t *testing.T, q, kind string) {
		ms, err := ix.Find(q, kind)
		if err == nil && len(ms) == 0 {
			t.Fatal("no matches and no error")
		}
		for _, m := range ms {
			if m.How != Exact && m.How != Partial && m.How != Inherited && m.How != Fuzzy {
				t.Fatalf("match %+v", m)
			}
			_ = ix.Symbol(m).Text()
		}
		if ids, err := ix.Resolve(q); err == nil {
			ix.Tree(ids, true, 3)
		}
		Words(q)
	})
}

// TestTreeGuessesApart: the calls resolved by name only come after the
// resolved ones, marked, at most MaxGuesses of them with a count of the
// rest, and are not expanded (a guess's callers are no callers).
func TestTreeGuessesApart(t *testing.T) {
	ix := load(t, "guesses.txtar")
	expectTree(t, ix, "sink.Sink.drain", true, 2,
		"<- sink.direct (sink.py:6) [receiver]",
		"<- sink.outer (sink.py:9) [local]",
		"<? possible sink.g1 (sink.py:13) [name: by name only, unverified]",
		"<? possible sink.g2 (sink.py:16) [name: by name only, unverified]",
		"<? possible sink.g3 (sink.py:19) [name: by name only, unverified]",
		"<? possible sink.g4 (sink.py:22) [name: by name only, unverified]",
		"<? possible sink.g5 (sink.py:25) [name: by name only, unverified] (and 3 more by name only)")
	expectTree(t, ix, "sink.g1", false, 1,
		"?> possible sink.Sink.drain (sink.py:13) [name: by name only, unverified] def sink.py:2")
}

// TestResolveCPrototype: a C function declared in a header and defined
// in a .c file answers by its bare name, with its callers; two
// definitions stay ambiguous, the prototype no candidate among them.
func TestResolveCPrototype(t *testing.T) {
	ix := load(t, "cproto.txtar")
	expectTree(t, ix, "kthread_should_stop", true, 1, "<- kernel.worker.run (kernel/worker.c:5) [import]")
	_, err := ix.Resolve("twice")
	var amb *Ambiguous
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 || strings.Contains(err.Error(), "include/linux/kthread.h") {
		t.Errorf("Resolve(twice): %v; want the two definitions, not the prototype", err)
	}
	ms, err := ix.Find("kthread_should_stop", "")
	if err != nil || len(ms) != 2 || ix.Symbol(ms[0]).Path != "kernel/kthread.c" {
		t.Errorf("Find(kthread_should_stop) = %v, %v; want the definition first", ms, err)
	}
}

// TestEachNameHolding checks the in-memory index finds the names holding
// a word as a scan of every node finds them, each once with its nodes.
func TestEachNameHolding(t *testing.T) {
	ix := load(t, "app.txtar")
	for _, words := range [][]string{{"a"}, {"nonexistent"}, {"e", "s"}} {
		want := map[string][]callgraph.SymbolID{}
		for i := range ix.g.Len() {
			name := strings.ToLower(ix.g.Node(callgraph.SymbolID(i)).Name)
			for _, w := range words {
				if strings.Contains(name, w) {
					want[name] = append(want[name], callgraph.SymbolID(i))
					break
				}
			}
		}
		got := map[string][]callgraph.SymbolID{}
		ix.EachNameHolding(words, func(name string, ids []callgraph.SymbolID) bool {
			if _, dup := got[name]; dup {
				t.Errorf("%q: %s twice", words, name)
			}
			got[name] = ids
			return true
		})
		if len(got) != len(want) {
			t.Errorf("%q: %d names, want %d", words, len(got), len(want))
		}
		for name, ids := range want {
			if !slices.Equal(got[name], ids) {
				t.Errorf("%q: %s has %v, want %v", words, name, got[name], ids)
			}
		}
	}
}

// TestNamePlaces checks that a caller row of a module's or type's call
// made in a place gets the place's name under the caller, and that a
// function's row, a call outside places and a site without a line get
// none.
func TestNamePlaces(t *testing.T) {
	places := map[string][]extract.Place{
		"web.php": {{Name: "<callback of Route::get('/u')>", Qualified: "web.<callback of Route::get('/u')>", StartLine: 2, EndLine: 4}},
		"post.rb": {{Name: "<callback of before_save>", Qualified: "Post.<callback of before_save>", StartLine: 2, EndLine: 4}},
	}
	rows := []Row{
		{Symbol: "web", Kind: "module", Site: "web.php:3"},
		{Symbol: "Post", Kind: "class", Site: "post.rb:3"},
		{Symbol: "web", Kind: "module", Site: "web.php:6"},
		{Symbol: "web.helper", Kind: "function", Site: "web.php:3"},
		{Symbol: "web", Kind: "module", Site: "web.php"},
		{Symbol: "other", Kind: "module", Site: "web.php:2"},
	}
	NamePlaces(rows, func(file string) []extract.Place { return places[file] })
	want := []string{"<callback of Route::get('/u')>", "<callback of before_save>", "", "", "", "<callback of Route::get('/u')>"}
	for i, r := range rows {
		if r.In != want[i] {
			t.Errorf("row %d (%s at %s): in %q, want %q", i, r.Symbol, r.Site, r.In, want[i])
		}
	}
	rows[0].Depth = 1
	if got := rows[0].Text(true); got != "  <- web, in <callback of Route::get('/u')> (web.php:3) []" {
		t.Errorf("text %q", got)
	}
}

// TestAmbiguousCountsAll: a name of more definitions than the error
// lists says how many it names, not how many are listed (eslint's 290
// rules' create was said to name 20 definitions).
func TestAmbiguousCountsAll(t *testing.T) {
	e := &Ambiguous{Query: "create", Total: 290}
	for i := range maxCandidates {
		e.Candidates = append(e.Candidates, Symbol{Qualified: fmt.Sprintf("rules.r%d.create", i), Kind: "method", Path: fmt.Sprintf("rules/r%d.js", i), Line: 3})
	}
	if msg := e.Error(); !strings.Contains(msg, `"create" names 290 definitions`) || !strings.Contains(msg, "(the first 20)") {
		t.Errorf("Error() = %q; want 290 definitions named, the first 20 listed", msg)
	}
	e = &Ambiguous{Query: "send", Candidates: e.Candidates[:2], Total: 2}
	if msg := e.Error(); !strings.Contains(msg, "names 2 definitions") || strings.Contains(msg, "the first") {
		t.Errorf("Error() = %q; want 2 definitions, all listed", msg)
	}
}
