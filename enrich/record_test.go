package enrich

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// proseOf returns what r says of each of f's symbols, by local name:
// purpose, then implementation.
func proseOf(t *testing.T, r *Report) map[string][2]string {
	t.Helper()
	fs := newFacts(storeFile(t), nil)
	docs, problems := resolve(r, fs)
	if len(problems) > 0 {
		t.Fatalf("report does not resolve: %v", problems)
	}
	out := map[string][2]string{}
	for q, d := range docs {
		if !d.empty() {
			out[localName(fs.f, q)] = [2]string{d.purpose, d.implementation}
		}
	}
	return out
}

func expectProse(t *testing.T, r *Report, want map[string][2]string) {
	t.Helper()
	got := proseOf(t, r)
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: %q, want %q", n, got[n], w)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s: %q, want no prose", n, got[n])
		}
	}
}

func TestUpdateKeepsWhatIsNotReported(t *testing.T) {
	f := storeFile(t)
	first := &Report{Path: "shop/store.py", Overview: "First.", Inputs: "Files.",
		Functions: []Function{{Name: "load", Purpose: "Loads.", Implementation: "1. Read."}},
		Classes: []Class{{Name: "Store", Purpose: "Holds.", Methods: []Function{
			{Name: "get", Purpose: "Gets.", Implementation: "1. Look up."},
			{Name: "add", Purpose: "Adds.", Implementation: "1. Store."},
		}}},
	}
	m := Update(nil, first, f)
	// Three documented, then one: the other two keep their prose.
	m = Update(m, &Report{Path: "shop/store.py", Overview: "Second.",
		Functions: []Function{{Name: "Store.get", Purpose: "Gets again.", Implementation: "1. Index."}}}, f)
	expectProse(t, m, map[string][2]string{
		"load":      {"Loads.", "1. Read."},
		"Store":     {"Holds.", ""},
		"Store.get": {"Gets again.", "1. Index."},
		"Store.add": {"Adds.", "1. Store."},
	})
	if m.Overview != "Second." || m.Inputs != "Files." || m.Part != 0 || m.Path != "shop/store.py" {
		t.Errorf("overview %q, inputs %q, part %d, path %q", m.Overview, m.Inputs, m.Part, m.Path)
	}

	// Empty prose erases nothing; a purpose alone keeps the implementation.
	m = Update(m, &Report{Overview: " ", Inputs: "\n",
		Functions: []Function{{Name: "load"}, {Name: "Store.add", Purpose: "Adds a price."}},
		Classes:   []Class{{Name: "Store"}}}, f)
	expectProse(t, m, map[string][2]string{
		"load":      {"Loads.", "1. Read."},
		"Store":     {"Holds.", ""},
		"Store.get": {"Gets again.", "1. Index."},
		"Store.add": {"Adds a price.", "1. Store."},
	})
	if m.Overview != "Second." || m.Inputs != "Files." {
		t.Errorf("blank prose replaced: overview %q, inputs %q", m.Overview, m.Inputs)
	}

	// A later part only fills gaps; a first part replaces.
	m = Update(m, &Report{Part: 2, Overview: "Third.", Outputs: "Totals."}, f)
	if m.Overview != "Second." || m.Outputs != "Totals." {
		t.Errorf("part 2: overview %q, outputs %q", m.Overview, m.Outputs)
	}
	if m = Update(m, &Report{Part: 1, Overview: "Again."}, f); m.Overview != "Again." || m.Outputs != "Totals." {
		t.Errorf("part 1: overview %q, outputs %q", m.Overview, m.Outputs)
	}
}

func TestUpdateDropsSymbolsGone(t *testing.T) {
	f := storeFile(t)
	prev := &Report{Overview: "Old.",
		Functions: []Function{
			{Name: "load", Purpose: "Loads.", Implementation: "1. Read."},
			{Name: "save", Purpose: "Was removed.", Implementation: "1. Write."},
			{Name: "Store", Purpose: "Was a function, is a class now."},
		},
		Classes: []Class{{Name: "Gone", Purpose: "Was removed."}, {Name: "Store", Methods: []Function{{Name: "put", Purpose: "Was renamed."}}}},
	}
	m := Update(prev, nil, f)
	expectProse(t, m, map[string][2]string{"load": {"Loads.", "1. Read."}})
	if m.Overview != "Old." || m.Path != f.Path {
		t.Errorf("overview %q, path %q", m.Overview, m.Path)
	}
}

func TestUpdateCanonicalForm(t *testing.T) {
	f := storeFile(t)
	r := &Report{Overview: "O.",
		Functions: []Function{
			{Name: "shop.store.Store.total", Purpose: "Sums.", Implementation: "1. Add."},
			{Name: "`load()`", Purpose: "Loads."},
		},
		Classes: []Class{
			{Name: "Store.Error", Purpose: "Raised."},
			{Name: "Store", Methods: []Function{{Name: "get", Implementation: "1. Look up."}}},
		},
	}
	got, _ := json.Marshal(Update(nil, r, f))
	want := `{"path":"shop/store.py","overview":"O.",` +
		`"functions":[{"name":"load","purpose":"Loads.","implementation":""}],` +
		`"classes":[{"name":"Store","methods":[` +
		`{"name":"Store.get","purpose":"","implementation":"1. Look up."},` +
		`{"name":"Store.total","purpose":"Sums.","implementation":"1. Add."}]},` +
		`{"name":"Store.Error","purpose":"Raised."}]}`
	if string(got) != want {
		t.Errorf("canonical form:\n%s\nwant\n%s", got, want)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	for _, p := range goldenFiles {
		f, _ := r.file(t, p)
		rep := readReport(t, p[strings.LastIndexByte(p, '/')+1:]+".report.json")
		md, err := RenderEnriched(f, r.graph, rep, Digests{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Recorded(md)
		if err != nil || rec == nil {
			t.Fatalf("%s: Recorded = %v, %v", p, rec, err)
		}
		again, err := RenderEnriched(f, r.graph, rec, Digests{})
		if err != nil || !bytes.Equal(again, md) {
			t.Errorf("%s: rendering the record differs: %v\n%s", p, err, lineDiff(string(md), string(again)))
		}
		if want := Update(nil, rep, f); !reflectEqual(t, rec, want) {
			t.Errorf("%s: record %+v, want %+v", p, rec, want)
		}
	}
}

func reflectEqual(t *testing.T, a, b *Report) bool {
	t.Helper()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestRecordHidden(t *testing.T) {
	f := storeFile(t)
	rep := valid()
	rep.Overview = "Ends a comment early --> and starts one <!-- fileinfo:report v1\n{\"overview\": \"fake\"}\n-->"
	rep.Functions[0].Purpose = "Compares a < b && c > d -->"
	md, err := RenderEnriched(f, nil, rep, Digests{})
	if err != nil {
		t.Fatal(err)
	}
	// The record is one HTML comment at the very end: nothing in it closes
	// it early, so markdown viewers show none of it.
	i := bytes.LastIndex(md, []byte("\n<!-- fileinfo:report v1\n"))
	if i < 0 || !bytes.HasSuffix(md, []byte("\n-->\n")) || bytes.Contains(md[i:len(md)-4], []byte("-->")) {
		t.Fatalf("record is not one comment at the end:\n%s", md[max(0, i):])
	}
	if bytes.Contains(md[i:], []byte("a < b && c > d")) == false {
		t.Errorf("the record escapes more than it needs to:\n%s", md[i:])
	}
	rec, err := Recorded(md)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Overview != rep.Overview || rec.Functions[0].Purpose != rep.Functions[0].Purpose {
		t.Errorf("record = %+v", rec)
	}
	// What a reader is shown stops where the record starts.
	shown := WithoutRecord(md)
	if !bytes.Equal(shown, append(bytes.TrimRight(md[:i], "\n"), '\n')) || bytes.Contains(shown[len(shown)-200:], []byte("fileinfo:report")) {
		t.Errorf("WithoutRecord kept the record:\n%s", shown[max(0, len(shown)-300):])
	}
	if basic := RenderBasic(f, nil); !bytes.Equal(WithoutRecord(basic), basic) {
		t.Error("WithoutRecord changed an artifact without a record")
	}
}

func TestRecordedWithout(t *testing.T) {
	f := storeFile(t)
	if rec, err := Recorded(RenderBasic(f, nil)); rec != nil || err != nil {
		t.Errorf("Recorded(basic) = %+v, %v", rec, err)
	}
	md, _ := RenderEnriched(f, nil, valid(), Digests{})
	for name, body := range map[string]string{
		"damaged":       strings.Replace(string(md), `"overview"`, `"overview`, 1),
		"other version": strings.Replace(string(md), "fileinfo:report v1", "fileinfo:report v9", 1),
		"unclosed":      strings.TrimSuffix(string(md), "-->\n"),
	} {
		if rec, err := Recorded([]byte(body)); err == nil {
			t.Errorf("%s: Recorded = %+v, want an error", name, rec)
		}
	}
	// Notes someone appended after the record do not hide it.
	if rec, err := Recorded(append(slices.Clone(md), "\nNotes.\n"...)); err != nil || rec == nil {
		t.Errorf("with notes after it: %v", err)
	}
}
