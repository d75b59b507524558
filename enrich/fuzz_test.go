package enrich

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReport decodes arbitrary JSON as a report: validating, listing what
// is undocumented, merging and rendering it never panic; a report that
// validates survives a JSON round trip unchanged and renders the same
// after it; prose never adds a heading to the artifact's layout.
func FuzzReport(f *testing.F) {
	r := loadArchive(f, "repo.txtar")
	file, _ := r.file(f, "shop/store.py")
	for _, name := range []string{"store.py.report.json", "ledger.go.report.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	v, _ := json.Marshal(valid())
	f.Add(v)
	f.Add([]byte(`{"path":"shop/store.py","overview":"x\n# Injected\n===\n---","functions":[{"name":"load","purpose":"p\n## no","implementation":["1. a","# b"]}]}`))
	f.Add([]byte(`{"functions":[{"name":"get"},{"name":"Store.get","implementation":3}],"classes":[{"name":"","methods":[{}]}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep Report
		if json.Unmarshal(data, &rep) != nil {
			return
		}
		err := Validate(&rep, file)
		Undocumented(&rep, file)
		m := Merge(rep, rep)
		Undocumented(&m, file)
		md, rerr := RenderEnriched(file, r.graph, &rep)
		if err != nil {
			return
		}
		if rerr != nil {
			t.Fatalf("valid report does not render: %v", rerr)
		}
		checkHeadings(t, md)

		enc, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var back Report
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("round trip: %v\n%s", err, enc)
		}
		again, _ := json.Marshal(back)
		if !bytes.Equal(enc, again) {
			t.Fatalf("round trip changed the report:\n%s\n%s", enc, again)
		}
		if err := Validate(&back, file); err != nil {
			t.Fatalf("valid report invalid after a round trip: %v", err)
		}
		md2, err := RenderEnriched(file, r.graph, &back)
		if err != nil || !bytes.Equal(md, md2) {
			t.Fatalf("rendering changed after a round trip: %v", err)
		}
	})
}

// checkHeadings fails if md has headings other than the layout's own: one
// title and the three sections.
func checkHeadings(t *testing.T, md []byte) {
	t.Helper()
	var h1, h2 []string
	for _, l := range strings.Split(string(md), "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			h1 = append(h1, l)
		case strings.HasPrefix(l, "## "):
			h2 = append(h2, l)
		}
	}
	if len(h1) != 1 {
		t.Fatalf("%d titles: %q\n%s", len(h1), h1, md)
	}
	for _, h := range h2 {
		if h != "## Overview" && h != "## Functions" && h != "## Classes" {
			t.Fatalf("heading %q from prose\n%s", h, md)
		}
	}
	for _, l := range strings.Split(string(md), "\n") {
		if l == "===" || strings.HasPrefix(l, "```") {
			t.Fatalf("line %q from prose\n%s", l, md)
		}
	}
}
