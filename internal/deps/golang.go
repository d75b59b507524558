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
	mf, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("deps: %w", err)
	}
	sums := readGoSum(filepath.Join(root, "go.sum"))
	cache := goModCache(opts)
	var out []Dep
	for _, r := range mf.Require {
		d := Dep{Ecosystem: Go, Name: r.Mod.Path, Version: r.Mod.Version, Direct: !r.Indirect, Source: "go.mod", Roots: []string{"."}}
		target := r.Mod
		if rep := replacement(mf, r.Mod); rep != nil {
			if rep.Version == "" { // a local directory
				dir := rep.Path
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(root, dir)
				}
				d.Version = "(local " + rep.Path + ")"
				if isDir(dir) {
					d.Status, d.Dir = Present, dir
				} else {
					d.Status = Missing
				}
				out = append(out, d)
				continue
			}
			target = *rep
		}
		if sums != nil && !sums[target.Path+" "+target.Version] {
			d.Source = "go.mod (not in go.sum)"
		} else if sums != nil {
			d.Source = "go.sum"
		}
		d.Status = Missing
		d.Fetch = "go mod download " + target.Path + "@" + target.Version
		if dir := moduleDir(cache, target); dir != "" && isDir(dir) {
			d.Status, d.Dir, d.Fetch = Present, dir, ""
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

// readGoSum returns the "path version" pairs go.sum locks the source of
// (its /go.mod-only lines excluded), or nil when there is no go.sum.
func readGoSum(path string) map[string]bool {
	data, err := readFile(path)
	if err != nil {
		return nil
	}
	locked := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || strings.HasSuffix(f[1], "/go.mod") {
			continue
		}
		locked[f[0]+" "+f[1]] = true
	}
	return locked
}

// moduleDir is where the module cache holds m's source, "" if unknown.
func moduleDir(cache string, m module.Version) string {
	if cache == "" {
		return ""
	}
	p, err := module.EscapePath(m.Path)
	if err != nil {
		return ""
	}
	v, err := module.EscapeVersion(m.Version)
	if err != nil {
		return ""
	}
	return filepath.Join(cache, filepath.FromSlash(p)+"@"+v)
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
