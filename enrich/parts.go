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
}

// unit is a run of lines that goes into a part whole, with the symbols
// whose entries go with it.
type unit struct {
	lo, hi int
	syms   []int  // symbols listed, in line order
	head   []int  // enclosing symbols whose header lines the unit holds
	node   *tnode // the subtree the unit holds; nil for lines outside symbols
	chunk  *chunk // set for a run of lines of an oversized unit
	owns   bool   // for a chunk: whether it is the one asking for the docs
	cut    *cutLine
}

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
	for _, t := range nodes {
		// Pop what ended before t, or overlaps it without holding it: t
		// becomes their sibling.
		for len(stack) > 0 && stack[len(stack)-1].hi < t.hi {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, t)
		} else {
			top := stack[len(stack)-1]
			top.kids = append(top.kids, t)
		}
		stack = append(stack, t)
	}
	return roots
}

// subtree lists t's symbol and its descendants, in line order.
func subtree(t *tnode) []int {
	out := []int{t.sym}
	for _, k := range t.kids {
		out = append(out, subtree(k)...)
	}
	return out
}

// tile covers lines lo–hi with one unit per kid; head goes with the first.
func tile(lo, hi int, kids []*tnode, head []int) []unit {
	if len(kids) == 0 {
		return []unit{{lo: lo, hi: hi, syms: head, head: head}}
	}
	out := make([]unit, 0, len(kids))
	prev := lo - 1
	for i, k := range kids {
		u := unit{lo: prev + 1, hi: max(k.hi, prev), node: k}
		if i == 0 {
			u.head = head
		}
		if i == len(kids)-1 {
			u.hi = max(hi, prev)
		}
		u.syms = append(slices.Clone(u.head), subtree(k)...)
		prev = u.hi
		out = append(out, u)
	}
	return out
}

func (p *plan) unitCost(u unit) int {
	return p.cost(part{lo: u.lo, hi: u.hi, listed: u.syms, cut: u.cut})
}

// split packs the file into parts with avail tokens each for entries and
// source.
func (p *plan) split(avail int) error {
	var units []unit
	for _, u := range tile(1, len(p.lines), p.tree(), nil) {
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
			pt := part{lo: u.lo, hi: u.hi, listed: u.syms, chunk: u.chunk, cut: u.cut}
			if u.owns {
				pt.owned = u.syms
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
		pt.listed = append(pt.listed, u.syms...)
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
		pieces = tile(u.lo, u.hi, u.node.kids, append(slices.Clone(u.head), u.node.sym))
	case u.node != nil && u.node.lo > u.lo:
		// The lines above the symbol (doc comment, decorators, an
		// enclosing type's header) go apart from it.
		pieces = []unit{
			{lo: u.lo, hi: u.node.lo - 1, syms: u.head, head: u.head},
			{lo: u.node.lo, hi: u.hi, syms: subtree(u.node), node: u.node},
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
	room := avail - note - p.cost(part{lo: 1, hi: 0, listed: u.syms})
	if room < minSourceTokens/2 {
		return nil, fmt.Errorf("max_tokens %d is too small for %s: the entries of %s alone take %d tokens", p.opt.MaxTokens, p.path, lineRange(u.lo, u.hi), avail-room)
	}
	var out []unit
	add := func(lo, hi int, cut *cutLine) {
		out = append(out, unit{lo: lo, hi: hi, syms: u.syms, head: u.head, node: u.node, chunk: c, cut: cut})
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
