package artifacts

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// openRegular opens the file name of r for reading: a regular file of at
// most MaxSize bytes. It opens without blocking, so that a FIFO put where
// an artifact belongs is refused instead of waiting for a writer, and
// checks what it opened, not what a directory listing said was there.
func openRegular(r *os.Root, name string) (*os.File, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file", name)
	case fi.Size() > MaxSize:
		err = fmt.Errorf("%s is too large: %d bytes, the limit is %d", name, fi.Size(), MaxSize)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readFile returns the content of the file name of r, as openRegular
// opens it, reading no more than MaxSize bytes even if it grows.
func readFile(r *os.Root, name string) ([]byte, error) {
	f, err := openRegular(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s is too large: over %d bytes", name, MaxSize)
	}
	return b, nil
}
