package depindex

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// Options bound the work of Build. The zero value uses the defaults.
type Options struct {
	// MaxFiles caps the source files read, largest APIs first cut; 0
	// means 5,000.
	MaxFiles int
	// MaxDocBytes caps the prose kept; 0 means 4 MB.
	MaxDocBytes int
	// Workers bounds parallel parsing; 0 means GOMAXPROCS.
	Workers int
}

func (o *Options) defaults() {
	if o.MaxFiles <= 0 {
		o.MaxFiles = 5000
	}
	if o.MaxDocBytes <= 0 {
		o.MaxDocBytes = 4 << 20
	}
}

// sourceLimit caps one source file of a dependency, as extraction does.
var sourceLimit = bounded.Limit{Kind: "source file", Max: extract.DefaultMaxFileSize}

// Build reads d's source and docs, every file through a root handle on
// d.Dir (nothing outside it is reached, whatever links it holds) and the
// bounded reader (no FIFO, device or link as the last element, a cap per
// file). The API's Digest is of exactly the bytes read (see digest). It
// fails only when d's directory cannot be read or ctx ends; files that
// cannot be read or parsed are counted in Skipped.
func Build(ctx context.Context, d deps.Dep, opts Options) (*API, error) {
	opts.defaults()
	s, err := open(ctx, d, opts)
	if err != nil {
		return nil, err
	}
	defer s.close()
	api := &API{Format: Format, Ecosystem: d.Ecosystem, Name: d.Name, Version: d.Version, Dir: d.Dir,
		Integrity: d.Integrity, Symbols: []Symbol{}, Docs: []Doc{}, Skipped: s.cut}
	e, err := extract.New(d.Dir, extract.Options{Workers: opts.Workers})
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	defer e.Close()
	files := make([]*extract.File, len(s.sources))
	sums, err := s.readSources(ctx, func(i int, src []byte) {
		if f, err := e.Source(ctx, s.sources[i], src); err == nil {
			files[i] = f
		}
	})
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	for _, f := range files {
		if f == nil {
			api.Skipped++
			continue
		}
		api.Files++
		for _, sym := range f.Symbols {
			if !sym.Exported || sym.Kind == extract.KindModule || sym.Kind == extract.KindNamespace || privateParent(f.Language, sym.Parent) {
				continue
			}
			api.Symbols = append(api.Symbols, Symbol{Qualified: sym.Qualified, Kind: string(sym.Kind),
				Signature: sym.Signature, Doc: sym.Doc, Path: f.Path, Line: sym.StartLine})
		}
	}
	sort.Slice(api.Symbols, func(i, j int) bool {
		a, b := api.Symbols[i], api.Symbols[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	var docSums []string
	api.Docs, docSums = s.readDocs(opts.MaxDocBytes)
	api.Digest = s.digest(sums, docSums)
	return api, nil
}

// Digest is the digest Build would give d's API now (API.Digest): it
// reads the same files, and hashes them, without parsing. The cache is
// keyed by it, so that what is served was built from the bytes on disk.
func Digest(ctx context.Context, d deps.Dep, opts Options) (string, error) {
	opts.defaults()
	s, err := open(ctx, d, opts)
	if err != nil {
		return "", err
	}
	defer s.close()
	sums, err := s.readSources(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	_, docSums := s.readDocs(opts.MaxDocBytes)
	return s.digest(sums, docSums), nil
}

// source is what Build reads of one dependency: its files, listed once,
// and a root handle on its directory through which they are read.
type source struct {
	d       deps.Dep
	root    *os.Root
	workers int
	all     []string // every file under d's roots, sorted slash paths relative to d.Dir
	sources []string // the public sources, at most MaxFiles of them
	cut     int      // public sources left out by MaxFiles
	docs    []string // the prose documents, in the order they are kept
}

// open lists d's files and picks its sources and docs.
func open(ctx context.Context, d deps.Dep, opts Options) (*source, error) {
	root, err := os.OpenRoot(d.Dir)
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	s := &source{d: d, root: root, workers: opts.Workers}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if s.all, err = listFiles(ctx, root, d); err != nil {
		root.Close()
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	s.sources = publicSources(s.all)
	if len(s.sources) > opts.MaxFiles {
		s.cut = len(s.sources) - opts.MaxFiles
		s.sources = s.sources[:opts.MaxFiles]
	}
	s.docs = docFiles(root, d, s.all)
	return s, nil
}

func (s *source) close() { s.root.Close() }

// readSources reads every source in parallel, at most s.workers at once,
// and returns each one's sum (see fileSum). use, when set, is called with
// the bytes of each that was read, from the reading goroutine.
func (s *source) readSources(ctx context.Context, use func(i int, src []byte)) ([]string, error) {
	sums := make([]string, len(s.sources))
	order := make([]int, len(s.sources))
	for i := range order {
		order[i] = i
	}
	if use != nil { // largest first, so that no big parse starts last and leaves a worker idle
		size := make([]int64, len(s.sources))
		for i, p := range s.sources {
			if fi, err := s.root.Lstat(filepath.FromSlash(p)); err == nil {
				size[i] = fi.Size()
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.workers) // parsing is CPU-bound; reading and hashing nearly so
	for _, i := range order {
		p := s.sources[i]
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if use == nil { // hashed as it is read, never held whole
				sums[i] = hashFile(s.root, filepath.FromSlash(p), sourceLimit)
				return nil
			}
			data, err := bounded.ReadFileIn(s.root, filepath.FromSlash(p), sourceLimit)
			sums[i] = fileSum(data, err)
			if err == nil {
				use(i, data)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return sums, ctx.Err()
}

// fileSum is the hex SHA-256 of a file's bytes, or "!" and why it could
// not be read. The reason leaves the file's path out: the same version
// in two directories has the same sums.
func fileSum(data []byte, err error) string {
	if err != nil {
		var skip *bounded.SkipError
		if errors.As(err, &skip) {
			return "!" + skip.Reason
		}
		return "!unreadable"
	}
	return fmt.Sprintf("%x", sha256.Sum256(data))
}

// hashFile is fileSum of the file at name in root, read through the
// bounded reader in pieces.
func hashFile(root *os.Root, name string, lim bounded.Limit) string {
	f, _, err := bounded.OpenIn(root, name, lim)
	if err != nil {
		return fileSum(nil, err)
	}
	defer f.Close()
	h := sha256.New()
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	n, err := io.CopyBuffer(h, io.LimitReader(f, lim.Max+1), *bp)
	switch {
	case err != nil:
		return fileSum(nil, &bounded.SkipError{Reason: err.Error()})
	case n > lim.Max:
		return fileSum(nil, &bounded.SkipError{Reason: fmt.Sprintf("grew over the %d-byte limit of a %s while it was read", lim.Max, lim.Kind)})
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// copyBuffers hold hashFile's read buffers.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// digest is "sha256:" and the hex SHA-256 of the lines
//
//	fileinfo depindex <Format>
//	integrity <the lockfile's integrity of the version>
//	src <path> <sum>      for each source read, in path order
//	doc <path> <sum>      for each document read, in the order kept
//
// where a sum is fileSum's: two directories holding the same bytes at the
// same paths have one digest, and any byte changed in a file that the
// API is made of changes it. Paths hold no newline (they come from a
// directory listing; one with a newline is refused by the walk's caller).
func (s *source) digest(srcSums, docSums []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "fileinfo depindex %d\nintegrity %s\n", Format, strings.ReplaceAll(s.d.Integrity, "\n", " "))
	for i, p := range s.sources {
		fmt.Fprintf(h, "src %s %s\n", p, srcSums[i])
	}
	for i, p := range s.docs {
		fmt.Fprintf(h, "doc %s %s\n", p, docSums[i])
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}

// privateParent reports whether a member's enclosing type is private:
// a Go type of lower-case name, or any name with a leading underscore.
func privateParent(lang, parent string) bool {
	if parent == "" {
		return false
	}
	if strings.HasPrefix(parent, "_") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(parent)
	return lang == "go" && !unicode.IsUpper(r)
}

// listFiles lists d's files relative to d.Dir: the whole directory, or
// for a Python distribution its top-level packages and modules. A root
// must be a local path that resolves inside d.Dir; a path with a newline
// is left out (it could not be told apart in the digest).
func listFiles(ctx context.Context, root *os.Root, d deps.Dep) ([]string, error) {
	var out []string
	for _, r := range d.Roots {
		if !filepath.IsLocal(filepath.FromSlash(r)) {
			continue
		}
		fi, err := root.Stat(filepath.FromSlash(r)) // through the root: a link may not lead out
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			out = append(out, r)
			continue
		}
		files, _, err := extract.Walk(ctx, filepath.Join(root.Name(), filepath.FromSlash(r)), extract.WalkOptions{NoIgnoreFiles: true})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			out = append(out, path.Join(r, f))
		}
	}
	out = slices.DeleteFunc(out, func(p string) bool { return strings.ContainsAny(p, "\n\r") })
	sort.Strings(out)
	return out, nil
}

// nonPublicDirs are directories whose code is not a dependency's API:
// tests, fixtures, examples, benchmarks, vendored code, and Go's internal.
var nonPublicDirs = map[string]bool{
	"test": true, "tests": true, "testdata": true, "__tests__": true, "__mocks__": true, "fixtures": true,
	"internal": true, "vendor": true, "node_modules": true, "example": true, "examples": true, "_examples": true,
	"benches": true, "bench": true, "benchmark": true, "benchmarks": true, "docs": true, "doc": true,
}

var testFile = regexp.MustCompile(`(_test\.go|_test\.py|^test_.*\.py|^conftest\.py|\.(test|spec)(\.d)?\.[cm]?[jt]sx?|\.min\.js)$`)

// publicSources keeps the source files that make up the API. A package
// with TypeScript declarations is read through them alone: they carry
// the typed API and its doc comments, where the JavaScript next to them
// is often a bundle.
func publicSources(all []string) []string {
	var src, dts []string
	for _, p := range all {
		if !isPublic(p) || extract.LanguageOf(p, nil) == nil {
			continue
		}
		if strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts") {
			dts = append(dts, p)
		}
		src = append(src, p)
	}
	if len(dts) > 0 {
		return dts
	}
	return src
}

func isPublic(p string) bool {
	dirs := strings.Split(p, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if nonPublicDirs[d] {
			return false
		}
	}
	return !testFile.MatchString(dirs[len(dirs)-1])
}

// docFiles lists the prose of d to keep, in order: its READMEs and the
// prose under its docs directories, and a Python distribution's METADATA
// (its long description).
func docFiles(root *os.Root, d deps.Dep, all []string) []string {
	var out []string
	for _, p := range all {
		base := strings.ToLower(path.Base(p))
		if docFormat(base) == "" {
			continue
		}
		top := !strings.Contains(strings.TrimPrefix(p, "./"), "/")
		underDocs := strings.HasPrefix(p, "docs/") || strings.HasPrefix(p, "doc/")
		if (top && strings.HasPrefix(base, "readme")) || underDocs {
			out = append(out, p)
		}
	}
	if d.Ecosystem == deps.Python {
		if meta := pythonMetadata(root, d); meta != "" {
			out = append(out, meta)
		}
	}
	return out
}

// readDocs reads s.docs through the bounded reader, each at most
// bounded.Doc bytes, and keeps them up to limit bytes in all. It returns
// the documents kept and the sum of every one read (see fileSum).
func (s *source) readDocs(limit int) ([]Doc, []string) {
	var out []Doc
	sums := make([]string, len(s.docs))
	for i, p := range s.docs {
		data, err := bounded.ReadFileIn(s.root, filepath.FromSlash(p), bounded.Doc)
		sums[i] = fileSum(data, err)
		if err != nil {
			continue
		}
		format := docFormat(strings.ToLower(path.Base(p)))
		if path.Base(p) == "METADATA" { // headers, a blank line, the long description
			format = "markdown"
			if i := strings.Index(string(data), "\n\n"); i >= 0 {
				data = data[i+2:]
			}
		}
		if len(data) == 0 || len(data) > limit {
			continue
		}
		limit -= len(data)
		out = append(out, Doc{Path: p, Format: format, Text: string(data)})
	}
	return out, sums
}

func docFormat(base string) string {
	switch path.Ext(base) {
	case ".md", ".markdown", ".mdx":
		return "markdown"
	case ".rst":
		return "rst"
	case ".txt", "":
		if strings.HasPrefix(base, "readme") {
			return "text"
		}
	}
	return ""
}

// pythonMetadata finds the METADATA of d's dist-info in site-packages,
// relative to d.Dir, or "". It lists d.Dir through root.
func pythonMetadata(root *os.Root, d deps.Dep) string {
	entries, _ := fs.ReadDir(root.FS(), ".")
	suffix := "-" + d.Version + ".dist-info"
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), suffix)
		if ok && e.IsDir() && normalize(name) == normalize(d.Name) {
			return e.Name() + "/METADATA"
		}
	}
	return ""
}

func normalize(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "-", ".", "-").Replace(name))
}
