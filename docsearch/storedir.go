package docsearch

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The index directory. Every file of the index is opened, created,
// renamed and removed through an os.Root of Options.Dir (indexDir), and
// read only as a regular file (openRegular): a link to /dev/zero, a FIFO
// or a directory where docsearch.idx should be is an unusable index, not
// something to read, and the index is rebuilt and saved over it.

// maxIndexBytes is the largest index file loaded: past it the file is
// not an index this package wrote for a workspace (16,666 npm package
// docs make 0.2 GB).
const maxIndexBytes = 16 << 30

// staleAge is how long a temporary file of a save must have gone
// unwritten before it may be removed as left by a killed process: a save
// writes its file from start to end, then renames it at once.
const staleAge = 10 * time.Minute

// indexDir opens the directory the index is saved in. When the index's
// root is a RootFS and Options.Dir lies in its directory, it is opened
// through that root, so that no symbolic link on the way (.artifacts or
// .artifacts/.index a link) leads out of the workspace; links that stay
// inside it are followed. Otherwise Options.Dir is opened as a root of
// its own. create makes the directory first.
func (ix *Index) indexDir(create bool) (*os.Root, error) {
	dir := ix.opts.Dir
	if r, ok := ix.scopes.root.(rootFS); ok {
		if rel, err := filepath.Rel(r.root.Name(), dir); err == nil && filepath.IsLocal(rel) {
			if create {
				if err := r.root.MkdirAll(rel, 0o755); err != nil {
					return nil, err
				}
			}
			return r.root.OpenRoot(rel)
		}
	}
	if create {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	return os.OpenRoot(dir)
}

// createTemp creates a new temporary file for a save in d, locked for as
// long as it is open so that removeStale leaves it alone.
func createTemp(d *os.Root) (*os.File, error) {
	for range 100 {
		name := fmt.Sprintf(".docsearch-%d.tmp", rand.Uint32())
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		lock(f)
		return f, nil
	}
	return nil, errors.New("no unused temporary file name")
}

// isTemp reports whether name is one createTemp makes (or os.CreateTemp
// made with the pattern .docsearch-*.tmp, before it).
func isTemp(name string) bool {
	mid, ok := strings.CutPrefix(name, ".docsearch-")
	if mid, ok = strings.CutSuffix(mid, ".tmp"); !ok || mid == "" {
		return false
	}
	return strings.Trim(mid, "0123456789") == ""
}

// replace renames the file tmp of d over the index file. A directory
// there is removed first if it is empty; one that holds anything is left
// alone, and the index is not saved.
func replace(d *os.Root, tmp string) error {
	if info, err := d.Lstat(storeFile); err == nil && info.IsDir() {
		if err := d.Remove(storeFile); err != nil {
			return fmt.Errorf("%s is a directory that is not empty: remove it to let the index be saved", storeFile)
		}
	}
	return d.Rename(tmp, storeFile)
}

// removeStale removes from d the temporary files that saves killed midway
// left: those of createTemp's names, unwritten for staleAge, that no
// process holds locked. It reports how many it removed.
func removeStale(d *os.Root) int {
	f, err := d.Open(".")
	if err != nil {
		return 0
	}
	entries, _ := f.ReadDir(-1)
	f.Close()
	n := 0
	for _, e := range entries {
		if !isTemp(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		f, info, err := openRegular(d, e.Name())
		if err != nil {
			continue
		}
		if time.Since(info.ModTime()) > staleAge && tryLock(f) && d.Remove(e.Name()) == nil {
			n++
		}
		f.Close()
	}
	return n
}

// replaceFile writes b to a new file of d and renames it to name, so
// that name is the old content or all of the new; sync has the content
// reach the disk before the rename. The new file is removed on failure.
func replaceFile(d *os.Root, name string, b []byte, sync bool) error {
	f, err := createTemp(d)
	if err != nil {
		return err
	}
	tmp := filepath.Base(f.Name())
	_, err = f.Write(b)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(tmp, name)
	}
	if err != nil {
		d.Remove(tmp)
	}
	return err
}
