//go:build !unix

package graphstore

import "os"

// mapFile reads f; see the Unix version, which maps it instead.
func mapFile(f *os.File, size int64) (data []byte, release func(), err error) {
	return readAll(f, size)
}
