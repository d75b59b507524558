package docsearch

// shedBytes is how much of the mapped index file compact reads between
// two sheds; a variable for tests.
var shedBytes = 128 << 20

// shed is shedPages; a variable for tests.
var shed = shedPages

// shedder gives back the pages of the mapped index file that a pass over
// all of it has read, every shedBytes. compact reads each posting,
// vector row and Put text of a loaded index once, to copy it; without
// shedding, the pages it read stay resident beside the copies until the
// mapping is unmapped at its end. On the Linux kernel's index that is
// 1.9 GB of file pages on top of a 1.2 GB heap, the peak of the first
// change after a load (a file added, then `fileinfo search`).
type shedder struct {
	mapped []byte // nil when the index was read into memory, not mapped
	n      int
}

// shedder returns a shedder of ix's mapping. Callers hold ix.mu.
func (ix *Index) shedder() *shedder {
	if !ix.fileMapped {
		return &shedder{}
	}
	return &shedder{mapped: ix.mapped}
}

// read counts n bytes read from the mapping, shedding its pages once
// shedBytes have been read since the last shed.
func (s *shedder) read(n int) {
	if s.mapped == nil {
		return
	}
	if s.n += n; s.n >= shedBytes {
		shed(s.mapped)
		s.n = 0
	}
}
