package deps

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readPNPMLock reads pnpm-lock.yaml: the root importer's dependencies
// (lockfile 6 and 9, or the top-level maps of lockfile 5) are direct;
// every key of "packages" is a dependency.
func readPNPMLock(root, file string, _ map[string]bool) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Importers    map[string]pnpmImporter `yaml:"importers"`
		pnpmImporter `yaml:",inline"`
		Packages     map[string]yaml.Node `yaml:"packages"`
	}
	if err := yaml.Unmarshal(data, &lock); err != nil {
		return nil, err
	}
	integrity := map[string]string{} // name@version → resolution.integrity
	for key, n := range lock.Packages {
		var p struct {
			Resolution struct {
				Integrity string `yaml:"integrity"`
			} `yaml:"resolution"`
		}
		if name, version := pnpmKey(key); name != "" && n.Decode(&p) == nil && p.Resolution.Integrity != "" {
			integrity[name+"@"+pnpmVersion(version)] = p.Resolution.Integrity
		}
	}
	imp := lock.pnpmImporter
	if i, ok := lock.Importers["."]; ok {
		imp = i
	}
	byID := map[string]*Dep{}
	var order []string
	add := func(name, version string, direct bool) {
		version = pnpmVersion(version)
		if name == "" || version == "" || strings.ContainsAny(version, ":/") { // link:, file:, git URLs
			return
		}
		id := name + "@" + version
		if d, ok := byID[id]; ok {
			d.Direct = d.Direct || direct
			return
		}
		d := &Dep{Ecosystem: NPM, Name: name, Version: version, Direct: direct, Source: file, Roots: []string{"."}, Integrity: integrity[id]}
		if err := cmp.Or(npmName(name), checkVersion(version)); err != nil {
			refuse(d, fmt.Sprintf("%s: %v", file, err))
		}
		byID[id] = d
		order = append(order, id)
	}
	for _, m := range []map[string]yaml.Node{imp.Dependencies, imp.DevDependencies, imp.OptionalDependencies} {
		for name, n := range m {
			add(name, pnpmSpecVersion(n), true)
		}
	}
	for key := range lock.Packages {
		name, version := pnpmKey(key)
		add(name, version, false)
	}
	out := make([]Dep, 0, len(order))
	for _, id := range order {
		d := byID[id]
		if !d.Direct && d.Status != Refused {
			// Not hoisted: pnpm's store dir holds it under node_modules/.pnpm.
			d.Dir = filepath.Join(root, "node_modules", ".pnpm",
				strings.ReplaceAll(d.Name, "/", "+")+"@"+d.Version, "node_modules", filepath.FromSlash(d.Name))
		}
		out = append(out, *d)
	}
	return out, nil
}

type pnpmImporter struct {
	Dependencies         map[string]yaml.Node `yaml:"dependencies"`
	DevDependencies      map[string]yaml.Node `yaml:"devDependencies"`
	OptionalDependencies map[string]yaml.Node `yaml:"optionalDependencies"`
}

// pnpmSpecVersion reads a dependency entry: a plain version (lockfile 5)
// or a {specifier, version} map (lockfile 6 and 9).
func pnpmSpecVersion(n yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	var m struct {
		Version string `yaml:"version"`
	}
	if n.Decode(&m) != nil {
		return ""
	}
	return m.Version
}

// pnpmVersion drops the peer-dependency suffix pnpm appends to a version:
// "18.2.0(react@18.2.0)" in lockfile 6+, "4.0.0_react@18.2.0" in 5.
func pnpmVersion(v string) string {
	if i := strings.IndexAny(v, "(_"); i >= 0 {
		v = v[:i]
	}
	return v
}

// pnpmKey splits a "packages" key: "/name/1.0.0" (lockfile 5),
// "/name@1.0.0" (6) or "name@1.0.0" (9), names possibly scoped.
func pnpmKey(key string) (name, version string) {
	key = strings.TrimPrefix(key, "/")
	if i := strings.IndexByte(key, '('); i >= 0 {
		key = key[:i]
	}
	if at := strings.LastIndexByte(key, '@'); at > 0 {
		return key[:at], key[at+1:]
	}
	if sl := strings.LastIndexByte(key, '/'); sl > 0 {
		return key[:sl], key[sl+1:]
	}
	return "", ""
}

// readYarnLock reads yarn.lock of yarn 1 (`version "1.0.0"`) and of yarn
// 2+ (`version: 1.0.0`). An entry is direct when one of its specifiers is
// exactly what package.json asks for.
func readYarnLock(root, file string, _ map[string]bool) ([]Dep, error) {
	data, err := readFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	pkg, _ := readPackageJSON(filepath.Join(root, "package.json"))
	wanted := map[string]bool{}
	for _, m := range []map[string]string{pkg.Dependencies, pkg.DevDependencies, pkg.OptionalDependencies} {
		for n, r := range m {
			wanted[n+"@"+r] = true
			wanted[n+"@npm:"+r] = true
		}
	}
	var out []Dep
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line[0] != ' ' && strings.HasSuffix(line, ":"):
			cur = -1
			name, direct := "", false
			for _, spec := range strings.Split(strings.TrimSuffix(line, ":"), ",") {
				spec = strings.Trim(strings.TrimSpace(spec), `"`)
				if at := strings.LastIndexByte(spec, '@'); at > 0 {
					name = spec[:at]
					if i := strings.Index(name, "@npm:"); i > 0 { // berry: "name@npm:^1.0.0"
						name = name[:i]
					}
				}
				direct = direct || wanted[spec]
			}
			if name != "" && name != "__metadata" && !strings.Contains(line, "@workspace:") && !strings.Contains(line, "@link:") {
				out = append(out, Dep{Ecosystem: NPM, Name: name, Direct: direct, Source: file, Roots: []string{"."}})
				cur = len(out) - 1
			}
		case cur >= 0 && len(line) > 2 && line[:2] == "  " && line[2] != ' ': // a field of the entry, not of its dependencies
			field, v := yarnField(line)
			switch field {
			case "version":
				out[cur].Version = v
			case "integrity", "checksum": // yarn 1, yarn 2+
				out[cur].Integrity = v
			}
		}
	}
	// Several specifiers of one name and version are one dependency.
	seen := map[string]int{}
	kept := out[:0]
	for _, d := range out {
		if d.Version == "" {
			continue
		}
		if i, ok := seen[d.ID()]; ok {
			kept[i].Direct = kept[i].Direct || d.Direct
			continue
		}
		if err := cmp.Or(npmName(d.Name), checkVersion(d.Version)); err != nil {
			refuse(&d, fmt.Sprintf("%s: %v", file, err))
		}
		seen[d.ID()] = len(kept)
		kept = append(kept, d)
	}
	return kept, sc.Err()
}

// yarnField splits an entry's field line, `  version "1.0.0"` (yarn 1) or
// `  version: 1.0.0` (yarn 2+), into its name and unquoted value.
func yarnField(line string) (name, value string) {
	name, value, _ = strings.Cut(strings.TrimSpace(line), " ")
	return strings.TrimSuffix(name, ":"), strings.Trim(strings.TrimSpace(value), `"`)
}
