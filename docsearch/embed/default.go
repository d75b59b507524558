package embed

import (
	_ "embed"
	"sync"
)

// defaultTable is the table Default serves; see doc.go for where it comes
// from and how to regenerate it.
//
//go:embed model.fiemb
var defaultTable []byte

// Default returns the model of the table embedded in the binary, with the
// default Options. It decodes the table on first use (about 10 ms)
// and returns the same Model after. It panics if the embedded table does
// not decode, which the package's tests rule out.
func Default() *Model { return defaultModel() }

var defaultModel = sync.OnceValue(func() *Model {
	m, err := Load(defaultTable, Options{})
	if err != nil {
		panic("embed: the embedded table: " + err.Error())
	}
	return m
})
