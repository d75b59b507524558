package deps

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files (slash paths relative to base) and symbolic links
// (link → target, the target as written) under base.
func tree(t testing.TB, base string, files, links map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range links {
		full := filepath.Join(base, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), full); err != nil {
			t.Fatal(err)
		}
	}
}

// victim is a directory beside the project, outside it, that a hostile
// lockfile points at: a package.json that would pass for version 0.1.0,
// and a secret.
var victim = map[string]string{
	"victim/package.json": `{"name": "victim", "version": "0.1.0"}`,
	"victim/.env":         "SECRET=hunter2",
	"victim/Cargo.toml":   "[package]\nname = \"victim\"\n",
	"victim/__init__.py":  "SECRET = 'hunter2'\n",
	"victim/README.md":    "# victim\n\nhunter2\n",
}

// TestResolveConfines: every path a lockfile or manifest names is resolved
// and must lie where the dependency comes from; a name or version that is
// not one is refused. Each case lists, per dependency name, the status
// and a part of the reason (or of the Dir, for one found).
func TestResolveConfines(t *testing.T) {
	npmLock := func(packages string) string {
		return `{"name": "app", "lockfileVersion": 3, "packages": {"": {"name": "app"}, ` + packages + `}}`
	}
	tests := []struct {
		name  string
		files map[string]string // under base; the project is base/project
		links map[string]string
		env   map[string]string // values relative to base
		want  map[string]string // dependency name → "status: part of reason or dir"
		err   string            // part of Resolve's error
	}{
		{
			name: "npm key climbs out of node_modules",
			files: map[string]string{
				"project/package-lock.json":               npmLock(`"node_modules/../../victim": {"name": "victim", "version": "0.1.0"}, "node_modules/ok": {"version": "1.0.0"}`),
				"project/node_modules/ok/package.json":    `{"name": "ok", "version": "1.0.0"}`,
				"project/node_modules/.package-lock.json": "{}",
			},
			want: map[string]string{"victim": `refused: install path "node_modules/../../victim" has a path element ".."`, "ok": "present: project/node_modules/ok"},
		},
		{
			name:  "npm package linked out of node_modules",
			files: map[string]string{"project/package-lock.json": npmLock(`"node_modules/victim": {"version": "0.1.0"}`)},
			links: map[string]string{"project/node_modules/victim": "../../victim"},
			want:  map[string]string{"victim": "refused: node_modules/victim: "},
		},
		{
			name:  "npm node_modules linked out of the project",
			files: map[string]string{"project/package-lock.json": npmLock(`"node_modules/victim": {"version": "0.1.0"}`), "nm/victim/package.json": `{"version": "0.1.0"}`},
			links: map[string]string{"project/node_modules": "../nm"},
			want:  map[string]string{"victim": "refused: node_modules: "},
		},
		{
			name: "npm names that are paths",
			files: map[string]string{
				"project/package-lock.json": npmLock(`"node_modules/a": {"name": "../victim", "version": "0.1.0"}, ` +
					`"node_modules/b": {"name": "b\u0000", "version": "0.1.0"}, "node_modules/c": {"version": "../../0.1.0"}, ` +
					`"node_modules/x/y/z": {"version": "1.0.0"}`),
				"project/node_modules/a/package.json": `{"version": "0.1.0"}`,
			},
			want: map[string]string{"../victim": `refused: package name "../victim" has a path element ".."`, "b\x00": "refused: control character",
				"c": `refused: version "../../0.1.0" holds a slash`, "x/y/z": "refused: is not name or @scope/name"},
		},
		{
			name: "npm resolved file: is never a path",
			files: map[string]string{
				"project/package-lock.json":             npmLock(`"node_modules/lib": {"version": "1.0.0", "resolved": "file:../../victim"}`),
				"project/node_modules/lib/package.json": `{"version": "1.0.0"}`,
			},
			want: map[string]string{"lib": "present: project/node_modules/lib"},
		},
		{
			name: "pnpm links into its store are followed",
			files: map[string]string{
				"project/pnpm-lock.yaml": "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      react:\n        specifier: ^18\n        version: 18.2.0\n" +
					"packages:\n  react@18.2.0:\n    resolution: {integrity: sha512-react}\n",
				"project/node_modules/.pnpm/react@18.2.0/node_modules/react/package.json": `{"name": "react", "version": "18.2.0"}`,
			},
			links: map[string]string{"project/node_modules/react": ".pnpm/react@18.2.0/node_modules/react"},
			want:  map[string]string{"react": "present: project/node_modules/.pnpm/react@18.2.0/node_modules/react"},
		},
		{
			name: "pnpm and yarn names that are paths",
			files: map[string]string{
				"project/pnpm-lock.yaml": "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      ../../victim:\n        specifier: '*'\n        version: 0.1.0\n",
			},
			want: map[string]string{"../../victim": "refused: has a path element"},
		},
		{
			name:  "yarn name that is a path",
			files: map[string]string{"project/yarn.lock": "\"../victim@^0.1.0\":\n  version \"0.1.0\"\n  integrity sha512-v\n"},
			want:  map[string]string{"../victim": "refused: has a path element"},
		},
		{
			name: "cargo names and registry links",
			files: map[string]string{
				"project/Cargo.lock": "version = 3\n\n[[package]]\nname = \"../../../victim\"\nversion = \"0.1.0\"\nsource = \"registry+https://x\"\n\n" +
					"[[package]]\nname = \"linked\"\nversion = \"0.1.0\"\nsource = \"registry+https://x\"\nchecksum = \"abc\"\n",
				"cargo/registry/src/index/.keep": "",
			},
			links: map[string]string{"cargo/registry/src/index/linked-0.1.0": "../../../../victim"},
			env:   map[string]string{"CARGO_HOME": "cargo"},
			want:  map[string]string{"../../../victim": `refused: package name "../../../victim" is not one`, "linked": "refused: Cargo registry: "},
		},
		{
			name: "go replace by a directory outside the workspace",
			files: map[string]string{
				"project/go.mod":       "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/out v1.0.0\n\texample.com/in v1.0.0\n)\n\nreplace example.com/out => ../victim\n\nreplace example.com/in => ./in\n",
				"project/in/go.mod":    "module example.com/in\n",
				"victim/go.mod":        "module example.com/out\n",
				"cache/.keep":          "",
				"cache/example.com/.x": "",
			},
			env:  map[string]string{"GOMODCACHE": "cache"},
			want: map[string]string{"example.com/out": "refused: go.mod replaces example.com/out with ../victim, a directory that must be inside the workspace", "example.com/in": "present: project/in"},
		},
		{
			name:  "go module linked out of the module cache",
			files: map[string]string{"project/go.mod": "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n", "cache/.keep": ""},
			links: map[string]string{"cache/example.com/lib@v1.0.0": "../../victim"},
			env:   map[string]string{"GOMODCACHE": "cache"},
			want:  map[string]string{"example.com/lib": "refused: module cache: "},
		},
		{
			name: "python venv linked out of the project",
			files: map[string]string{
				"project/requirements.txt": "victim==0.1.0\n",
				"venv/lib/python3.11/site-packages/victim-0.1.0.dist-info/METADATA": "Name: victim\nVersion: 0.1.0\n",
			},
			links: map[string]string{"project/.venv": "../venv"},
			want:  map[string]string{"victim": "refused: the virtualenv's .venv/lib/python3.11/site-packages is not read"},
		},
		{
			name:  "python venv linked out of the project, nothing locked",
			files: map[string]string{"venv/lib/python3.11/site-packages/victim-0.1.0.dist-info/METADATA": "Name: victim\nVersion: 0.1.0\n"},
			links: map[string]string{"project/.venv": "../venv"},
			want:  map[string]string{},
			err:   "the virtualenv's .venv/lib/python3.11/site-packages is not read",
		},
		{
			name: "python roots that leave site-packages",
			files: map[string]string{
				"project/.venv/lib/python3.11/site-packages/a-1.0.dist-info/METADATA":      "Name: a\nVersion: 1.0\n",
				"project/.venv/lib/python3.11/site-packages/a-1.0.dist-info/top_level.txt": "../../../../../victim\n",
				"project/.venv/lib/python3.11/site-packages/b-1.0.dist-info/METADATA":      "Name: b\nVersion: 1.0\n",
				"project/.venv/lib/python3.11/site-packages/b-1.0.dist-info/RECORD":        "b/__init__.py,sha256=x,1\n../../../bin/b,sha256=y,2\n",
				"project/.venv/lib/python3.11/site-packages/c-1.0.dist-info/METADATA":      "Name: c\nVersion: 1.0\n",
				"project/.venv/lib/python3.11/site-packages/c-1.0.dist-info/RECORD":        "c/__init__.py,sha256=x,1\nc/util.py,sha256=z,1\n../../../bin/c,sha256=y,2\n",
				"project/.venv/lib/python3.11/site-packages/c/__init__.py":                 "",
				"project/.venv/lib/python3.11/site-packages/d-1.0.dist-info/METADATA":      "Name: ../d\nVersion: 1.0\n",
			},
			links: map[string]string{"project/.venv/lib/python3.11/site-packages/b": "../../../../../victim"},
			want: map[string]string{"a": `refused: top_level.txt names "../../../../../victim", not a module name`, "b": "refused: b-1.0.dist-info names b: ",
				"c": "present: project/.venv/lib/python3.11/site-packages", "-/d": `refused: package name "../d" is not one`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			tree(t, base, victim, nil)
			tree(t, base, tt.files, tt.links)
			vars := map[string]string{}
			for k, v := range tt.env {
				vars[k] = filepath.Join(base, v)
			}
			ds, err := Resolve(filepath.Join(base, "project"), env(vars, true))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err = %v, want one saying %q", err, tt.err)
			}
			got := map[string]Dep{}
			for _, d := range ds {
				got[d.Name] = d
				if d.Status == Present {
					if rel, err := filepath.Rel(base, d.Dir); err != nil || strings.HasPrefix(rel, "victim") || strings.HasPrefix(rel, "..") {
						t.Errorf("%s is present at %s, outside the project", d.Name, d.Dir)
					}
				}
				if d.Status == Refused && (d.Dir != "" || d.Reason == "") {
					t.Errorf("%s refused with dir %q, reason %q", d.Name, d.Dir, d.Reason)
				}
			}
			for name, want := range tt.want {
				d, ok := got[name]
				status, part, _ := strings.Cut(want, ": ")
				rel, _ := filepath.Rel(base, d.Dir)
				switch {
				case !ok:
					t.Errorf("%q not resolved; got %s", name, describe(base, ds))
				case string(d.Status) != status:
					t.Errorf("%q: %s (%s), want %s", name, d.Status, d.Reason, want)
				case status == "present" && filepath.ToSlash(rel) != part:
					t.Errorf("%q: present at %s, want %s", name, rel, part)
				case status == "refused" && !strings.Contains(d.Reason, part):
					t.Errorf("%q: refused for %q, want a reason saying %q", name, d.Reason, part)
				}
			}
		})
	}
}

// TestResolveIntegrity: the content hash each lockfile records is kept.
func TestResolveIntegrity(t *testing.T) {
	for _, tt := range []struct {
		archive, name, want string
		env                 map[string]string
	}{
		{"go.txtar", "golang.org/x/sync", "h1:", map[string]string{"GOMODCACHE": "cache"}},
		{"npm.txtar", "express", "sha512-express", nil},
		{"pnpm.txtar", "react", "sha512-y", nil},
		{"yarn.txtar", "commander", "sha512-commander", nil},
		{"cargo.txtar", "serde", "c0ffee", map[string]string{"CARGO_HOME": "cargo"}},
		{"python.txtar", "requests", "sha256:", nil},
	} {
		t.Run(tt.archive, func(t *testing.T) {
			dir := unpack(t, tt.archive)
			vars := map[string]string{}
			for k, v := range tt.env {
				vars[k] = filepath.Join(dir, v)
			}
			ds, err := Resolve(filepath.Join(dir, "project"), env(vars, true))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Name == tt.name {
					if !strings.HasPrefix(d.Integrity, tt.want) {
						t.Errorf("%s: integrity %q, want %s...", d.ID(), d.Integrity, tt.want)
					}
					return
				}
			}
			t.Errorf("%s not resolved", tt.name)
		})
	}
}
