package graphstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/dirstamp"
)

// symbols-dirs.bin, beside symbols.idx, lets a lookup trust the index
// without walking the tree (OpenSymbolsQuick). OpenSymbols, once its
// walk and its stat of every file found the index current, writes the
// stamp of every directory the walk entered, of each one's .gitignore
// (present or not) and of .git/info/exclude. A file added, removed or
// renamed changes its directory's modification time, and an ignore
// rule edited its file's; so while every stamp holds, the walk would
// find the files the index was made from. A file edited in place
// changes no directory: that is what Symbols.Changed is for. A
// directory changed within dirstamp.Slack of the walk cannot be vouched
// for by its time: when it holds what the walk read, each source file
// as the index has it and any other file older than the walk, its
// listing vouches for it (dirstamp.VouchListed) and the quick check lists it
// again (dirstamp.Relist), as the CLI search's stamps do
// (internal/codeindex).
//
// All integers little-endian.
//
//	magic    8 bytes "FISDIRS" 0x01 (the last byte the version)
//	since    int64   Unix ns when the check's walk began
//	index    uint64  size of the symbols.idx the check found current,
//	         uint32  its sums CRC and
//	         uint32  its header CRC (which cover all of it)
//	count    uint32  the records that follow
//	crc      uint32  CRC-32C of the records
//	records  count of, sorted by path, each strictly after the last:
//	         uvarint length, then the slash path ("" the root)
//	         varint  size; -1 none there (dirstamp.Absent), -2 changed as the
//	                 walk ran (dirstamp.Unsure), -3 so did this directory,
//	                 vouched for by its listing (dirstamp.Listed)
//	         varint  modification time, Unix ns; of a Listed record, the
//	                 hash of the directory's listing (dirstamp.Hash)
//
// Nothing follows the last record.
const SymbolsDirsFile = "symbols-dirs.bin"

const (
	symDirsMagic  = "FISDIRS\x01"
	symDirsHeader = 8 + 8 + 16 + 4 + 4
)

var symDirsLimit = bounded.Limit{Kind: "directory stamps", Max: 256 << 20}

// dirRec is the stamp of one directory or ignore file (see
// internal/dirstamp).
type dirRec = dirstamp.Stamp

// identity is what names one symbols.idx: its size and the two CRCs of
// its header, which between them cover every byte.
func (s *Symbols) identity() [16]byte {
	var id [16]byte
	binary.LittleEndian.PutUint64(id[:], uint64(len(s.data)))
	copy(id[8:], s.data[symHeaderSize-8:symHeaderSize])
	return id
}

// encodeDirs lays out the file above; recs sorted by path, no repeats.
func encodeDirs(since int64, id [16]byte, recs []dirRec) []byte {
	le := binary.LittleEndian
	b := make([]byte, symDirsHeader, symDirsHeader+32*len(recs))
	copy(b, symDirsMagic)
	le.PutUint64(b[8:], uint64(since))
	copy(b[16:], id[:])
	le.PutUint32(b[32:], uint32(len(recs)))
	for _, r := range recs {
		b = binary.AppendUvarint(b, uint64(len(r.Path)))
		b = append(b, r.Path...)
		b = binary.AppendVarint(b, r.Size)
		b = binary.AppendVarint(b, r.MTime)
	}
	le.PutUint32(b[36:], crc32.Checksum(b[symDirsHeader:], castagnoli))
	return b
}

// decodeDirs decodes the file above; anything else is an error saying
// what is wrong.
func decodeDirs(b []byte) (since int64, id [16]byte, recs []dirRec, err error) {
	le := binary.LittleEndian
	if len(b) < symDirsHeader || string(b[:8]) != symDirsMagic {
		return 0, id, nil, errors.New("not a directory stamps file")
	}
	since = int64(le.Uint64(b[8:]))
	copy(id[:], b[16:32])
	count := int(le.Uint32(b[32:]))
	body := b[symDirsHeader:]
	if crc32.Checksum(body, castagnoli) != le.Uint32(b[36:]) {
		return 0, id, nil, errors.New("directory stamps checksum")
	}
	if count > len(body)/3 { // a record takes at least 3 bytes
		return 0, id, nil, fmt.Errorf("directory stamps: %d records in %d bytes", count, len(body))
	}
	recs = make([]dirRec, 0, count)
	for i := range count {
		n, k := binary.Uvarint(body)
		if k <= 0 || n > uint64(len(body)-k) {
			return 0, id, nil, fmt.Errorf("directory stamps: record %d: bad path", i)
		}
		p := string(body[k : k+int(n)])
		body = body[k+int(n):]
		if i > 0 && p <= recs[i-1].Path {
			return 0, id, nil, fmt.Errorf("directory stamps: %q out of order", p)
		}
		var v [2]int64
		for j := range v {
			x, k := binary.Varint(body)
			if k <= 0 {
				return 0, id, nil, fmt.Errorf("directory stamps of %q: bad number", p)
			}
			v[j], body = x, body[k:]
		}
		if v[0] < dirstamp.Listed {
			return 0, id, nil, fmt.Errorf("directory stamps of %q: size %d", p, v[0])
		}
		recs = append(recs, dirRec{Path: p, Size: v[0], MTime: v[1]})
	}
	if len(body) != 0 {
		return 0, id, nil, fmt.Errorf("directory stamps: %d bytes after the last record", len(body))
	}
	return since, id, recs, nil
}

// writeDirs saves, in dir, the stamps of dirs (slash paths under root
// that a walk begun at since entered, "" the root), of their .gitignore
// files and of .git/info/exclude, as they are now, naming s as the
// index they vouch for. walked holds the entries the walk read of the
// directories it found unsure by their time: each is vouched for by
// its listing when it still holds them (dirstamp.VouchListed), its source
// files as s has them.
func writeDirs(dir, root string, s *Symbols, dirs []string, walked map[string][]fs.DirEntry, since time.Time) error {
	ns := since.UnixNano()
	recs := make([]dirRec, 0, 2*len(dirs)+1)
	stat := func(p string) (size, mtime int64, ok bool) {
		st, ok := s.stampOf(p)
		return st.size, st.mtime, ok
	}
	err := Guard(func() {
		for _, d := range dirs {
			r := dirstamp.Of(root, d, ns)
			if es, ok := walked[d]; ok {
				r = dirstamp.VouchListed(root, d, es, stat, ns, r)
			}
			recs = append(recs, r, dirstamp.Of(root, path.Join(d, ".gitignore"), ns))
		}
	})
	if err != nil {
		return err
	}
	recs = append(recs, dirstamp.Of(root, ".git/info/exclude", ns))
	recs = dirstamp.Sort(recs)
	return writeStreamed(filepath.Join(dir, SymbolsDirsFile), ".symbols-dirs-*.tmp", func(f *os.File) error {
		_, err := f.Write(encodeDirs(ns, s.identity(), recs))
		return err
	})
}

// Quick is what OpenSymbolsQuick checked.
type Quick struct {
	Since time.Time // when the walk of the full check that stamped the directories began
	Dirs  int       // directories and ignore files lstat'd
	// Relisted counts the directories of them listed again: changed
	// within dirstamp.Slack of that walk, vouched for by their listing.
	Relisted int
	Root     string // the root, absolute and without symlinks: for Changed
}

// OpenSymbolsQuick opens the symbols index of opt.Root without walking
// the tree, when the directory stamps the last full check (OpenSymbols)
// saved beside it still hold: saved for this very index, and every
// directory and ignore file as it was, so the tree holds the files the
// index was made from. Its cost is an lstat per directory and per
// .gitignore (10,191 on the Linux kernel, against the walk and the stat
// of 62 k files: 0.30 CPU-s for a callers lookup against 0.84-0.90,
// docs/bigrepos.md). It does
// not see a file edited in place: check the files an answer rests on
// with Changed. Any change, or stamps it cannot read, is an error
// wrapping ErrStale (or the index's own error): OpenSymbols then makes
// the full check.
func OpenSymbolsQuick(ctx context.Context, opt Options) (*Symbols, Quick, error) {
	dir, root, err := symbolsPaths(opt)
	if err != nil {
		return nil, Quick{}, err
	}
	if err := noLinks(opt.Root, dir); err != nil {
		return nil, Quick{}, err
	}
	file := filepath.Join(dir, SymbolsDirsFile)
	b, err := bounded.ReadFile(file, symDirsLimit)
	if err != nil {
		return nil, Quick{}, fmt.Errorf("%w: %v", ErrStale, err)
	}
	since, id, recs, err := decodeDirs(b)
	if err != nil {
		return nil, Quick{}, fmt.Errorf("%s: %w: %v", file, ErrStale, err)
	}
	s, err := ReadSymbols(filepath.Join(dir, SymbolsFile))
	if err != nil {
		return nil, Quick{}, err
	}
	stale := func(why string) (*Symbols, Quick, error) {
		s.Close()
		return nil, Quick{}, fmt.Errorf("%s: %w: %s", file, ErrStale, why)
	}
	if s.key != stateKey(opt) {
		return stale("saved by another build or with other options")
	}
	if s.identity() != id {
		return stale("written for another symbols index")
	}
	byTime, relisted := recs[:0:0], 0
	for _, r := range recs {
		switch r.Size {
		case dirstamp.Unsure:
			return stale(r.Path + " changed as the full check ran")
		case dirstamp.Listed:
			if _, ok := dirstamp.Relist(root, r); !ok {
				return stale(r.Path + " changed since the full check listed it")
			}
			relisted++
		default:
			byTime = append(byTime, r)
		}
	}
	if k := dirstamp.FirstChanged(root, byTime, 8); k < len(byTime) { // lstats wait on the kernel more than on a core
		p := byTime[k].Path
		if p == "" {
			p = "."
		}
		return stale(p + " changed")
	}
	if err := ctx.Err(); err != nil {
		s.Close()
		return nil, Quick{}, err
	}
	return s, Quick{Since: time.Unix(0, since), Dirs: len(recs), Relisted: relisted, Root: root}, nil
}

// Changed returns the first of paths (slash paths of source files or
// go.mod files under root) whose file is not as the index saved it:
// another size or modification time, gone, a time too close to the save
// to trust, or no stamp in the index at all. "" when every one is as
// saved. It stats each path: an answer's files, not the tree.
func (s *Symbols) Changed(root string, paths []string) (string, error) {
	var out string
	err := Guard(func() {
		for _, p := range paths {
			w, ok := s.stampOf(p)
			info, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
			if !ok || err != nil || w.mtime == 0 || info.Size() != w.size || info.ModTime().UnixNano() != w.mtime {
				out = p
				return
			}
		}
	})
	return out, err
}

// stampOf finds the saved stamp of p: the go.mod and the source stamps
// are each in walk order, which is sorted.
func (s *Symbols) stampOf(p string) (stamp, bool) {
	for _, r := range [][2]int{{0, s.config}, {s.config, s.config + s.files}} {
		lo, n := r[0], r[1]-r[0]
		i := lo + searchN(n, func(i int) bool { return s.stampPath(lo+i) >= p })
		if i < r[1] {
			if st := s.stamp(i); st.path == p {
				return st, true
			}
		}
	}
	return stamp{}, false
}

func (s *Symbols) stampPath(k int) string {
	return s.str(s.touch(secStamps, uint64(k)*symStampBytes, 8))
}
