// Package view serves fileinfo's web view: a local page showing a
// workspace's file tree with each file's artifact status, a file's
// artifact rendered as HTML beside its highlighted source, a symbol's
// callers and callees as an interactive graph, and a search box over
// code, docs and artifacts. The page follows changes by polling.
//
// The package sees the server only through Source, which it declares;
// internal/server implements it. Markdown is rendered with goldmark and
// source highlighted with chroma, both on the server; the page and the
// graph library it draws with (cytoscape, vendored by web/vendor.sh) are
// embedded in the binary, so the page loads nothing from the network.
//
// Routes (all GET):
//
//	/                  the page
//	/static/...        its scripts, styles and the chroma stylesheet
//	/api/tree          Tree
//	/api/file?path=    a file's source as HTML, its symbols, its artifact as HTML
//	/api/doc?path=     a document of the doc index as HTML
//	/api/graph?...     a symbol's neighbourhood (file, line, symbol, depth, dir)
//	/api/search?q=     hits in code, docs and artifacts
//	/api/version       a string that changes when the workspace does
//
// Handler guards every route as the MCP endpoint is guarded: a request
// reaching a loopback address must name a loopback host (DNS rebinding),
// and requests of a page of another origin (an Origin header, or
// Sec-Fetch-Site cross-site on anything but a link to the page) are
// refused. Every request, on every route, must carry the view's key: an
// unguessable capability (NewKey, 256 bits) that the link to the page
// carries once as ?token=KEY; the page then holds it in an HttpOnly,
// SameSite=Strict cookie and drops it from the address bar. A script may
// send it as "Authorization: Bearer KEY" instead, or send the server's
// own token that way; the server's token is refused in a URL. Keys and
// tokens are compared in constant time. Anyone on the machine can reach
// a loopback port: the key, not the address, is the door.
package view
