package graphstore

import (
	"context"
	"fmt"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

// DefaultBatch is how many files Sync extracts at a time when
// Options.Batch is 0: a batch's sources are held until Options.Each has
// seen them, then dropped.
const DefaultBatch = 1024

// Extracted is one file of Sync's pass, as Options.Each sees it.
type Extracted struct {
	Path string
	// File is the file's extraction: made in this pass, or, when Reused,
	// the saved one. nil when the file has none; Skip then says why.
	File *extract.File
	Skip string
	// Src is the bytes File was extracted from (read again for a reused
	// file), nil when there is no File or it could not be read. Digest
	// is their lower-case hex SHA-256.
	Src    []byte
	Digest string
	// Reused says File came from the saved state: Each asked for it
	// through Options.Want, but it was not extracted again.
	Reused bool
}

// pass is the extraction of one Sync: the files to extract, in batches,
// each batch handed to each (when set) with its sources.
type pass struct {
	ex    *extract.Extractor
	tree  sourceTree
	batch int
	each  func(context.Context, []Extracted) error

	mu   sync.Mutex
	srcs map[string][]byte // this batch's sources, by path (only with each)
	hash map[string]string // every extracted file's digest, by path
}

// read is the extractor's Read hook: it records the digest of what was
// extracted and, while a batch is being passed to each, its bytes.
func (p *pass) read(rel string, src []byte) {
	d := digest(src)
	p.mu.Lock()
	p.hash[rel] = d
	if p.srcs != nil {
		p.srcs[rel] = src
	}
	p.mu.Unlock()
}

// run goes through all, in walk order, a batch at a time: it extracts
// the files of isTodo and passes the batch to p.each (when set), with
// the others (files Options.Want asked for: their saved extraction,
// their bytes read again). It returns the extractions made and the
// files extraction skipped, with why.
func (p *pass) run(ctx context.Context, all []string, isTodo map[string]bool, saved map[string]*Entry) (map[string]*extract.File, map[string]string, error) {
	fresh := make(map[string]*extract.File, len(isTodo))
	reasons := map[string]string{}
	for lo := 0; lo < len(all); lo += p.batch {
		part := all[lo:min(lo+p.batch, len(all))]
		var ext []string
		for _, q := range part {
			if isTodo[q] {
				ext = append(ext, q)
			}
		}
		if p.each != nil {
			p.mu.Lock()
			p.srcs = make(map[string][]byte, len(ext))
			p.mu.Unlock()
		}
		files, skipped, err := p.ex.Files(ctx, ext)
		if err != nil {
			return nil, nil, err
		}
		for i := range files {
			fresh[files[i].Path] = &files[i]
		}
		for _, s := range skipped {
			reasons[s.Path] = s.Reason
		}
		if p.each == nil {
			continue
		}
		p.mu.Lock()
		srcs := p.srcs
		p.srcs = nil
		p.mu.Unlock()
		out := make([]Extracted, 0, len(part))
		for _, q := range part {
			x := Extracted{Path: q}
			switch f, ok := fresh[q]; {
			case ok:
				x.File, x.Src = f, srcs[q]
				p.mu.Lock()
				x.Digest = p.hash[q]
				p.mu.Unlock()
			case isTodo[q]:
				x.Skip = reasons[q]
			default:
				e := saved[q]
				if e == nil || e.File == nil {
					x.Skip = "not extracted"
					if e != nil && e.Skip != "" {
						x.Skip = e.Skip
					}
					break
				}
				x.File, x.Reused = e.File, true
				if src, err := extract.ReadRegular(p.tree.dir, q, p.tree.max); err == nil {
					x.Src, x.Digest = src, digest(src)
				}
			}
			out = append(out, x)
		}
		if err := p.each(ctx, out); err != nil {
			return nil, nil, fmt.Errorf("graphstore: passing %d files on: %w", len(out), err)
		}
	}
	return fresh, reasons, nil
}
