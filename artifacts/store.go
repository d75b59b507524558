package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Dir is the name of the artifact directory under a workspace root.
const Dir = ".artifacts"

// MaxSize is the largest artifact, front matter included, that the store
// writes or reads (32 MiB). An artifact renders at most a few times its
// source, which extraction caps at 2 MiB by default.
const MaxSize = 32 << 20

// Store is the artifact directory of one workspace. It is safe for
// concurrent use: writes and removals of one artifact are serialized, and a
// reader sees a whole artifact or none, never a partial one.
type Store struct {
	dir string // absolute <root>/.artifacts

	// locks serialize writers of one artifact; a source hashes to one of
	// them. Writers of different artifacts rarely share one.
	locks [64]sync.Mutex
	// tree keeps Remove from pruning a directory that a Write is about to
	// create a file in: writers hold it shared, pruning exclusively.
	tree sync.RWMutex
}

// Open returns the store of the workspace rooted at root, which must be a
// directory. The artifact directory is created by the first Write.
//
// Open removes the temporary files that writes interrupted by a crash or
// a kill left under the artifact directory: only files named as Write
// names them, and only those last modified over StaleTemp ago, so that a
// write under way in another process keeps its file. Failing to remove
// them is not an error.
func Open(root string) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("artifacts: open %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("artifacts: open %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("artifacts: open %s: not a directory", root)
	}
	s := &Store{dir: filepath.Join(abs, Dir)}
	s.removeStaleTemps(time.Now().Add(-StaleTemp))
	return s, nil
}

// Path returns the file that holds source's artifact:
// <root>/.artifacts/<source>.md. It checks source lexically (see Write) and
// touches no file.
func (s *Store) Path(source string) (string, error) {
	key, err := clean(source)
	if err != nil {
		return "", fmt.Errorf("artifacts: path %s: %w", source, err)
	}
	return filepath.Join(s.dir, name(key)), nil
}

// Write stores body as source's artifact, with m as its front matter,
// replacing any artifact there was. source is a slash path relative to the
// workspace root; absolute paths and paths that leave the root are refused,
// and so is an artifact path that would leave the artifact directory
// through a symbolic link. m.Source is set to the cleaned source (if it was
// set, it must name the same file); a zero m.ExtractedAt means now; the time
// is stored in UTC to the second. m.Status must be Basic, Partial or
// Enriched, and the artifact at most MaxSize bytes.
//
// The artifact is written to a temporary file in its directory, synced and
// renamed into place; on failure the temporary file is removed and an
// artifact that was there is unchanged.
func (s *Store) Write(source string, m Meta, body []byte) error {
	key, err := clean(source)
	if err != nil {
		return fmt.Errorf("artifacts: write %s: %w", source, err)
	}
	if m.Source != "" {
		if k, err := clean(m.Source); err != nil || k != key {
			return fmt.Errorf("artifacts: write %s: meta names source %q", source, m.Source)
		}
	}
	m.Source = key
	if m.ExtractedAt.IsZero() {
		m.ExtractedAt = time.Now()
	}
	m.ExtractedAt = m.ExtractedAt.UTC().Truncate(time.Second)
	head, err := encode(m)
	if err != nil {
		return fmt.Errorf("artifacts: write %s: %w", source, err)
	}
	if n := len(head) + len(body); n > MaxSize {
		return fmt.Errorf("artifacts: write %s: artifact of %d bytes is too large (the limit is %d)", source, n, MaxSize)
	}

	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()
	s.tree.RLock()
	defer s.tree.RUnlock()

	if err := s.write(key, head, body); err != nil {
		return fmt.Errorf("artifacts: write %s: %w", source, err)
	}
	// The artifact is saved; a .gitignore that cannot be written is no
	// reason to report a failure.
	s.WriteGitignore()
	return nil
}

func (s *Store) write(key string, head, body []byte) (err error) {
	r, err := s.openRoot(true)
	if err != nil {
		return err
	}
	defer r.Close()
	file := name(key)
	dir := filepath.Dir(file)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, f, err := createTemp(r, dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if _, err := f.Write(head); err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return r.Rename(tmp, file)
}

// Read returns source's artifact: its front matter and its body. When there
// is no artifact the error satisfies errors.Is(err, fs.ErrNotExist); when
// the front matter is not what Write writes, errors.Is(err, ErrMalformed).
// An artifact reached through a symbolic link that leaves the artifact
// directory is refused, and so is anything but a regular file of at most
// MaxSize bytes (a FIFO is opened without blocking, and refused).
func (s *Store) Read(source string) (Meta, []byte, error) {
	key, err := clean(source)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	r, err := s.openRoot(false)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	defer r.Close()
	b, err := readFile(r, name(key))
	if err != nil {
		return Meta{}, nil, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	m, body, err := decode(b)
	if err == nil {
		err = checkSource(m, key)
	}
	if err != nil {
		return Meta{}, nil, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	return m, body, nil
}

// ReadMeta returns the front matter of source's artifact without reading
// its body; errors are as for Read.
func (s *Store) ReadMeta(source string) (Meta, error) {
	key, err := clean(source)
	if err != nil {
		return Meta{}, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	r, err := s.openRoot(false)
	if err != nil {
		return Meta{}, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	defer r.Close()
	m, err := readMeta(r, name(key), key)
	if err != nil {
		return Meta{}, fmt.Errorf("artifacts: read %s: %w", source, err)
	}
	return m, nil
}

// Status returns the status of source's artifact given the source's
// fingerprint now: Missing when there is none, else Meta.StatusFor. It reads
// the front matter only. On error the status is "".
func (s *Store) Status(source string, now Fingerprint) (Status, error) {
	m, err := s.ReadMeta(source)
	if errors.Is(err, fs.ErrNotExist) {
		return Missing, nil
	}
	if err != nil {
		return "", err
	}
	return m.StatusFor(now), nil
}

// Remove deletes source's artifact, for a source that was deleted, and the
// directories of .artifacts it leaves empty. Removing an artifact that does
// not exist is not an error.
func (s *Store) Remove(source string) error {
	key, err := clean(source)
	if err != nil {
		return fmt.Errorf("artifacts: remove %s: %w", source, err)
	}
	mu := s.lock(key)
	mu.Lock()
	defer mu.Unlock()
	r, err := s.openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("artifacts: remove %s: %w", source, err)
	}
	defer r.Close()
	file := name(key)
	if fi, err := r.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("artifacts: remove %s: %w", source, err)
	} else if fi.IsDir() {
		return fmt.Errorf("artifacts: remove %s: %s is a directory", source, file)
	}
	if err := r.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("artifacts: remove %s: %w", source, err)
	}

	s.tree.Lock()
	defer s.tree.Unlock()
	for dir := filepath.Dir(file); dir != "."; dir = filepath.Dir(dir) {
		// Only real directories are pruned, never a symbolic link to one,
		// and Remove fails on a directory that is not empty.
		if fi, err := r.Lstat(dir); err != nil || !fi.IsDir() || r.Remove(dir) != nil {
			break
		}
	}
	return nil
}
