package deps

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// resolveCargo reads Cargo.lock; the crates Cargo.toml names (in its
// [dependencies], [dev-dependencies], [build-dependencies], target tables
// and [workspace.dependencies]) are direct. Registry crates are looked up
// in $CARGO_HOME/registry/src; path and git crates are left out.
func resolveCargo(root string, opts Options) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, "Cargo.lock"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deps Cargo.lock: %w", err)
	}
	var lock struct {
		Package []struct {
			Name     string `toml:"name"`
			Version  string `toml:"version"`
			Source   string `toml:"source"`
			Checksum string `toml:"checksum"`
		} `toml:"package"`
		// Metadata holds the checksums of lockfile version 1, keyed
		// "checksum NAME VERSION (SOURCE)".
		Metadata map[string]any `toml:"metadata"`
	}
	if _, err := toml.Decode(string(data), &lock); err != nil {
		return nil, fmt.Errorf("deps Cargo.lock: %w", err)
	}
	direct, err := declaredCargo(root)
	if err != nil {
		return nil, err
	}
	srcDirs := cargoRegistries(opts)
	var out []Dep
	for _, p := range lock.Package {
		if !strings.HasPrefix(p.Source, "registry+") && !strings.HasPrefix(p.Source, "sparse+") {
			continue // the workspace's own crates, path and git dependencies
		}
		d := Dep{Ecosystem: Cargo, Name: p.Name, Version: p.Version, Direct: direct[p.Name], Source: "Cargo.lock",
			Status: Missing, Fetch: "cargo fetch", Roots: []string{"."}, Integrity: p.Checksum}
		if sum, ok := lock.Metadata["checksum "+p.Name+" "+p.Version+" ("+p.Source+")"].(string); ok && d.Integrity == "" {
			d.Integrity = sum
		}
		if err := checkName(p.Name, p.Version, cargoName, cargoVersion); err != nil {
			refuse(&d, "Cargo.lock: "+err.Error())
			out = append(out, d)
			continue
		}
		for _, reg := range srcDirs {
			if place(&d, reg, filepath.Join(reg, p.Name+"-"+p.Version), "Cargo registry") || d.Status == Refused {
				break
			}
			d.Status, d.Fetch = Missing, "cargo fetch"
		}
		if d.Status == Present {
			d.Fetch = ""
		}
		out = append(out, d)
	}
	return out, nil
}

// cargoRegistries lists $CARGO_HOME/registry/src/* (CARGO_HOME defaults
// to $HOME/.cargo), sorted.
func cargoRegistries(opts Options) []string {
	home := opts.getenv("CARGO_HOME")
	if home == "" {
		h := opts.getenv("HOME")
		if h == "" {
			return nil
		}
		home = filepath.Join(h, ".cargo")
	}
	dirs, _ := filepath.Glob(filepath.Join(home, "registry", "src", "*"))
	sort.Strings(dirs)
	return dirs
}

// declaredCargo is the set of crates Cargo.toml names, by package name
// (a renamed dependency counts under its `package`).
func declaredCargo(root string) (map[string]bool, error) {
	data, err := readFile(filepath.Join(root, "Cargo.toml"))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deps Cargo.toml: %w", err)
	}
	type table = map[string]any
	var manifest struct {
		Dependencies      table `toml:"dependencies"`
		DevDependencies   table `toml:"dev-dependencies"`
		BuildDependencies table `toml:"build-dependencies"`
		Target            map[string]struct {
			Dependencies      table `toml:"dependencies"`
			DevDependencies   table `toml:"dev-dependencies"`
			BuildDependencies table `toml:"build-dependencies"`
		} `toml:"target"`
		Workspace struct {
			Dependencies table `toml:"dependencies"`
		} `toml:"workspace"`
	}
	if _, err := toml.Decode(string(data), &manifest); err != nil {
		return nil, fmt.Errorf("deps Cargo.toml: %w", err)
	}
	tables := []table{manifest.Dependencies, manifest.DevDependencies, manifest.BuildDependencies, manifest.Workspace.Dependencies}
	for _, t := range manifest.Target {
		tables = append(tables, t.Dependencies, t.DevDependencies, t.BuildDependencies)
	}
	names := map[string]bool{}
	for _, t := range tables {
		for key, v := range t {
			name := key
			if spec, ok := v.(map[string]any); ok {
				if pkg, ok := spec["package"].(string); ok {
					name = pkg
				}
			}
			names[name] = true
		}
	}
	return names, nil
}
