package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// storeReportOf is storeReport with only the functions and methods named
// (by local name) documented; the overview and Store's purpose stay.
func storeReportOf(names ...string) map[string]any {
	r := storeReport()
	keep := func(fns []map[string]any, prefix string) []map[string]any {
		var out []map[string]any
		for _, fn := range fns {
			if slices.Contains(names, prefix+fn["name"].(string)) {
				out = append(out, fn)
			}
		}
		return out
	}
	r["functions"] = keep(r["functions"].([]map[string]any), "")
	cls := r["classes"].([]map[string]any)
	cls[0]["methods"] = keep(cls[0]["methods"].([]map[string]any), "Store.")
	return r
}

// expectDocumented checks that the artifact of lib/store.go shows the
// purpose of each of want and says "not documented yet" exactly missing
// times.
func (s *session) expectDocumented(missing int, want ...string) string {
	s.t.Helper()
	md := s.read(".artifacts/lib/store.go.md")
	for _, w := range want {
		if !strings.Contains(md, "**Purpose**: "+w) {
			s.t.Errorf("artifact lacks the purpose %q:\n%s", w, md)
		}
	}
	if got := strings.Count(md, "*not documented yet.*"); got != missing {
		s.t.Errorf("artifact has %d prose missing, want %d:\n%s", got, missing, md)
	}
	return md
}

func TestReportKeepsEarlierDocs(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	// Report three functions, then one: the other two keep their prose.
	one := storeReportOf("Store.Put")
	one["classes"].([]map[string]any)[0]["methods"].([]map[string]any)[0]["purpose"] = "Stores v under key."
	s.ok("report_file_info", one, &rep)
	if len(rep.Undocumented) != 0 {
		t.Errorf("undocumented = %q, want none", rep.Undocumented)
	}
	md := s.expectDocumented(0, "Returns an empty Store.", "Stores v under key.", "Returns a key's value.", "Holds integers by key.")
	if !strings.Contains(md, "status: enriched") || strings.Contains(md, "Sets a key's value") {
		t.Errorf("artifact:\n%s", md)
	}

	// The artifact, not the server's memory, is what is kept: a server
	// started afresh on the same root keeps it too.
	s2 := reconnect(t, s, Options{})
	s2.ok("report_file_info", storeReportOf("NewStore"), &rep)
	s2.expectDocumented(0, "Returns an empty Store.", "Stores v under key.", "Returns a key's value.")
	var fi fileInfoOut
	s2.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusUpToDate || fi.Artifact != "enriched" {
		t.Errorf("file_info = %+v", fi)
	}
}

func TestPartialArtifact(t *testing.T) {
	s := connect(t, shop, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	var rep reportOut
	res := s.ok("report_file_info", storeReportOf("NewStore", "Store.Put"), &rep)
	if !slices.Equal(rep.Undocumented, []string{"Store.Get"}) || rep.ArtifactStatus != "partial" {
		t.Errorf("report = %+v", rep)
	}
	if !strings.Contains(text(res), "Store.Get") {
		t.Errorf("report text: %s", text(res))
	}
	if md := s.expectDocumented(2, "Returns an empty Store.", "Sets a key's value."); !strings.Contains(md, "status: partial") {
		t.Errorf("artifact is not partial:\n%s", md)
	}

	// file_info treats a partial artifact as work to do and says what.
	res = s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusPromptReady || fi.Artifact != "partial" || !strings.Contains(text(res), "## Source Code") || !slices.Equal(fi.Missing, []string{"Store.Get"}) {
		t.Errorf("file_info on a partial artifact = %+v", fi)
	}
	if !strings.Contains(text(res), "Store.Get") || strings.Contains(text(res), "up to date") {
		t.Errorf("file_info text does not list what is missing:\n%s", text(res))
	}
	if got := s.artifactStatuses(); got["lib/store.go"] != "partial" {
		t.Errorf("fileinfo://artifacts: %v", got)
	}
	var st indexStatusOut
	res = s.ok("index_status", map[string]any{}, &st)
	if st.Artifacts["partial"] != 1 || !strings.Contains(text(res), "1 partial") {
		t.Errorf("index_status = %v\n%s", st.Artifacts, text(res))
	}

	// Reporting only what is missing completes it: the overview and
	// Store's purpose saved before stand.
	s.ok("report_file_info", map[string]any{"path": "lib/store.go", "functions": []any{}, "classes": []map[string]any{{
		"name": "Store", "methods": []map[string]any{{"name": "Get", "purpose": "Returns a key's value.", "implementation": "1. Index m."}},
	}}}, &rep)
	if len(rep.Undocumented) != 0 || rep.Status != "written" || rep.ArtifactStatus != "enriched" {
		t.Errorf("report = %+v", rep)
	}
	if md := s.expectDocumented(0, "Returns an empty Store.", "Sets a key's value.", "Returns a key's value.", "Holds integers by key."); !strings.Contains(md, "Defines Store, an in-memory map") {
		t.Errorf("the overview was lost:\n%s", md)
	}
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusUpToDate || fi.Artifact != "enriched" || len(fi.Missing) != 0 {
		t.Errorf("file_info = %+v", fi)
	}
}

func TestReportAfterEdit(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	// Get is removed and Len added: Get's prose goes, Len is missing.
	src := strings.Replace(shop["lib/store.go"], "func (s *Store) Get(key string) int { return s.m[key] }\n",
		"func (s *Store) Len() int { return len(s.m) }\n", 1)
	writeTree(t, s.root, map[string]string{"lib/store.go": src, "main.go": "package main\n\nimport \"example.com/shop/lib\"\n\nfunc main() { lib.NewStore().Put(\"a\", 1) }\n"})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Artifact != "stale" {
		t.Errorf("after the edit, file_info = %+v", fi)
	}
	s.ok("report_file_info", storeReportOf("Store.Put"), &rep)
	if !slices.Equal(rep.Undocumented, []string{"Store.Len"}) || rep.ArtifactStatus != "partial" {
		t.Errorf("report = %+v", rep)
	}
	md := s.expectDocumented(2, "Returns an empty Store.", "Sets a key's value.")
	if strings.Contains(md, "Returns a key's value") {
		t.Errorf("the prose of Get, which is gone, is kept:\n%s", md)
	}
}

// reconnect starts another server, with opt, on s's workspace, and
// connects a client to it.
func reconnect(t testing.TB, s *session, opt Options) *session {
	t.Helper()
	opt.Root = s.root
	s2 := connect(t, nil, opt)
	s2.root = s.root
	return s2
}

// artifactStatuses reads fileinfo://artifacts: status by path.
func (s *session) artifactStatuses() map[string]string {
	s.t.Helper()
	res, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "fileinfo://artifacts"})
	if err != nil {
		s.t.Fatal(err)
	}
	var list struct{ Artifacts []artifactEntry }
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &list); err != nil {
		s.t.Fatal(err)
	}
	out := map[string]string{}
	for _, a := range list.Artifacts {
		out[a.Path] = a.Status
	}
	return out
}

// bigFile is a Go file of 40 small functions, which a budget of 1500
// tokens splits into parts.
func bigFile() (string, []string) {
	var src strings.Builder
	src.WriteString("package big\n")
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("F%02d", i)
		names = append(names, name)
		fmt.Fprintf(&src, "\n// %s adds %d.\nfunc %s(x int) int {\n\ty := x + %d\n\treturn y * 2\n}\n", name, i, name, i)
	}
	return src.String(), names
}

func partReport(part int, symbols []string) map[string]any {
	var fns []map[string]any
	for _, n := range symbols {
		fns = append(fns, map[string]any{"name": n, "purpose": "Adds.", "implementation": "1. Add.\n2. Double."})
	}
	r := map[string]any{"path": "big/big.go", "functions": fns, "part": part}
	if part == 1 {
		r["overview"] = "Many adders."
	}
	return r
}

func TestPartsAcrossRestart(t *testing.T) {
	src, names := bigFile()
	s := connect(t, map[string]string{"big/big.go": src}, Options{MaxTokens: 1500})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "big/big.go", "part": 1}, &fi)
	parts := fi.Parts
	if parts < 3 {
		t.Fatalf("%d parts, want 3 or more", parts)
	}
	var rep reportOut
	s.ok("report_file_info", partReport(1, fi.Symbols), &rep)
	if rep.ArtifactStatus != "partial" {
		t.Errorf("after part 1: %+v", rep)
	}
	// The parts reported so far are in the artifact, not in the memory of
	// the server that received them: a new server completes the file.
	s = reconnect(t, s, Options{MaxTokens: 1500})
	for part := 2; part <= parts; part++ {
		s.ok("file_info", map[string]any{"path": "big/big.go", "part": part}, &fi)
		s.ok("report_file_info", partReport(part, fi.Symbols), &rep)
	}
	if len(rep.Undocumented) != 0 || rep.Status != "written" || rep.ArtifactStatus != "enriched" {
		t.Errorf("after every part: %+v", rep)
	}
	md := s.read(".artifacts/big/big.go.md")
	if strings.Count(md, "**Purpose**: Adds.") != len(names) || !strings.Contains(md, "Many adders.") || !strings.Contains(md, "status: enriched") {
		t.Errorf("merged artifact:\n%s", md)
	}
}

func TestReportPartOutOfRange(t *testing.T) {
	src, _ := bigFile()
	files := maps.Clone(shop)
	files["big/big.go"] = src
	s := connect(t, files, Options{})
	var rep reportOut
	for _, part := range []int64{1_000_000_000_000_000_000, 1 << 40} { // beyond any file's parts
		r := storeReport()
		r["part"] = part
		msg := s.fails("report_file_info", r, "part: ", "is out of range; want an integer from 1 to 10000; nothing was written")
		t.Logf("part %v: %s", part, msg)
	}
	r := storeReport()
	r["part"] = 2
	msg := s.fails("report_file_info", r, "out of range", "lib/store.go has 1 part", "nothing was written")
	t.Logf("part 2: %s", msg)
	if s.exists(".artifacts/lib/store.go.md") {
		t.Error("a report of a part out of range was written")
	}
	s.ok("report_file_info", map[string]any{"path": "lib/store.go", "overview": "x", "functions": []any{}, "part": 1}, &rep)

	// A part file_info gave at a smaller budget is accepted; one past it
	// is not.
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "big/big.go", "max_tokens": 1500}, &fi)
	if fi.Parts < 3 {
		t.Fatalf("%d parts", fi.Parts)
	}
	s.ok("file_info", map[string]any{"path": "big/big.go", "max_tokens": 1500, "part": fi.Parts}, &fi)
	s.ok("report_file_info", partReport(fi.Parts, fi.Symbols), &rep)
	s.fails("report_file_info", partReport(fi.Parts+1, nil), "out of range", fmt.Sprintf("has %d parts", fi.Parts))
}

func TestBasicNeverReplacesProse(t *testing.T) {
	// file_info decides to write the basic artifact when there is none,
	// then writes it; a report saved in between must survive.
	s := connect(t, shop, Options{})
	ws, err := s.srv.ready(context.Background(), nil) // current needs the loaded graph
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := ws.current(context.Background(), "lib/store.go")
	if err != nil {
		t.Fatal(err)
	}
	ws.mu.RLock()
	fp := ws.fingerprint(src)
	ws.mu.RUnlock()
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	if written, err := ws.writeBasic("lib/store.go", fp, "test", []byte("# basic\n")); written || err != nil {
		t.Errorf("writeBasic over an enriched artifact = %v, %v", written, err)
	}
	s.expectDocumented(0, "Returns an empty Store.", "Sets a key's value.")
	if written, err := ws.writeBasic("main.go", fp, "test", []byte("# basic\n")); !written || err != nil {
		t.Errorf("writeBasic with no artifact = %v, %v", written, err)
	}
}
