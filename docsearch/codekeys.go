package docsearch

import "strings"

// codeKeys is what one PutCodeBatches knows of the code documents there
// are: the keys of each file's, made by one walk of every document at
// its second batch and kept up to date by its own batches after. Before,
// each batch walked every document to find those of its files: on the
// Linux kernel (1.1 M documents, 62 batches) that was 18 of 600 CPU-s of
// a cold index, growing with the square of the tree.
type codeKeys struct {
	batches int                 // batches put so far
	byFile  map[string][]string // nil: not made (the first batch walks)
	gen     uint64              // ix.codeGen it is up to date with
	// put holds the files put since byFile was made, whose keys byFile
	// does not keep: a pass puts each file once, and on the kernel their
	// 1.1 M keys were a string each held to the end of the pass, marked
	// by every collection. A batch that touches one of them walks every
	// document, as the first batch does.
	put map[string]bool
	// workers analyse the batches' symbols, made at the first batch with
	// symbols and kept for the next: each analyzer's caches of words and
	// stems fill once, not once a batch. A new pair a batch missed its
	// caches for every identifier the tree repeats across batches (on
	// Linux 6.1's fs, include, kernel, lib and mm, 9 batches, the
	// misses and the caches' growth were 2.2 of 58 CPU-s).
	workers []*worker
}

// touchesPut reports whether want holds a file put since byFile was made.
func (k *codeKeys) touchesPut(want map[string]bool) bool {
	for f := range want {
		if k.put[f] {
			return true
		}
	}
	return false
}

// keysKept is visited by tests, after each batch that keeps byFile, with
// the number of keys it holds.
var keysKept func(n int)

// workerMade is called by tests' hook each time putCode makes a worker.
var workerMade func()

// scanned is visited by tests with the number of documents a walk for
// the code documents of a batch's files went through.
var scanned func(n int)

// analyzers returns n workers of the given chunk limit, those of an
// earlier batch if there were.
func (k *codeKeys) analyzers(n, limit int) ([]*worker, error) {
	for len(k.workers) < n {
		w, err := newWorker(limit)
		if err != nil {
			return nil, err
		}
		if workerMade != nil {
			workerMade()
		}
		k.workers = append(k.workers, w)
	}
	return k.workers[:n], nil
}

// codeDocs calls fn with the key and ID of each code document of the
// files in want. ix.mu is held for reading.
func (ix *Index) codeDocs(known *codeKeys, want map[string]bool, fn func(key string, id uint32)) {
	if known.byFile == nil && known.batches > 0 || known.byFile != nil && known.gen != ix.codeGen {
		// A second batch, or code documents put by another writer since
		// the last: know them all, once.
		known.byFile, known.gen, known.put = map[string][]string{}, ix.codeGen, map[string]bool{}
		ix.eachCodeDoc(func(key string, _ uint32) {
			f := codeFileOf(key)
			known.byFile[f] = append(known.byFile[f], strings.Clone(key)) // a loaded key aliases the mapping
		})
	}
	if known.byFile == nil || known.touchesPut(want) {
		ix.eachCodeDoc(func(key string, id uint32) {
			if want[codeFileOf(key)] {
				fn(key, id)
			}
		})
		return
	}
	for f := range want {
		for _, key := range known.byFile[f] {
			if id, ok := ix.find(key); ok && isCodeScope(ix.docScope(id)) {
				fn(key, id)
			}
		}
	}
}

// eachCodeDoc calls fn with the key and ID of every code document, in
// a walk of every document (which it tells scanned about).
func (ix *Index) eachCodeDoc(fn func(key string, id uint32)) {
	n := 0
	for key, id := range ix.paths() {
		n++
		if isCodeScope(ix.docScope(id)) {
			fn(key, id)
		}
	}
	if scanned != nil {
		scanned(n)
	}
}
