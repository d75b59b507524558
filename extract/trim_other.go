//go:build !linux || !cgo

package extract

// releaseCMemory does nothing where the C heap is not glibc's.
func releaseCMemory() {}
