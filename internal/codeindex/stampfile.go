package codeindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// The code stamps file (stampsFile), in the index's directory, records
// the size and modification time of every source file the code scope was
// last brought up to date with, and its artifact's modification time (0
// for none). A file whose stamp is unchanged is not read again. It is
// written atomically after the index, and read at every CLI search, so it
// is laid out to be decoded without a string or a map per file:
//
//	magic    8 bytes  "fistamp" 0x01
//	count    uint32   little-endian: the records that follow
//	crc      uint32   little-endian: CRC-32C (Castagnoli) of the records
//	records  count of, sorted by path, each path strictly after the last:
//	         uvarint  length of the path
//	         bytes    the path: a slash path inside the workspace (fs.ValidPath, not ".")
//	         uvarint  size in bytes
//	         varint   modification time, Unix ns
//	         varint   the artifact's modification time, Unix ns (0: none)
//
// Nothing follows the last record. A file that does not verify is
// rebuilt (Sync reads every source file again, and says why in a line
// to log). On the Linux kernel's 62,490 source files it is about 2.5 MB,
// against 4.2 MB of JSON (legacyStampsFile, which is still read, once,
// when no stamps file is there: Sync then writes this one and removes
// it).
const stampsFile = StampsFile

// StampsFile is the name of the code stamps file in the index's
// directory (see CheckStamps).
const StampsFile = "code-stamps.bin"

// CheckStamps reports whether b is a stamps file that Sync takes, or
// what is wrong with it.
func CheckStamps(b []byte) error {
	_, err := decodeStampsFile(b)
	return err
}

// legacyStampsFile is the stamps file as JSON, written before
// stampsFile: {"path": [size, mtime_ns, artifact_mtime_ns], ...}.
const legacyStampsFile = "code-stamps.json"

// stampsMagic starts a stamps file; its last byte is the version.
const stampsMagic = "fistamp\x01"

// stampsHeader is the size of the header: magic, count, crc.
const stampsHeader = len(stampsMagic) + 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileStamp is the stamp of one source file.
type fileStamp struct {
	path  string
	stamp [3]int64 // size, mtime ns, artifact mtime ns
}

// stampsFrame is the stamps file's layout: no fixed fields; a record
// takes at least 5 bytes.
var stampsFrame = recordFile{magic: stampsMagic, kind: "code stamps: ", name: "stamps", minRec: 5}

// encodeStamps lays out stamps, sorted by path without repeats, as a
// stamps file.
func encodeStamps(stamps []fileStamp) []byte {
	n := 0
	for _, s := range stamps {
		n += len(s.path) + 4*binary.MaxVarintLen64
	}
	b := stampsFrame.start(len(stamps), n)
	for _, s := range stamps {
		b = binary.AppendUvarint(b, uint64(len(s.path)))
		b = append(b, s.path...)
		b = binary.AppendUvarint(b, uint64(s.stamp[0]))
		b = binary.AppendVarint(b, s.stamp[1])
		b = binary.AppendVarint(b, s.stamp[2])
	}
	return stampsFrame.seal(b)
}

// decodeStampsFile decodes a stamps file: its records, sorted by path.
// The paths are substrings of one copy of the records, not a string
// each. Anything but a file laid out as above is an error saying what is
// wrong.
func decodeStampsFile(b []byte) ([]fileStamp, error) {
	_, body, count, err := stampsFrame.open(b)
	if err != nil {
		return nil, err
	}
	text := string(body)
	out := make([]fileStamp, 0, count)
	off, last := 0, ""
	for i := range count {
		p, err := stampsFrame.path(body, text, &off, i, last)
		if err != nil {
			return nil, err
		}
		last = p
		size, n := binary.Uvarint(body[off:])
		if n <= 0 || size > 1<<62 {
			return nil, fmt.Errorf("code stamps of %s: bad size", p)
		}
		off += n
		var st [3]int64
		st[0] = int64(size)
		for j := 1; j < 3; j++ {
			v, n := binary.Varint(body[off:])
			if n <= 0 {
				return nil, fmt.Errorf("code stamps of %s: bad time", p)
			}
			off += n
			st[j] = v
		}
		out = append(out, fileStamp{p, st})
	}
	if err := stampsFrame.end(body, off); err != nil {
		return nil, err
	}
	return out, nil
}

// readStamps reads the stamps in dir through bounded.ReadFile (a
// symbolic link, a FIFO, a device or a file over stampsLimit is refused
// before it is read): the stamps file, or the legacy JSON one when there
// is none. An error wraps fs.ErrNotExist when there is neither.
func readStamps(dir string) ([]fileStamp, error) {
	b, err := bounded.ReadFile(filepath.Join(dir, stampsFile), stampsLimit)
	if err == nil {
		if !sameBuild(dir) {
			return nil, errOtherBuild
		}
		return decodeStampsFile(b)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	b, lerr := bounded.ReadFile(filepath.Join(dir, legacyStampsFile), stampsLimit)
	if lerr != nil {
		if errors.Is(lerr, fs.ErrNotExist) {
			return nil, err // neither: the new file's name
		}
		return nil, lerr
	}
	m, lerr := decodeStamps(b)
	if lerr != nil {
		return nil, lerr
	}
	return sortedStamps(m), nil
}

// sortedStamps returns the stamps of m sorted by path.
func sortedStamps(m map[string][3]int64) []fileStamp {
	out := make([]fileStamp, 0, len(m))
	for p, s := range m {
		out = append(out, fileStamp{p, s})
	}
	slices.SortFunc(out, func(a, b fileStamp) int { return strings.Compare(a.path, b.path) })
	return out
}

// buildFile, beside the stamps file, names the build of fileinfo that
// made the code documents the stamps vouch for (buildStamp, which Stamp
// puts in every code document's stamp). Stamps of another build vouch
// for nothing: serve would index every file again at its next start (on
// the Linux kernel, minutes and gigabytes after an upgrade), so `index`
// does it instead.
const buildFile = "code-build.txt"

// buildLimit caps buildFile: a version, a revision and a time.
var buildLimit = bounded.Limit{Kind: "code build file", Max: 4 << 10}

// errOtherBuild is readStamps' error for stamps made by another build.
var errOtherBuild = errors.New("code stamps: made by another build of fileinfo (or before builds were recorded)")

// SameBuild reports whether the code stamps saved in dir (a doc index's
// Dir) were written by this build of fileinfo. When not, nothing saved
// there vouches for a code document: they are of another build (after
// an upgrade, each has another stamp and is put again), or there are
// none, and the next sync reads every file.
func SameBuild(dir string) bool { return sameBuild(dir) }

// sameBuild reports whether the stamps in dir were written by this build.
func sameBuild(dir string) bool {
	b, err := bounded.ReadFile(filepath.Join(dir, buildFile), buildLimit)
	return err == nil && string(b) == buildStamp
}
