package enrich

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Splitting a file into parts.
//
// The symbols form a tree by line containment (methods in their class,
// nested functions in theirs). The file's lines are tiled into units, one
// per top-level symbol: a unit runs from the line after the previous unit
// to the symbol's last line, so it carries the doc comment and decorators
// above the symbol; the first unit also carries the file's header, the
// last its trailer. Units are packed greedily, in order, into parts of at
// most the budget, so parts are contiguous and tile the file.
//
// A unit over the budget is split: a symbol with children is tiled again
// by its children (its own entry goes with the first, which holds its
// header); a childless one loses the lines above it to a unit of their
// own; what is still too large is cut into runs of lines, each a part of
// its own that says so, the symbol documented in the last. A single line
// larger than the budget is shown cut, with a marker saying how much.

// tnode is a symbol in the containment tree.
type tnode struct {
	sym    int
	lo, hi int // clamped StartLine, EndLine
	kids   []*tnode
	// pos and end place the node's subtree in the plan's order: it is
	// order[pos:end], the node first.
	pos, end int
}

// unit is a run of lines that goes into a part whole, with the symbols
// whose entries go with it.
//
// A unit's symbols are a run of the plan's order, syms[from:to]: the
// enclosing symbols whose header lines it holds (head, syms[from:headEnd])
// and then the subtree of node, which comes right after the last of them
// in pre-order. Keeping runs rather than lists makes splitting linear in
// the symbols: on a minified file every symbol is on line 1, so the tree
// is one chain as deep as the file has symbols, and copying each level's
// list was quadratic.
type unit struct {
	lo, hi            int
	from, headEnd, to int    // symbols listed: p.order[from:to]; head: p.order[from:headEnd]
	node              *tnode // the subtree the unit holds; nil for lines outside symbols
	chunk             *chunk // set for a run of lines of an oversized unit
	owns              bool   // for a chunk: whether it is the one asking for the docs
	cut               *cutLine
}

// syms returns the symbols u lists, in line order; the slice is the
// plan's, capped so that appending to it copies.
func (p *plan) syms(u unit) []int { return p.order[u.from:u.to:u.to] }

// tree builds the containment tree and sets p.order, its symbols in
// pre-order, which is line order, and the prefix sums of their entries'
// and of the lines' costs.
func (p *plan) tree() []*tnode {
	n := len(p.lines)
	nodes := make([]*tnode, len(p.fs.syms))
	for i := range p.fs.syms {
		s := &p.fs.syms[i]
		lo := min(max(s.StartLine, 1), n)
		hi := min(max(s.EndLine, lo), n)
		nodes[i] = &tnode{sym: i, lo: lo, hi: hi}
	}
	slices.SortStableFunc(nodes, func(a, b *tnode) int {
		return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(b.hi, a.hi))
	})
	var roots, stack []*tnode
	p.order = make([]int, len(nodes))
	for i, t := range nodes {
		// Pop what ended before t, or overlaps it without holding it: t
		// becomes their sibling. Everything met while a node was on the
		// stack is in its subtree, so a subtree is a run of the order.
		for len(stack) > 0 && stack[len(stack)-1].hi < t.hi {
			stack[len(stack)-1].end = i
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, t)
		} else {
			top := stack[len(stack)-1]
			top.kids = append(top.kids, t)
		}
		t.pos = i
		p.order[i] = t.sym
		stack = append(stack, t)
	}
	for _, t := range stack {
		t.end = len(nodes)
	}
	p.entSum = make([]int, len(p.order)+1)
	for i, sym := range p.order {
		p.entSum[i+1] = p.entSum[i] + p.entCost[sym]
	}
	p.lineSum = make([]int, len(p.lines)+1)
	for i, c := range p.lineCost {
		p.lineSum[i+1] = p.lineSum[i] + c
	}
	return roots
}

// tile covers lines lo–hi with one unit per kid; the head (the run of
// symbols order[from:headEnd], ending where the first kid's subtree
// starts) goes with the first.
func tile(lo, hi int, kids []*tnode, from, headEnd int) []unit {
	if len(kids) == 0 {
		return []unit{{lo: lo, hi: hi, from: from, headEnd: headEnd, to: headEnd}}
	}
	out := make([]unit, 0, len(kids))
	prev := lo - 1
	for i, k := range kids {
		u := unit{lo: prev + 1, hi: max(k.hi, prev), node: k, from: k.pos, headEnd: k.pos, to: k.end}
		if i == 0 {
			u.from = from
		}
		if i == len(kids)-1 {
			u.hi = max(hi, prev)
		}
		prev = u.hi
		out = append(out, u)
	}
	return out
}

// unitCost is the tokens of u's entries and source lines, from the prefix
// sums: constant time however many symbols and lines u holds.
func (p *plan) unitCost(u unit) int {
	n := p.entSum[u.to] - p.entSum[u.from]
	if u.lo <= u.hi {
		n += p.lineSum[u.hi] - p.lineSum[u.lo-1]
	}
	if u.cut != nil {
		n += u.cut.cost - p.lineCost[u.cut.line-1]
	}
	return n
}

// split packs the file into parts with avail tokens each for entries and
// source.
func (p *plan) split(avail int) error {
	var units []unit
	for _, u := range tile(1, len(p.lines), p.tree(), 0, 0) {
		us, err := p.expand(u, avail)
		if err != nil {
			return err
		}
		units = append(units, us...)
	}
	cur, curCost := -1, 0 // the part being filled
	for _, u := range units {
		c := p.unitCost(u)
		if u.chunk != nil {
			pt := part{lo: u.lo, hi: u.hi, listed: p.syms(u), chunk: u.chunk, cut: u.cut}
			if u.owns {
				pt.owned = pt.listed
			}
			p.parts = append(p.parts, pt)
			k := len(p.parts)
			if u.chunk.first == 0 {
				u.chunk.first = k
			}
			u.chunk.last = k
			cur = -1
			continue
		}
		if cur >= 0 && curCost+c > avail {
			cur = -1
		}
		if cur < 0 {
			p.parts = append(p.parts, part{lo: u.lo, hi: u.hi})
			cur, curCost = len(p.parts)-1, 0
		}
		pt := &p.parts[cur]
		pt.hi = u.hi
		pt.listed = append(pt.listed, p.syms(u)...)
		pt.owned = pt.listed
		curCost += c
	}
	return nil
}

// expand splits u until each piece fits in avail.
func (p *plan) expand(u unit, avail int) ([]unit, error) {
	if p.unitCost(u) <= avail {
		return []unit{u}, nil
	}
	var pieces []unit
	switch {
	case u.node != nil && len(u.node.kids) > 0:
		// The node joins the head, which ends where its first kid starts.
		pieces = tile(u.lo, u.hi, u.node.kids, u.from, u.node.pos+1)
	case u.node != nil && u.node.lo > u.lo:
		// The lines above the symbol (doc comment, decorators, an
		// enclosing type's header) go apart from it.
		pieces = []unit{
			{lo: u.lo, hi: u.node.lo - 1, from: u.from, headEnd: u.headEnd, to: u.headEnd},
			{lo: u.node.lo, hi: u.hi, from: u.node.pos, headEnd: u.node.pos, to: u.node.end, node: u.node},
		}
	default:
		return p.chunks(u, avail)
	}
	var out []unit
	for _, piece := range pieces {
		us, err := p.expand(piece, avail)
		if err != nil {
			return nil, err
		}
		out = append(out, us...)
	}
	return out, nil
}

// chunks cuts an oversized unit without children into runs of lines, each
// for a part of its own; the last asks for the docs.
func (p *plan) chunks(u unit, avail int) ([]unit, error) {
	c := &chunk{lo: u.lo, hi: u.hi}
	if u.node != nil {
		c.name = p.fs.syms[u.node.sym].local
	}
	const big = 9999999
	note, err := p.b.c.count(concat(chunkNote(&chunk{name: c.name, lo: big, hi: big + 1, first: big, last: big + 1}, big, big+1)))
	if err != nil {
		return nil, err
	}
	room := avail - note - (p.entSum[u.to] - p.entSum[u.from])
	if room < minSourceTokens/2 {
		return nil, &CrowdedError{MaxTokens: p.opt.MaxTokens, Path: p.path, StartLine: u.lo, EndLine: u.hi, Symbols: u.to - u.from, Tokens: avail - room}
	}
	var out []unit
	add := func(lo, hi int, cut *cutLine) {
		out = append(out, unit{lo: lo, hi: hi, from: u.from, headEnd: u.headEnd, to: u.to, node: u.node, chunk: c, cut: cut})
	}
	lo, cost := u.lo, 0
	for l := u.lo; l <= u.hi; l++ {
		lc := p.lineCost[l-1]
		if cost+lc > room && l > lo {
			add(lo, l-1, nil)
			lo, cost = l, 0
		}
		if lc > room {
			cut, err := p.cutLine(l, room)
			if err != nil {
				return nil, err
			}
			add(l, l, cut)
			lo, cost = l+1, 0
			continue
		}
		cost += lc
	}
	if lo <= u.hi || len(out) == 0 {
		add(lo, u.hi, nil)
	}
	out[len(out)-1].owns = true
	return out, nil
}

// cutLine shows line l cut to fit room tokens, with a marker saying so.
// Each part's plan needs the cut, so the Builder remembers it. The line is
// encoded once and cut on a token boundary, backing off while
// the cut text and marker, counted afresh, do not fit.
func (p *plan) cutLine(l, room int) (*cutLine, error) {
	key := cutKey{p.lines[l-1], l, room}
	p.b.mu.Lock()
	c, ok := p.b.cuts[key]
	p.b.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := p.cut(l, room)
	if err != nil {
		return nil, err
	}
	p.b.mu.Lock()
	if len(p.b.cuts) >= maxCuts {
		clear(p.b.cuts)
	}
	p.b.cuts[key] = c
	p.b.mu.Unlock()
	return c, nil
}

func (p *plan) cut(l, room int) (*cutLine, error) {
	e, err := encoding()
	if err != nil {
		return nil, err
	}
	text := p.lines[l-1]
	num := len(e.EncodeOrdinary(strconv.Itoa(l)))
	tokens := encode(e, "\t"+text)
	shown := func(n int) (string, int) {
		prefix := strings.TrimPrefix(e.Decode(tokens[:n]), "\t")
		for len(prefix) > 0 && !utf8.ValidString(prefix) {
			prefix = prefix[:len(prefix)-1] // a rune split between tokens
		}
		s := prefix + fmt.Sprintf(" …[line cut: %d of %d bytes shown; it is longer than the budget]", len(prefix), len(text))
		return s, num + len(encode(e, "\t"+s+"\n"))
	}
	_, marker := shown(0)
	n := min(len(tokens), max(room-marker, 0))
	for ; n >= 0; n -= max(1, n/16) {
		if s, c := shown(n); c <= room {
			return &cutLine{line: l, text: s, cost: c}, nil
		}
		if n == 0 {
			break
		}
	}
	return nil, fmt.Errorf("max_tokens %d is too small for %s: line %d cannot be shown", p.opt.MaxTokens, p.path, l)
}

func concat(lines []string) string {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b := make([]byte, 0, n)
	for _, l := range lines {
		b = append(b, l...)
	}
	return string(b)
}

// CrowdedError is Prompt's error for a file some of whose lines declare
// more symbols than a part can list with them: a budget cannot be met by
// cutting lines finer than a line. A minified file's one line is the
// common case; a larger MaxTokens may fit.
type CrowdedError struct {
	MaxTokens          int
	Path               string
	StartLine, EndLine int // the lines
	Symbols            int // listed with them
	Tokens             int // their entries and the part's note take
}

func (e *CrowdedError) Error() string {
	return fmt.Sprintf("max_tokens %d is too small for %s: the entries of %s alone take %d tokens", e.MaxTokens, e.Path, lineRange(e.StartLine, e.EndLine), e.Tokens)
}
