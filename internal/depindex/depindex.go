// Package depindex builds the public API and docs of one dependency
// version and keeps them in a per-user cache shared by every project.
//
// In goes a deps.Dep whose source is on disk; out comes an API: the
// exported functions, methods and types of its non-test, non-internal
// files (signature, doc comment, path and line in the dependency's
// source; bodies are left out) and its README and docs. A version is
// immutable, so an API once built is read back from the cache and never
// built again. Nothing is written outside the cache directory.
//
// On disk, each version is one file,
//
//	<cache>/<ecosystem>/<escaped name>@<version>/api.json.gz
//
// a gzip stream (whose CRC catches corruption) of one JSON API value whose
// Format must equal the Format constant; anything else is rebuilt.
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

	"github.com/fileinfo/fileinfo/internal/deps"
)

// Format is the version of the cached API encoding.
const Format = 2

// API is what a dependency version offers a project.
type API struct {
	Format    int    `json:"format"`
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	// Dir is the directory the API was read from; Symbol.Path and
	// Doc.Path are relative to it.
	Dir     string   `json:"dir"`
	Symbols []Symbol `json:"symbols"`
	Docs    []Doc    `json:"docs"`
	// Files is how many source files were read; Skipped how many were
	// left out by the limits or failed to parse.
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

// path is where d's API is kept. A name is escaped so that a scoped npm
// name ("@scope/ui") or a Go module path stays one directory.
func (c Cache) path(d deps.Dep) string {
	return filepath.Join(c.Dir, d.Ecosystem, url.PathEscape(d.Name)+"@"+url.PathEscape(d.Version), "api.json.gz")
}

// Cacheable reports whether d is an immutable version worth caching: on
// disk, and not a local directory standing in for a version.
func Cacheable(d deps.Dep) bool {
	return d.Status == deps.Present && d.Dir != "" && !strings.HasPrefix(d.Version, "(local")
}

// Load returns d's cached API; ok is false when there is none or it is
// unreadable, of another format or of another dependency.
func (c Cache) Load(d deps.Dep) (api *API, ok bool) {
	f, err := os.Open(c.path(d))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, false
	}
	var a API
	if err := json.NewDecoder(zr).Decode(&a); err != nil {
		return nil, false
	}
	// Reading to EOF checks the gzip CRC of the whole stream.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, false
	}
	if a.Format != Format || a.Ecosystem != d.Ecosystem || a.Name != d.Name || a.Version != d.Version {
		return nil, false
	}
	return &a, true
}

// Get returns d's API from the cache, building and saving it when the
// cache has none. built says whether it was built now.
func (c Cache) Get(ctx context.Context, d deps.Dep, opts Options) (api *API, built bool, err error) {
	if !Cacheable(d) {
		return nil, false, fmt.Errorf("depindex %s: not on disk at a fixed version (%s)", d.ID(), d.Status)
	}
	if a, ok := c.Load(d); ok {
		return a, false, nil
	}
	a, err := Build(ctx, d, opts)
	if err != nil {
		return nil, false, err
	}
	if err := c.save(a, d); err != nil {
		return a, true, err
	}
	return a, true, nil
}

// save writes a atomically: a temporary file in the same directory, then
// a rename, so a reader never sees half an API.
func (c Cache) save(a *API, d deps.Dep) (err error) {
	p := c.path(d)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".api-*")
	if err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zw := gzip.NewWriter(tmp)
	if err := json.NewEncoder(zw).Encode(a); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("depindex save %s: %w", d.ID(), errors.Join(err, os.Remove(tmp.Name())))
	}
	return nil
}
