package main

import (
	"bytes"
	"encoding/json"
	"io"
)

// jsonObject writes a JSON object field by field, indented by two spaces
// and without HTML escaping, byte for byte as a json.Encoder with
// SetIndent("", "  ") and SetEscapeHTML(false) writes the whole object,
// but holding one array element at a time: `extract` and `callgraph` of a
// big repository stream their output through it.
type jsonObject struct {
	w      io.Writer
	buf    bytes.Buffer
	flat   []byte // itemFlat's element, reused
	enc    *json.Encoder
	fields int
	items  int // elements of the open array, -1 when none is open
	err    error
}

func newJSONObject(w io.Writer) *jsonObject {
	o := &jsonObject{w: w, items: -1}
	o.enc = json.NewEncoder(&o.buf)
	o.enc.SetEscapeHTML(false)
	o.enc.SetIndent("  ", "  ")
	return o
}

func (o *jsonObject) write(s string) {
	if o.err == nil {
		_, o.err = io.WriteString(o.w, s)
	}
}

// key starts the next field.
func (o *jsonObject) key(name string) {
	if o.fields == 0 {
		o.write("{\n  ")
	} else {
		o.write(",\n  ")
	}
	o.fields++
	k, _ := json.Marshal(name)
	o.write(string(k) + ": ")
}

// field writes a whole field.
func (o *jsonObject) field(name string, v any) {
	o.key(name)
	o.encode(v, "  ", "  ")
}

// encode writes v indented for its depth, without the encoder's newline.
func (o *jsonObject) encode(v any, prefix, indent string) {
	if o.err != nil {
		return
	}
	o.buf.Reset()
	o.enc.SetIndent(prefix, indent)
	if o.err = o.enc.Encode(v); o.err != nil {
		return
	}
	_, o.err = o.w.Write(bytes.TrimSuffix(o.buf.Bytes(), []byte("\n")))
}

// open starts an array field; item adds its elements; close ends it.
func (o *jsonObject) open(name string) {
	o.key(name)
	o.write("[")
	o.items = 0
}

func (o *jsonObject) item(v any) {
	if o.items > 0 {
		o.write(",")
	}
	o.write("\n    ")
	o.encode(v, "    ", "  ")
	o.items++
}

func (o *jsonObject) close() {
	if o.items > 0 {
		o.write("\n  ")
	}
	o.write("]")
	o.items = -1
}

// end closes the object and returns the first error.
func (o *jsonObject) end() error {
	if o.fields == 0 {
		o.write("{")
	} else {
		o.write("\n")
	}
	o.write("}\n")
	return o.err
}
