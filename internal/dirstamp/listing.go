package dirstamp

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Listed is the size of a directory's stamp that, changed within Slack
// of a walk (Unsure by its time), was vouched for by its listing
// instead: its MTime holds the Hash of the entries List gave as it was
// stamped. A later check lists the directory again and compares hashes
// (Holds), which a file added, removed, renamed or replaced (a new
// inode), or a file of the directory written, changes, whatever the
// clock.
const Listed = -3

// Entry is one entry of a directory as List reads it: its name, its
// type (fs.FileMode's type bits), its inode (0 where the system has
// none), and, for a regular file, its size and modification time (Unix
// ns).
type Entry struct {
	Name        string
	Type        fs.FileMode
	Ino         uint64
	Size, MTime int64
}

// List lstats every entry of the directory at slash path p under root
// and returns them sorted by name.
func List(root, p string) ([]Entry, error) {
	dir := filepath.Join(root, filepath.FromSlash(p))
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		info, err := os.Lstat(filepath.Join(dir, de.Name()))
		if err != nil {
			return nil, err // gone since ReadDir: the listing is changing
		}
		e := Entry{Name: de.Name(), Type: info.Mode().Type(), Ino: Inode(info)}
		if info.Mode().IsRegular() {
			e.Size, e.MTime = info.Size(), info.ModTime().UnixNano()
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Hash returns the hash (64-bit FNV-1a) of a listing in List's order:
// every entry's name, type, inode, size and modification time.
func Hash(entries []Entry) int64 {
	h := fnv.New64a()
	var b []byte
	for _, e := range entries {
		b = binary.AppendUvarint(b[:0], uint64(len(e.Name)))
		b = append(b, e.Name...)
		b = binary.AppendUvarint(b, uint64(e.Type))
		b = binary.AppendUvarint(b, e.Ino)
		b = binary.AppendVarint(b, e.Size)
		b = binary.AppendVarint(b, e.MTime)
		h.Write(b)
	}
	return int64(h.Sum64())
}

// Relist lists the directory of a Listed stamp s again under root: it
// returns the entries and true when their hash is the stamp's, the
// directory holding what it held when stamped.
func Relist(root string, s Stamp) ([]Entry, bool) {
	if s.Size != Listed {
		return nil, false
	}
	es, err := List(root, s.Path)
	if err != nil || Hash(es) != s.MTime {
		return nil, false
	}
	return es, true
}

// VouchListed returns the Listed stamp of directory d (a slash path under
// root), whose stamp s by time is Unsure, when its entries now are
// walked, those a walk that began at since (Unix ns) read: the same
// names and types, and each regular file as the walk's caller saw it
// (stat: size and modification time, ok false for a file it did not
// look at) or, one it did not look at, older than the walk (walked in
// any order). The directory then holds what the walk found, and a later
// check lists it again (Relist) instead of trusting its time. Else it
// returns s.
func VouchListed(root, d string, walked []fs.DirEntry, stat func(p string) (size, mtime int64, ok bool), since int64, s Stamp) Stamp {
	if s.Size != Unsure {
		return s
	}
	now, err := List(root, d)
	if err != nil || len(now) != len(walked) {
		return s
	}
	walked = slices.SortedFunc(slices.Values(walked), func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for i, e := range now {
		if e.Name != walked[i].Name() || e.Type != walked[i].Type() {
			return s
		}
		if e.Type != 0 {
			continue // not a regular file: a directory has its own stamp
		}
		if size, mtime, ok := stat(path.Join(d, e.Name)); ok {
			if size != e.Size || mtime != e.MTime {
				return s
			}
		} else if e.MTime >= since-int64(Slack) {
			return s
		}
	}
	return Stamp{Path: d, Size: Listed, MTime: Hash(now)}
}
