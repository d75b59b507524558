package graphstore

import (
	"path/filepath"
	"reflect"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// keyProbeBytes is how much of a saved state's payload SavedFor reads:
// the key, its first field, is a line of text.
const keyProbeBytes = 4096

// SavedFor reports whether the graph saved in opt's directory (graph.bin)
// was saved for opt: by this build, with these options, in this format.
// A Sync with opt reuses the extractions of such a file; one that is
// missing, of another build or options, or unreadable at its header is
// rebuilt from every file, as if nothing were saved, and SavedFor says
// false. Only the header and the key are read, not the payload, whose
// checksum Sync verifies: a damaged payload under a good key says true.
func SavedFor(opt Options) bool {
	dir := opt.Dir
	if dir == "" {
		dir = filepath.Join(opt.Root, ".artifacts", ".index")
	}
	if noLinks(opt.Root, dir) != nil {
		return false
	}
	f, info, err := bounded.Open(filepath.Join(dir, FileName), bounded.State)
	if err != nil {
		return false
	}
	defer f.Close()
	if info.Size() < int64(headerSize) {
		return false
	}
	var head [headerSize]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return false
	}
	n, _, err := parseHeader(head[:], info.Size())
	if err != nil {
		return false
	}
	buf := make([]byte, min(n, keyProbeBytes))
	if _, err := f.ReadAt(buf, int64(headerSize)); err != nil {
		return false
	}
	key, ok := decodeKey(buf)
	return ok && key == stateKey(opt)
}

// decodeKey decodes State.Key from the start of a payload (the first
// field, as decodeStateSpans reads it).
func decodeKey(payload []byte) (key string, ok bool) {
	p, err := planOf(reflect.TypeFor[string]())
	if err != nil {
		return "", false
	}
	d := &decoder{buf: payload}
	if err := d.decodeInto(p, reflect.ValueOf(&key).UnsafePointer(), nil); err != nil {
		return "", false
	}
	return key, true
}
