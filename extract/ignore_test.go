package extract

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ignoreTests hold ignore files (a txtar-style archive, see writeTree) and
// the paths they ignore or keep; a trailing '/' marks a directory. If git is
// installed, TestIgnore also checks every expectation with git check-ignore.
var ignoreTests = []struct {
	name          string
	files         string
	ignored, kept []string
}{
	{"basename at any depth", "*.o", []string{"a.o", "x/b.o", "x/y/c.o", "d.o/"}, []string{"a.c", "a.o.c", "x/o"}},
	{"literal name", "foo", []string{"foo", "a/foo", "b/foo/"}, []string{"foobar", "afoo", "foo.c"}},
	{"star matches dot files", "*", []string{"a", ".b", "c/"}, nil},
	{"dir only", "tmp/", []string{"tmp/", "a/tmp/", "tmp/x"}, []string{"b/tmp", "tmpx/"}},
	{"dir only with a slash", "a/b/", []string{"a/b/"}, []string{"c/a/b/", "a/c"}},
	{"leading slash anchors", "/root.txt", []string{"root.txt"}, []string{"a/root.txt"}},
	{"middle slash anchors", "doc/*.txt", []string{"doc/a.txt"}, []string{"doc/sub/b.txt", "x/doc/a.txt", "doc/a.md"}},
	{"star does not cross a slash", "a/*/c", []string{"a/b/c"}, []string{"a/b/d/c", "a/c"}},
	{"star then slash", "*/x", []string{"a/x"}, []string{"a/b/x", "x"}},
	{"question mark", "?.md", []string{"a.md", "x/b.md"}, []string{"ab.md", ".md"}},
	{"question mark not a slash", "a?b", []string{"axb"}, []string{"a/b", "ab"}},
	{"class", "[ab].txt", []string{"a.txt", "b.txt"}, []string{"c.txt", "ab.txt"}},
	{"negated classes", "[!ab].txt\n[^ab].log", []string{"c.txt", "c.log"}, []string{"a.txt", "b.log"}},
	{"ranges", "f[0-9].go\n[a-]x\n[%--]y", []string{"f3.go", "-x", "ax", ",y"}, []string{"fa.go", "bx", "ay"}},
	{"bracket first in class", "[]x]y\n[!]]z", []string{"]y", "xy", "az"}, []string{"zy", "]z"}},
	{"escape in class", `[\]a]q` + "\n" + `[\!]w`, []string{"]q", "aq", "!w"}, []string{`\q`, "bw"}},
	{"posix classes", "[[:digit:]]*\nx[[:upper:]]\ny[[:alpha:][:punct:]]\nz[[:space:]]", []string{"1a", "xA", "yb", "y_", "z "}, []string{"a1", "xa", "y1", "zz"}},
	{"not a posix class", "q[[:a]b\nq[[:]c", []string{"q[b", "q:b", "qab", "q[c", "q:c"}, []string{"qbb", "q]c"}},
	{"malformed classes match nothing", "[abc\n[[:nope:]]\nq[", nil, []string{"[abc", "a", "n", "q["}},
	{"class never matches a slash", "a[/]b\na[!x]c", nil, []string{"a/b", "a/c"}},
	{"leading double star", "**/logs", []string{"logs/", "a/logs/", "a/b/logs"}, []string{"alogs", "logsx"}},
	{"leading double star with a path", "**/a/b", []string{"a/b", "x/a/b", "x/y/a/b"}, []string{"a/x/b"}},
	{"trailing double star", "out/**", []string{"out/a", "out/b/c"}, []string{"out/", "x/out/a"}},
	{"middle double star", "a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"b", "x/a/b", "a/xb"}},
	{"double star alone", "**", []string{"a", "b/", "c/d"}, nil},
	{"double star dirs", "**/", []string{"a/", "b/c/"}, []string{"x"}},
	{"double star as a star", "a**z/f\n**q", []string{"abz/f", "xq", "a/xq"}, []string{"a/z/f", "ab/cz/f"}},
	{"double star after a literal prefix", "foo**/bar", []string{"foo/bar", "foo/x/y/bar", "fooz/bar"}, []string{"xfoo/bar"}},
	{"leading slash and double star", "/**/m", []string{"m", "a/m", "a/b/m"}, []string{"mm"}},
	{"negation re-includes", "*.log\n!keep.log", []string{"a.log", "x/b.log"}, []string{"keep.log", "x/keep.log"}},
	{"last match wins", "!a.txt\na.txt\nb.txt\n!b.txt", []string{"a.txt"}, []string{"b.txt"}},
	{"excluded parent", "build/\n!build/keep", []string{"build/keep", "build/x/y"}, nil},
	{"excluded parent, re-included dir", "/*\n!/src/", []string{"top.txt", "other/x"}, []string{"src/x", "src/"}},
	{"comments and escapes", "#comment\n\\#hash\n\\!bang\n\\\\back", []string{"#hash", "!bang", `\back`}, []string{"#comment", "hash", "bang"}},
	{"trailing spaces", "sp  \nesc\\ \ntab\t\nmid dle", []string{"sp", "esc ", "mid dle"}, []string{"esc", "tab"}},
	{"escaped wildcards", "a\\*b\n\\?c\n\\[d]", []string{"a*b", "?c", "[d]"}, []string{"axb", "xc", "d"}},
	{"trailing backslash matches nothing", "foo\\", nil, []string{"foo", `foo\`}},
	{"CRLF and BOM", "\ufeffbom\r\ncr\r\n", []string{"bom", "cr"}, nil},
	{"blank and empty patterns", "\n   \n!\n/\n!/\n", nil, []string{"a", "b/"}},
	{
		"nested file anchors to its directory",
		"-- sub/.gitignore --\n/x\ny/z\n",
		[]string{"sub/x", "sub/y/z"},
		[]string{"x", "sub/a/x", "y/z", "sub/a/y/z"},
	},
	{
		"deeper file wins",
		"-- .gitignore --\n*.txt\n!keep.md\n-- sub/.gitignore --\n!*.txt\n*.md\n",
		[]string{"a.txt", "sub2/a.txt", "sub/keep.md"},
		[]string{"sub/a.txt", "sub/x/b.txt", "keep.md"},
	},
	{
		"info exclude below gitignore",
		"-- .git/info/exclude --\n*.tmp\nsecret\n-- .gitignore --\n!b.tmp\n",
		[]string{"a.tmp", "secret", "d/secret/"},
		[]string{"b.tmp"},
	},
}

func TestIgnore(t *testing.T) {
	git := newGitOracle(t)
	for _, tt := range ignoreTests {
		t.Run(tt.name, func(t *testing.T) {
			files := tt.files
			if !strings.HasPrefix(files, "-- ") {
				files = "-- .gitignore --\n" + files
			}
			if !strings.HasSuffix(files, "\n") {
				files += "\n"
			}
			rules := parseIgnoreArchive(t, files)
			var got []string
			for _, p := range slices.Concat(tt.ignored, tt.kept) {
				if ignoredPath(rules, p) {
					got = append(got, p)
				}
			}
			expectSlice(t, "ignored", got, tt.ignored)
			if git != nil {
				expectSlice(t, "ignored by git check-ignore", git.checkIgnore(t, files, tt.ignored, tt.kept), tt.ignored)
			}
		})
	}
}

func TestParseIgnore(t *testing.T) {
	for _, data := range []string{"", "\n\n", "# only\n#comments", "  \n!\n/\n!/\n\r\n"} {
		if r := parseIgnore("", []byte(data)); len(r.patterns) != 0 {
			t.Errorf("parseIgnore(%q) has %d patterns, want 0", data, len(r.patterns))
		}
	}
	r := parseIgnore("", []byte("a\n!b/\n/c/d\n*.go\nlast")) // no final newline
	if len(r.patterns) != 5 {
		t.Fatalf("got %d patterns, want 5", len(r.patterns))
	}
	if p := r.patterns[1]; !p.negate || !p.dirOnly || !p.basename || p.prefix != "b" {
		t.Errorf("!b/ compiled to %+v", p)
	}
	if p := r.patterns[2]; p.basename || p.prefix != "c/d" {
		t.Errorf("/c/d compiled to %+v", p)
	}
	if p := r.patterns[3]; !p.ends || p.suffix != ".go" {
		t.Errorf("*.go compiled to %+v", p)
	}
}

func TestIgnoreGlobLarge(t *testing.T) {
	// More tokens than the stack buffer holds, and a pattern that makes
	// backtracking matchers take exponential time.
	long := strings.Repeat("ab", 200)
	toks, _ := compileGlob(strings.Repeat("*a", 150)+"*c", true)
	if matchGlob(toks, long) {
		t.Errorf("%d-token glob matched %q", len(toks), long)
	}
	if toks, _ := compileGlob(strings.Repeat("?", 400), true); !matchGlob(toks, long[:400]) {
		t.Error("400 question marks did not match 400 bytes")
	}
}

func FuzzIgnorePattern(f *testing.F) {
	for _, tt := range ignoreTests {
		for _, p := range slices.Concat(tt.ignored, tt.kept) {
			f.Add(tt.files, p)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		for _, isDir := range []bool{false, true} {
			ignoreStack{parseIgnore("", []byte(pattern)), parseIgnore("d", []byte(pattern))}.ignored(name, isDir)
			ignoreStack{parseIgnore("d", []byte(pattern))}.ignored("d/"+name, isDir)
		}
		// The NFA agrees with a backtracking matcher.
		for _, pathname := range []bool{false, true} {
			toks, never := compileGlob(pattern, pathname)
			if never || len(toks) > 40 || len(name) > 64 || strings.Count(pattern, "*") > 4 {
				continue
			}
			if got, want := matchGlob(toks, name), backtrack(toks, name); got != want {
				t.Fatalf("compileGlob(%q, %v) matches %q: NFA says %v, backtracking %v", pattern, pathname, name, got, want)
			}
		}
		// A pattern escaping every byte of a base name matches just that name.
		if name == "" || strings.ContainsAny(name, "/\n\r\x00") {
			return
		}
		p, ok := compileIgnoreLine(escapeAll(name))
		if !ok || !p.match(name) || p.match(name+"x") || p.match(name[1:]) {
			t.Fatalf("escaped %q compiled to %+v, which does not match exactly the name", name, p)
		}
	})
}

// escapeAll puts a backslash before every byte of s.
func escapeAll(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte('\\')
		b.WriteByte(s[i])
	}
	return b.String()
}

// backtrack matches toks against text the obvious, exponential way.
func backtrack(toks []globToken, text string) bool {
	if len(toks) == 0 {
		return text == ""
	}
	switch t := toks[0]; t.op {
	case opByte:
		return text != "" && text[0] == t.b && backtrack(toks[1:], text[1:])
	case opSet:
		return text != "" && t.set.has(text[0]) && backtrack(toks[1:], text[1:])
	case opStar, opAny:
		for i := 0; ; i++ {
			if backtrack(toks[1:], text[i:]) {
				return true
			}
			if i == len(text) || t.op == opStar && text[i] == '/' {
				return false
			}
		}
	case opDirs: // toks[1:3] are opAny and '/'
		return backtrack(toks[3:], text) || backtrack(toks[1:], text)
	}
	return false
}

// ignoreArchive is the ignore files of a test: the rules of each .gitignore
// by directory, "" for the root, and .git/info/exclude under ".git".
type ignoreArchive map[string]*ignoreRules

func parseIgnoreArchive(t *testing.T, archive string) ignoreArchive {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, archive)
	rules := make(ignoreArchive)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		switch {
		case rel == ".git/info/exclude":
			rules[".git"] = parseIgnore("", data)
		case path.Base(rel) == ".gitignore":
			sub := path.Dir(rel)
			if sub == "." {
				sub = ""
			}
			rules[sub] = parseIgnore(sub, data)
		default:
			t.Fatalf("not an ignore file: %s", rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// ignoredPath reports whether p, a slash path ending in '/' for a directory,
// or one of its parent directories is ignored.
func ignoredPath(rules ignoreArchive, p string) bool {
	isDir := strings.HasSuffix(p, "/")
	parts := strings.Split(strings.TrimSuffix(p, "/"), "/")
	var stack ignoreStack
	if r := rules[".git"]; r != nil {
		stack = append(stack, r)
	}
	for i := range parts {
		if r := rules[strings.Join(parts[:i], "/")]; r != nil {
			stack = append(stack, r)
		}
		if stack.ignored(strings.Join(parts[:i+1], "/"), isDir || i < len(parts)-1) {
			return true
		}
	}
	return false
}

// gitOracle runs git in a scratch repository, isolated from user config.
type gitOracle struct {
	dir string
	env []string
}

// newGitOracle returns nil if git is not installed.
func newGitOracle(t *testing.T) *gitOracle {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	home := t.TempDir()
	g := &gitOracle{
		dir: t.TempDir(),
		env: append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull),
	}
	g.run(t, nil, "init", "-q")
	return g
}

func (g *gitOracle) run(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = g.dir, g.env, bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil // check-ignore: nothing ignored
	}
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// reset empties the work tree and writes archive to it.
func (g *gitOracle) reset(t *testing.T, archive string) {
	t.Helper()
	entries, err := os.ReadDir(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(g.dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(g.dir, ".git", "info", "exclude"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	writeTree(t, g.dir, archive)
}

// checkIgnore returns the paths of ignored and kept that git check-ignore
// reports ignored, in that order.
func (g *gitOracle) checkIgnore(t *testing.T, archive string, ignored, kept []string) []string {
	t.Helper()
	paths := slices.Concat(ignored, kept)
	var tree, stdin strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&tree, "-- %s --\n", p)
		fmt.Fprintf(&stdin, "%s\x00", strings.TrimSuffix(p, "/"))
	}
	g.reset(t, archive+tree.String())
	out := g.run(t, []byte(stdin.String()), "check-ignore", "--no-index", "--stdin", "-z")
	reported := strings.Split(string(out), "\x00")
	var got []string
	for _, p := range paths {
		if slices.Contains(reported, strings.TrimSuffix(p, "/")) {
			got = append(got, p)
		}
	}
	return got
}

// lsFiles returns the files of archive that git does not ignore, sorted.
func (g *gitOracle) lsFiles(t *testing.T, archive string) []string {
	t.Helper()
	g.reset(t, archive)
	out := g.run(t, nil, "ls-files", "--others", "--exclude-standard", "-z")
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(files) == 1 && files[0] == "" {
		files = nil
	}
	slices.Sort(files)
	return files
}
