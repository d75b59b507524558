package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/depindex"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// runDeps lists the workspace's dependencies at their locked versions and
// whether their source is on this machine.
func runDeps(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("deps", "[DIR]", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	which := fs.String("deps", "direct", "`which` dependencies: direct or all (transitive too)")
	asJSON := fs.Bool("json", false, "print JSON")
	index := fs.Bool("index", false, "build the API and docs of every dependency on disk into the per-user cache (each version once)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := rootArg(fs, root, pos); err != nil {
		return err
	}
	if *which != "direct" && *which != "all" {
		fs.Usage()
		return errUsage
	}
	ds, err := deps.Resolve(*root, deps.Options{All: *which == "all"})
	// A bad lockfile hides nothing else: what resolved is printed, then
	// err fails the command.
	cache, cerr := depindex.DefaultDir(nil)
	if cerr != nil {
		return cerr
	}
	rows, ierr := depRows(ctx, depindex.Cache{Dir: cache}, ds, *index, stderr)
	err = errors.Join(err, ierr)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err2 := enc.Encode(struct {
			Cache string   `json:"cache"`
			Deps  []depRow `json:"deps"`
		}{cache, rows}); err2 != nil {
			return err2
		}
		return err
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "No dependencies: %s has none of %s, or they name none", *root, strings.Join(deps.Manifests(), ", "))
		if *which != "all" {
			fmt.Fprint(stdout, " directly (--deps all lists transitive ones too)")
		}
		fmt.Fprintln(stdout, ".")
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ECOSYSTEM\tNAME\tVERSION\tKIND\tSTATUS\tSYMBOLS\tDOCS\tWHERE")
	counts := map[string]int{}
	for _, r := range rows {
		kind := "transitive"
		if r.Direct {
			kind = "direct"
		}
		where := r.Dir
		switch r.Dep.Status {
		case deps.Missing:
			where = "fetch with: " + r.Fetch
		case deps.Mismatch:
			where = fmt.Sprintf("found %s on disk; fetch with: %s", r.Found, r.Fetch)
		case deps.Refused:
			where = "not read: " + r.Reason
		}
		counts[r.Index]++
		syms, docs := "-", "-"
		if r.Index == "indexed" {
			syms, docs = fmt.Sprint(r.Symbols), fmt.Sprint(r.Docs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Ecosystem, printable(r.Name), printable(r.Version), kind, r.Index, syms, docs, printable(where))
	}
	if err2 := tw.Flush(); err2 != nil {
		return err2
	}
	fmt.Fprintf(stdout, "%d dependencies: %d indexed, %d on disk not indexed (--index builds them), %d missing, %d at another version, %d refused; cache %s\n",
		len(rows), counts["indexed"], counts[string(deps.Present)], counts[string(deps.Missing)], counts[string(deps.Mismatch)], counts[string(deps.Refused)], cache)
	return err
}

// depRow is one dependency with what the per-user cache holds of it.
type depRow struct {
	deps.Dep
	// Index is "indexed" when the cache holds its API, built from the
	// bytes its files hold now, else its Status.
	Index   string `json:"index"`
	Symbols int    `json:"symbols"`
	Docs    int    `json:"docs"`
	// Digest is the cache key of its files as they are now (see
	// depindex.Digest).
	Digest string `json:"digest,omitempty"`
}

// depRows looks each dependency up in the cache by the digest of its
// files, building the missing ones when build is set. One that fails to
// build is reported and left out of the cache; the others go on.
func depRows(ctx context.Context, c depindex.Cache, ds []deps.Dep, build bool, stderr io.Writer) ([]depRow, error) {
	rows := make([]depRow, 0, len(ds))
	var errs []error
	for _, d := range ds {
		r := depRow{Dep: d, Index: string(d.Status)}
		if depindex.Cacheable(d) {
			digest, err := depindex.Digest(ctx, d, depindex.Options{})
			if err != nil {
				errs = append(errs, err)
				rows = append(rows, r)
				continue
			}
			r.Digest = digest
			api, ok := c.Load(d, digest)
			if !ok && build {
				start := time.Now()
				api, _, err = c.Get(ctx, d, depindex.Options{})
				if err != nil {
					errs = append(errs, err)
				}
				if api != nil { // built; an error is of saving it
					fmt.Fprintf(stderr, "indexed %s: %d files, %d symbols, %d docs in %s\n",
						d.ID(), api.Files, len(api.Symbols), len(api.Docs), time.Since(start).Round(time.Millisecond))
					r.Digest = api.Digest
				}
				ok = api != nil
			}
			if ok {
				r.Index, r.Symbols, r.Docs = "indexed", len(api.Symbols), len(api.Docs)
			}
		}
		rows = append(rows, r)
	}
	return rows, errors.Join(errs...)
}

// printable is s, quoted when it holds a character that is not printed
// as itself (a lockfile's names are data, a NUL or escape among them).
func printable(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return strconv.Quote(s)
	}
	return s
}

// searchDeps searches the workspace's dependency index (the one serve
// keeps under .artifacts/.index/deps), first bringing it up to date with
// the lockfiles from the per-user cache. Every scope of q must be a deps
// scope.
func searchDeps(ctx context.Context, root string, q docsearch.Query, stderr io.Writer) (docsearch.Results, error) {
	for _, s := range q.Scopes {
		if !depindex.IsScope(s) {
			return docsearch.Results{}, fmt.Errorf("--scope %s: search dependencies (deps, deps:NAME) and the project's scopes in separate runs", s)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return docsearch.Results{}, err
	}
	ds, rerr := deps.Resolve(abs, deps.Options{})
	cache, err := depindex.DefaultDir(nil)
	if err != nil {
		return docsearch.Results{}, err
	}
	dir := depindex.IndexDir(filepath.Join(abs, ".artifacts", ".index"))
	if _, err := os.Stat(filepath.Join(abs, ".artifacts")); err != nil {
		dir = "" // no .artifacts yet: none is made for a search
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ix, err := depindex.OpenIndex(ctx, dir, defaultEmbedder(), docsearch.Options{Logger: logger})
	if err != nil {
		return docsearch.Results{}, err
	}
	counts, err := depindex.Sync(ctx, ix, ds, depindex.Cache{Dir: cache}, depindex.Options{}, nil)
	if err = errors.Join(rerr, err); err != nil {
		fmt.Fprintf(stderr, "fileinfo search: dependencies: %v\n", err)
	}
	if len(counts) == 0 {
		return docsearch.Results{}, fmt.Errorf("no dependency of %s is on disk to search; fileinfo deps lists them", abs)
	}
	return depindex.Search(ctx, ix, counts, q, q.Scopes)
}
