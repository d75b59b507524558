//go:build linux

package docsearch

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugeScratchBytes is the size of scratch from which its arrays are
// mapped apart, in pages the kernel may make huge (MADV_HUGEPAGE),
// instead of taken from the Go heap in 4 KB pages: a CLI search of the
// Linux kernel (1.16 M chunks, 20 MB of scratch) took ~5,000 page faults
// to touch them, more than half of all its faults (perf), each a
// zeroed page; with huge pages it took 6,100 faults in all against
// 14,000, and 0.16-0.18 CPU-s against 0.32-0.38 (load 7). A variable for
// tests.
var hugeScratchBytes = 4 << 20

// accSize is the size of a chunkAcc.
const accSize = int(unsafe.Sizeof(chunkAcc{}))

// scratchRegion holds the mapping a scratch's arrays lie in; the
// scratch's cleanup unmaps it.
type scratchRegion struct{ b []byte }

// alloc sizes sc's arrays for n chunks, zeroed: from a mapping of
// their own when they take hugeScratchBytes or more, else from the heap.
func (sc *scratch) alloc(n int) {
	size := n * (accSize + 1)
	if size < hugeScratchBytes {
		sc.allocHeap(n)
		return
	}
	const huge = 2 << 20
	size = (size + huge - 1) &^ (huge - 1)
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		sc.allocHeap(n)
		return
	}
	syscall.Madvise(b, 14) // MADV_HUGEPAGE; a kernel without it maps 4 KB pages, as the heap would
	if sc.region == nil {
		sc.region = &scratchRegion{}
		runtime.AddCleanup(sc, func(r *scratchRegion) {
			if r.b != nil {
				syscall.Munmap(r.b)
			}
		}, sc.region)
	} else if sc.region.b != nil {
		syscall.Munmap(sc.region.b) // the arrays cut from it are replaced below
	}
	sc.region.b = b
	sc.acc = unsafe.Slice((*chunkAcc)(unsafe.Pointer(&b[0])), n)
	sc.kept = b[n*accSize : n*accSize+n : n*accSize+n]
}
