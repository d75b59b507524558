package graphstore

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path"
	"runtime/debug"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// racyWindow is how recent a modification time must be for Sync not to
// trust it next time; see Sync.
const racyWindow = 2 * time.Second

// FileName is the saved state's name inside the index directory.
const FileName = "graph.bin"

// State is what Sync saves: every source file's extraction by content,
// and the graph built over them.
type State struct {
	// Key is what the extraction depends on beyond the files (the
	// fileinfo version, the options); a saved state with another key is
	// rebuilt.
	Key string
	// Files are the walked source files in walk order; Config the go.mod
	// files, whose change re-extracts everything (they set Go packages'
	// import paths).
	Files  []Entry
	Config []Entry
	// GraphSkipped are the files the call graph left out; Edges and
	// Unresolved the rest of what callgraph.Restore needs beside the
	// files.
	GraphSkipped []extract.Skipped
	Edges        []callgraph.Edge
	Unresolved   []callgraph.Unresolved
}

// Entry is one file as it was last seen: its size, modification time
// and content hash, and its extraction or the reason it has none.
type Entry struct {
	Path    string
	Size    int64
	ModTime int64  // Unix nanoseconds
	Hash    string // lower-case hex SHA-256 of the content; "" if not read
	File    *extract.File
	Skip    string
}

// Options configure Sync. Root is required.
type Options struct {
	Root string
	// Dir holds the saved state. Default Root/.artifacts/.index.
	Dir string
	// Key is what the extraction depends on beyond the files, the
	// binary's build and the options (which Sync adds itself); see
	// State.Key. Writers of one root should agree on it: serve and the
	// CLI both leave it empty, and so share the saved state.
	Key string
	// Extract configures extraction; its Read hook, if any, is called for
	// the files Sync extracts (not those it reuses).
	Extract extract.Options
	// ReadOnly loads and refreshes the state without saving it.
	ReadOnly bool
	// Each, if set, sees the pass: every file Sync extracts, and every
	// file Want asks for, a batch at a time in walk order, with the bytes
	// it was extracted from, which are dropped once Each returns. So one
	// extraction feeds both the saved graph and, say, the code index.
	// Passed, if set, is called once the last batch was passed, before
	// the graph is built. An error of either stops Sync.
	Each   func(context.Context, []Extracted) error
	Passed func(context.Context) error
	// Want, if set with Each, is asked about every source file, in walk
	// order, with its size and modification time: true passes it to Each
	// even when Sync reuses its saved extraction (which it then does not
	// extract again). Files Sync extracts are passed whatever it says.
	Want func(path string, size, modTime int64) bool
	// Batch is how many files are extracted at a time. Default
	// DefaultBatch.
	Batch int
	// Discard says the caller wants the saved files, not the Snapshot's
	// files or graph: once graph.bin is saved, Sync lets go of them
	// before it writes symbols.idx, and the Snapshot it returns has no
	// Files (Graph returns nil) when it saved, or when it built the graph
	// to save it (callgraph.BuildToSave) and could not. For `fileinfo index`.
	Discard bool
	// Hold keeps every file's extraction on the heap until the graph is
	// built. By default, when Sync is to build and save a graph, each
	// batch's entries go to a run file beside graph.bin (see spill.go)
	// and are read back for the build: the pass then holds one batch.
	Hold bool
	// Lazy asks for the files' extractions to stay in graph.bin when
	// nothing changed: the Snapshot's Files then hold each file's path,
	// language, module and test flag (see Bare), Graph reads the files'
	// symbols with the graph's edges when first called (Files are then
	// slim: see Slim), and Extractions reads the rest of one file when
	// asked. For a server, which would otherwise hold every extraction
	// for as long as it runs (the Linux kernel's: 1 GB). The load decodes
	// the files slim (a Sync that extracts reads the ones it reuses whole
	// again). Ignored with Discard or Each.
	Lazy bool
	// Log receives a line when a saved state is rebuilt. Default: discard.
	Log *slog.Logger
}

// extractedHook, set by tests, hears that Sync closed its extractor;
// buildHook, the files it builds the graph over; checkedHook, the saved
// state as the check leaves it.
var (
	extractedHook func()
	buildHook     func([]extract.File)
	checkedHook   func(*State)
)

// stateKey is the key of the state Sync saves with opt (see State.Key).
func stateKey(opt Options) string {
	maxSize := opt.Extract.MaxFileSize
	if maxSize <= 0 {
		maxSize = extract.DefaultMaxFileSize
	}
	return fmt.Sprintf("%s; build %s; max %d bytes; languages %v", opt.Key, buildKey(), maxSize, opt.Extract.Languages)
}

// selectSources splits the walked paths into the go.mod files (config),
// the source files extraction is to read, and those it leaves out (of
// an unknown language, or of a language not in langs when it is set).
func selectSources(paths, langs []string) (config, sources []string, skipped []extract.Skipped) {
	var selected map[string]bool
	if len(langs) > 0 {
		selected = map[string]bool{}
		for _, l := range langs {
			selected[l] = true
		}
	}
	for _, p := range paths {
		if path.Base(p) == "go.mod" {
			config = append(config, p)
		}
		switch l := extract.LanguageOf(p, nil); {
		case extract.UnknownByName(p):
			skipped = append(skipped, extract.Skipped{Path: p, Reason: "unknown language"})
			continue
		case l != nil && selected != nil && !selected[l.Name]:
			skipped = append(skipped, extract.Skipped{Path: p, Reason: "language " + l.Name + " not selected"})
			continue
		}
		sources = append(sources, p)
	}
	return config, sources, skipped
}

// buildKey names the running binary: its module version and VCS
// revision, marked when built from a modified tree, and the time its
// executable was written. A build without VCS data (-buildvcs=false, go
// run) is "(devel)" whatever its code, so without the time a rebuilt
// binary, its extraction or resolution changed, reused the graph the
// last one saved; codeindex's build stamp names it the same way.
func buildKey() string { return buildKeyOnce() }

var buildKeyOnce = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	k := bi.Main.Version
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			k += " " + s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			k += " modified"
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			k += " " + st.ModTime().UTC().Format(time.RFC3339Nano)
		}
	}
	return k
})

// forgetRacy clears the saved time of the entries modified within
// racyWindow of start: such a file may change again with the same size
// and time stamp (file systems stamp at clock-tick granularity), so next
// time its content is hashed, as git does for racily clean files. An
// entry asRead vouches for keeps its time.
func forgetRacy(es []Entry, start time.Time, asRead func(*Entry) bool) {
	for i := range es {
		if es[i].ModTime > start.Add(-racyWindow).UnixNano() && !asRead(&es[i]) {
			es[i].ModTime = 0
		}
	}
}

func byPath(es []Entry) map[string]*Entry {
	m := make(map[string]*Entry, len(es))
	for i := range es {
		m[es[i].Path] = &es[i]
	}
	return m
}

// statChanged reports whether only the stat data of some file changed
// (touched, same content): worth saving so the next Sync need not hash it.
func statChanged(st, old *State) bool {
	if len(st.Files) != len(old.Files) || len(st.Config) != len(old.Config) {
		return true
	}
	for i := range st.Files {
		if st.Files[i].ModTime != old.Files[i].ModTime {
			return true
		}
	}
	for i := range st.Config {
		if st.Config[i].ModTime != old.Config[i].ModTime || st.Config[i].Hash != old.Config[i].Hash {
			return true
		}
	}
	return false
}
