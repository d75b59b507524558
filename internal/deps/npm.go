package deps

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// packageJSON is the part of a package.json that names dependencies.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

// direct is the set of names the package itself depends on.
func (p packageJSON) direct() map[string]bool {
	names := map[string]bool{}
	for _, m := range []map[string]string{p.Dependencies, p.DevDependencies, p.OptionalDependencies, p.PeerDependencies} {
		for n := range m {
			names[n] = true
		}
	}
	return names
}

func readPackageJSON(path string) (packageJSON, error) {
	var p packageJSON
	data, err := readFile(path)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// resolveNPM reads the first lockfile of package-lock.json (or
// npm-shrinkwrap.json), pnpm-lock.yaml and yarn.lock at root; with none, it
// reads package.json's dependencies at the versions node_modules holds.
func resolveNPM(root string, opts Options) ([]Dep, error) {
	pkg, err := readPackageJSON(filepath.Join(root, "package.json"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("deps: %w", err)
	}
	direct := pkg.direct()
	for _, lock := range []struct {
		name  string
		read  func(root, file string, direct map[string]bool) ([]Dep, error)
		fetch string
	}{
		{"package-lock.json", readPackageLock, "npm ci"},
		{"npm-shrinkwrap.json", readPackageLock, "npm ci"},
		{"pnpm-lock.yaml", readPNPMLock, "pnpm install --frozen-lockfile"},
		{"yarn.lock", readYarnLock, "yarn install --frozen-lockfile"},
	} {
		if _, err := os.Stat(filepath.Join(root, lock.name)); err != nil {
			continue
		}
		ds, err := lock.read(root, lock.name, direct)
		if err != nil {
			return nil, fmt.Errorf("deps %s: %w", lock.name, err)
		}
		for i := range ds {
			checkNodeModule(root, &ds[i], lock.fetch)
		}
		return ds, nil
	}
	var out []Dep
	for name := range direct {
		d := Dep{Ecosystem: NPM, Name: name, Direct: true, Source: "package.json (no lockfile)", Roots: []string{"."}}
		dir := filepath.Join(root, "node_modules", filepath.FromSlash(name))
		if p, err := readPackageJSON(filepath.Join(dir, "package.json")); err == nil {
			d.Version, d.Status, d.Dir = p.Version, Present, dir
		} else {
			d.Version, d.Status, d.Fetch = pkg.Dependencies[name]+pkg.DevDependencies[name], Missing, "npm install"
		}
		out = append(out, d)
	}
	return out, nil
}

// checkNodeModule sets d's Status and Dir from node_modules. A lockfile
// entry already carrying Dir (npm's nested installs) is checked there.
func checkNodeModule(root string, d *Dep, fetch string) {
	dir := d.Dir
	if dir == "" {
		dir = filepath.Join(root, "node_modules", filepath.FromSlash(d.Name))
	}
	d.Dir = ""
	p, err := readPackageJSON(filepath.Join(dir, "package.json"))
	switch {
	case err != nil:
		d.Status, d.Fetch = Missing, fetch
	case p.Version != d.Version:
		d.Status, d.Found, d.Fetch = Mismatch, p.Version, fetch
	default:
		d.Status, d.Dir = Present, dir
	}
}

// readPackageLock reads npm's lockfile: "packages" keyed by install path
// (lockfileVersion 2 and 3), or the nested "dependencies" of version 1.
func readPackageLock(root, file string, direct map[string]bool) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
			Name    string `json:"name"`
			Link    bool   `json:"link"`
		} `json:"packages"`
		Dependencies map[string]lockV1Dep `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, err
	}
	var out []Dep
	if lock.Packages != nil {
		for key, p := range lock.Packages {
			i := strings.LastIndex(key, "node_modules/")
			if key == "" || i < 0 || p.Link || p.Version == "" {
				continue
			}
			name := key[i+len("node_modules/"):]
			if p.Name != "" {
				name = p.Name
			}
			top := !strings.Contains(key[:i], "node_modules/")
			out = append(out, Dep{Ecosystem: NPM, Name: name, Version: p.Version, Direct: top && direct[name],
				Source: file, Roots: []string{"."}, Dir: filepath.Join(root, filepath.FromSlash(key))})
		}
		return out, nil
	}
	var walk func(prefix string, deps map[string]lockV1Dep, top bool)
	walk = func(prefix string, deps map[string]lockV1Dep, top bool) {
		for name, d := range deps {
			key := prefix + "node_modules/" + name
			out = append(out, Dep{Ecosystem: NPM, Name: name, Version: d.Version, Direct: top && direct[name],
				Source: file, Roots: []string{"."}, Dir: filepath.Join(root, filepath.FromSlash(key))})
			walk(key+"/", d.Dependencies, false)
		}
	}
	walk("", lock.Dependencies, true)
	return out, nil
}

type lockV1Dep struct {
	Version      string               `json:"version"`
	Dependencies map[string]lockV1Dep `json:"dependencies"`
}
