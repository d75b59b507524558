package graphstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/par"
)

// Whether a saved symbols.idx still describes the tree, and opening it
// when it does.

// stamp is one saved file stamp.
type stamp struct {
	path        string
	size, mtime int64
}

func (s *Symbols) stamp(k int) stamp {
	b := s.touch(secStamps, uint64(k)*symStampBytes, symStampBytes)
	le := binary.LittleEndian
	return stamp{s.str(b), int64(le.Uint64(b[8:])), int64(le.Uint64(b[16:]))}
}

// symbolsCurrent reports whether dir holds a readable symbols index
// whose key and stamps are st's.
func symbolsCurrent(dir string, st *State) bool {
	_, ok := symbolsCurrentID(dir, st)
	return ok
}

// symbolsCurrentID is symbolsCurrent, with the identity of the index it
// found current.
func symbolsCurrentID(dir string, st *State) ([16]byte, bool) {
	s, err := ReadSymbols(filepath.Join(dir, SymbolsFile))
	if err != nil {
		return [16]byte{}, false
	}
	defer s.Close()
	if s.key != st.Key || s.config != len(st.Config) || s.files != len(st.Files) {
		return [16]byte{}, false
	}
	same := true
	err = Guard(func() {
		for k, es := 0, append(st.Config[:len(st.Config):len(st.Config)], st.Files...); k < len(es) && same; k++ {
			sp := s.stamp(k)
			same = sp.path == es[k].Path && sp.size == es[k].Size && sp.mtime == max(es[k].ModTime, 0)
		}
	})
	return s.identity(), err == nil && same
}

// OpenSymbols opens the symbols index of opt.Root (see Sync's options)
// when it is up to date: saved with the key Sync would use now, and
// every go.mod and source file the walk finds has the size and
// modification time saved (a file modified within a clock tick of the
// save is never trusted). Otherwise it returns an error wrapping
// ErrStale, ErrCorrupt or the file system's: Sync brings the index up
// to date. It reads the index's header and stamps, walks the tree and
// stats each file; nothing else of the index is read. When the index is
// current it saves the directory stamps OpenSymbolsQuick checks (not
// with opt.ReadOnly), so that the next lookup need not walk.
func OpenSymbols(ctx context.Context, opt Options) (*Symbols, error) {
	dir, root, err := symbolsPaths(opt)
	if err != nil {
		return nil, err
	}
	if err := noLinks(opt.Root, dir); err != nil {
		return nil, err
	}
	file := filepath.Join(dir, SymbolsFile)
	s, err := ReadSymbols(file)
	if err != nil {
		return nil, err
	}
	stale := func(why string) (*Symbols, error) {
		s.Close()
		return nil, fmt.Errorf("%s: %w: %s", file, ErrStale, why)
	}
	if s.key != stateKey(opt) {
		return stale("saved by another build or with other options")
	}
	// The directories the walk enters, for the stamps saved below.
	var ws walkStamps
	wo := ws.watch(root, opt.Extract.Walk)
	paths, _, err := extract.Walk(ctx, opt.Root, wo)
	if err != nil {
		s.Close()
		return nil, err
	}
	config, sources, _ := selectSources(paths, opt.Extract.Languages)
	if len(config) != s.config || len(sources) != s.files {
		return stale("files added or removed")
	}
	all := append(config, sources...)
	var changed atomic.Bool
	err = Guard(func() {
		want := make([]stamp, len(all))
		for k := range all {
			want[k] = s.stamp(k)
		}
		par.For(8, len(all), func(k int) {
			if changed.Load() {
				return
			}
			w := want[k]
			info, err := os.Stat(filepath.Join(root, filepath.FromSlash(all[k])))
			if w.path != all[k] || err != nil || w.mtime == 0 || info.Size() != w.size || info.ModTime().UnixNano() != w.mtime {
				changed.Store(true)
			}
		})
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if changed.Load() {
		return stale("files changed")
	}
	if !opt.ReadOnly {
		// For the next lookup's OpenSymbolsQuick; without them it makes
		// this check again.
		ws.writeFor(opt.Log, dir, s)
	}
	return s, nil
}

// symbolsPaths returns the index directory of opt (its Dir, or the
// root's .artifacts/.index) and the root as an absolute path with its
// links resolved.
func symbolsPaths(opt Options) (dir, root string, err error) {
	dir = opt.Dir
	if dir == "" {
		dir = filepath.Join(opt.Root, ".artifacts", ".index")
	}
	root, err = filepath.Abs(opt.Root)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	return dir, root, err
}
