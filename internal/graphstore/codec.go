package graphstore

// The file format, graph.bin under .artifacts/.index/ (all integers
// little-endian):
//
//	magic    8 bytes  "FIGRAPH\n"
//	version  uint32   formatVersion; another is an old file, rebuilt
//	schema   uint64   FNV-64a of the Go types saved (field names and kinds,
//	                  see schemaOf): a change to extract.File or
//	                  callgraph.Node makes every saved file old
//	length   uint64   bytes of payload
//	checksum uint32   CRC-32 (Castagnoli) of payload: it catches a torn or
//	                  damaged file at memory speed (the Linux kernel's is
//	                  400 MB); it is no defence against a forger, nor
//	                  needs to be: the decoder checks every count anyway
//	payload           a State: its fields in order, the big slices cut
//	                  into segments (see segments.go)
//
// Each value is encoded field by field in declaration order, exported
// fields only, with no field names (the schema hash stands for them):
//
//	bool, uint*      uvarint
//	int*             zigzag varint
//	string           uvarint r: r-1 is the index of a string met before
//	                 in the same field or segment, in order of first
//	                 appearance; r = 0 is a new string, then uvarint
//	                 length and its bytes
//	slice            uvarint 0 for nil, else length+1, then the elements
//	pointer          0 for nil, or 1 then the value
//	struct           its exported fields in order
//	extract.File     first its expression table (extract.ExprTable, a
//	                 []extract.ExprNode), then its fields; each
//	                 extract.Expr field is a zigzag varint index into
//	                 that table, -1 for the zero Expr
//
// Load opens the file through bounded.Open (a regular file, no symbolic
// link, at most bounded.State bytes), then reads the header alone and
// checks it against the file's size (read): a file of garbage, of another
// version, truncated or padded is refused after its first 32 bytes,
// whatever its size; only then is the payload read, in one piece.
//
// The decoder checks every length against the bytes left, so a corrupt
// payload that passes the checksum still cannot make it allocate more
// than the file's size in elements, nor loop: extract.NewExprTable
// refuses tables whose nodes point forward.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

const (
	magic         = "FIGRAPH\n"
	formatVersion = 3
	headerSize    = len(magic) + 4 + 8 + 8 + 4
)

// ErrOldVersion is returned by Decode for a file of another format
// version or schema.
var ErrOldVersion = errors.New("saved by another version of fileinfo")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var (
	fileType    = reflect.TypeFor[extract.File]()
	exprType    = reflect.TypeFor[extract.Expr]()
	stateSchema = schemaOf(reflect.TypeFor[State]())
)

// schemaOf hashes the shape of t: type names, exported field names and
// kinds, recursively.
func schemaOf(t reflect.Type) uint64 {
	h := fnv.New64a()
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		fmt.Fprintf(h, "%s/%s/%s(", t.PkgPath(), t.Name(), t.Kind())
		defer h.Write([]byte(")"))
		if seen[t] || t == exprType {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Slice, reflect.Pointer:
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() {
					fmt.Fprintf(h, "%s:", f.Name)
					walk(f.Type)
				}
			}
		}
	}
	walk(t)
	return h.Sum64()
}

// Encode returns st in the file format above.
func Encode(st *State) ([]byte, error) {
	head, payload, err := encode(st)
	if err != nil {
		return nil, err
	}
	return append(head, payload...), nil
}

// encode returns the header and the payload of st, which Save writes
// one after the other without joining them.
func encode(st *State) (head, payload []byte, err error) {
	payload, err = encodeState(nil, st)
	if err != nil {
		return nil, nil, err
	}
	head = make([]byte, 0, headerSize)
	head = append(head, magic...)
	head = binary.LittleEndian.AppendUint32(head, formatVersion)
	head = binary.LittleEndian.AppendUint64(head, stateSchema)
	head = binary.LittleEndian.AppendUint64(head, uint64(len(payload)))
	head = binary.LittleEndian.AppendUint32(head, crc32.Checksum(payload, castagnoli))
	return head, payload, nil
}

// Decode parses data written by Encode. An error says whether the file
// is of another version (ErrOldVersion) or corrupt.
func Decode(data []byte) (*State, error) {
	if len(data) < headerSize {
		return nil, errBadHeader
	}
	n, sum, err := parseHeader(data[:headerSize], int64(len(data)))
	if err != nil {
		return nil, err
	}
	return decodeChecked(data[headerSize:headerSize+n], sum)
}

// read reads a saved state of size bytes from r (see readPayload).
func read(r io.Reader, size int64) (*State, error) {
	payload, sum, err := readPayload(r, size)
	if err != nil {
		return nil, err
	}
	return decodeChecked(payload, sum)
}

// readPayload reads the payload of a saved state of size bytes from r,
// and returns it with its checksum: first the header, which must name
// this format and schema and declare a payload of exactly the bytes that
// follow; only then the payload. Garbage, a file of another version and a
// truncated or padded file are refused after the header.
func readPayload(r io.Reader, size int64) (payload []byte, sum uint32, err error) {
	if size < int64(headerSize) {
		return nil, 0, errBadHeader
	}
	var head [headerSize]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, 0, fmt.Errorf("reading the header: %w", err)
	}
	n, sum, err := parseHeader(head[:], size)
	if err != nil {
		return nil, 0, err
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, 0, fmt.Errorf("reading the %d-byte payload: %w (truncated while read)", n, err)
	}
	return payload, sum, nil
}

var errBadHeader = errors.New("not a saved graph: bad header")

// parseHeader checks the header of a file of size bytes and returns the
// length and checksum of the payload it declares.
func parseHeader(head []byte, size int64) (n int, sum uint32, err error) {
	if string(head[:len(magic)]) != magic {
		return 0, 0, errBadHeader
	}
	p := head[len(magic):]
	if v, s := binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint64(p[4:]); v != formatVersion || s != stateSchema {
		return 0, 0, fmt.Errorf("format %d schema %x: %w", v, s, ErrOldVersion)
	}
	declared, have := binary.LittleEndian.Uint64(p[12:]), uint64(size-int64(headerSize))
	switch {
	case declared > have:
		return 0, 0, fmt.Errorf("payload is %d bytes, header says %d: truncated", have, declared)
	case declared < have:
		return 0, 0, fmt.Errorf("payload is %d bytes, header says %d: bytes past the end", have, declared)
	case declared > math.MaxInt:
		return 0, 0, fmt.Errorf("payload of %d bytes: too large for this machine", declared)
	}
	return int(declared), binary.LittleEndian.Uint32(p[20:]), nil
}

// decodeChecked decodes payload once its checksum is sum.
func decodeChecked(payload []byte, sum uint32) (*State, error) {
	if crc32.Checksum(payload, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	return decodePayload(payload)
}

// decodePayload decodes a payload without its header; Decode and the
// fuzz test use it.
func decodePayload(payload []byte) (*State, error) {
	return decodeState(payload)
}

type encoder struct {
	buf  []byte
	strs map[string]int
}

// value appends v; table is the expression table of the File being
// encoded, by the identity its Exprs index.
func (e *encoder) value(v reflect.Value, table *extract.ExprTable) error {
	t := v.Type()
	switch {
	case t == exprType:
		e.buf = binary.AppendVarint(e.buf, int64(v.Interface().(extract.Expr).Index()))
		return nil
	case t == fileType:
		f := v.Addr().Interface().(*extract.File)
		nodes := reflect.ValueOf(f.ExprTable())
		if err := e.value(nodes, nil); err != nil {
			return err
		}
		return e.fields(v, &extract.ExprTable{})
	}
	switch t.Kind() {
	case reflect.Bool:
		b := uint64(0)
		if v.Bool() {
			b = 1
		}
		e.buf = binary.AppendUvarint(e.buf, b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = binary.AppendUvarint(e.buf, v.Uint())
	case reflect.String:
		s := v.String()
		if i, ok := e.strs[s]; ok {
			e.buf = binary.AppendUvarint(e.buf, uint64(i)+1)
			return nil
		}
		e.strs[s] = len(e.strs)
		e.buf = binary.AppendUvarint(e.buf, 0)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(s)))
		e.buf = append(e.buf, s...)
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		e.buf = binary.AppendUvarint(e.buf, uint64(v.Len())+1)
		for i := range v.Len() {
			if err := e.value(v.Index(i), table); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		e.buf = append(e.buf, 1)
		return e.value(v.Elem(), table)
	case reflect.Struct:
		return e.fields(v, table)
	default:
		return fmt.Errorf("graphstore: cannot encode %s", t)
	}
	return nil
}

func (e *encoder) fields(v reflect.Value, table *extract.ExprTable) error {
	for _, i := range exported(v.Type()) {
		if err := e.value(v.Field(i), table); err != nil {
			return err
		}
	}
	return nil
}

// exportedFields caches exported: reflect's Field costs a third of
// decoding otherwise (measured on golang.org/x/tools).
var exportedFields sync.Map // reflect.Type → []int

// exported returns the indexes of the exported fields of struct type t.
func exported(t reflect.Type) []int {
	if f, ok := exportedFields.Load(t); ok {
		return f.([]int)
	}
	var idx []int
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			idx = append(idx, i)
		}
	}
	exportedFields.Store(t, idx)
	return idx
}

type decoder struct {
	buf  []byte
	off  int
	strs []string
	// lent marks the strings of strs that skip met first: they point
	// into buf, not copies of it, and are copied when a value kept
	// refers to them (see string).
	lent []bool
}

var errShort = errors.New("unexpected end of data")

func (d *decoder) uvarint() (uint64, error) {
	x, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		return 0, errShort
	}
	d.off += n
	return x, nil
}

func (d *decoder) varint() (int64, error) {
	x, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		return 0, errShort
	}
	d.off += n
	return x, nil
}

// length reads the length of a slice whose elements are each at least
// one byte long, or -1 for a nil slice.
func (d *decoder) length() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n-1 > uint64(len(d.buf)-d.off) && n != 0 {
		return 0, fmt.Errorf("length %d past the end", n-1)
	}
	return int(n) - 1, nil
}

// pointerTag reads the byte the encoder writes before a pointer: 0 for
// nil, 1 when the value follows.
func (d *decoder) pointerTag() (set bool, err error) {
	if d.off >= len(d.buf) {
		return false, errShort
	}
	b := d.buf[d.off]
	d.off++
	switch b {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, fmt.Errorf("pointer tag %d", b)
}
