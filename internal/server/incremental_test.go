package server

import (
	"slices"
	"strings"
	"testing"
)

// TestFileInfoAsksOnlyWhatChanged: after a one-function edit, file_info
// asks about that function alone, shows the rest as context, and the
// report that names only it keeps every other symbol's prose.
func TestFileInfoAsksOnlyWhatChanged(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	var full fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go", "refresh": true}, &full)

	edited := strings.Replace(shop["lib/store.go"], "func NewStore() *Store { return &Store{m: map[string]int{}} }",
		"func NewStore() *Store {\n\tm := make(map[string]int, 8)\n\treturn &Store{m: m}\n}", 1)
	writeTree(t, s.root, map[string]string{"lib/store.go": edited})
	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusPromptReady || !slices.Equal(fi.Changed, []string{"NewStore"}) || !slices.Equal(fi.Symbols, []string{"NewStore"}) {
		t.Fatalf("after editing NewStore, file_info = %+v", fi)
	}
	prompt := text(res)
	for _, want := range []string{"make(map[string]int, 8)", "Sets a key's value.", "Returns a key's value."} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "s.m[key] = v") || fi.Tokens >= full.Tokens {
		t.Errorf("the prompt shows unchanged source, or is not smaller (%d tokens, full %d):\n%s", fi.Tokens, full.Tokens, prompt)
	}

	s.ok("report_file_info", map[string]any{"path": "lib/store.go", "functions": []map[string]any{
		{"name": "NewStore", "purpose": "Returns an empty Store with room for eight keys.", "implementation": "1. Make a map.\n2. Wrap it."},
	}}, &rep)
	if rep.ArtifactStatus != "enriched" || len(rep.Undocumented) != 0 {
		t.Errorf("report of the changed function = %+v", rep)
	}
	md := s.read(".artifacts/lib/store.go.md")
	for _, want := range []string{"room for eight keys", "**Purpose**: Sets a key's value.", "Defines Store, an in-memory map"} {
		if !strings.Contains(md, want) {
			t.Errorf("artifact lacks %q:\n%s", want, md)
		}
	}
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusUpToDate {
		t.Errorf("after reporting the change, file_info = %+v", fi)
	}
}
