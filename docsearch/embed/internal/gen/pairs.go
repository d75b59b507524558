package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// A pair is what a function says it does and what it is: the first
// sentence of its doc comment, and its source without the doc comment.
type pair struct {
	query, code string
	name        string // the function's name, for the title of a known-item set's document
	rest        string // the doc comment after its first sentence, on one line
}

// A corpus is a pinned npm package whose documented functions give pairs.
type corpus struct {
	source
	// keep says which of the package's files (paths without the
	// tarball's top directory) to read; zip names a zip archive in the
	// package whose files are read instead.
	keep func(name string) bool
	zip  string
	deb  bool // pkg is a Debian package, name=version (deb.go)
	// howto says the package is documentation whose task-like sections
	// give the pairs, not functions (howto.go).
	howto bool
}

// corpora are the packages the vectors are tuned on: Python's standard
// library as pyodide ships it, and documented JavaScript and TypeScript
// APIs, so that the words of descriptions move towards the identifiers
// of code in more than one language.
var corpora = []corpus{
	{
		source: source{
			pkg:       "pyodide@0.26.4",
			integrity: "sha512-z2CHsjVlhhJi5tYBF0AYAfNEPo3zq/z+xOpFtk1tweJkRaTqU4UK/7pLvo8DBU2VDPH31vB3pSI+8fnoqrVrFg==",
			license:   "the Python standard library in its python_stdlib.zip: PSF-2.0",
		},
		zip:  "python_stdlib.zip",
		keep: func(name string) bool { return path.Ext(name) == ".py" && !isTestPath(name) },
	},
	{
		source: source{
			pkg:       "lodash@4.17.21",
			integrity: "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",
			license:   "MIT",
		},
		// The one-function modules, not the bundles or the internal helpers.
		keep: func(name string) bool {
			return !strings.Contains(name, "/") && path.Ext(name) == ".js" && !strings.HasPrefix(name, "_") &&
				!strings.HasPrefix(name, "lodash") && !strings.HasPrefix(name, "core")
		},
	},
	{
		source: source{
			pkg:       "date-fns@4.1.0",
			integrity: "sha512-Ukq0owbQXxa/U3EGtsdVBkR1w7KOQ5gIBqdH2hkvknzZPYvBxb/aa6E8L7tmjFtkwZBu3UXBbjIgPo/Ez4xaNg==",
			license:   "MIT",
		},
		keep: func(name string) bool { return !strings.Contains(name, "/") && path.Ext(name) == ".js" },
	},
	{
		source: source{
			pkg:       "typescript@5.6.3",
			integrity: "sha512-hjcS1mhfuyi4WW8IWtjP7brDrG2cuDZukyrYrSauoXGNgx0S7zceP07adYkJycEr56BOUTNPzbInooiN3fn1qw==",
			license:   "Apache-2.0",
		},
		keep: func(name string) bool { return strings.HasPrefix(name, "lib/lib.") && strings.HasSuffix(name, ".d.ts") },
	},
	{
		source: source{
			pkg:       "@types/node@22.10.1",
			integrity: "sha512-qKgsUwfHZV2WCWLAnVP1JqnpE6Im6h3Y0+fYgMTasNQ7V++CBX5OT1as0g0f+OyubbFqhf6XVNIsmN4IIhEgGQ==",
			license:   "MIT",
		},
		keep: func(name string) bool { return path.Dir(name) == "node" && strings.HasSuffix(name, ".d.ts") },
	},
	{
		source: source{
			pkg:       "@types/vscode@1.95.0",
			integrity: "sha512-0LBD8TEiNbet3NvWsmn59zLzOFu/txSlGxnv5yAFHCrhG9WvAnR3IvfHzMOs2aeWqgvNjq9pO99IUw8d3n+unw==",
			license:   "MIT",
		},
		keep: func(name string) bool { return name == "vscode/index.d.ts" },
	},
	{
		source: source{
			pkg:       "@types/chrome@0.0.287",
			integrity: "sha512-wWhBNPNXZHwycHKNYnexUcpSbrihVZu++0rdp6GEk5ZgAglenLx+RwdEouh6FrHS0XQiOxSd62yaujM1OoQlZQ==",
			license:   "MIT",
		},
		keep: func(name string) bool { return name == "chrome/index.d.ts" },
	},

	{
		source: source{
			pkg:       "node-gyp@10.2.0",
			integrity: "sha512-sp3FonBAaFe4aYTcFdZUn2NYkbP7xroPGYvQmP4Nl5PxamznItBnNCgjrVTKrEfQynInMsJvZrdmqUnysCJ8rw==",
			license:   "MIT (node-gyp); gyp: BSD-3-Clause",
		},
		keep: func(name string) bool {
			return strings.HasPrefix(name, "gyp/pylib/") && path.Ext(name) == ".py" && !strings.HasSuffix(name, "_test.py")
		},
	},
}

// gatherPairs returns the pairs of the corpora, the Debian corpora and
// the extra ones (only those named in the
// comma-separated only, when set), and a
// description of each corpus used: name, integrity and licence. The
// packages are read from dir as `npm pack` and `apt-get download` name
// them, or fetched by those commands when dir is empty or lacks them.
//
// With cache set, a corpus's pairs are read from cache/NAME.json when it
// is there and written there when not, NAME its pinned name and
// integrity: a convenience for iterating on tuning, since extracting the
// pairs takes most of a run; the pairs depend on package extract too, so
// a cache outlives no change to it.
func gatherPairs(dir, only, cache string, extra []corpus, howto, howtoAll, howtoIntro bool, howtoTimes int) ([]pair, []string, error) {
	var pairs, sections []pair
	var used []string
	all := slices.Concat(corpora, debCorpora, extra)
	if howto {
		all = append(all, debDocCorpora...)
	}
	add := func(c corpus, ps []pair) {
		if c.howto {
			sections = append(sections, ps...)
		} else {
			pairs = append(pairs, ps...)
		}
		used = append(used, fmt.Sprintf("%s (%s; %s)", c.pkg, c.integrity, c.license))
	}
	for _, c := range all {
		if only != "" && !slices.Contains(strings.Split(only, ","), c.name()) {
			continue
		}
		if ps, ok := readPairCache(cache, c); ok {
			add(c, ps)
			continue
		}
		var files map[string][]byte
		var err error
		if c.deb {
			files, err = fetchDeb(c.pkg, c.integrity, dir)
		} else {
			tgz := ""
			if dir != "" {
				tgz = filepath.Join(dir, packName(c.pkg))
			}
			files, err = fetch(c.pkg, c.integrity, tgz)
		}
		if err != nil {
			return nil, nil, err
		}
		ps, err := corpusPairs(c, files)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", c.pkg, err)
		}
		fmt.Fprintf(os.Stderr, "tune: %s: %d pairs\n", c.pkg, len(ps))
		if err := writePairCache(cache, c, ps); err != nil {
			return nil, nil, err
		}
		add(c, ps)
	}
	if len(sections) > 0 {
		verbs := docVerbs(pairs, minVerbPairs)
		if howtoAll {
			verbs = nil
		}
		hs := howtoPairs(sections, verbs, howtoIntro)
		fmt.Fprintf(os.Stderr, "tune: %d of %d documentation sections with code have task-like headings\n", len(hs), len(sections))
		for range max(howtoTimes, 1) {
			pairs = append(pairs, hs...)
		}
	}
	return pairs, used, nil
}

// cachedPair is a pair as the pair cache stores it.
type cachedPair struct{ Query, Code, Name, Rest string }

// pairCacheFile is where the pairs of c are cached in dir.
func pairCacheFile(dir string, c corpus) string {
	key := strings.NewReplacer("/", "_", "=", "_", ":", "_", "+", "_").Replace(c.pkg + "_" + c.integrity)
	return filepath.Join(dir, key+".json")
}

func readPairCache(dir string, c corpus) ([]pair, bool) {
	if dir == "" {
		return nil, false
	}
	b, err := os.ReadFile(pairCacheFile(dir, c))
	if err != nil {
		return nil, false
	}
	var cps []cachedPair
	if json.Unmarshal(b, &cps) != nil {
		return nil, false
	}
	ps := make([]pair, len(cps))
	for i, cp := range cps {
		ps[i] = pair{query: cp.Query, code: cp.Code, name: cp.Name, rest: cp.Rest}
	}
	return ps, true
}

func writePairCache(dir string, c corpus, ps []pair) error {
	if dir == "" {
		return nil
	}
	cps := make([]cachedPair, len(ps))
	for i, p := range ps {
		cps[i] = cachedPair{p.query, p.code, p.name, p.rest}
	}
	b, err := json.Marshal(cps)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeAtomic(pairCacheFile(dir, c), b)
}

// name returns the package name of c, without its version.
func (c corpus) name() string {
	if c.deb {
		name, _, _ := strings.Cut(c.pkg, "=")
		return name
	}
	return c.pkg[:strings.LastIndex(c.pkg, "@")]
}

// corpusPairs returns the pairs of c's package, whose files are files:
// one for every function and method with a doc comment and, outside
// declaration files, a body of at least minLines lines. Files are read in
// path order.
func corpusPairs(c corpus, files map[string][]byte) ([]pair, error) {
	if c.howto {
		return docSections(c, files), nil
	}
	srcs := map[string][]byte{}
	if c.zip != "" {
		raw, ok := files[c.zip]
		if !ok {
			return nil, fmt.Errorf("%s not in the package", c.zip)
		}
		zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.zip, err)
		}
		for _, zf := range zr.File {
			if !c.keep(zf.Name) {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", zf.Name, err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", zf.Name, err)
			}
			srcs[zf.Name] = b
		}
	} else {
		for name, b := range files {
			if c.keep(name) {
				srcs[name] = b
			}
		}
	}
	names := make([]string, 0, len(srcs))
	for name := range srcs {
		names = append(names, name)
	}
	sort.Strings(names)
	ex, err := extract.New(os.TempDir(), extract.Options{})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	var out []pair
	for _, name := range names {
		f, err := ex.Source(context.Background(), name, srcs[name])
		if err != nil {
			continue // not UTF-8, too big, no grammar: not training data
		}
		out = append(out, filePairs(f, srcs[name])...)
	}
	return out, nil
}

// isTestPath reports whether name is in a test package or module: their
// docstrings describe tests, not what the code does.
func isTestPath(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == "test" || part == "tests" || part == "idle_test" || strings.HasPrefix(part, "test_") {
			return true
		}
	}
	return false
}

// minLines is the shortest function body, in lines, a pair is made of;
// shorter ones (getters, stubs) say little a query could ask for.
const minLines = 3

// filePairs returns the pairs of f's functions and methods.
func filePairs(f *extract.File, src []byte) []pair {
	lines := strings.Split(string(src), "\n")
	decl := strings.HasSuffix(f.Path, ".d.ts")
	var out []pair
	for _, s := range f.Symbols {
		if s.Kind != extract.KindFunction && s.Kind != extract.KindMethod || s.Doc == "" {
			continue
		}
		if !decl && s.EndLine-s.StartLine+1 < minLines || s.EndLine > len(lines) || s.StartLine < 1 {
			continue
		}
		q := summary(s.Doc)
		if len(strings.Fields(q)) < 3 {
			continue
		}
		body := lines[s.StartLine-1 : s.EndLine]
		code := strings.Join(body, "\n")
		if f.Language == "python" {
			code = withoutDocstring(body)
		}
		out = append(out, pair{query: q, code: code, name: s.Name, rest: docRest(s.Doc, q)})
	}
	return out
}

// summary returns the first sentence of a doc comment: up to the first
// blank line or full stop followed by a space or line end.
func summary(doc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	for i := 0; i+1 < len(para); i++ {
		if para[i] == '.' && para[i+1] == ' ' {
			return para[:i+1]
		}
	}
	return para
}

// docRest returns the doc comment doc after its first sentence, summary,
// with its runs of white space made single spaces.
func docRest(doc, summary string) string {
	all := strings.Join(strings.Fields(doc), " ")
	rest, ok := strings.CutPrefix(all, summary)
	if !ok {
		return ""
	}
	return strings.TrimSpace(rest)
}

// withoutDocstring drops the first string statement after the def line
// (the docstring) from a Python function's lines.
func withoutDocstring(lines []string) string {
	// The def line may continue over several lines; the docstring is the
	// first line after the one ending in ':' that starts with a quote.
	i := 0
	for i < len(lines) && !strings.HasSuffix(strings.TrimSpace(stripComment(lines[i])), ":") {
		i++
	}
	i++
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) {
		return strings.Join(lines, "\n")
	}
	t := strings.TrimLeft(strings.TrimSpace(lines[i]), "rRuUbB")
	var quote string
	switch {
	case strings.HasPrefix(t, `"""`):
		quote = `"""`
	case strings.HasPrefix(t, `'''`):
		quote = `'''`
	case strings.HasPrefix(t, `"`), strings.HasPrefix(t, `'`):
		return strings.Join(append(append([]string{}, lines[:i]...), lines[i+1:]...), "\n")
	default:
		return strings.Join(lines, "\n")
	}
	end := i
	if strings.Count(t, quote) < 2 {
		for end = i + 1; end < len(lines) && !strings.Contains(lines[end], quote); end++ {
		}
	}
	kept := append(append([]string{}, lines[:i]...), lines[min(end+1, len(lines)):]...)
	return strings.Join(kept, "\n")
}

func stripComment(s string) string {
	if i := strings.Index(s, "#"); i >= 0 {
		return s[:i]
	}
	return s
}
