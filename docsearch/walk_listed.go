package docsearch

import (
	"io/fs"
	"path"
	"slices"
	"sync"
)

// Listing is what another walk of the root read: directories' entries,
// and the lstat of some of their files. Open's walk (Options.Walked)
// takes a directory's entries from it instead of reading the directory
// again, and a file's size, modification time and type instead of
// asking for them again; a directory or file it does not hold is read
// as usual, through the root. The walk that filled it must have entered
// directories without following a symbolic link, as the doc walk does:
// what it lists is what the doc walk would have read.
//
// The doc walk adds the directories it had to read itself, so that
// whoever walked first can ask, after Open, about a directory only the
// doc walk entered (the artifacts' tree). A Listing is safe for
// concurrent use.
type Listing struct {
	mu    sync.Mutex
	dirs  map[string][]fs.DirEntry        // by slash path, "." for the root
	stats func(p string) (FileStat, bool) // by slash path; nil: none
	reads int                             // directories the doc walk read itself
}

// FileStat is what a walk needs of a file, as lstat saw it: its type,
// size and modification time (Unix ns).
type FileStat struct {
	Mode        fs.FileMode
	Size, MTime int64
}

// NewListing returns an empty listing.
func NewListing() *Listing {
	return &Listing{dirs: map[string][]fs.DirEntry{}}
}

// AddDir records the entries of the directory at slash path p ("." for
// the root), in any order; it sorts them, and keeps them.
func (l *Listing) AddDir(p string, entries []fs.DirEntry) {
	sortEntries(entries)
	l.mu.Lock()
	l.dirs[p] = entries
	l.mu.Unlock()
}

// SetStats gives the listing the lstat of files: stat returns that of
// the file at slash path p, and whether it has one. It must be safe for
// concurrent use, and keep its answers.
func (l *Listing) SetStats(stat func(p string) (FileStat, bool)) {
	l.mu.Lock()
	l.stats = stat
	l.mu.Unlock()
}

// Dir returns the entries of the directory at p, sorted by name, and
// whether the listing holds it.
func (l *Listing) Dir(p string) ([]fs.DirEntry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.dirs[p]
	return e, ok
}

// Stat returns the lstat of the file at p, and whether the listing holds
// it.
func (l *Listing) Stat(p string) (FileStat, bool) {
	l.mu.Lock()
	stat := l.stats
	l.mu.Unlock()
	if stat == nil {
		return FileStat{}, false
	}
	return stat(p)
}

// Dirs returns the slash paths of the directories the listing holds
// ("." for the root), sorted.
func (l *Listing) Dirs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.dirs))
	for p := range l.dirs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Reads returns how many directories the doc walk read itself, not
// finding them in the listing.
func (l *Listing) Reads() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reads
}

// listedDir is a directory of the root as the listing holds it. The
// directory itself is opened only when the walk needs more than the
// listing holds: a file's stat it lacks, an ignore file, a subdirectory
// it does not hold.
type listedDir struct {
	l       *Listing
	fsys    fs.FS
	p       string
	entries []fs.DirEntry
	real    dirHandle
	err     error
}

// openListed opens the directory p of fsys for a walk, from l if it
// holds it.
func openListed(l *Listing, fsys fs.FS, p string) (dirHandle, error) {
	if entries, ok := l.Dir(p); ok {
		return &listedDir{l: l, fsys: fsys, p: p, entries: entries}, nil
	}
	h, err := openDir(fsys, p)
	if err != nil {
		return nil, err
	}
	return &readDir{l: l, fsys: fsys, p: p, h: h}, nil
}

func (d *listedDir) list() ([]fs.DirEntry, error) { return d.entries, nil }

// open opens the directory itself, once.
func (d *listedDir) open() (dirHandle, error) {
	if d.real == nil && d.err == nil {
		d.real, d.err = openDir(d.fsys, d.p)
	}
	return d.real, d.err
}

func (d *listedDir) info(name string) (entryInfo, error) {
	if st, ok := d.l.Stat(path.Join(d.p, name)); ok {
		return entryInfo{st.Mode, st.Size, st.MTime}, nil
	}
	h, err := d.open()
	if err != nil {
		return entryInfo{}, err
	}
	return h.info(name)
}

func (d *listedDir) sub(name string) (dirHandle, error) {
	cp := path.Join(d.p, name)
	if entries, ok := d.l.Dir(cp); ok {
		return &listedDir{l: d.l, fsys: d.fsys, p: cp, entries: entries}, nil
	}
	h, err := d.open()
	if err != nil {
		return nil, err
	}
	sub, err := h.sub(name)
	if err != nil {
		return nil, err
	}
	return &readDir{l: d.l, fsys: d.fsys, p: cp, h: sub}, nil
}

func (d *listedDir) read(name string, max int64) ([]byte, error) {
	h, err := d.open()
	if err != nil {
		return nil, err
	}
	return h.read(name, max)
}

func (d *listedDir) close() {
	if d.real != nil {
		d.real.close()
	}
}

// readDir is a directory the listing does not hold, read by the doc walk
// itself; what it lists is added to the listing.
type readDir struct {
	l    *Listing
	fsys fs.FS
	p    string
	h    dirHandle
}

func (d *readDir) list() ([]fs.DirEntry, error) {
	entries, err := d.h.list()
	d.l.mu.Lock()
	d.l.reads++
	if err == nil {
		d.l.dirs[d.p] = entries
	}
	d.l.mu.Unlock()
	return entries, err
}

func (d *readDir) info(name string) (entryInfo, error) { return d.h.info(name) }

func (d *readDir) sub(name string) (dirHandle, error) {
	cp := path.Join(d.p, name)
	if entries, ok := d.l.Dir(cp); ok {
		return &listedDir{l: d.l, fsys: d.fsys, p: cp, entries: entries}, nil
	}
	sub, err := d.h.sub(name)
	if err != nil {
		return nil, err
	}
	return &readDir{l: d.l, fsys: d.fsys, p: cp, h: sub}, nil
}

func (d *readDir) read(name string, max int64) ([]byte, error) { return d.h.read(name, max) }
func (d *readDir) close()                                      { d.h.close() }
