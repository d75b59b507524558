package enrich

// Recovery. An artifact written before records (see record.go) holds its
// prose only as markdown, so the first report merged into it would
// replace all of it. Recover reads the prose back from that markdown,
// which is RenderEnriched's layout as it was then (render.go before
// 5a75fc6: today's, less the record and the "not documented yet" of a
// missing Implementation Summary):
//
//	# shop/store.py
//
//	## Overview
//
//	Paragraphs of the overview. A line that would start a heading, a rule
//	\# or a fence starts with a backslash, as this one.
//
//	**Inputs**: one line
//
//	**Outputs**: one line
//
//	**Connections**:
//	- Called from `shop/cli.py`: `main`
//
//	---
//
//	## Functions
//
//	### `def load(path)`
//
//	*Lines 33–40*
//
//	**Purpose**: one line, or *not documented yet.*
//
//	**Implementation Summary**:
//	1. A step.
//	2. Another.
//
//	**Called by:**
//	- `main` in `shop/cli.py`
//
//	---
//
//	## Classes
//
//	### `class Store`
//
//	*Lines 7–30*
//
//	**Purpose**: ...
//
//	#### Methods
//
//	##### `def add(self, name, price)`
//
//	*`Store.add`, lines 16–19*
//	...
//
// A symbol is known by its heading, among the file's symbols of its kind
// (functions under Functions, types under Classes, methods under their
// type): by the local name on the line under it, when there is one; else
// by the signature the heading shows; else, as when the signature changed
// since, by its name being a word of the heading, for a symbol no other
// heading has. A heading that matches no symbol, or two, gives nothing.
//
// Hand edits are read as far as they keep this shape: other line endings,
// blank lines, rules and trailing spaces; labels written "**Purpose:**" or
// "Purpose:"; a purpose wrapped over lines; steps numbered or bulleted;
// sections reordered or removed. Fenced code, HTML comments, and sections
// other than these three are not read. What cannot be read is missing,
// never guessed.

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Prose returns the prose body, an artifact's body, gives f's symbols, for
// Update to merge a report into: the record (see Recorded) or, when there
// is none (an artifact from before records) or it cannot be read, the
// prose the markdown shows (see Recover). It returns nil when there is no
// prose (a basic artifact). err says why a record could not be read; the
// prose returned then is what the markdown shows.
func Prose(body []byte, f *extract.File) (*Report, error) {
	r, _, err := ProseDigests(body, f)
	return r, err
}

// ProseDigests is Prose with the digests the record keeps (see Digests):
// empty when there is no readable record.
func ProseDigests(body []byte, f *extract.File) (*Report, Digests, error) {
	r, d, err := RecordedDigests(body)
	if r != nil && err == nil {
		return r, d, nil
	}
	return Recover(body, f), Digests{}, err
}

// Recover returns the prose the markdown of body, an enriched artifact of
// f, shows, as described above, in canonical form (see Update); nil when
// it shows none, as a basic artifact. A record in body is not read.
func Recover(body []byte, f *extract.File) *Report {
	fs := newFacts(f, nil)
	p := readShown(strings.ToValidUTF8(string(body), "\uFFFD"))
	r := &Report{}
	r.Overview, r.Inputs, r.Outputs = p.overview()
	out := canonical(fs, r, p.match(fs))
	if blank(out.Overview) && blank(out.Inputs) && blank(out.Outputs) && len(out.Functions) == 0 && len(out.Classes) == 0 {
		return nil
	}
	return out
}

// match returns the prose of the entries that match a symbol of fs, by
// qualified name; where two match one (overloads), the first prose wins.
// Symbols are looked up by key, so the work grows with the entries and the
// symbols, not with their product.
func (p *shown) match(fs *facts) map[string]doc {
	byLocal, byTitle, byName := map[string][]int{}, map[string][]int{}, map[string][]int{}
	for i, s := range fs.syms {
		if s.role == roleContainer {
			continue
		}
		byLocal[s.local] = append(byLocal[s.local], i)
		if s.Qualified != s.local {
			byLocal[s.Qualified] = append(byLocal[s.Qualified], i)
		}
		title := oneLine(s.Signature)
		if title == "" {
			title = s.local
		}
		byTitle[title] = append(byTitle[title], i)
		byName[s.Name] = append(byName[s.Name], i)
	}
	sym := make([]int, len(p.entries)) // the symbol matched, or -1
	taken := map[string]bool{}
	// one returns the symbol among pool of e's kind (a method of e's
	// type, once it is known) and not taken, when they are all one
	// qualified name; else -1.
	one := func(e *entry, pool []int, skipTaken bool) int {
		found := -1
		for _, i := range pool {
			s := &fs.syms[i]
			ok := false
			switch e.kind {
			case kindAny:
				ok = true
			case kindFunction:
				ok = s.role == roleCallable && s.owner < 0
			case kindType:
				ok = s.role == roleType
			case kindMethod:
				ok = s.role == roleCallable && s.owner >= 0
				if t := sym[e.typ]; ok && t >= 0 {
					ok = fs.syms[s.owner].Qualified == fs.syms[t].Qualified
				}
			}
			switch {
			case !ok || skipTaken && taken[s.Qualified]:
			case found < 0:
				found = i
			case fs.syms[found].Qualified != s.Qualified:
				return -1
			}
		}
		return found
	}
	for i := range p.entries {
		e := &p.entries[i]
		sym[i] = -1
		if h := oneLine(e.hint); h != "" {
			sym[i] = one(e, byLocal[h], false)
		}
		if sym[i] < 0 {
			sym[i] = one(e, byTitle[oneLine(e.title)], false)
		}
		if sym[i] >= 0 {
			taken[fs.syms[sym[i]].Qualified] = true
		}
	}
	for i := range p.entries {
		e := &p.entries[i]
		if sym[i] >= 0 || e.empty() && e.kind != kindType {
			continue
		}
		var pool []int
		seen := map[int]bool{}
		for _, w := range words(e.title) {
			for _, j := range byName[w] {
				if !seen[j] {
					seen[j] = true
					pool = append(pool, j)
				}
			}
		}
		if sym[i] = one(e, pool, true); sym[i] >= 0 {
			taken[fs.syms[sym[i]].Qualified] = true
		}
	}
	docs := map[string]doc{}
	for i := range p.entries {
		if sym[i] < 0 {
			continue
		}
		e, s := &p.entries[i], &fs.syms[sym[i]]
		d := docs[s.Qualified]
		if blank(d.purpose) {
			d.purpose = e.purpose
		}
		if blank(d.implementation) && s.role == roleCallable {
			d.implementation = e.impl
		}
		docs[s.Qualified] = d
	}
	return docs
}
