package extract

// Error lines blanked: the recovery (Language.blankErrors) of a file in
// a brace language whose parse has errors. tree-sitter recovers from a
// construct its grammar lacks by closing what is open, so one statement
// it cannot read ends the class around it, and every method after it is
// read as a top-level function: react-native-screens's
// ScreenStackFragment.kt assigns through a cast,
//
//	(params as CoordinatorLayout.LayoutParams).behavior =
//	    if (translucent) null else ScrollingViewBehavior()
//
// which Kotlin's grammar cannot read, and its last fifteen methods lost
// their class. The recovery blanks each line that holds a missing
// token or an error within the line, but for its braces, which keep the
// nesting; the line's calls are lost, the structure around it is not.

import (
	"bytes"
	"iter"

	sitter "github.com/smacker/go-tree-sitter"
)

// blankErrorLines returns src with every line that holds a MISSING node
// or an ERROR node within one line of root turned into blanks, but for
// its braces and line breaks; nil when there is none. An error over
// several lines is looked into for such nodes: it holds what the parser
// skipped to recover, a class's header with its first member, which
// blanked would take the class away.
func blankErrorLines(src []byte, root *sitter.Node) []byte {
	rows := map[uint32]bool{}
	errorRows(root, rows)
	if len(rows) == 0 {
		return nil
	}
	var out []byte
	var row uint32
	for i, b := range src {
		switch {
		case b == '\n':
			row++
		case rows[row] && b != '{' && b != '}' && b != ' ' && b != '\t' && b != '\r':
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = ' '
		}
	}
	return out
}

// structureLost reports whether a parse with errors closed what was
// open before its end: a MISSING node (a brace the parser made up), or an
// ERROR at the top level (the brace it left over). An error within a
// statement leaves the structure around it as written, and blanking its
// line would only lose its calls.
func structureLost(root *sitter.Node) bool {
	for c := range childNodes(root) {
		if c.IsError() {
			return true
		}
	}
	return hasMissing(root)
}

// hasMissing reports whether a MISSING node is under n, looking only into
// subtrees that have errors.
func hasMissing(n *sitter.Node) bool {
	if n.IsMissing() {
		return true
	}
	if !n.HasError() {
		return false
	}
	for c := range childNodes(n) {
		if hasMissing(c) {
			return true
		}
	}
	return false
}

// errorRows adds to rows the lines of n's MISSING nodes and one-line
// ERROR nodes, looking only into subtrees that have errors.
func errorRows(n *sitter.Node, rows map[uint32]bool) {
	switch start, end := n.StartPoint().Row, n.EndPoint().Row; {
	case n.IsMissing():
		rows[start] = true
		return
	case n.IsError() && end == start:
		rows[start] = true
		return
	case !n.HasError():
		return
	}
	for c := range childNodes(n) {
		errorRows(c, rows)
	}
}

// childNodes yields n's children in order, by a cursor: Child(i) walks
// from the first child each time, and a file whose structure is lost
// has thousands of them at its top level.
func childNodes(n *sitter.Node) iter.Seq[*sitter.Node] {
	return func(yield func(*sitter.Node) bool) {
		c := sitter.NewTreeCursor(n)
		defer c.Close()
		for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
			if !yield(c.CurrentNode()) {
				return
			}
		}
	}
}

// kotlinFunInterfaces is Kotlin's other reading (Language.reparse):
// `fun interface` (a single-method interface, Kotlin 1.4), which the
// grammar lacks, read as the interface it is. It returns src with the
// `fun` of each `fun interface` blanked, or nil when there is none. A
// comment or string that says so is blanked too, which changes nothing
// extracted.
func kotlinFunInterfaces(src []byte) []byte {
	var out []byte
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("fun"))
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len("fun")
		if at > 0 && isIdentByte(src[at-1]) {
			continue
		}
		k := i
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		if k == i || !bytes.HasPrefix(src[k:], []byte("interface")) || k+len("interface") < len(src) && isIdentByte(src[k+len("interface")]) {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		copy(out[at:], "   ")
	}
}
