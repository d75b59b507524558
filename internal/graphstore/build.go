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
	buildOnce sync.Once
	buildEnt  *plan
	buildErr  error
)

// buildEntryPlan returns the plan of an Entry whose File is decoded for
// the build (see ForBuild): its Errors are read past, and its Symbols
// are decoded without their docs unless the file's Language, decoded
// before them, is one of docLanguages.
func buildEntryPlan() (*plan, error) {
	buildOnce.Do(func() { buildEnt, buildErr = makeBuildEntryPlan() })
	return buildEnt, buildErr
}

func makeBuildEntryPlan() (*plan, error) {
	return entryPlanWithFile(func(file *plan) error {
		language := false
		for k := range file.fields {
			switch ff := &file.fields[k]; ff.name {
			case "Language":
				language = true
			case "Errors":
				ff.skip = true
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
