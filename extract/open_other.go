//go:build !unix

package extract

import (
	"os"
	"path/filepath"
)

const oNonblock = 0

// openDir opens the directory name inside parentPath. Without openat this
// platform checks after opening that the path is still a directory.
func openDir(_ *os.File, parentPath, name string) (*os.File, error) {
	p := filepath.Join(parentPath, name)
	if st, err := os.Lstat(p); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, &os.PathError{Op: "open", Path: p, Err: os.ErrInvalid}
	}
	return os.Open(p)
}
