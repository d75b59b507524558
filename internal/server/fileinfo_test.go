package server

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/artifacts"
)

// shop is a small Go module: lib/store.go is called from main.go.
var shop = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"lib/store.go": `package lib

// Store keeps values by key.
type Store struct{ m map[string]int }

// NewStore returns an empty Store.
func NewStore() *Store { return &Store{m: map[string]int{}} }

// Put sets key to v.
func (s *Store) Put(key string, v int) { s.m[key] = v }

func (s *Store) Get(key string) int { return s.m[key] }
`,
	"main.go": `package main

import "example.com/shop/lib"

func main() {
	s := lib.NewStore()
	s.Put("a", 1)
	println(s.Get("a"))
}
`,
}

// storeReport documents lib/store.go completely.
func storeReport() map[string]any {
	return map[string]any{
		"path":     "lib/store.go",
		"overview": "Defines Store, an in-memory map of integers by key, used by the command in main.go.",
		"inputs":   "Keys and integer values.",
		"functions": []map[string]any{
			{"name": "NewStore", "purpose": "Returns an empty Store.", "implementation": "1. Allocate a Store with an empty map.\n2. Return it."},
		},
		"classes": []map[string]any{{
			"name": "Store", "purpose": "Holds integers by key.",
			"methods": []map[string]any{
				{"name": "Put", "purpose": "Sets a key's value.", "implementation": "1. Assign v to m[key]."},
				{"name": "Get", "purpose": "Returns a key's value.", "implementation": "1. Return m[key], zero when absent."},
			},
		}},
	}
}

func TestFileInfoPrompt(t *testing.T) {
	s := connect(t, shop, Options{Version: "v9.9.9"})
	var out fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib/store.go"}, &out)
	if out.Status != statusPromptReady || out.Path != "lib/store.go" || out.Language != "go" ||
		out.Part != 1 || out.Parts != 1 || out.StartLine != 1 || out.EndLine != 12 {
		t.Errorf("file_info = %+v", out)
	}
	if out.Tokens <= 0 || out.Tokens > 24000 {
		t.Errorf("tokens %d", out.Tokens)
	}
	if want := []string{"Store", "NewStore", "Store.Put", "Store.Get"}; !slices.Equal(out.Symbols, want) {
		t.Errorf("symbols %q, want %q", out.Symbols, want)
	}
	for _, want := range []string{
		"## Structural Info", "## Source Code", "## Task", "report_file_info",
		"func NewStore() *Store",
		"called by: `main` (main.go:6)", // NewStore's caller, at the call site
		"10\tfunc (s *Store) Put(key string, v int) { s.m[key] = v }",
	} {
		if !strings.Contains(text(res), want) {
			t.Errorf("prompt lacks %q:\n%s", want, text(res))
		}
	}
	// The first file_info writes the basic artifact.
	if out.Artifact != "basic" || out.ArtifactPath != ".artifacts/lib/store.go.md" {
		t.Errorf("artifact %q at %q, want basic at .artifacts/lib/store.go.md", out.Artifact, out.ArtifactPath)
	}
	md := s.read(".artifacts/lib/store.go.md")
	for _, want := range []string{"status: basic", `tool_version: "v9.9.9"`, "# lib/store.go", "## Functions", "`main` in `main.go`"} {
		if !strings.Contains(md, want) {
			t.Errorf("basic artifact lacks %q:\n%s", want, md)
		}
	}
}

func TestReportThenUpToDate(t *testing.T) {
	s := connect(t, shop, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	var rep reportOut
	res := s.ok("report_file_info", storeReport(), &rep)
	if rep.Status != "written" || rep.Artifact != ".artifacts/lib/store.go.md" || len(rep.Undocumented) != 0 {
		t.Errorf("report = %+v", rep)
	}
	if !strings.Contains(text(res), "Every function is documented") {
		t.Errorf("report text: %s", text(res))
	}
	md := s.read(".artifacts/lib/store.go.md")
	for _, want := range []string{"status: enriched", "Defines Store, an in-memory map", "**Purpose**: Sets a key's value.", "1. Assign v to m[key]."} {
		if !strings.Contains(md, want) {
			t.Errorf("enriched artifact lacks %q:\n%s", want, md)
		}
	}

	// Fresh: file_info hands the artifact back instead of asking again.
	res = s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusUpToDate || fi.Artifact != "enriched" || strings.Contains(text(res), "## Source Code") || !strings.Contains(text(res), "Sets a key's value") {
		t.Errorf("after the report, file_info = %+v", fi)
	}
	expectSentOnce(t, res, "Sets a key's value")
	// refresh asks again, and leaves the enriched artifact alone.
	res = s.ok("file_info", map[string]any{"path": "lib/store.go", "refresh": true}, &fi)
	if fi.Status != statusPromptReady || fi.Artifact != "enriched" || !strings.Contains(text(res), "## Source Code") {
		t.Errorf("refresh: file_info = %+v", fi)
	}

	// A caller that changes makes the artifact stale; its prose still
	// holds (no symbol's source changed), so file_info renders it again
	// with the callers of now, keeps it enriched, and asks nothing.
	writeTree(t, s.root, map[string]string{"main.go": "package main\n\nimport \"example.com/shop/lib\"\n\nfunc main() { lib.NewStore() }\n"})
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi) // the server notices main.go changed
	res = s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusUpToDate || fi.Artifact != "enriched" || !strings.Contains(text(res), "Store.Put") {
		t.Errorf("after a caller changed, file_info = %+v\n%s", fi, text(res))
	}
	if md := s.read(".artifacts/lib/store.go.md"); !strings.Contains(md, "status: enriched") || !strings.Contains(md, "**Purpose**: Sets a key's value.") ||
		strings.Count(md, "- `main` in `main.go`") != 1 {
		t.Errorf("the artifact re-rendered after a caller changed lost its prose or lists old callers:\n%s", md)
	}
	// So does an edit of the file itself.
	s.ok("report_file_info", storeReport(), &rep)
	writeTree(t, s.root, map[string]string{"lib/store.go": shop["lib/store.go"] + "\n// Len is new.\nfunc (s *Store) Len() int { return len(s.m) }\n"})
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Artifact != "stale" || !slices.Contains(fi.Symbols, "Store.Len") {
		t.Errorf("after an edit, file_info = %+v", fi)
	}
	s.ok("report_file_info", storeReport(), &rep)
	if !slices.Equal(rep.Undocumented, []string{"Store.Len"}) {
		t.Errorf("undocumented = %q, want [Store.Len]", rep.Undocumented)
	}
}

func TestReportRefusals(t *testing.T) {
	s := connect(t, shop, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	before := s.read(".artifacts/lib/store.go.md")

	bad := storeReport()
	bad["functions"] = []map[string]any{{"name": "NewStorage", "purpose": "x", "implementation": "1. x"}}
	msg := s.fails("report_file_info", bad, `"NewStorage"`, "NewStore", "nothing was written")
	t.Logf("unknown name: %s", msg)

	big := storeReport()
	big["overview"] = strings.Repeat("word ", 60<<10)
	s.fails("report_file_info", big, "refused", "limit")

	other := storeReport()
	other["path"] = "main.go"
	s.fails("report_file_info", other, "nothing was written")

	missing := storeReport()
	missing["path"] = "lib/gone.go"
	s.fails("report_file_info", missing, "no such file")

	// Arguments that do not match the schema never reach the handler.
	extra := storeReport()
	extra["surprise"] = true
	s.fails("report_file_info", extra, "surprise")
	s.fails("report_file_info", map[string]any{"path": "lib/store.go", "overview": "x", "functions": "NewStore"}, "functions")
	s.fails("report_file_info", map[string]any{"path": "lib/store.go", "overview": "x", "functions": []any{}, "part": -1}, "part")

	if after := s.read(".artifacts/lib/store.go.md"); after != before {
		t.Errorf("a refused report changed the artifact:\n%s", after)
	}
}

func TestParts(t *testing.T) {
	src, names := bigFile()
	s := connect(t, map[string]string{"big/big.go": src}, Options{MaxTokens: 1500})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "big/big.go"}, &fi)
	if fi.Parts < 2 || fi.Tokens > 1500 {
		t.Fatalf("file_info = %d parts, %d tokens; want a split within 1500 tokens", fi.Parts, fi.Tokens)
	}
	parts := fi.Parts
	var seen []string
	var rep reportOut
	for part := 1; part <= parts; part++ {
		s.ok("file_info", map[string]any{"path": "big/big.go", "part": part}, &fi)
		if fi.Part != part || fi.Parts != parts {
			t.Fatalf("part %d: got part %d of %d", part, fi.Part, fi.Parts)
		}
		seen = append(seen, fi.Symbols...)
		var fns []map[string]any
		for _, n := range fi.Symbols {
			fns = append(fns, map[string]any{"name": n, "purpose": "Adds.", "implementation": "1. Add.\n2. Double."})
		}
		r := map[string]any{"path": "big/big.go", "functions": fns, "part": part}
		if part == 1 {
			r["overview"] = "Many adders."
		}
		s.ok("report_file_info", r, &rep)
		if want := len(names) - len(seen); len(rep.Undocumented) != want {
			t.Errorf("after part %d: %d undocumented, want %d", part, len(rep.Undocumented), want)
		}
	}
	if !slices.Equal(seen, names) {
		t.Errorf("parts asked for %q, want every function once: %q", seen, names)
	}
	s.fails("file_info", map[string]any{"path": "big/big.go", "part": parts + 1}, "part")
	// A budget too small for even the fixed text is refused, not cut.
	s.fails("file_info", map[string]any{"path": "big/big.go", "max_tokens": 50, "refresh": true}, "max_tokens")
	md := s.read(".artifacts/big/big.go.md")
	if strings.Count(md, "**Purpose**: Adds.") != len(names) {
		t.Errorf("merged artifact documents %d functions, want %d", strings.Count(md, "**Purpose**: Adds."), len(names))
	}
}

func TestUnwritableArtifactsStillPrompt(t *testing.T) {
	// .artifacts is a file, not a directory: nothing can be written there
	// (as for a read-only checkout, which root's tests cannot make).
	files := maps.Clone(shop)
	files[".artifacts"] = "not a directory\n"
	s := connect(t, files, Options{})
	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusPromptReady || fi.Artifact != string(artifacts.Missing) || !strings.Contains(text(res), "the artifact cannot be read") {
		t.Errorf("unwritable .artifacts: %+v\n%s", fi, text(res)[max(0, len(text(res))-300):])
	}
	s.fails("report_file_info", storeReport(), "write the artifact")
	if got := s.read(".artifacts"); got != "not a directory\n" {
		t.Errorf(".artifacts was overwritten: %q", got)
	}
}

func TestMalformedArtifactIsKept(t *testing.T) {
	files := maps.Clone(shop)
	files[".artifacts/lib/store.go.md"] = "# notes someone wrote by hand\n"
	s := connect(t, files, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Artifact != "stale" || fi.Status != statusPromptReady {
		t.Errorf("malformed artifact: %+v", fi)
	}
	if got := s.read(".artifacts/lib/store.go.md"); got != files[".artifacts/lib/store.go.md"] {
		t.Errorf("file_info replaced a malformed artifact with %q", got)
	}
	// A report replaces it: that is what the user asked for.
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	if got := s.read(".artifacts/lib/store.go.md"); !strings.Contains(got, "status: enriched") {
		t.Errorf("report did not replace the malformed artifact: %q", got)
	}
}
