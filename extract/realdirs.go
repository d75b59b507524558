package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// realDirs remembers the real path of each directory one batch of files
// (a Files call) lies in, so that the check that a file does not escape
// the root through a symlink costs one lstat of the file, not one of every
// component of its path: filepath.EvalSymlinks of each file was 1.1 % of
// a cold index's CPU on a kernel subset, six or more lstats a file. A
// batch is short and each file is still read without following a final
// symlink; a directory swapped for a symlink during a batch is no more
// raced than between the check and the read before.
type realDirs struct {
	mu   sync.Mutex
	real map[string]realDir
}

type realDir struct {
	path string
	err  error
}

// evalSymlinks is filepath.EvalSymlinks(abs), for abs a clean absolute
// path; a nil d resolves every component.
func (d *realDirs) evalSymlinks(abs string) (string, error) {
	if d == nil {
		return filepath.EvalSymlinks(abs)
	}
	st, err := os.Lstat(abs)
	if err != nil {
		return "", err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return filepath.EvalSymlinks(abs)
	}
	dir := filepath.Dir(abs)
	d.mu.Lock()
	r, ok := d.real[dir]
	d.mu.Unlock()
	if !ok {
		r.path, r.err = filepath.EvalSymlinks(dir)
		d.mu.Lock()
		if d.real == nil {
			d.real = map[string]realDir{}
		}
		d.real[dir] = r
		d.mu.Unlock()
	}
	if r.err != nil {
		return "", r.err
	}
	return filepath.Join(r.path, filepath.Base(abs)), nil
}
