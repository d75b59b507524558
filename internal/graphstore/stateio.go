package graphstore

// Reading and writing the saved state: graph.bin under the index
// directory, read through bounded.Open and written atomically.

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// Load reads the saved state at file. A missing file is fs.ErrNotExist.
// The file is read through bounded.Open: a symbolic link, a FIFO, a
// device or a file over the size of a state file is refused with a
// *bounded.SkipError before anything is read; and the header is read
// and checked before the payload (see read), so a file of garbage costs
// the 32 bytes of its header, whatever its size.
func Load(file string) (*State, error) {
	st, _, err := load(file, false)
	return st, err
}

// load is Load; with keep, it also returns the file, open, with where
// each segment of its files lies and the segments' checksums (see
// Extractions), or nil with the error.
func load(file string, keep bool) (_ *State, _ *openState, err error) {
	f, info, err := bounded.Open(file, bounded.State)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if !keep || err != nil {
			f.Close()
		}
	}()
	// The payload is read through a mapping of the file, not onto the
	// heap: the Go runtime keeps resident the heap's peak long after it
	// is garbage (a server's whole session), and the Linux kernel's
	// payload is 313 MB; the mapping's pages leave with it.
	payload, sum, release, err := mapPayload(f, info.Size())
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", file, err)
	}
	defer release()
	// What the decoder allocates it keeps: a collection meanwhile only
	// rescans it (a third of the CPU of loading the Linux kernel's state),
	// so the collector lets the heap grow 4x, not 2x, while it runs.
	if gc := debug.SetGCPercent(400); gc < 0 || gc > 400 {
		debug.SetGCPercent(gc) // the user's GOGC is off, or laxer
	} else {
		defer debug.SetGCPercent(gc)
	}
	var st *State
	var spans []span
	var sums []uint32
	var graph graphPart
	var graphSum uint32
	err = faults(func() error {
		if crc32.Checksum(payload, castagnoli) != sum {
			return errors.New("checksum mismatch")
		}
		// Kept open for Extractions, the files' full extractions are
		// read from the file when asked: decoded slim here.
		// The graph's edges and unresolved calls are left in the file
		// too, read when the graph is restored (see openState.graph).
		var err error
		if st, spans, graph, err = decodeStateSpans(payload, keep); err != nil {
			return err
		}
		if keep {
			sums = make([]uint32, len(spans))
			for j, sp := range spans {
				sums[j] = crc32.Checksum(payload[sp.start:sp.end], castagnoli)
			}
			graphSum = crc32.Checksum(payload[graph.start:graph.end], castagnoli)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", file, err)
	}
	if !keep {
		return st, nil, nil
	}
	return st, &openState{f: f, name: file, base: int64(headerSize), spans: spans, sums: sums, graph: graph, graphSum: graphSum}, nil
}

// mapPayload is readPayload of the file f of size bytes through a
// read-only mapping (or a read, where none can be made): the header is
// read and checked first, so a file of garbage costs its 32 bytes.
// release unmaps the payload, which must not be used after.
func mapPayload(f *os.File, size int64) (payload []byte, sum uint32, release func(), err error) {
	if size < int64(headerSize) {
		return nil, 0, nil, errBadHeader
	}
	var head [headerSize]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, 0, nil, fmt.Errorf("reading the header: %w", err)
	}
	n, sum, err := parseHeader(head[:], size)
	if err != nil {
		return nil, 0, nil, err
	}
	data, release, _, err := mapFile(f, size)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("reading the %d-byte payload: %w", n, err)
	}
	return data[headerSize : headerSize+n], sum, release, nil
}

// faults runs f, which reads a mapped file, and makes a fault it meets
// an error, not a crash: the file truncated since it was mapped.
func faults(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if fault, ok := r.(interface{ Addr() uintptr }); ok {
			err = fmt.Errorf("the file changed while read: a fault at %#x (truncated?)", fault.Addr())
			return
		}
		panic(r)
	}()
	return f()
}

// loadInside is Load of file in dir, refused when dir lies inside root
// but is reached through a symbolic link: a state saved elsewhere is not
// taken for the root's, as none is saved there (see save). With keep,
// see load.
func loadInside(root, dir, file string, keep bool) (*State, *openState, error) {
	if err := noLinks(root, dir); err != nil {
		return nil, nil, err
	}
	return load(file, keep)
}

// reason is why file could not be loaded, said by err without the
// file's name, which the log line gives.
func reason(err error, file string) string {
	var skip *bounded.SkipError
	if errors.As(err, &skip) {
		return skip.Reason
	}
	return strings.TrimPrefix(err.Error(), "load "+file+": ")
}

// save writes st to file in dir under root, unless the root is read-only
// (a tree such as Go's module cache, which root may write anyway but
// must not) or dir is reached through a symbolic link; failures are
// logged.
func save(log *slog.Logger, root, dir, file string, st *State, from saveFrom) bool {
	if !writable(log, root, dir) {
		return false
	}
	if err := saveState(file, st, from); err != nil {
		log.Warn("graphstore: could not save the graph", "error", err)
		return false
	}
	return true
}

// writable reports whether Sync may save in dir under root (see save),
// logging why not.
func writable(log *slog.Logger, root, dir string) bool {
	if fi, err := os.Stat(root); err == nil && fi.Mode().Perm()&0o200 == 0 {
		log.Info("graphstore: not saving the graph: the root is read-only", "root", root)
		return false
	}
	if err := noLinks(root, dir); err != nil {
		log.Warn("graphstore: not saving the graph", "error", err)
		return false
	}
	if err := ignoreDir(dir); err != nil {
		log.Warn("graphstore: not saving the graph", "error", err)
		return false
	}
	return true
}

// ignoreDir makes dir and, when it has none, a .gitignore in it that
// ignores everything: what Sync saves is state, never to be committed,
// and a read-only command (symbols, callers) leaves git status clean.
func ignoreDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	file := filepath.Join(dir, ".gitignore")
	if _, err := os.Lstat(file); !errors.Is(err, fs.ErrNotExist) {
		return nil // there is one (or something the user put there)
	}
	return writeAtomic(file, []byte(Gitignore))
}

// Gitignore is the .gitignore of the index directory.
const Gitignore = "# Written by fileinfo: the saved index and graph, rebuilt from the files.\n*\n"

// noLinks refuses a dir inside root reached through a symbolic link
// (.artifacts linked elsewhere): nothing is written outside the root.
func noLinks(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return nil // a directory of the caller's choosing, outside the root
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: the saved graph stays inside the root", p)
		}
	}
	return nil
}
