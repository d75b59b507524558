package docsearch

import (
	"io/fs"
	"os"
)

// RootFS returns the file system of r for an Index, as a root or a
// scope's FS. Every document is read through r, so no read leaves it,
// whatever symbolic links it holds. The walk that finds the documents
// lists directories by path instead (os.DirFS of r's directory): an
// os.Root opens each path a component at a time, and on a deep tree, such
// as 16,666 npm package docs in 19,130 directories, walking through it
// took 0.59-0.70 s against 0.38-0.45 s. The walk follows no symbolic link
// (fs.WalkDir lists one as a link and does not enter it; the index skips
// it), and what it finds is read through r.
//
// When the index's Options.Dir lies in r's directory, the index is
// loaded and saved through r too (indexDir).
func RootFS(r *os.Root) fs.FS { return rootFS{r.FS(), os.DirFS(r.Name()), r} }

type rootFS struct {
	fs.FS          // r's: every read
	list  fs.FS    // r's directory by path: the walk
	root  *os.Root // r
}

func (f rootFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(f.FS, name) }
func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.FS, name) }
func (f rootFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.FS, name) }
func (f rootFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(f.FS, name) }
func (f rootFS) ReadLink(name string) (string, error)       { return fs.ReadLink(f.FS, name) }

// listing returns the file system to walk fsys by.
func listing(fsys fs.FS) fs.FS {
	if r, ok := fsys.(rootFS); ok {
		return r.list
	}
	return fsys
}
