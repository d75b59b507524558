//go:build !linux

package docsearch

import (
	"fmt"
	"io/fs"
	"os"
)

// openRootDir opens the directory dir of r for a walk, as an os.Root of
// its own: its entries are read and entered relative to it, so a link
// swapped in on the way is never followed out of it.
func openRootDir(r *os.Root, dir string) (dirHandle, error) {
	if dir == "." {
		return rootDir{r: r}, nil
	}
	sub, err := r.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return rootDir{r: sub, own: true}, nil
}

type rootDir struct {
	r   *os.Root
	own bool
}

func (d rootDir) list() ([]fs.DirEntry, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	sortEntries(entries)
	return entries, err
}

func (d rootDir) info(name string) (entryInfo, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return entryInfo{}, err
	}
	return infoOf(fi), nil
}

// sub opens name as a root, and checks that it is the directory Lstat
// sees: os.Root follows a link that stays inside it.
func (d rootDir) sub(name string) (dirHandle, error) {
	seen, err := d.r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !seen.IsDir() {
		return nil, fmt.Errorf("%s: a %s now, not a directory: not entered", name, kind(seen.Mode()))
	}
	sub, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	st, err := sub.Stat(".")
	if err == nil && !os.SameFile(st, seen) {
		err = fmt.Errorf("%s changed while it was indexed: not entered", name)
	}
	if err != nil {
		sub.Close()
		return nil, err
	}
	return rootDir{r: sub, own: true}, nil
}

func (d rootDir) read(name string, max int64) ([]byte, error) {
	return readFile(RootFS(d.r), name, max)
}

func (d rootDir) close() {
	if d.own {
		d.r.Close()
	}
}
