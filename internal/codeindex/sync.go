package codeindex

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
)

// stampsFile, in the index's directory, records the size and modification
// time of every source file the code scope was last brought up to date
// with, and its artifact's modification time (0 for none), as JSON:
// {"path": [size, mtime_ns, artifact_mtime_ns], ...}. A file whose stamp
// is unchanged is not read again. It is written atomically after the index.
const stampsFile = "code-stamps.json"

// SyncStats says what a Sync did.
type SyncStats struct {
	Files     int // source files of a known language in the workspace
	Read      int // new or changed since the stamps: read again
	Extracted int // of them, extracted (the others are not source any more)
	Removed   int
}

// Sync brings ix's code scope up to date with the source files under
// root: files that are new or whose size or modification time changed
// since the stamps saved in dir are extracted again, and files that are
// gone leave. dir "" keeps no stamps (every file is extracted). Enriched
// prose comes from root's artifact store.
func Sync(ctx context.Context, ix *docsearch.Index, root, dir string) (SyncStats, error) {
	var st SyncStats
	paths, _, err := extract.Walk(ctx, root, extract.WalkOptions{})
	if err != nil {
		return st, err
	}
	old := map[string][3]int64{}
	if dir != "" && hasCode(ix) {
		if b, err := os.ReadFile(filepath.Join(dir, stampsFile)); err == nil {
			_ = json.Unmarshal(b, &old) // unreadable stamps: every file is read
		}
	}
	store, _ := artifacts.Open(root) // no store: no prose
	now := make(map[string][3]int64, len(paths))
	var todo []string
	for _, p := range paths {
		if extract.UnknownByName(p) {
			continue
		}
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		stamp := [3]int64{info.Size(), info.ModTime().UnixNano(), 0}
		if store != nil {
			if a, err := store.Path(p); err == nil {
				if ai, err := os.Stat(a); err == nil {
					stamp[2] = ai.ModTime().UnixNano()
				}
			}
		}
		now[p] = stamp
		if o, ok := old[p]; !ok || o != stamp {
			todo = append(todo, p)
		}
	}
	st.Files = len(now)
	var removed []string
	for p := range old {
		if _, ok := now[p]; !ok {
			removed = append(removed, p)
		}
	}
	slices.Sort(removed)
	st.Removed = len(removed)
	var mu sync.Mutex
	srcs := map[string][]byte{}
	ex, err := extract.New(root, extract.Options{Read: func(rel string, src []byte) {
		mu.Lock()
		srcs[rel] = src
		mu.Unlock()
	}})
	if err != nil {
		return st, err
	}
	defer ex.Close()
	var files []extract.File
	if len(todo) > 0 {
		if files, _, err = ex.Files(ctx, todo); err != nil {
			return st, err
		}
	}
	st.Read, st.Extracted = len(todo), len(files)
	extracted := map[string]bool{}
	cfs := make([]docsearch.CodeFile, 0, len(files))
	for i := range files {
		f := &files[i]
		extracted[f.Path] = true
		src := srcs[f.Path]
		cfs = append(cfs, File(f, src, ReadProse(store, f, artifacts.SourceDigest(src))))
	}
	// A file that no longer extracts (binary now, too large) leaves too;
	// its stamp is kept, so that it is tried again only when it changes.
	for _, p := range todo {
		if !extracted[p] {
			removed = append(removed, p)
		}
	}
	if err := ix.PutCode(ctx, cfs, removed); err != nil {
		return st, err
	}
	if dir != "" && (len(todo) > 0 || len(removed) > 0) {
		if err := writeStamps(dir, now); err != nil {
			return st, err
		}
	}
	return st, nil
}

// hasCode reports whether ix holds any code document.
func hasCode(ix *docsearch.Index) bool {
	docs, err := ix.List(docsearch.ScopeCode)
	return err == nil && len(docs) > 0
}

// writeStamps writes the stamps atomically.
func writeStamps(dir string, stamps map[string][3]int64) error {
	b, err := json.Marshal(stamps) // map keys are sorted: deterministic
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("code stamps %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, stampsFile+".tmp*")
	if err != nil {
		return fmt.Errorf("code stamps %s: %w", dir, err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, stampsFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("code stamps %s: %w", dir, err)
	}
	return nil
}

// Files extracts every source file under root and returns their code
// documents, sorted by path, with the prose of root's artifact store.
func Files(ctx context.Context, root string) ([]docsearch.CodeFile, error) {
	var mu sync.Mutex
	srcs := map[string][]byte{}
	ex, err := extract.New(root, extract.Options{Read: func(rel string, src []byte) {
		mu.Lock()
		srcs[rel] = src
		mu.Unlock()
	}})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	files, _, err := ex.All(ctx)
	if err != nil {
		return nil, err
	}
	store, _ := artifacts.Open(root)
	out := make([]docsearch.CodeFile, 0, len(files))
	for i := range files {
		f := &files[i]
		src := srcs[f.Path]
		out = append(out, File(f, src, ReadProse(store, f, artifacts.SourceDigest(src))))
	}
	slices.SortFunc(out, func(a, b docsearch.CodeFile) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
