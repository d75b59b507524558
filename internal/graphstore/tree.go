package graphstore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

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
	st, err := os.Stat(filepath.Join(t.root, filepath.FromSlash(p)))
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
