package deps

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// resolvePython reads the project's virtualenv and its lockfile. An
// installed distribution is a dependency at its dist-info version; a
// locked one missing from the venv is Missing; one installed at another
// version than the lock's is a Mismatch. A venv of the project (.venv,
// venv) must resolve inside it; one elsewhere is read when $VIRTUAL_ENV
// names it.
func resolvePython(root string, opts Options) ([]Dep, error) {
	site, serr := sitePackages(root, opts)
	installed := map[string]dist{}
	if site != "" {
		installed = readDists(site)
	}
	lock, lockFile, fetch, err := readPythonLock(root)
	if err != nil {
		return nil, fmt.Errorf("deps %s: %w", lockFile, err)
	}
	declared, err := declaredPython(root)
	if err != nil {
		return nil, err
	}
	if serr != nil && len(lock) == 0 {
		return nil, serr // no dependency to carry the reason
	}
	if len(installed) == 0 && len(lock) == 0 && len(declared) == 0 {
		return nil, nil
	}
	direct := func(name string) bool {
		if declared == nil { // nothing declares dependencies: all installed ones count
			return !toolDists[name]
		}
		_, ok := declared[name]
		return ok
	}
	var out []Dep
	for name, ver := range lock {
		d := Dep{Ecosystem: Python, Name: name, Version: ver, Direct: direct(name), Source: lockFile}
		if err := checkName(name, ver, pythonName, pythonVersion); err != nil {
			refuse(&d, lockFile+": "+err.Error())
			out = append(out, d)
			continue
		}
		switch di, ok := installed[name]; {
		case serr != nil:
			refuse(&d, serr.Error())
		case !ok:
			d.Status, d.Fetch = Missing, fetch
		case di.problem != "":
			refuse(&d, di.problem)
		case di.version != ver:
			d.Status, d.Found, d.Fetch = Mismatch, di.version, fetch
		default:
			d.Status, d.Dir, d.Roots, d.Integrity = Present, site, di.roots, di.integrity
		}
		out = append(out, d)
	}
	for name, di := range installed {
		if _, ok := lock[name]; ok {
			continue
		}
		rel, _ := filepath.Rel(root, di.metadata)
		d := Dep{Ecosystem: Python, Name: name, Version: di.version, Direct: direct(name),
			Status: Present, Dir: site, Roots: di.roots, Source: filepath.ToSlash(rel), Integrity: di.integrity}
		if di.problem != "" {
			refuse(&d, di.problem)
		}
		out = append(out, d)
	}
	// What the project declares but neither locks nor has installed (a
	// fresh clone, no venv yet) is Missing, at the version it asks for.
	for name, dcl := range declared {
		if _, ok := lock[name]; ok {
			continue
		}
		if _, ok := installed[name]; ok {
			continue
		}
		d := Dep{Ecosystem: Python, Name: name, Version: dcl.version(), Direct: true, Source: dcl.file, Status: Missing,
			Fetch: pythonFetch(dcl.file, site)}
		if !pythonName.MatchString(name) {
			refuse(&d, fmt.Sprintf("%s: package name %q is not one", dcl.file, name))
		}
		out = append(out, d)
	}
	return out, nil
}

// pythonFetch is the command that installs what file declares into the
// project's venv (made first when there is none).
func pythonFetch(file, site string) string {
	install := "pip install -e ."
	if file != "pyproject.toml" {
		install = "pip install -r " + file
	}
	if site == "" {
		return "python3 -m venv .venv && .venv/bin/" + install
	}
	return install
}

// toolDists are installed into every venv by its tools, not by the project.
var toolDists = map[string]bool{"pip": true, "setuptools": true, "wheel": true, "distribute": true}

// sitePackages finds the site-packages of .venv, venv or $VIRTUAL_ENV,
// with its symbolic links resolved. One of the project's that resolves
// outside root is an error, and not read.
func sitePackages(root string, opts Options) (string, error) {
	type env struct {
		dir     string
		project bool
	}
	envs := []env{{filepath.Join(root, ".venv"), true}, {filepath.Join(root, "venv"), true}}
	if v := opts.getenv("VIRTUAL_ENV"); v != "" {
		envs = append(envs, env{v, false})
	}
	for _, env := range envs {
		for _, pattern := range []string{"lib/python3*/site-packages", "lib64/python3*/site-packages", "Lib/site-packages"} {
			matches, _ := filepath.Glob(filepath.Join(env.dir, filepath.FromSlash(pattern)))
			sort.Strings(matches)
			for i := len(matches) - 1; i >= 0; i-- { // the newest python3.N first
				if !isDir(matches[i]) {
					continue
				}
				if !env.project {
					return filepath.EvalSymlinks(matches[i])
				}
				real, err := confine(root, matches[i])
				if err != nil {
					rel, _ := filepath.Rel(root, matches[i])
					return "", fmt.Errorf("deps: the virtualenv's %s is not read: %w (one elsewhere is read when $VIRTUAL_ENV names it)", filepath.ToSlash(rel), err)
				}
				return real, nil
			}
		}
	}
	return "", nil
}

// dist is one installed distribution.
type dist struct {
	version   string
	metadata  string   // path of its METADATA
	roots     []string // its top-level packages and modules in site-packages
	integrity string   // "sha256:" and the hex SHA-256 of its RECORD
	problem   string   // why it is refused; "" when it is not
}

// readDists reads every *.dist-info in site, keyed by normalized name,
// through a root handle on site: a dist-info that is a link out of it is
// not read.
func readDists(site string) map[string]dist {
	out := map[string]dist{}
	r, err := os.OpenRoot(site)
	if err != nil {
		return out
	}
	defer r.Close()
	entries, _ := fs.ReadDir(r.FS(), ".")
	for _, e := range entries {
		info := e.Name()
		if !strings.HasSuffix(info, ".dist-info") {
			continue
		}
		data, err := bounded.ReadFileIn(r, info+"/METADATA", bounded.Manifest)
		if err != nil {
			continue
		}
		name, version := parseMetadata(data)
		if name == "" || version == "" {
			continue
		}
		di := dist{version: version, metadata: filepath.Join(site, info, "METADATA")}
		if err := checkName(name, version, pythonName, pythonVersion); err != nil {
			di.problem = info + "/METADATA: " + err.Error()
		} else {
			di.roots, di.integrity, di.problem = distRoots(r, site, info)
		}
		out[normalizePython(name)] = di
	}
	return out
}

// parseMetadata reads Name and Version from a METADATA header.
func parseMetadata(data []byte) (name, version string) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() && sc.Text() != "" {
		k, v, ok := strings.Cut(sc.Text(), ":")
		switch {
		case !ok:
		case strings.EqualFold(k, "Name"):
			name = strings.TrimSpace(v)
		case strings.EqualFold(k, "Version"):
			version = strings.TrimSpace(v)
		}
	}
	return name, version
}

// distRoots lists a distribution's top-level packages and modules: those
// top_level.txt names, or else the first path element of its RECORD's
// files, keeping only what exists in site. Each must be one plain name
// and resolve inside site: a top_level.txt entry that is a path, or a
// root that links out of site, refuses the distribution (problem says
// why). integrity is a hash of RECORD, "" without one.
func distRoots(r *os.Root, site, info string) (roots []string, integrity, problem string) {
	seen := map[string]bool{}
	// add keeps a root that is there, inside site.
	add := func(cand string) string {
		_, err := confine(site, filepath.Join(site, cand))
		var out *outsideError
		switch {
		case errors.As(err, &out):
			return fmt.Sprintf("%s names %s: %v", info, cand, err)
		case err == nil:
			seen[cand] = true
		}
		return ""
	}
	record, rerr := bounded.ReadFileIn(r, info+"/RECORD", bounded.Manifest)
	if rerr == nil {
		integrity = fmt.Sprintf("sha256:%x", sha256.Sum256(record))
	}
	if data, err := bounded.ReadFileIn(r, info+"/top_level.txt", bounded.Manifest); err == nil {
		for _, l := range strings.Fields(string(data)) {
			if bad := badElems(l); bad != "" || strings.Contains(l, "/") {
				return nil, integrity, fmt.Sprintf("%s/top_level.txt names %q, not a module name", info, l)
			}
			for _, cand := range []string{l, l + ".py"} {
				if problem := add(cand); problem != "" {
					return nil, integrity, problem
				}
			}
		}
	}
	if len(seen) == 0 && rerr == nil {
		for _, l := range strings.Split(string(record), "\n") {
			path, _, _ := strings.Cut(l, ",")
			first, _, _ := strings.Cut(path, "/")
			// "../../bin/tool" is a script outside site-packages, not a root.
			if badElems(first) != "" || first == "__pycache__" || strings.HasSuffix(first, ".dist-info") ||
				strings.HasSuffix(first, ".pth") || (!strings.Contains(path, "/") && !strings.HasSuffix(first, ".py")) {
				continue
			}
			if problem := add(first); problem != "" {
				return nil, integrity, problem
			}
		}
	}
	roots = make([]string, 0, len(seen))
	for r := range seen {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	return roots, integrity, ""
}

var nonName = regexp.MustCompile(`[-_.]+`)

// normalizePython is PEP 503's normal form of a distribution name.
func normalizePython(name string) string {
	return strings.ToLower(nonName.ReplaceAllString(name, "-"))
}

// pep508Name is the distribution name a requirement string starts with.
var pep508Name = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

// readPythonLock returns the locked versions of uv.lock, poetry.lock or
// pinned requirements (name==version), with the file and its install
// command; nil when there is no lockfile.
func readPythonLock(root string) (map[string]string, string, string, error) {
	for _, f := range []struct{ file, fetch string }{{"uv.lock", "uv sync"}, {"poetry.lock", "poetry install"}} {
		data, err := readFile(filepath.Join(root, f.file))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, f.file, "", err
		}
		var lock struct {
			Package []struct {
				Name    string         `toml:"name"`
				Version string         `toml:"version"`
				Source  map[string]any `toml:"source"`
			} `toml:"package"`
		}
		if _, err := toml.Decode(string(data), &lock); err != nil {
			return nil, f.file, "", err
		}
		out := map[string]string{}
		for _, p := range lock.Package {
			if _, local := p.Source["editable"]; local {
				continue
			}
			if _, local := p.Source["virtual"]; local || p.Version == "" {
				continue
			}
			out[normalizePython(p.Name)] = p.Version
		}
		return out, f.file, f.fetch, nil
	}
	out := map[string]string{}
	for _, req := range requirementFiles(root) {
		for name, ver := range readRequirements(filepath.Join(root, req)) {
			if ver != "" {
				out[name] = ver
			}
		}
		if len(out) > 0 {
			return out, req, "pip install -r " + req, nil
		}
	}
	return nil, "", "", nil
}

func requirementFiles(root string) []string {
	matches, _ := filepath.Glob(filepath.Join(root, "requirements*.txt"))
	sort.Strings(matches)
	for i, m := range matches {
		matches[i] = filepath.Base(m)
	}
	return matches
}

// readRequirements maps each requirement's normalized name to its pinned
// version ("" when not pinned with ==).
func readRequirements(path string) map[string]string {
	data, err := readFile(path)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "-") {
			continue
		}
		m := pep508Name.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ver := ""
		if _, pin, ok := strings.Cut(line, "=="); ok {
			if f := strings.FieldsFunc(pin, func(r rune) bool { return r == ';' || r == ' ' || r == ',' }); len(f) > 0 {
				ver = f[0]
			}
		}
		out[normalizePython(m[1])] = ver
	}
	return out
}

// declaration is how the project names a dependency: in which file,
// and with what version specifier ("==2.0", ">=1.2", "^3.1"; "" for any).
type declaration struct {
	file, spec string
}

// version is what Dep.Version shows of a declaration the project has
// not installed or locked: the pinned version, else the specifier.
func (d declaration) version() string {
	spec := strings.TrimSpace(d.spec)
	if v, ok := strings.CutPrefix(spec, "=="); ok && !strings.ContainsAny(v, ",*") {
		return strings.TrimSpace(v)
	}
	if spec == "" {
		return "(any version)"
	}
	return "(" + spec + ")"
}

// declaredPython maps the dependencies the project names itself in
// pyproject.toml ([project] dependencies and optional groups, dependency
// groups, uv and poetry tables) or requirements files to how they are
// named; nil when it names none.
func declaredPython(root string) (map[string]declaration, error) {
	names := map[string]declaration{}
	add := func(name string, d declaration) {
		if _, ok := names[name]; !ok {
			names[name] = d
		}
	}
	data, err := readFile(filepath.Join(root, "pyproject.toml"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("deps pyproject.toml: %w", err)
	}
	if err == nil {
		var py struct {
			Project struct {
				Dependencies []string            `toml:"dependencies"`
				Optional     map[string][]string `toml:"optional-dependencies"`
			} `toml:"project"`
			Groups map[string][]any `toml:"dependency-groups"`
			Tool   struct {
				Poetry struct {
					Dependencies    map[string]any `toml:"dependencies"`
					DevDependencies map[string]any `toml:"dev-dependencies"`
					Group           map[string]struct {
						Dependencies map[string]any `toml:"dependencies"`
					} `toml:"group"`
				} `toml:"poetry"`
				UV struct {
					DevDependencies []string `toml:"dev-dependencies"`
				} `toml:"uv"`
			} `toml:"tool"`
		}
		if _, err := toml.Decode(string(data), &py); err != nil {
			return nil, fmt.Errorf("deps pyproject.toml: %w", err)
		}
		reqs := append(py.Project.Dependencies, py.Tool.UV.DevDependencies...)
		for _, group := range slices.Sorted(maps.Keys(py.Project.Optional)) {
			reqs = append(reqs, py.Project.Optional[group]...)
		}
		for _, group := range slices.Sorted(maps.Keys(py.Groups)) {
			for _, r := range py.Groups[group] {
				if s, ok := r.(string); ok { // a table is an include-group
					reqs = append(reqs, s)
				}
			}
		}
		for _, r := range reqs {
			if name, spec, ok := pep508(r); ok {
				add(name, declaration{"pyproject.toml", spec})
			}
		}
		poetry := []map[string]any{py.Tool.Poetry.Dependencies, py.Tool.Poetry.DevDependencies}
		for _, group := range slices.Sorted(maps.Keys(py.Tool.Poetry.Group)) {
			poetry = append(poetry, py.Tool.Poetry.Group[group].Dependencies)
		}
		for _, m := range poetry {
			for _, n := range slices.Sorted(maps.Keys(m)) {
				if n == "python" {
					continue
				}
				spec := ""
				switch v := m[n].(type) {
				case string:
					spec = v
				case map[string]any:
					spec, _ = v["version"].(string)
				}
				if spec == "*" {
					spec = ""
				}
				add(normalizePython(n), declaration{"pyproject.toml", spec})
			}
		}
	}
	for _, req := range requirementFiles(root) {
		reqs := readRequirements(filepath.Join(root, req))
		for _, n := range slices.Sorted(maps.Keys(reqs)) {
			spec := ""
			if v := reqs[n]; v != "" {
				spec = "==" + v
			}
			add(n, declaration{req, spec})
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	return names, nil
}

// pep508 splits a requirement string into its normalized name and its
// version specifier, without extras or environment markers.
func pep508(r string) (name, spec string, ok bool) {
	m := pep508Name.FindStringSubmatch(r)
	if m == nil {
		return "", "", false
	}
	rest := strings.TrimSpace(r[len(m[0]):])
	if strings.HasPrefix(rest, "[") { // extras
		if i := strings.IndexByte(rest, ']'); i >= 0 {
			rest = rest[i+1:]
		}
	}
	rest, _, _ = strings.Cut(rest, ";") // markers
	rest = strings.Trim(strings.TrimSpace(rest), "()")
	if strings.HasPrefix(rest, "@") { // a direct reference: no version
		rest = ""
	}
	return normalizePython(m[1]), strings.ReplaceAll(strings.TrimSpace(rest), " ", ""), true
}
