package depindex

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// Scope is the doc scope dependency documents are put in.
const Scope = "deps"

// IndexDir is where a workspace keeps its dependency index, under its
// doc index directory: named by Format, so that a new format starts a
// new index rather than mixing pages of two.
func IndexDir(docIndexDir string) string {
	return filepath.Join(docIndexDir, fmt.Sprintf("deps.v%d", Format))
}

// OpenIndex opens a doc index that holds only dependency documents (scope
// Scope), saved in dir ("" keeps it in memory).
func OpenIndex(ctx context.Context, dir string, emb docsearch.Embedder, opts docsearch.Options) (*docsearch.Index, error) {
	empty := fstest.MapFS{}
	opts.Scopes = []docsearch.Scope{{Name: Scope, Dir: ".", FS: empty}}
	opts.Embedder = emb
	opts.Dir = dir
	return docsearch.Open(ctx, empty, opts)
}

// Count is what an index holds of one dependency version.
type Count struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	Dir       string `json:"dir"`
	Symbols   int    `json:"symbols"`
	Docs      int    `json:"docs"`
	// API is the version's API, as the cache holds it.
	API *API `json:"-"`

	bySymbol map[string]int // qualified name → index in API.Symbols
}

// newCount describes d's API, of which ix holds docs documents.
func newCount(d deps.Dep, api *API, docs int) Count {
	by := make(map[string]int, len(api.Symbols))
	for i, s := range api.Symbols {
		by[s.Qualified] = i
	}
	return Count{Ecosystem: d.Ecosystem, Name: d.Name, Version: d.Version, Dir: d.Dir,
		Symbols: len(api.Symbols), Docs: docs, API: api, bySymbol: by}
}

// symbol returns the API symbol of that qualified name.
func (c Count) symbol(qualified string) (Symbol, bool) {
	i, ok := c.bySymbol[qualified]
	if !ok {
		return Symbol{}, false
	}
	return c.API.Symbols[i], true
}

// Key is a Count's name@version, the first element of its documents'
// paths after Prefix.
func (c Count) Key() string { return c.Name + "@" + c.Version }

// Sync makes ix hold exactly the documents of the cacheable dependencies
// in ds: the versions it lacks are read from the cache (built on a miss)
// and put; versions it holds that ds no longer names are removed. progress,
// if set, is called after each dependency. It returns what ix holds by
// name@version; a dependency that fails is left out and its error joined
// into err, and the others go on.
func Sync(ctx context.Context, ix *docsearch.Index, ds []deps.Dep, c Cache, opts Options, progress func(done, total int)) (map[string]Count, error) {
	var todo []deps.Dep
	for _, d := range ds {
		if Cacheable(d) {
			todo = append(todo, d)
		}
	}
	held := Held(ix)
	counts := map[string]Count{}
	var errs []error
	for i, d := range todo {
		if err := ctx.Err(); err != nil {
			return counts, err
		}
		key := d.Name + "@" + d.Version
		api, _, err := c.Get(ctx, d, opts)
		if err != nil && api != nil { // built, not saved: indexed all the same
			errs = append(errs, fmt.Errorf("%s: %w", d.ID(), err))
			err = nil
		}
		if err == nil {
			// A version the index holds is not rendered again.
			n := len(held[key])
			if _, ok := held[key]; !ok {
				docs := Documents(api, Scope)
				n = len(docs)
				err = ix.Put(ctx, docs)
			}
			if err == nil {
				counts[key] = newCount(d, api, n)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", d.ID(), err))
		}
		delete(held, key)
		if progress != nil {
			progress(i+1, len(todo))
		}
	}
	var gone []string
	for _, paths := range held {
		gone = append(gone, paths...)
	}
	if len(gone) > 0 {
		if err := ix.Update(ctx, gone); err != nil {
			errs = append(errs, err)
		}
	}
	return counts, errors.Join(errs...)
}

// Held maps each name@version whose documents ix holds to their paths.
func Held(ix *docsearch.Index) map[string][]string {
	held := map[string][]string{}
	docs, err := ix.List(Scope)
	if err != nil {
		return held
	}
	for _, d := range docs {
		if key, _, ok := SplitPath(d.Path); ok {
			held[key] = append(held[key], d.Path)
		}
	}
	return held
}

// SplitPath splits a dependency document path "deps:NAME@VERSION/REL"
// into NAME@VERSION and REL. A name may hold '/' and start with '@'.
func SplitPath(p string) (key, rel string, ok bool) {
	rest, ok := strings.CutPrefix(p, Prefix)
	if !ok || len(rest) < 2 {
		return "", "", false
	}
	at := strings.IndexByte(rest[1:], '@') + 1
	if at <= 0 {
		return "", "", false
	}
	slash := strings.IndexByte(rest[at:], '/')
	if slash < 0 {
		return "", "", false
	}
	return rest[:at+slash], rest[at+slash+1:], true
}
