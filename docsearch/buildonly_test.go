package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

func TestBuildRoot(t *testing.T) {
	for _, c := range []struct {
		file, root string
		ok         bool
	}{
		{"dist/index.js", "", true},
		{"Build/lib/command.js", "", true},
		{"packages/a/dist/esm/x.js", "packages/a", true},
		{"packages/dist-tools/x.js", "", false},
		{"client-dist/socket.io.js", "", false},
		{"src/dist.js", "", false},
		{"index.js", "", false},
		{"a/build/b/dist/c.js", "a", true}, // the outermost build directory
		{"dist/index.mjs", "", true},
		{"pkg/dist/cjs/maybe.d.cts", "pkg", true}, // tsc writes declarations beside its scripts
		{"dist/es/maybe.d.mts", "", true},
		{"build/lib/types.ts", "", true},
		// Source, not output: no compiler of these writes it.
		{"go/build/build.go", "", false},
		{"cmd/dist/build.go", "", false},
		{"tools/build/feature/test-all.c", "", false},
		{"build/lib/pkg/mod.py", "", false},
	} {
		root, ok := buildRoot(c.file)
		if root != c.root || ok != c.ok {
			t.Errorf("buildRoot(%q) = %q, %v; want %q, %v", c.file, root, ok, c.root, c.ok)
		}
	}
}

// TestBuildOnlyRanksAsCode: a package that ships only its build
// (socket.io's dist/, tsc output marked generated) has that build rank as
// its code, over a client bundle beside it; the same build beside the
// sources it is built from ranks under the rest, as auxiliary code.
func TestBuildOnlyRanksAsCode(t *testing.T) {
	join := func(name, body string) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "method", Signature: "join(rooms)", Body: body, Line: 10, End: 14}
	}
	ix := openTest(t, mapFS(nil), Options{})
	var built []CodeFile
	for i, name := range []string{"index", "namespace", "client", "broadcast-operator"} {
		built = append(built, CodeFile{Path: "dist/" + name + ".js", Generated: true,
			Symbols: []CodeSymbol{{Name: fmt.Sprintf("dist.%s.f%d", name, i), Kind: "function", Line: 1, End: 3}}})
	}
	built = append(built,
		CodeFile{Path: "dist/socket.js", Generated: true, Symbols: []CodeSymbol{join("dist.socket.Socket.join",
			"// Joins a room.\nthis.adapter.addAll(this.id, new Set(rooms));")}},
		CodeFile{Path: "client-dist/socket.io.js", Symbols: []CodeSymbol{join("client-dist.socket.io.<callback of (…)>.Socket.join",
			"var rooms = this.rooms; return this.emit('subscribe', rooms);")}},
		CodeFile{Path: "wrapper.mjs", Symbols: []CodeSymbol{{Name: "wrapper.io", Kind: "function", Line: 1, End: 2}}},
	)
	putCode(t, ix, built)
	if !ix.buildOnly("dist/socket.js") {
		t.Fatal("dist/ holds 5 of the package's 7 files of code, and is not taken for its code")
	}
	got := codePaths(t, ix, "join a room")
	if want := "[dist/socket.js client-dist/socket.io.js]"; fmt.Sprint(got) != want {
		t.Errorf("the build alone: %v, want %s", got, want)
	}

	var sources []CodeFile
	for _, name := range []string{"index", "namespace", "client", "broadcast-operator", "adapter", "uws"} {
		sources = append(sources, CodeFile{Path: "lib/" + name + ".ts",
			Symbols: []CodeSymbol{{Name: "lib." + name + ".other", Kind: "function", Line: 1, End: 3}}})
	}
	putCode(t, ix, sources)
	if ix.buildOnly("dist/socket.js") {
		t.Fatal("dist/ beside the 6 sources it is built from is still taken for the package's code")
	}
	got = codePaths(t, ix, "join a room")
	if want := "[client-dist/socket.io.js dist/socket.js]"; fmt.Sprint(got) != want {
		t.Errorf("the build beside its sources: %v, want %s", got, want)
	}
}

// TestBuildOnlyByPackage: a build is weighed against the code of its own
// package (the directory holding it), not the repository's.
func TestBuildOnlyByPackage(t *testing.T) {
	dir := t.TempDir()
	ix := openTest(t, mapFS(nil), Options{Dir: dir})
	var files []CodeFile
	add := func(p string) {
		files = append(files, CodeFile{Path: p, Symbols: []CodeSymbol{{Name: "f", Kind: "function", Line: 1, End: 2}}})
	}
	add("packages/a/dist/a.js")
	add("packages/a/dist/b.js")
	add("packages/a/index.js")
	add("packages/b/dist/a.js")
	for i := range 3 {
		add(fmt.Sprintf("packages/b/src/s%d.ts", i))
	}
	add("packages/b/src/s.test.ts") // tests are not the package's code
	add("packages/b/src/s.d.ts")    // nor declarations
	putCode(t, ix, files)
	expect := func(ix *Index, how string, want map[string]bool) {
		t.Helper()
		for file, want := range want {
			if got := ix.buildOnly(file); got != want {
				t.Errorf("%s: buildOnly(%q) = %v, want %v", how, file, got, want)
			}
		}
	}
	want := map[string]bool{"packages/a/dist/a.js": true, "packages/b/dist/a.js": false, "packages/a/index.js": false}
	expect(ix, "put", want)
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	// Loaded, the paths are searched in the table; documents put after,
	// in the overlay.
	loaded := openTest(t, mapFS(nil), Options{Dir: dir})
	if loaded.tab == nil {
		t.Fatal("the saved index was not loaded as a table")
	}
	expect(loaded, "loaded", want)
	files = files[:0]
	add("packages/a/lib.js")
	add("packages/a/util/u.js")
	putCode(t, loaded, files)
	if loaded.tab == nil {
		t.Fatal("the change decoded the tables")
	}
	want["packages/a/dist/a.js"] = false
	expect(loaded, "loaded, then two sources put", want)
}

// TestBuildOnlyTwoBuilds: two builds of the sources beside them
// (handlebars's dist/cjs/ and dist/amd/ of lib/) outnumber the sources'
// files but are no sign that the build is the package's code; a build
// of files named as none beside it still is.
func TestBuildOnlyTwoBuilds(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	fn := func(p string) CodeFile {
		return CodeFile{Path: p, Symbols: []CodeSymbol{{Name: strings.ReplaceAll(strings.TrimSuffix(p, ".js"), "/", ".") + ".f", Kind: "function", Line: 1, End: 3}}}
	}
	var files []CodeFile
	for _, name := range []string{"base", "helpers", "logger", "utils"} {
		files = append(files, fn("hb/lib/handlebars/"+name+".js"), fn("hb/dist/cjs/handlebars/"+name+".js"), fn("hb/dist/amd/handlebars/"+name+".js"))
	}
	for _, name := range []string{"a", "b", "c"} {
		files = append(files, fn("sio/dist/"+name+".js"))
	}
	files = append(files, fn("sio/wrapper.js"))
	putCode(t, ix, files)
	if ix.buildOnly("hb/dist/cjs/handlebars/base.js") {
		t.Error("two builds of lib/ beside it are taken for the package's code")
	}
	if !ix.buildOnly("sio/dist/a.js") {
		t.Error("a build of 3 files beside one wrapper is not taken for the package's code")
	}
}

// TestDeclarationFile: the declaration files of ES and CommonJS modules
// are declarations as .d.ts files are, and rank as auxiliary code.
func TestDeclarationFile(t *testing.T) {
	for file, want := range map[string]bool{
		"index.d.ts": true, "dist/cjs/maybe.d.cts": true, "dist/es/maybe.d.mts": true, "types/Index.D.TS": true,
		"src/maybe.ts": false, "src/d.ts": false, "src/maybe.cts": false,
	} {
		if got := DeclarationFile(file); got != want {
			t.Errorf("DeclarationFile(%s) = %v, want %v", file, got, want)
		}
		if got := auxiliaryUnbuilt(file); got != want {
			t.Errorf("auxiliaryUnbuilt(%s) = %v, want %v", file, got, want)
		}
	}
}
