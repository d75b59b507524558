package enrich

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fileinfo/fileinfo/extract"
)

// legacy returns the files of testdata/legacy.txtar, artifacts the
// renderer wrote before records, by name.
func legacy(t testing.TB) map[string][]byte {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "legacy.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range ar.Files {
		out[f.Name] = f.Data
	}
	return out
}

// oldFormat turns an artifact as RenderEnriched writes it into the one
// it wrote before records: without the record, and without the "not
// documented yet" of a missing Implementation Summary, which came with
// the record. TestOldFormat checks it against the old renderer.
func oldFormat(md []byte) []byte {
	if i := bytes.LastIndex(md, []byte("\n"+recordMarker)); i >= 0 {
		md = md[:i]
	}
	return bytes.ReplaceAll(md, []byte("\n\n**Implementation Summary**: *not documented yet.*"), nil)
}

func decodeReport(t testing.TB, data []byte) *Report {
	t.Helper()
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

// legacyCases are the artifacts of legacy.txtar: the file each is of,
// and the report it renders.
var legacyCases = []struct{ file, artifact, report string }{
	{"shop/store.py", "store.py.md", "store.py.report.json"},
	{"ledger/ledger.go", "ledger.go.md", "ledger.go.report.json"},
	{"shop/store.py", "store.py.tricky.md", "tricky.report.json"},
}

func TestOldFormat(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	old := legacy(t)
	for _, c := range legacyCases {
		f, _ := r.file(t, c.file)
		var rep *Report
		if data, ok := old[c.report]; ok {
			rep = decodeReport(t, data)
		} else {
			rep = readReport(t, c.report)
		}
		md, err := RenderEnriched(f, r.graph, rep, Digests{})
		if err != nil {
			t.Fatal(err)
		}
		if got := oldFormat(md); !bytes.Equal(got, old[c.artifact]) {
			t.Errorf("%s: the old format differs:\n%s", c.artifact, lineDiff(string(old[c.artifact]), string(got)))
		}
	}
}

// TestRecoverOldArtifacts reads back the prose of artifacts the old
// renderer wrote: rendered, it gives the same artifacts.
func TestRecoverOldArtifacts(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	old := legacy(t)
	for _, c := range legacyCases {
		f, _ := r.file(t, c.file)
		rec := Recover(old[c.artifact], f)
		if rec == nil {
			t.Fatalf("%s: nothing recovered", c.artifact)
		}
		md, err := RenderEnriched(f, r.graph, rec, Digests{})
		if err != nil {
			t.Fatalf("%s: %v", c.artifact, err)
		}
		if got := oldFormat(md); !bytes.Equal(got, old[c.artifact]) {
			t.Errorf("%s: the recovered prose renders differently:\n%s", c.artifact, lineDiff(string(old[c.artifact]), string(got)))
		}
	}

	rec := Recover(old["store.py.tricky.md"], storeFile(t))
	expectProse(t, rec, map[string][2]string{
		"load":           {"Reads `path` into a Store; see *Store.add*.", "1. Open the file.\n2. Decode it.\n3. Add each item."},
		"Store.__init__": {"Creates a store from an optional mapping.", ""},
		"Store.add":      {"", "1. Refuse a negative price\n2. Store the price under its name"},
		"Store.get":      {"Returns an item's price: **Purpose**: not a label.", "Look the name up, raising Store.Error for an unknown one."},
		"Store.total":    {"Sums 1. discounted 2. prices.", "1. Discount each price.\n2. Sum them.\n3. Add tax and return."},
		"Store.Error":    {"Raised for bad prices — and unknown items.", ""},
	})
	wantOverview := "Keeps priced items in memory.\n# Not a heading: the renderer escapes it.\n```\n---\n\n" +
		"A second paragraph, with **bold**, `code` and a trailing space.\n\\* An escaped star stays."
	if rec.Overview != wantOverview || rec.Inputs != "A JSON file of prices." || rec.Outputs != "Totals, rounded." || rec.Path != "shop/store.py" {
		t.Errorf("overview %q\ninputs %q, outputs %q, path %q", rec.Overview, rec.Inputs, rec.Outputs, rec.Path)
	}
}

// storeProse is the prose the old artifact of store.py shows.
var storeProse = map[string][2]string{
	"load": {"Reads a JSON file of name: price pairs into a new Store.",
		"1. Open the file at path.\n2. Decode its JSON into a dict.\n3. Create an empty Store.\n4. Add each name and price with Store.add.\n5. Return the store."},
	"Store":          {"Holds item prices by name.", ""},
	"Store.__init__": {"Creates a store from an optional mapping of items.", "Copy items into a new dict, or start empty."},
	"Store.add":      {"Adds or replaces an item's price, refusing negative prices.", "1. Raise Store.Error if price is negative.\n2. Set items[name] to price."},
	"Store.get":      {"Returns an item's price.", "1. Look name up in items\n2. Turn a KeyError into Store.Error without chaining"},
	"Store.total":    {"Sums the prices after a percentage discount, then adds tax.", "1. Discount each price by pct with pricing.discount.\n2. Sum the results.\n3. Apply with_tax to the sum and return it."},
	"Store.Error":    {"Raised for negative prices and unknown items.", ""},
}

// TestReportOverOldArtifact is issue 18 for artifacts from before
// records: a partial report keeps the earlier docs of the functions it
// leaves out.
func TestReportOverOldArtifact(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	old := legacy(t)
	f, _ := r.file(t, "shop/store.py")
	prev, err := Prose(old["store.py.md"], f)
	if err != nil {
		t.Fatal(err)
	}
	m := Update(prev, &Report{Path: f.Path, Functions: []Function{{Name: "Store.get", Purpose: "Looks a price up.", Implementation: "1. Index items."}}}, f)
	want := maps.Clone(storeProse)
	want["Store.get"] = [2]string{"Looks a price up.", "1. Index items."}
	expectProse(t, m, want)
	if !strings.HasPrefix(m.Overview, "Keeps an in-memory store of priced items") || !strings.HasSuffix(m.Overview, "adjusted through shop/pricing.py.") ||
		m.Inputs != "A JSON file mapping item names to prices, or a dict of items." || m.Outputs != "Store objects, single prices and totals." {
		t.Errorf("overview %q, inputs %q, outputs %q", m.Overview, m.Inputs, m.Outputs)
	}

	// The old artifact of ledger.go left Balance out: reporting only it
	// completes the file.
	f, _ = r.file(t, "ledger/ledger.go")
	prev, err = Prose(old["ledger.go.md"], f)
	if err != nil {
		t.Fatal(err)
	}
	if got := Undocumented(prev, f); strings.Join(got, ",") != "Ledger.Balance" {
		t.Errorf("undocumented in the old artifact: %q", got)
	}
	m = Update(prev, &Report{Path: f.Path, Classes: []Class{{Name: "Ledger", Methods: []Function{{Name: "Balance", Purpose: "Returns a balance.", Implementation: "1. Look it up."}}}}}, f)
	if got := Undocumented(m, f); len(got) != 0 || m.Overview == "" {
		t.Errorf("after reporting Balance: undocumented %q, overview %q", got, m.Overview)
	}
}

// TestProse reads the record when there is one, and the markdown when
// there is none or it cannot be read.
func TestProse(t *testing.T) {
	f := storeFile(t)
	md, err := RenderEnriched(f, nil, valid(), Digests{})
	if err != nil {
		t.Fatal(err)
	}
	// A hand edit of the prose: the record, not the text, is read.
	edited := bytes.Replace(md, []byte("**Purpose**: Loads."), []byte("**Purpose**: Loads by hand."), 1)
	if p, err := Prose(edited, f); err != nil || p.Functions[0].Purpose != "Loads." {
		t.Errorf("Prose = %+v, %v; want the record's", p, err)
	}
	damaged := bytes.Replace(edited, []byte(`"overview"`), []byte(`"overview`), 1)
	p, err := Prose(damaged, f)
	if err == nil || p == nil {
		t.Fatalf("damaged record: Prose = %+v, %v; want what the text shows, and an error", p, err)
	}
	expectProse(t, p, map[string][2]string{"load": {"Loads by hand.", "1. Read.\n2. Build."}, "Store": {"Holds.", ""}, "Store.get": {"Gets.", "Look up."}})
	if p, err := Prose(RenderBasic(f, nil), f); p != nil || err != nil {
		t.Errorf("basic artifact: Prose = %+v, %v; want nothing", p, err)
	}
}

// TestRecoverHandEdits recovers the old artifact of store.py after hand
// edits: what is still there is found; what is gone, or names no symbol
// surely, is missing, never guessed.
func TestRecoverHandEdits(t *testing.T) {
	base := string(legacy(t)["store.py.md"])
	f := storeFile(t)
	// section returns a symbol's section of md, up to the next heading of
	// its level or higher.
	section := func(md, heading string) string {
		i := strings.Index(md, heading)
		if i < 0 {
			t.Fatalf("no section %q", heading)
		}
		level := strings.IndexByte(heading, ' ')
		end := i + len(heading)
		for _, l := range strings.SplitAfter(md[end:], "\n")[1:] {
			if n := len(l) - len(strings.TrimLeft(l, "#")); n > 0 && n <= level {
				break
			}
			end += len(l)
		}
		return md[i : end+1]
	}
	getSec, totalSec := section(base, "##### `def get(self, name)`"), section(base, "##### `def total(self, pct=0)`")
	for _, tc := range []struct {
		name string
		edit func(string) string
		file func(*extract.File) // changes the file since the artifact
		want map[string]*[2]string
	}{
		{name: "CRLF", edit: func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
		{name: "purpose edited", edit: func(s string) string {
			return strings.Replace(s, "**Purpose**: Returns an item's price.", "**Purpose**: Returns the price of an item.", 1)
		}, want: map[string]*[2]string{"Store.get": {"Returns the price of an item.", storeProse["Store.get"][1]}}},
		{name: "labels rewritten, purpose wrapped", edit: func(s string) string {
			s = strings.Replace(s, "**Purpose**: Reads a JSON file of name: price pairs into a new Store.", "**Purpose:** Reads a JSON file of name: price pairs\ninto a new Store.", 1)
			s = strings.Replace(s, "**Purpose**: Holds item prices by name.", "Purpose: Holds item prices by name.", 1)
			return strings.Replace(s, "**Implementation Summary**:", "**Implementation summary:**", 1)
		}},
		{name: "rules gone, blank lines and trailing spaces added", edit: func(s string) string {
			s = strings.ReplaceAll(s, "\n---\n", "\n")
			s = strings.ReplaceAll(s, "\n\n", "\n\n\n")
			return strings.ReplaceAll(s, ".\n", ".  \n")
		}},
		{name: "section deleted", edit: func(s string) string {
			return strings.Replace(s, section(s, "##### `def add(self, name, price)`"), "", 1)
		}, want: map[string]*[2]string{"Store.add": nil}},
		{name: "sections swapped", edit: func(s string) string {
			return strings.Replace(strings.Replace(strings.Replace(s, getSec, "@@", 1), totalSec, getSec, 1), "@@", totalSec, 1)
		}},
		{name: "heading renamed, name line kept", edit: func(s string) string {
			return strings.Replace(s, "`def add(self, name, price)`", "`def put(self, name, price)`", 1)
		}},
		{name: "signature changed since", file: func(f *extract.File) {
			for i := range f.Symbols {
				if f.Symbols[i].Name == "load" {
					f.Symbols[i].Signature = "def load(path, strict=False)"
				}
			}
		}},
		{name: "a heading of a symbol gone", edit: func(s string) string {
			return strings.Replace(s, "### `def load(path)`", "### `def unload(path)`", 1)
		}, want: map[string]*[2]string{"load": nil}},
		{name: "headings that name two symbols", edit: func(s string) string {
			s = strings.Replace(s, "##### `def get(self, name)`\n\n*`Store.get`, lines 21–25*", "##### `def get(self, add)`", 1)
			return strings.Replace(s, "##### `def add(self, name, price)`\n\n*`Store.add`, lines 16–19*", "##### `def add(self, get)`", 1)
		}, want: map[string]*[2]string{"Store.get": nil, "Store.add": nil}},
		{name: "notes, code and comments", edit: func(s string) string {
			s = strings.Replace(s, "*Lines 33–40*\n", "*Lines 33–40*\n\n```md\n##### `def get(self, name)`\n\n**Purpose**: Not get's.\n```\n\n<!--\n**Purpose**: Hidden.\n-->\n", 1)
			s = strings.Replace(s, "\n#### Methods\n", "\n#### Methods\n\n**Purpose**: Not Store's.\n", 1)
			return s + "\n## Notes\n\n**Purpose**: Not a purpose.\n\n### `def load(path)`\n\n**Purpose**: Not load's either.\n"
		}},
		{name: "steps as a loose bulleted list", edit: func(s string) string {
			return strings.Replace(s, "1. Discount each price by pct with pricing.discount.\n2. Sum the results.\n",
				"- Discount each price by pct with pricing.discount.\n\n- Sum the results,\n  all of them.\n", 1)
		}, want: map[string]*[2]string{"Store.total": {storeProse["Store.total"][0], "1. Discount each price by pct with pricing.discount.\n2. Sum the results, all of them.\n3. Apply with_tax to the sum and return it."}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md, file := base, f
			if tc.edit != nil {
				md = tc.edit(md)
			}
			if tc.file != nil {
				c := *f
				c.Symbols = append([]extract.Symbol(nil), f.Symbols...)
				tc.file(&c)
				file = &c
			}
			want := maps.Clone(storeProse)
			for n, w := range tc.want {
				if w == nil {
					delete(want, n)
				} else {
					want[n] = *w
				}
			}
			rec := Recover([]byte(md), file)
			if rec == nil {
				t.Fatal("nothing recovered")
			}
			expectProse(t, rec, want)
			if !strings.HasPrefix(rec.Overview, "Keeps an in-memory store") || rec.Inputs == "" || rec.Outputs == "" {
				t.Errorf("overview %q, inputs %q, outputs %q", rec.Overview, rec.Inputs, rec.Outputs)
			}
		})
	}
}

// TestRecoverLinear reads large artifacts that would be slow to read if
// lines were joined one at a time, or headings matched against every
// symbol.
func TestRecoverLinear(t *testing.T) {
	f := storeFile(t)
	for name, md := range recoverCases {
		expectLinear(t, name, func(n int) { Recover([]byte(md(n)), f) })
	}
}

// recoverCases are TestRecoverLinear's artifacts of n units.
var recoverCases = map[string]func(n int) string{
	"wrapped purpose": func(n int) string {
		return "## Functions\n### `def load(path)`\n**Purpose**: a\n" + strings.Repeat("b b b b\n", n)
	},
	"wrapped step": func(n int) string {
		return "## Functions\n### `def load(path)`\n**Implementation Summary**:\n1. a\n" + strings.Repeat("b b b b\n", n)
	},
	"headings": func(n int) string {
		return "## Classes\n" + strings.Repeat("### `class Store`\n**Purpose**: p\n##### `def get(self, add)`\n**Purpose**: q\n", n/4)
	},
	"words": func(n int) string { return "## Functions\n### `" + strings.Repeat("load ", n) + "`\n**Purpose**: p\n" },
}

// BenchmarkRecover times TestRecoverLinear's artifacts at both of its
// sizes: linear reading shows the same MB/s at both.
func BenchmarkRecover(b *testing.B) {
	f := storeFile(b)
	for _, name := range slices.Sorted(maps.Keys(recoverCases)) {
		for _, n := range []int{1 << 12, 1 << 16} {
			b.Run(fmt.Sprintf("%s/%d", strings.ReplaceAll(name, " ", "_"), n), func(b *testing.B) {
				md := []byte(recoverCases[name](n))
				b.SetBytes(int64(len(md)))
				b.ReportAllocs()
				for b.Loop() {
					Recover(md, f)
				}
			})
		}
	}
}

// expectLinear fails if f(n) allocates more than three times as many bytes
// per unit of n at 16 times the size: reading that joins lines one at a
// time, or compares each heading with the others by their words, allocates
// sixteen times as many; a linear reading as many, or a third more as
// append grows its slices by smaller steps. Bytes are counted, not
// timed, so the load of the machine changes nothing; each size runs three
// times and the least counts, in case another goroutine allocates
// meanwhile.
func expectLinear(t *testing.T, name string, f func(n int)) {
	t.Helper()
	perUnit := func(n int) float64 {
		least := uint64(math.MaxUint64)
		for range 3 {
			least = min(least, bytesAllocated(func() { f(n) }))
		}
		return float64(least) / float64(n)
	}
	small, big := perUnit(1<<12), perUnit(1<<16)
	t.Logf("%s: %.1f bytes allocated per unit at 4,096 units, %.1f at 65,536", name, small, big)
	if small <= 0 {
		t.Fatalf("%s: nothing allocated", name)
	}
	if big > 3*small {
		t.Errorf("%s: %.1f bytes allocated per unit at 65,536 units, %.1f at 4,096: not linear", name, big, small)
	}
}

// bytesAllocated returns the bytes the process allocated while f ran, on
// one processor as testing.AllocsPerRun counts.
func bytesAllocated(f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
