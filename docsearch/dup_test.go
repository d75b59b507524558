package docsearch

import (
	"fmt"
	"testing"
)

func TestTemplateHash(t *testing.T) {
	w, err := newWorker(512)
	if err != nil {
		t.Fatal(err)
	}
	block := "By default the %s scale comes from your theme. To customize the theme values and colors, edit the theme section of your configuration file."
	hash := func(name, text string) uint64 {
		d := &doc{path: "utilities/" + name + ".md", title: name, prose: &prose{headings: []Heading{{Level: 1, Text: name}}}}
		return templateHash(w.analyze("", "", text), pageOf(w.an, d).terms)
	}
	blur, opacity := hash("blur", fmt.Sprintf(block, "blur")), hash("opacity", fmt.Sprintf(block, "opacity"))
	if blur == 0 || blur != opacity {
		t.Errorf("copies differing by their page's name hash %x and %x; want one non-zero template", blur, opacity)
	}
	if other := hash("blur", fmt.Sprintf(block, "blur")+" Values also come from plugins."); other == blur {
		t.Error("a section with another sentence has the template of the copies")
	}
	if short := hash("blur", "See also the theme."); short != 0 {
		t.Errorf("a short section has template %x; want none", short)
	}
}

func TestCopiesSurviveSave(t *testing.T) {
	dir := t.TempDir()
	var docs []Document
	for _, u := range []string{"blur", "opacity", "shadow"} {
		docs = append(docs, Document{Path: u + ".md", Scope: ScopeDocs, Text: fmt.Sprintf("# %s\n\n## Customizing\n\nBy default the %s scale comes from your theme. To customize the theme values and colors, edit the theme section of your configuration file.\n", u, u)})
	}
	docs = append(docs, Document{Path: "config.md", Scope: ScopeDocs, Text: "# Configuration\n\nCustomize the theme values and colors of every utility class in the configuration file.\n"})
	ix := openTest(t, mapFS(nil), Options{Dir: dir})
	if err := ix.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	copies := func(ix *Index) map[string]uint32 {
		ix.mu.RLock()
		defer ix.mu.RUnlock()
		m := map[string]uint32{}
		for i := range uint32(ix.nchunks()) {
			c := ix.chunk(i)
			if d := ix.doc(c.doc); d != nil {
				m[d.path+" "+c.title] = c.copies
			}
		}
		return m
	}
	before := copies(ix)
	if before["blur.md blur > Customizing"] != 3 || before["config.md Configuration"] != 1 {
		t.Errorf("copies = %v; want 3 for the repeated section, 1 for the others", before)
	}
	again := openTest(t, mapFS(nil), Options{Dir: dir})
	if after := copies(again); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("after a reload copies = %v; want %v", after, before)
	}
	res, err := again.Search(ctx, Query{Text: "customize theme values colors", Mode: Lexical, MinScore: zero()})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range res.Results {
		if r.Heading == r.Title+" > Customizing" {
			n++
		}
	}
	if n != 1 || len(res.Results) == 0 || res.Results[0].Path != "config.md" {
		t.Errorf("results %+v: want config.md first and one representative of the copies", res.Results)
	}
}
