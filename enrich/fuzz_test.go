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
// is undocumented, updating and rendering it never panic; a report that
// validates survives a JSON round trip unchanged and renders the same
// after it; prose never adds a heading to the artifact's layout; the
// record at the end of the artifact reads back as a report that renders
// the same artifact.
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
		err := Validate(&rep, file, nil)
		Undocumented(&rep, file)
		m := Update(&rep, &rep, file)
		Undocumented(m, file)
		md, rerr := RenderEnriched(file, r.graph, &rep, Digests{})
		if err != nil {
			return
		}
		if rerr != nil {
			t.Fatalf("valid report does not render: %v", rerr)
		}
		checkHeadings(t, md)

		// The artifact records the report exactly: rendering the record
		// gives the same artifact, and updating with it changes nothing.
		rec, err := Recorded(md)
		if err != nil || rec == nil {
			t.Fatalf("Recorded = %+v, %v\n%s", rec, err, md)
		}
		if md2, err := RenderEnriched(file, r.graph, rec, Digests{}); err != nil || !bytes.Equal(md, md2) {
			t.Fatalf("rendering the record differs: %v\n%s", err, lineDiff(string(md), string(md2)))
		}
		if u := Update(rec, rec, file); !reflectEqual(t, u, rec) {
			t.Fatalf("Update(rec, rec) = %+v, want %+v", u, rec)
		}

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
		if err := Validate(&back, file, nil); err != nil {
			t.Fatalf("valid report invalid after a round trip: %v", err)
		}
		md2, err := RenderEnriched(file, r.graph, &back, Digests{})
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

// FuzzRecorded reads arbitrary bytes as an artifact's body: Recorded never
// panics, and a record it reads renders an artifact whose record reads
// back the same.
func FuzzRecorded(f *testing.F) {
	r := loadArchive(f, "repo.txtar")
	file, _ := r.file(f, "shop/store.py")
	md, err := RenderEnriched(file, r.graph, valid(), Digests{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(md)
	f.Add(RenderBasic(file, r.graph))
	f.Add([]byte("# x\n\n<!-- fileinfo:report v1\n{\"functions\":[{\"name\":\"load\",\"implementation\":[\"a\"]}]}\n-->\n"))
	f.Add([]byte("\n<!-- fileinfo:report v1\nnull\n-->"))
	f.Add([]byte("\n<!-- fileinfo:report v2\n{}\n-->\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		rec, err := Recorded(body)
		if err != nil || rec == nil {
			return
		}
		u := Update(rec, nil, file)
		md, err := RenderEnriched(file, r.graph, u, Digests{})
		if err != nil {
			t.Fatalf("the canonical form of a record does not render: %v", err)
		}
		back, err := Recorded(md)
		if err != nil || !reflectEqual(t, back, u) {
			t.Fatalf("Recorded(RenderEnriched(%+v)) = %+v, %v", u, back, err)
		}
	})
}

// FuzzRecover reads arbitrary bytes as the markdown of an artifact from
// before records: Recover never panics, and what it recovers names only
// the file's symbols, is in canonical form and renders.
func FuzzRecover(f *testing.F) {
	r := loadArchive(f, "repo.txtar")
	file, _ := r.file(f, "shop/store.py")
	for _, md := range legacy(f) {
		f.Add(md)
	}
	md, err := RenderEnriched(file, r.graph, valid(), Digests{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(md)
	f.Add(RenderBasic(file, r.graph))
	f.Add([]byte("## Classes\n### `class Store`\n#### `def get(self, name)`\n*`Store.get`*\n**Purpose:** a\n**Implementation summary**: 1. x 2. y\n- z\n  w\n\n~~~\n"))
	f.Add([]byte("## Overview\n\\# a\n**Outputs**: o\n\n**Inputs**: i\n\n**Connections**\n<!-- x\n### `` ` ``\nPurpose: p\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		Prose(body, file)
		rec := Recover(body, file)
		if rec == nil {
			return
		}
		if _, err := RenderEnriched(file, r.graph, rec, Digests{}); err != nil {
			t.Fatalf("the recovered prose does not render: %v\n%+v", err, rec)
		}
		if u := Update(rec, nil, file); !reflectEqual(t, u, rec) {
			t.Fatalf("not canonical: %+v, want %+v", rec, u)
		}
	})
}

// FuzzRecoverRendered renders reports as the renderer did before
// records, and recovers their prose: rendered again, it gives the same
// artifact. Overviews with a line opening an HTML comment are left out:
// what a comment holds is not shown, and so not recovered.
func FuzzRecoverRendered(f *testing.F) {
	r := loadArchive(f, "repo.txtar")
	file, _ := r.file(f, "shop/store.py")
	for _, name := range []string{"store.py.report.json", "tricky.report.json"} {
		data, ok := legacy(f)[name]
		if !ok {
			data, _ = os.ReadFile(filepath.Join("testdata", name))
		}
		f.Add(data)
	}
	v, _ := json.Marshal(valid())
	f.Add(v)
	f.Add([]byte(`{"path":"shop/store.py","overview":"x\n\n**Inputs**: y","outputs":"o","functions":[{"name":"load","purpose":"*not documented yet.*","implementation":"1. 1. a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep Report
		if json.Unmarshal(data, &rep) != nil || Validate(&rep, file, nil) != nil {
			return
		}
		for _, l := range strings.Split(rep.Overview, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "<!--") {
				return
			}
		}
		md, err := RenderEnriched(file, r.graph, &rep, Digests{})
		if err != nil {
			t.Fatal(err)
		}
		old := oldFormat(md)
		rec := Recover(old, file)
		if rec == nil {
			rec = &Report{Functions: []Function{}}
		}
		again, err := RenderEnriched(file, r.graph, rec, Digests{})
		if err != nil {
			t.Fatal(err)
		}
		if got := oldFormat(again); !bytes.Equal(got, old) {
			t.Fatalf("the recovered prose renders differently:\n%s\nrecovered %+v", lineDiff(string(old), string(got)), rec)
		}
	})
}
