package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// maxNesting is the deepest a declaration may sit inside others and still
// be a symbol. Real code nests a few levels; 20,000 nested functions made
// qualified names of 20,000 segments each (8.6 GB). A deeper declaration
// is dropped, and its calls belong to the deepest symbol kept.
const maxNesting = 64

// symbolOf completes d — name, parent, kind, qualified name — and returns
// its Symbol. Containers are completed but not returned.
func symbolOf(d *decl, f *fileInfo) (Symbol, bool) {
	d.test = f.test || d.parent != nil && d.parent.test || f.lang.testOnly != nil && f.lang.testOnly(d, f)
	d.name = f.text(d.nameNode)
	if d.receiver != nil {
		d.parentName = receiverType(f.text(d.receiver))
	}
	if f.lang.refine != nil && !f.lang.refine(d, f) {
		d.dropped = true
		return Symbol{}, false
	}
	if d.name == "" || d.depth > maxNesting {
		d.dropped = true
		return Symbol{}, false
	}
	lex := d.parent
	for lex != nil && lex.dropped {
		lex = lex.parent
	}
	parentQualified := f.module
	switch {
	case d.parentName != "":
		parentQualified = joinQualified(f.module, d.parentName)
		if lex != nil && !lex.container {
			parentQualified = joinQualified(lex.qualified, d.parentName)
		}
		if d.kind == KindFunction {
			d.kind = KindMethod
		}
	case lex != nil:
		d.parentName = lex.name
		parentQualified = lex.qualified
		if d.kind == KindFunction && lex.kind.isTypeLike() {
			d.kind = KindMethod
		}
	}
	d.qualified = joinQualified(parentQualified, d.name)
	if d.container {
		return Symbol{}, false
	}

	sym := Symbol{
		Name:        d.name,
		Qualified:   d.qualified,
		Kind:        d.kind,
		Parent:      d.parentName,
		Signature:   signatureOf(d, f),
		StartLine:   int(d.nameNode.StartPoint().Row) + 1,
		EndLine:     endLine(d, f.src),
		Exported:    true,
		Declaration: d.declaration,
		Test:        d.test,
	}
	if f.lang.doc != nil {
		sym.Doc = f.lang.doc(d, f)
	}
	if sym.Doc == "" && !f.lang.docOnly {
		sym.Doc = commentAbove(d, f)
	}
	if f.lang.exported != nil {
		sym.Exported = f.lang.exported(d, f)
	}
	if f.lang.bases != nil && (d.kind.isTypeLike() || d.kind == KindModule) {
		sym.Bases = f.lang.bases(d, f)
	}
	if f.lang.params != nil && (d.kind == KindFunction || d.kind == KindMethod) {
		sym.Params = f.lang.params(d, f)
	}
	return sym, true
}

func joinQualified(prefix, name string) string {
	if prefix == "" {
		return name
	}
	if name == "" {
		return prefix
	}
	return prefix + "." + name
}

// endLine is the 1-based last line of d. A node that ends at column 0 ends
// on the line before; refine may end a declaration before its node by
// lowering d.end (Scala's layout tokens swallow what follows a body), or
// after it by raising d.end.
func endLine(d *decl, src []byte) int {
	end, row := d.node.EndByte(), int(d.node.EndPoint().Row)
	switch {
	case d.end < end:
		row -= bytes.Count(src[d.end:end], []byte{'\n'})
		end = d.end
	case d.end > end && int(d.end) <= len(src):
		// refine extended it over a sibling (a C function whose head a
		// macro writes, and its body).
		row += bytes.Count(src[end:d.end], []byte{'\n'})
		end = d.end
	}
	if end > 0 && src[end-1] == '\n' && row > int(d.node.StartPoint().Row) {
		return row
	}
	return row + 1
}

// receiverType reduces a receiver or qualifier to a bare type name:
// "(s *Server)" → "Server", "*List[T]" → "List", "pkg.T" → "T".
func receiverType(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "(")
	s = strings.TrimSuffix(s, ")")
	if i := strings.IndexAny(s, "[<"); i >= 0 {
		s = s[:i]
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return ""
	}
	s = strings.TrimLeft(fields[len(fields)-1], "*&")
	if i := strings.LastIndexAny(s, ".:"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// maxSignature bounds a signature in bytes; longer ones end in "…".
const maxSignature = 400

// signatureOf is the declaration's text up to its body, on one line.
func signatureOf(d *decl, f *fileInfo) string {
	start, end := d.start, d.end
	if d.body != nil && d.body.StartByte() >= start {
		end = d.body.StartByte()
	} else if b := d.node.ChildByFieldName("body"); b != nil {
		end = b.StartByte()
	}
	sig := collapseSpace(dropTrailingComments(validUTF8(string(f.src[start:end])), f.lang.lineComments), maxSignature)
	sig = strings.TrimRight(sig, " {:=")
	if f.lang.signature != nil {
		sig = f.lang.signature(d, sig)
	}
	return sig
}

// dropTrailingComments removes whole comment lines (and blank lines) at
// the end of a signature's text: the comments between a header and its body.
func dropTrailingComments(s string, prefixes []string) string {
	for {
		s = strings.TrimRight(s, " \t\r\n")
		i := strings.LastIndexByte(s, '\n')
		if i < 0 || !hasAnyPrefix(strings.TrimSpace(s[i+1:]), prefixes) {
			return s
		}
		s = s[:i]
	}
}

// collapseSpace joins s onto one line with single spaces and cuts it at
// max bytes (on a rune boundary, marked with "…").
func collapseSpace(s string, max int) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(min(len(s), max+4))
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// validUTF8 replaces invalid byte sequences with U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
