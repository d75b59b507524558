package extract

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
)

// Built JavaScript.
//
// A compiler or bundler (tsc, Babel, webpack, esbuild, browserify) that
// writes a source map ends its output with a comment naming the map:
// `//# sourceMappingURL=index.js.map`, or the map itself inline as a
// data: URL. When the files the map names as its sources are in the
// repository, the output is a second copy of them, worse to read: its
// functions would stand beside the originals in search and take their
// calls in the graph. Extraction passes such a file over with a reason
// naming the sources (unless Options.KeepMinified); one whose sources
// are not here (a package that ships only its build) is the only copy
// of that code and is extracted as any other.

const (
	// mapTail is how much of a file's end the sourceMappingURL comment is
	// looked for in: the comment is the last line, and a tool may add a
	// newline or two after it.
	mapTail = 512
	// maxSourceMap is the most of a map file read to find its sources:
	// "sources" comes before the mappings and the sources' contents in
	// every map tools write, so the key is met long before the cap.
	maxSourceMap = 8 << 20
)

// builtFrom returns why the file at slash path rel, holding src, is the
// build of sources in the repository, or "" when it is not (or not of
// JavaScript or a dialect, lang) or cannot be told: "built from 12 files in the repository, by its
// source map (dist/a.js.map): src/a.ts, …". Every
// source must be a regular file under the root, outside node_modules,
// other than rel itself: a bundle that holds a dependency's code (mocha's
// mocha.js holds node's stream polyfill) is the repository's only copy
// of that code. Files are read through the root only.
func (e *Extractor) builtFrom(rel string, lang *Language, src []byte) string {
	if !jsLike(lang) {
		return ""
	}
	ref := sourceMapRef(src)
	if ref == "" {
		return ""
	}
	mapRel, sources, err := e.readSourceMap(rel, ref)
	if err != nil {
		return ""
	}
	var here []string
	for _, s := range sources {
		cands, ok := mapSourcePaths(path.Dir(mapRel), s)
		if !ok {
			continue // the bundler's own runtime
		}
		found := ""
		for _, p := range cands {
			if st, err := e.dir.Stat(p); p != rel && err == nil && st.Mode().IsRegular() {
				found = p
				break
			}
		}
		if found == "" {
			return ""
		}
		here = append(here, found)
	}
	if len(here) == 0 {
		return ""
	}
	where := "inline"
	if mapRel != rel {
		where = mapRel
	}
	if len(here) == 1 {
		return fmt.Sprintf("built from %s, by its source map (%s)", here[0], where)
	}
	list := strings.Join(here[:min(len(here), 3)], ", ")
	if len(here) > 3 {
		list += ", …"
	}
	return fmt.Sprintf("built from %d files in the repository, by its source map (%s): %s", len(here), where, list)
}

// sourceMapRef returns the URL of the sourceMappingURL comment on the
// last line of src that is not blank ("//# " or the older "//@ "), or "".
func sourceMapRef(src []byte) string {
	tail := bytes.TrimRight(src[max(0, len(src)-mapTail):], " \t\r\n")
	line := tail[bytes.LastIndexByte(tail, '\n')+1:]
	for _, mark := range []string{"//# sourceMappingURL=", "//@ sourceMappingURL="} {
		if rest, ok := bytes.CutPrefix(bytes.TrimLeft(line, " \t"), []byte(mark)); ok {
			if i := bytes.IndexAny(rest, " \t"); i >= 0 {
				rest = rest[:i]
			}
			return string(rest)
		}
	}
	return ""
}

// readSourceMap reads the map ref names for the file at rel: inline
// (a base64 data: URL; mapRel is then rel) or a relative path under the
// root. It returns the map's path and its sources, each joined to the
// map's sourceRoot.
func (e *Extractor) readSourceMap(rel, ref string) (mapRel string, sources []string, err error) {
	var r io.Reader
	if data, ok := strings.CutPrefix(ref, "data:"); ok {
		meta, payload, ok := strings.Cut(data, ",")
		if !ok || !strings.HasSuffix(meta, ";base64") {
			return "", nil, errors.New("a data: URL that is not base64")
		}
		raw, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return "", nil, err
		}
		mapRel, r = rel, bytes.NewReader(raw)
	} else {
		p, err := url.PathUnescape(ref)
		if err != nil || strings.Contains(p, "://") || path.IsAbs(p) {
			return "", nil, errors.New("not a relative path")
		}
		mapRel = path.Join(path.Dir(rel), p)
		if !fs.ValidPath(mapRel) {
			return "", nil, errors.New("outside the root")
		}
		f, err := e.dir.Open(mapRel)
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		r = f
	}
	sources, err = mapSources(io.LimitReader(r, maxSourceMap))
	return mapRel, sources, err
}

// mapSources reads a source map's "sources", each joined to its
// "sourceRoot" when that comes first (as tools write it), skipping the
// values of other keys without keeping them.
func mapSources(r io.Reader) ([]string, error) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	root := ""
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t {
		case "sourceRoot":
			if err := dec.Decode(&root); err != nil {
				return nil, err
			}
		case "sources":
			var sources []string
			if err := dec.Decode(&sources); err != nil {
				return nil, err
			}
			if root != "" {
				for i, s := range sources {
					sources[i] = strings.TrimSuffix(root, "/") + "/" + s
				}
			}
			return sources, nil
		default:
			if err := skipValue(dec); err != nil {
				return nil, err
			}
		}
	}
	return nil, nil
}

// skipValue reads past the next JSON value of dec, token by token, so
// that a large one (the sources' contents) is not held.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// mapSourcePaths returns the slash paths under the root that a map's
// source s may name, the map being in directory dir, most likely first,
// and false for a source that is no file of anyone's (the bundler's own
// runtime, "webpack/bootstrap"). A path is relative to the map; a
// bundler's "webpack://name/./lib/a.js" is relative to the bundler's
// context, a directory at or above the map's, so each is a candidate.
// None is given for other URLs, paths out of the root and dependencies
// (node_modules): such a source is not in the repository.
func mapSourcePaths(dir, s string) ([]string, bool) {
	dirs := []string{dir}
	if rest, ok := strings.CutPrefix(s, "webpack://"); ok {
		_, s, _ = strings.Cut(rest, "/") // the package's name
		if strings.HasPrefix(s, "webpack/") {
			return nil, false
		}
		for d := dir; d != "."; {
			d = path.Dir(d)
			dirs = append(dirs, d)
		}
	} else if strings.Contains(s, "://") || strings.HasPrefix(s, "/") {
		return nil, true
	}
	var out []string
	for _, d := range dirs {
		p := path.Join(d, s)
		if !fs.ValidPath(p) || p == "." || strings.Contains("/"+p+"/", "/node_modules/") {
			continue
		}
		out = append(out, p)
	}
	return out, true
}
