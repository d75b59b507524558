package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// DefaultMaxFileSize is the size above which files are skipped.
const DefaultMaxFileSize = 2 << 20

// Options configure an Extractor. The zero value is ready to use.
type Options struct {
	// MaxFileSize is the largest file extracted, in bytes.
	// Default DefaultMaxFileSize (2 MB).
	MaxFileSize int64
	// Workers bounds parallel parsing. Default runtime.GOMAXPROCS(0):
	// parsing is CPU-bound. 1 gives a serial path for profiling.
	Workers int
	// Walk configures the repository walk of All.
	Walk WalkOptions
	// Languages, if set, limits extraction to these languages (names as
	// in Languages()); files of others are skipped.
	Languages []string
	// Read, if set, is called with the path and bytes of every file that
	// File, Files and All read and extract without error, from the
	// goroutine that extracted it (so it must be safe for concurrent
	// use); src must not be modified. It lets a caller record what each
	// File was extracted from without reading the file again.
	Read func(rel string, src []byte)
	// Extracted, if set, is called with every file File, Files and All
	// extract without error, from the goroutine that extracted it (so it
	// must be safe for concurrent use); f must not be modified. It lets a
	// caller answer from the files extracted so far, before all are.
	Extracted func(f *File)
	// KeepMinified extracts minified files too, which are otherwise
	// passed over with a SkipError whose Minified is set (see Minified),
	// and built files whose sources are in the repository (see builtFrom).
	KeepMinified bool
	// Progress, if set, is called after each file that Files, All or
	// Each has tried (extracted or skipped) with how far they have got.
	// All and Files call it from their workers (so it must be safe for
	// concurrent use), Each from its caller's goroutine.
	Progress func(Progress)
}

// Progress is how far Files, All or Each has got: files tried (extracted
// or skipped) of those to try, and their bytes (by size before reading).
// All and Files try the largest files first, so bytes go faster than
// files at the start.
type Progress struct {
	Done, Total int
	Read, Size  int64
}

// SkipError says why a file was not extracted: binary, too large, an
// unknown language, minified, or outside the workspace.
type SkipError struct {
	Path   string
	Reason string
	// Minified says the file was passed over as minified (see
	// Minified): Summarize tells what it is instead.
	Minified bool
}

func (e *SkipError) Error() string { return fmt.Sprintf("skip %s: %s", e.Path, e.Reason) }

// An Extractor extracts files under one root. It is safe for concurrent
// use; Close releases its parsers.
type Extractor struct {
	root string   // absolute, symlinks resolved
	dir  *os.Root // root, through which every file is read
	opt  Options
	proj *project
	free chan *worker
	only map[*Language]bool // nil: every language
	// parseAll parses even the files a language's plain hook accepts:
	// the tests compare the two.
	parseAll bool

	stats stats
}

// worker owns one parser per language and a query cursor; a worker is used
// by one goroutine at a time, and trees never leave it.
type worker struct {
	parsers map[*Language]*sitter.Parser
	qc      *sitter.QueryCursor
	ctoks   []cToken // C's text repairs lex into it (fileInfo.cTextRepairs)
}

func (w *worker) close() {
	for _, p := range w.parsers {
		p.Close()
	}
	w.qc.Close()
}

// New returns an Extractor for the directory root.
func New(root string, opt Options) (*Extractor, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("extract root %s: %w", root, err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("extract root %s: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("extract root %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("extract root %s: not a directory", root)
	}
	if opt.MaxFileSize <= 0 {
		opt.MaxFileSize = DefaultMaxFileSize
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	dir, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("extract root %s: %w", root, err)
	}
	e := &Extractor{root: abs, dir: dir, opt: opt, proj: newProject(abs, dir), free: make(chan *worker, opt.Workers)}
	if len(opt.Languages) > 0 {
		e.only = map[*Language]bool{}
		for _, name := range opt.Languages {
			l := languages[name]
			if l == nil {
				return nil, fmt.Errorf("unknown language %q; known: %s", name, strings.Join(Languages(), ", "))
			}
			e.only[l] = true
		}
	}
	return e, nil
}

// selected reports whether files of l are extracted.
func (e *Extractor) selected(l *Language) bool {
	return e.only == nil || e.only[l]
}

// Root returns the absolute root directory.
func (e *Extractor) Root() string { return e.root }

// Close releases the pooled parsers, and hands the C heap's free pages
// back to the system (releaseCMemory). The Extractor stays usable.
func (e *Extractor) Close() {
	for {
		select {
		case w := <-e.free:
			w.close()
		default:
			releaseCMemory()
			return
		}
	}
}

func (e *Extractor) getWorker() *worker {
	select {
	case w := <-e.free:
		return w
	default:
		qc := sitter.NewQueryCursor()
		limitCursor(qc)
		return &worker{parsers: map[*Language]*sitter.Parser{}, qc: qc}
	}
}

func (e *Extractor) putWorker(w *worker) {
	select {
	case e.free <- w:
	default:
		w.close()
	}
}

// Rel turns p — relative to the root, or absolute — into a clean slash path
// relative to the root. It fails for paths outside the root, including
// through symlinks.
func (e *Extractor) Rel(p string) (string, error) {
	return e.rel(p, nil)
}

// rel is Rel, with the real paths of directories taken from dirs when it
// is not nil (see realDirs).
func (e *Extractor) rel(p string, dirs *realDirs) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(e.root, filepath.FromSlash(p))
	}
	abs = filepath.Clean(abs)
	if !insideRoot(e.root, abs) {
		// The root may have been given through a symlink.
		if resolved, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(resolved, filepath.Base(abs))
		}
		if !insideRoot(e.root, abs) {
			return "", &SkipError{Path: p, Reason: "outside the workspace " + e.root}
		}
	}
	if real, err := dirs.evalSymlinks(abs); err == nil && !insideRoot(e.root, real) {
		return "", &SkipError{Path: p, Reason: "symlink escapes the workspace"}
	}
	rel, err := filepath.Rel(e.root, abs)
	if err != nil || rel == "." {
		return "", &SkipError{Path: p, Reason: "not a file in the workspace"}
	}
	return filepath.ToSlash(rel), nil
}

// File extracts one file, given relative to the root or absolute. Files
// that cannot be extracted return a *SkipError.
func (e *Extractor) File(ctx context.Context, p string) (*File, error) {
	rel, err := e.Rel(p)
	if err != nil {
		return nil, err
	}
	return e.file(ctx, rel)
}

// file extracts the file at rel, a clean slash path already known to be
// inside the root.
func (e *Extractor) file(ctx context.Context, rel string) (*File, error) {
	src, err := e.read(rel)
	if err != nil {
		return nil, err
	}
	f, err := e.Source(ctx, rel, src)
	if err == nil && e.opt.Read != nil {
		e.opt.Read(rel, src)
	}
	if err == nil && e.opt.Extracted != nil {
		e.opt.Extracted(f)
	}
	return f, err
}

// read loads a file, refusing non-regular and oversized files. It
// reads through the root handle (see ReadRegular): a symbolic link
// swapped in after the walk cannot lead outside the root, and a FIFO
// does not block.
func (e *Extractor) read(rel string) ([]byte, error) {
	src, err := ReadRegular(e.dir, rel, e.opt.MaxFileSize)
	if err != nil {
		var skip *SkipError
		if errors.As(err, &skip) {
			return nil, err
		}
		return nil, fmt.Errorf("extract %s: %w", rel, err)
	}
	return src, nil
}

// readAll appends r's content to buf, reading at most limit bytes.
func readAll(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), int(limit))])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// parseTimeout bounds the parse of n bytes: far above the 1-10 MB/s the
// grammars parse at (a 2 MB file gets 22 s), low enough that a grammar
// that loops on broken input frees its worker. A variable for the tests:
// a deep input under -race on a loaded machine can take longer, and the
// test of the bound itself needs no seconds.
var parseTimeout = func(n int) time.Duration {
	return 2*time.Second + time.Duration(n/(100<<10))*time.Second
}

// queryTimeout bounds the CPU time of the queries over the tree of n
// bytes (see cpuBudget), a backstop only: limitCursor bounds their work,
// so the bound is far above what they take, ten times the parse's.
func queryTimeout(n int) time.Duration { return 10 * parseTimeout(n) }

// detectHead is how much of a file LanguageOf sees: a shebang needs one
// line, the C++ detect hook of a .h file needs the code past its licence.
const detectHead = 4 << 10

// binarySniff is how much of a file is searched for a NUL byte.
const binarySniff = 8000

// Source extracts src as the file at slash path rel (which picks the
// language and names the module). Syntax errors give a partial File with
// Errors set, never an error.
func (e *Extractor) Source(ctx context.Context, rel string, src []byte) (f *File, err error) {
	if bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0 {
		return nil, &SkipError{Path: rel, Reason: "binary file"}
	}
	if int64(len(src)) > e.opt.MaxFileSize {
		return nil, &SkipError{Path: rel, Reason: fmt.Sprintf("file too large (%d bytes, limit %d)", len(src), e.opt.MaxFileSize)}
	}
	lang := LanguageOf(rel, src[:min(len(src), detectHead)])
	if lang == nil {
		return nil, &SkipError{Path: rel, Reason: "unknown language"}
	}
	if !e.selected(lang) {
		return nil, &SkipError{Path: rel, Reason: "language " + lang.Name + " not selected"}
	}
	if !e.opt.KeepMinified {
		if why := Minified(rel, src); why != "" {
			return nil, &SkipError{Path: rel, Reason: why, Minified: true}
		}
		if why := e.builtFrom(rel, lang, src); why != "" {
			return nil, &SkipError{Path: rel, Reason: why}
		}
	}
	generated := generatedMark(src, lang)
	if lang.plain != nil && !e.parseAll && lang.plain(src) {
		start := time.Now()
		f := plainFile(rel, lang, generated)
		e.stats.add(lang.Name, len(src), time.Since(start))
		return f, nil
	}
	cq, err := lang.query()
	if err != nil {
		return nil, err
	}
	w := e.getWorker()
	defer func() {
		if r := recover(); r != nil {
			// A parser bug must not take the process down; the worker's
			// state is suspect, so it is dropped.
			w.close()
			f, err = nil, fmt.Errorf("extract %s: internal error: %v", rel, r)
			return
		}
		e.putWorker(w)
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := w.parsers[lang]
	if p == nil {
		p = sitter.NewParser()
		p.SetLanguage(lang.grammarOf())
		w.parsers[lang] = p
	}
	// A bound on parse time, so that no grammar bug can hang a worker.
	p.SetOperationLimit(int(parseTimeout(len(src)).Microseconds()))
	start := time.Now()
	// The parse gets no cancellable context: go-tree-sitter watches one
	// from a goroutine that can set the parser's cancel flag after the
	// parse returned, failing every later parse. Files are small; ctx is
	// checked between them.
	if lang.serial {
		lang.parseMu.Lock()
	}
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if lang.serial {
		lang.parseMu.Unlock()
	}
	if err != nil {
		// The parser's state is suspect after a timeout: drop it. Some
		// grammars (Swift) loop on some broken input; that file is skipped.
		p.Close()
		delete(w.parsers, lang)
		return nil, &SkipError{Path: rel, Reason: fmt.Sprintf("the %s parser did not finish within %v (%v)", lang.Name, parseTimeout(len(src)), err)}
	}
	parsed, sound := src, true // what tree was parsed from; whether p is fit for the next file
	if tree.RootNode().HasError() && lang.reparse != nil {
		tree, parsed, sound = reparse(p, lang, src, tree)
	}
	var errs []SyntaxError // the file's, when the tree read is a recovery's
	if sound && tree.RootNode().HasError() && lang.blankErrors && structureLost(tree.RootNode()) {
		errs = syntaxErrors(tree.RootNode())
		tree, sound = recoverErrors(p, lang, parsed, tree)
	}
	budget, done := startBudget(queryTimeout(len(src)))
	defer done()
	fi := &fileInfo{path: rel, src: src, lang: lang, proj: e.proj, generated: generated, budget: budget, ctoks: &w.ctoks, errors: errs}
	var walked []*sitter.QueryMatch
	if lang.repair != nil && sound {
		tree, walked, sound = repairTree(p, tree, fi, w.qc, cq)
	}
	if !sound {
		// A later parse of the file ran out of time: the tree before it
		// stands, and the parser goes, as after a first parse that did
		// not finish.
		p.Close()
		delete(w.parsers, lang)
	}
	defer tree.Close()
	f = run(tree, w.qc, cq, fi, walked)
	if fi.overBudget {
		return nil, &SkipError{Path: rel, Reason: fmt.Sprintf("its structure is too deep to extract within %v of CPU time", queryTimeout(len(src)))}
	}
	e.stats.add(lang.Name, len(src), time.Since(start))
	return f, nil
}

// Files extracts paths in parallel. Files that cannot be extracted are
// returned in skipped with the reason; err is only for ctx cancellation.
// Both lists keep the order of paths.
func (e *Extractor) Files(ctx context.Context, paths []string) (files []File, skipped []Skipped, err error) {
	dirs := &realDirs{}
	return e.files(ctx, paths, func(ctx context.Context, p string) (*File, error) {
		rel, err := e.rel(p, dirs)
		if err != nil {
			return nil, err
		}
		return e.file(ctx, rel)
	})
}

// files extracts paths with extract in parallel; see Files.
func (e *Extractor) files(ctx context.Context, paths []string, extract func(context.Context, string) (*File, error)) (files []File, skipped []Skipped, err error) {
	type result struct {
		f    *File
		skip *Skipped
	}
	results := make([]result, len(paths))
	sizes := fileSizes(e.root, paths)
	size := sum(sizes)
	var done atomic.Int64
	var read atomic.Int64
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(e.opt.Workers, max(len(paths), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f, err := extract(ctx, paths[i])
				if e.opt.Progress != nil {
					e.opt.Progress(Progress{Done: int(done.Add(1)), Total: len(paths), Read: read.Add(sizes[i]), Size: size})
				}
				if err != nil {
					results[i].skip = &Skipped{Path: paths[i], Reason: skipReason(err)}
					continue
				}
				results[i].f = f
			}
		}()
	}
	for _, i := range largestFirst(sizes) {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	files = make([]File, 0, len(paths))
	for _, r := range results {
		switch {
		case r.f != nil:
			files = append(files, *r.f)
		case r.skip != nil:
			skipped = append(skipped, *r.skip)
		}
	}
	return files, skipped, nil
}

// largestFirst returns the indexes of sizes, largest first, so that no
// big file starts last and leaves the other workers idle. Files that
// cannot be stat'ed (size 0) keep their place at the end.
func largestFirst(size []int64) []int {
	order := make([]int, len(size))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return order
}

// All walks the root and extracts every file of a known language; files of
// unknown languages are skipped without being read.
func (e *Extractor) All(ctx context.Context) (files []File, skipped []Skipped, err error) {
	todo, skipped, err := e.plan(ctx)
	if err != nil {
		return nil, nil, err
	}
	// Walk's paths are clean and inside the root: no need for Rel.
	files, more, err := e.files(ctx, todo, e.file)
	if err != nil {
		return nil, nil, err
	}
	skipped = append(skipped, more...)
	sortSkipped(skipped)
	return files, skipped, nil
}

// UnknownByName reports whether All leaves the file at slash path p out
// by its name alone, without reading it: no language claims the name, and
// it has an extension (a file without one may be a script with a
// shebang).
func UnknownByName(p string) bool {
	if LanguageOf(p, nil) != nil {
		return false
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.Contains(strings.TrimPrefix(base, "."), ".")
}

func sortSkipped(s []Skipped) {
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
}
