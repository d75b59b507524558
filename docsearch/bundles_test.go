package docsearch

import (
	"fmt"
	"testing"
)

// TestBundleByNames: a script most of whose functions and classes are
// defined under the same names in several other scripts (zod's
// lib/index.mjs and lib/index.umd.js beside lib/types.js and its other
// modules) is a bundle of them, answered by the module's symbol; a module
// whose names the bundles define every one of is no bundle, nor a file
// that shares a few names.
func TestBundleByNames(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	var modules, esm, umd []CodeSymbol
	var files []CodeFile
	for m := range 5 {
		var syms []CodeSymbol
		for i := range 6 {
			cls, method := fmt.Sprintf("Zod%c%d", 'A'+m, i), fmt.Sprintf("check%c%d", 'a'+m, i)
			body := fmt.Sprintf("return this._def.checks.some((ch) => ch.kind === %q)", method)
			syms = append(syms, CodeSymbol{Name: fmt.Sprintf("lib.m%d.%s.%s", m, cls, method), Kind: "method", Signature: method + "()", Body: body, Line: 10 * i, End: 10*i + 3})
			esm = append(esm, CodeSymbol{Name: fmt.Sprintf("lib.index.%s.%s", cls, method), Kind: "method", Signature: method + "()", Body: "  " + body, Line: 100*m + 10*i, End: 100*m + 10*i + 3})
			umd = append(umd, CodeSymbol{Name: fmt.Sprintf("lib.index.umd.<callback of (…)>.%s.%s", cls, method), Kind: "method", Signature: method + "()", Body: "    " + body, Line: 100*m + 10*i + 5, End: 100*m + 10*i + 8})
		}
		modules = append(modules, syms...)
		files = append(files, CodeFile{Path: fmt.Sprintf("lib/m%d.js", m), Symbols: syms})
	}
	files = append(files, CodeFile{Path: "lib/index.mjs", Symbols: esm}, CodeFile{Path: "lib/index.umd.js", Symbols: umd},
		CodeFile{Path: "lib/small.js", Symbols: modules[:4]})
	putCode(t, ix, files)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for file, want := range map[string]bool{"lib/index.mjs": true, "lib/index.umd.js": true, "lib/m2.js": false, "lib/small.js": false} {
		if got := ix.bundle(file); got != want {
			t.Errorf("bundle(%s) = %v, want %v", file, got, want)
		}
	}
	src := chunkOf(t, ix, "lib/m3.js#lib.m3.ZodD2.checkd2")
	for _, key := range []string{"lib/index.mjs#lib.index.ZodD2.checkd2", "lib/index.umd.js#lib.index.umd.<callback of (…)>.ZodD2.checkd2"} {
		ranked := []hit{{chunk: chunkOf(t, ix, key), fused: 1}}
		if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
			t.Errorf("%s alone: ranked %+v, want the module's chunk %d in its place", key, ranked, src)
		}
	}
}
