package main

import (
	"os"
	"path/filepath"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// The caps of the files the benchmarks read, data sets the user names.
var (
	// inputFile is a file read whole: qrels, questions, a corpus page
	// (the largest qrels of BEIR, MS MARCO's, is 8 MB).
	inputFile = bounded.Limit{Kind: "benchmark input", Max: 1 << 30}
	// inputStream is a file read a line at a time: queries and corpora
	// (BEIR's largest corpus.jsonl is a few GB).
	inputStream = bounded.Limit{Kind: "benchmark input read by lines", Max: 64 << 30}
)

// readInput returns the content of the file the user named, through
// bounded.ReadFile: a symbolic link the user made is followed, but what
// it leads to must be a regular file of at most inputFile bytes (a link
// to /dev/zero, a FIFO or a sparse file of a terabyte is refused, not
// read).
func readInput(name string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, err
	}
	return bounded.ReadFile(real, inputFile)
}

// openInput opens the file the user named for reading by lines, with the
// checks of readInput and the cap of inputStream.
func openInput(name string) (*os.File, error) {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, err
	}
	f, _, err := bounded.Open(real, inputStream)
	return f, err
}
