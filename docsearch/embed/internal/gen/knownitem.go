package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Known-item sets measure retrieval where no judged set exists: each
// query is what a document says of itself, and the document, with that
// sentence taken out, is the one relevant answer. From source code, the
// query is a function's first doc sentence and the document its code
// without the doc comment, titled with its name; from markdown, the query
// is the first sentence of a section and the document the rest of the
// section, titled with its heading. They are written in BEIR's format for
// `fileinfo bench search`:
//
//	go run ./internal/gen -knownitem /tmp/go-known "$(go env GOROOT)/src"
//
// Like the tuning pairs, a set is a function of its input and flags: files
// are read in path order and shuffled by a fixed seed. The documents are
// written in an order of their own, so the relevant ones are not the first
// the index numbers (an index breaks ties by number).

// knownItemOptions size a known-item set.
type knownItemOptions struct {
	docs    int // documents at most
	queries int // queries at most, each with one relevant document
}

// writeKnownItem writes the known-item set of the files under roots to
// dir: corpus.jsonl, queries.jsonl and qrels/test.tsv.
func writeKnownItem(dir string, roots []string, o knownItemOptions) error {
	var items []pair
	for _, root := range roots {
		ps, err := knownItems(root)
		if err != nil {
			return err
		}
		items = append(items, ps...)
	}
	seen := map[string]bool{}
	items = slices.DeleteFunc(items, func(p pair) bool {
		dup := seen[p.query]
		seen[p.query] = true
		return dup
	})
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	items = items[:min(len(items), o.docs)]
	if len(items) == 0 {
		return fmt.Errorf("no documented functions or sections under %s", strings.Join(roots, ", "))
	}
	if err := os.MkdirAll(filepath.Join(dir, "qrels"), 0o755); err != nil {
		return err
	}
	order := rng.Perm(len(items))
	err := writeLines(filepath.Join(dir, "corpus.jsonl"), len(items), func(i int) any {
		k := order[i]
		return map[string]string{"_id": fmt.Sprintf("c%d", k), "title": items[k].name, "text": items[k].code}
	})
	if err != nil {
		return err
	}
	nq := min(o.queries, len(items))
	err = writeLines(filepath.Join(dir, "queries.jsonl"), nq, func(i int) any {
		return map[string]string{"_id": fmt.Sprintf("q%d", i), "text": items[i].query}
	})
	if err != nil {
		return err
	}
	var qrels strings.Builder
	qrels.WriteString("query-id\tcorpus-id\tscore\n")
	for i := range nq {
		fmt.Fprintf(&qrels, "q%d\tc%d\t1\n", i, i)
	}
	fmt.Fprintf(os.Stderr, "knownitem: %d documents, %d queries in %s\n", len(items), nq, dir)
	return os.WriteFile(filepath.Join(dir, "qrels", "test.tsv"), []byte(qrels.String()), 0o644)
}

// writeLines writes n JSON lines, the i-th of them line(i), to path.
func writeLines(path string, n int, line func(i int) any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range n {
		if err := enc.Encode(line(i)); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// knownItems returns the items of the source and markdown files under
// root, in path order, leaving out tests, test data and dependencies.
func knownItems(root string) ([]pair, error) {
	ex, err := extract.New(os.TempDir(), extract.Options{})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	var out []pair
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules" || isTestPath(name)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || isTestPath(name) || strings.HasSuffix(name, "_test.go") || strings.Contains(name, ".test.") || strings.Contains(name, ".spec.") {
			return nil
		}
		ext := filepath.Ext(name)
		if !slices.Contains([]string{".go", ".py", ".js", ".ts", ".md"}, ext) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 1<<20 {
			return err
		}
		if ext == ".md" {
			out = append(out, sectionItems(string(src))...)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		f, err := ex.Source(context.Background(), filepath.ToSlash(rel), src)
		if err != nil {
			return nil // not UTF-8, too big: not a document
		}
		for _, it := range filePairs(f, src) {
			if f.Language == "go" {
				// Go doc comments start with the name, which a searcher
				// does not know.
				it.query = strings.TrimPrefix(it.query, it.name+" ")
			}
			if len(strings.Fields(it.query)) >= 4 && len(it.code) <= 4000 {
				out = append(out, it)
			}
		}
		return nil
	})
	return out, err
}

// sectionItems returns the items of a markdown page: for each section
// whose text opens with a paragraph of prose, its first sentence, and
// the rest of the section titled with its heading.
func sectionItems(page string) []pair {
	var out []pair
	heading, fenced := "", false
	var body []string
	flush := func() {
		text := strings.TrimSpace(strings.Join(body, "\n"))
		para, rest, _ := strings.Cut(text, "\n\n")
		if heading == "" || para == "" || strings.ContainsAny(para[:1], "`|-*<![> #") {
			return // not prose: code, a table, a list, markup
		}
		q := summary(para)
		rest = strings.TrimSpace(strings.TrimPrefix(strings.Join(strings.Fields(para), " "), q)) + "\n\n" + rest
		rest = strings.TrimSpace(rest)
		if n := len(strings.Fields(q)); n < 6 || len(q) > 220 || len(rest) < 200 || len(rest) > 6000 {
			return
		}
		out = append(out, pair{query: q, code: rest, name: heading})
	}
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "#") {
			flush()
			heading, body = strings.TrimSpace(strings.TrimLeft(line, "#")), body[:0]
			continue
		}
		body = append(body, line)
	}
	flush()
	return out
}
