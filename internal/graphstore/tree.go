package graphstore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"

	"github.com/fileinfo/fileinfo/extract"
)

// sourceTree is the tree of source files Sync compares with the saved
// state: root, its handle, and the largest file extraction reads.
type sourceTree struct {
	root string
	dir  *os.Root
	max  int64
}

// check stats root/p and compares it with its saved entry: same is true
// when the size and modification time match, or else the content hash.
// The entry returned carries the new stat (and hash, when it was read).
func (t sourceTree) check(p string, old *Entry) (e Entry, same bool) {
	e = Entry{Path: p}
	st, err := t.stat(p)
	if err != nil {
		return e, false
	}
	e.Size, e.ModTime = st.Size(), st.ModTime().UnixNano()
	if old == nil || old.Size != e.Size {
		return e, false
	}
	e.Hash = old.Hash
	if old.ModTime == e.ModTime {
		return e, true
	}
	if old.Hash == "" {
		return e, false
	}
	e.Hash = t.hash(p)
	return e, e.Hash != "" && e.Hash == old.Hash
}

// stat stats root/p, as check compares it.
func (t sourceTree) stat(p string) (os.FileInfo, error) {
	return os.Stat(filepath.Join(t.root, filepath.FromSlash(p)))
}

// asRead reports whether the file of e, modified within racyWindow of
// the pass's start, may keep its time all the same: the window has
// passed since that time, and the file still has e's size and time and
// holds what was extracted (e.Hash), stat'd again after it was read. A
// write from then on stamps a later time, even on a file system that
// stamps at a 2 s granularity, so the next check sees it. Without this,
// a file edited just before a Sync was hashed at every later check, and
// its directory could not be vouched for: the first CLI lookup after
// `fileinfo index` on the Linux kernel made the full check (23 s,
// 2.9 GB) whenever a file had been saved within 2 s of the index.
func (t sourceTree) asRead(e *Entry) bool {
	if e.Hash == "" || now().UnixNano() <= e.ModTime+int64(racyWindow) {
		return false
	}
	same := func() bool {
		st, err := t.stat(e.Path)
		return err == nil && st.Size() == e.Size && st.ModTime().UnixNano() == e.ModTime
	}
	return same() && t.hash(e.Path) == e.Hash && same()
}

// now is time.Now; a variable for the tests.
var now = time.Now

// hash returns the SHA-256 of the content of the file at p, read as
// extraction reads it (extract.ReadRegular: through the root handle, a
// regular file of at most t.max bytes), or "" when it cannot be read:
// the file is then extracted again, and extraction says why it cannot.
func (t sourceTree) hash(p string) string {
	data, err := extract.ReadRegular(t.dir, p, t.max)
	if err != nil {
		return ""
	}
	return digest(data)
}

// digest is the lower-case hex SHA-256 of src, as artifacts.SourceDigest.
func digest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}
