// Package artifacts is the .artifacts/ store of a workspace: one markdown
// file per source file, at <root>/.artifacts/<source>.md (the artifact of
// src/graph/builder.ts is .artifacts/src/graph/builder.ts.md). What goes in
// is a source path, a Meta and the markdown body, which this package does
// not interpret (package enrich renders it); what comes out is the same
// Meta and body, an artifact's Status, and a listing. It imports only the
// standard library.
//
// # Statuses
//
// A Basic artifact holds the file's structure without model prose; it is
// written on the first file_info. An Enriched one holds the model's
// report and replaces it. Two statuses are computed, never written: Missing
// (no artifact) and Stale (the artifact's Fingerprint — the SourceDigest
// of the source and the CallersDigest of its callers when it was made —
// differs from the source's now). Both digests are in the front matter, so
// Status decides staleness from the first few hundred bytes of the file.
//
// # Front matter
//
// Every artifact starts with a small, strict subset of YAML: source path,
// source sha256, callers digest, extraction time, tool version and status.
// The exact format is written down in frontmatter.go. Reading accepts only
// what writing produces; anything else is ErrMalformed.
package artifacts
