package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// The tree bench ccallers checks: its C files, the truth scanner's view
// of their call sites and definitions, and the functions it checks.

// cFiles lists the .c and .h files under root, slash paths, sorted; .git
// and other dot directories are left out.
func cFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bench ccallers: list %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

func inDirs(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// cTree is the truth scanner's view of the tree.
type cTree struct {
	sites  map[string]map[cSite]int // name → call site → end line of its function
	protos map[string]bool          // names declared in headers under include/
	defs   map[string][]cDef        // definitions in .c files of the checked dirs
}

type cDef struct {
	file   string
	line   int
	static bool
}

// scanTree scans the files of dirs (call sites, definitions) and the
// headers under include/ (prototypes), on every core.
func scanTree(ctx context.Context, root string, files, dirs []string) (*cTree, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("bench ccallers: %w", err)
	}
	defer r.Close()
	var todo []string
	for _, f := range files {
		if inDirs(f, dirs) || strings.HasPrefix(f, "include/") && strings.HasSuffix(f, ".h") {
			todo = append(todo, f)
		}
	}
	scans := make([]*cTruthFile, len(todo))
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(runtime.GOMAXPROCS(0)) // lexing is CPU-bound
	for i, f := range todo {
		eg.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			src, err := bounded.ReadFileIn(r, filepath.FromSlash(f), cSourceFile)
			if err != nil {
				var skip *bounded.SkipError
				if errors.As(err, &skip) {
					return nil // not a regular file, or too big: not C the check can read
				}
				return fmt.Errorf("bench ccallers: read %s: %w", f, err)
			}
			scans[i] = scanCTruth(src)
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	t := &cTree{sites: map[string]map[cSite]int{}, protos: map[string]bool{}, defs: map[string][]cDef{}}
	for i, f := range todo {
		s := scans[i]
		if s == nil {
			continue
		}
		if !inDirs(f, dirs) {
			for _, p := range s.protos {
				t.protos[p] = true
			}
			continue
		}
		for _, c := range s.calls {
			m := t.sites[c.name]
			if m == nil {
				m = map[cSite]int{}
				t.sites[c.name] = m
			}
			m[cSite{f, c.line}] = s.funcs[c.fn].end
		}
		if strings.HasSuffix(f, ".c") {
			for _, fn := range s.funcs {
				t.defs[fn.name] = append(t.defs[fn.name], cDef{f, fn.line, fn.static})
			}
		}
	}
	return t, nil
}

// chooseTargets returns the named functions and a sample of others: the
// functions declared in a header under include/, defined once in a .c
// file of the checked dirs (not static), with at least minSites call
// sites there, the first n by FNV-1a hash of their names. Named
// functions that break the first two conditions are skipped, with why.
func chooseTargets(t *cTree, names []string, n, minSites int) (out []*cTarget, skipped []string) {
	ok := func(name string) (cDef, string) {
		defs := t.defs[name]
		switch {
		case !t.protos[name]:
			return cDef{}, "no prototype in include/"
		case len(defs) != 1:
			return cDef{}, fmt.Sprintf("%d definitions in the checked dirs", len(defs))
		case defs[0].static:
			return cDef{}, "static"
		}
		return defs[0], ""
	}
	add := func(name string, d cDef, fixed bool) {
		out = append(out, &cTarget{name: name, file: d.file, line: d.line, truth: t.sites[name], fixed: fixed})
	}
	for _, name := range names {
		d, why := ok(name)
		if why != "" {
			skipped = append(skipped, name+": "+why)
			continue
		}
		add(name, d, true)
	}
	type cand struct {
		name string
		hash uint32
	}
	var cands []cand
	for name := range t.protos {
		if slices.Contains(names, name) || len(t.sites[name]) < minSites {
			continue
		}
		if _, why := ok(name); why != "" {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(name))
		cands = append(cands, cand{name, h.Sum32()})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].hash != cands[j].hash {
			return cands[i].hash < cands[j].hash
		}
		return cands[i].name < cands[j].name
	})
	for _, c := range cands[:min(n, len(cands))] {
		d, _ := ok(c.name)
		add(c.name, d, false)
	}
	return out, skipped
}
