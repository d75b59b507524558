package server

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// scripted is a model that documents every symbol a prompt lists, naming
// each by its kind, and records the prompts it saw.
type scripted struct {
	mu      sync.Mutex
	prompts []string
	fail    map[string]bool // files to refuse
}

var (
	fileLine  = regexp.MustCompile(`structure for file: "([^"]+)"`)
	entryLine = regexp.MustCompile("(?m)^- (\\w+) `([^`]+)`")
)

func (m *scripted) Complete(_ context.Context, system, user string) (string, error) {
	m.mu.Lock()
	m.prompts = append(m.prompts, user)
	m.mu.Unlock()
	path := fileLine.FindStringSubmatch(user)[1]
	if m.fail[path] {
		return "", errors.New("model overloaded")
	}
	r := map[string]any{"path": path, "overview": "Overview of " + path + ".", "functions": []any{}, "classes": []any{}}
	for _, e := range entryLine.FindAllStringSubmatch(user, -1) {
		kind, name := e[1], e[2]
		switch kind {
		case "function", "method":
			r["functions"] = append(r["functions"].([]any), map[string]any{"name": name, "purpose": "Does " + name + ".", "implementation": "1. Step."})
		case "struct", "class", "interface", "type":
			r["classes"] = append(r["classes"].([]any), map[string]any{"name": name, "purpose": "Holds " + name + "."})
		}
	}
	data, _ := json.Marshal(r)
	return "```json\n" + string(data) + "\n```", nil
}

func TestEnrichHeadless(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, shop)
	model := &scripted{}
	var progress []string
	res, err := Enrich(context.Background(), EnrichOptions{Root: root, Model: model, Version: "v1",
		Progress: func(done, total int, path string) { progress = append(progress, path) }})
	if err != nil || res.Documented != 2 || res.UpToDate != 0 || len(res.Failed) != 0 {
		t.Fatalf("Enrich = %+v, %v", res, err)
	}
	// Callee first: lib/store.go, then main.go, whose prompt shows what
	// its callees do.
	if len(model.prompts) != 2 || !strings.Contains(model.prompts[0], `file: "lib/store.go"`) {
		t.Fatalf("prompts in order: %d, first %q", len(model.prompts), model.prompts[0][:80])
	}
	if !strings.Contains(model.prompts[1], "`NewStore` (lib/store.go:7): Does NewStore.") {
		t.Errorf("main.go's prompt lacks its callee's purpose:\n%s", model.prompts[1])
	}
	if strings.Join(progress, ",") != "lib/store.go,main.go," {
		t.Errorf("progress %q", progress)
	}
	md, err := readFile(root, ".artifacts/main.go.md")
	if err != nil || !strings.Contains(md, "status: enriched") || !strings.Contains(md, "Does main.") {
		t.Errorf("main.go's artifact: %v\n%s", err, md)
	}
	// Resumable: a second run finds everything up to date.
	res, err = Enrich(context.Background(), EnrichOptions{Root: root, Model: model})
	if err != nil || res.Documented != 0 || res.UpToDate != 2 || len(model.prompts) != 2 {
		t.Errorf("second run = %+v, %v, %d prompts", res, err, len(model.prompts))
	}
	// A failure is reported and the run goes on; with StaleFirst the stale
	// file comes first.
	writeTree(t, root, map[string]string{"main.go": shop["main.go"] + "\nfunc extra() {}\n"})
	writeTree(t, root, map[string]string{"lib/other.go": "package lib\n\nfunc Other() {}\n"})
	model.fail = map[string]bool{"lib/other.go": true}
	progress = nil
	res, err = Enrich(context.Background(), EnrichOptions{Root: root, Model: model, StaleFirst: true,
		Progress: func(done, total int, path string) { progress = append(progress, path) }})
	if err != nil || res.Documented != 1 || res.UpToDate != 1 || len(res.Failed) != 1 || !strings.Contains(res.Failed[0], "model overloaded") {
		t.Errorf("third run = %+v, %v", res, err)
	}
	if len(progress) == 0 || progress[0] != "main.go" {
		t.Errorf("stale first: progress %q", progress)
	}
	if _, err := Enrich(context.Background(), EnrichOptions{Root: root, Model: model, Paths: []string{"../x.go"}}); err == nil {
		t.Error("a path outside the root was accepted")
	}
}

func readFile(root, rel string) (string, error) {
	data, err := osReadFile(root, rel)
	return string(data), err
}
