package dirstamp

import (
	"os"
	"path/filepath"
)

// Lstat returns the stamp of slash path p under root as lstat sees it
// now, without judging its time: Absent when nothing is there.
func Lstat(root, p string) Stamp {
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return Stamp{p, Absent, 0}
	}
	return Stamp{p, info.Size(), info.ModTime().UnixNano()}
}

// Vouch returns s, a stamp Of took, stamped by its time after all when
// it is Unsure only because this process made the path itself just
// before its walk began: made holds the paths it made, each as Lstat saw
// it once made (a first index makes .artifacts and its .gitignore), and
// lstat finds the path as it was then. Otherwise it returns s.
//
// What an unsure stamp guards against is a change the walk did not see
// that left the path's time as it was: one in the same tick of the file
// system's clock as the change before it. For a path this process made,
// that change would have to come from another process within a tick of
// the making, after the walk read the path; the walk began after the
// making, so the window is what remains of that tick. A Listed stamp
// takes the same risk for the files its walk stat'ed.
func Vouch(root string, s Stamp, made []Stamp) Stamp {
	if s.Size != Unsure {
		return s
	}
	for _, m := range made {
		if m.Path != s.Path {
			continue
		}
		if now := Lstat(root, s.Path); now == m && now.Size != Absent {
			return now
		}
		break
	}
	return s
}
