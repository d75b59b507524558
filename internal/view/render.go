package view

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// maxHighlight is the largest source highlighted; a larger one is shown
// as plain numbered text. Chroma's regexp lexers are the cost: on the
// shared 2-core test machine (load ~19) a 33 KB Go file tokenised in
// 85-185 ms and formatted in 17-24 ms (BenchmarkHighlight: 0.08 MB/s end
// to end), so 256 KB takes 0.7-1.4 s under such load; the page asks
// again on every change, so results are cached (see highlightCache).
const maxHighlight = 256 << 10

// chromaStyle is the highlighting style the page's stylesheet carries.
const chromaStyle = "github"

var (
	// markdown renders CommonMark with GitHub's tables, strikethrough,
	// autolinks and task lists. Raw HTML is escaped and dangerous links
	// (javascript:) dropped: artifacts are written by a model.
	markdown = goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	formatter = chtml.New(
		chtml.WithClasses(true),
		chtml.WithLineNumbers(true),
		chtml.LineNumbersInTable(true),
		chtml.WithLinkableLineNumbers(true, "L"),
		chtml.TabWidth(4),
	)
	chromaCSS = sync.OnceValue(func() []byte {
		var b bytes.Buffer
		if err := formatter.WriteCSS(&b, styles.Get(chromaStyle)); err != nil {
			panic(err) // writes to a buffer, from a built-in style
		}
		return b.Bytes()
	})
)

// renderMarkdown returns md as HTML.
func renderMarkdown(md string) (string, error) {
	var b bytes.Buffer
	if err := markdown.Convert([]byte(md), &b); err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return b.String(), nil
}

// highlightCache keeps the last files highlighted, by path, language and
// content: the page fetches its file again on every workspace change.
var highlightCache = struct {
	sync.Mutex
	m map[cacheKey]string
}{m: map[cacheKey]string{}}

// maxCached bounds highlightCache: at most 64 files of at most
// maxHighlight bytes, ~20× that in HTML.
const maxCached = 64

type cacheKey struct {
	path, language string
	sum            [sha256.Size]byte
}

// highlightCached is highlight through highlightCache.
func highlightCached(path, language, text string) (string, error) {
	k := cacheKey{path, language, sha256.Sum256([]byte(text))}
	highlightCache.Lock()
	out, ok := highlightCache.m[k]
	highlightCache.Unlock()
	if ok {
		return out, nil
	}
	out, err := highlight(path, language, text)
	if err != nil {
		return "", err
	}
	highlightCache.Lock()
	defer highlightCache.Unlock()
	if len(highlightCache.m) >= maxCached {
		for old := range highlightCache.m { // any one: maps iterate at random
			delete(highlightCache.m, old)
			break
		}
	}
	highlightCache.m[k] = out
	return out, nil
}

// highlight returns text, the content of the file at path in language,
// as HTML: a table of linkable line numbers (ids L1, L2, ...) and
// highlighted code, with chroma's CSS classes.
func highlight(path, language, text string) (string, error) {
	lexer := lexerFor(path, language, text)
	if len(text) > maxHighlight {
		lexer = lexers.Get("plaintext")
	}
	lexer = chroma.Coalesce(lexer)
	it, err := lexer.Tokenise(nil, text)
	if err != nil {
		return plain(text), nil
	}
	var b bytes.Buffer
	if err := formatter.Format(&b, styles.Get(chromaStyle), it); err != nil {
		return "", fmt.Errorf("highlight %s: %w", path, err)
	}
	return b.String(), nil
}

// lexerFor picks chroma's lexer for a file: by its name, then by the
// language extraction gave it, then by its content.
func lexerFor(path, language, text string) chroma.Lexer {
	if l := lexers.Match(path); l != nil {
		return l
	}
	if l := lexers.Get(language); l != nil {
		return l
	}
	if l := lexers.Analyse(text); l != nil {
		return l
	}
	return lexers.Fallback
}

// plain is text as escaped preformatted HTML.
func plain(text string) string {
	return "<pre>" + html.EscapeString(strings.ToValidUTF8(text, "\uFFFD")) + "</pre>"
}
