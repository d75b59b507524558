package deps

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// unpack writes testdata/name into a temporary directory and returns it.
func unpack(t *testing.T, name string) string {
	t.Helper()
	return fixture.Unpack(t, filepath.Join("testdata", name))
}

// env is an Options whose environment is only vars (HOME unset).
func env(vars map[string]string, all bool) Options {
	return Options{All: all, Getenv: func(k string) string { return vars[k] }, GoEnv: func(string) string { return "" }}
}

// describe prints one line per dependency, with dirs relative to base.
func describe(base string, ds []Dep) string {
	var b strings.Builder
	for _, d := range ds {
		dir := d.Dir
		if rel, err := filepath.Rel(base, dir); err == nil && dir != "" {
			dir = filepath.ToSlash(rel)
		}
		direct := "transitive"
		if d.Direct {
			direct = "direct"
		}
		fmt.Fprintf(&b, "%s %s@%s %s %s dir=%s roots=%s found=%s fetch=%q source=%s\n",
			d.Ecosystem, d.Name, d.Version, direct, d.Status, dir, strings.Join(d.Roots, ","), d.Found, d.Fetch, d.Source)
	}
	return b.String()
}

func TestResolve(t *testing.T) {
	tests := []struct {
		archive string
		env     map[string]string // values are relative to the unpacked dir
		all     bool
		want    string
	}{
		{"go.txtar", map[string]string{"GOMODCACHE": "cache"}, false, `
go example.com/gone@v1.0.0 direct missing dir= roots=. found= fetch="go mod download example.com/gone@v1.0.0" source=go.mod (not in go.sum)
go github.com/BurntSushi/toml@v1.6.0 direct present dir=cache/github.com/!burnt!sushi/toml@v1.6.0 roots=. found= fetch="" source=go.sum
go golang.org/x/sync@v0.18.0 direct present dir=cache/golang.org/x/sync@v0.18.0 roots=. found= fetch="" source=go.sum
`},
		{"go.txtar", map[string]string{"GOPATH": "nowhere" + string(os.PathListSeparator) + "other"}, true, `
go example.com/gone@v1.0.0 direct missing dir= roots=. found= fetch="go mod download example.com/gone@v1.0.0" source=go.mod (not in go.sum)
go github.com/BurntSushi/toml@v1.6.0 direct missing dir= roots=. found= fetch="go mod download github.com/BurntSushi/toml@v1.6.0" source=go.sum
go golang.org/x/mod@v0.33.0 transitive missing dir= roots=. found= fetch="go mod download golang.org/x/mod@v0.33.0" source=go.sum
go golang.org/x/sync@v0.18.0 direct missing dir= roots=. found= fetch="go mod download golang.org/x/sync@v0.18.0" source=go.sum
`},
		{"npm.txtar", nil, true, `
npm debug@2.6.9 transitive present dir=project/node_modules/express/node_modules/debug roots=. found= fetch="" source=package-lock.json
npm debug@4.3.7 direct mismatch dir= roots=. found=4.3.5 fetch="npm ci" source=package-lock.json
npm express@4.21.2 direct present dir=project/node_modules/express roots=. found= fetch="" source=package-lock.json
npm lodash@4.17.21 direct missing dir= roots=. found= fetch="npm ci" source=package-lock.json
`},
		{"pnpm.txtar", nil, true, `
npm @scope/ui@1.2.0 direct present dir=project/node_modules/@scope/ui roots=. found= fetch="" source=pnpm-lock.yaml
npm loose-envify@1.4.0 transitive present dir=project/node_modules/.pnpm/loose-envify@1.4.0/node_modules/loose-envify roots=. found= fetch="" source=pnpm-lock.yaml
npm react@18.2.0 direct present dir=project/node_modules/react roots=. found= fetch="" source=pnpm-lock.yaml
`},
		{"yarn.txtar", nil, true, `
npm @babel/core@7.24.0 direct missing dir= roots=. found= fetch="yarn install --frozen-lockfile" source=yarn.lock
npm commander@12.1.0 direct present dir=project/node_modules/commander roots=. found= fetch="" source=yarn.lock
npm ms@2.1.2 transitive missing dir= roots=. found= fetch="yarn install --frozen-lockfile" source=yarn.lock
`},
		{"python.txtar", nil, true, `
python idna@3.6 transitive missing dir= roots= found= fetch="uv sync" source=uv.lock
python pip@24.0 transitive present dir=project/.venv/lib/python3.11/site-packages roots= found= fetch="" source=.venv/lib/python3.11/site-packages/pip-24.0.dist-info/METADATA
python pytest@8.0.0 direct present dir=project/.venv/lib/python3.11/site-packages roots= found= fetch="" source=.venv/lib/python3.11/site-packages/Pytest-8.0.0.dist-info/METADATA
python requests@2.31.0 direct present dir=project/.venv/lib/python3.11/site-packages roots=requests found= fetch="" source=uv.lock
python urllib3@2.2.1 direct mismatch dir= roots= found=2.0.7 fetch="uv sync" source=uv.lock
`},
		{"pyfresh.txtar", nil, false, `
python click@8.1.3 direct missing dir= roots= found= fetch="python3 -m venv .venv && .venv/bin/pip install -e ." source=pyproject.toml
python pytest@(>=8) direct missing dir= roots= found= fetch="python3 -m venv .venv && .venv/bin/pip install -e ." source=pyproject.toml
python requests@(>=2.28) direct missing dir= roots= found= fetch="python3 -m venv .venv && .venv/bin/pip install -e ." source=pyproject.toml
python typing-extensions@(any version) direct missing dir= roots= found= fetch="python3 -m venv .venv && .venv/bin/pip install -e ." source=pyproject.toml
`},
		{"cargo.txtar", map[string]string{"CARGO_HOME": "cargo"}, false, `
cargo anyhow@1.0.86 direct missing dir= roots=. found= fetch="cargo fetch" source=Cargo.lock
cargo serde@1.0.200 direct present dir=cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200 roots=. found= fetch="" source=Cargo.lock
cargo serde_json@1.0.117 direct present dir=cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.117 roots=. found= fetch="" source=Cargo.lock
`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/all=%v", tt.archive, tt.all), func(t *testing.T) {
			dir := unpack(t, tt.archive)
			vars := map[string]string{}
			for k, v := range tt.env {
				var abs []string
				for _, p := range filepath.SplitList(v) {
					abs = append(abs, filepath.Join(dir, p))
				}
				vars[k] = strings.Join(abs, string(os.PathListSeparator))
			}
			ds, err := Resolve(filepath.Join(dir, "project"), env(vars, tt.all))
			if err != nil {
				t.Fatal(err)
			}
			got := describe(dir, ds)
			if want := strings.TrimPrefix(tt.want, "\n"); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestResolveOwnModule resolves fileinfo's own go.mod against the real
// module cache, which building this test filled: each direct dependency
// is present at the version go.sum locks, with its source files there.
func TestResolveOwnModule(t *testing.T) {
	root := filepath.Join("..", "..")
	ds, err := Resolve(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range ds {
		if d.Name != "golang.org/x/sync" {
			continue
		}
		found = true
		if d.Status != Present || !strings.HasSuffix(d.Dir, "golang.org/x/sync@"+d.Version) {
			t.Fatalf("golang.org/x/sync = %+v, want present in the module cache", d)
		}
		if _, err := os.Stat(filepath.Join(d.Dir, "errgroup", "errgroup.go")); err != nil {
			t.Errorf("no errgroup source at the locked version: %v", err)
		}
		t.Logf("golang.org/x/sync@%s at %s (go %s)", d.Version, d.Dir, runtime.Version())
	}
	if !found {
		t.Fatalf("golang.org/x/sync not among %d direct dependencies", len(ds))
	}
}

// TestResolveBadLockfile: one unreadable lockfile is an error naming it,
// and the other ecosystems still come back.
func TestResolveBadLockfile(t *testing.T) {
	dir := unpack(t, "cargo.txtar")
	project := filepath.Join(dir, "project")
	if err := os.WriteFile(filepath.Join(project, "package-lock.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := Resolve(project, env(map[string]string{"CARGO_HOME": filepath.Join(dir, "cargo")}, false))
	if err == nil || !strings.Contains(err.Error(), "package-lock.json") {
		t.Errorf("err = %v, want one naming package-lock.json", err)
	}
	if len(ds) != 3 {
		t.Errorf("%d cargo dependencies, want 3 despite the bad npm lockfile", len(ds))
	}
}

func TestResolveEmpty(t *testing.T) {
	ds, err := Resolve(t.TempDir(), env(nil, true))
	if err != nil || ds == nil || len(ds) != 0 {
		t.Errorf("Resolve(empty) = %v, %v; want [], nil", ds, err)
	}
}

// FuzzLockfiles feeds arbitrary bytes to every lockfile and manifest
// reader, and to a distribution's METADATA, RECORD and top_level.txt:
// each answers or errs, never panics, and every dependency it finds lies
// inside the project, though node_modules and site-packages hold links
// to a directory beside it.
func FuzzLockfiles(f *testing.F) {
	for _, name := range []string{"go", "npm", "pnpm", "yarn", "python", "cargo"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			f.Add(filepath.Base(file.Name), file.Data)
		}
	}
	f.Add("package-lock.json", []byte(`{"packages": {"node_modules/../../victim": {"name": "victim", "version": "0.1.0"}, "node_modules/link": {"version": "0.1.0"}}}`))
	f.Add("package.json", []byte(`{"dependencies": {"link": "*", "../victim": "*"}}`))
	f.Add("pnpm-lock.yaml", []byte("importers:\n  .:\n    dependencies:\n      link: 0.1.0\n      ../victim: 0.1.0\n"))
	f.Add("yarn.lock", []byte("link@*:\n  version \"0.1.0\"\n\"../victim@*\":\n  version \"0.1.0\"\n  integrity x\n"))
	f.Add("top_level.txt", []byte("out\n../../../../../victim\n"))
	f.Add("RECORD", []byte("out/__init__.py,sha256=x,1\n../../victim/x,sha256=y,1\n"))
	f.Add("go.mod", []byte("module m\nrequire example.com/x v1.0.0\nreplace example.com/x => ../victim\n"))
	site := ".venv/lib/python3.11/site-packages/"
	files := map[string]string{"go.mod": "go.mod", "go.sum": "go.sum", "package.json": "package.json",
		"package-lock.json": "package-lock.json", "pnpm-lock.yaml": "pnpm-lock.yaml", "yarn.lock": "yarn.lock",
		"pyproject.toml": "pyproject.toml", "uv.lock": "uv.lock", "poetry.lock": "poetry.lock", "requirements.txt": "requirements.txt",
		"Cargo.toml": "Cargo.toml", "Cargo.lock": "Cargo.lock",
		"METADATA": site + "x-1.0.dist-info/METADATA", "RECORD": site + "x-1.0.dist-info/RECORD", "top_level.txt": site + "x-1.0.dist-info/top_level.txt"}
	names := slices.Sorted(maps.Keys(files))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		base := t.TempDir()
		tree(t, base, victim, map[string]string{"project/node_modules/link": "../../victim", "project/" + site + "out": "../../../../../victim"})
		tree(t, base, map[string]string{"project/node_modules/ok/package.json": `{"version": "1.0.0"}`,
			"project/" + site + "x-1.0.dist-info/METADATA": "Name: x\nVersion: 1.0\n"}, nil)
		project := filepath.Join(base, "project")
		for i, fn := range names {
			if fn == name || len(name)%len(names) == i {
				if err := os.WriteFile(filepath.Join(project, filepath.FromSlash(files[fn])), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		ds, _ := Resolve(project, env(nil, true))
		if ds == nil {
			t.Fatal("nil result")
		}
		for _, d := range ds {
			switch d.Status {
			case Present:
				if rel, err := filepath.Rel(project, d.Dir); err != nil || !filepath.IsLocal(rel) {
					t.Errorf("%s is present at %s, outside the project", d.ID(), d.Dir)
				}
				for _, r := range d.Roots {
					if real, err := filepath.EvalSymlinks(filepath.Join(d.Dir, r)); err == nil && !strings.HasPrefix(real, project+string(filepath.Separator)) {
						t.Errorf("%s: root %s resolves to %s, outside the project", d.ID(), r, real)
					}
				}
			case Refused:
				if d.Dir != "" || d.Reason == "" {
					t.Errorf("%s refused with dir %q, reason %q", d.ID(), d.Dir, d.Reason)
				}
			}
		}
	})
}

// TestIsManifest: every file a fixture's project holds at its root that
// Resolve reads is a manifest, and source files are not.
func TestIsManifest(t *testing.T) {
	for _, name := range []string{"go", "npm", "pnpm", "yarn", "python", "cargo"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			rel, ok := strings.CutPrefix(f.Name, "project/")
			if ok && !strings.Contains(rel, "/") && !IsManifest(rel) {
				t.Errorf("%s: %s is read by Resolve but not a manifest", name, rel)
			}
		}
	}
	for name, want := range map[string]bool{"requirements-dev.txt": true, "requirements.txt": true, "main.go": false, "README.md": false, "notes.txt": false} {
		if IsManifest(name) != want {
			t.Errorf("IsManifest(%s) = %v", name, !want)
		}
	}
}
