package extract

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPythonRoots feeds arbitrary project metadata to the import-root
// reader: it must not panic, and every root it names lies inside the
// extraction root, below the metadata's directory.
//
//	go test ./extract -run '^$' -fuzz '^FuzzPythonRoots$' -fuzztime 60s
func FuzzPythonRoots(f *testing.F) {
	for _, seed := range []string{
		"[tool.setuptools.packages.find]\nwhere = [\"src\"]\n",
		"[tool.setuptools]\npackage-dir = {\"\" = \"lib\"}\n",
		"[tool.poetry]\npackages = [{ include = \"a\", from = \"src\" }]\n",
		"[tool.hatch.build.targets.wheel]\npackages = [\"src/foo\"]\n",
		"[options]\npackage_dir =\n    =lib\n[options.packages.find]\nwhere = lib\n",
		"setup(package_dir={\"\": \"src\"}, packages=find_packages(where=\"src\"))",
		"where = [\"../../etc\", \"/abs\", \"\"]\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, meta string) {
		root := t.TempDir()
		for _, name := range pythonMeta {
			if err := os.MkdirAll(filepath.Join(root, "proj", "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "proj", name), []byte(meta), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir, err := os.OpenRoot(root)
		if err != nil {
			t.Fatal(err)
		}
		defer dir.Close()
		p := newProject(root, dir)
		for _, r := range p.pythonDirRoots("proj") {
			if r.dir != "proj" && !strings.HasPrefix(r.dir, "proj/") || path.Clean(r.dir) != r.dir {
				t.Errorf("root %q outside proj", r.dir)
			}
		}
		_ = p.pythonRoot("proj/src/pkg/mod.py")
	})
}
