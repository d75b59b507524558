package docsearch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readFile returns the bytes of the regular file name in fsys, at most
// max of them. Anything else is refused without being read: a symbolic
// link, a directory, a named pipe (opening one would wait for a writer),
// a device (/dev/zero never ends), or a file over max bytes.
//
// Through a RootFS the refusal holds against a file swapped while it is
// read: the file is opened through the root without waiting (O_NONBLOCK),
// and what was opened must be the regular file the name was seen as. Any
// other fs.FS is asked for its Lstat, then opened and checked again; a
// FIFO swapped in between these two steps could still make it wait.
func readFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	var f fs.File
	var info fs.FileInfo
	var err error
	if r, ok := fsys.(rootFS); ok {
		f, info, err = openRegular(r.root, name)
	} else {
		f, info, err = openRegularFS(fsys, name)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > max {
		return nil, errTooBig(info.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max { // it grew since its size was read
		return nil, errTooBig(int64(len(data)), max)
	}
	return data, nil
}

func errTooBig(size, max int64) error {
	return fmt.Errorf("%d bytes, over the %d limit", size, max)
}

// openRegular opens the regular file name in r for reading, refusing
// anything else (see readFile). It returns the opened file's own
// information.
func openRegular(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	seen, err := r.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !seen.Mode().IsRegular() {
		return nil, nil, notRegular(name, seen.Mode())
	}
	f, err := r.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && (!info.Mode().IsRegular() || !os.SameFile(seen, info)) {
		err = fmt.Errorf("%s changed while it was opened: %w", name, errNotRegular)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// openRegularFS is openRegular for any fs.FS.
func openRegularFS(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	seen, err := fs.Lstat(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	if !seen.Mode().IsRegular() {
		return nil, nil, notRegular(name, seen.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = notRegular(name, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// errNotRegular marks a file that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// notRegular says what kind of file name is, which is not a regular one.
func notRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w (%s)", name, errNotRegular, kind(m))
}

// irregular is the reason a file that is not regular is passed over.
func irregular(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symbolic link"
	}
	return "not a regular file (" + kind(m) + ")"
}

// kind names the type of a file that is not regular.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "irregular file"
}
