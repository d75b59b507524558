package codeindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
)

// syncBatch is how many files Sync extracts and indexes at a time.
var syncBatch = 1024

// heldHook, set by tests, hears the most source files a Sync held at once.
var heldHook func(files int)

// SyncStats says what a Sync did.
type SyncStats struct {
	Files     int // source files of a known language in the workspace
	Read      int // new or changed since the stamps: read again
	Extracted int // of them, extracted (the others are not source any more)
	Removed   int
	// Vendor is what SyncVendor did with the vendored code (see Select).
	Vendor VendorStats
	// Left are the source files left out of the code scope, with why:
	// copies of another (see Select), and files read this time that did
	// not extract (minified, binary, too large).
	Left []docsearch.Skipped
}

// stampsLimit caps the stamps file: about 60 bytes a source file, 5 MB
// for the Linux kernel's 80,000.
var stampsLimit = bounded.Limit{Kind: "code stamps file", Max: 256 << 20}

// Sync brings ix's code scope up to date with the source files under
// root that Select puts there, and its vendor scope with the vendored
// ones (SyncVendor): files that are new or whose size or modification time changed
// since the stamps saved in dir are extracted again, and files that are
// gone leave. dir "" keeps no stamps (every file is extracted). Stamps
// that cannot be read or decoded (see readStamps) are rebuilt, with a
// line to log (nil: none). Enriched prose comes from root's artifact
// store.
func Sync(ctx context.Context, ix *docsearch.Index, root, dir string, log *slog.Logger) (SyncStats, error) {
	return SyncScanned(ctx, ix, StartScan(ctx, root, SelectOptions{Dir: dir, Log: log}), log)
}

// SyncScanned is Sync with the walk of scan: its root, and the stamps in
// its SelectOptions.Dir.
func SyncScanned(ctx context.Context, ix *docsearch.Index, scan *Scan, log *slog.Logger) (SyncStats, error) {
	var st SyncStats
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	root, dir := scan.root, scan.dir
	sel, err := scan.Selection()
	if err != nil {
		return st, err
	}
	paths := sel.Code
	st.Left = sel.Left
	var old []fileStamp // sorted by path
	if dir != "" && hasCode(ix) {
		old = scan.oldStamps(log)
	}
	store, _ := artifacts.Open(root) // no store: no prose
	// An artifact is looked for only in a directory that exists: a tree
	// with few artifacts then costs a stat per directory, not per file.
	dirs := newDirCache(root, scan.listing)
	now := make([]fileStamp, 0, len(paths))
	for _, p := range paths {
		if extract.UnknownByName(p) {
			continue
		}
		info, err := sel.Lstat(root, p)
		if err != nil || !Held(info) {
			continue
		}
		stamp := [3]int64{info.Size(), info.ModTime().UnixNano(), 0}
		if store != nil {
			if a, err := store.Path(p); err == nil && dirs.exists(filepath.Dir(a)) {
				if ai, err := os.Stat(a); err == nil {
					stamp[2] = ai.ModTime().UnixNano()
				}
			}
		}
		now = append(now, fileStamp{p, stamp})
	}
	// Both sorted by path (Select's are): one merge finds the files new
	// or changed, and those gone.
	slices.SortFunc(now, func(a, b fileStamp) int { return strings.Compare(a.path, b.path) })
	todo, removed := diffStamps(old, now)
	st.Files = len(now)
	st.Removed = len(removed)
	ex, srcs, err := newExtractor(root)
	if err != nil {
		return st, err
	}
	defer ex.Close()
	st.Read = len(todo)
	// Files are extracted and indexed a batch at a time, each batch's
	// sources, extractions and documents dropped before the next: held
	// whole, the Linux kernel's were gigabytes. A file that no longer
	// extracts (binary now, too large) leaves too; its stamp is kept, so
	// that it is tried again only when it changes.
	var extractErr error
	batches := extractBatches(ctx, ex, srcs, todo, &st.Left, &extractErr, func(f *extract.File, src []byte) docsearch.CodeFile {
		st.Extracted++
		d := artifacts.SourceDigest(src)
		cf := File(f, src, ReadProse(store, f, d))
		cf.Stamp = Stamp(store, f.Path, d) // as serve stamps it: serve takes these
		return cf
	}, false)
	// The files gone are dropped with the first batch.
	if err := ix.PutCodeBatches(ctx, batches, removed); err != nil {
		return st, err
	}
	if extractErr != nil {
		return st, extractErr
	}
	if heldHook != nil {
		heldHook(srcs.peak)
	}
	if dir != "" && (len(todo) > 0 || len(removed) > 0 || scan.legacy) {
		if err := writeStamps(dir, now); err != nil {
			return st, err
		}
	}
	slices.SortFunc(st.Left, func(a, b docsearch.Skipped) int { return strings.Compare(a.Path, b.Path) })
	st.Vendor, err = SyncVendor(ctx, ix, root, sel)
	return st, err
}

// extractBatches returns the batches of code documents of the files todo,
// extracted syncBatch at a time, each batch's sources dropped as it is
// rendered: render makes a file's documents; a file that did not extract
// gets none (its documents leave), and why is appended to left unless it
// is of no language. vendor marks those empty files' scope. An error of
// extraction stops the batches and is put in *errp.
func extractBatches(ctx context.Context, ex *extract.Extractor, srcs *sources, todo []string, left *[]docsearch.Skipped, errp *error,
	render func(f *extract.File, src []byte) docsearch.CodeFile, vendor bool) iter.Seq[[]docsearch.CodeFile] {
	return func(yield func([]docsearch.CodeFile) bool) {
		for i := 0; i < len(todo); i += syncBatch {
			part := todo[i:min(i+syncBatch, len(todo))]
			files, skipped, err := ex.Files(ctx, part)
			if err != nil {
				*errp = err
				return
			}
			*left = appendLeft(*left, skipped)
			extracted := make(map[string]bool, len(files))
			cfs := make([]docsearch.CodeFile, 0, len(part))
			for i := range files {
				f := &files[i]
				extracted[f.Path] = true
				cfs = append(cfs, render(f, srcs.take(f.Path)))
			}
			for _, p := range part {
				if !extracted[p] {
					cfs = append(cfs, docsearch.CodeFile{Path: p, Vendor: vendor}) // no symbols: its documents leave
					srcs.take(p)
				}
			}
			if !yield(cfs) {
				return
			}
		}
	}
}

// dirCache remembers which directories exist. With a listing (that of
// the search's walk, which the doc walk added the artifacts' directories
// to), a directory under root is found there: it exists when the
// listing holds it, or its parent's entries name it as a directory, and
// does not when they do not name it, or its parent does not exist. Only
// what the listing cannot tell (a link, a directory neither walk
// entered) costs a stat.
type dirCache struct {
	m       map[string]bool
	root    string
	listing *docsearch.Listing // nil: none
}

func newDirCache(root string, l *docsearch.Listing) *dirCache {
	return &dirCache{m: map[string]bool{}, root: root, listing: l}
}

// stat is os.Stat; tests count the calls.
var stat = os.Stat

func (c *dirCache) exists(dir string) bool {
	ok, seen := c.m[dir]
	if !seen {
		ok = c.look(dir)
		c.m[dir] = ok
	}
	return ok
}

func (c *dirCache) look(dir string) bool {
	if c.listing != nil {
		if rel, err := filepath.Rel(c.root, dir); err == nil && rel != "." && filepath.IsLocal(rel) {
			rel = filepath.ToSlash(rel)
			if _, ok := c.listing.Dir(rel); ok {
				return true
			}
			entries, ok := c.listing.Dir(path.Dir(rel))
			if !ok && !c.exists(filepath.Dir(dir)) {
				return false
			}
			if ok {
				i, found := slices.BinarySearchFunc(entries, path.Base(rel), func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
				switch {
				case !found:
					return false
				case entries[i].Type()&fs.ModeSymlink == 0:
					return entries[i].IsDir()
				}
			}
		}
	}
	info, err := stat(dir)
	return err == nil && info.IsDir()
}

// hasCode reports whether ix holds any code document.
func hasCode(ix *docsearch.Index) bool { return ix.HasScope(docsearch.ScopeCode) }

// decodeStamps decodes the legacy stamps file (legacyStampsFile), refusing
// anything but an object of slash paths inside the workspace, each with
// three integers, the first a size.
func decodeStamps(b []byte) (map[string][3]int64, error) {
	var raw map[string][]int64
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("code stamps: %w", err)
	}
	if raw == nil {
		return nil, errors.New("code stamps: not an object")
	}
	stamps := make(map[string][3]int64, len(raw))
	for p, v := range raw {
		switch {
		case !fs.ValidPath(p) || p == ".":
			return nil, fmt.Errorf("code stamps: %q is not a path inside the workspace", p)
		case len(v) != 3:
			return nil, fmt.Errorf("code stamps of %s: %d numbers, want 3 numbers", p, len(v))
		case v[0] < 0:
			return nil, fmt.Errorf("code stamps of %s: negative size %d", p, v[0])
		}
		stamps[p] = [3]int64(v)
	}
	return stamps, nil
}

// writeStamps writes the stamps, sorted by path, atomically, and the
// build they were made by (buildFile), and removes the legacy stamps
// file.
func writeStamps(dir string, stamps []fileStamp) error {
	if err := writeFile(dir, stampsFile, "code stamps", encodeStamps(stamps)); err != nil {
		return err
	}
	if err := writeFile(dir, buildFile, "code build", []byte(buildStamp)); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, legacyStampsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("code stamps %s: %w", dir, err)
	}
	return nil
}

// diffStamps returns, of now, the files whose stamp is not in old, and,
// of old, the files not in now; both sorted by path, as now and old are.
func diffStamps(old, now []fileStamp) (todo, removed []string) {
	i := 0
	for _, n := range now {
		for i < len(old) && old[i].path < n.path {
			removed = append(removed, old[i].path)
			i++
		}
		if i < len(old) && old[i].path == n.path {
			if old[i].stamp != n.stamp {
				todo = append(todo, n.path)
			}
			i++
			continue
		}
		todo = append(todo, n.path)
	}
	for ; i < len(old); i++ {
		removed = append(removed, old[i].path)
	}
	return todo, removed
}

// writeJSON writes v as JSON to dir/name atomically (a temporary file
// renamed over it); errors name kind and dir.
func writeJSON(dir, name, kind string, v any) error {
	b, err := json.Marshal(v) // map keys are sorted: deterministic
	if err != nil {
		return err
	}
	return writeFile(dir, name, kind, b)
}

// writeFile writes b to dir/name atomically (a temporary file renamed
// over it); errors name kind and dir.
func writeFile(dir, name, kind string, b []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	f, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("%s %s: %w", kind, dir, err)
	}
	return nil
}

// Files extracts every source file under root and returns their code
// documents, sorted by path, with the prose of root's artifact store.
func Files(ctx context.Context, root string) ([]docsearch.CodeFile, error) {
	ex, srcs, err := newExtractor(root)
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
		src := srcs.get(f.Path)
		out = append(out, File(f, src, ReadProse(store, f, artifacts.SourceDigest(src))))
	}
	slices.SortFunc(out, func(a, b docsearch.CodeFile) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// sources holds the bytes each file was extracted from, by path.
type sources struct {
	mu   sync.Mutex
	m    map[string][]byte
	peak int // the most files held at once
}

func (s *sources) get(p string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[p]
}

// take returns the bytes of p and forgets them.
func (s *sources) take(p string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.m[p]
	delete(s.m, p)
	return b
}

// readHook, set by tests, hears every file an extractor of newExtractor
// reads.
var readHook func(rel string, src []byte)

// newExtractor returns an extractor of root that keeps what it reads in
// srcs, so that a file's chunk is cut from the very bytes extracted.
func newExtractor(root string) (*extract.Extractor, *sources, error) {
	srcs := &sources{m: map[string][]byte{}}
	ex, err := extract.New(root, extract.Options{Read: func(rel string, src []byte) {
		if readHook != nil {
			readHook(rel, src)
		}
		srcs.mu.Lock()
		srcs.m[rel] = src
		srcs.peak = max(srcs.peak, len(srcs.m))
		srcs.mu.Unlock()
	}})
	return ex, srcs, err
}
