package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/codeindex"
)

// quickSearch answers q from the saved index without walking the tree,
// when a quick check shows the index still describes it: every
// directory and ignore file the last full check stamped is as it was
// (codeindex.CheckDirs: a file added, removed or renamed changes its
// directory; one changed just before that check is listed again and
// compared with its listing then), and no file the search returns
// changed since that check began (codeindex.Freshness.Changed: an edit
// in place). Its cost is an lstat per directory and per result, not per
// file: on the Linux kernel 5,403 (directories and ignore files) against
// the full check's walk and its 62,396 source files. A file edited in
// place that the search does not return is not seen; the note written
// to stderr says so, and how to check everything (--full, or `fileinfo
// index`).
//
// It returns ok false, having written nothing, when full asks for the
// full check, or the quick check cannot vouch for the index (no stamps
// yet, a change, an index that Open would rebuild, an extra --docs
// scope, which may lie outside the root): the caller then searches with a full check, which stamps the
// tree again for the next search.
func quickSearch(ctx context.Context, df *docsFlags, q docsearch.Query, full bool, stderr io.Writer) (docsearch.Results, bool) {
	var none docsearch.Results
	if full || len(df.extra) > 0 {
		return none, false
	}
	root, err := filepath.Abs(*df.root)
	if err != nil {
		return none, false
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	fresh, err := codeindex.CheckDirs(root, dir)
	if err != nil {
		return none, false
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return none, false
	}
	ix, err := docsearch.OpenSaved(ctx, docsearch.RootFS(r), docsearch.Options{
		Embedder: defaultEmbedder(),
		Dir:      dir,
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return none, false
	}
	res, err := ix.Search(ctx, q)
	if err != nil {
		return none, false // the full check's search says why
	}
	if changed := resultsChanged(res, fresh); changed != "" {
		return none, false
	}
	fmt.Fprintln(stderr, freshnessNote(fresh, time.Now()))
	return res, true
}

// resultsChanged returns the path of the first result whose file
// changed since the last full check, "" when none did.
func resultsChanged(res docsearch.Results, fresh codeindex.Freshness) string {
	seen := map[string]bool{}
	check := func(rs []docsearch.Result) string {
		for _, r := range rs {
			if seen[r.Path] {
				continue
			}
			seen[r.Path] = true
			if fresh.Changed(r.Path) {
				return r.Path
			}
		}
		return ""
	}
	if p := check(res.Results); p != "" {
		return p
	}
	for _, rs := range res.ByScope {
		if p := check(rs); p != "" {
			return p
		}
	}
	return ""
}

// freshnessNote says how fresh a quickly checked answer is.
func freshnessNote(f codeindex.Freshness, now time.Time) string {
	ago := now.Sub(f.Since).Round(time.Second)
	relisted := ""
	if f.Relisted > 0 {
		// Changed just before that check: their listings were compared.
		relisted = fmt.Sprintf(" (%d of them listed again)", f.Relisted)
	}
	return fmt.Sprintf("index: quick check: %d directories and ignore files%s unchanged since the last full check (%s, %s ago), "+
		"and no result's file changed since; a file edited in place that no result names is not checked: "+
		"--full or `fileinfo index` checks every file",
		f.Checked, relisted, f.Since.UTC().Format(time.RFC3339), ago)
}
