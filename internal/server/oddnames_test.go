package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOddFileNames documents files whose names are legal but easy to
// mangle, end to end: file_info, report_file_info, the artifact on disk,
// the listing and the resource read through the URI the listing gives.
func TestOddFileNames(t *testing.T) {
	names := []string{
		" lead.go", "trail .go", `back\slash.go`, "-dash.go", "ünï/😀.go", "a#b.go", "a%41.go",
		"100%.go", "a b/c d.go", "q?x.go", "amp&x.go", "plus+x.go", "brace{x}.go", "semi;x.go", "at@x.go",
	}
	files := map[string]string{"go.mod": "module example.com/odd\n\ngo 1.22\n"}
	for i, n := range names {
		files[n] = "package odd\n\n// " + fnOf(i) + " does a thing.\nfunc " + fnOf(i) + "() {}\n"
	}
	s := connect(t, files, Options{NoDocs: true})
	uris := map[string]string{}
	for i, n := range names {
		fn := fnOf(i)
		var fi fileInfoOut
		s.ok("file_info", map[string]any{"path": n}, &fi)
		if fi.Path != n || fi.Status != statusPromptReady || fi.Artifact != "basic" {
			t.Errorf("%q: file_info = %+v", n, fi)
			continue
		}
		var rep reportOut
		s.ok("report_file_info", map[string]any{
			"path": n, "overview": "Odd.",
			"functions": []map[string]any{{"name": fn, "purpose": "Does " + fn + ".", "implementation": "1. Nothing."}},
		}, &rep)
		if rep.ArtifactStatus != "enriched" || rep.Artifact != ".artifacts/"+n+".md" {
			t.Errorf("%q: report = %+v", n, rep)
		}
		if md := s.read(".artifacts/" + n + ".md"); !strings.Contains(md, "**Purpose**: Does "+fnOf(i)+".") {
			t.Errorf("%q: artifact:\n%s", n, md)
		}
		s.ok("file_info", map[string]any{"path": n}, &fi)
		if fi.Status != statusUpToDate {
			t.Errorf("%q: file_info after the report = %+v", n, fi)
		}
	}

	res, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "fileinfo://artifacts"})
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Artifacts []artifactEntry }
	json.Unmarshal([]byte(res.Contents[0].Text), &list)
	for _, a := range list.Artifacts {
		uris[a.Path] = a.URI
		if a.Status != "enriched" {
			t.Errorf("listing: %+v", a)
		}
	}
	for i, n := range names {
		uri, ok := uris[n]
		if !ok {
			t.Errorf("%q is not listed", n)
			continue
		}
		res, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("%q: read %s: %v", n, uri, err)
			continue
		}
		if md := res.Contents[0].Text; !strings.Contains(md, "**Purpose**: Does "+fnOf(i)+".") || res.Contents[0].URI != uri {
			t.Errorf("%q: %s gave %s:\n%s", n, uri, res.Contents[0].URI, md)
		}
	}
}

// fnOf names the function of the i-th odd file.
func fnOf(i int) string { return "F" + string(rune('a'+i)) }
