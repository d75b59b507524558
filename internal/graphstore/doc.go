// Package graphstore saves a workspace's extraction and call graph under
// .artifacts/.index/graph.bin and loads them back, so that a later run
// re-extracts only the files whose content changed: a root and options
// in, a Snapshot (files, skipped files, graph nodes and edges) out.
//
// Sync walks the root, reuses the saved extraction of every file whose
// size and modification time, or else content hash, are unchanged,
// extracts the rest, rebuilds the call graph when anything changed, and
// saves the result atomically (CreateTemp, write, Close, Rename). A
// saved file that is not a regular file of a state file's size (a
// symbolic link, a FIFO, a device: see internal/bounded), is corrupt, or
// was saved by another version, is rebuilt with a log line naming it and
// why. The file format is written down at the top of codec.go.
//
// Sync extracts a batch of files at a time (Options.Batch) and can hand
// each batch, with the bytes its files were read from, to Options.Each
// before the graph is built: one extraction then feeds the saved graph
// and another consumer (the code index of `fileinfo index`, see
// codeindex.SyncGraph), and a file's bytes live for one batch.
package graphstore
