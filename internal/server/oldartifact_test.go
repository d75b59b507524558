package server

import (
	"strings"
	"testing"
)

// cutRecord turns the artifact at p into one as fileinfo wrote them
// before artifacts recorded their prose: the same markdown, no record.
func (s *session) cutRecord(p string) {
	s.t.Helper()
	md := s.read(p)
	i := strings.LastIndex(md, "\n<!-- fileinfo:report ")
	if i < 0 {
		s.t.Fatalf("%s has no record:\n%s", p, md)
	}
	writeTree(s.t, s.root, map[string]string{p: md[:i]})
}

// TestReportOverArtifactWithoutRecord is issue 18 for a user upgrading:
// the artifact written before records keeps the prose of the symbols a
// partial report leaves out.
func TestReportOverArtifactWithoutRecord(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	s.cutRecord(".artifacts/lib/store.go.md")

	one := storeReportOf("Store.Put")
	one["classes"].([]map[string]any)[0]["methods"].([]map[string]any)[0]["purpose"] = "Stores v under key."
	delete(one, "overview")
	res := s.ok("report_file_info", one, &rep)
	if len(rep.Undocumented) != 0 || rep.ArtifactStatus != "enriched" || strings.Contains(text(res), "Note") {
		t.Errorf("report = %+v\n%s", rep, text(res))
	}
	md := s.expectDocumented(0, "Returns an empty Store.", "Stores v under key.", "Returns a key's value.", "Holds integers by key.")
	if !strings.Contains(md, "Defines Store, an in-memory map") || !strings.Contains(md, "**Inputs**: Keys and integer values.") ||
		!strings.Contains(md, "1. Allocate a Store with an empty map.\n2. Return it.") || !strings.Contains(md, "\n<!-- fileinfo:report v1\n") {
		t.Errorf("artifact:\n%s", md)
	}
}

// TestReportOverDamagedRecord: a record that cannot be read (a hand edit
// broke its JSON) leaves the prose the artifact shows, and the answer
// says so.
func TestReportOverDamagedRecord(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	p := ".artifacts/lib/store.go.md"
	writeTree(t, s.root, map[string]string{p: strings.Replace(s.read(p), `"overview":`, `"overview"`, 1)})

	res := s.ok("report_file_info", storeReportOf("Store.Put"), &rep)
	if len(rep.Undocumented) != 0 || !strings.Contains(text(res), "could not be read") || !strings.Contains(text(res), "shows is kept") {
		t.Errorf("report = %+v\n%s", rep, text(res))
	}
	s.expectDocumented(0, "Returns an empty Store.", "Sets a key's value.", "Returns a key's value.", "Holds integers by key.")
}

// TestFileInfoOverDamagedPartialRecord: file_info on a partial artifact
// whose record a hand edit broke still lists what is missing, from the
// prose the markdown shows, instead of asking for every symbol again.
func TestFileInfoOverDamagedPartialRecord(t *testing.T) {
	s := connect(t, shop, Options{})
	var rep reportOut
	s.ok("report_file_info", storeReportOf("NewStore", "Store.Put"), &rep)
	p := ".artifacts/lib/store.go.md"
	writeTree(t, s.root, map[string]string{p: strings.Replace(s.read(p), `"overview":`, `"overview"`, 1)})

	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Artifact != "partial" || len(fi.Missing) != 1 || fi.Missing[0] != "Store.Get" || strings.Contains(text(res), "Document every symbol") {
		t.Errorf("file_info = %+v\n%s", fi, text(res)[max(0, len(text(res))-400):])
	}
}
