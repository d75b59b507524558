package graphstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// OpenSymbolsChanged is OpenSymbols for a server that answers from the
// index while it brings the state up to date: it opens the index even
// when source files were added, removed or changed since it was saved,
// and returns their slash paths, sorted (the index describes them as
// they were, or not at all). An index saved with another key, or before
// a go.mod changed (which may resolve every call anew), is stale
// (ErrStale). Like OpenSymbols it reads the header and the stamps, walks
// the tree and stats each file.
func OpenSymbolsChanged(ctx context.Context, opt Options) (*Symbols, []string, error) {
	dir, root, err := symbolsPaths(opt)
	if err != nil {
		return nil, nil, err
	}
	if err := noLinks(opt.Root, dir); err != nil {
		return nil, nil, err
	}
	file := filepath.Join(dir, SymbolsFile)
	s, err := ReadSymbols(file)
	if err != nil {
		return nil, nil, err
	}
	stale := func(why string) (*Symbols, []string, error) {
		s.Close()
		return nil, nil, fmt.Errorf("%s: %w: %s", file, ErrStale, why)
	}
	if s.key != stateKey(opt) {
		return stale("saved by another build or with other options")
	}
	paths, _, err := extract.Walk(ctx, opt.Root, opt.Extract.Walk)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	config, sources, _ := selectSources(paths, opt.Extract.Languages)
	saved := make(map[string]stamp, s.config+s.files)
	var savedConfig []string
	if err := Guard(func() {
		for k := range s.config + s.files {
			sp := s.stamp(k)
			saved[sp.path] = sp
			if k < s.config {
				savedConfig = append(savedConfig, sp.path)
			}
		}
	}); err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	differs := func(p string) bool {
		w, ok := saved[p]
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return !ok || err != nil || w.mtime == 0 || info.Size() != w.size || info.ModTime().UnixNano() != w.mtime
	}
	if !slices.Equal(config, savedConfig) || slices.ContainsFunc(config, differs) {
		return stale("a go.mod changed")
	}
	var mu sync.Mutex
	var changed []string
	par.For(8, len(sources), func(k int) {
		if differs(sources[k]) {
			mu.Lock()
			changed = append(changed, sources[k])
			mu.Unlock()
		}
	})
	now := make(map[string]bool, len(sources))
	for _, p := range sources {
		now[p] = true
	}
	for p := range saved {
		if !now[p] && !slices.Contains(savedConfig, p) {
			changed = append(changed, p) // removed
		}
	}
	slices.Sort(changed)
	return s, changed, nil
}
