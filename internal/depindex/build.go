package depindex

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/extract"
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

// Build reads d's source and docs. It fails only when d's directory
// cannot be read or ctx ends; files that fail to parse are counted in
// Skipped.
func Build(ctx context.Context, d deps.Dep, opts Options) (*API, error) {
	opts.defaults()
	api := &API{Format: Format, Ecosystem: d.Ecosystem, Name: d.Name, Version: d.Version, Dir: d.Dir,
		Symbols: []Symbol{}, Docs: []Doc{}}
	all, err := listFiles(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	sources := publicSources(all)
	if len(sources) > opts.MaxFiles {
		api.Skipped += len(sources) - opts.MaxFiles
		sources = sources[:opts.MaxFiles]
	}
	e, err := extract.New(d.Dir, extract.Options{Workers: opts.Workers})
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	defer e.Close()
	files, skipped, err := e.Files(ctx, sources)
	if err != nil {
		return nil, fmt.Errorf("depindex %s: %w", d.ID(), err)
	}
	api.Files, api.Skipped = len(files), api.Skipped+len(skipped)
	for _, f := range files {
		for _, s := range f.Symbols {
			if !s.Exported || s.Kind == extract.KindModule || s.Kind == extract.KindNamespace || privateParent(f.Language, s.Parent) {
				continue
			}
			api.Symbols = append(api.Symbols, Symbol{Qualified: s.Qualified, Kind: string(s.Kind),
				Signature: s.Signature, Doc: s.Doc, Path: f.Path, Line: s.StartLine})
		}
	}
	sort.Slice(api.Symbols, func(i, j int) bool {
		a, b := api.Symbols[i], api.Symbols[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	api.Docs = readDocs(d, all, opts.MaxDocBytes)
	return api, nil
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
// for a Python distribution its top-level packages and modules.
func listFiles(ctx context.Context, d deps.Dep) ([]string, error) {
	var out []string
	for _, r := range d.Roots {
		abs := filepath.Join(d.Dir, filepath.FromSlash(r))
		fi, err := os.Stat(abs)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			out = append(out, r)
			continue
		}
		files, _, err := extract.Walk(ctx, abs, extract.WalkOptions{NoIgnoreFiles: true})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			out = append(out, path.Join(r, f))
		}
	}
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

// readDocs keeps d's READMEs and the prose under its docs directories,
// and a Python distribution's long description from its METADATA, up to
// limit bytes in all.
func readDocs(d deps.Dep, all []string, limit int) []Doc {
	var out []Doc
	add := func(rel, format string) {
		data, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(rel)))
		if path.Base(rel) == "METADATA" { // headers, a blank line, the long description
			if i := strings.Index(string(data), "\n\n"); i >= 0 {
				data = data[i+2:]
			}
		}
		if err != nil || len(data) == 0 || len(data) > limit {
			return
		}
		limit -= len(data)
		out = append(out, Doc{Path: rel, Format: format, Text: string(data)})
	}
	for _, p := range all {
		base := strings.ToLower(path.Base(p))
		format := docFormat(base)
		if format == "" {
			continue
		}
		top := !strings.Contains(strings.TrimPrefix(p, "./"), "/")
		underDocs := strings.HasPrefix(p, "docs/") || strings.HasPrefix(p, "doc/")
		if (top && strings.HasPrefix(base, "readme")) || underDocs {
			add(p, format)
		}
	}
	if d.Ecosystem == deps.Python {
		if meta := pythonMetadata(d); meta != "" {
			add(meta, "markdown")
		}
	}
	return out
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
// relative to d.Dir, or "".
func pythonMetadata(d deps.Dep) string {
	infos, _ := filepath.Glob(filepath.Join(d.Dir, "*-"+d.Version+".dist-info"))
	for _, info := range infos {
		name := strings.TrimSuffix(filepath.Base(info), "-"+d.Version+".dist-info")
		if normalize(name) == normalize(d.Name) {
			return filepath.Base(info) + "/METADATA"
		}
	}
	return ""
}

func normalize(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "-", ".", "-").Replace(name))
}
