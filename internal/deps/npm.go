package deps

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
		if _, err := os.Lstat(filepath.Join(root, lock.name)); err != nil {
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
		if err := npmName(name); err != nil {
			refuse(&d, "package.json: "+err.Error())
		} else if p, ok := nodeModule(root, &d); ok {
			d.Version = p.Version
			if err := checkVersion(p.Version); err != nil {
				refuse(&d, fmt.Sprintf("node_modules/%s/package.json: %v", name, err))
			}
		} else if d.Status != Refused {
			d.Version, d.Status, d.Fetch = pkg.Dependencies[name]+pkg.DevDependencies[name], Missing, "npm install"
		}
		out = append(out, d)
	}
	return out, nil
}

// checkNodeModule sets d's Status and Dir from node_modules (see
// nodeModule). A Refused d is left as it is.
func checkNodeModule(root string, d *Dep, fetch string) {
	if d.Status == Refused {
		return
	}
	p, ok := nodeModule(root, d)
	switch {
	case d.Status == Refused:
	case !ok:
		d.Status, d.Fetch = Missing, fetch
	case p.Version != d.Version:
		d.Status, d.Dir, d.Found, d.Fetch = Mismatch, "", p.Version, fetch
	}
}

// nodeModule finds d in the project's node_modules: at d.Dir, the install
// path a lockfile gave, or else node_modules/NAME. The node_modules
// directory the path starts in (the project's, or a workspace package's)
// must resolve inside root, and d's directory inside it, after symbolic
// links: pnpm's node_modules/foo -> .pnpm/foo@1.0.0/node_modules/foo is
// followed, a link out of the project refuses d. It returns the
// package.json there, and whether d is Present (Dir set, real path).
func nodeModule(root string, d *Dep) (packageJSON, bool) {
	dir := d.Dir
	if dir == "" {
		dir = filepath.Join(root, "node_modules", filepath.FromSlash(d.Name))
	}
	rel, err := filepath.Rel(root, dir)
	elems := strings.Split(filepath.ToSlash(rel), "/")
	first := slices.Index(elems, "node_modules")
	if err != nil || !filepath.IsLocal(rel) || first < 0 {
		refuse(d, fmt.Sprintf("%s is not under a node_modules of the project", dir))
		return packageJSON{}, false
	}
	nm := filepath.Join(root, filepath.FromSlash(strings.Join(elems[:first+1], "/")))
	if !place(d, root, nm, "node_modules") {
		return packageJSON{}, false
	}
	if !place(d, d.Dir, dir, filepath.ToSlash(rel)) {
		return packageJSON{}, false
	}
	p, err := readPackageJSON(filepath.Join(d.Dir, "package.json"))
	if err != nil {
		d.Status, d.Dir = Missing, ""
		return p, false
	}
	return p, true
}

// readPackageLock reads npm's lockfile: "packages" keyed by install path
// (lockfileVersion 2 and 3), or the nested "dependencies" of version 1.
// An install path is data: one with an empty, "." or ".." element, or
// whose name is not a package name, is Refused.
func readPackageLock(root, file string, direct map[string]bool) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Name      string `json:"name"`
			Link      bool   `json:"link"`
			Integrity string `json:"integrity"`
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
			d := Dep{Ecosystem: NPM, Name: name, Version: p.Version, Direct: top && direct[name],
				Source: file, Roots: []string{"."}, Integrity: p.Integrity}
			if err := lockPath(key, name, p.Version); err != nil {
				refuse(&d, fmt.Sprintf("%s: %v", file, err))
			} else {
				d.Dir = filepath.Join(root, filepath.FromSlash(key))
			}
			out = append(out, d)
		}
		return out, nil
	}
	var walk func(prefix string, deps map[string]lockV1Dep, top bool)
	walk = func(prefix string, deps map[string]lockV1Dep, top bool) {
		for name, dep := range deps {
			key := prefix + "node_modules/" + name
			d := Dep{Ecosystem: NPM, Name: name, Version: dep.Version, Direct: top && direct[name],
				Source: file, Roots: []string{"."}, Integrity: dep.Integrity}
			if err := lockPath(key, name, dep.Version); err != nil {
				refuse(&d, fmt.Sprintf("%s: %v", file, err))
				out = append(out, d)
				continue // what it nests is under a path that is not one
			}
			d.Dir = filepath.Join(root, filepath.FromSlash(key))
			out = append(out, d)
			walk(key+"/", dep.Dependencies, false)
		}
	}
	walk("", lock.Dependencies, true)
	return out, nil
}

// lockPath checks an install path of package-lock.json, the name it
// installs and its version.
func lockPath(key, name, version string) error {
	if bad := badElems(key); bad != "" {
		return fmt.Errorf("install path %q %s", key, bad)
	}
	if err := npmName(key[strings.LastIndex(key, "node_modules/")+len("node_modules/"):]); err != nil {
		return fmt.Errorf("install path %q: %w", key, err)
	}
	if err := npmName(name); err != nil {
		return err
	}
	return checkVersion(version)
}

type lockV1Dep struct {
	Version      string               `json:"version"`
	Integrity    string               `json:"integrity"`
	Dependencies map[string]lockV1Dep `json:"dependencies"`
}
