package server

import (
	"reflect"
	"strings"
)

// outline is the output schema of a tool whose structured content is a T:
// its top-level properties and their JSON types, without descriptions or
// nested schemas. The full inferred schemas made tools/list 4,566 tokens
// (2026-11-28), half of it output schemas, which a client sends its model
// in every conversation; the text content explains each result anyway.
// The SDK still checks every result against this outline.
func outline[T any]() map[string]any {
	props := map[string]any{}
	addProperties(reflect.TypeFor[T](), props)
	return map[string]any{"type": "object", "properties": props}
}

// addProperties adds the JSON properties of struct type t to props,
// those of embedded structs included.
func addProperties(t reflect.Type, props map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			addProperties(f.Type, props)
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = map[string]any{"type": jsonType(f.Type)}
	}
}

// jsonType is the JSON Schema type of values of Go type t; those that
// encode as null when nil may also be null.
func jsonType(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string" // []byte encodes as base64
		}
		return []string{"null", "array"}
	case reflect.Array:
		return "array"
	case reflect.Map:
		return []string{"null", "object"}
	case reflect.Pointer:
		switch e := jsonType(t.Elem()).(type) {
		case string:
			return []string{"null", e}
		default:
			return e
		}
	case reflect.Struct:
		if t.PkgPath() == "time" && t.Name() == "Time" {
			return "string"
		}
		return "object"
	}
	return []string{"null", "boolean", "number", "string", "array", "object"}
}
