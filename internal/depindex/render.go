package depindex

import (
	"fmt"
	"path"
	"strings"

	"github.com/fileinfo/fileinfo/docsearch"
)

// Prefix is the first element of every document path Documents makes:
// "deps:NAME@VERSION/...".
const Prefix = "deps:"

// DocPath is the search path of a file of a's dependency.
func (a *API) DocPath(rel string) string { return Prefix + a.Name + "@" + a.Version + "/" + rel }

// Documents renders a as documents of scope: its prose as shipped, and
// one markdown page per source file listing that file's exported
// symbols, each under a heading of its qualified name with its signature,
// doc comment and path:line.
func Documents(a *API, scope string) []docsearch.Document {
	var out []docsearch.Document
	for _, d := range a.Docs {
		p := d.Path
		if path.Base(p) == "METADATA" { // a Python distribution's description
			p += ".md"
		}
		out = append(out, docsearch.Document{Path: a.DocPath(p), Scope: scope, Format: d.Format, Text: d.Text,
			Title: fmt.Sprintf("%s@%s %s", a.Name, a.Version, d.Path)})
	}
	for i := 0; i < len(a.Symbols); {
		j := i
		for j < len(a.Symbols) && a.Symbols[j].Path == a.Symbols[i].Path {
			j++
		}
		out = append(out, apiPage(a, a.Symbols[i:j], scope))
		i = j
	}
	return out
}

func apiPage(a *API, syms []Symbol, scope string) docsearch.Document {
	p := syms[0].Path
	var b strings.Builder
	title := fmt.Sprintf("%s@%s %s", a.Name, a.Version, path.Dir(p))
	if path.Dir(p) == "." {
		title = fmt.Sprintf("%s@%s %s", a.Name, a.Version, p)
	}
	fmt.Fprintf(&b, "# %s\n", title)
	for _, s := range syms {
		fmt.Fprintf(&b, "\n## %s\n\n", s.Qualified)
		if s.Signature != "" {
			fmt.Fprintf(&b, "```\n%s\n```\n\n", s.Signature)
		}
		if s.Doc != "" {
			fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(s.Doc))
		}
		fmt.Fprintf(&b, "%s %s at %s:%d\n", a.Name+"@"+a.Version, s.Kind, s.Path, s.Line)
	}
	return docsearch.Document{Path: a.DocPath(p + ".md"), Scope: scope, Title: title, Text: b.String()}
}

// Lead is the first sentence of a doc comment, at most 200 bytes.
func Lead(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for i := 0; i+1 < len(doc); i++ {
		if doc[i] == '.' && doc[i+1] == ' ' {
			doc = doc[:i+1]
			break
		}
	}
	if len(doc) > 200 {
		cut := strings.LastIndexByte(doc[:200], ' ')
		if cut < 100 {
			cut = 200
		}
		doc = strings.ToValidUTF8(doc[:cut], "") + "…"
	}
	return doc
}
