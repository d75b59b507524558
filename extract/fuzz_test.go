package extract

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets feed arbitrary bytes to each language family's
// extractor. Run each for a minute before changing a query or hook:
//
//	go test ./extract -run '^$' -fuzz '^FuzzExtractGo$' -fuzztime 60s
//
// Seeds are the golden files plus a few broken snippets.

func FuzzExtractGo(f *testing.F)     { fuzzFamily(f, "go") }
func FuzzExtractPython(f *testing.F) { fuzzFamily(f, "python") }
func FuzzExtractJS(f *testing.F)     { fuzzFamily(f, "javascript", "typescript", "tsx") }
func FuzzExtractJVM(f *testing.F)    { fuzzFamily(f, "java", "kotlin", "scala", "csharp") }
func FuzzExtractC(f *testing.F)      { fuzzFamily(f, "c", "cpp", "rust", "swift") }
func FuzzExtractScript(f *testing.F) { fuzzFamily(f, "ruby", "php", "lua", "bash") }

var brokenSeeds = []string{
	"",
	"\xff\xfe\x00garbage",
	"class {",
	"func (",
	"def f(:\n  return",
	"}}}}{{{{",
	"/* unterminated",
	"\"unterminated string",
	strings.Repeat("(", 500),
	"a.b.c.d.e.f(g(h(i(j()))))",
	// C statement macros, which the extractor rewrites and parses again.
	"int f(void)\n{\n\tfor_each_cpu(i)\n\t\tsum += g(i);\n\tfor_each(c) { h(c); }\n}\nint k(void) { return 1; }\n",
	"interface I {\n  <T>(a: T): T\n  <T>(b: T): T\n}\nfunction f() { if (x) {} }\n",
	// TypeScript's optional parameter marks in a JavaScript file.
	"function action(a, b?) { if (a) { run(b?.c ? d : e); } }\nfunction g(x?: Map<A, (b) => C>, y?) {}\nf(a?,\n",
	// Function expressions named by where they are.
	"app.get('/u', (req, res) => { res.send(f(function g() { h(); })); });\n(function () { x(); })();\nregister({ setup() {}, k: () => 1 });\n<A on={() => p()} />;\n",
	// Places: anonymous functions outside named functions (Go, PHP, Ruby, Lua, C#).
	"var c = &X{Run: func() { f() }, \"k\": func() {}}\nvar _ = func() int { return 1 }()\n",
	"<?php\nRoute::get('/u', function () { return f(); });\nreturn fn($x) => $x;\n",
	"get '/u' do\n  f(1)\nend\nclass A\n  scope :a, -> { where(x) }\nend\n",
	"app:get('/u', function(r) return f(r) end)\nlocal s = (function() return function() end end)()\nreturn function() end\n",
	"app.MapGet(\"/u\", () => F());\nclass A { Func<int> f = () => 1; }\n",
	"val a = routing { get(\"/u\") { c -> f(c) } }\nstatic RE: L = L::new(|| r());\nauto c = [](int a) { return a; };\n",
	// JSDoc blocks separated from their declarations by blank lines.
	"/**\n * doc\n */\n\n\nres.f = function () {};\n/** @file x */\n\n */\n\nfunction g() {}\nx /**\n*/\n\nclass K { /** m */\n\n m() {} }\n",
}

func fuzzFamily(f *testing.F, names ...string) {
	var langs []*Language
	for _, n := range names {
		if l := languages[n]; l != nil {
			langs = append(langs, l)
		}
	}
	if len(langs) == 0 {
		f.Skipf("no language of %v is registered", names)
	}
	for i, l := range langs {
		golden, _ := filepath.Glob(filepath.Join("testdata", "golden", l.Name, "*"))
		for _, g := range golden {
			if strings.HasSuffix(g, ".json") {
				continue
			}
			if src, err := os.ReadFile(g); err == nil {
				f.Add(uint8(i), src)
			}
		}
		for _, s := range brokenSeeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	ex, err := New(f.TempDir(), Options{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(ex.Close)
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		l := langs[int(which)%len(langs)]
		path := "dir/fuzz" + l.Extensions[0]
		file, err := ex.Source(context.Background(), path, src)
		if err != nil {
			var se *SkipError
			if !errors.As(err, &se) {
				t.Fatalf("%s: %v", l.Name, err)
			}
			return
		}
		checkInvariants(t, file, src)
	})
}

// checkInvariants holds for any extraction of any input.
func checkInvariants(t *testing.T, f *File, src []byte) {
	t.Helper()
	lines := strings.Count(string(src), "\n") + 1
	known := map[string]bool{f.Module: true}
	for _, s := range f.Symbols {
		known[s.Qualified] = true
		if s.Name == "" || s.Qualified == "" {
			t.Errorf("symbol without a name: %+v", s)
		}
		if s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > lines {
			t.Errorf("symbol %s: lines %d-%d outside 1-%d", s.Qualified, s.StartLine, s.EndLine, lines)
		}
		if !validKinds[s.Kind] {
			t.Errorf("symbol %s: kind %q", s.Qualified, s.Kind)
		}
	}
	if len(f.Places) > maxPlaces {
		t.Errorf("%d places, more than %d", len(f.Places), maxPlaces)
	}
	for _, p := range f.Places {
		if p.Name == "" || !strings.HasSuffix(p.Qualified, p.Name) || !utf8.ValidString(p.Qualified+p.Signature) {
			t.Errorf("place without a name, or not named under it: %+v", p)
		}
		if p.StartLine < 1 || p.EndLine < p.StartLine || p.EndLine > lines {
			t.Errorf("place %s: lines %d-%d outside 1-%d", p.Qualified, p.StartLine, p.EndLine, lines)
		}
	}
	for _, c := range f.Calls {
		if !known[c.Caller] {
			t.Errorf("call %+v: caller is neither a symbol nor the module", c)
		}
		if c.Line < 1 || c.Line > lines || c.Name == "" {
			t.Errorf("call %+v: bad position or name", c)
		}
	}
	for _, e := range f.Errors {
		if e.StartLine < 1 || e.EndLine < e.StartLine {
			t.Errorf("error range %+v", e)
		}
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) {
		t.Errorf("JSON is not valid UTF-8")
	}
}
