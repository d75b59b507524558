package docsearch

import "testing"

// TestDeprecatedCode: the marks of deprecated code in each convention,
// and what is not one.
func TestDeprecatedCode(t *testing.T) {
	for _, c := range []struct {
		file, text string
		want       bool
	}{
		{"src/deprecated/internals/procedure.ts", "function createProcedure\nfunction createProcedure()\nx\n", true},
		{"jsonschema/_legacy_validators.py", "function dependencies_draft3\ndef dependencies_draft3()\nx\n", true},
		{"legacy.go", "function Old\nfunc Old()\nx\n", true},
		{"flag.go", "function Old\nfunc Old()\nflag.go:1-3\nOld parses.\n\nDeprecated: use New.\nreturn nil\n", true},
		{"lib/a.js", "function old\nfunction old()\nlib/a.js:1-3\nParses.\n@deprecated since 2.0\nreturn 1\n", true},
		{"pkg/a.py", "function old\ndef old()\npkg/a.py:1-3\nParses.\n.. deprecated:: 2.0\nreturn 1\n", true},
		{"A.java", "method A.run\npublic void run()\nA.java:3-5\n@Deprecated\npublic void run() {\n", true},
		{"src/lib.rs", "function lib.old\npub fn old()\nsrc/lib.rs:3-5\n#[deprecated(note = \"use new\")]\npub fn old() {\n", true},
		{"Ctl.cs", "method Ctl.List\npublic IActionResult List()\nCtl.cs:3-5\n[Obsolete]\npublic IActionResult List()\n", true},
		{"a.swift", "function a.old\nfunc old()\na.swift:3-5\n@available(*, deprecated, message: \"use new\")\nfunc old() {\n", true},
		{"pkg/b.py", "function b.old\ndef old()\npkg/b.py:3-5\n@typing_extensions.deprecated(\"use new\")\ndef old():\n", true},
		// A function that warns about one deprecated use of itself is not deprecated.
		{"lib/response.js", "method res.json\nfunction json(obj)\nlib/response.js:1-9\nif (arguments.length === 2) { deprecate('res.json(status, obj)') }\n", false},
		{"jsonschema/validators.py", "method iter_errors\ndef iter_errors(self, instance, _schema=None)\nx:1-9\nwarnings.warn('Passing a schema', DeprecationWarning)\n", false},
		{"src/legacyish/a.go", "function A\nfunc A()\nx\n", false},
		{"deprecation.go", "function Warn\nfunc Warn()\nx\n", false},
	} {
		if got := deprecatedCode(c.file, c.text); got != c.want {
			t.Errorf("deprecatedCode(%q) = %v, want %v", c.file, got, c.want)
		}
	}
}

// TestDeprecatedRanksLast: of two functions that match a question about
// alike, the one its doc deprecates comes second under the built-in
// weights, and first with the feature unweighed (the fixture matches it
// better); a question that asks for the deprecated one still gets it.
func TestDeprecatedRanksLast(t *testing.T) {
	old := CodeSymbol{Name: "flag.ParseFlags", Kind: "function", Signature: "func ParseFlags(args []string) error",
		Doc: "ParseFlags parses the command line flags into the flag set.\n\nDeprecated: use Parse.", Body: "return Parse(args)", Line: 10, End: 14}
	cur := CodeSymbol{Name: "flag.Parse", Kind: "function", Signature: "func Parse(args []string) error",
		Doc: "Parse reads the arguments.", Body: "for _, a := range args { set(a) }\nreturn nil", Line: 20, End: 30}
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{{Path: "flag.go", Symbols: []CodeSymbol{old, cur}}})
	unweighed := CodeWeights()
	unweighed[featDeprecated] = 0
	const q = "parse the command line flags"
	if got := firstCode(t, ix, q, nil); got != "flag.Parse" {
		t.Errorf("%q: first %s, want flag.Parse", q, got)
	}
	if got := firstCode(t, ix, q, unweighed); got != "flag.ParseFlags" {
		t.Errorf("%q unweighed: first %s, want flag.ParseFlags (else the test shows nothing)", q, got)
	}
	if got := firstCode(t, ix, "the deprecated way to parse command line flags", nil); got != "flag.ParseFlags" {
		t.Errorf("asked for the deprecated one: first %s, want flag.ParseFlags", got)
	}
}
