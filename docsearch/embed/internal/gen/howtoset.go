package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// debHeldOutDocs are documentation packages no tuning list reads, whose
// how-to sections make a known-item set of questions as people ask them
// (writeHowtoSet): Flask, Werkzeug, Jinja and requests, the libraries of
// the Python known-item set the tables are chosen on.
var debHeldOutDocs = []corpus{
	debDocs("python-flask-doc", "2.2.2-3", "sha256-Bln2oEsV/j+QcVDK3AOZ/ph8eQ5yLgAbc/fkn6XsyhU=", "BSD-3-Clause"),
	debDocs("python-werkzeug-doc", "2.2.2-3+deb12u1", "sha256-Wu/9/fJXkR463iU9K2zD+YoG3zvsEzLv28P71XhTAjA=", "BSD-3-Clause"),
	debDocs("python-jinja2-doc", "3.1.2-1+deb12u3", "sha256-l7FulIgczt1lwrOxAEl3hQiaSYHLz/ywM0fiez0keTE=", "BSD-3-Clause"),
	debDocs("python-requests-doc", "2.28.1+dfsg-1", "sha256-SZ9sCV0Jlx7Dqnt/9Rl+r5mUds4+5h7fzKxk/j+eUg8=", "Apache-2.0"),
}

// writeHowtoSet writes to dir/task and dir/all two known-item sets in
// BEIR format: the documents are the Python code of every section of the
// reST sources of debHeldOutDocs (h0, h1, ... untitled, the heading being
// the query) followed by the documents of the BEIR set distract, if any
// (their ids prefixed with p), as distractors; the queries are the
// headings of those sections, each with its section as the one relevant
// document: in task, the headings taskHeading finds task-like by the
// verbs of the tuning pairs (pairs); in all, every heading of two words
// or more.
func writeHowtoSet(dir, debDir, distract string, pairs []pair) error {
	var secs []pair
	for _, c := range debHeldOutDocs {
		files, err := fetchDeb(c.pkg, c.integrity, debDir)
		if err != nil {
			return err
		}
		for _, p := range docSections(c, files) {
			if p.rest != introMark {
				secs = append(secs, p)
			}
		}
	}
	var extra []map[string]string
	if distract != "" {
		f, err := os.Open(filepath.Join(distract, "corpus.jsonl"))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var d map[string]string
			if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", f.Name(), err)
			}
			d["_id"] = "p" + d["_id"]
			extra = append(extra, d)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	verbs := docVerbs(pairs, minVerbPairs)
	for _, set := range []struct {
		name string
		ask  func(string) bool
	}{
		{"task", func(h string) bool { return taskHeading(h, verbs) }},
		{"all", func(h string) bool { return len(strings.Fields(h)) >= 2 }},
	} {
		d := filepath.Join(dir, set.name)
		if err := os.MkdirAll(filepath.Join(d, "qrels"), 0o755); err != nil {
			return err
		}
		err := writeLines(filepath.Join(d, "corpus.jsonl"), len(secs)+len(extra), func(i int) any {
			if i < len(secs) {
				return map[string]string{"_id": fmt.Sprintf("h%d", i), "title": "", "text": secs[i].code}
			}
			return extra[i-len(secs)]
		})
		if err != nil {
			return err
		}
		var asked []int
		for i, s := range secs {
			if set.ask(s.query) {
				asked = append(asked, i)
			}
		}
		err = writeLines(filepath.Join(d, "queries.jsonl"), len(asked), func(i int) any {
			return map[string]string{"_id": fmt.Sprintf("q%d", i), "text": secs[asked[i]].query}
		})
		if err != nil {
			return err
		}
		var qrels strings.Builder
		qrels.WriteString("query-id\tcorpus-id\tscore\n")
		for i, k := range asked {
			fmt.Fprintf(&qrels, "q%d\th%d\t1\n", i, k)
		}
		if err := os.WriteFile(filepath.Join(d, "qrels", "test.tsv"), []byte(qrels.String()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "howto set %s: %d documents, %d queries in %s\n", set.name, len(secs)+len(extra), len(asked), d)
	}
	return nil
}
