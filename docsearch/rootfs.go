package docsearch

import (
	"io/fs"
	"os"
)

// RootFS returns the file system of r for an Index, as a root or a
// scope's FS. Nothing is read outside r, whatever symbolic links it holds
// or comes to hold while it is indexed: every document is read through r
// as a regular file (readFile); the walk that finds the documents enters
// each directory through the handle of its parent (an os.Root of its
// own), and checks that what it opened is the directory it listed; and
// when the index's Options.Dir lies in r's directory, the index is
// loaded and saved through r too (indexDir).
func RootFS(r *os.Root) fs.FS { return rootFS{r.FS(), r} }

type rootFS struct {
	fs.FS // r's
	root  *os.Root
}

func (f rootFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(f.FS, name) }
func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.FS, name) }
func (f rootFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.FS, name) }
func (f rootFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(f.FS, name) }
func (f rootFS) ReadLink(name string) (string, error)       { return fs.ReadLink(f.FS, name) }
