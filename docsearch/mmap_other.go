//go:build !unix

package docsearch

import "os"

// mapFile reads f; see the Unix version, which maps it instead.
func mapFile(f *os.File) (data []byte, release func(), mapped bool, err error) {
	data, release, err = readAll(f)
	return data, release, false, err
}
