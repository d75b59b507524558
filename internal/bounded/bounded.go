package bounded

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Limit is the largest file of one kind that is read.
type Limit struct {
	Kind string // what such a file is, for messages: "state file"
	Max  int64  // bytes
}

// The kinds of file fileinfo reads, and their caps.
var (
	// State is a file fileinfo saved itself (graph.bin, code stamps):
	// the Linux kernel's graph.bin is 340 MB.
	State = Limit{"state file", 4 << 30}
	// Manifest is a lockfile or package manifest: the largest
	// package-lock.json seen is ~30 MB.
	Manifest = Limit{"lockfile or manifest", 64 << 20}
	// Doc is one prose document shipped with a dependency.
	Doc = Limit{"document", 4 << 20}
	// Cache is one entry of the per-user dependency cache.
	Cache = Limit{"cache entry", 512 << 20}
	// Git is a file under .git that names the commit (packed-refs of
	// the kernel's full history is 9 MB).
	Git = Limit{"git file", 64 << 20}
)

// SkipError says why a file was not read. It wraps the cause when there
// is one (fs.ErrNotExist for a missing file).
type SkipError struct {
	Path   string
	Reason string
	Err    error
}

func (e *SkipError) Error() string { return e.Path + ": " + e.Reason }
func (e *SkipError) Unwrap() error { return e.Err }

// ReadFile returns the content of the regular file at path (see the
// package doc), at most lim.Max bytes.
func ReadFile(path string, lim Limit) ([]byte, error) {
	f, _, err := Open(path, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, lim)
}

// ReadFileIn is ReadFile for name inside r: nothing outside r's
// directory is reached, whatever links the path holds.
func ReadFileIn(r *os.Root, name string, lim Limit) ([]byte, error) {
	f, _, err := OpenIn(r, name, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, filepath.Join(r.Name(), name), lim)
}

// Open opens the regular file at path for reading, refusing a symbolic
// link as its last element, anything but a regular file, and a file over
// lim.Max bytes, without blocking. It returns the opened file's own
// information. The caller reads at most info.Size() bytes of it, or uses
// a LimitReader: the file may grow.
func Open(path string, lim Limit) (*os.File, fs.FileInfo, error) {
	if oNofollow == 0 { // no O_NOFOLLOW here: look first
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, &SkipError{Path: path, Reason: "a symbolic link, not a regular file"}
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock|oNofollow, 0)
	if err != nil {
		return nil, nil, openError(path, err, func() (fs.FileInfo, error) { return os.Lstat(path) })
	}
	return check(f, path, lim)
}

// OpenIn is Open for name inside r.
func OpenIn(r *os.Root, name string, lim Limit) (*os.File, fs.FileInfo, error) {
	full := filepath.Join(r.Name(), name)
	if oNofollow == 0 {
		if fi, err := r.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, &SkipError{Path: full, Reason: "a symbolic link, not a regular file"}
		}
	}
	f, err := r.OpenFile(name, os.O_RDONLY|oNonblock|oNofollow, 0)
	if err != nil {
		return nil, nil, openError(full, err, func() (fs.FileInfo, error) { return r.Lstat(name) })
	}
	return check(f, full, lim)
}

// openError turns an open's error into a SkipError, naming a symbolic
// link as such (O_NOFOLLOW reports one as ELOOP).
func openError(path string, err error, lstat func() (fs.FileInfo, error)) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &SkipError{Path: path, Reason: "no such file", Err: err}
	}
	if fi, lerr := lstat(); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &SkipError{Path: path, Reason: "a symbolic link, not a regular file", Err: err}
	}
	return &SkipError{Path: path, Reason: err.Error(), Err: err}
}

// check keeps f if it is a regular file within lim, else closes it.
func check(f *os.File, path string, lim Limit) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	switch {
	case err != nil:
		err = &SkipError{Path: path, Reason: err.Error(), Err: err}
	case !fi.Mode().IsRegular():
		err = &SkipError{Path: path, Reason: "not a regular file (" + TypeOf(fi.Mode()) + ")"}
	case fi.Size() > lim.Max:
		err = &SkipError{Path: path, Reason: fmt.Sprintf("%d bytes, over the %d-byte limit of a %s", fi.Size(), lim.Max, lim.Kind)}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readAll reads f to its end, failing past lim.Max bytes.
func readAll(f *os.File, path string, lim Limit) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, lim.Max+1))
	if err != nil {
		return nil, &SkipError{Path: path, Reason: err.Error(), Err: err}
	}
	if int64(len(data)) > lim.Max {
		return nil, &SkipError{Path: path, Reason: fmt.Sprintf("grew over the %d-byte limit of a %s while it was read", lim.Max, lim.Kind)}
	}
	return data, nil
}

// TypeOf names the type of a file that is not regular.
func TypeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsRegular():
		return "regular file"
	}
	return m.Type().String()
}
