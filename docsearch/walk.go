package docsearch

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// skipDirs are directories the docs scope never enters, and why: they
// hold no project docs. Hidden directories are passed over too.
var skipDirs = map[string]string{
	".git": "version control", ".hg": "version control", ".svn": "version control",
	"node_modules": "dependencies", "vendor": "dependencies", "site-packages": "dependencies",
	".venv": "virtual environment", "venv": "virtual environment",
	"__pycache__": "cache", ".tox": "cache", "testdata": "test data",
	"dist": "build output", "build": "build output", "target": "build output", "out": "build output",
}

// walkHook, when set by a test, is called with the path of each
// directory the walk is about to enter, after it listed it.
var walkHook func(p string)

// walker gathers the documents of a walk and what it passed over.
type walker struct {
	ss       *scopeSet
	maxBytes int64
	out      []source
	skipped  []Skipped
}

func (w *walker) skip(p, reason string) { w.skipped = append(w.skipped, Skipped{p, reason}) }

// walk lists every document of every scope, sorted by path, and the
// files passed over with a reason.
func (ss *scopeSet) walk(maxBytes int64) ([]source, []Skipped, error) {
	w := &walker{ss: ss, maxBytes: maxBytes}
	top, err := openDir(ss.root, ".")
	if err != nil {
		return nil, nil, fmt.Errorf("walk root: %w", err)
	}
	entries, err := top.list()
	if err == nil {
		w.root(top, ".", entries)
	}
	top.close()
	if err != nil {
		return nil, nil, fmt.Errorf("walk root: %w", err)
	}
	for _, s := range ss.extra {
		if s.FS == nil {
			continue
		}
		h, err := openDir(s.FS, s.Dir)
		if err != nil {
			return nil, nil, fmt.Errorf("walk scope %s: %w", s.Name, err)
		}
		entries, err := h.list()
		if err == nil {
			w.scope(s, h, s.Dir, entries)
		}
		h.close()
		if err != nil {
			return nil, nil, fmt.Errorf("walk scope %s: %w", s.Name, err)
		}
	}
	slices.SortFunc(w.out, func(a, b source) int { return strings.Compare(a.path, b.path) })
	slices.SortFunc(w.skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return w.out, w.skipped, nil
}

// root walks the directory p of the root, open as h and holding entries:
// the artifacts, the docs and the extra scopes in the root.
func (w *walker) root(h dirHandle, p string, entries []fs.DirEntry) {
	for _, e := range entries {
		cp := path.Join(p, e.Name())
		if !e.IsDir() {
			src, ok, err := w.ss.resolve(cp)
			if err != nil || !ok {
				continue
			}
			w.file(h, e, src)
			continue
		}
		if w.ss.dirRule(cp) != "" {
			continue
		}
		if cp == indexDir {
			continue // the index's own files
		}
		sub, entries, err := w.enter(h, e.Name(), cp)
		if err != nil {
			w.skip(cp+"/", err.Error())
			continue
		}
		w.root(sub, cp, entries)
		sub.close()
	}
}

// dirRule returns why the walk of the root does not enter the directory
// p, or "".
func (ss *scopeSet) dirRule(p string) string {
	if p == artifactsDir || ss.holdsExtra(p) {
		return ""
	}
	name := path.Base(p)
	switch {
	case skipDirs[name] != "":
		return skipDirs[name]
	case strings.HasPrefix(name, ".") && p != indexDir:
		return "hidden directory"
	}
	return ""
}

// scope walks the directory p of an extra scope with a file system of
// its own, open as h and holding entries.
func (w *walker) scope(s Scope, h dirHandle, p string, entries []fs.DirEntry) {
	rel := func(p string) string {
		if s.Dir == "." {
			return p
		}
		return strings.TrimPrefix(strings.TrimPrefix(p, s.Dir), "/")
	}
	for _, e := range entries {
		cp := path.Join(p, e.Name())
		if !e.IsDir() {
			if f, ok := docFormat(e.Name()); ok {
				w.file(h, e, source{path: s.Name + ":" + rel(cp), scope: s.Name, fsys: s.FS, name: cp, format: f})
			}
			continue
		}
		if skipDirs[e.Name()] == "version control" {
			continue
		}
		sub, entries, err := w.enter(h, e.Name(), cp)
		if err != nil {
			w.skip(s.Name+":"+rel(cp)+"/", err.Error())
			continue
		}
		w.scope(s, sub, cp, entries)
		sub.close()
	}
}

// enter opens and lists the subdirectory name of h, at p.
func (w *walker) enter(h dirHandle, name, p string) (dirHandle, []fs.DirEntry, error) {
	if walkHook != nil {
		walkHook(p)
	}
	sub, err := h.sub(name)
	if err != nil {
		return nil, nil, err
	}
	entries, err := sub.list()
	if err != nil {
		sub.close()
		return nil, nil, err
	}
	return sub, entries, nil
}

// file adds the document src, entry e of h, or says why not.
func (w *walker) file(h dirHandle, e fs.DirEntry, src source) {
	if !e.Type().IsRegular() {
		w.skip(src.path, irregular(e.Type()))
		return
	}
	info, err := h.info(e.Name())
	switch {
	case err != nil:
		w.skip(src.path, err.Error())
	case !info.mode.IsRegular():
		w.skip(src.path, irregular(info.mode))
	case info.size > w.maxBytes:
		w.skip(src.path, errTooBig(info.size, w.maxBytes).Error())
	default:
		src.size, src.mtime = info.size, info.mtime
		w.out = append(w.out, src)
	}
}

// dirHandle is a directory a walk has open.
type dirHandle interface {
	list() ([]fs.DirEntry, error)        // its entries, sorted by name
	info(name string) (entryInfo, error) // an entry's, not following a link
	// sub opens the subdirectory name. Through a root, it refuses a
	// symbolic link, or anything else than the directory listed.
	sub(name string) (dirHandle, error)
	read(name string, max int64) ([]byte, error) // a small regular file
	close()
}

// entryInfo is what the walk needs of a file.
type entryInfo struct {
	mode        fs.FileMode
	size, mtime int64 // mtime in Unix ns
}

func infoOf(fi fs.FileInfo) entryInfo {
	return entryInfo{fi.Mode(), fi.Size(), fi.ModTime().UnixNano()}
}

// openDir opens the directory dir of fsys for a walk: through the root
// for a RootFS (openRootDir), by path otherwise.
func openDir(fsys fs.FS, dir string) (dirHandle, error) {
	if r, ok := fsys.(rootFS); ok {
		return openRootDir(r.root, dir)
	}
	return fsDir{fsys, dir}, nil
}

func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// fsDir is a directory of any fs.FS, read by path.
type fsDir struct {
	fsys fs.FS
	dir  string
}

func (d fsDir) list() ([]fs.DirEntry, error) { return fs.ReadDir(d.fsys, d.dir) }
func (d fsDir) info(name string) (entryInfo, error) {
	fi, err := fs.Lstat(d.fsys, path.Join(d.dir, name))
	if err != nil {
		return entryInfo{}, err
	}
	return infoOf(fi), nil
}
func (d fsDir) sub(name string) (dirHandle, error) { return fsDir{d.fsys, path.Join(d.dir, name)}, nil }
func (d fsDir) read(name string, max int64) ([]byte, error) {
	return readFile(d.fsys, path.Join(d.dir, name), max)
}
func (d fsDir) close() {}
