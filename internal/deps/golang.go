package deps

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// resolveGo reads go.mod and go.sum at root. Every require is a
// dependency; one marked // indirect is not Direct. A replace with a module
// path locks that module and version instead; one with a local directory
// points at that directory.
func resolveGo(root string, opts Options) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, "go.mod"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deps go.mod: %w", err)
	}
	// Parse, not ParseLax: ParseLax drops replace directives. A go.mod
	// with a directive this x/mod does not know is read laxly.
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		if mf, err = modfile.ParseLax("go.mod", data, nil); err != nil {
			return nil, fmt.Errorf("deps: %w", err)
		}
	}
	sums := readGoSum(filepath.Join(root, "go.sum"))
	cache := goModCache(opts)
	var out []Dep
	for _, r := range mf.Require {
		d := Dep{Ecosystem: Go, Name: r.Mod.Path, Version: r.Mod.Version, Direct: !r.Indirect, Source: "go.mod", Roots: []string{"."}}
		target := r.Mod
		if rep := replacement(mf, r.Mod); rep != nil {
			if rep.Version == "" { // a local directory: the workspace's own
				dir := rep.Path
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(root, dir)
				}
				d.Version = "(local " + rep.Path + ")"
				place(&d, root, dir, "go.mod replaces "+r.Mod.Path+" with "+rep.Path+", a directory that must be inside the workspace")
				out = append(out, d)
				continue
			}
			target = *rep
		}
		h1, locked := sums[target.Path+" "+target.Version]
		if sums != nil && !locked {
			d.Source = "go.mod (not in go.sum)"
		} else if sums != nil {
			d.Source, d.Integrity = "go.sum", h1
		}
		dir, err := moduleDir(cache, target)
		switch {
		case err != nil:
			refuse(&d, "go.mod: "+err.Error())
		case dir != "" && place(&d, cache, dir, "module cache"):
		case d.Status != Refused:
			d.Status, d.Fetch = Missing, "go mod download "+target.Path+"@"+target.Version
		}
		out = append(out, d)
	}
	return out, nil
}

// replacement returns what m is replaced by, or nil. A replace naming m's
// version wins over one for all versions of its path.
func replacement(mf *modfile.File, m module.Version) *module.Version {
	var any *module.Version
	for _, r := range mf.Replace {
		if r.Old.Path != m.Path {
			continue
		}
		if r.Old.Version == m.Version {
			return &r.New
		}
		if r.Old.Version == "" {
			any = &r.New
		}
	}
	return any
}

// readGoSum maps the "path version" pairs go.sum locks the source of
// (its /go.mod-only lines excluded) to their h1: hash, or returns nil
// when there is no go.sum.
func readGoSum(path string) map[string]string {
	data, err := readFile(path)
	if err != nil {
		return nil
	}
	locked := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || strings.HasSuffix(f[1], "/go.mod") {
			continue
		}
		locked[f[0]+" "+f[1]] = f[2]
	}
	return locked
}

// moduleDir is where the module cache holds m's source, "" when there is
// no module cache. A path or version that is not one is an error: it is
// never made into a path.
func moduleDir(cache string, m module.Version) (string, error) {
	p, err := module.EscapePath(m.Path)
	if err != nil {
		return "", err
	}
	v, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", fmt.Errorf("module %s: %w", m.Path, err)
	}
	if cache == "" {
		return "", nil
	}
	return filepath.Join(cache, filepath.FromSlash(p)+"@"+v), nil
}

// goModCache finds the module cache as the go command would: $GOMODCACHE,
// then `go env GOMODCACHE` (which reads go's own env file), then the first
// $GOPATH entry's pkg/mod, then $HOME/go/pkg/mod.
func goModCache(opts Options) string {
	if c := opts.getenv("GOMODCACHE"); c != "" {
		return c
	}
	goEnv := opts.GoEnv
	if goEnv == nil {
		goEnv = runGoEnv
	}
	if c := goEnv("GOMODCACHE"); c != "" {
		return c
	}
	if gp := opts.getenv("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if home := opts.getenv("HOME"); home != "" {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}

// goEnvCache remembers runGoEnv's answers: the go command's settings do
// not change under a running process, and starting it costs ~50 ms.
var goEnvCache sync.Map // key → string

// runGoEnv asks the go command for one setting; "" if go is not installed.
func runGoEnv(key string) string {
	if v, ok := goEnvCache.Load(key); ok {
		return v.(string)
	}
	v := ""
	if gobin, err := exec.LookPath("go"); err == nil {
		if out, err := exec.Command(gobin, "env", key).Output(); err == nil {
			v = strings.TrimSpace(string(out))
		}
	}
	goEnvCache.Store(key, v)
	return v
}
