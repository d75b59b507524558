package graphstore

import (
	"context"
	"fmt"
	"sync"
	"time"

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

	// entries are the state's files, in walk order, filled in a batch at
	// a time by settle, those before next done; saved are the saved
	// state's, by path; start is when Sync started (see forgetRacy).
	entries []Entry
	saved   map[string]*Entry
	next    int
	start   time.Time
	// fresh and reasons are the extractions made and the files extraction
	// skipped (with why), of the entries not yet settled, or of all of
	// them without a run file.
	fresh   map[string]*extract.File
	reasons map[string]string
	// spill, when set, takes the settled entries: their extractions leave
	// the heap (see spill.go).
	spill *runFile

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

// run goes through all (indexes into p.entries, in walk order), a
// batch at a time: it extracts the files of isTodo and passes the batch
// to p.each (when set), with the others (files Options.Want asked for:
// their saved extraction, their bytes read again). Then it settles the
// entries up to the batch's last (see settle): with a run file, their
// extractions leave the heap for it.
func (p *pass) run(ctx context.Context, all []int, isTodo map[string]bool) error {
	for lo := 0; lo < len(all); lo += p.batch {
		part := all[lo:min(lo+p.batch, len(all))]
		var ext []string
		for _, i := range part {
			if q := p.entries[i].Path; isTodo[q] {
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
			return err
		}
		for i := range files {
			p.fresh[files[i].Path] = &files[i]
		}
		for _, s := range skipped {
			p.reasons[s.Path] = s.Reason
		}
		if p.each != nil {
			if err := p.hand(ctx, part, isTodo); err != nil {
				return err
			}
		}
		if err := p.settle(part[len(part)-1] + 1); err != nil {
			return err
		}
	}
	return p.settle(len(p.entries))
}

// hand hands the files at part to p.each.
func (p *pass) hand(ctx context.Context, part []int, isTodo map[string]bool) error {
	p.mu.Lock()
	srcs := p.srcs
	p.srcs = nil
	p.mu.Unlock()
	out := make([]Extracted, 0, len(part))
	for _, i := range part {
		q := p.entries[i].Path
		x := Extracted{Path: q}
		switch f, ok := p.fresh[q]; {
		case ok:
			x.File, x.Src = f, srcs[q]
			p.mu.Lock()
			x.Digest = p.hash[q]
			p.mu.Unlock()
		case isTodo[q]:
			x.Skip = p.reasons[q]
		default:
			e := p.saved[q]
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
		return fmt.Errorf("graphstore: passing %d files on: %w", len(out), err)
	}
	return nil
}

// settle fills in p.entries[p.next:upto] from this pass (an extraction
// made, a reason extraction gave) or the saved state, and forgets racy
// time stamps (forgetRacy). With a run file it spills them there and
// lets go of their extractions, made or saved.
func (p *pass) settle(upto int) error {
	es := p.entries[p.next:upto]
	p.next = upto
	for i := range es {
		e := &es[i]
		if f, ok := p.fresh[e.Path]; ok {
			e.File, e.Skip = f, ""
			if h, ok := p.hash[e.Path]; ok {
				e.Hash = h
			}
		} else if r, ok := p.reasons[e.Path]; ok {
			e.File, e.Skip = nil, r
		} else if o := p.saved[e.Path]; o != nil {
			e.File, e.Skip = o.File, o.Skip
		}
	}
	forgetRacy(es, p.start, p.tree.asRead)
	if p.spill == nil {
		return nil
	}
	if err := p.spill.add(es); err != nil {
		return err
	}
	for i := range es {
		e := &es[i]
		e.File = nil
		delete(p.fresh, e.Path)
		delete(p.reasons, e.Path)
		if o := p.saved[e.Path]; o != nil {
			o.File = nil
		}
	}
	return nil
}
