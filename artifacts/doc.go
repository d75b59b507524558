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
// report and replaces it; a Partial one holds reports that leave some
// symbols without prose, so documenting the file is not done. Two
// statuses are computed, never written: Missing (no artifact) and Stale
// (the artifact's Fingerprint — the SourceDigest of the source and the
// CallersDigest of its callers when it was made — differs from the
// source's now). Both digests are in the front matter, so Status decides
// staleness from the first few hundred bytes of the file.
//
// # Front matter
//
// Every artifact starts with a small, strict subset of YAML: source path,
// source sha256, callers digest, extraction time, tool version and status.
// The exact format is written down in frontmatter.go. Reading accepts only
// what writing produces; anything else is ErrMalformed.
//
// # Safety
//
// Source paths are slash paths relative to the workspace root. Absolute
// paths, paths that leave the root after cleaning, and artifact paths that
// would leave .artifacts through a symbolic link are refused; nothing is
// read or written outside .artifacts, which must itself be a real
// directory. Every access goes through an os.Root, so the check holds at
// the moment of the access, not only at a check before it; symbolic links
// inside .artifacts may point elsewhere inside it, but only by a relative
// target. Only regular files of at most MaxSize bytes are read, opened
// without blocking: a FIFO or a device put where an artifact belongs is
// refused, never waited on or read without end. Writes are atomic: a temporary file in the artifact's
// directory is written, synced, closed and renamed into place, so a reader
// sees the old artifact or the new one, never part of one, and a failed
// write leaves no temporary file behind. A process killed mid-write does
// leave one; Open removes those of its naming once they are StaleTemp old.
//
// A Store is safe for concurrent use by the goroutines of one process:
// writers of one artifact are serialized. Separate processes writing the
// same artifact are not coordinated beyond the atomic rename (the last
// rename wins).
package artifacts
