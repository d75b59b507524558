package graphstore

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/fileinfo/fileinfo/extract"
)

// A plan is how the decoder fills a value of one type: the reflect
// walk of each value once cost most of a load (a saved kernel's graph is
// 400 MB), so the walk is done once per type, and values are written
// through their addresses. Every write goes to memory of the type the
// plan was made for: a struct's field at its offset, a slice's element
// at its index times the element's size, inside slices the decoder
// allocates with their length.
type plan struct {
	op     op
	typ    reflect.Type
	elem   *plan   // slice and pointer
	fields []field // struct: its exported fields
	// slim (opFile only): the expression table is read past, not kept;
	// no field kept may hold an Expr (see slimPlan).
	slim bool
}

type field struct {
	off  uintptr
	p    *plan
	name string
	skip bool // read past, not kept (see slimPlan, makeBuildEntryPlan)
	// whole (a field of extract.File only), when set, is decoded instead
	// of p in a file whose Language is one of docLanguages (see
	// makeBuildEntryPlan).
	whole *plan
	// skipIn (a field of extract.File only), when set, has the field read
	// past in a file whose Language is in it (see makeBuildEntryPlan).
	skipIn map[string]bool
}

type op uint8

const (
	opBool op = iota
	opInt
	opUint
	opString
	opSlice
	opPointer
	opStruct
	opExpr // extract.Expr: an index into the file's expression table
	opFile // extract.File: its expression table, then its fields
)

var plans sync.Map // reflect.Type → *plan

// planOf returns the plan of t, made on first use.
func planOf(t reflect.Type) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(*plan), nil
	}
	p, err := makePlan(t, map[reflect.Type]*plan{})
	if err != nil {
		return nil, err
	}
	plans.Store(t, p)
	return p, nil
}

func makePlan(t reflect.Type, making map[reflect.Type]*plan) (*plan, error) {
	if p, ok := making[t]; ok {
		return p, nil // a recursive type: filled in below
	}
	p := &plan{typ: t}
	making[t] = p
	switch {
	case t == exprType:
		p.op = opExpr
		return p, nil
	case t == fileType:
		p.op = opFile
	}
	var err error
	switch t.Kind() {
	case reflect.Bool:
		p.op = opBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.op = opInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.op = opUint
	case reflect.String:
		p.op = opString
	case reflect.Slice:
		p.op = opSlice
		p.elem, err = makePlan(t.Elem(), making)
	case reflect.Pointer:
		p.op = opPointer
		p.elem, err = makePlan(t.Elem(), making)
	case reflect.Struct:
		if p.op != opFile {
			p.op = opStruct
		}
		for _, i := range exported(t) {
			f := t.Field(i)
			fp, ferr := makePlan(f.Type, making)
			if ferr != nil {
				return nil, ferr
			}
			p.fields = append(p.fields, field{off: f.Offset, p: fp, name: f.Name})
		}
	default:
		return nil, fmt.Errorf("cannot decode %s", t)
	}
	return p, err
}

// decodeInto decodes a value of p's type into the memory at ptr, which
// holds that type's zero value.
func (d *decoder) decodeInto(p *plan, ptr unsafe.Pointer, table *extract.ExprTable) error {
	switch p.op {
	case opBool:
		x, err := d.uvarint()
		if err != nil {
			return err
		}
		if x > 1 {
			return fmt.Errorf("bool %d", x)
		}
		*(*bool)(ptr) = x == 1
	case opInt:
		x, err := d.varint()
		if err != nil {
			return err
		}
		return setInt(p.typ, ptr, x)
	case opUint:
		x, err := d.uvarint()
		if err != nil {
			return err
		}
		return setUint(p.typ, ptr, x)
	case opString:
		s, err := d.string()
		if err != nil {
			return err
		}
		*(*string)(ptr) = s
	case opSlice:
		n, err := d.length()
		if err != nil || n < 0 {
			return err
		}
		s := reflect.MakeSlice(p.typ, n, n)
		base, size := s.UnsafePointer(), p.elem.typ.Size()
		for i := range n {
			if err := d.decodeInto(p.elem, unsafe.Add(base, uintptr(i)*size), table); err != nil {
				return err
			}
		}
		reflect.NewAt(p.typ, ptr).Elem().Set(s)
	case opPointer:
		set, err := d.pointerTag()
		if err != nil || !set {
			return err
		}
		v := reflect.New(p.elem.typ)
		if err := d.decodeInto(p.elem, v.UnsafePointer(), table); err != nil {
			return err
		}
		reflect.NewAt(p.typ, ptr).Elem().Set(v)
	case opStruct:
		for _, f := range p.fields {
			var err error
			if f.skip {
				err = d.skip(f.p)
			} else {
				err = d.decodeInto(f.p, unsafe.Add(ptr, f.off), table)
			}
			if err != nil {
				return err
			}
		}
	case opExpr:
		i, err := d.varint()
		if err != nil {
			return err
		}
		if table == nil || i < -1 || i > int64(len(d.buf)) {
			return fmt.Errorf("expression index %d outside a file", i)
		}
		x, ok := table.At(int(i))
		if !ok {
			return fmt.Errorf("expression index %d out of range", i)
		}
		*(*extract.Expr)(ptr) = x
	case opFile:
		if p.slim {
			return d.decodeSlim(p, ptr)
		}
		return d.decodeFile(p, ptr)
	}
	return nil
}

// decodeFile decodes an extract.File: its expression table, then its
// fields, whose Exprs index the table (but those p reads past, see
// makeBuildEntryPlan).
func (d *decoder) decodeFile(p *plan, ptr unsafe.Pointer) error {
	var nodes []extract.ExprNode
	np, err := planOf(exprNodesType)
	if err != nil {
		return err
	}
	if err := d.decodeInto(np, unsafe.Pointer(&nodes), nil); err != nil {
		return err
	}
	tab, err := extract.NewExprTable(nodes)
	if err != nil {
		return err
	}
	for _, f := range p.fields {
		fp := f.p
		if f.whole != nil && docLanguages[(*extract.File)(ptr).Language] {
			fp = f.whole
		}
		if f.skip || f.skipIn[(*extract.File)(ptr).Language] {
			err = d.skip(fp)
		} else {
			err = d.decodeInto(fp, unsafe.Add(ptr, f.off), &tab)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var exprNodesType = reflect.TypeFor[[]extract.ExprNode]()

// string reads a string: a reference to one met before, or a new one.
func (d *decoder) string() (string, error) {
	r, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if r > 0 {
		if r > uint64(len(d.strs)) {
			return "", fmt.Errorf("string reference %d past %d strings", r, len(d.strs))
		}
		if i := int(r - 1); i < len(d.lent) && d.lent[i] {
			d.strs[i], d.lent[i] = strings.Clone(d.strs[i]), false
		}
		return d.strs[r-1], nil
	}
	n, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if n > uint64(len(d.buf)-d.off) {
		return "", errShort
	}
	s := string(d.buf[d.off : d.off+int(n)])
	d.off += int(n)
	d.strs = append(d.strs, s)
	return s, nil
}

func setInt(t reflect.Type, ptr unsafe.Pointer, x int64) error {
	switch t.Size() {
	case 1:
		if int64(int8(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*int8)(ptr) = int8(x)
	case 2:
		if int64(int16(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*int16)(ptr) = int16(x)
	case 4:
		if int64(int32(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*int32)(ptr) = int32(x)
	default:
		*(*int64)(ptr) = x
	}
	return nil
}

func setUint(t reflect.Type, ptr unsafe.Pointer, x uint64) error {
	switch t.Size() {
	case 1:
		if uint64(uint8(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*uint8)(ptr) = uint8(x)
	case 2:
		if uint64(uint16(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*uint16)(ptr) = uint16(x)
	case 4:
		if uint64(uint32(x)) != x {
			return fmt.Errorf("%d overflows %s", x, t)
		}
		*(*uint32)(ptr) = uint32(x)
	default:
		*(*uint64)(ptr) = x
	}
	return nil
}
