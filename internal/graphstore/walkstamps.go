package graphstore

import (
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/dirstamp"
)

// walkStamps is what a walk of Sync's or OpenSymbols' entered, for the
// directory stamps a lookup's quick check reads (symbols-dirs.bin, see
// writeDirs). Without
// them, the first CLI lookup after `fileinfo index` walked the tree and
// stat'd every file again before it answered (0.75 s on a quiet Linux
// kernel, 3.0 s at load 11, where the next took 0.12 s).
type walkStamps struct {
	root   string // the root, absolute with its links resolved; "" stamps nothing
	since  time.Time
	dirs   []string
	listed map[string][]fs.DirEntry // the entries of the directories unsure by their time
}

// watch returns wo with hooks that record, into w, the directories the
// walk enters and the entries of those unsure by their time; root is the
// walk's root, absolute with its links resolved (symbolsPaths).
func (w *walkStamps) watch(root string, wo extract.WalkOptions) extract.WalkOptions {
	w.root, w.since, w.listed = root, time.Now(), map[string][]fs.DirEntry{}
	dir, listed := wo.Dir, wo.Listed
	wo.Dir = func(rel string) {
		w.dirs = append(w.dirs, rel)
		if dir != nil {
			dir(rel)
		}
	}
	wo.Listed = func(rel string, entries []fs.DirEntry) {
		if dirstamp.Of(w.root, rel, w.since.UnixNano()).Size == dirstamp.Unsure {
			w.listed[rel] = entries
		}
		if listed != nil {
			listed(rel, entries)
		}
	}
	return wo
}

// write saves the stamps beside the symbols index of identity id, which
// the walk's files made; nothing when that is not the file there now.
func (w *walkStamps) write(log *slog.Logger, dir string, id [16]byte) {
	if w.root == "" {
		return
	}
	s, err := ReadSymbols(filepath.Join(dir, SymbolsFile))
	if err != nil {
		return
	}
	defer s.Close()
	if s.identity() == id {
		w.writeFor(log, dir, s)
	}
}

// writeFor saves the stamps beside s, the symbols index the walk found
// current or its files made (writeDirs).
func (w *walkStamps) writeFor(log *slog.Logger, dir string, s *Symbols) {
	if err := writeDirs(dir, w.root, s, w.dirs, w.listed, w.since); err != nil && log != nil {
		log.Debug("directory stamps not saved", "err", err)
	}
}
