package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolList(t *testing.T) {
	s := connect(t, shop, Options{})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"file_info": false, "report_file_info": false, "inspect_source": true, "set_workspace_root": false, "index_status": true,
		"search_docs": true, "fetch_doc": true, "list_docs": true, "doc_outline": true,
		"ask_docs": true, "get_working_example": true, "explain_error": true,
		"find_symbol": true, "callers": true, "callees": true}
	want["open_view"] = true
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		readOnly, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != readOnly || tool.Description == "" {
			t.Errorf("%s: annotations %+v, want read-only %v and a description", tool.Name, tool.Annotations, readOnly)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"additionalProperties":false`) {
			t.Errorf("%s: input schema allows unknown properties: %s", tool.Name, schema)
		}
		if tool.OutputSchema != nil {
			t.Errorf("%s: an output schema, which tools/list has no room for", tool.Name)
		}
	}
	init := s.cs.InitializeResult()
	if init.ServerInfo.Name != "fileinfo" || !strings.Contains(init.Instructions, "report_file_info") {
		t.Errorf("server info %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
}

func TestInspectSource(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&long, "line %d\r\n", i)
	}
	s := connect(t, map[string]string{
		"a.txt":    "one\ntwo\nthree",
		"long.txt": long.String(),
		"empty.go": "",
	}, Options{})
	var out inspectOut
	s.ok("inspect_source", map[string]any{"path": "a.txt", "start_line": 2, "end_line": 9}, &out)
	if out.Text != "2\ttwo\n3\tthree\n" || out.StartLine != 2 || out.EndLine != 3 || out.TotalLines != 3 {
		t.Errorf("a.txt 2-9: %+v", out)
	}
	res := s.ok("inspect_source", map[string]any{"path": "long.txt", "start_line": 100, "end_line": 999}, &out)
	if out.StartLine != 100 || out.EndLine != 499 || strings.Count(out.Text, "\n") != 400 || strings.Contains(out.Text, "\r") {
		t.Errorf("long.txt 100-999: lines %d-%d, %d lines", out.StartLine, out.EndLine, strings.Count(out.Text, "\n"))
	}
	if !strings.HasSuffix(out.Text, "499\tline 499\n") || !strings.Contains(text(res), "continue with start_line 500") {
		t.Errorf("long.txt: text ends %q; result says %q", out.Text[len(out.Text)-20:], text(res)[len(text(res))-80:])
	}
	s.fails("inspect_source", map[string]any{"path": "a.txt", "start_line": 4, "end_line": 5}, "past the end", "3 lines")
	s.fails("inspect_source", map[string]any{"path": "empty.go", "start_line": 1, "end_line": 1}, "past the end", "0 lines")
	s.fails("inspect_source", map[string]any{"path": "a.txt", "start_line": 0, "end_line": 5}, "start_line")
	s.fails("inspect_source", map[string]any{"path": "a.txt", "start_line": 3, "end_line": 2}, "before start_line")
	s.fails("inspect_source", map[string]any{"path": "a.txt", "start_line": "1", "end_line": 2}, "start_line")
	s.fails("inspect_source", map[string]any{"path": "a.txt"}, "start_line")
}

func TestSetWorkspaceRoot(t *testing.T) {
	s := connect(t, shop, Options{})
	other := filepath.Join(s.root, "sub", "other")
	writeTree(t, other, map[string]string{
		"x.py": "def f():\n    g()\n\ndef g():\n    pass\n",
		"y.py": "from x import f\n\ndef h():\n    f()\n",
	})
	var out setRootOut
	s.ok("set_workspace_root", map[string]any{"path": "sub/other"}, &out)
	if out.Root != other || out.Files != 2 || out.Symbols < 3 || out.Edges != 2 {
		t.Errorf("set_workspace_root(sub/other) = %+v", out)
	}
	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "x.py"}, &fi)
	if fi.Language != "python" || !strings.Contains(text(res), "called by: `h` (y.py:4)") {
		t.Errorf("file_info(x.py) in the new root: %+v", fi)
	}
	if !s.exists("sub/other/.artifacts/x.py.md") || s.exists(".artifacts/x.py.md") {
		t.Error("the artifact was not written under the new root")
	}
	// The old root's files are no longer reachable by relative path.
	s.fails("file_info", map[string]any{"path": "main.go"}, "no such file")

	s.fails("set_workspace_root", map[string]any{"path": filepath.Join(other, "x.py")}, "not a directory")
	s.fails("set_workspace_root", map[string]any{"path": filepath.Join(s.root, "does/not/exist")}, "no such file")
	// Outside the allowed roots, whether it exists is not told.
	s.fails("set_workspace_root", map[string]any{"path": "/does/not/exist"}, "not inside an allowed root")
	s.fails("set_workspace_root", map[string]any{"path": ""}, "empty")
	s.fails("set_workspace_root", map[string]any{"path": "~/src"}, "absolute")
	// A refused switch keeps the workspace.
	s.ok("file_info", map[string]any{"path": "y.py"}, &fi)

	// An absolute path switches back.
	s.ok("set_workspace_root", map[string]any{"path": s.root}, &out)
	if out.Files != 4 { // main.go, lib/store.go and the two Python files below
		t.Errorf("back at the first root: %+v", out)
	}
}

func TestResources(t *testing.T) {
	s := connect(t, shop, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	writeTree(t, s.root, map[string]string{"main.go": shop["main.go"] + "\nfunc other() {}\n"})
	s.ok("file_info", map[string]any{"path": "main.go", "refresh": true}, &fi) // noticed: main.go changed

	ctx := context.Background()
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "fileinfo://artifacts"})
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Artifacts []artifactEntry }
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range list.Artifacts {
		got[a.Path] = a.Status
	}
	// main.go's basic artifact was rewritten for its new content; store.go
	// is enriched and its callers are unchanged.
	if len(got) != 2 || got["lib/store.go"] != "enriched" || got["main.go"] != "basic" {
		t.Errorf("artifact list = %v", got)
	}
	res, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "fileinfo://artifacts/lib/store.go"})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Contents[0]; c.MIMEType != "text/markdown" || !strings.HasPrefix(c.Text, "# lib/store.go") || !strings.Contains(c.Text, "Sets a key's value") {
		t.Errorf("artifact resource: %+v", c)
	}
	for _, uri := range []string{"fileinfo://artifacts/nope.go", "fileinfo://artifacts/../../etc/passwd", "fileinfo://artifacts//etc/passwd"} {
		if _, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("ReadResource(%s) succeeded", uri)
		}
	}
	templates, err := s.cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "fileinfo://artifacts/{+path}" {
		t.Errorf("templates: %+v, %v", templates, err)
	}
}
