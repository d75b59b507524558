package codeindex

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// The digests file (digestsFile), in the index's directory, keeps the
// SHA-256 of every file Select compared as a possible copy, with the size
// and modification time it was read at. It is written atomically when it
// changes, and read at every CLI search, so, like the stamps file, it is
// laid out to be decoded without a string per file:
//
//	magic    8 bytes  "fidigst" 0x01
//	count    uint32   little-endian: the records that follow
//	crc      uint32   little-endian: CRC-32C (Castagnoli) of the records
//	records  count of, sorted by path, each path strictly after the last:
//	         uvarint  length of the path
//	         bytes    the path: a slash path inside the workspace (fs.ValidPath, not ".")
//	         uvarint  size in bytes
//	         varint   modification time, Unix ns
//	         64 bytes the SHA-256, in lower-case hex
//
// A file that does not verify is none: every possible copy is read and
// compared again, and a line to log says why. The JSON written before it
// (legacyDigestsFile) is read, once, when there is none.
const digestsFile = "code-digests.bin"

// legacyDigestsFile is the digests file as JSON: {"path": {"size": N,
// "mtime": NS, "sha256": "HEX"}, ...}.
const legacyDigestsFile = "code-digests.json"

const digestsMagic = "fidigst\x01"

// digestsLimit caps the digests file: about 100 bytes a file compared.
var digestsLimit = bounded.Limit{Kind: "code digests file", Max: 256 << 20}

type digestStamp struct {
	Size   int64  `json:"size"`
	Mtime  int64  `json:"mtime"`
	SHA256 string `json:"sha256"`
}

// digestsFrame is the digests file's layout: no fixed fields; a record
// takes at least 68 bytes.
var digestsFrame = recordFile{magic: digestsMagic, name: "digests", minRec: 68}

// encodeDigests lays out m as a digests file. Every digest is a SHA-256
// in lower-case hex.
func encodeDigests(m map[string]digestStamp) []byte {
	paths := make([]string, 0, len(m))
	n := 0
	for p := range m {
		paths = append(paths, p)
		n += len(p) + 3*binary.MaxVarintLen64 + 64
	}
	slices.Sort(paths)
	b := digestsFrame.start(len(paths), n)
	for _, p := range paths {
		d := m[p]
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendUvarint(b, uint64(d.Size))
		b = binary.AppendVarint(b, d.Mtime)
		b = append(b, d.SHA256...)
	}
	return digestsFrame.seal(b)
}

// decodeDigests decodes a digests file. Paths and digests are
// substrings of one copy of the records. Anything but a file laid out as
// above is an error saying what is wrong.
func decodeDigests(b []byte) (map[string]digestStamp, error) {
	_, body, count, err := digestsFrame.open(b)
	if err != nil {
		return nil, err
	}
	text := string(body)
	m := make(map[string]digestStamp, count)
	off, last := 0, ""
	for i := range count {
		p, err := digestsFrame.path(body, text, &off, i, last)
		if err != nil {
			return nil, err
		}
		last = p
		size, n := binary.Uvarint(body[off:])
		if n <= 0 || size > 1<<62 {
			return nil, fmt.Errorf("digest of %s: bad size", p)
		}
		off += n
		mtime, n := binary.Varint(body[off:])
		if n <= 0 {
			return nil, fmt.Errorf("digest of %s: bad time", p)
		}
		off += n
		if len(body)-off < 64 || !isHex(body[off:off+64]) {
			return nil, fmt.Errorf("digest of %s: not a SHA-256 in hex", p)
		}
		m[p] = digestStamp{int64(size), mtime, text[off : off+64]}
		off += 64
	}
	if err := digestsFrame.end(body, off); err != nil {
		return nil, err
	}
	return m, nil
}

func isHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// readDigests reads the digests in dir: the digests file, or the legacy
// JSON one when there is none. One that is missing or cannot be read or
// decoded is none (a line to log says why for the last two): its files
// are read again. legacy says they came from the legacy file.
func readDigests(dir string, log *slog.Logger) (m map[string]digestStamp, legacy bool) {
	file := filepath.Join(dir, digestsFile)
	b, err := bounded.ReadFile(file, digestsLimit)
	if err == nil {
		if m, err = decodeDigests(b); err == nil {
			return m, false
		}
		err = fmt.Errorf("decode: %w", err)
	} else if errors.Is(err, fs.ErrNotExist) {
		file = filepath.Join(dir, legacyDigestsFile)
		if b, err = bounded.ReadFile(file, digestsLimit); err == nil {
			if err = json.Unmarshal(b, &m); err == nil && validDigests(m) {
				return m, true
			}
			err = fmt.Errorf("decode: %v", err)
		}
	}
	if !errors.Is(err, fs.ErrNotExist) && log != nil {
		log.Warn("code index: comparing every possible copy again", "file", file, "reason", err.Error())
	}
	return nil, false
}

// validDigests reports whether the legacy digests can be written as a
// digests file.
func validDigests(m map[string]digestStamp) bool {
	for p, d := range m {
		if !fs.ValidPath(p) || p == "." || d.Size < 0 || len(d.SHA256) != 64 || !isHex([]byte(d.SHA256)) {
			return false
		}
	}
	return true
}

// writeDigests writes the digests file atomically, and removes the
// legacy one.
func writeDigests(dir string, m map[string]digestStamp) error {
	if err := writeFile(dir, digestsFile, "code digests", encodeDigests(m)); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, legacyDigestsFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("code digests %s: %w", dir, err)
	}
	return nil
}

func equalDigests(a, b map[string]digestStamp) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
