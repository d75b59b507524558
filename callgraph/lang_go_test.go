package callgraph

import "testing"

// goTypesArchive exercises each way a Go receiver gets its type.
const goTypesArchive = `
-- go.mod --
module example.com/m
-- store/store.go --
package store

type Item struct{ Name string }

func (i Item) Label() string { return i.Name }

type Store struct {
	items map[string]*Item
	list  []Item
	log   *Logger
	hook  func() error
	ch    chan *Item
}

type Logger struct{}

func (l *Logger) Printf(format string, args ...any) {}

func New() *Store { return &Store{log: &Logger{}} }

func Open(path string) (*Store, error) { return New(), nil }

func (s *Store) Get(k string) *Item {
	s.log.Printf("get %s", k)
	it := s.items[k]
	it.Label()
	for _, v := range s.list {
		v.Label()
	}
	(<-s.ch).Label()
	s.hook()
	return it
}

type Items []Item

func (is Items) First() Item { return is[0] }

func (is Items) Labels() {
	for _, it := range is {
		it.Label()
	}
	is.First().Label()
}
-- shape/shape.go --
package shape

// Shape is implemented by Square, by Rect through a pointer receiver, and
// by Framed through its embedded Square.
type Shape interface {
	Area() int
	Name() string
}

type Square struct{ n int }

func (s Square) Area() int     { return s.n * s.n }
func (s Square) Name() string  { return "square" }

type Rect struct{ w, h int }

func (r *Rect) Area() int     { return r.w * r.h }
func (r *Rect) Name() string  { return "rect" }

type Framed struct{ Square }

type Circle struct{}

func (Circle) Area() int { return 3 } // no Name: not a Shape

func Total(shapes []Shape) int {
	t := 0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

func Describe(x any) string {
	switch v := x.(type) {
	case Square:
		return v.Name()
	case *Rect, Framed:
		return "two"
	}
	f := Framed{}
	f.Area()
	return ""
}

// Named embeds the interface: calls through it are dynamic.
type Named struct{ Shape }

func (n Named) Twice() int { return n.Area() * 2 }
-- main.go --
package main

import (
	"fmt"
	"os"
	"strings"

	st "example.com/m/store"
	"example.com/m/shape"
)

type app struct {
	db *st.Store
	sb strings.Builder
}

func (a *app) run() {
	a.db.Get("x").Label()
	a.sb.WriteString("x")
	db, err := st.Open("p")
	if err != nil {
		fmt.Println(err.Error())
	}
	db.Get("y")
	s := st.New()
	s.Get("z")
	var sq shape.Square
	sq.Area()
	r := &shape.Rect{}
	r.Area()
	f, _ := os.Open("x")
	f.Close()
	shape.Total(nil)
	shape.Square.Area(sq)
	cb := helper
	cb()
	_ = shape.Shape(sq)
	unknown().Label()
}

func helper() {}

func unknown() interface{ Label() string } { return nil }

func main() {
	a := &app{}
	a.run()
	st := 1
	_ = st
}
`

func TestGoReceiverTypes(t *testing.T) {
	g := buildArchive(t, goTypesArchive)
	expectCallees(t, g, "example.com/m/store.Store.Get",
		"example.com/m/store.Logger.Printf:receiver", // field
		"example.com/m/store.Item.Label:receiver",    // map value, range element, channel receive
	)
	expectUnresolved(t, g, "example.com/m/store.Store.Get", "hook", "function-typed field")
	expectCallees(t, g, "example.com/m/store.Items.Labels",
		"example.com/m/store.Item.Label:receiver", // range over a named slice type
		"example.com/m/store.Items.First:receiver",
	)
	expectCallees(t, g, "example.com/m.app.run",
		"example.com/m/store.Store.Get:receiver",  // field, x, err := f(), x := New()
		"example.com/m/store.Item.Label:receiver", // result of a method
		"example.com/m/store.Open:import",
		"example.com/m/store.New:import",
		"example.com/m/shape.Square.Area:receiver", // var x T; method expression T.M
		"example.com/m/shape.Rect.Area:receiver",   // &T{}
		"example.com/m/shape.Total:import",
		"example.com/m.unknown:local",
	)
	expectUnresolved(t, g, "example.com/m.app.run", "WriteString", "external: strings.Builder.WriteString")
	expectUnresolved(t, g, "example.com/m.app.run", "Error", "predeclared interface error: no implementation of Error")
	expectUnresolved(t, g, "example.com/m.app.run", "Close", "external: os.File.Close") // os.Open's result, read from GOROOT
	expectUnresolved(t, g, "example.com/m.app.run", "cb", "function value")
	expectUnresolved(t, g, "example.com/m.app.run", "Shape", "conversion")
	expectUnresolved(t, g, "example.com/m.app.run", "Label", "unnamed type")
	expectCallees(t, g, "example.com/m.main", "example.com/m.app.run:receiver")
}

func TestGoInheritedAndInterface(t *testing.T) {
	g := buildArchive(t, goTypesArchive)
	// Through the interface: the interface method and every implementation,
	// promoted ones included; Circle lacks Name and is no Shape.
	expectCallees(t, g, "example.com/m/shape.Total",
		"example.com/m/shape.Shape.Area:interface",
		"example.com/m/shape.Square.Area:interface",
		"example.com/m/shape.Rect.Area:interface",
	)
	// Type switch: the case's type; Framed's Area is promoted from Square.
	expectCallees(t, g, "example.com/m/shape.Describe",
		"example.com/m/shape.Square.Name:receiver",
		"example.com/m/shape.Square.Area:inherited",
	)
	// An interface embedded in a struct dispatches dynamically.
	expectCallees(t, g, "example.com/m/shape.Named.Twice",
		"example.com/m/shape.Shape.Area:interface",
		"example.com/m/shape.Square.Area:interface",
		"example.com/m/shape.Rect.Area:interface",
	)
}

func TestGoImportNames(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- tiktoken-go/enc.go --
package tiktoken

func Encode() {}
-- v2/lib/lib.go --
package lib

func Do() {}
-- main.go --
package main

import (
	"example.com/m/tiktoken-go"
	"example.com/m/v2/lib"
)

func main() {
	tiktoken.Encode()
	lib.Do()
	note := 1
	_ = note
}

func shadow(lib int) {
	lib.Do()
}
`)
	expectCallees(t, g, "example.com/m.main", "example.com/m/tiktoken-go.Encode:import", "example.com/m/v2/lib.Do:import")
	expectUnresolved(t, g, "example.com/m.shadow", "Do", "predeclared type int")
}

// TestGoImportsAcrossModuleLayouts resolves calls between packages where
// import paths are not the nearest go.mod's module path plus the
// directory: the standard library tree (its go.mod says "module std"),
// its vendored packages, and a fork that a replace directive of go.work
// names. Before, each was "external" or unknown.
func TestGoImportsAcrossModuleLayouts(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module std
-- strings/strings.go --
package strings

func Index(s, sep string) int { return indexByte(s, sep[0]) }

func indexByte(s string, c byte) int { return 0 }
-- bytes/bytes.go --
package bytes

import (
	"strings"
	"unicode"
)

func Fields(s string) int {
	if unicode.IsSpace(' ') {
		return strings.Index(s, " ")
	}
	return 0
}
-- unicode/graphic.go --
package unicode

func IsSpace(r rune) bool { return r == ' ' }
-- net/dns.go --
package net

import "golang.org/x/net/dns/dnsmessage"

func lookup() { dnsmessage.NewBuilder() }
-- vendor/golang.org/x/net/dns/dnsmessage/message.go --
package dnsmessage

func NewBuilder() {}
-- unsafe/unsafe.go --
package unsafe

func Sizeof(x ArbitraryType) uintptr
-- sync/pool.go --
package sync

import "unsafe"

func size() uintptr { return unsafe.Sizeof(0) }
`)
	expectCallees(t, g, "bytes.Fields", "strings.Index:import", "unicode.IsSpace:import")
	expectCallees(t, g, "strings.Index", "strings.indexByte:local")
	// The walk never enters vendor/: the vendored package is outside
	// the graph, and named as std names it.
	expectUnresolved(t, g, "net.lookup", "NewBuilder", "vendor/golang.org/x/net/dns/dnsmessage")
	// unsafe's functions are the compiler's, whatever unsafe.go declares.
	expectCallees(t, g, "sync.size")
	expectUnresolved(t, g, "sync.size", "Sizeof", "builtin: unsafe.Sizeof")

	g = buildArchive(t, `
-- go.work --
go 1.26

use ./app

replace example.com/lib => ./forks/lib
-- app/go.mod --
module example.com/app

require example.com/lib v1.2.0
-- app/main.go --
package main

import "example.com/lib/codec"

func main() { codec.Encode() }
-- forks/lib/go.mod --
module github.com/someone/lib
-- forks/lib/codec/codec.go --
package codec

func Encode() {}
`)
	expectCallees(t, g, "example.com/app.main", "example.com/lib/codec.Encode:import")
}
