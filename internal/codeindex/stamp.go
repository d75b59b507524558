package codeindex

import (
	"fmt"
	"hash/fnv"
	"os"
	"runtime/debug"

	"github.com/fileinfo/fileinfo/artifacts"
)

// Stamp names what the code documents of rel are made from: the
// fileinfo build (which extracts it), its source's digest and its
// artifact's size and time in store (nil: none), hashed; never 0. The
// server and `fileinfo index` both stamp a file's documents with it
// (docsearch.CodeFile.Stamp), so that a server started after an index
// run takes the documents it made instead of making them again.
func Stamp(store *artifacts.Store, rel, digest string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00", buildStamp, digest)
	if store != nil {
		if p, err := store.Path(rel); err == nil {
			if st, err := os.Lstat(p); err == nil {
				fmt.Fprintf(h, "%d %d", st.Size(), st.ModTime().UnixNano())
			}
		}
	}
	return max(h.Sum64(), 1)
}

// buildStamp names the running binary for Stamp: its version and VCS
// revision, and the time it was modified when built from a modified
// tree.
var buildStamp = func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	s := bi.Main.Version
	for _, kv := range bi.Settings {
		if kv.Key == "vcs.revision" || kv.Key == "vcs.modified" {
			s += " " + kv.Value
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			s += " " + st.ModTime().UTC().String()
		}
	}
	return s
}()
