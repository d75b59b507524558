package docsearch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// The seal. A load checks the checksums of every segment of the index
// file once: then it writes sealFile beside it, naming the file by its
// size, modification time and the CRC of its checksums. A load of the
// sealed file checks the header, every count and range of the meta
// part, and the checksums of the meta part it decodes, but not those of
// the arrays (postings, sketches, vectors, texts: most of the file), nor
// each posting's chunk and order, whose pages a search then reads only
// as it uses them; the readers of postings bound their chunks, so that
// damage the seal hides is wrong results until Verify, never a fault. A file rewritten by any process gets
// another time stamp or other checksums, so it is checked whole again;
// Verify (fileinfo index --verify) checks everything whatever the seal.
const sealFile = "docsearch.sealed"

// sealOf names the index file of info whose content is data; "" when
// it has no checksums to name it by.
func sealOf(info fs.FileInfo, data []byte) string {
	if len(data) < 4 {
		return ""
	}
	n := uint64(binary.LittleEndian.Uint32(data[len(data)-4:]))
	if n*4 > uint64(len(data)-4) {
		return ""
	}
	sums := data[len(data)-4-4*int(n):]
	return fmt.Sprintf("%s %d %d %08x\n", storeMagic, info.Size(), info.ModTime().UnixNano(), crc32.Checksum(sums, castagnoli))
}

// readSeal returns the seal in d, "" if none can be read.
func readSeal(d *os.Root) string {
	f, _, err := openRegular(d, sealFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, 128)
	n, _ := io.ReadFull(f, b)
	return string(b[:n])
}

// writeSeal seals the index file; best effort (unsealed, the next load
// checks everything).
func writeSeal(d *os.Root, seal string) { replaceFile(d, sealFile, []byte(seal), false) }

func removeSeal(d *os.Root) { d.Remove(sealFile) }

// Verify checks the index saved in dir whole: its structure and the
// checksum of every segment, whatever its seal, and seals it when it
// passes. A missing index is fs.ErrNotExist; a bad one an error wrapping
// errCorrupt ("corrupt index"), whose seal is removed, so that the next
// Open rebuilds it.
func Verify(dir string) error {
	d, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	f, info, err := openRegular(d, storeFile)
	if err != nil {
		return err
	}
	defer f.Close()
	if info.Size() > maxIndexBytes {
		return fmt.Errorf("%s: %w: %d bytes, over the %d an index may have", filepath.Join(dir, storeFile), errCorrupt, info.Size(), maxIndexBytes)
	}
	data, release, _, err := mapFile(f)
	if err != nil {
		return err
	}
	defer release()
	if _, err := decodeFrom(data, f, true); err != nil {
		removeSeal(d)
		return fmt.Errorf("%s: %w", filepath.Join(dir, storeFile), err)
	}
	if seal := sealOf(info, data); seal != "" {
		writeSeal(d, seal)
	}
	return verifyDelta(d, dir, data)
}

// verifyDelta checks the delta beside the index file data, if there is
// one: its sum, and that it is the delta of data (a stale one is
// removed). Its documents and postings are checked at every load.
func verifyDelta(d *os.Root, dir string, data []byte) error {
	b, ok, err := readDeltaFile(d)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, deltaFile), err)
	}
	if !ok {
		return nil
	}
	switch _, err := checkDelta(b, data); {
	case errors.Is(err, errStaleDelta):
		d.Remove(deltaFile)
	case err != nil:
		return fmt.Errorf("%s: %w", filepath.Join(dir, deltaFile), err)
	}
	return nil
}

// checkSegments reports whether each sumSegment bytes of the first size
// bytes src reads, from segment from on, have the CRC in sums
// (little-endian uint32s). It reads segments in parallel, a piece at a
// time.
func checkSegments(src io.ReaderAt, from, size int, sums []byte) bool {
	n := len(sums) / 4
	var bad atomic.Bool
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), n-from)
	for w := range workers {
		wg.Go(func() {
			buf := make([]byte, piece)
			for i := from + w; i < n && !bad.Load(); i += workers {
				var crc uint32
				end := min((i+1)*sumSegment, size)
				for off := i * sumSegment; off < end; off += piece {
					b := buf[:min(piece, end-off)]
					if _, err := src.ReadAt(b, int64(off)); err != nil {
						bad.Store(true)
						break
					}
					crc = crc32.Update(crc, castagnoli, b)
					checkedBytes.Add(int64(len(b)))
				}
				if crc != binary.LittleEndian.Uint32(sums[4*i:]) {
					bad.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !bad.Load()
}

// checkedBytes counts the bytes checkSegments has summed, for tests.
var checkedBytes atomic.Int64

// piece is the most bytes one read or checksum call covers at load, so
// that the garbage collector, which cannot preempt the assembly of a
// checksum, never waits long for it.
const piece = 256 << 10

// checkMeta reports whether the segments holding the meta part, which
// has been read into meta, have the CRCs in sums: they are summed from
// meta, and the last from the bytes of body past it.
func checkMeta(meta, body, sums []byte) bool {
	for i := range len(sums) / 4 {
		start, end := i*sumSegment, min((i+1)*sumSegment, len(body))
		crc := sumPieces(0, meta[start:min(end, len(meta))])
		if end > len(meta) {
			crc = sumPieces(crc, body[len(meta):end])
		}
		if crc != binary.LittleEndian.Uint32(sums[4*i:]) {
			return false
		}
	}
	return true
}

// sumPieces updates crc with b, a piece at a time.
func sumPieces(crc uint32, b []byte) uint32 {
	for len(b) > 0 {
		k := min(len(b), piece)
		crc = crc32.Update(crc, castagnoli, b[:k])
		checkedBytes.Add(int64(k))
		b = b[k:]
	}
	return crc
}
