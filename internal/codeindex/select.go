package codeindex

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
)

// Which source files the code index holds, and in which scope.
//
// Vendored code is code a repository holds a copy of: it is part of what
// a user asks about, but not what the project writes. A directory is a
// vendor root when it is named vendor, third_party, third-party,
// thirdparty, external, extern, _vendor or vendored (vendorNames), is
// not git-ignored (an ignored one holds installed dependencies, which
// the deps scope reads from their lock files), and holds a vendoring
// mark directly inside it or in a directory directly inside it
// (vendorMarks): Go's vendor/modules.txt, pip's _vendor/vendor.txt, a
// licence, or a package manifest of its own (go.mod, package.json,
// Cargo.toml, pyproject.toml, setup.py, composer.json, a gemspec,
// Chromium's README.chromium). The outermost such directory wins. Its
// source files go to the vendor scope (docsearch.ScopeVendor). A vendor/
// directory without a mark is left out, as the walk always left vendor/
// out; an external/ or third_party/ directory without one is the
// project's own code.
//
// A source file of at least minCopyBytes whose bytes are those of another
// source file is indexed once: the copy in the code scope before the one
// in vendor, then the shorter path, then the first by path. The others
// are left out with a reason naming it (Selection.Left).

// vendorNames are the names of the directories that may be vendor roots.
var vendorNames = map[string]bool{
	"vendor": true, "third_party": true, "third-party": true, "thirdparty": true,
	"external": true, "extern": true, "_vendor": true, "vendored": true,
}

// vendorMark returns what the file named base says of the directory it is
// in as vendored code, or "" when it is no vendoring mark.
func vendorMark(base string) string {
	lower := strings.ToLower(base)
	switch lower {
	case "modules.txt":
		return "Go's vendor/modules.txt"
	case "vendor.txt":
		return "a vendor.txt list"
	case "go.mod", "package.json", "cargo.toml", "pyproject.toml", "setup.py", "composer.json", "readme.chromium", "metadata":
		return "a manifest (" + base + ")"
	}
	stem := strings.TrimSuffix(lower, path.Ext(lower))
	switch {
	case stem == "license" || stem == "licence" || stem == "copying" || stem == "notice" ||
		strings.HasPrefix(lower, "license-") || strings.HasPrefix(lower, "license_") || strings.HasPrefix(lower, "licence-"):
		return "a licence (" + base + ")"
	case strings.HasSuffix(lower, ".gemspec"):
		return "a manifest (" + base + ")"
	}
	return ""
}

// copyLimit bounds a file read to be compared: the extractor's cap, over
// which a file is no source it reads.
var copyLimit = bounded.Limit{Kind: "source file", Max: extract.DefaultMaxFileSize}

// minCopyBytes is the least size of a file left out as a copy of
// another: smaller ones (an empty __init__.py, a one-line index.js) are
// alike without being copied.
const minCopyBytes = 256

// VendorRoot is a directory of vendored code.
type VendorRoot struct {
	Dir   string `json:"dir"`   // slash path from the root
	Why   string `json:"why"`   // the mark that makes it vendored: "Go's vendor/modules.txt"
	Files int    `json:"files"` // source files in it, in the vendor scope
}

// Selection is which source files of a workspace the code index holds.
type Selection struct {
	Code   []string            // files of the code scope, sorted
	Vendor []string            // files of the vendor scope, sorted
	Roots  []VendorRoot        // vendor roots, sorted by Dir
	Left   []docsearch.Skipped // source files left out, with why: exact copies, sorted by path
	// info holds what Select learnt of each file by os.Lstat, so that
	// Sync need not ask again (see Lstat).
	info map[string]fs.FileInfo
}

// Held reports whether a file whose os.Lstat is info can have documents
// in the code index: a regular file, never a symbolic link (its target
// is indexed at its own path) nor anything else.
func Held(info fs.FileInfo) bool { return info.Mode().IsRegular() }

// Lstat returns os.Lstat of the file at slash path p under root, as
// Select saw it when it did look.
func (sel *Selection) Lstat(root, p string) (fs.FileInfo, error) {
	if info, ok := sel.info[p]; ok {
		return info, nil
	}
	return lstat(filepath.Join(root, filepath.FromSlash(p)))
}

// SelectOptions tunes Select.
type SelectOptions struct {
	// Dir, when not "", is where the digests of the files compared as
	// possible copies are kept (digestsFile), so that a file unchanged
	// since is not read again.
	Dir string
	// Digest, when set, returns the digest of the file at p as the
	// caller holds it (any stable string of its bytes), or false when it
	// holds none: such a file is not read.
	Digest func(p string) (string, bool)
	// Log hears about a digests file that cannot be read (nil: nothing).
	Log *slog.Logger
	// Yield, when set, is called before each file read to compare
	// copies: the server holds the reads there while a question of the
	// first load reads the tree (on the Linux kernel they took half of
	// the 2 cores from the first find_symbol).
	Yield func()
}

// Select walks the source files under root, as extract.Walk does but
// entering vendor/ directories, and sorts them into the code scope, the
// vendor scope and the copies left out (see above).
func Select(ctx context.Context, root string, opt SelectOptions) (Selection, error) {
	return selectListed(ctx, root, opt, nil)
}

// selectListed is Select, recording in l (nil: nowhere) every directory
// the walk read and the lstat of every file selected (see Scan).
func selectListed(ctx context.Context, root string, opt SelectOptions, l *docsearch.Listing) (Selection, error) {
	sel, err := walkSelect(ctx, root, l)
	if err != nil {
		return Selection{}, err
	}
	if err := sel.dropCopies(ctx, root, opt); err != nil {
		return Selection{}, err
	}
	return sel, nil
}

// walkSelect is selectListed up to the copies: the walk, the scopes and
// l complete, no copy left out yet.
func walkSelect(ctx context.Context, root string, l *docsearch.Listing) (Selection, error) {
	wopt := extract.WalkOptions{Enter: []string{"vendor"}, Dir: dirHook}
	if l != nil {
		wopt.Listed = func(rel string, entries []fs.DirEntry) {
			if rel == "" {
				rel = "."
			}
			l.AddDir(rel, entries)
		}
	}
	paths, _, err := extract.Walk(ctx, root, wopt)
	if err != nil {
		return Selection{}, err
	}
	var sel Selection
	roots := vendorRoots(paths)
	count := map[string]int{}
	for _, p := range paths {
		if extract.UnknownByName(p) {
			continue
		}
		r, vendored := rootOf(roots, p)
		switch {
		case vendored:
			// A vendored file is one of a language known by its name:
			// a licence or a README without an extension is no script.
			if extract.LanguageOf(p, nil) != nil {
				sel.Vendor = append(sel.Vendor, p)
				count[r]++
			}
		case underVendorDir(p):
			// an unmarked vendor/: left out, as the walk always left it
		default:
			sel.Code = append(sel.Code, p)
		}
	}
	for dir, why := range roots {
		if count[dir] > 0 { // a root without source files is not listed
			sel.Roots = append(sel.Roots, VendorRoot{Dir: dir, Why: why, Files: count[dir]})
		}
	}
	slices.SortFunc(sel.Roots, func(a, b VendorRoot) int { return strings.Compare(a.Dir, b.Dir) })
	sel.info = statAll(root, sel.Code, sel.Vendor)
	if l != nil {
		info := sel.info // never written again
		l.SetStats(func(p string) (docsearch.FileStat, bool) {
			fi, ok := info[p]
			if !ok {
				return docsearch.FileStat{}, false
			}
			return docsearch.FileStat{Mode: fi.Mode(), Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, true
		})
	}
	return sel, nil
}

// vendorRoots returns the vendor roots among the directories of paths,
// with the mark that makes each one: the outermost of nested ones.
func vendorRoots(paths []string) map[string]string {
	marks := map[string]string{} // candidate dir -> mark
	for _, p := range paths {
		why := vendorMark(path.Base(p))
		if why == "" {
			continue
		}
		dir := path.Dir(p)
		// The mark is directly in a candidate, or in a directory
		// directly inside one.
		for _, d := range []string{dir, path.Dir(dir)} {
			if d != "." && vendorNames[path.Base(d)] {
				if old, ok := marks[d]; !ok || why < old {
					marks[d] = why
				}
			}
		}
	}
	roots := map[string]string{}
	for d, why := range marks {
		outer := false
		for a := path.Dir(d); a != "."; a = path.Dir(a) {
			if _, ok := marks[a]; ok {
				outer = true
				break
			}
		}
		if !outer {
			roots[d] = why
		}
	}
	return roots
}

// rootOf returns the vendor root p is under, if any.
func rootOf(roots map[string]string, p string) (string, bool) {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if _, ok := roots[d]; ok {
			return d, true
		}
	}
	return "", false
}

// underVendorDir reports whether p is inside a directory named vendor.
func underVendorDir(p string) bool {
	return strings.HasPrefix(p, "vendor/") || strings.Contains(p, "/vendor/")
}

// dropCopies leaves out of sel the source files that are byte for byte
// copies of another (see above). Only files of at least minCopyBytes that
// share their size with another are compared.
func (sel *Selection) dropCopies(ctx context.Context, root string, opt SelectOptions) error {
	type file struct {
		p      string
		vendor bool
		size   int64
		mtime  int64
	}
	bySize := map[int64][]file{}
	for _, list := range []struct {
		paths  []string
		vendor bool
	}{{sel.Code, false}, {sel.Vendor, true}} {
		for _, p := range list.paths {
			info, ok := sel.info[p] // see statAll
			// A file of no language known by its name (a README, a
			// script without an extension) is no copy of source.
			if !ok || !info.Mode().IsRegular() || info.Size() < minCopyBytes || extract.LanguageOf(p, nil) == nil {
				continue
			}
			bySize[info.Size()] = append(bySize[info.Size()], file{p, list.vendor, info.Size(), info.ModTime().UnixNano()})
		}
	}
	var cache map[string]digestStamp
	var legacy bool
	if opt.Dir != "" {
		cache, legacy = readDigests(opt.Dir, opt.Log)
	}
	kept := map[string]digestStamp{}
	var rootDir *os.Root
	var err error
	left := map[string]string{} // copy -> the file indexed
	for _, group := range bySize {
		if len(group) < 2 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		byDigest := map[string][]file{}
		for _, f := range group {
			d, ok := "", false
			if opt.Digest != nil {
				d, ok = opt.Digest(f.p)
			}
			if !ok {
				if c, hit := cache[f.p]; hit && c.Size == f.size && c.Mtime == f.mtime {
					d, ok = c.SHA256, true
				}
			}
			if !ok {
				if rootDir == nil {
					if rootDir, err = os.OpenRoot(root); err != nil {
						return fmt.Errorf("compare copies in %s: %w", root, err)
					}
					defer rootDir.Close()
				}
				if opt.Yield != nil {
					opt.Yield()
				}
				src, err := bounded.ReadFileIn(rootDir, f.p, copyLimit)
				if err != nil {
					continue // unreadable: the extractor says why
				}
				sum := sha256.Sum256(src)
				d, ok = hex.EncodeToString(sum[:]), true
			}
			if opt.Digest == nil {
				kept[f.p] = digestStamp{f.size, f.mtime, d}
			}
			byDigest[d] = append(byDigest[d], f)
		}
		for _, same := range byDigest {
			if len(same) < 2 {
				continue
			}
			slices.SortFunc(same, func(a, b file) int {
				av, bv := 0, 0
				if a.vendor {
					av = 1
				}
				if b.vendor {
					bv = 1
				}
				return cmp.Or(av-bv, len(a.p)-len(b.p), strings.Compare(a.p, b.p))
			})
			for _, f := range same[1:] {
				left[f.p] = same[0].p
			}
		}
	}
	if opt.Dir != "" && opt.Digest == nil && (legacy || !equalDigests(cache, kept)) {
		if err := writeDigests(opt.Dir, kept); err != nil {
			return err
		}
	}
	if len(left) == 0 {
		return nil
	}
	keep := func(p string) bool { _, out := left[p]; return !out }
	sel.Code = slices.DeleteFunc(sel.Code, func(p string) bool { return !keep(p) })
	sel.Vendor = slices.DeleteFunc(sel.Vendor, func(p string) bool { return !keep(p) })
	for p, orig := range left {
		sel.Left = append(sel.Left, docsearch.Skipped{Path: p, Reason: "exact copy of " + orig + ": read once, as " + orig})
	}
	slices.SortFunc(sel.Left, func(a, b docsearch.Skipped) int { return strings.Compare(a.Path, b.Path) })
	for i := range sel.Roots {
		r := &sel.Roots[i]
		r.Files = 0
		for _, p := range sel.Vendor {
			if strings.HasPrefix(p, r.Dir+"/") {
				r.Files++
			}
		}
	}
	sel.Roots = slices.DeleteFunc(sel.Roots, func(r VendorRoot) bool { return r.Files == 0 })
	return nil
}
