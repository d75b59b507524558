// Package docsearch indexes the documentation of a workspace and searches
// it. What goes in is an fs.FS (the workspace root; every read goes
// through it) and Options; what comes out is plain data: Results of a
// Search, a Doc from Fetch, DocInfo lists, Heading outlines. It never
// imports the artifact store or the extractors: artifacts are read as the
// markdown files they are.
//
// # Documents and scopes
//
// The artifacts scope is .artifacts/**/*.md; the docs scope is every other
// markdown, text, reStructuredText and HTML file (README*, docs/, ...)
// outside version control, dependency and hidden directories, what git
// ignores (.gitignore files, .git/info/exclude; ignore.go), and build
// output: a directory named build, dist, target or out is entered only
// when it holds a document source directly inside it (walk.go), as
// SQLAlchemy's doc/build does. Options.Scopes add named scopes, each a
// directory of the root or a file system of its own. YAML front matter is
// not indexed, nor are markdown's HTML comments, which Fetch does not show
// either (comment.go). Every directory and document passed over is listed with a
// reason (Skipped): binary or undecodable files, files over the size
// limit, symbolic links, FIFOs and devices (never opened to wait or read
// without end), and documents over the budget of one (5,000 headings,
// 10,000 chunks), indexed in part. Through RootFS, nothing outside the
// root is read or written, even when links are swapped in meanwhile.
//
// # Chunks
//
// A document is cut at its headings; a section longer than the limit
// (512 cl100k_base tokens by default) is cut between paragraphs, never
// inside a code block unless the block alone is over four times the
// limit. A chunk's title is its heading path; its content type is prose,
// code or api-reference; chunks of a document are numbered in order so a
// hit expands to its neighbours. HTML is read inside its main element,
// without navigation. In a chunk of code, the first sentence of its doc
// comment (lead.go) counts twice, as the heading path does.
//
// # Retrieval
//
// Lexical search is BM25 over code-aware terms (see analyze.go), with the
// whole of a compound identifier as an exact-literal term, prefix and
// typo expansion for words the vocabulary lacks; a query word also
// reaches its abbreviations and the compound it makes with the next word,
// and a language name counts as a qualifier (words.go); the terms one
// query word reaches are scored as one term. Semantic search scans the
// chunk vectors an Embedder made, kept as int8 rows, shortlisted by sign
// sketches on large indexes (sketch.go); in hybrid search its candidates
// are ranked again with the query vector moved towards the best lexical
// hits (pseudo-relevance feedback, feedback.go). The two are fused by
// reciprocal rank fusion (k = 60) over documents, each ranked by its best
// chunk, and by its page: a third list ranks the candidates whose title,
// first heading and path cover the query, and release notes, changelogs
// and dated posts (known by their structure) count less unless the query
// asks about changes (page.go). A word naming a whole scope, read from
// its front page, is a qualifier as language names are (scopename.go).
// MDX markup and reStructuredText roles are stripped before parsing
// (markup.go). The query's type (classify) sets the default limit, the
// preferred content type and how far hits expand; a Reranker can reorder
// the result. Each result has a 0-1 relevance; DefaultMinScore drops the
// weakest, and every result of a query that matched nothing (made-up
// words: matchedNothing), so such a query finds no documents.
//
// # Persistence and updates
//
// With Options.Dir the index is saved in one checksummed file (the format
// is written down in store.go) and reopened without reading unchanged
// files again; vectors are reused by the hash of the text they embed and
// made again when the Embedder's Name changes. A corrupt or old index, or
// anything but a regular file where it should be, is rebuilt; temporary
// files that killed saves left are removed (storedir.go). An index that
// cannot be saved is kept in memory, and Stats.Unsaved says why. Update takes changed or removed paths, for a file watcher.
package docsearch
