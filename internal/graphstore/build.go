package graphstore

// Decoding a run file's entries for the graph's build alone (`fileinfo
// index`, Options.Discard): the build reads each file's extraction but
// its syntax errors, and a symbol's doc comment only in a file of
// docLanguages; the symbols index, which wants the docs, reads the
// files again slim once the build and its files are gone (see Sync).
// On the Linux kernel those were 53 MB of the 0.8 GB of extractions
// held with the graph at the index's highest point (docs/bigrepos.md).

import (
	"fmt"
	"sort"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

// docLanguages are the languages whose symbols' docs callgraph.Build
// reads (JSDoc parameter types, callgraph's jsDocParamType).
var docLanguages = map[string]bool{"javascript": true}

// ForBuild returns what of f callgraph.Build reads: f without its
// syntax errors, and without its symbols' docs unless its language is
// one of docLanguages. A build decode gives it (TestBuildDecodeEqualsForBuild).
func ForBuild(f *extract.File) extract.File {
	g := *f
	g.Errors = nil
	if !docLanguages[f.Language] && len(f.Symbols) > 0 {
		g.Symbols = make([]extract.Symbol, len(f.Symbols))
		for i, s := range f.Symbols {
			s.Doc = ""
			g.Symbols[i] = s
		}
	}
	return g
}

var (
	streamOnce          sync.Once
	streamEnt, callsEnt *plan
	streamErr           error
)

// streamedLanguages are the languages whose calls a build for `fileinfo
// index` does not decode with the rest of a file but when the file's
// calls are resolved (see callSource): C's and C++'s calls are all their
// files' expressions read, so the expression table decoded with them is
// theirs alone. On the Linux kernel the calls were 331 MB of structs
// and most of the 175 MB of strings of the decoded files.
var streamedLanguages = map[string]bool{"c": true, "cpp": true}

// streamedEntryPlans returns the plan of an Entry decoded for the build
// (makeBuildEntryPlan's) without the Calls of a file in one of
// streamedLanguages, and the plan that decodes only those.
func streamedEntryPlans() (stream, calls *plan, err error) {
	streamOnce.Do(func() {
		streamEnt, streamErr = makeBuildEntryPlan(streamedLanguages)
		if streamErr == nil {
			callsEnt, streamErr = entryPlanWithFile(func(file *plan) error {
				found := false
				for k := range file.fields {
					ff := &file.fields[k]
					ff.skip = ff.name != "Calls" && ff.name != "Language"
					found = found || ff.name == "Calls"
				}
				if !found {
					return fmt.Errorf("graphstore: extract.File has no Calls")
				}
				return nil
			})
		}
	})
	return streamEnt, callsEnt, streamErr
}

// makeBuildEntryPlan makes the plan of an Entry whose File is decoded
// for the build (see ForBuild): its Errors are read past, its Symbols
// are decoded without their docs unless the file's Language, decoded
// before them, is one of docLanguages, and the Calls of the files in the
// languages of noCalls are read past.
func makeBuildEntryPlan(noCalls map[string]bool) (*plan, error) {
	return entryPlanWithFile(func(file *plan) error {
		language := false
		for k := range file.fields {
			switch ff := &file.fields[k]; ff.name {
			case "Language":
				language = true
			case "Errors":
				ff.skip = true
			case "Calls":
				if !language {
					return fmt.Errorf("graphstore: extract.File's Calls come before its Language")
				}
				ff.skipIn = noCalls
			case "Symbols":
				if !language {
					return fmt.Errorf("graphstore: extract.File's Symbols come before its Language")
				}
				nodoc, err := withoutField(ff.p, "Doc")
				if err != nil {
					return err
				}
				ff.whole, ff.p = ff.p, nodoc
			}
		}
		return nil
	})
}

// withoutField returns the plan of a slice of structs, p, whose
// elements' field name is read past.
func withoutField(p *plan, name string) (*plan, error) {
	if p.op != opSlice || p.elem.op != opStruct {
		return nil, fmt.Errorf("graphstore: %s is not a slice of structs", p.typ)
	}
	elem := *p.elem
	elem.fields = append([]field(nil), p.elem.fields...)
	found := false
	for k := range elem.fields {
		if elem.fields[k].name == name {
			elem.fields[k].skip, found = true, true
		}
	}
	if !found {
		return nil, fmt.Errorf("graphstore: %s has no field %s", p.elem.typ, name)
	}
	s := *p
	s.elem = &elem
	return &s, nil
}

// streamedEntries reads every entry back as entries does, each file
// decoded for the build (see makeBuildEntryPlan) without the calls of
// the files in streamedLanguages, which callSource gives.
func (r *runFile) streamedEntries() ([]Entry, error) {
	p, _, err := streamedEntryPlans()
	if err != nil {
		return nil, err
	}
	return r.entriesAs(p)
}

// callSource returns the source of calls callgraph.BuildToSave asks for
// the files of es, the entries streamedEntries read back: the calls of
// a file in streamedLanguages are decoded from its segment when asked,
// and the segment's decoded calls are kept until each of its files was
// asked for (the build asks in path order, the run file is in walk
// order: the two differ within a directory). A file in another language
// has its calls already: its source gives none.
func (r *runFile) callSource(es []Entry) (func(path string) ([]extract.Call, error), error) {
	_, p, err := streamedEntryPlans()
	if err != nil {
		return nil, err
	}
	starts := make([]int, len(r.segs)+1) // first entry of each segment
	for j, s := range r.segs {
		starts[j+1] = starts[j] + s.n
	}
	if starts[len(r.segs)] != len(es) {
		return nil, fmt.Errorf("graphstore: run file %s: %d entries, not %d", r.name, starts[len(r.segs)], len(es))
	}
	at := map[string]int{}           // entry of each streamed file
	left := make([]int, len(r.segs)) // streamed files of each segment not asked for yet
	for j := range r.segs {
		for i := starts[j]; i < starts[j+1]; i++ {
			if f := es[i].File; f != nil && streamedLanguages[f.Language] {
				at[es[i].Path] = i
				left[j]++
			}
		}
	}
	decoded := map[int][]Entry{} // by segment
	var buf []byte
	return func(path string) ([]extract.Call, error) {
		i, ok := at[path]
		if !ok {
			return nil, nil
		}
		delete(at, path)
		j := sort.SearchInts(starts, i+1) - 1
		seg, ok := decoded[j]
		if !ok {
			b, err := r.segment(j, buf)
			if err != nil {
				return nil, err
			}
			buf = b
			seg = make([]Entry, r.segs[j].n)
			if err := decodeRunSegment(buf, seg, p); err != nil {
				return nil, fmt.Errorf("graphstore: run file %s, segment %d: %w", r.name, j, err)
			}
			decoded[j] = seg
		}
		e := &seg[i-starts[j]]
		if e.Path != path || e.File == nil {
			return nil, fmt.Errorf("graphstore: run file %s: entry %d is not %s's extraction", r.name, i, path)
		}
		calls := e.File.Calls
		e.File = nil
		if left[j]--; left[j] == 0 {
			delete(decoded, j)
		}
		return calls, nil
	}, nil
}
