package graphstore

// Decoding State.Files slim: a server keeps of each file only what Slim
// keeps, and reads a whole extraction again from graph.bin when asked
// (see Extractions). Decoding every file whole and slimming it after
// made the load's peak the whole extraction (the Linux kernel's: 1 GB
// more than what is kept), and the Go runtime keeps a peak resident
// long after it is garbage; so the slim load reads past the rest of
// each file without allocating it.

import (
	"cmp"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// slimFields are the fields of extract.File a slim decode keeps: those
// Slim keeps (TestSlimDecodeEqualsSlim holds the two together).
var slimFields = map[string]bool{"Path": true, "Language": true, "Module": true, "Symbols": true, "Places": true, "Test": true, "Generated": true}

// bareFields are those Bare keeps: slimFields but the symbols.
var bareFields = map[string]bool{"Path": true, "Language": true, "Module": true, "Places": true, "Test": true, "Generated": true}

var (
	slimOnce, bareOnce sync.Once
	slimEnt, bareEnt   *plan
	slimErr, bareErr   error
)

// slimEntryPlan returns the plan of an Entry whose File is decoded slim:
// its expression table and every field not in slimFields are read past.
func slimEntryPlan() (*plan, error) {
	slimOnce.Do(func() { slimEnt, slimErr = entryPlanKeeping(slimFields) })
	return slimEnt, slimErr
}

// bareEntryPlan is slimEntryPlan keeping bareFields: what a load for a
// server decodes (see Options.Lazy).
func bareEntryPlan() (*plan, error) {
	bareOnce.Do(func() { bareEnt, bareErr = entryPlanKeeping(bareFields) })
	return bareEnt, bareErr
}

// entryPlanKeeping returns the plan of an Entry whose File keeps the
// fields in keep, reading past its expression table and the rest.
func entryPlanKeeping(keep map[string]bool) (*plan, error) {
	return entryPlanWithFile(func(file *plan) error {
		file.slim = true
		for k := range file.fields {
			file.fields[k].skip = !keep[file.fields[k].name]
			if !file.fields[k].skip && holdsExpr(file.fields[k].p.typ, map[reflect.Type]bool{}) {
				return fmt.Errorf("graphstore: slim field %s holds an expression", file.fields[k].name)
			}
		}
		return nil
	})
}

// entryPlanWithFile returns a copy of Entry's plan in which the plan of
// its File is a copy that edit changes (its fields copied too); the plan
// of Entry itself is not changed.
func entryPlanWithFile(edit func(file *plan) error) (*plan, error) {
	full, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		return nil, err
	}
	ent := *full
	ent.fields = append([]field(nil), full.fields...)
	for i, f := range ent.fields {
		if f.p.typ != reflect.TypeFor[*extract.File]() {
			continue
		}
		file := *f.p.elem
		file.fields = append([]field(nil), f.p.elem.fields...)
		if err := edit(&file); err != nil {
			return nil, err
		}
		ptr := *f.p
		ptr.elem = &file
		ent.fields[i].p = &ptr
	}
	return &ent, nil
}

// holdsExpr reports whether a value of type t can hold an extract.Expr,
// which indexes the expression table a slim decode does not keep.
func holdsExpr(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == exprType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		return holdsExpr(t.Elem(), seen)
	case reflect.Struct:
		for _, i := range exported(t) {
			if holdsExpr(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// decodeSlim decodes the fields of an extract.File that p keeps, reading
// past its expression table and the other fields.
func (d *decoder) decodeSlim(p *plan, ptr unsafe.Pointer) error {
	if err := d.skipExprNodes(); err != nil {
		return err
	}
	var err error
	for _, f := range p.fields {
		if f.skip {
			err = d.skip(f.p)
		} else {
			err = d.decodeInto(f.p, unsafe.Add(ptr, f.off), nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// skipExprNodes reads past a file's expression table, which comes before
// its fields.
func (d *decoder) skipExprNodes() error {
	np, err := planOf(exprNodesType)
	if err != nil {
		return err
	}
	return d.skip(np)
}

// skip reads past a value of p's type, allocating nothing for it: the
// strings it meets first are lent from the buffer (see decoder.lent),
// as a value decoded after may refer to them. It checks what it reads
// as decodeInto does, except expression indexes, whose table it does
// not keep: a file whose full decode fails on one is an error when read
// whole (Extractions), never a slim file's.
func (d *decoder) skip(p *plan) error {
	switch p.op {
	case opBool:
		x, err := d.uvarint()
		if err == nil && x > 1 {
			err = fmt.Errorf("bool %d", x)
		}
		return err
	case opInt, opExpr:
		_, err := d.varint()
		return err
	case opUint:
		_, err := d.uvarint()
		return err
	case opString:
		return d.skipString()
	case opSlice:
		n, err := d.length()
		if err != nil {
			return err
		}
		for range n {
			if err := d.skip(p.elem); err != nil {
				return err
			}
		}
	case opPointer:
		set, err := d.pointerTag()
		if err != nil || !set {
			return err
		}
		return d.skip(p.elem)
	case opStruct:
		for _, f := range p.fields {
			if err := d.skip(f.p); err != nil {
				return err
			}
		}
	case opFile:
		if err := d.skipExprNodes(); err != nil {
			return err
		}
		for _, f := range p.fields {
			if err := d.skip(f.p); err != nil {
				return err
			}
		}
	}
	return nil
}

// skipString reads past a string: a reference is checked; a new string
// is lent from the buffer, not copied.
func (d *decoder) skipString() error {
	r, err := d.uvarint()
	if err != nil {
		return err
	}
	if r > 0 {
		if r > uint64(len(d.strs)) {
			return fmt.Errorf("string reference %d past %d strings", r, len(d.strs))
		}
		return nil
	}
	n, err := d.uvarint()
	if err != nil {
		return err
	}
	if n > uint64(len(d.buf)-d.off) {
		return errShort
	}
	s := ""
	if n > 0 {
		s = unsafe.String(&d.buf[d.off], int(n))
	}
	d.off += int(n)
	for len(d.lent) < len(d.strs) {
		d.lent = append(d.lent, false)
	}
	d.strs = append(d.strs, s)
	d.lent = append(d.lent, true)
	return nil
}

// fullEntries reads the full extraction of every file saved in sf into
// entries, the State.Files sf's load decoded slim, segments in parallel:
// what a Sync that saves or extracts needs of the files it reuses.
func (sf *openState) fullEntries(entries []Entry) error {
	x := &Extractions{saved: sf}
	errs := make([]error, len(sf.spans))
	par.For(0, len(sf.spans), func(j int) {
		var bad error
		err := x.decode(j, sf.spans[j].hi-1, func(i int, e *Entry) {
			switch {
			case i >= len(entries) || entries[i].Path != e.Path:
				bad = fmt.Errorf("graphstore: entry %d of %s is %s, not the one loaded", i, sf.name, e.Path)
			case bad == nil:
				entries[i].File = e.File
			}
		})
		errs[j] = cmp.Or(err, bad)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// wholeFiles puts in es, the entries of an unchanged Sync, the full
// extractions of their slim files, read from kept, the file loaded,
// whose entries are loaded. It reports whether it could.
func wholeFiles(log *slog.Logger, kept *openState, loaded, es []Entry) bool {
	full := slices.Clone(loaded)
	if err := kept.fullEntries(full); err != nil {
		log.Warn("graphstore: not saving the graph", "reason", err)
		return false
	}
	byp := byPath(full)
	for i := range es {
		if o := byp[es[i].Path]; es[i].File != nil && o != nil {
			es[i].File = o.File
		}
	}
	return true
}

// Bare returns what a server holds of each file until its graph is
// restored (see Options.Lazy): f's path, language, module, places, test
// flag and generator mark. The places (few: none in C) name the
// anonymous function a call of the module's is in, for file_info's
// callers.
func Bare(f *extract.File) extract.File {
	return extract.File{Path: f.Path, Language: f.Language, Module: f.Module, Places: f.Places, Test: f.Test, Generated: f.Generated}
}

// Slim returns what of f a graph restored over it reads (callgraph.Restore
// and the graph's answers: the nodes, signatures) and what a server
// reads of every file (its language, its symbols for names and lookups):
// f without its imports, calls, errors, bindings, exports and refs.
func Slim(f *extract.File) extract.File {
	return extract.File{Path: f.Path, Language: f.Language, Module: f.Module, Symbols: f.Symbols, Places: f.Places, Test: f.Test, Generated: f.Generated}
}

// symbolsOnly returns the paths and symbols of files, what
// writeSymbols reads of them.
func symbolsOnly(files []extract.File) []extract.File {
	out := make([]extract.File, len(files))
	for i := range files {
		out[i] = extract.File{Path: files[i].Path, Symbols: files[i].Symbols}
	}
	return out
}
