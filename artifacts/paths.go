package artifacts

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// openRoot opens the artifact directory, creating it first if create is
// set. Every access below it goes through the returned os.Root, which
// refuses any path — through "..", or a symbolic link at any depth, at the
// time of the access — that resolves outside it. The directory itself must
// not be a symbolic link: a checked-out repository could point it anywhere.
func (s *Store) openRoot(create bool) (*os.Root, error) {
	if create {
		if err := os.Mkdir(s.dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	fi, err := os.Lstat(s.dir)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; artifacts are kept only in a real directory", s.dir)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", s.dir)
	}
	r, err := os.OpenRoot(s.dir)
	if err != nil {
		return nil, err
	}
	// The directory could have been swapped for a link between Lstat and
	// OpenRoot; what was opened must be what Lstat saw.
	if opened, err := r.Stat("."); err != nil || !os.SameFile(fi, opened) {
		r.Close()
		return nil, fmt.Errorf("%s changed while being opened", s.dir)
	}
	return r, nil
}

// Temporary files are named tempPrefix + a random uint64 in base 36 +
// tempSuffix.
const (
	tempPrefix = ".artifact-"
	tempSuffix = ".tmp"
)

// StaleTemp is how long after its last change a temporary file of the
// store counts as left behind: far longer than a write takes.
const StaleTemp = time.Minute

// createTemp creates a new file in dir of r, with a name that List ignores
// and no artifact can have (it does not end in ".md").
func createTemp(r *os.Root, dir string) (string, *os.File, error) {
	for range 100 {
		tmp := filepath.Join(dir, tempPrefix+strconv.FormatUint(rand.Uint64(), 36)+tempSuffix)
		f, err := r.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, errors.New("no unused temporary file name in 100 tries")
}

// isTemp reports whether name is one createTemp makes.
func isTemp(name string) bool {
	n, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return false
	}
	if n, ok = strings.CutSuffix(n, tempSuffix); !ok {
		return false
	}
	_, err := strconv.ParseUint(n, 36, 64)
	return err == nil && n == strings.ToLower(n)
}

// removeStaleTemps removes the regular files under the artifact directory
// that createTemp named and that were last modified before cutoff. It
// enters no symbolic link and gives up quietly on any error.
func (s *Store) removeStaleTemps(cutoff time.Time) {
	r, err := s.openRoot(false)
	if err != nil {
		return
	}
	defer r.Close()
	fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !isTemp(d.Name()) {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().Before(cutoff) {
			r.Remove(filepath.FromSlash(p))
		}
		return nil
	})
}

// lock returns the mutex that serializes writers of key's artifact.
func (s *Store) lock(key string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(key))
	return &s.locks[h.Sum32()%uint32(len(s.locks))]
}

// name returns the OS path of key's artifact relative to the artifact
// directory.
func name(key string) string { return filepath.FromSlash(key) + ".md" }

// clean returns source as a store key: a clean, non-empty slash path that
// stays inside the workspace root. It refuses absolute paths, paths that
// leave the root after cleaning ("a/../../b"), invalid UTF-8 and NUL.
// Whether the source is a symbolic link does not matter: artifacts are
// keyed by path.
func clean(source string) (string, error) {
	switch {
	case source == "":
		return "", errors.New("empty source path")
	case !utf8.ValidString(source):
		return "", errors.New("source path is not valid UTF-8")
	case strings.IndexByte(source, 0) >= 0:
		return "", errors.New("source path contains NUL")
	case path.IsAbs(source) || filepath.IsAbs(source) || filepath.VolumeName(source) != "":
		return "", errors.New("source path is absolute; want a path relative to the workspace root")
	}
	key := path.Clean(source)
	switch {
	case key == ".":
		return "", errors.New("source path names the workspace root, not a file")
	case key == ".." || strings.HasPrefix(key, "../"):
		return "", errors.New("source path leaves the workspace root")
	case !filepath.IsLocal(filepath.FromSlash(key)):
		return "", errors.New("source path is not a local path on this system")
	}
	return key, nil
}
