package docsearch

import (
	"path"
	"slices"
	"strings"
)

// auxDemote multiplies the fused score of a code result in a test,
// vendored or generated file: such code ranks under the code it tests or
// copies, unless the query asks for tests.
const auxDemote = 0.5

// declDemote multiplies the fused score of a declaration without a body
// (CodeSymbol.Decl): the implementation is the answer, the declaration
// its echo.
const declDemote = 0.7

// Priors of a code result by what its symbol is, for a query that asks
// for a task (asksForTask): a task is answered by a function that does it,
// not by the type it is a member of, a dunder method of the protocol
// boilerplate, or a one- or two-line member that matches on density.
// Measured with `bench code` (docs/code-search.md), function-level
// nDCG@10 on the tuning split of docs/bench/codegen and on docs/bench/code:
// none 0.220 and 0.684; these 0.231 and 0.697. Types demoted for every
// query in words gave 0.234 and 0.706 (0.85 for those that ask no task:
// 0.234, 0.704), but then a description of a class ("the central WSGI
// object") no longer finds the class; 0.8 / 0.7 / 0.85 everywhere, 0.230
// and 0.704.
const (
	typeDemote   = 0.6
	dunderDemote = 0.7
	shortDemote  = 0.7
	shortLines   = 2
)

// taskVerbs are verbs a query for a task starts with, in the forms
// questions and doc comments use. The second group (2026-12-07,
// twenty-fourth session) holds the verbs of programming tasks the first
// lacked ("extract all files from a zip archive", "serve static files",
// "retry when the server responds 429"): a question that starts with one
// was not taken for a task, so a class ranked above the method that does
// it. With them, and the code weights refitted (codeWeights), the
// written questions' left-out objective went from 0.6955 to 0.7018.
var taskVerbs = map[string]bool{}

func init() {
	for _, v := range strings.Fields(`add append apply build call cancel change check clear close compare
		compute convert copy count create decode delete encode ensure escape find flush format generate get
		handle initialize initialise insert invoke iterate join list load log lookup make merge move open parse
		print process read register reload remove render replace reset resolve return run save search send
		serialize set sort split start stop strip update validate wait walk write

		accept allow assign attach authenticate bind block bump cache capture catch clone collect combine
		compress configure connect construct consume decompress decrypt define deprecate detect disable
		display download drop dump emit enable encrypt enumerate evaluate execute expand export expose extend
		extract fetch fill filter fix force forward hide highlight ignore import include increase increment
		inject inspect install intercept keep kill limit listen lock map mark measure memoize modify monitor
		mount normalize notify observe override pad paginate pass pause pick plug poll prepend prevent produce
		provide publish pull push put raise receive redirect reduce refresh reject release rename repeat
		require restart restore restrict resume retry reuse reverse rotate route sanitize schedule select
		serve show skip sleep spawn specify store subscribe suggest suppress swap sync take throttle throw
		toggle track transform translate traverse trigger trim truncate turn unlock unpack unwrap upload
		upgrade use verify visit watch wrap`) {
		taskVerbs[v] = true
		taskVerbs[v+"s"] = true
		taskVerbs[v+"es"] = true
		if stem, ok := strings.CutSuffix(v, "y"); ok && !strings.ContainsAny(stem[len(stem)-1:], "aeiou") {
			taskVerbs[stem+"ies"] = true // copies, retries
		}
	}
}

// asksForTask reports whether a query asks how to do something: a how-to
// question, or words that start with a verb ("parse the header",
// "returns the first waiter"). A description of a thing ("the central
// WSGI object") or an identifier asks for no task.
func asksForTask(q string, qt QueryType) bool {
	if qt == QueryHowTo {
		return true
	}
	if qt == QueryCodeLookup {
		return false
	}
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(q)), " ")
	return taskVerbs[strings.Trim(first, ".,:;!?")]
}

// behaviourWords ask how code behaves in a question that does not start
// with a task's verb: "what happens when ...", "why does ...", "the list
// should come out as ...".
var behaviourWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`should shouldn't does doesn't do don't did didn't can can't cannot could
		will won't would happens happen happened when how why where whenever instead`) {
		behaviourWords[w] = true
	}
}

// asksBehaviour reports whether a query in words (lower case) that asks
// for no task (asksForTask) still asks what code does: a task's verb in
// any of its forms past the first word (retrying, cached), or a word that
// asks how code behaves (behaviourWords). A description of a thing
// ("central object WSGI application") has neither, and is answered by
// the thing.
func asksBehaviour(lq string) bool {
	for _, w := range strings.Fields(lq) {
		w = strings.Trim(w, ".,:;!?()'\"`")
		if taskVerbs[w] || behaviourWords[w] || verbForm(w) {
			return true
		}
	}
	return false
}

// verbForm reports whether w is a task verb's -ing or -ed form:
// retrying, caching, running; edited, cached, stopped, retried.
func verbForm(w string) bool {
	for _, suffix := range []string{"ing", "ed"} {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 2 {
			continue
		}
		n := len(stem)
		if taskVerbs[stem] || taskVerbs[stem+"e"] || stem[n-1] == stem[n-2] && taskVerbs[stem[:n-1]] {
			return true
		}
		if y, ok := strings.CutSuffix(stem, "i"); ok && suffix == "ed" && taskVerbs[y+"y"] {
			return true
		}
	}
	return false
}

// copyDemote multiplies the fused score of a code result whose text,
// past the lines naming its symbol and place and whitespace aside, is
// that of another result: a copy of the source (a bundled, built or
// vendored copy, a second checkout) ranks after the other results, where
// it is still found.
const copyDemote = 0.05

// copyWindow is how many of the first candidates are compared.
const copyWindow = 50

// minCopyBytes is the least text that makes two symbols copies: one-line
// bodies (a getter, `return x`) are alike without being copied.
const minCopyBytes = 80

// minShortCopyBytes is the least body, whitespace aside, that makes two
// symbols of the same signature copies when the body is shorter than
// minCopyBytes: `{return this._d;}` of two same-named getters is not.
const minShortCopyBytes = 24

// minCutCopyBytes is the least text, whitespace aside, that two symbols
// share when one's text goes on past the other's and they are still
// copies: a code document keeps at most maxCodeBody bytes of body,
// whitespace counted, so the copy indented deeper is cut sooner.
const minCutCopyBytes = 512

// demoteCopies lowers all but one of the code candidates with the same
// text, whitespace aside (copyDemote), among the first copyWindow of
// ranked, which is in fused order, and reports whether it lowered any.
//
// Of a source and a build's copy (builtCopy: a dist/ beside its sources,
// a module format's twin), the source is kept. Of two copies otherwise
// with the same text, whitespace and all (a vendored copy, a second
// checkout, a function copied from one module to another), the first
// ranked is kept. Of two that differ in layout, the one kept is the one
// that starts nearer the top of its file: a bundle or a wrapped build
// (UMD, a rollup of ES modules) concatenates modules and indents them, so
// its copy of a function lies further down its file than the module's
// own, and the two differ only in whitespace and the module's `export`:
// moment 2.30.1's moment.js holds src/lib/units/month.js's getSetMonth at
// line 1277, the module at line 248, and the bundle's copy ranked first
// for "get the beginning of the current month". Measured in
// docs/code-search.md (2026-12-07).
func (ix *Index) demoteCopies(ranked []hit) bool {
	type candidate struct {
		i         int    // in ranked
		text, raw string // without whitespace; as indexed
		short     bool   // a body under minCopyBytes, with its signature
		built     bool   // a build's copy (builtCopy)
	}
	var kept []candidate
	changed := false
	for i := range ranked[:min(len(ranked), copyWindow)] {
		d := ix.doc(ix.chunkDoc(ranked[i].chunk))
		if d == nil || !isCodeScope(d.scope) {
			continue
		}
		raw, text, short, ok := copyText(d)
		if !ok {
			continue
		}
		built := ix.builtCopy(d, codeFileOf(d.path))
		k := slices.IndexFunc(kept, func(c candidate) bool {
			return copies(c.raw, c.text, c.short, raw, text, short)
		})
		if k < 0 {
			kept = append(kept, candidate{i, text, raw, short, built})
			continue
		}
		changed = true
		if keepLater(raw != kept[k].raw, kept[k].built, built, ix.chunk(ranked[kept[k].i].chunk).line, ix.chunk(ranked[i].chunk).line) {
			ranked[kept[k].i].fused *= copyDemote
			kept[k] = candidate{i, text, raw, short, built}
			continue
		}
		ranked[i].fused *= copyDemote
	}
	return changed
}

// keepLater reports whether, of two copies, the one ranked later is kept
// and the one ranked first lowered: a source over a build's copy
// (builtCopy), else, when they are laid out otherwise, the one that
// starts nearer the top of its file.
func keepLater(laidOtherwise, firstBuilt, laterBuilt bool, firstLine, laterLine uint32) bool {
	if firstBuilt != laterBuilt {
		return firstBuilt
	}
	return laidOtherwise && laterLine < firstLine
}

// copyText returns what a code document's text is compared by for
// copies: its body as indexed (raw) and bare (text), with its signature
// when the body is short; ok is false for a body too short to tell a
// copy by. A short body is a copy only with its signature, name and all,
// and laid out otherwise (copies): a bundle's copy of a module's one-line
// getter. Two classes' same getters are not.
func copyText(d *doc) (raw, text string, short, ok bool) {
	raw = withoutCalls(codeBody(d.text))
	text = bareText(raw)
	if short = len(text) < minCopyBytes; short {
		_, sig := codeMeta(d.text)
		if len(text) < minShortCopyBytes || sig == "" || !strings.Contains(sig, unrenamed(localName(d.title))) {
			return "", "", false, false
		}
		raw = sig + "\n" + raw
		text = bareText(raw)
	}
	return raw, text, short, true
}

// copies reports whether two texts, as copyText gives them, are copies.
func copies(rawA, textA string, shortA bool, rawB, textB string, shortB bool) bool {
	return shortA == shortB && sameCode(textA, textB) && (!shortA || rawA != rawB)
}

// unrenamed returns name without the `$` and digits a bundler appended
// to it (renameSuffix): relativeTime for relativeTime$1.
func unrenamed(name string) string {
	if i := strings.LastIndexByte(name, '$'); i > 0 && renameSuffix(name, i) == len(name)-i {
		return name[:i]
	}
	return name
}

// sameCode reports whether two code texts without whitespace (bareText)
// are copies: the same, or one cut where the other goes on after at
// least minCutCopyBytes in common.
func sameCode(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || len(a) >= minCutCopyBytes && strings.HasPrefix(b, a)
}

// withoutCalls returns a code document's text without its last line
// when that lists the names it calls ("calls: ..."): a copy cut sooner
// than the other goes on to the same line, which would end its text
// where the other's body goes on.
func withoutCalls(text string) string {
	t := strings.TrimSuffix(text, "\n")
	if i := strings.LastIndexByte(t, '\n'); strings.HasPrefix(t[i+1:], "calls: ") {
		return t[:i+1]
	}
	return text
}

// bareText returns text without its ASCII whitespace, and without an
// `export` or `export default` that begins a line: a bundler drops it
// from the module's declarations it concatenates.
func bareText(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.Lines(text) {
		line = strings.TrimLeft(line, " \t")
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			line = strings.TrimPrefix(strings.TrimLeft(rest, " \t"), "default ")
		}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; c {
			case ' ', '\t', '\n', '\r', '\v', '\f':
			case '$':
				if n := renameSuffix(line, i); n > 0 {
					i += n - 1
					continue
				}
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// renameSuffix returns the length of the `$` and digits at line[i] that
// a bundler (rollup) appends to a module's name that another module's
// shadows in the bundle (relativeTime$1), or 0: a `$` after a letter,
// digit or `_`, digits after it, and no identifier byte after them.
func renameSuffix(line string, i int) int {
	if i == 0 || !isIdentByte(line[i-1]) {
		return 0
	}
	j := i + 1
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j == i+1 || j < len(line) && (isIdentByte(line[j]) || line[j] == '$') {
		return 0
	}
	return j - i
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// namedRaise multiplies the fused score of a code result named by the
// identifier a query is (QueryCodeLookup): its own name, or its
// qualified name's end for a qualified one ("packages.Load", which a Go
// symbol's name ends with after its import path's "/"). Callers
// and macros that repeat a name are shorter than its definition and
// ranked over it: Linux's KSM_KMEM_CACHE and shmem_init_inodecache over
// kmem_cache_create. Measured (docs/code-search.md, 2026-12-07) by
// `fileinfo bench code docs/bench/code --names` (each judged function's
// own name as the query), nDCG@10: 0.765 -> 0.837 over 676 names (FTS5
// 0.758), up in every language and split; 4 gave the same as 2.
const namedRaise = 2.0

// raiseNamed raises, among the first copyWindow of ranked, the code
// results named by query when it is one word, an identifier or a plain
// word (namedRaise), and reports whether it raised any.
func (ix *Index) raiseNamed(ranked []hit, query string) bool {
	if !oneWord(query) {
		return false
	}
	q := strings.TrimSpace(query)
	changed := false
	for i := range ranked[:min(len(ranked), copyWindow)] {
		d := ix.doc(ix.chunkDoc(ranked[i].chunk))
		if d == nil || !isCodeScope(d.scope) {
			continue
		}
		if namedBy(d.title, q) {
			ranked[i].fused *= namedRaise
			changed = true
		}
	}
	return changed
}

// namedBy reports whether the symbol of qualified name t is the one the
// identifier q names: t is q, or ends with it after a ".", ":" or "/"
// (a Go import path's).
func namedBy(t, q string) bool {
	return t == q || strings.HasSuffix(t, q) && len(t) > len(q) && strings.ContainsRune(".:/", rune(t[len(t)-len(q)-1]))
}

// nestedDemote multiplies the fused score of a function named by its
// place (a JavaScript callback or returned function, "<callback of
// .forEach>") that lies inside, or holds, a function or method ranked
// before it in the same file: the enclosing function's text holds its
// text, so it matched the same words, and the two took two of the first
// places ("proto.handle" and its "<callback of .forEach>"). A named
// nested function keeps its place (express's "process_params.param",
// under "process_params", was the answer asked for); so does a method
// under its class. Measured (docs/code-search.md, 2026-12-05, fifth
// session) on the tuning split of docs/bench/codegen: JavaScript
// function-level nDCG@10 0.305 -> 0.307 with 0.7 or 0.5 (the answer rose
// in 7 or 10 queries, fell in none), the written questions
// (docs/bench/code) 0.708 -> 0.709; lowering any nested function by 0.7
// gave JavaScript 0.299 (named answers under their enclosing function
// fell from 4th to 21st and 6th to 13th), by 0.9 0.306.
const nestedDemote = 0.7

// containerDemote multiplies the fused score of a module's top-level
// chunk or a type (class, object literal, ...) that holds a function or
// method ranked before it in the same file: its text holds that
// function's, so it matched by the same words, and it took a second
// place for one answer (flask's templating.Environment after its
// __init__, mocha's parsers object after parsers.json). A container
// ranked before its members keeps its place: a description of a class
// still finds the class. Measured (docs/code-search.md, 2026-12-05,
// eighth session) on the tuning split of docs/bench/codegen: function
// level nDCG@10 0.246 -> 0.248 (Python 0.286 -> 0.291, JavaScript 0.307
// -> 0.309; the answer rose in 22 queries and fell in none), the written
// questions (docs/bench/code) 0.719 -> 0.720; 0.5 and 0.3 gave the same
// figures. Lowering a container that holds any function among the first
// copyWindow, before or after it, gave 0.254 there and lost the written
// questions (0.708).
const containerDemote = 0.7

// demoteNested lowers, among the first copyWindow of ranked (in rank
// order), a function named by its place whose lines lie within, or hold,
// those of a function or method before it in the same file, or a named
// one within such a function and spanning at least half of it (webpack's
// Compiler.emitAssets.emitFiles, 327 of emitAssets' 346 lines: the same
// text twice) (nestedDemote), and a module or type chunk that holds a
// function, method, module or type ranked before it (containerDemote:
// Ruby's "module Rack" around "class Static", a class around its inner
// class), and reports whether it lowered any.
func (ix *Index) demoteNested(ranked []hit) bool {
	type span struct {
		file      string
		line, end uint32
	}
	before := make([]span, 0, copyWindow) // functions and methods
	var types []span                      // modules and types
	changed := false
	for i := range ranked[:min(len(ranked), copyWindow)] {
		d := ix.doc(ix.chunkDoc(ranked[i].chunk))
		if d == nil || !isCodeScope(d.scope) {
			continue
		}
		kind, _ := codeMeta(d.text)
		rec := ix.chunk(ranked[i].chunk)
		s := span{codeFileOf(d.path), rec.line, rec.end}
		if kind == "module" || typeKind(kind) {
			holds := func(b span) bool { return b.file == s.file && s.line <= b.line && b.end <= s.end && b != s }
			if slices.ContainsFunc(before, holds) || slices.ContainsFunc(types, holds) {
				ranked[i].fused *= containerDemote
				changed = true
			}
			types = append(types, s)
			continue
		}
		if kind != "function" && kind != "method" {
			continue
		}
		anonymous := strings.HasPrefix(localName(d.title), "<")
		for _, b := range before {
			if b.file != s.file {
				continue
			}
			inside, holds := b.line <= s.line && s.end <= b.end, s.line <= b.line && b.end <= s.end
			if anonymous && (inside || holds) || inside && spansHalf(s.line, s.end, b.line, b.end) {
				ranked[i].fused *= nestedDemote
				changed = true
				break
			}
		}
		before = append(before, s)
	}
	return changed
}

// codeBody is a code document's text past its first three lines (kind
// and name, signature, path and lines): what two copies of a symbol
// share.
func codeBody(text string) string {
	for range 3 {
		_, rest, ok := strings.Cut(text, "\n")
		if !ok {
			return ""
		}
		text = rest
	}
	return text
}

// asksForTests reports whether a query is about tests.
func asksForTests(q string) bool {
	return queryNames(q, "test", "tests", "testing", "unittest", "spec", "specs", "fixture", "fixtures", "mock", "mocks", "benchmark", "benchmarks")
}

// asksForExamples reports whether a query asks for code that uses an
// API rather than the API: "an example of mounting a router".
func asksForExamples(q string) bool {
	return queryNames(q, "example", "examples", "sample", "samples", "demo", "demos", "usage")
}

// queryNames reports whether one of q's words, lower-cased, is one of
// words.
func queryNames(q string, words ...string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !isLetter(r) }) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// inDir reports whether one of the directories on file's path,
// lower-cased, is one of dirs.
func inDir(file string, dirs ...string) bool {
	for _, dir := range strings.Split(strings.ToLower(path.Dir(file)), "/") {
		if slices.Contains(dirs, dir) {
			return true
		}
	}
	return false
}

// exampleCode reports whether file is in a directory of examples, samples
// or demos: programs that use the project's API, as tests do, which a
// question about the API is not asking for (chi's _examples/, logrus's
// example/), and Storybook's stories (Button.stories.tsx), which render a
// component as an example does.
func exampleCode(file string) bool {
	return strings.Contains(strings.ToLower(path.Base(file)), ".stories.") ||
		inDir(file, "example", "examples", "_example", "_examples", "sample", "samples", "demo", "demos")
}

// SideCode reports whether the code file at slash path file is beside
// a project's own code: test code, an example, a build tool's
// configuration or a translation (sides), by its name or directory, which
// the code ranking demotes for a query that does not ask for it. A
// benchmark's lexical peer leaves such files out, its stronger
// configuration (docs/code-search.md, 2026-12-07).
func SideCode(file string) bool {
	return sides{}.lowers(file, "")
}

// testCode reports whether file is test code by its name or directory, in
// the conventions of the languages fileinfo reads; the extractor's own
// verdict, which knows more of them (JUnit's FooTest.java, .NET's
// Foo.Tests/), comes with each symbol (isTestSymbol). Benchmarks (Cargo's
// benches/, a benchmark/ or benchmarks/ tree, Linux's
// lib/find_bit_benchmark.c) exercise the API as tests do.
func testCode(file string) bool {
	base := strings.ToLower(path.Base(file))
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"), stem == "tests", stem == "test",
		stem == "conftest", strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"),
		strings.HasSuffix(stem, "_spec"), strings.HasSuffix(stem, "_benchmark"), strings.HasSuffix(stem, "-benchmark"), strings.HasSuffix(stem, ".bench"):
		return true
	}
	return inDir(file, "test", "tests", "testing", "__tests__", "spec", "testdata", "fixtures", "e2e", "benches", "benchmark", "benchmarks")
}

// auxiliaryCode reports whether file is vendored or generated code, or
// declarations of code kept elsewhere: a TypeScript declaration file
// (DeclarationFile) or a Python stub (.pyi), whose every name repeats one of the
// module beside it, signature and all, and so matched a query as well as
// the code it declares (werkzeug's datastructures.pyi before
// datastructures.py; docs/code-search.md, 2026-12-05, fifth session).
func auxiliaryCode(file string) bool {
	_, built := buildRoot(file)
	return built || auxiliaryUnbuilt(file)
}

// DeclarationFile reports whether the file at slash path file is a
// TypeScript declaration file: .d.ts, or the .d.mts and .d.cts that tsc
// writes for ES and CommonJS modules (true-myth's dist/cjs/maybe.d.cts).
func DeclarationFile(file string) bool {
	base := strings.ToLower(path.Base(file))
	return strings.HasSuffix(base, ".d.ts") || strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts")
}

// auxiliaryUnbuilt is auxiliaryCode but for being in a build directory
// (buildRoot), which Index.buildOnly may overrule.
func auxiliaryUnbuilt(file string) bool {
	base := strings.ToLower(path.Base(file))
	switch {
	case strings.HasSuffix(base, ".pb.go"), DeclarationFile(base), strings.HasSuffix(base, ".pyi"), strings.HasPrefix(base, "zz_generated"), strings.Contains(base, "_generated."),
		strings.Contains(base, ".generated."), strings.HasSuffix(base, ".min.js"), strings.HasSuffix(base, "_string.go"):
		return true
	}
	return inDir(file, "vendor", "third_party", "third-party", "node_modules", "_vendor", "vendored")
}

// descendingScores makes the scores of results, which are in rank order,
// never rise down the list: a result shows at most the score of the one
// before it. Relevance is computed per retriever and rank is their fusion,
// so a lower-ranked result could otherwise show the higher score (a 0.929
// before a 0.945), and a reader of one list of code and prose could not
// tell which to trust.
func descendingScores(rs []Result) {
	for i := 1; i < len(rs); i++ {
		rs[i].Score = min(rs[i].Score, rs[i-1].Score)
	}
}
