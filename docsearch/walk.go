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
	"_modules": "generated docs: Sphinx's HTML copies of the source code",
}

// buildDirs are the names build tools give their output, and projects
// their sources too (SQLAlchemy's Sphinx sources are in doc/build);
// Jekyll's _site among them, whose HTML repeats the Markdown it is built
// from (not MkDocs' site nor Hugo's public: cobra's Hugo sources are in
// site/content, and web apps serve public/). Such
// a directory is entered when it holds a document source (isSource)
// directly inside it, and passed over, as build output, when it holds
// none there: generated HTML, the .txt copies of Sphinx's _sources, the
// package directories docs are copied into all sit deeper. Like any
// directory, it is passed over when git-ignored.
var buildDirs = map[string]bool{
	"build": true, "dist": true, "target": true, "out": true, "_build": true,
	"_site": true,
}

// isSource reports whether a file is a document written by hand:
// markdown, reStructuredText or AsciiDoc. HTML is often generated, and
// build tools write .txt files (CMakeCache.txt, install_manifest.txt).
func isSource(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdx", ".mdown", ".rst", ".adoc":
		return true
	}
	return false
}

// buildOutput is the reason a directory named like build output is
// passed over.
const buildOutput = "build output: no document source (markdown, reStructuredText, AsciiDoc) directly inside"

func holdsSource(entries []fs.DirEntry) bool {
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return !e.IsDir() && isSource(e.Name()) })
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
// files and directories (their paths ending in "/") passed over, with a
// reason.
func (ss *scopeSet) walk(maxBytes int64) ([]source, []Skipped, error) {
	return ss.walkListed(maxBytes, nil)
}

// walkListed is walk, taking the root's directories and files from l
// when it holds them (nil: none), and adding to it those it reads.
func (ss *scopeSet) walkListed(maxBytes int64, l *Listing) ([]source, []Skipped, error) {
	w := &walker{ss: ss, maxBytes: maxBytes}
	var top dirHandle
	var err error
	if l != nil {
		top, err = openListed(l, ss.root, ".")
	} else {
		top, err = openDir(ss.root, ".")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("walk root: %w", err)
	}
	entries, err := top.list()
	if err == nil {
		w.root(top, ".", entries, nil)
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
// the artifacts, the docs and the extra scopes in the root. ign are the
// ignore files of p's parents.
func (w *walker) root(h dirHandle, p string, entries []fs.DirEntry, ign ignoreStack) {
	ign = w.ignoreFiles(h, p, entries, ign)
	for _, e := range entries {
		cp := path.Join(p, e.Name())
		if !e.IsDir() {
			src, ok, err := w.ss.resolve(cp)
			if err != nil || !ok {
				continue
			}
			if src.scope == ScopeDocs {
				if rules := ign.ignored(cp, false); rules != nil {
					w.skip(cp, "git-ignored by "+rules.file)
					continue
				}
			}
			w.file(h, e, src)
			continue
		}
		reason, check := w.ss.dirRule(cp, ign)
		if reason != "" {
			w.skip(cp+"/", reason)
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
		if check && !holdsSource(entries) {
			w.skip(cp+"/", buildOutput)
		} else {
			w.root(sub, cp, entries, ign)
		}
		sub.close()
	}
}

// dirRule returns why the walk of the root does not enter the directory
// p, or "", and whether p is named like build output and is entered only
// if it holds a document source (buildDirs).
func (ss *scopeSet) dirRule(p string, ign ignoreStack) (reason string, check bool) {
	if p == artifactsDir || ss.holdsExtra(p) {
		return "", false
	}
	name := path.Base(p)
	switch {
	case skipDirs[name] != "":
		return skipDirs[name], false
	case strings.HasPrefix(name, ".") && p != indexDir:
		return "hidden directory", false
	case strings.HasPrefix(p, artifactsDir+"/"):
		return "", false
	}
	if rules := ign.ignored(p, true); rules != nil {
		return "git-ignored by " + rules.file, false
	}
	return "", buildDirs[name]
}

// excluded returns why the walk would pass over p, a document of the docs
// scope, or "" if it would not: a directory on its way is git-ignored or
// build output (dirRule), or p itself is git-ignored. It reads the
// directories on the way as the walk does.
func (ss *scopeSet) excluded(p string) (string, error) {
	h, err := openDir(ss.root, ".")
	if err != nil {
		return "", err
	}
	defer func() { h.close() }()
	entries, err := h.list()
	if err != nil {
		return "", err
	}
	w := &walker{ss: ss}
	var ign ignoreStack
	dir := "."
	elems := strings.Split(p, "/")
	for _, name := range elems[:len(elems)-1] {
		ign = w.ignoreFiles(h, dir, entries, ign)
		dir = path.Join(dir, name)
		reason, check := ss.dirRule(dir, ign)
		if reason != "" {
			return "in " + dir + "/: " + reason, nil
		}
		sub, subEntries, err := w.enter(h, name, dir)
		if err != nil {
			return "", err
		}
		h.close()
		h, entries = sub, subEntries
		if check && !holdsSource(entries) {
			return "in " + dir + "/: " + buildOutput, nil
		}
	}
	ign = w.ignoreFiles(h, dir, entries, ign)
	if rules := ign.ignored(p, false); rules != nil {
		return "git-ignored by " + rules.file, nil
	}
	return "", nil
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
		if r := skipDirs[e.Name()]; r == "version control" {
			w.skip(s.Name+":"+rel(cp)+"/", r)
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

// maxIgnoreBytes bounds an ignore file.
const maxIgnoreBytes = 1 << 20

// ignoreFiles returns ign and the ignore files of directory p, open as
// h and holding entries: its .gitignore and, at the root,
// .git/info/exclude (which comes before it).
func (w *walker) ignoreFiles(h dirHandle, p string, entries []fs.DirEntry, ign ignoreStack) ignoreStack {
	dir := p
	if p == "." {
		dir = ""
	}
	// Entries are sorted: .git, whose exclude file comes first, before
	// .gitignore.
	for _, e := range entries {
		switch {
		case e.Name() == ".git" && p == "." && e.IsDir():
			if data, err := h.read(".git/info/exclude", maxIgnoreBytes); err == nil {
				rules := parseIgnore("", string(data))
				rules.file = ".git/info/exclude"
				ign = append(ign[:len(ign):len(ign)], rules)
			}
		case e.Name() == ".gitignore" && e.Type().IsRegular():
			if data, err := h.read(".gitignore", maxIgnoreBytes); err == nil {
				ign = append(ign[:len(ign):len(ign)], parseIgnore(dir, string(data)))
			}
		}
	}
	return ign
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
