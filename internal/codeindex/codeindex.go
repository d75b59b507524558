// Package codeindex turns extracted source files into the code documents
// docsearch indexes (docsearch.CodeFile): one per function, method and
// type, and one for a file's top-level code, each with its signature,
// doc comment, the head of its body, the names it calls and, when the
// file has an enriched artifact, that symbol's Purpose and Implementation
// Summary. It is the glue between extract, enrich, artifacts and
// docsearch, which stand apart; the server and the CLI both use it.
package codeindex

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
)

// Prose is the enriched prose of one file's symbols.
type Prose struct {
	Docs  map[string]enrich.SymbolDoc // by qualified name
	Stale bool                        // the artifact was made from other source
}

// moduleHead bounds the text of a file's top-level code document, in bytes.
const moduleHead = 1500

// maxMembers bounds the member names a type's document lists.
const maxMembers = 60

// File returns the code document of f, extracted from src. prose may be
// nil.
func File(f *extract.File, src []byte, prose *Prose) docsearch.CodeFile {
	lines := splitLines(src)
	calls := map[string][]string{}
	for _, c := range f.Calls {
		if c.Name != "" && c.Name != "()" {
			calls[c.Caller] = append(calls[c.Caller], c.Name)
		}
	}
	members := map[string][]string{}
	kinds := map[string]extract.Kind{}
	for _, s := range f.Symbols {
		kinds[s.Qualified] = s.Kind
	}
	declFile := docsearch.DeclarationFile(f.Path)
	for _, s := range f.Symbols {
		if s.Parent != "" {
			parent := strings.TrimSuffix(s.Qualified, "."+s.Name)
			if len(members[parent]) < maxMembers {
				members[parent] = append(members[parent], s.Name)
			}
		}
	}
	out := docsearch.CodeFile{Path: f.Path, Generated: f.Generated != ""}
	if len(lines) > 0 {
		name := f.Module
		if name == "" {
			name = f.Path
		}
		out.Symbols = append(out.Symbols, docsearch.CodeSymbol{
			Name: name, Kind: "module", Signature: f.Path, Body: topLevel(lines, f.Symbols, f.Places), Calls: calls[f.Module],
			Line: 1, End: len(lines), Test: f.Test,
		})
	}
	overloads := overloadsOf(f.Symbols)
	for _, s := range f.Symbols {
		sig, doc := s.Signature, s.Doc
		if s.Declaration {
			if _, folded := overloads[s.Qualified]; folded {
				continue // its implementation's document holds it
			}
		} else if o, ok := overloads[s.Qualified]; ok {
			sig = strings.Join(slices.Concat(o.signatures, []string{sig}), "\n")
			if strings.TrimSpace(doc) == "" {
				doc = o.doc
			}
		}
		cs := docsearch.CodeSymbol{
			Name: s.Qualified, Kind: string(s.Kind), Signature: sig, Doc: doc,
			Calls: calls[s.Qualified], Line: s.StartLine, End: max(s.EndLine, s.StartLine), Test: s.Test,
		}
		skipFrom, skipTo := 0, 0
		if f.Language == "python" && s.Doc != "" {
			skipFrom, skipTo, _ = docstringLines(lines, s.StartLine, cs.End, s.Doc)
		}
		cs.Body = body(lines, s.StartLine, cs.End, skipFrom, skipTo)
		if a := attributeText(lines, s.StartLine, f.Language); a != "" {
			cs.Body = a + cs.Body
		}
		parent := strings.TrimSuffix(s.Qualified, "."+s.Name)
		// A C or C++ prototype, a member declared in its class, a Rust
		// trait's or extern block's function (extract.Symbol.Declaration)
		// is a declaration too: in a header it is shorter than the
		// definition it names, and ranked as a function it came first for
		// that function's own name (Linux's mm/slab.h prototype
		// __kmem_cache_create over mm/slab_common.c's kmem_cache_create).
		cs.Decl = s.Declaration || declFile || parent != s.Qualified && (kinds[parent] == extract.KindInterface || kinds[parent] == extract.KindTrait && s.StartLine == s.EndLine)
		if m := members[s.Qualified]; len(m) > 0 {
			cs.Body = "members: " + strings.Join(m, " ") + "\n" + cs.Body
		}
		if prose != nil {
			if d, ok := prose.Docs[s.Qualified]; ok {
				cs.Purpose, cs.Implementation, cs.Stale = d.Purpose, d.Implementation, prose.Stale
			}
		}
		out.Symbols = append(out.Symbols, cs)
	}
	for _, p := range f.Places {
		out.Symbols = append(out.Symbols, docsearch.CodeSymbol{
			Name: p.Qualified, Kind: string(extract.KindFunction), Signature: p.Signature,
			Calls: placeCalls(f, p, kinds), Line: p.StartLine, End: max(p.EndLine, p.StartLine),
			Body: body(lines, p.StartLine, max(p.EndLine, p.StartLine), 0, 0), Test: f.Test,
		})
	}
	return out
}

// overloads are the signatures declared beside a function's one
// definition in its file: TypeScript's overloads (rxjs's merge has four,
// mobx's onBecomeObserved two), a C file's prototype of its own static
// function. They document the function, often better than its own
// signature does (`onBecomeObserved(thing, arg2, arg3?)`), and as
// documents of their own they ranked over it for its name.
type overloads struct {
	signatures []string
	doc        string // the first one's doc comment
}

// maxOverloads is the most signatures an implementation's document takes.
const maxOverloads = 8

// overloadsOf returns the overloads of symbols by qualified name
// (extract.Overloads).
func overloadsOf(symbols []extract.Symbol) map[string]overloads {
	idx := extract.Overloads(symbols)
	if idx == nil {
		return nil
	}
	out := make(map[string]overloads, len(idx))
	for q, is := range idx {
		var o overloads
		for _, i := range is {
			if len(o.signatures) < maxOverloads {
				o.signatures = append(o.signatures, symbols[i].Signature)
			}
			if o.doc == "" {
				o.doc = symbols[i].Doc
			}
		}
		out[q] = o
	}
	return out
}

// placeCalls returns the names called in place p's lines by the module
// or a type: a place's calls are its owner's (extract.Place), not those
// of a function declared inside it. The calls are in line order (as
// extraction sorts them), so each place reads only its own lines' calls
// rather than the file's: a routes file holds hundreds of places.
func placeCalls(f *extract.File, p extract.Place, kinds map[string]extract.Kind) []string {
	var names []string
	from := sort.Search(len(f.Calls), func(i int) bool { return f.Calls[i].Line >= p.StartLine })
	for _, c := range f.Calls[from:] {
		if c.Line > p.EndLine {
			break
		}
		if c.Name == "" || c.Name == "()" {
			continue
		}
		if k := kinds[c.Caller]; k == extract.KindFunction || k == extract.KindMethod {
			continue
		}
		names = append(names, c.Name)
	}
	return names
}

// maxBody bounds a symbol's body in bytes: more than docsearch keeps
// (maxCodeBody there, after trimming).
const maxBody = 2000

// body returns lines [start, end] (1-based) joined, less lines [skipFrom,
// skipTo] (a docstring, which the symbol's Doc holds; none when 0), cut
// at maxBody bytes. A line is cut too: every symbol of a minified file
// starts on its one line, and copying that line whole for each of them made the code index
// quadratic in its length (5 GB for a 2 MB bundle).
func body(lines [][]byte, start, end, skipFrom, skipTo int) string {
	if start < 1 || start > len(lines) {
		return ""
	}
	var b strings.Builder
	b.Grow(bodySize(lines, start, end, skipFrom, skipTo))
	for i := start - 1; i < min(end, len(lines)) && b.Len() < maxBody; i++ {
		if i+1 >= skipFrom && i+1 <= skipTo {
			continue
		}
		l := lines[i]
		if room := maxBody - b.Len(); len(l) > room {
			for room > 0 && !utf8.RuneStart(l[room]) {
				room-- // not inside a rune
			}
			b.Write(l[:room])
			break
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// bodySize returns the bytes body writes, or at most 3 more (a cut line
// is cut back to a rune's start): the builder is sized once, where its
// growth, doubling from 8 bytes, made 4-5 allocations and copies a body.
func bodySize(lines [][]byte, start, end, skipFrom, skipTo int) int {
	n := 0
	for i := start - 1; i < min(end, len(lines)) && n < maxBody; i++ {
		if i+1 >= skipFrom && i+1 <= skipTo {
			continue
		}
		if room := maxBody - n; len(lines[i]) > room {
			return maxBody
		}
		n += len(lines[i]) + 1
	}
	return n
}

// topLevel returns the lines of a file outside its symbols and places
// (imports, package doc, globals, top-level statements), at most
// moduleHead bytes: a file's own code, which no other document holds.
func topLevel(lines [][]byte, syms []extract.Symbol, places []extract.Place) string {
	covered := make([]bool, len(lines)+2)
	cover := func(from, to int) {
		for l := max(from, 1); l <= min(to, len(lines)); l++ {
			covered[l] = true
		}
	}
	for _, s := range syms {
		cover(s.StartLine, s.EndLine)
	}
	for _, p := range places {
		cover(p.StartLine, p.EndLine)
	}
	var b strings.Builder
	for i, l := range lines {
		if covered[i+1] || len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		if b.Len()+len(l) > moduleHead {
			break
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func splitLines(src []byte) [][]byte {
	if len(src) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(src, []byte("\n")), []byte("\n"))
}

// ReadProse returns the prose of f's artifact in store, judged stale when
// it was made from source other than digest's; nil when there is no
// artifact or it has no prose (a basic one), or it cannot be read.
func ReadProse(store *artifacts.Store, f *extract.File, digest string) *Prose {
	if store == nil {
		return nil
	}
	meta, body, err := store.Read(f.Path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return nil
	}
	if meta.Status == artifacts.Basic {
		return nil
	}
	r, _ := enrich.Prose(body, f)
	docs := enrich.SymbolDocs(r, f)
	if len(docs) == 0 {
		return nil
	}
	return &Prose{Docs: docs, Stale: digest != "" && meta.SourceSHA256 != digest}
}
