package main

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/fileinfo/fileinfo/internal/dirstamp"
)

// makeIndexDir makes dir, the index's directory under root (through r,
// so that no symbolic link leads it out), and runs gitignore, which
// writes the artifact directory's .gitignore (nil: none), before the
// walks of a full check begin, and returns the stamps of the paths it
// made that were not there (dirstamp.Vouch). Made after the walks began,
// as the first save made them, they changed the directories the walks
// had listed, and the first search after a first index checked every
// file again (5.6 s on the Linux kernel). Both are best effort: the save
// makes the directory otherwise.
func makeIndexDir(r *os.Root, root, dir string, gitignore func() error) []dirstamp.Stamp {
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) {
		if gitignore != nil {
			gitignore()
		}
		return nil
	}
	rel = filepath.ToSlash(rel)
	var paths []string // the directories above dir, and their ignore files
	for p := path.Dir(rel); p != "."; p = path.Dir(p) {
		paths = append(paths, p, path.Join(p, ".gitignore"))
	}
	absent := make(map[string]bool, len(paths))
	for _, p := range paths {
		if _, err := r.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			absent[p] = true
		}
	}
	if gitignore != nil {
		gitignore()
	}
	r.MkdirAll(rel, 0o755)
	var made []dirstamp.Stamp
	for _, p := range paths {
		if absent[p] {
			if s := dirstamp.Lstat(root, p); s.Size != dirstamp.Absent {
				made = append(made, s)
			}
		}
	}
	return made
}
