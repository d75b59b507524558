package server

import (
	"os"
	"path"
	"path/filepath"

	"github.com/fileinfo/fileinfo/extract"
)

// stampUnchanged reports whether the file at rel has the stamp it had.
func stampUnchanged(r *scanReader, rel string, was fileStamp) bool {
	st, err := r.stat(rel)
	return err == nil && stampOf(st) == was
}

// scanReader is one scan worker's reader: a handle of the directory it
// reads in, and a buffer the files it reads share.
type scanReader struct {
	c      *coldScan
	dir    string   // slash path of sub's directory
	sub    *os.Root // nil: read through the workspace's root
	opened bool     // sub was opened for dir, or is not to be
	buf    []byte
}

// maxScanBuf is the largest buffer a scan worker keeps between files.
const maxScanBuf = 4 << 20

// enter makes dir the directory r reads in; its handle is opened at
// the first stat or read there (a scan that trusts its last one opens
// none).
func (r *scanReader) enter(dir string) {
	r.close()
	r.dir, r.opened = dir, dir == "."
}

// open opens the handle of r's directory, once.
func (r *scanReader) open() {
	if r.opened || r.dir == "" {
		return
	}
	r.opened = true
	if sub, err := r.c.w.dir.OpenRoot(filepath.FromSlash(r.dir)); err == nil {
		r.sub = sub
	}
}

func (r *scanReader) close() {
	if r.sub != nil {
		r.sub.Close()
		r.sub = nil
	}
}

// stat returns the stat of the file at rel, through the directory's
// handle.
func (r *scanReader) stat(rel string) (os.FileInfo, error) {
	r.c.stats.Add(1)
	r.open()
	if r.sub != nil && path.Dir(rel) == r.dir {
		return r.sub.Stat(path.Base(rel))
	}
	return r.c.w.dir.Stat(filepath.FromSlash(rel))
}

// read returns the bytes of the file at rel, in r's buffer: they are
// good until the next read. It reads as the workspace's readRaw does,
// through the directory's handle; when that fails, through the root
// (a symbolic link the handle of its directory cannot follow may still
// lead inside the root), so that the outcome is readRaw's.
func (r *scanReader) read(rel string) ([]byte, os.FileInfo, error) {
	r.c.reads.Add(1)
	r.open()
	dir := r.c.w.dir
	name := rel
	if r.sub != nil && path.Dir(rel) == r.dir {
		dir, name = r.sub, path.Base(rel)
	}
	src, st, err := extract.ReadRegularInto(dir, name, r.c.w.maxSize, r.buf)
	if err != nil && dir != r.c.w.dir {
		src, st, err = extract.ReadRegularInto(r.c.w.dir, rel, r.c.w.maxSize, r.buf)
	}
	if cap(src) <= maxScanBuf && cap(src) > cap(r.buf) {
		r.buf = src[:0]
	}
	return src, st, err
}
