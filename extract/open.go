package extract

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxSideFile bounds the files extraction reads beside sources: go.mod,
// .gitignore, .git/info/exclude.
const maxSideFile = 1 << 20

// OpenRegular opens the regular file at slash path rel through dir: a
// symbolic link may lead only to a file inside dir, however it was
// swapped in after a check, and a FIFO, socket or device is refused with
// a *SkipError without blocking (the open does not wait for a writer).
// Every read of a source file goes through it.
func OpenRegular(dir *os.Root, rel string) (*os.File, os.FileInfo, error) {
	name := filepath.FromSlash(rel)
	f, err := dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// os.Root refuses every absolute symbolic link, even one to a
		// file inside the root: resolve it, and open what it names,
		// still through the root.
		if real, rerr := filepath.EvalSymlinks(filepath.Join(dir.Name(), name)); rerr == nil {
			if inner, rerr := filepath.Rel(dir.Name(), real); rerr == nil && filepath.IsLocal(inner) {
				f, err = dir.OpenFile(inner, os.O_RDONLY|oNonblock, 0)
			}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, st, &SkipError{Path: rel, Reason: "not a regular file (" + fileType(st.Mode()) + ")"}
	}
	return f, st, nil
}

// ReadRegular returns the bytes of the regular file at slash path rel
// inside dir (see OpenRegular), at most max of them: a larger file, or
// one that grows past max while it is read, is a *SkipError saying so,
// and nothing past max+1 bytes is read. It is the one reader of source
// files: extraction's, the server's, the saved graph's content hashes.
func ReadRegular(dir *os.Root, rel string, max int64) ([]byte, error) {
	src, _, err := ReadRegularInto(dir, rel, max, nil)
	return src, err
}

// ReadRegularInto is ReadRegular reading into buf's storage when it is
// large enough (a new slice otherwise): a reader of many files, most of
// which it drops at once, allocates once. The bytes returned are buf's
// until the next call with it. st is the open file's stat, taken before
// the read, when it was opened.
func ReadRegularInto(dir *os.Root, rel string, max int64, buf []byte) (_ []byte, st os.FileInfo, _ error) {
	f, st, err := OpenRegular(dir, rel)
	if err != nil {
		return nil, st, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, st, &SkipError{Path: rel, Reason: fmt.Sprintf("file too large (%d bytes, limit %d)", st.Size(), max)}
	}
	// Read exactly the size stat promised, plus one byte to notice growth.
	src := buf[:0]
	if int64(cap(src)) < st.Size()+1 {
		src = make([]byte, 0, st.Size()+1)
	}
	src, err = readAll(f, src, max+1)
	if err != nil {
		return nil, st, fmt.Errorf("read %s: %w", rel, err)
	}
	if int64(len(src)) > max {
		return nil, st, &SkipError{Path: rel, Reason: fmt.Sprintf("file too large (limit %d bytes)", max)}
	}
	return src, st, nil
}

// readSide returns the bytes of a regular file of at most maxSideFile
// bytes at slash path rel inside dir (see OpenRegular).
func readSide(dir *os.Root, rel string) ([]byte, error) {
	f, st, err := OpenRegular(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > maxSideFile {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", rel, st.Size(), maxSideFile)
	}
	return io.ReadAll(io.LimitReader(f, maxSideFile))
}

// fileType names the type of a file that is not regular.
func fileType(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	}
	return m.Type().String()
}
