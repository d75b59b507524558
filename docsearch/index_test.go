package docsearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var ctx = context.Background()

func zero() *float64 { return new(float64) }

// expectTop checks that the first result of query is path.
func expectTop(t *testing.T, ix *Index, query, path string) {
	t.Helper()
	res, err := ix.Search(ctx, Query{Text: query, MinScore: zero()})
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	if len(res.Results) == 0 || res.Results[0].Path != path {
		var got []string
		for _, r := range res.Results {
			got = append(got, r.Path)
		}
		t.Errorf("search %q: got %v, want %s first", query, got, path)
	}
}

func paths(infos []DocInfo) []string {
	var out []string
	for _, i := range infos {
		out = append(out, i.Path)
	}
	return out
}

func TestScopesAndFormats(t *testing.T) {
	ix := openTest(t, mapFS(workspace), Options{})
	docs, err := ix.List(ScopeDocs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "docs/api.md", "docs/guide.md", "docs/intro.rst", "docs/notes.txt", "docs/page.html"}
	if got := paths(docs); !slices.Equal(got, want) {
		t.Errorf("docs scope = %v, want %v", got, want)
	}
	arts, _ := ix.List(ScopeArtifacts)
	if got := paths(arts); !slices.Equal(got, []string{".artifacts/src/render.go.md"}) {
		t.Errorf("artifacts scope = %v", got)
	}
	if arts[0].Updated != "2026-01-02T03:04:05Z" || arts[0].Title != "src/render.go" {
		t.Errorf("artifact info = %+v", arts[0])
	}
	if _, err := ix.List("nope"); err == nil || !strings.Contains(err.Error(), "artifacts, code, docs") {
		t.Errorf("unknown scope: err = %v", err)
	}
	// The binary file, and the dependencies' directory, which the walk
	// does not enter.
	sk := ix.Skipped()
	if len(sk) != 2 || sk[0].Path != "docs/binary.md" || !strings.Contains(sk[0].Reason, "binary") ||
		sk[1] != (Skipped{"node_modules/", "dependencies"}) {
		t.Errorf("skipped = %+v", sk)
	}
	for _, d := range docs {
		if d.Path == "docs/page.html" && d.Title != "Web Page" {
			t.Errorf("html title = %q", d.Title)
		}
		if d.Path == "docs/guide.md" && d.Title != "The Guide" {
			t.Errorf("front matter title = %q", d.Title)
		}
	}
}

func TestSearch(t *testing.T) {
	ix := openTest(t, mapFS(workspace), Options{})
	expectTop(t, ix, "configure chart width", "docs/guide.md")
	expectTop(t, ix, "mapBy", "README.md")
	expectTop(t, ix, "mapby", "README.md")                    // the literal path, lower case
	expectTop(t, ix, "confgure the renderr", "docs/guide.md") // typos
	expectTop(t, ix, "sparklnies", "docs/intro.rst")          // two letters swapped are one edit
	expectTop(t, ix, "histo", "docs/notes.txt")               // prefix
	expectTop(t, ix, "sparklines", "docs/intro.rst")
	expectTop(t, ix, "Dashboards charts", "docs/page.html")
	expectTop(t, ix, "quantile scale", ".artifacts/src/render.go.md")

	for _, q := range []string{"zebra", "secret_front_matter", "ignored"} { // front matter, script
		res, err := ix.Search(ctx, Query{Text: q, MinScore: zero()})
		if err != nil || len(res.Results) != 0 {
			t.Errorf("search %q = %+v, %v; want nothing", q, res.Results, err)
		}
	}
	if _, err := ix.Search(ctx, Query{Text: "  "}); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("empty query: err = %v", err)
	}
	if _, err := ix.Search(ctx, Query{Text: "x", Scopes: []string{"bogus"}}); err == nil || !strings.Contains(err.Error(), "valid scopes: artifacts, code, docs") {
		t.Errorf("unknown scope: err = %v", err)
	}
	huge := strings.Repeat("configure chart width ", 5000)
	if _, err := ix.Search(ctx, Query{Text: huge}); err != nil {
		t.Errorf("huge query: %v", err)
	}
	res, _ := ix.Search(ctx, Query{Text: "qwzx blorf"})
	if len(res.Results) != 0 || res.Message == "" {
		t.Errorf("junk query: %+v", res)
	}
}

func TestSearchMetadataAndScopes(t *testing.T) {
	ix := openTest(t, mapFS(workspace), Options{})
	res, err := ix.Search(ctx, Query{Text: "render chart writer", Scopes: []string{ScopeDocs, ScopeArtifacts}, Limit: 2, MinScore: zero()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ByScope[ScopeDocs]) == 0 || len(res.ByScope[ScopeArtifacts]) != 1 || len(res.ByScope[ScopeDocs]) > 2 {
		t.Errorf("by scope = %+v", res.ByScope)
	}
	for _, r := range res.Results {
		if r.Score < 0 || r.Score > 1 || r.Title == "" || r.Scope == "" || r.Updated == "" || r.Lines[0] == 0 {
			t.Errorf("result metadata incomplete: %+v", r)
		}
	}
	res, _ = ix.Search(ctx, Query{Text: "render rows parameters", MinScore: zero()})
	if len(res.Results) == 0 || res.Results[0].Path != "docs/api.md" || res.Results[0].ContentType != APIReference || !slices.Contains(res.Results[0].Entities, "render") {
		t.Errorf("api result = %+v", res.Results)
	}
}

func TestFetchOutlineSimilar(t *testing.T) {
	ix := openTest(t, mapFS(workspace), Options{})
	d, err := ix.Fetch("README.md", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!-- Source: README.md -->\n# Widget", "```go\n# not a heading\nrows := widget.mapBy(data, key)\n```", "[the guide](/docs/guide.md)", "[API](/docs/api.md#render)"} {
		if !strings.Contains(d.Content, want) {
			t.Errorf("fetch content lacks %q:\n%s", want, d.Content)
		}
	}
	d, err = ix.Fetch("docs/guide.md", "configuration")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Content, "Options.Width") || strings.Contains(d.Content, "Troubleshooting") || strings.Contains(d.Content, "zebra") {
		t.Errorf("section = %q", d.Content)
	}
	if _, err := ix.Fetch("docs/guide.md", "nowhere"); err == nil || !strings.Contains(err.Error(), "Configuration") {
		t.Errorf("unknown heading: err = %v", err)
	}
	var nf *NotFoundError
	if _, err := ix.Fetch("docs/gide.md", ""); !errors.As(err, &nf) || len(nf.Similar) == 0 || nf.Similar[0] != "docs/guide.md" || len(nf.Similar) > 5 {
		t.Errorf("wrong path: err = %v", err)
	}
	if _, err := ix.Fetch("../etc/passwd", ""); err == nil {
		t.Error("a path outside the root was fetched")
	}
	hs, err := ix.Outline("docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []Heading{{1, "Guide", 5}, {2, "Configuration", 9}, {2, "Troubleshooting", 13}}
	if !slices.Equal(hs, want) {
		t.Errorf("outline = %+v, want %+v", hs, want)
	}
	hs, _ = ix.Outline("docs/intro.rst")
	if len(hs) != 1 || hs[0].Text != "Introduction" || hs[0].Line != 1 {
		t.Errorf("rst outline = %+v", hs)
	}
}

func TestUpdate(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	ix := openTest(t, os.DirFS(root), Options{Dir: filepath.Join(root, ".artifacts/.index")})
	art := ".artifacts/src/new.go.md"
	writeTree(t, root, map[string]string{art: "# src/new.go\n\nParses the frobnicator settings.\n"})
	if err := ix.Update(ctx, []string{art}); err != nil {
		t.Fatal(err)
	}
	expectTop(t, ix, "frobnicator", art)
	if err := os.Remove(filepath.Join(root, "docs/notes.txt")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Update(ctx, []string{"docs/notes.txt"}); err != nil {
		t.Fatal(err)
	}
	if res, _ := ix.Search(ctx, Query{Text: "histograms", MinScore: zero()}); len(res.Results) != 0 {
		t.Errorf("removed doc still found: %+v", res.Results)
	}
	if err := ix.Update(ctx, []string{"../outside.md"}); err == nil {
		t.Error("update outside the root accepted")
	}
	// Reopening reads nothing again and finds the same.
	again := openTest(t, os.DirFS(root), Options{Dir: filepath.Join(root, ".artifacts/.index")})
	expectTop(t, again, "frobnicator", art)
	if a, b := ix.Stats(), again.Stats(); a.Docs != b.Docs || a.Chunks != b.Chunks {
		t.Errorf("stats %+v after reopening, %+v before", b, a)
	}
}

func TestCorruptIndexIsRebuilt(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts/.index")
	openTest(t, os.DirFS(root), Options{Dir: dir})
	file := filepath.Join(dir, storeFile)
	data, _ := os.ReadFile(file)
	flip := func(i int) []byte {
		b := bytes.Clone(data)
		b[i] ^= 0xFF
		return b
	}
	for name, bad := range map[string][]byte{
		"flipped byte":  flip(len(data) / 2),
		"flipped array": flip(len(data) - 4 - 4 - 8 - 1), // the last posting's, before meta length, sum, count
		"flipped count": flip(len(data) - 1),
		"truncated":     data[:len(data)/3],
		"old version":   append([]byte(storeMagic+"\x00"), data[len(storeMagic)+1:]...),
		"last version":  append([]byte(storeMagic+string(rune(storeVersion-1))), data[len(storeMagic)+1:]...),
		"empty":         nil,
	} {
		if err := os.WriteFile(file, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		ix := openTest(t, os.DirFS(root), Options{Dir: dir, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		if !strings.Contains(log.String(), "rebuilding the index") {
			t.Errorf("%s: no rebuild logged: %q", name, log.String())
		}
		expectTop(t, ix, "sparklines", "docs/intro.rst")
	}
}

func TestEmbedderChangeReembeds(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts/.index")
	e1 := &trigramEmbedder{}
	ix := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: e1})
	n := ix.Stats().Chunks
	if int(e1.texts.Load()) != n {
		t.Errorf("embedded %d texts for %d chunks", e1.texts.Load(), n)
	}
	e2 := &trigramEmbedder{}
	openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: e2})
	if e2.texts.Load() != 0 {
		t.Errorf("unchanged index embedded %d texts again", e2.texts.Load())
	}
	e3 := &trigramEmbedder{name: "test-trigram-64-v2"}
	ix = openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: e3})
	if int(e3.texts.Load()) != n || ix.Stats().Embedder != vectorsBy(e3) {
		t.Errorf("new embedder embedded %d texts of %d; stats %+v", e3.texts.Load(), n, ix.Stats())
	}
	res, err := ix.Search(ctx, Query{Text: "sparkline drawing", Mode: Vector, MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/intro.rst" {
		t.Errorf("vector search = %+v, %v", res.Results, err)
	}
	res, err = ix.Search(ctx, Query{Text: "sparkline drawing", MinScore: zero()})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "docs/intro.rst" {
		t.Errorf("hybrid search = %+v, %v", res.Results, err)
	}
}

func TestClassify(t *testing.T) {
	for q, want := range map[string]QueryType{
		"TypeError: cannot read property of undefined": QueryError,
		"how do I configure the renderer":              QueryHowTo,
		"what is a quantile scale":                     QueryConcept,
		"mapBy":                                        QueryCodeLookup,
		"render parameters":                            QueryAPIReference,
		"chart colours":                                QueryGeneral,
	} {
		if got := classify(q); got != want {
			t.Errorf("classify(%q) = %s, want %s", q, got, want)
		}
	}
	if p := PlanFor(QueryConcept); p.Limit != 15 || p.Prefer != Prose || p.Adjacent[Prose] != 3 {
		t.Errorf("concept plan = %+v", p)
	}
	if p := PlanFor(QueryAPIReference); p.Prefer != "" || p.Limit != 8 {
		t.Errorf("api reference plan = %+v; want no preferred content type (see plans)", p)
	}
	if p := PlanFor(QueryCodeLookup); len(p.Adjacent) != 0 {
		t.Errorf("code lookups expand: %+v", p)
	}
}

// TestConcurrentSearchAndUpdate runs searches while files change and are
// updated; the race detector checks the locking.
func TestConcurrentSearchAndUpdate(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	ix := openTest(t, os.DirFS(root), Options{Embedder: &trigramEmbedder{}})
	stop := searchBeside(t, 3, ix, Query{Text: "confgure widgt charts", MinScore: zero()}, func() {
		ix.List("")
		ix.Fetch("README.md", "Usage")
	})
	for i := range 20 {
		name := ".artifacts/gen.md"
		writeTree(t, root, map[string]string{name: strings.Repeat("word ", i) + "generated artifact number " + string(rune('a'+i))})
		if err := ix.Update(ctx, []string{name, "docs/notes.txt"}); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	expectTop(t, ix, "generated artifact", ".artifacts/gen.md")
}

// TestWordVariantsScoreAsOneTerm checks that the terms one query word
// reaches count as occurrences of that word: a page that names read_only
// once (reached through the literal path, "readonly") must not outrank
// one about readonly files just because that spelling is rarer.
func TestWordVariantsScoreAsOneTerm(t *testing.T) {
	files := map[string]string{
		"docs/flag.md":  "# Flags\n\nThe read_only flag of open.\n",
		"docs/files.md": "# Files\n\nA readonly file stays readonly: check readonly before writing.\n",
	}
	for i := range 6 {
		files[fmt.Sprintf("docs/other%d.md", i)] = fmt.Sprintf("# Other %d\n\nMount the volume readonly.\n", i)
	}
	ix := openTest(t, mapFS(files), Options{})
	expectTop(t, ix, "readonly", "docs/files.md")
	expectTop(t, ix, "read_only", "docs/flag.md") // the compound itself still finds it
}

func TestEmbedTextWeighsTitle(t *testing.T) {
	got := embedText(chunk{title: "Guide > Install", text: "Run make."})
	if n := strings.Count(got, "Guide > Install"); n != titleWeight || !strings.HasSuffix(got, "Run make.") {
		t.Errorf("embedText = %q; want the title %d times, then the text", got, titleWeight)
	}
	if got := embedText(chunk{text: "Run make."}); got != "Run make." {
		t.Errorf("embedText without a title = %q", got)
	}
}

// TestLanguageQualifier checks that a query word naming a language
// qualifies the query rather than making it about the language: code
// that reads files outranks a page that only mentions Python, and among
// pages equal otherwise the one about Python still comes first.
func TestLanguageQualifier(t *testing.T) {
	files := map[string]string{
		"docs/lines.md":   "# Lines\n\nRead each line of a file into a list.\n",
		"docs/support.md": "# Support\n\nThe library supports Python 3.9 and later, on every platform.\n",
		"docs/py.md":      "# Python client\n\nOpen a stream from Python.\n",
		"docs/js.md":      "# Browser client\n\nOpen a stream from the browser.\n",
	}
	// py.md and js.md are of one length: BM25 normalizes length fully,
	// and the qualifier, weighing a quarter of a word, is not to outweigh
	// a page's being longer.
	// Read, file and line are common words here, two to a page; Python
	// is rare, and so weighs most unless it counts as a qualifier.
	common := []string{"Read the file's name.", "Read until the line ends.", "A line of the file."}
	for i := range 9 {
		files[fmt.Sprintf("docs/other%d.md", i)] = fmt.Sprintf("# Other %d\n\n%s\n", i, common[i%3])
	}
	ix := openTest(t, mapFS(files), Options{})
	expectTop(t, ix, "python read file lines", "docs/lines.md")
	expectTop(t, ix, "python open stream", "docs/py.md")
	if !qualifierStems["python"] || !qualifierStems["golang"] || qualifierStems["go"] || qualifierStems["node"] {
		t.Error("qualifiers: want python and golang, not go or node")
	}
}

// TestQueryWordForms checks that a query word reaches the forms code and
// prose write it in: a word spelled out finds its abbreviation and an
// abbreviation the word (aliases), two words the closed compound they
// make (joinedTerms): "read only" finds readonly, and a British spelling
// the American one and back (americanSpelling).
func TestQueryWordForms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  [][2]string // query, the document it finds first
	}{
		{"abbreviations", map[string]string{
			"docs/dict.md":  "# Helpers\n\nSort a dict by each val.\n",
			"docs/names.md": "# Names\n\nSort names.\n",
			"docs/log.md":   "# Logging\n\nEvery message has a level.\n",
			"docs/send.md":  "# Sending\n\nSend it.\n",
			"docs/cmp.md":   "# Ordering\n\nThe cmp of versions.\n",
			"docs/sort.md":  "# Sorting\n\nSort the newer versions.\n",
			"docs/auto.md":  "# Annotations\n\nThe auto annotation of a property.\n",
			"docs/props.md": "# Annotations\n\nThe annotation of a property.\n",
		}, [][2]string{{"sort dictionary by value", "docs/dict.md"}, {"msg", "docs/log.md"}, {"compare newer versions", "docs/cmp.md"},
			{"annotate a property automatically", "docs/auto.md"}}},
		{"compounds", map[string]string{
			"docs/flags.md": "# Flags\n\nThe readonly flag.\n",
			"docs/notes.md": "# Notes\n\nRead the flag.\n",
			"docs/login.md": "# Accounts\n\nThe login page.\n",
			"docs/other.md": "# Other\n\nThe page of an account.\n",
		}, [][2]string{{"read only flag", "docs/flags.md"}, {"log in page", "docs/login.md"}}},
		{"spellings", map[string]string{
			"docs/us.md":    "# Setup\n\nInitialize the color palette and the dialog.\n",
			"docs/uk.md":    "# Theme\n\nThe optimised colour of each behaviour.\n",
			"docs/other.md": "# Other\n\nThe palette of a page.\n",
		}, [][2]string{{"initialise colour", "docs/us.md"}, {"optimize color behavior", "docs/uk.md"}, {"dialogue", "docs/us.md"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := openTest(t, mapFS(tc.files), Options{})
			for _, w := range tc.want {
				expectTop(t, ix, w[0], w[1])
			}
		})
	}
	if !slices.Contains(aliases["dictionari"], "dict") || len(aliases["def"]) > 0 {
		t.Errorf("aliases: dictionary → %v, def → %v; want dict, nothing", aliases["dictionari"], aliases["def"])
	}
	// A file's extension and an ambiguous cut are no abbreviations:
	// "read a txt file", sec for security or section.
	if len(aliases["txt"]) > 0 || len(aliases["sec"]) > 0 || !slices.Contains(aliases["connect"], "conn") {
		t.Errorf("aliases: txt → %v, sec → %v, connection → %v; want nothing, nothing, conn", aliases["txt"], aliases["sec"], aliases["connect"])
	}
}
