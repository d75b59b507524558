package extract

import (
	"reflect"
	"testing"
)

// TestOverloads: the declarations of a function or method with one
// definition are its overloads; a declaration alone, or beside two
// definitions of its name, is not; another kind of the name (a
// namespace merged with the function) is no definition of it.
func TestOverloads(t *testing.T) {
	syms := []Symbol{
		{Qualified: "m.merge", Kind: KindFunction, Declaration: true},
		{Qualified: "m.merge", Kind: KindFunction, Declaration: true},
		{Qualified: "m.merge", Kind: KindNamespace},
		{Qualified: "m.merge", Kind: KindFunction},
		{Qualified: "m.ambient", Kind: KindFunction, Declaration: true},
		{Qualified: "m.twice", Kind: KindFunction, Declaration: true},
		{Qualified: "m.twice", Kind: KindFunction},
		{Qualified: "m.twice", Kind: KindFunction},
		{Qualified: "m.Pipe.run", Kind: KindMethod, Declaration: true},
		{Qualified: "m.Pipe.run", Kind: KindMethod},
	}
	want := map[string][]int{"m.merge": {0, 1}, "m.Pipe.run": {8}}
	if got := Overloads(syms); !reflect.DeepEqual(got, want) {
		t.Errorf("Overloads = %v, want %v", got, want)
	}
	if got := Overloads(syms[2:4]); got != nil {
		t.Errorf("no declarations: %v, want nil", got)
	}
}
