// Package depindex builds the public API and docs of one dependency
// version and keeps them in a per-user cache shared by every project.
//
// In goes a deps.Dep whose source is on disk; out comes an API: the
// exported functions, methods and types of its non-test, non-internal
// files (signature, doc comment, path and line in the dependency's
// source; bodies are left out) and its README and docs. Every file is read
// through a root handle on the dependency's directory and the bounded
// reader. Nothing is written outside the cache directory.
//
// A name and version do not say what is on disk: node_modules can be
// patched by hand, and a poisoned package can carry a popular name and
// version. So the cache is keyed by a digest of the bytes the API was
// built from (Digest; the lockfile's integrity is one of its inputs),
// and an API is served to a project only when the files it reads now
// hash to the same digest. On disk, each API is one file,
//
//	<cache>/<ecosystem>/<escaped name>@<escaped version>/<digest hex>.json.gz
//
// in directories of mode 0700, written atomically (a temporary file, then
// a rename), owned by the user. It is a gzip stream (whose CRC catches
// corruption) of one JSON API value whose Format must equal the Format
// constant and whose ecosystem, name, version and digest must be those
// asked for; it is read with the bounded reader (a link, a FIFO or a file
// over bounded.Cache is refused). Anything else is rebuilt, never served.
package depindex

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// Format is the version of the cached API encoding and of its digest.
// 3: entries keyed by digest, API.Digest and API.Integrity.
const Format = 3

// API is what a dependency version offers a project.
type API struct {
	Format    int    `json:"format"`
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	// Digest is "sha256:" and the hex SHA-256 of what the API was built
	// from: the lockfile's integrity and every file read (see Digest).
	Digest string `json:"digest"`
	// Integrity is what the lockfile records of the version's content
	// (deps.Dep.Integrity).
	Integrity string `json:"integrity,omitempty"`
	// Dir is the directory the API was read from; Symbol.Path and
	// Doc.Path are relative to it.
	Dir     string   `json:"dir"`
	Symbols []Symbol `json:"symbols"`
	Docs    []Doc    `json:"docs"`
	// Files is how many source files were read; Skipped how many were
	// left out by the limits or failed to read or parse.
	Files   int `json:"files"`
	Skipped int `json:"skipped"`
}

// Symbol is one exported declaration.
type Symbol struct {
	Qualified string `json:"qualified"`
	Kind      string `json:"kind"`
	Signature string `json:"signature"`
	Doc       string `json:"doc,omitempty"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
}

// Doc is one prose document shipped with the dependency.
type Doc struct {
	Path   string `json:"path"`
	Format string `json:"format"` // markdown, rst or text
	Text   string `json:"text"`
}

// ID is the API's dependency key, ecosystem/name@version.
func (a *API) ID() string { return a.Ecosystem + "/" + a.Name + "@" + a.Version }

// Cache is the per-user store of built APIs.
type Cache struct {
	Dir string
}

// DefaultDir is $XDG_CACHE_HOME/fileinfo/deps, or the OS's user cache
// directory's fileinfo/deps.
func DefaultDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "fileinfo", "deps"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("depindex cache: %w", err)
	}
	return filepath.Join(d, "fileinfo", "deps"), nil
}

// entry is where the API of d with that digest is kept, relative to the
// cache directory. A name and version are escaped so that a scoped npm
// name ("@scope/ui") or a Go module path stays one directory, and ".."
// or a separator is never a path element.
func entry(d deps.Dep, digest string) string {
	return filepath.Join(escape(d.Ecosystem), escape(d.Name)+"@"+escape(d.Version),
		strings.TrimPrefix(digest, "sha256:")+".json.gz")
}

// escape makes s one path element: "/" and the like escaped, and a dot
// too when s is "." or "..".
func escape(s string) string {
	e := url.PathEscape(s)
	if e == "." || e == ".." {
		e = strings.ReplaceAll(e, ".", "%2E")
	}
	return e
}

// Cacheable reports whether d is an immutable version worth caching: on
// disk, and not a local directory standing in for a version.
func Cacheable(d deps.Dep) bool {
	return d.Status == deps.Present && d.Dir != "" && !strings.HasPrefix(d.Version, "(local")
}

// Load returns d's cached API built from the bytes that hash to digest;
// ok is false when there is none, or it is unreadable, not a regular
// file of the user's, of another format, or of another dependency or
// digest.
func (c Cache) Load(d deps.Dep, digest string) (api *API, ok bool) {
	if !validDigest(digest) {
		return nil, false
	}
	r, err := c.open(false)
	if err != nil {
		return nil, false
	}
	defer r.Close()
	f, fi, err := bounded.OpenIn(r, entry(d, digest), bounded.Cache)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if !ownedByUser(fi) {
		return nil, false
	}
	a, err := decode(io.LimitReader(f, fi.Size()))
	if err != nil || a.Format != Format || a.Ecosystem != d.Ecosystem || a.Name != d.Name || a.Version != d.Version || a.Digest != digest {
		return nil, false
	}
	return a, true
}

// decode reads one gzip-compressed API, at most bounded.Cache bytes of
// JSON, to the end of the stream (which checks its CRC).
func decode(r io.Reader) (*API, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	lr := &io.LimitedReader{R: zr, N: bounded.Cache.Max}
	var a API
	if err := json.NewDecoder(lr).Decode(&a); err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, lr); err != nil {
		return nil, err
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("over the %d-byte limit of a %s", bounded.Cache.Max, bounded.Cache.Kind)
	}
	return &a, nil
}

// validDigest reports whether s is "sha256:" and 64 hex digits.
func validDigest(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	return ok && len(hex) == 64 && strings.Trim(hex, "0123456789abcdef") == ""
}

// Get returns d's API: the cached one built from the bytes d's files
// hold now (see Digest), or else one built now and saved. built says
// whether it was built now. An API that was built but could not be
// saved comes back with the error.
func (c Cache) Get(ctx context.Context, d deps.Dep, opts Options) (api *API, built bool, err error) {
	if !Cacheable(d) {
		return nil, false, fmt.Errorf("depindex %s: not on disk at a fixed version (%s)", d.ID(), d.Status)
	}
	// With no entry of d's name and version at all, none can match: the
	// digest is left to Build, which computes it on the way.
	if c.holds(d) {
		digest, err := Digest(ctx, d, opts)
		if err != nil {
			return nil, false, err
		}
		if a, ok := c.Load(d, digest); ok {
			a.Dir = d.Dir // the same bytes, here
			return a, false, nil
		}
	}
	a, err := Build(ctx, d, opts)
	if err != nil {
		return nil, false, err
	}
	// a.Digest is of the bytes Build read: if a file changed since
	// Digest read it, the API is kept under what it was built from.
	if err := c.save(a, d); err != nil {
		return a, true, err
	}
	return a, true, nil
}

// holds reports whether the cache has a directory for d's name and
// version, where its entries are.
func (c Cache) holds(d deps.Dep) bool {
	fi, err := os.Lstat(filepath.Join(c.Dir, filepath.Dir(entry(d, "sha256:"))))
	return err == nil && fi.IsDir()
}

// open opens the cache directory, first making it (create) or making
// sure it is the user's own: a directory of another user is refused, and
// one that others may read or write is made 0700.
func (c Cache) open(create bool) (*os.Root, error) {
	if c.Dir == "" || !filepath.IsAbs(c.Dir) {
		return nil, fmt.Errorf("depindex cache %q: not an absolute directory", c.Dir)
	}
	if create {
		if err := os.MkdirAll(c.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("depindex cache: %w", err)
		}
	}
	r, err := os.OpenRoot(c.Dir)
	if err != nil {
		return nil, fmt.Errorf("depindex cache: %w", err)
	}
	fi, err := r.Stat(".")
	switch {
	case err != nil:
	case !ownedByUser(fi):
		err = errors.New("owned by another user; not used")
	case fi.Mode().Perm()&0o077 != 0:
		if cerr := r.Chmod(".", 0o700); cerr != nil {
			err = fmt.Errorf("open to other users (%v) and not made private: %w", fi.Mode().Perm(), cerr)
		}
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("depindex cache %s: %w", c.Dir, err)
	}
	return r, nil
}

// save writes a atomically under its digest: a temporary file in the
// same directory, then a rename, so a reader never sees half an API; a
// link, FIFO or directory in its place is replaced or removed first.
func (c Cache) save(a *API, d deps.Dep) (err error) {
	if !validDigest(a.Digest) {
		return fmt.Errorf("depindex save %s: digest %q is not one", d.ID(), a.Digest)
	}
	r, err := c.open(true)
	if err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	defer r.Close()
	name := entry(d, a.Digest)
	dir := filepath.Dir(name)
	if err := r.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".api-%d-%d.tmp", os.Getpid(), tmpSeq.Add(1)))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	zw := gzip.NewWriter(f)
	if err := json.NewEncoder(zw).Encode(a); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if fi, err := r.Lstat(name); err == nil && fi.IsDir() {
		r.RemoveAll(name) // a rename cannot replace a directory
	}
	if err := r.Rename(tmp, name); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	r.Remove(filepath.Join(dir, "api.json.gz")) // format 2's entry, keyed by name and version alone
	return nil
}

// tmpSeq tells apart the temporary files of one process.
var tmpSeq atomic.Int64
