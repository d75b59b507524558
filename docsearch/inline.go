package docsearch

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	mdparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// inlineParser reads a line of markdown as one paragraph of inline
// markup, by CommonMark's rules (goldmark): no block structure, so that a
// heading "1986. A year" is not read as a list item or "> x" as a quote.
var inlineParser = mdparser.NewParser(
	mdparser.WithBlockParsers(util.Prioritized(mdparser.NewParagraphParser(), 100)),
	mdparser.WithInlineParsers(mdparser.DefaultInlineParsers()...),
)

// plainInline returns the visible text of inline markdown: emphasis marks,
// link targets, images, autolinks and HTML tags are dropped, and code
// spans keep their text exactly as written, so that an identifier such as
// `__init__`, `*args` or `Map<K, V>` survives. Outside code spans, a
// backslash escape and an entity become the character they stand for.
func plainInline(s string) string {
	if !strings.ContainsAny(s, "[]*_`<!\\&") {
		return s
	}
	src := []byte(s)
	doc := inlineParser.Parse(text.NewReader(src))
	var b bytes.Buffer
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image, *ast.AutoLink, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			v := util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(n.Segment.Value(src))))
			b.Write(v)
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
