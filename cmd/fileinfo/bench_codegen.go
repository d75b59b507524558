package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/codeindex"
)

// A generated code-search data set (docs/bench/codegen) is a code-search
// data set (see bench_code.go) whose queries are derived by a rule from
// the doc comments of pinned repositories, listed in its repos.tsv:
//
//	name lang kind source version path split   (a header line first)
//
// split is "tune" or "held": the queries of a held-out repository are
// never looked at while tuning the ranking.
//
// The rule (genQuery): a function or method outside tests and generated
// or vendored trees, with a doc comment and a body of at least
// minGenLines lines; its query is the first sentence of the doc comment,
// without markup, code identifiers and the words of the function's own
// name, at least minGenWords words of which minGenContent are not stop
// words; a sentence found in another function's doc comment or anywhere
// else in the repository is no query (it would name its answer twice).
// Of a repository's candidates, genPerRepo are taken in the order of a
// hash of their qualified names. The doc comment a query comes from is
// then blanked in the fetched source, lines kept, so that neither ranker
// finds the question's own words beside its answer.

// Bounds of the generation rule.
const (
	genPerRepo    = 15
	minGenLines   = 3
	minGenWords   = 4
	minGenContent = 3
	maxGenWords   = 25
)

// blankedMark is written into a repository whose doc comments were
// blanked: the rule must see the pinned sources, so it never runs twice.
const blankedMark = ".fileinfo-codegen-blanked"

// genRepo is a line of repos.tsv.
type genRepo struct {
	Name, Lang, Kind, Source, Version, Path, Split string
}

// readGenRepos reads a generated data set's repos.tsv.
func readGenRepos(dir string) ([]genRepo, error) {
	b, err := readInput(filepath.Join(dir, "repos.tsv"))
	if err != nil {
		return nil, err
	}
	var out []genRepo
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 && cols[0] == "name" {
			continue
		}
		if len(cols) != 7 {
			return nil, fmt.Errorf("repos.tsv:%d: %d columns, want 7 (name lang kind source version path split)", i+1, len(cols))
		}
		if cols[6] != "tune" && cols[6] != "held" {
			return nil, fmt.Errorf("repos.tsv:%d: split %q, want tune or held", i+1, cols[6])
		}
		out = append(out, genRepo{cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]})
	}
	return out, nil
}

// genTarget is a function a query is generated from.
type genTarget struct {
	repo, path, symbol string
	line, end          int
	query, sentence    string
	hash               uint64
}

// runBenchCodeGen derives a generated data set's queries and qrels from
// the repositories fetch.sh fetched, and blanks their doc comments.
func runBenchCodeGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench code-gen", "DATASET", stderr)
	repos := fs.String("repos", "/tmp/fileinfo-bench-codegen", "`dir` holding the repositories the data set's fetch.sh fetched")
	blank := fs.Bool("blank", false, "instead of deriving the queries, blank the doc comments of the data set's own qrels.tsv in the fetched repositories, and write nothing: reproduces the committed set with any version of the extractor")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	list, err := readGenRepos(pos[0])
	if err != nil {
		return err
	}
	var committed map[string][]genTarget
	if *blank {
		if committed, err = readGenTargets(pos[0]); err != nil {
			return err
		}
	}
	var all []genTarget
	for _, r := range list {
		dir := filepath.Join(*repos, r.Name)
		if _, err := os.Stat(filepath.Join(dir, blankedMark)); err == nil {
			return fmt.Errorf("bench code-gen: %s was blanked already; fetch it afresh (rm -r %s; sh %s)", dir, dir, filepath.Join(pos[0], "fetch.sh"))
		}
		files, err := codeindex.Files(ctx, dir)
		if err != nil {
			return fmt.Errorf("bench code-gen: %s: %w", r.Name, err)
		}
		ts := committed[r.Name]
		if !*blank {
			if ts, err = genTargets(r.Name, dir, files); err != nil {
				return err
			}
		}
		for _, t := range ts {
			if err := blankDoc(dir, t); err != nil {
				return err
			}
		}
		// The blanked sources must give the targets no doc comment.
		again, err := codeindex.Files(ctx, dir)
		if err != nil {
			return fmt.Errorf("bench code-gen: %s: %w", r.Name, err)
		}
		for _, t := range ts {
			if d := docOf(again, t); d != "" {
				return fmt.Errorf("bench code-gen: %s %s:%d %s keeps a doc comment after blanking: %q", r.Name, t.path, t.line, t.symbol, d)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, blankedMark), nil, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: %d queries\n", r.Name, len(ts))
		all = append(all, ts...)
	}
	if *blank {
		fmt.Fprintf(stdout, "blanked the doc comments of %d queries over %d repositories\n", len(all), len(list))
		return nil
	}
	var q, qr strings.Builder
	qr.WriteString("query-id\trepo\tpath\tsymbol\tstart\tend\n")
	n := map[string]int{}
	for _, t := range all {
		n[t.repo]++
		id := fmt.Sprintf("%s-%02d", t.repo, n[t.repo])
		b, _ := json.Marshal(map[string]string{"_id": id, "repo": t.repo, "text": t.query})
		q.Write(b)
		q.WriteByte('\n')
		fmt.Fprintf(&qr, "%s\t%s\t%s\t%s\t%d\t%d\n", id, t.repo, t.path, t.symbol, t.line, t.end)
	}
	if err := os.WriteFile(filepath.Join(pos[0], "queries.jsonl"), []byte(q.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(pos[0], "qrels.tsv"), []byte(qr.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d queries over %d repositories\n", len(all), len(list))
	return nil
}

// docOf returns the doc comment the target's symbol has in files.
func docOf(files []docsearch.CodeFile, t genTarget) string {
	for _, f := range files {
		if f.Path != t.path {
			continue
		}
		for _, s := range f.Symbols {
			if s.Name == t.symbol && s.Line == t.line {
				return s.Doc
			}
		}
	}
	return ""
}

// readGenTargets reads a generated data set's qrels.tsv (query-id, repo,
// path, symbol, start, end) as the targets of each repository.
func readGenTargets(dir string) (map[string][]genTarget, error) {
	b, err := readInput(filepath.Join(dir, "qrels.tsv"))
	if err != nil {
		return nil, err
	}
	out := map[string][]genTarget{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 && cols[0] == "query-id" {
			continue
		}
		if len(cols) != 6 {
			return nil, fmt.Errorf("qrels.tsv:%d: %d columns, want 6 (query-id repo path symbol start end)", i+1, len(cols))
		}
		start, err1 := strconv.Atoi(cols[4])
		end, err2 := strconv.Atoi(cols[5])
		if err1 != nil || err2 != nil || start < 1 || end < start {
			return nil, fmt.Errorf("qrels.tsv:%d: bad line range %s-%s", i+1, cols[4], cols[5])
		}
		out[cols[1]] = append(out[cols[1]], genTarget{repo: cols[1], path: cols[2], symbol: cols[3], line: start, end: end})
	}
	return out, nil
}

// genTargets returns a repository's targets by the rule above, at most
// genPerRepo.
func genTargets(repo, dir string, files []docsearch.CodeFile) ([]genTarget, error) {
	var cands []genTarget
	count := map[string]int{}
	for _, f := range files {
		if genSkipFile(f.Path) {
			continue
		}
		for _, s := range f.Symbols {
			if s.Kind != "function" && s.Kind != "method" || s.End-s.Line+1 < minGenLines || s.Decl {
				continue
			}
			sent := firstSentence(s.Doc)
			q := genQuery(sent, s.Name)
			if q == "" {
				continue
			}
			count[sent]++
			h := fnv.New64a()
			h.Write([]byte(repo + "\x00" + f.Path + "\x00" + s.Name))
			cands = append(cands, genTarget{repo: repo, path: f.Path, symbol: s.Name, line: s.Line, end: s.End, query: q, sentence: sent, hash: h.Sum64()})
		}
	}
	slices.SortFunc(cands, func(a, b genTarget) int {
		switch {
		case a.hash < b.hash:
			return -1
		case a.hash > b.hash:
			return 1
		}
		return 0
	})
	// A sentence is kept only when it is found once in the repository's
	// files: not in another doc comment, a copy of the file or a caller's
	// comment.
	corpus, err := repoText(dir)
	if err != nil {
		return nil, err
	}
	var out []genTarget
	queries := map[string]bool{}
	for _, c := range cands {
		if len(out) == genPerRepo {
			break
		}
		if count[c.sentence] > 1 || queries[c.query] || strings.Count(corpus, oneSpace(c.sentence)) > 1 {
			continue
		}
		queries[c.query] = true
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b genTarget) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.line - b.line
	})
	return out, nil
}

// repoText is every regular file's text under dir, whitespace runs and
// comment markers collapsed to single spaces, so that a sentence wrapped
// over comment lines is found as one.
func repoText(dir string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b.WriteString(oneSpace(string(data)))
		b.WriteByte(' ')
		return nil
	})
	return b.String(), err
}

// oneSpace collapses whitespace runs and comment markers (//, #, *) that
// start a line to single spaces.
func oneSpace(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimLeft(t, "/#*")
		b.WriteString(strings.Join(strings.Fields(t), " "))
		b.WriteByte(' ')
	}
	return b.String()
}

// genSkipFile reports whether a file holds no targets: tests, examples,
// vendored, built or generated code.
func genSkipFile(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	switch filepath.Ext(base) {
	case ".go", ".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx":
	default:
		return true // a language of no repository's split
	}
	if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") ||
		strings.Contains(base, ".spec.") || strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".d.ts") {
		return true
	}
	for _, d := range strings.Split(filepath.ToSlash(filepath.Dir(p)), "/") {
		switch strings.ToLower(d) {
		case "test", "tests", "testdata", "example", "examples", "_examples", "vendor", "node_modules", "dist", "build", "locale", "min":
			return true
		}
	}
	return false
}

// firstSentence returns the first sentence of a doc comment's first
// paragraph of prose, whitespace collapsed.
func firstSentence(doc string) string {
	var para []string
	for line := range strings.SplitSeq(doc, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "@") || strings.HasPrefix(t, ":") || strings.HasPrefix(t, ">>>") || strings.HasPrefix(t, "..") {
			if len(para) > 0 {
				break
			}
			continue
		}
		para = append(para, t)
	}
	p := strings.Join(strings.Fields(strings.Join(para, " ")), " ")
	for i := 0; i+1 < len(p); i++ {
		if (p[i] == '.' || p[i] == '!' || p[i] == '?') && p[i+1] == ' ' && !strings.HasSuffix(p[:i], "e.g") && !strings.HasSuffix(p[:i], "i.e") && !strings.HasSuffix(p[:i], "etc") {
			return p[:i+1]
		}
	}
	return p
}

// genStop are the words that carry no content of a query.
var genStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an the of to in on for and or is are be by with from as at it its this that if it's into than then else when which whether not no any all each one given returns return returned") {
		genStop[w] = true
	}
}

// genQuery turns a doc comment's first sentence into a query for the
// symbol named qualified: lower case, markup and code identifiers out,
// the words of the symbol's own name out (with their plural and verb
// forms). "" when too little is left, or the sentence reads as no task
// (a deprecation, a reference elsewhere).
func genQuery(sentence, qualified string) string {
	low := strings.ToLower(sentence)
	if low == "" || strings.Contains(low, "deprecated") || strings.HasPrefix(low, "see ") || strings.Contains(low, "alias for") ||
		strings.HasPrefix(low, "todo") || strings.Contains(low, "http://") || strings.Contains(low, "https://") {
		return ""
	}
	// Words of the symbol's own name.
	local := qualified
	if i := strings.LastIndexAny(local, ".:#"); i >= 0 {
		local = local[i+1:]
	}
	own := map[string]bool{}
	for _, w := range identWords(local) {
		own[w] = true
	}
	var words []string
	content := 0
	for _, tok := range strings.Fields(sentence) {
		if strings.ContainsAny(tok, "`_()[]{}<>=/\\") || hasInnerUpper(strings.Trim(tok, ".,;:!?\"'")) || strings.Count(strings.Trim(tok, ".,;:"), ".") > 0 {
			continue // a code identifier or a bit of code
		}
		w := strings.ToLower(strings.Trim(tok, ".,;:!?\"'*"))
		if w == "" || !isWord(w) {
			continue
		}
		if ownWord(w, own) {
			continue
		}
		words = append(words, w)
		if !genStop[w] {
			content++
		}
	}
	if len(words) < minGenWords || len(words) > maxGenWords || content < minGenContent {
		return ""
	}
	return strings.Join(words, " ")
}

// ownWord reports whether w is a word of the name, or one of its forms.
func ownWord(w string, own map[string]bool) bool {
	if own[w] {
		return true
	}
	for _, suf := range []string{"s", "es", "ed", "d", "ing", "er", "ers"} {
		if stem, ok := strings.CutSuffix(w, suf); ok && len(stem) >= 3 && (own[stem] || own[stem+"e"]) {
			return true
		}
	}
	for o := range own {
		if len(o) >= 4 && strings.HasPrefix(w, o) && len(w)-len(o) <= 3 {
			return true
		}
	}
	return false
}

// identWords splits an identifier into its lower-case words: camelCase,
// snake_case and digits.
func identWords(id string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(id)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// hasInnerUpper reports whether a token has an upper-case letter after
// its first: camelCase or an acronym, a name from code.
func hasInnerUpper(t string) bool {
	for i, r := range t {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// isWord reports whether w is letters, with inner hyphens or apostrophes.
func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' {
			return false
		}
	}
	return unicode.IsLetter([]rune(w)[0])
}

// blankDoc blanks the doc comment of t's symbol in its file, keeping the
// file's lines: a comment block right above the declaration (Go, C-like
// languages, JSDoc), or a docstring right under a Python def's header.
func blankDoc(dir string, t genTarget) error {
	name := filepath.Join(dir, filepath.FromSlash(t.path))
	b, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("bench code-gen: %w", err)
	}
	lines := strings.Split(string(b), "\n")
	if t.line < 1 || t.line > len(lines) {
		return fmt.Errorf("bench code-gen: %s:%d out of range", name, t.line)
	}
	if strings.HasSuffix(t.path, ".py") {
		blankDocstring(lines, t.line-1, min(t.end, len(lines))-1)
	}
	blankComment(lines, t.line-1) // Python's extractor reads a comment above a def without a docstring
	return os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644)
}

// blankComment blanks the comment lines right above line i (0-based):
// line comments, and a block comment ending there.
func blankComment(lines []string, i int) {
	j := i - 1
	// A declaration may start above its name's line (decorators,
	// modifiers, `exports.x =` on a line of its own): at most 2 lines.
	for k := 0; k < 2 && j >= 0 && !isComment(lines[j]) && strings.TrimSpace(lines[j]) != ""; k++ {
		j--
	}
	inBlock := false
	for ; j >= 0; j-- {
		t := strings.TrimSpace(lines[j])
		switch {
		case inBlock:
			lines[j] = ""
			if strings.HasPrefix(t, "/*") {
				inBlock = false
				if j > 0 && isComment(lines[j-1]) {
					continue
				}
				return
			}
		case strings.HasSuffix(t, "*/"):
			lines[j] = ""
			if !strings.HasPrefix(t, "/*") {
				inBlock = true
			}
		case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!"):
			lines[j] = ""
		default:
			return
		}
	}
}

// isComment reports whether a line is (the end of) a comment.
func isComment(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasSuffix(t, "*/")
}

// blankDocstring blanks the docstring that opens the body of the def at
// line i, ending by line end (0-based): its first line becomes `pass`, the
// rest empty.
func blankDocstring(lines []string, i, end int) {
	// The header ends at the first line ending in ':' with brackets
	// balanced.
	depth := 0
	j := i
	for ; j <= end; j++ {
		code, _, _ := strings.Cut(lines[j], "#")
		depth += strings.Count(code, "(") + strings.Count(code, "[") - strings.Count(code, ")") - strings.Count(code, "]")
		if depth <= 0 && strings.HasSuffix(strings.TrimSpace(code), ":") {
			break
		}
	}
	for j++; j <= end && strings.TrimSpace(lines[j]) == ""; j++ {
	}
	if j > end {
		return
	}
	t := strings.TrimSpace(lines[j])
	t = strings.TrimLeft(t, "rRuU")
	var quote string
	switch {
	case strings.HasPrefix(t, `"""`):
		quote = `"""`
	case strings.HasPrefix(t, `'''`):
		quote = `'''`
	case strings.HasPrefix(t, `"`), strings.HasPrefix(t, `'`):
		quote = t[:1]
	default:
		return
	}
	indent := lines[j][:len(lines[j])-len(strings.TrimLeft(lines[j], " \t"))]
	rest := t[len(quote):]
	lines[j] = indent + "pass"
	if strings.Contains(rest, quote) {
		return
	}
	for j++; j <= end; j++ {
		done := strings.Contains(lines[j], quote)
		lines[j] = ""
		if done {
			return
		}
	}
}
