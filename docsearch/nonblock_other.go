//go:build !unix

package docsearch

// oNonblock is 0 where named pipes cannot sit in a directory tree.
const oNonblock = 0
