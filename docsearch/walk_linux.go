package docsearch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openRootDir opens the directory dir of r for a walk. The walk then
// goes down by descriptor: each subdirectory is opened relative to its
// parent's descriptor, without following a symbolic link (O_NOFOLLOW |
// O_DIRECTORY), so what is opened is the directory listed, even if a
// link was swapped in since, and nothing outside r is ever reached. It
// costs less than walking by path (os.DirFS) did: BenchmarkWalk, 12,001
// directories, 0.129 s against 0.148 s; an os.Root per directory (the
// other systems' walk_root.go) was slower than both.
func openRootDir(r *os.Root, dir string) (dirHandle, error) {
	f, err := r.Open(dir)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.IsDir() {
		err = fmt.Errorf("%s is not a directory", dir)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return fdDir{f, int(f.Fd())}, nil
}

// fdDir is an open directory and its descriptor.
type fdDir struct {
	f  *os.File
	fd int
}

func (d fdDir) list() ([]fs.DirEntry, error) {
	entries, err := d.f.ReadDir(-1)
	sortEntries(entries)
	return entries, err
}

func (d fdDir) info(name string) (entryInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return entryInfo{}, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return entryInfo{modeOf(st.Mode), st.Size, st.Mtim.Nano()}, nil
}

func (d fdDir) sub(name string) (dirHandle, error) {
	fd, err := openat(d.fd, name, unix.O_DIRECTORY)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return nil, fmt.Errorf("%s is no longer a directory (a symbolic link or a file now): not entered", name)
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	return fdDir{f, fd}, nil
}

func (d fdDir) read(name string, max int64) ([]byte, error) {
	fd, err := openat(d.fd, name, unix.O_NONBLOCK)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%s: %w (symbolic link)", name, errNotRegular)
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(name, st.Mode())
	}
	if st.Size() > max {
		return nil, errTooBig(st.Size(), max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

func (d fdDir) close() { d.f.Close() }

// openat opens name in the directory fd for reading, following no
// symbolic link.
func openat(fd int, name string, flags int) (int, error) {
	for {
		nfd, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "openat", Path: name, Err: err}
		}
		return nfd, nil
	}
}

// modeOf converts the type bits of a stat mode.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
