package codeindex

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io/fs"
)

// recordFile is the layout the code stamps, digests and directory
// stamps files share:
//
//	magic    8 bytes, its last byte the version
//	fixed    extra bytes of fields of the file's own (the directory stamps' since)
//	count    uint32   little-endian: the records that follow
//	crc      uint32   little-endian: CRC-32C (Castagnoli) of the records
//	records  count of, sorted by path, each path strictly after the last,
//	         each starting with its path: uvarint length, then the bytes
//
// and the checks every reader makes of it, with the same words.
type recordFile struct {
	magic  string
	extra  int    // bytes of fixed fields after the magic
	kind   string // starts every error ("code stamps: "); may be ""
	name   string // what the file is, in "not a NAME file of this version"
	minRec int    // the fewest bytes a record takes
	root   bool   // "." is a path (the root directory)
}

func (f recordFile) header() int { return len(f.magic) + f.extra + 8 }

// start returns a file's header for count records, with room for
// capacity bytes of records; the fixed fields are the caller's to fill.
func (f recordFile) start(count, capacity int) []byte {
	b := make([]byte, f.header(), f.header()+capacity)
	copy(b, f.magic)
	binary.LittleEndian.PutUint32(b[len(f.magic)+f.extra:], uint32(count))
	return b
}

// seal writes the checksum of the records appended to b since start.
func (f recordFile) seal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(f.magic)+f.extra+4:], crc32.Checksum(b[f.header():], castagnoli))
	return b
}

// open checks b's magic and checksum, and that count records can fit in
// it, and returns its fixed fields, its records and their count.
func (f recordFile) open(b []byte) (fixed, body []byte, count uint32, err error) {
	if len(b) < f.header() || string(b[:len(f.magic)]) != f.magic {
		return nil, nil, 0, fmt.Errorf("%snot a %s file of this version", f.kind, f.name)
	}
	at := len(f.magic) + f.extra
	count = binary.LittleEndian.Uint32(b[at:])
	sum := binary.LittleEndian.Uint32(b[at+4:])
	body = b[f.header():]
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return nil, nil, 0, fmt.Errorf("%schecksum %08x, want %08x: damaged", f.kind, got, sum)
	}
	// A count beyond what the bytes can hold is a lie, refused before
	// anything is allocated for it.
	if uint64(count)*uint64(f.minRec) > uint64(len(body)) {
		return nil, nil, 0, fmt.Errorf("%s%d records in %d bytes", f.kind, count, len(body))
	}
	return b[len(f.magic):at], body, count, nil
}

// path reads the path of record i at *off in body (text is body as a
// string, which the path is a substring of), after last, and moves *off
// past it.
func (f recordFile) path(body []byte, text string, off *int, i uint32, last string) (string, error) {
	l, n := binary.Uvarint(body[*off:])
	if n <= 0 || l > uint64(len(body)-*off-n) {
		return "", fmt.Errorf("%srecord %d: bad path length", f.kind, i)
	}
	*off += n
	p := text[*off : *off+int(l)]
	*off += int(l)
	switch {
	case !fs.ValidPath(p) || p == "." && !f.root:
		return "", fmt.Errorf("%s%q is not a path inside the workspace", f.kind, p)
	case i > 0 && p <= last:
		return "", fmt.Errorf("%s%q after %q: not sorted", f.kind, p, last)
	}
	return p, nil
}

// end checks that nothing follows the last record, at off.
func (f recordFile) end(body []byte, off int) error {
	if off != len(body) {
		return fmt.Errorf("%s%d bytes after the last record", f.kind, len(body)-off)
	}
	return nil
}
