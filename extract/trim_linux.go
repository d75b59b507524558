//go:build linux && cgo

package extract

/*
#include <malloc.h>
*/
import "C"

// releaseCMemory hands the C heap's free pages back to the system.
// tree-sitter's trees and parse stacks live in glibc's malloc arenas,
// which keep what a big file's tree needed after the tree is freed;
// the process would carry it while the call graph grows on the Go heap.
func releaseCMemory() { C.malloc_trim(0) }
