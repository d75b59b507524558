package extract

import (
	"bytes"
	"context"
	"encoding/base64"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
)

// archiveOf is files (slash path → content ending in a newline) as a
// writeTree archive.
func archiveOf(files map[string]string) string {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(files)) {
		b.WriteString("-- " + p + " --\n" + files[p])
	}
	return b.String()
}

const builtJS = "\"use strict\";\nfunction greet(name) {\n  return hello(name);\n}\nexports.greet = greet;\n"

func inlineMap(js string) string {
	return base64.StdEncoding.EncodeToString([]byte(js))
}

func TestBuiltFrom(t *testing.T) {
	tsMap := `{"version":3,"file":"a.js","sourceRoot":"","sources":["../src/a.ts"],"names":[],"mappings":"AAAA"}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		file  string
		want  string // a part of the skip's reason; "" = extracted
	}{{
		name: "tsc output beside its source",
		files: map[string]string{
			"src/a.ts":     "export function greet(name: string) { return name; }\n",
			"lib/a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
			"lib/a.js.map": tsMap + "\n",
		},
		file: "lib/a.js", want: "built from src/a.ts, by its source map (lib/a.js.map)",
	}, {
		name: "a package that ships only its build",
		files: map[string]string{
			"lib/a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
			"lib/a.js.map": tsMap + "\n",
		},
		file: "lib/a.js",
	}, {
		name: "an inline map, the sources' contents first, the older mark",
		files: map[string]string{
			"src/a.js": "function greet(n) { return n; }\n",
			"lib/a.js": builtJS + "//@ sourceMappingURL=data:application/json;charset=utf-8;base64," +
				inlineMap(`{"version":3,"sourcesContent":["function greet(n) {\n}",{"x":[1,2,{"y":null}]}],"sources":["../src/a.js"],"mappings":""}`) + "\n",
		},
		file: "lib/a.js", want: "built from src/a.js, by its source map (inline)",
	}, {
		name: "webpack's sources are relative to its context, its runtime is not counted",
		files: map[string]string{
			"lib/runner.js":      "function run() {}\n",
			"lib/suite.js":       "function suite() {}\n",
			"dist/bundle.js":     builtJS + "//# sourceMappingURL=bundle.js.map\n",
			"dist/bundle.js.map": `{"version":3,"sources":["webpack://mocha/webpack/bootstrap","webpack://mocha/./lib/runner.js","webpack://mocha/./lib/suite.js"],"mappings":""}` + "\n",
		},
		file: "dist/bundle.js", want: "built from 2 files in the repository, by its source map (dist/bundle.js.map): lib/runner.js, lib/suite.js",
	}, {
		name: "a bundle that holds a dependency's code is its only copy",
		files: map[string]string{
			"lib/runner.js":               "function run() {}\n",
			"node_modules/debug/index.js": "function debug() {}\n",
			"dist/bundle.js":              builtJS + "//# sourceMappingURL=bundle.js.map\n",
			"dist/bundle.js.map":          `{"sources":["webpack://mocha/./lib/runner.js","webpack://mocha/./node_modules/debug/index.js"]}` + "\n",
		},
		file: "dist/bundle.js",
	}, {
		name: "not every source here",
		files: map[string]string{
			"src/a.ts":     "export const a = 1;\n",
			"lib/a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
			"lib/a.js.map": `{"sources":["../src/a.ts","../src/b.ts"]}` + "\n",
		},
		file: "lib/a.js",
	}, {
		name: "a map outside the root is not read",
		files: map[string]string{
			"src/a.ts": "export const a = 1;\n",
			"a.js":     builtJS + "//# sourceMappingURL=../../../etc/a.js.map\n",
		},
		file: "a.js",
	}, {
		name: "a map that names the file itself",
		files: map[string]string{
			"a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
			"a.js.map": `{"sources":["a.js"]}` + "\n",
		},
		file: "a.js",
	}, {
		name: "the mark not on the last line",
		files: map[string]string{
			"src/a.ts":     "export const a = 1;\n",
			"lib/a.js":     "//# sourceMappingURL=a.js.map\n" + builtJS,
			"lib/a.js.map": tsMap + "\n",
		},
		file: "lib/a.js",
	}, {
		name: "a broken map",
		files: map[string]string{
			"src/a.ts":     "export const a = 1;\n",
			"lib/a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
			"lib/a.js.map": `{"sources":["../src/a.ts"` + "\n",
		},
		file: "lib/a.js",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, archiveOf(tc.files))
			for _, keep := range []bool{false, true} {
				ex, err := New(dir, Options{Workers: 1, KeepMinified: keep})
				if err != nil {
					t.Fatal(err)
				}
				f, err := ex.File(context.Background(), tc.file)
				ex.Close()
				switch {
				case tc.want == "" || keep:
					if err != nil || f == nil || len(f.Symbols) == 0 {
						t.Errorf("keep %v: %v, %v; want it extracted", keep, f, err)
					}
				case err == nil:
					t.Errorf("extracted; want a skip saying %q", tc.want)
				case !strings.Contains(err.Error(), tc.want):
					t.Errorf("skip %v; want one saying %q", err, tc.want)
				}
			}
		})
	}
}

// TestAllSkipsBuilt: a walk lists the build with its reason, and extracts
// the source.
func TestAllSkipsBuilt(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, archiveOf(map[string]string{
		"src/a.ts":     "export function greet(name: string) { return name; }\n",
		"lib/a.js":     builtJS + "//# sourceMappingURL=a.js.map\n",
		"lib/a.js.map": `{"sources":["../src/a.ts"]}` + "\n",
	}))
	ex, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, skipped, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "src/a.ts" {
		t.Errorf("extracted %v, want src/a.ts alone", files)
	}
	found := false
	for _, s := range skipped {
		found = found || s.Path == "lib/a.js" && s.Reason == "built from src/a.ts, by its source map (lib/a.js.map)"
	}
	if !found {
		t.Errorf("skipped %v, want lib/a.js as built", skipped)
	}
}

// FuzzSourceMap: any file tail and map reads without a panic, and every
// source path found is a valid path under the root.
func FuzzSourceMap(f *testing.F) {
	f.Add([]byte("x\n//# sourceMappingURL=a.js.map\n"), []byte(`{"sourceRoot":"s","sources":["../a.ts","webpack://p/./b.js"]}`))
	f.Add([]byte("//@ sourceMappingURL=data:application/json;base64,e30="), []byte(`{"a":[{"b":[]}],"sources":[]}`))
	f.Add([]byte("//# sourceMappingURL=/etc/passwd"), []byte(`[1]`))
	f.Fuzz(func(t *testing.T, src, m []byte) {
		sourceMapRef(src)
		sources, err := mapSources(bytes.NewReader(m))
		if err != nil {
			return
		}
		for _, s := range sources {
			cands, _ := mapSourcePaths("lib", s)
			for _, p := range cands {
				if !fs.ValidPath(p) || strings.HasPrefix(p, "../") {
					t.Fatalf("source %q gave %q, not a path under the root", s, p)
				}
			}
		}
	})
}
