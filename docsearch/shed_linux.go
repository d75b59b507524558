//go:build linux

package docsearch

import "golang.org/x/sys/unix"

// shedPages asks the kernel to reclaim b's resident pages. b is the
// index file mapped copy-on-write (mapFile), so MADV_DONTNEED, which
// would throw away a page written through the mapping, is not safe;
// MADV_PAGEOUT reclaims only what can be read back as it was: a clean
// page of the file, and only one that no other process maps. A page
// written to stays. Best effort: a kernel without it (before 5.4) keeps
// the pages until the mapping is released.
func shedPages(b []byte) { unix.Madvise(b, unix.MADV_PAGEOUT) }
