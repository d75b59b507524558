package deps

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/internal/bounded"
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
	// Refused: the lockfile or manifest names a path that leads outside
	// the place the dependency must come from, or a name or version that
	// is not one; Dep.Reason says which. Nothing of it is read.
	Refused Status = "refused"
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
	// Reason says why a dependency was Refused.
	Reason string `json:"reason,omitempty"`
	// Integrity is what the lockfile records of the version's content:
	// npm's integrity (of its tarball), go.sum's h1:, Cargo.lock's
	// checksum; for an installed Python distribution, a hash of its
	// RECORD. It is a claim about what was downloaded, not a proof of
	// what is on disk now: node_modules can be patched by hand.
	Integrity string `json:"integrity,omitempty"`
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
//
// Every path that comes out of a lockfile or manifest is resolved, symbolic
// links included, and must lie inside the place the dependency comes from:
// the project's node_modules, the module cache, the virtualenv's
// site-packages, Cargo's registry, or the workspace for a go.mod replace
// by a local directory. Names and versions must be names and versions.
// A dependency that breaks either rule is Refused with the reason, and
// its Dir is never set; a Present dependency's Dir has no symbolic link
// left in it.
func Resolve(root string, opts Options) ([]Dep, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("deps %s: %w", root, err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
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
		return cmp.Or(cmp.Compare(a.Ecosystem, b.Ecosystem), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Version, b.Version),
			cmp.Compare(rank[a.Status], rank[b.Status]), cmp.Compare(a.Reason, b.Reason))
	})
	// One version installed at several places is one dependency; a
	// refusal is never folded into a version that was found.
	all = slices.CompactFunc(all, func(a, b Dep) bool {
		return a.ID() == b.ID() && (a.Status == Refused) == (b.Status == Refused) && a.Reason == b.Reason
	})
	if all == nil {
		all = []Dep{}
	}
	return all, errors.Join(errs...)
}

// rank orders the statuses of one version found at several places: the
// one on disk is kept.
var rank = map[Status]int{Present: 0, Mismatch: 1, Missing: 2, Refused: 3}

// manifests are the files at a project's root that Resolve reads, besides
// requirements*.txt.
var manifests = map[string]bool{
	"go.mod": true, "go.sum": true,
	"package.json": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "pnpm-lock.yaml": true, "yarn.lock": true,
	"pyproject.toml": true, "uv.lock": true, "poetry.lock": true,
	"Cargo.toml": true, "Cargo.lock": true,
}

// Manifests lists the files Resolve looks for at a project's root, sorted,
// requirements*.txt among them, for messages.
func Manifests() []string {
	out := slices.Sorted(maps.Keys(manifests))
	return append(out, "requirements*.txt")
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

// readFile reads a lockfile or manifest through the bounded reader: a
// regular file, not a symbolic link, FIFO or device, of at most
// bounded.Manifest bytes.
func readFile(path string) ([]byte, error) { return bounded.ReadFile(path, bounded.Manifest) }
