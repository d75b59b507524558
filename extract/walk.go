package extract

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WalkOptions controls Walk. The zero value is ready to use.
type WalkOptions struct {
	// SkipDirs are directory base names never entered, in addition to DefaultSkipDirs.
	SkipDirs []string
	// Enter are names of DefaultSkipDirs that Walk enters all the same
	// ("vendor", for a caller that judges vendored code itself); ignore
	// files still apply.
	Enter []string
	// NoIgnoreFiles disables .gitignore handling.
	NoIgnoreFiles bool
	// Dir, if set, is called with the slash path of every directory Walk
	// enters, relative to the root ("" for the root itself), before its
	// entries are read. A watcher uses it to watch the directories whose
	// files Walk returns, empty ones included.
	Dir func(rel string)
	// Listed, if set, is called with the slash path of every directory
	// Walk read ("" for the root) and its entries as read, once Walk is
	// done with them: a caller that walks the same tree for other files
	// (the doc index) takes the listing instead of reading it again.
	Listed func(rel string, entries []fs.DirEntry)
}

// DefaultSkipDirs are the directory base names Walk never enters, at any
// depth: version control metadata, fileinfo's own .artifacts output,
// installed dependencies, tool caches and build outputs whose names say so.
// Generic names such as "build", "dist", "target" and "out" are deliberately
// absent: they are source directories in many repositories (Go's go/build and
// cmd/dist, for one), and where they hold build output they are normally
// .gitignored. Add them with WalkOptions.SkipDirs if needed. Callers must not
// modify DefaultSkipDirs.
var DefaultSkipDirs = []string{
	// Version control.
	".git", ".hg", ".svn", ".bzr", ".jj", "_darcs", "CVS",
	// fileinfo's own output.
	".artifacts",
	// Installed dependencies.
	"node_modules", "bower_components", "jspm_packages", "vendor",
	".venv", "venv", "__pypackages__", ".bundle", "Pods", ".cargo",
	// Tool caches and editor state.
	"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox",
	".gradle", ".m2", ".idea", ".terraform", ".cache", ".parcel-cache", ".turbo",
	".dart_tool", ".stack-work", ".eggs", ".angular",
	// Build outputs.
	".next", ".nuxt", ".svelte-kit", "_build", "zig-out", ".zig-cache", "zig-cache",
	"bazel-bin", "bazel-out", "bazel-testlogs", "cmake-build-debug", "cmake-build-release",
}

// Skipped is a file the walk or the extractor did not extract, with the reason.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Reasons Walk gives in Skipped.
const (
	reasonEscapes      = "symlink escapes workspace"
	reasonBroken       = "broken symlink"
	reasonUnresolvable = "unresolvable symlink (loop or unreadable target)"
	reasonSymlinkDir   = "symlinked directory not followed"
	reasonUnreadable   = "unreadable directory"
	reasonBadIgnore    = "unreadable ignore file"
)

// Walk returns the regular files under root as sorted, slash-separated paths relative to root,
// plus the entries it skipped with a reason (symlinks that escape root, unreadable dirs ...).
//
// Walk never enters directories named in DefaultSkipDirs or opt.SkipDirs,
// nor directories that the .gitignore files at every level or
// .git/info/exclude at root exclude, with git's semantics; ignored and
// skipped-by-name entries are dropped without a Skipped record. It never
// follows a symlinked directory. A symlink to a regular file is returned under
// its own path if its target, fully resolved, is inside root (which is
// resolved first). Sockets, devices and pipes are dropped silently. Walk
// checks ctx before reading each directory. It fails only if root cannot be
// read or ctx is done; both slices are sorted by path.
func Walk(ctx context.Context, root string, opt WalkOptions) (files []string, skipped []Skipped, err error) {
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	w := &walker{
		ctx:       ctx,
		root:      abs,
		skipDirs:  make(map[string]bool, len(DefaultSkipDirs)+len(opt.SkipDirs)),
		useIgnore: !opt.NoIgnoreFiles,
		onDir:     opt.Dir,
		onListed:  opt.Listed,
	}
	for _, names := range [][]string{DefaultSkipDirs, opt.SkipDirs} {
		for _, name := range names {
			w.skipDirs[name] = true
		}
	}
	for _, name := range opt.Enter {
		if !slices.Contains(opt.SkipDirs, name) {
			delete(w.skipDirs, name)
		}
	}
	top, err := os.Open(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	defer top.Close()
	if w.rootDir, err = os.OpenRoot(abs); err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	defer w.rootDir.Close()
	if err := w.dir(top, abs, "", nil); err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	slices.Sort(w.files)
	slices.SortFunc(w.skipped, func(a, b Skipped) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Reason, b.Reason))
	})
	return w.files, w.skipped, nil
}

// walker holds the state of one Walk.
type walker struct {
	ctx       context.Context
	root      string   // absolute, symlinks resolved
	rootDir   *os.Root // root, for the ignore files
	skipDirs  map[string]bool
	useIgnore bool
	onDir     func(rel string)
	onListed  func(rel string, entries []fs.DirEntry)
	files     []string
	skipped   []Skipped
}

// dir walks the open directory d at path, whose slash path relative to
// the root is rel, under the ignore files in stack. Subdirectories are
// opened relative to d without following a symbolic link, so a directory
// swapped for a link during the walk is skipped, not followed. It returns
// an error only for ctx or an unreadable root; other problems become
// Skipped records.
func (w *walker) dir(d *os.File, path, rel string, stack ignoreStack) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.onDir != nil {
		w.onDir(rel)
	}
	entries, err := d.ReadDir(-1) // unsorted: Walk sorts the full paths at the end
	if err != nil {
		if rel == "" {
			return err
		}
		w.skip(rel, reasonUnreadable, err)
		return nil
	}
	if w.useIgnore {
		stack = w.loadIgnores(rel, entries, stack)
	}
	for _, e := range entries {
		name := e.Name()
		erel := name
		if rel != "" {
			erel = rel + "/" + name
		}
		switch typ := e.Type(); {
		case typ.IsDir():
			if w.skipDirs[name] || stack.ignored(erel, true) {
				continue
			}
			sub, err := openDir(d, path, name)
			if err != nil {
				w.skip(erel, reasonUnreadable, err)
				continue
			}
			err = w.dir(sub, filepath.Join(path, name), erel, stack)
			sub.Close()
			if err != nil {
				return err
			}
		case typ.IsRegular():
			if !stack.ignored(erel, false) {
				w.files = append(w.files, erel)
			}
		case typ&fs.ModeSymlink != 0:
			// Like git, match a symlink as a file, whatever it points to.
			if !w.skipDirs[name] && !stack.ignored(erel, false) {
				w.symlink(filepath.Join(path, name), erel)
			}
		}
		// Sockets, devices and pipes are not source files: drop them.
	}
	if w.onListed != nil {
		w.onListed(rel, entries)
	}
	return nil
}

// loadIgnores returns stack extended with the ignore files of the directory
// at rel: .git/info/exclude for the root, then .gitignore.
func (w *walker) loadIgnores(rel string, entries []fs.DirEntry, stack ignoreStack) ignoreStack {
	for _, e := range entries {
		name := e.Name()
		var relFile string
		switch {
		case rel == "" && name == ".git" && e.IsDir():
			relFile = ".git/info/exclude"
		case name == ".gitignore" && e.Type().IsRegular(): // git does not follow a symlinked .gitignore
			relFile = name
			if rel != "" {
				relFile = rel + "/" + name
			}
		default:
			continue
		}
		data, err := readSide(w.rootDir, relFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.skip(relFile, reasonBadIgnore, err)
			}
			continue
		}
		r := parseIgnore(rel, data)
		if name == ".git" { // lowest precedence: below every .gitignore
			stack = append(ignoreStack{r}, stack...)
		} else {
			stack = append(stack, r)
		}
	}
	return stack
}

// symlink records the symlink at path, whose slash path relative to the root
// is rel, as a file if it resolves to a regular file inside the root.
func (w *walker) symlink(path, rel string) {
	target, err := filepath.EvalSymlinks(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.skip(rel, reasonBroken, nil)
		return
	case err != nil:
		w.skip(rel, reasonUnresolvable, nil)
		return
	case !insideRoot(w.root, target):
		w.skip(rel, reasonEscapes, nil)
		return
	}
	info, err := os.Stat(target)
	switch {
	case err != nil:
		w.skip(rel, reasonBroken, err)
	case info.Mode().IsRegular():
		w.files = append(w.files, rel)
	case info.IsDir():
		w.skip(rel, reasonSymlinkDir, nil)
	}
}

// skip records rel as skipped for reason, with err's cause if err is not nil.
func (w *walker) skip(rel, reason string, err error) {
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in the record
		}
		reason += ": " + err.Error()
	}
	w.skipped = append(w.skipped, Skipped{Path: rel, Reason: reason})
}

// insideRoot reports whether path is root or inside it. Both must be clean,
// absolute and free of symlinks.
func insideRoot(root, path string) bool {
	if path == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(path, root)
}
