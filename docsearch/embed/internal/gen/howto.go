package main

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// How-to pairs: the doc comment pairs teach what a function's first doc
// sentence shares with its code ("Return the number of elements along a
// given axis."), and web questions read otherwise ("python check if file
// exists"). Tutorials, how-tos and FAQs are written the way people ask:
// a section is headed by a task or a question ("Reading multiple files
// to create a single DataFrame", "How do I copy a file?") and shows the
// code that does it. Debian's documentation packages of Python ship the
// reStructuredText their HTML was built from (html/_sources/**.txt); a
// section of it whose heading reads like a task, and which holds Python
// code, gives a pair (the heading, the section's code).

// debDocs returns the corpus of the reST sources of the Debian
// documentation package name at version.
func debDocs(name, version, integrity, license string) corpus {
	return corpus{
		source: source{pkg: name + "=" + version, integrity: integrity, license: license},
		deb:    true,
		howto:  true,
		keep: func(p string) bool {
			_, rest, ok := strings.Cut(p, "/html/_sources/")
			return ok && strings.HasSuffix(p, ".txt") && !strings.HasPrefix(rest, "whatsnew/") &&
				!strings.HasPrefix(rest, "reference/api/") && !strings.HasPrefix(rest, "generated/") && !strings.HasPrefix(rest, "releases/")
		},
	}
}

// debDocCorpora are the documentation packages tuned on with -howto:
// those of Python itself and of libraries whose own code the default
// tuning pairs hold, with tutorials or user guides. Flask, Werkzeug,
// requests, pip's other vendored libraries and Pygments are left out:
// the Python known-item set the variants are chosen on is made of their
// code.
var debDocCorpora = []corpus{
	debDocs("python3.11-doc", "3.11.2-6+deb12u9", "sha256-WzWUGJ1u+aaWPOA0f9MHocxnYgrWl+FE2zZgcOLhRr4=", "PSF-2.0"),
	debDocs("python-attr-doc", "22.2.0-1", "sha256-OBMsmV2aI7RNr4dNegUyUd9AmKxHa5WsmWbUao4PPNM=", "MIT"),
	debDocs("python-babel-doc", "2.10.3-1", "sha256-O3rilczXADKetWZW3KWQgWtgtPI9DPT+YJE6sYk8498=", "BSD-3-Clause"),
	debDocs("python-bs4-doc", "4.11.2-2", "sha256-nz2wGtDoKM3e9GDfy6xC1KQeWPeno4pXeX4GTAsD7fM=", "MIT"),
	debDocs("python-click-doc", "8.1.3-2", "sha256-BmCSsCmaBMJYjl8uncN6jY7XpMTut80xdev8/OJKiUM=", "BSD-3-Clause"),
	debDocs("python-dask-doc", "2022.12.1+dfsg-2", "sha256-gfxMw2v8k57Z/yjCQj2SGQnPvvGvaQVRMbeatpozthU=", "BSD-3-Clause"),
	debDocs("python-h5py-doc", "3.7.0-8", "sha256-KoVypXA3Ko6k2aRBhwaIbdBsWlLAWZFgLJS16eSdMnk=", "BSD-3-Clause"),
	debDocs("python-mpmath-doc", "1.2.1-2", "sha256-OJXqg7Htxx+uKkvilSK53Sja9qrVKToiSdRnQv+7/u0=", "BSD-3-Clause"),
	debDocs("python-pandas-doc", "1.5.3+dfsg-2", "sha256-SZhAX/axJDL0ZZSWPpVVSt4RBHBXlUKDljRfyljYU/g=", "BSD-3-Clause"),
	debDocs("python-pint-doc", "0.19.2-1", "sha256-2n8KksRRHtdhdX2FdKHBz5RCb6db9wKNQTEsgHhMkF4=", "BSD-3-Clause"),
	debDocs("python-pytest-doc", "7.2.1-2", "sha256-jPF+t4JqK7vIIHRH/IiMu3X9hmgBRlQuvZVF4YIp06o=", "MIT"),
	debDocs("python-skimage-doc", "0.19.3-8", "sha256-LIfY99RQSyn+gCg6JKFT+0F1sOSWS9kKKgFSs2u2tGg=", "BSD-3-Clause"),
	debDocs("python-sklearn-doc", "1.2.1+dfsg-1", "sha256-TiRFVjJgZOh+dWPj5UTCKI1EtXGdstezqFyahK6TSI0=", "BSD-3-Clause"),
	debDocs("python-statsmodels-doc", "0.13.5+dfsg-7", "sha256-QWej4TNHNDufCmZ3/IBOytgN1zXRe8BRgpYQ9vG8Kvs=", "BSD-3-Clause"),
	debDocs("python-sympy-doc", "1.11.1-1", "sha256-Kh1QvUlzjwKAMI/I2G1fpXOdvGOR4cdU9FSbw2NeajE=", "BSD-3-Clause"),
	debDocs("python-tables-doc", "3.7.0-5", "sha256-gz9PQxKDuAax0c8/dsT1J4YFUYGzvvZa79/3JcimhqA=", "BSD-3-Clause"),
	debDocs("python-toolz-doc", "0.12.0-1", "sha256-JoE5bpGzn99aTpCgzURAknjU0ZmcomUu7woNVOTUOnY=", "BSD-3-Clause"),
	debDocs("python-xarray-doc", "2023.01.0-1.1", "sha256-HUK+bxxLDExbN6S4iE10g9mZXYtjYu5JBXmAbYtLqeI=", "Apache-2.0"),
}

// A section is a heading of a reST document and the Python code of the
// part of the document it heads, up to the next heading.
type section struct{ heading, code string }

// maxHowtoLines caps a section's code: a how-to's answer is a few
// lines, like a function's body; the rest of a long tutorial section
// is more of the same.
const maxHowtoLines = 40

// rstSections returns the sections of the reST document src that hold
// Python code, in document order, with their headings as plain text.
// Code is what Sphinx highlights as Python: literal blocks introduced by
// "::", the code-block, sourcecode, code, doctest, testcode and ipython
// directives of a Python language (or none), and doctest blocks (">>>"
// lines: the input without prompts, not the output).
func rstSections(src string) (sections, intros []section) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	heading := ""
	var code, prose []string
	lastPara := ""
	flush := func() {
		if heading != "" && len(code) > 0 {
			if len(code) > maxHowtoLines {
				code = code[:maxHowtoLines]
			}
			sections = append(sections, section{heading, strings.Join(code, "\n")})
		}
		code = nil
	}
	// block adds a code block, introduced by the paragraph before it.
	block := func(b []string) {
		if len(b) == 0 {
			return
		}
		code = append(code, b...)
		para := lastPara
		if len(prose) > 0 {
			para = strings.Join(prose, " ")
		}
		if s := introSentence(para); s != "" {
			if len(b) > maxHowtoLines {
				b = b[:maxHowtoLines]
			}
			intros = append(intros, section{s, strings.Join(b, "\n")})
		}
		prose, lastPara = nil, ""
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if h, next, ok := rstHeading(lines, i); ok {
			flush()
			heading, i = h, next-1
			prose, lastPara = nil, ""
			continue
		}
		t := strings.TrimSpace(l)
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		switch {
		case t == "":
			if len(prose) > 0 {
				lastPara, prose = strings.Join(prose, " "), nil
			}
		case strings.HasPrefix(t, ">>>"):
			var b []string
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				s := strings.TrimSpace(lines[i])
				if c, ok := strings.CutPrefix(s, ">>>"); ok {
					b = append(b, strings.TrimPrefix(c, " "))
				} else if c, ok := strings.CutPrefix(s, "..."); ok {
					b = append(b, strings.TrimPrefix(c, " "))
				}
			}
			block(b)
		case strings.HasPrefix(t, ".. "):
			name, arg, ok := strings.Cut(strings.TrimPrefix(t, ".. "), "::")
			var b []string
			b, i = indented(lines, i+1, indent)
			i--
			if ok && pythonDirective(strings.TrimSpace(name), strings.TrimSpace(arg)) {
				block(pythonCode(b))
			}
		case strings.HasSuffix(t, "::"):
			prose = append(prose, strings.TrimSuffix(t, ":"))
			var b []string
			b, i = indented(lines, i+1, indent)
			i--
			block(pythonCode(b))
			prose = nil
		default:
			prose = append(prose, t)
		}
	}
	flush()
	return sections, intros
}

// introSentence returns the last sentence of para, the paragraph that
// introduces a code block ("To copy a file, use shutil.copyfile:"),
// without markup or the closing colon; "" when it has fewer than three
// words.
func introSentence(para string) string {
	para = strings.TrimSpace(para)
	if i := strings.LastIndex(strings.TrimRight(para, ".:"), ". "); i >= 0 {
		para = para[i+2:]
	}
	s := strings.TrimRight(plainTitle(para), ": ")
	if len(strings.Fields(s)) < 3 {
		return ""
	}
	return s
}

// pythonDirective reports whether the directive name with argument arg
// holds Python code.
func pythonDirective(name, arg string) bool {
	switch name {
	case "code-block", "sourcecode", "code", "highlight":
		return slices.Contains([]string{"", "python", "python3", "py", "py3", "pycon", "pycon3", "ipython"}, strings.ToLower(arg))
	case "doctest", "testcode", "ipython":
		return true
	}
	return false
}

// indented returns the block of lines after from (blank lines first
// skipped) indented deeper than indent, dedented, and the index of the
// first line after it. Directive options (":name: value" lines at its
// start) are left out.
func indented(lines []string, from, indent int) ([]string, int) {
	i := from
	var block []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			block = append(block, "")
			continue
		}
		if d := len(l) - len(strings.TrimLeft(l, " \t")); d <= indent {
			break
		}
		block = append(block, l)
	}
	for len(block) > 0 && block[len(block)-1] == "" {
		block = block[:len(block)-1]
		i--
	}
	for len(block) > 0 && block[0] == "" {
		block = block[1:]
	}
	for len(block) > 0 && strings.HasPrefix(strings.TrimSpace(block[0]), ":") {
		block = block[1:]
	}
	for len(block) > 0 && block[0] == "" {
		block = block[1:]
	}
	min := -1
	for _, l := range block {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if d := len(l) - len(strings.TrimLeft(l, " \t")); min < 0 || d < min {
			min = d
		}
	}
	for j, l := range block {
		if len(l) >= min && min > 0 {
			block[j] = l[min:]
		}
	}
	return block, i
}

// pythonCode returns the code of a literal block: a doctest's input
// without prompts, or the block as it is; blocks that read as a shell
// session or program output (no line of Python shape) are dropped.
func pythonCode(block []string) []string {
	var doctest []string
	prompts := false
	for _, l := range block {
		s := strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(s, ">>>"); ok {
			prompts = true
			doctest = append(doctest, strings.TrimPrefix(c, " "))
		} else if c, ok := strings.CutPrefix(s, "..."); ok && prompts {
			doctest = append(doctest, strings.TrimPrefix(c, " "))
		} else if c, ok := strings.CutPrefix(s, "In ["); ok && strings.Contains(c, "]:") {
			prompts = true
			_, c, _ = strings.Cut(c, "]:")
			doctest = append(doctest, strings.TrimPrefix(c, " "))
		}
	}
	if prompts {
		return doctest
	}
	for _, l := range block {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "$ ") || strings.HasPrefix(s, "% ") || strings.HasPrefix(s, "C:\\>") ||
			strings.HasSuffix(s, ";") || strings.HasSuffix(s, "{") {
			return nil
		}
	}
	if !slices.ContainsFunc(block, pythonShaped) {
		return nil
	}
	return block
}

var pythonLine = regexp.MustCompile(`^(def|class|import|from|for|while|if|with|return|try|print)\b|^[A-Za-z_][\w.]*(\[[^\]]*\])?\s*=[^=]|^[A-Za-z_][\w.]*\(.*\)$`)

// pythonShaped reports whether l looks like a line of Python: a
// statement keyword, an assignment or a call.
func pythonShaped(l string) bool { return pythonLine.MatchString(strings.TrimSpace(l)) }

// rstHeading reports whether a section heading starts at line i: a
// title underlined (and perhaps overlined) by a run of one punctuation
// character at least as long as it. It returns the title as plain text
// and the index of the line after the heading.
func rstHeading(lines []string, i int) (string, int, bool) {
	title := lines[i]
	j := i
	if adornment(title) && i+2 < len(lines) && adornment(lines[i+2]) && lines[i+2][0] == title[0] {
		title, j = lines[i+1], i+2
	} else if i+1 < len(lines) && adornment(lines[i+1]) {
		j = i + 1
	} else {
		return "", 0, false
	}
	t := strings.TrimSpace(title)
	if t == "" || adornment(t) || strings.HasPrefix(title, " ") || strings.HasPrefix(t, "..") ||
		len(strings.TrimSpace(lines[j])) < len(t) {
		return "", 0, false
	}
	return plainTitle(t), j + 1, true
}

// adornment reports whether l is a run of at least 3 of one reST
// section punctuation character.
func adornment(l string) bool {
	l = strings.TrimRight(l, " ")
	if len(l) < 3 || !strings.ContainsRune("=-~^\"'*+#:.`_", rune(l[0])) {
		return false
	}
	return strings.Count(l, l[:1]) == len(l)
}

var (
	rstRole = regexp.MustCompile("(:[a-z:]+:)?`+~?([^`<]*?)\\s*(<[^>]*>)?`+_{0,2}")
	rstNum  = regexp.MustCompile(`^(\d+(\.\d+)*\.?\s+)`)
)

// plainTitle returns a heading without reST markup: roles and literals
// as their text, links as their words, no section number.
func plainTitle(t string) string {
	t = rstRole.ReplaceAllString(t, "$2")
	t = rstNum.ReplaceAllString(t, "")
	return strings.Join(strings.Fields(t), " ")
}

// taskHeading reports whether heading reads like what a person asks to
// do: a question (it ends in a question mark or opens with an
// interrogative), an imperative ("Copy a file") or a gerund ("Reading
// CSV files"). A first word is a verb when verbs holds it, a gerund
// when verbs holds its stem.
func taskHeading(heading string, verbs map[string]bool) bool {
	words := strings.Fields(strings.ToLower(heading))
	if len(words) < 2 {
		return false
	}
	if strings.HasSuffix(heading, "?") {
		return true
	}
	w := strings.Trim(words[0], ",:;")
	switch w {
	case "how", "what", "why", "when", "where", "which":
		return true
	}
	if verbs[w] {
		return true
	}
	stem, ok := strings.CutSuffix(w, "ing")
	if !ok || len(stem) < 2 {
		return false
	}
	if verbs[stem] || verbs[stem+"e"] {
		return true
	}
	n := len(stem)
	return n >= 3 && stem[n-1] == stem[n-2] && verbs[stem[:n-1]] // getting → get
}

// docVerbs returns the verbs doc comments open with: a lowercased first
// word of at least min queries whose third-person form (+s, +es) opens
// at least min queries too ("Return" and "Returns"; "The" has no
// "Thes"), words of three letters or more ("A" and "As" are no verb). Docstring conventions ask for the imperative, and not every
// library follows them, so a verb shows in both forms.
func docVerbs(pairs []pair, min int) map[string]bool {
	count := map[string]int{}
	for _, p := range pairs {
		f := strings.Fields(p.query)
		if len(f) == 0 {
			continue
		}
		w := strings.ToLower(strings.Trim(f[0], ".,:;"))
		if usable(w) {
			count[w]++
		}
	}
	verbs := map[string]bool{}
	for w, n := range count {
		if len(w) < 3 || n < min {
			continue
		}
		if count[w+"s"] >= min || sibilant(w) && count[w+"es"] >= min {
			verbs[w] = true
		}
	}
	return verbs
}

// sibilant reports whether w takes -es in the third person: passes,
// fixes, matches, pushes, does.
func sibilant(w string) bool {
	for _, end := range []string{"s", "x", "z", "ch", "sh", "o"} {
		if strings.HasSuffix(w, end) {
			return true
		}
	}
	return false
}

// howtoPairs returns the pairs of the sections whose headings verbs
// find task-like (with verbs nil, of every heading of two words or
// more), in the order of sections.
func howtoPairs(sections []pair, verbs map[string]bool, intros bool) []pair {
	var out []pair
	for _, s := range sections {
		if s.rest == introMark {
			if intros {
				out = append(out, s)
			}
			continue
		}
		if verbs == nil && len(strings.Fields(s.query)) >= 2 || taskHeading(s.query, verbs) {
			out = append(out, s)
		}
	}
	return out
}

// docSections returns every section with Python code of the kept files
// of a documentation package, as pairs (heading, code), files in path
// order. The headings are filtered later (howtoPairs), by verbs taken
// from the other corpora's pairs.
func docSections(c corpus, files map[string][]byte) []pair {
	var names []string
	for name := range files {
		if c.keep(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []pair
	for _, name := range names {
		secs, intros := rstSections(string(files[name]))
		for _, s := range secs {
			out = append(out, pair{query: s.heading, code: s.code, name: path.Base(name)})
		}
		for _, s := range intros {
			out = append(out, pair{query: s.heading, code: s.code, name: path.Base(name), rest: introMark})
		}
	}
	return out
}

// introMark marks, in a pair's rest, the pairs of a code block and the
// sentence before it (docSections), which only -howto-intro tunes on.
const introMark = "(intro)"

// minVerbPairs is how many doc comments must open with a word, and with
// its third-person form, for docVerbs to take it for a verb.
const minVerbPairs = 5
