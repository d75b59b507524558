//go:build !unix

package graphstore

import "os"

// mapFile reads f; see the Unix version, which maps it instead.
func mapFile(f *os.File, size int64) (data []byte, release func(), mapped bool, err error) {
	data, release, err = readAll(f, size)
	return data, release, false, err
}

// dropPages does nothing: nothing is mapped.
func dropPages([]byte) error { return nil }
