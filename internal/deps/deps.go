package deps

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Ecosystems, as Dep.Ecosystem names them.
const (
	Go     = "go"
	NPM    = "npm"
	Python = "python"
	Cargo  = "cargo"
)

// Status says whether a dependency's source is on disk at its locked version.
type Status string

const (
	// Present: the source is on disk at the locked version.
	Present Status = "present"
	// Missing: locked, but no source on disk; Dep.Fetch says how to get it.
	Missing Status = "missing"
	// Mismatch: on disk at another version than the lockfile's (Dep.Found).
	Mismatch Status = "mismatch"
)

// Dep is one dependency at one version.
type Dep struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	// Direct is true for a dependency the project names itself, false for
	// one only another dependency needs.
	Direct bool   `json:"direct"`
	Status Status `json:"status"`
	// Dir is the absolute directory of its source; "" when Missing.
	Dir string `json:"dir,omitempty"`
	// Roots are the paths under Dir that belong to it, "." for all of Dir.
	// A Python distribution shares site-packages with others: its Roots
	// are its top-level packages and modules.
	Roots []string `json:"roots,omitempty"`
	// Found is the version on disk when Status is Mismatch.
	Found string `json:"found,omitempty"`
	// Source names the file the version came from, relative to the root.
	Source string `json:"source"`
	// Fetch is the command that would bring a Missing dependency.
	Fetch string `json:"fetch,omitempty"`
}

// ID is the dependency's cache key: ecosystem/name@version.
func (d Dep) ID() string { return d.Ecosystem + "/" + d.Name + "@" + d.Version }

// Options tune Resolve. The zero value resolves direct dependencies from
// the process environment.
type Options struct {
	// All includes transitive dependencies, not only direct ones.
	All bool
	// Getenv reads the environment; nil means os.Getenv. Tests set it.
	Getenv func(string) string
	// GoEnv answers `go env GOMODCACHE` when $GOMODCACHE is unset; nil
	// runs go if it is on PATH. Tests set it.
	GoEnv func(key string) string
}

func (o Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

// Resolve lists the dependencies of the project at root. A lockfile that
// cannot be read or parsed is an error naming it; the ecosystems that were
// read still come back with it, so one bad lockfile hides nothing else.
// The result is sorted and never nil.
func Resolve(root string, opts Options) ([]Dep, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("deps %s: %w", root, err)
	}
	var all []Dep
	var errs []error
	for _, r := range []func(string, Options) ([]Dep, error){resolveGo, resolveNPM, resolvePython, resolveCargo} {
		ds, err := r(root, opts)
		all = append(all, ds...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if !opts.All {
		all = slices.DeleteFunc(all, func(d Dep) bool { return !d.Direct })
	}
	slices.SortFunc(all, func(a, b Dep) int {
		return cmp.Or(cmp.Compare(a.Ecosystem, b.Ecosystem), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Version, b.Version))
	})
	all = slices.CompactFunc(all, func(a, b Dep) bool { return a.ID() == b.ID() })
	if all == nil {
		all = []Dep{}
	}
	return all, errors.Join(errs...)
}

// manifests are the files at a project's root that Resolve reads, besides
// requirements*.txt.
var manifests = map[string]bool{
	"go.mod": true, "go.sum": true,
	"package.json": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "pnpm-lock.yaml": true, "yarn.lock": true,
	"pyproject.toml": true, "uv.lock": true, "poetry.lock": true,
	"Cargo.toml": true, "Cargo.lock": true,
}

// IsManifest reports whether a file at a project's root, by its name, is
// one Resolve reads: a change to it may change the dependencies.
func IsManifest(name string) bool {
	return manifests[name] || strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt")
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// readLimit caps what one lockfile or manifest may take in memory.
const readLimit = 64 << 20

// readFile reads a lockfile or manifest, refusing one over readLimit.
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > readLimit {
		return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit", path, fi.Size(), readLimit)
	}
	return os.ReadFile(path)
}
