package layout

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/fileinfo/fileinfo"

// forbidden lists, per library package, the packages it must not depend on
// (directly or not): extract ← callgraph ← enrich; docsearch and artifacts
// stand alone; only internal/server and cmd see the MCP SDK; nothing
// imports cmd.
var forbidden = map[string][]string{
	"extract":             {"callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"callgraph":           {"enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"enrich":              {"docsearch", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"docsearch":           {"extract", "callgraph", "enrich", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk", "!github.com/smacker/go-tree-sitter"},
	"docsearch/embed":     {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/"},
	"artifacts":           {"extract", "callgraph", "enrich", "docsearch", "internal/", "cmd/", "!github.com/"},
	"internal/graphstore": {"enrich", "docsearch", "artifacts", "internal/server", "internal/lookup", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"internal/lookup":     {"enrich", "docsearch", "artifacts", "internal/server", "internal/graphstore", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"internal/deps":       {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk", "!github.com/smacker/go-tree-sitter"},
	"internal/depindex":   {"callgraph", "enrich", "artifacts", "internal/server", "internal/lookup", "internal/graphstore", "cmd/", "!github.com/modelcontextprotocol/go-sdk"},
	"internal/view":       {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/modelcontextprotocol/go-sdk", "!github.com/smacker/go-tree-sitter"},
	"internal/fixture":    {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/"},
	"internal/bounded":    {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/", "!golang.org/"},
	"internal/par":        {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/", "cmd/", "!github.com/", "!golang.org/"},
	"internal/secret":     {"extract", "callgraph", "enrich", "docsearch", "artifacts", "internal/server", "internal/llm", "internal/watch", "cmd/", "!github.com/", "!golang.org/"},
}

// allowed lists, per library package, the packages its rules above would
// forbid that it may depend on all the same. internal/deps reads
// lockfiles through internal/bounded, whose own rule keeps it to the
// standard library: it brings in nothing of the module.
var allowed = map[string][]string{
	"internal/deps": {"internal/bounded"},
}

func TestImportsRunOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Deps", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, module+"/cmd/") {
				t.Errorf("%s imports %s: nothing imports cmd", p.ImportPath, d)
			}
		}
		rules, ok := forbidden[strings.TrimPrefix(p.ImportPath, module+"/")]
		if !ok {
			continue
		}
		seen++
		exempt := map[string]bool{}
		for _, a := range allowed[strings.TrimPrefix(p.ImportPath, module+"/")] {
			exempt[module+"/"+a] = true
		}
		for _, d := range p.Deps {
			if exempt[d] {
				continue
			}
			for _, rule := range rules {
				target := module + "/" + rule
				if external, ok := strings.CutPrefix(rule, "!"); ok {
					target = external
				}
				if d == target || strings.HasPrefix(d, strings.TrimSuffix(target, "/")+"/") {
					t.Errorf("%s depends on %s; see the import table in STYLE.md", p.ImportPath, d)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no library package found")
	}
}
