package codeindex

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"slices"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
)

// VendorStats says what SyncVendor did.
type VendorStats struct {
	Roots   []VendorRoot        // the vendor roots, with their files
	Files   int                 // source files in them
	Read    int                 // new or changed since indexed: read again
	Removed int                 // files the vendor scope held that are gone or no longer vendored
	Left    []docsearch.Skipped // files read that did not extract (minified, binary, too large)
}

// vendorStampVersion changes when what SyncVendor makes of a file does,
// so that every vendored file is read again.
const vendorStampVersion = 1

// vendorStamp names what a vendored file's documents are made from: its
// size and modification time; never 0.
func vendorStamp(info os.FileInfo) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %d", vendorStampVersion, info.Size(), info.ModTime().UnixNano())
	return max(h.Sum64(), 1)
}

// SyncVendor brings ix's vendor scope up to date with sel.Vendor: a file
// whose stamp (size and modification time) is not the one its documents
// were made from is extracted again, and the files the scope holds that
// sel does not leave it. Vendored code gets no enriched prose. Files are
// extracted a batch at a time, as Sync does.
func SyncVendor(ctx context.Context, ix *docsearch.Index, root string, sel Selection) (VendorStats, error) {
	return syncVendor(ctx, ix, root, sel, nil, nil)
}

// syncVendor is SyncVendor but for the files of done, which SyncGraph's
// pass extracted and indexed already: they count as read, and left are
// those of them that did not extract.
func syncVendor(ctx context.Context, ix *docsearch.Index, root string, sel Selection, done map[string]bool, left []docsearch.Skipped) (VendorStats, error) {
	st := VendorStats{Roots: sel.Roots, Files: len(sel.Vendor), Read: len(done), Left: left}
	have := ix.VendorStamps()
	want := make(map[string]bool, len(sel.Vendor))
	stamps := make(map[string]uint64, len(sel.Vendor))
	var todo []string
	for _, p := range sel.Vendor {
		want[p] = true
		if done[p] {
			continue
		}
		if stamp, stale := vendorStale(sel, root, p, have); stale {
			stamps[p] = stamp
			todo = append(todo, p)
		}
	}
	var removed []string
	for p := range have {
		if !want[p] {
			removed = append(removed, p)
		}
	}
	slices.Sort(removed)
	st.Read += len(todo)
	st.Removed = len(removed)
	if len(todo) == 0 && len(removed) == 0 {
		return st, nil
	}
	ex, srcs, err := newExtractor(root)
	if err != nil {
		return st, err
	}
	defer ex.Close()
	var extractErr error
	batches := extractBatches(ctx, ex, srcs, todo, &st.Left, &extractErr, func(f *extract.File, src []byte) docsearch.CodeFile {
		return vendorFile(f, src, stamps[f.Path])
	}, true)
	if err := ix.PutCodeBatches(ctx, batches, removed); err != nil {
		return st, fmt.Errorf("index vendored code of %s: %w", root, err)
	}
	return st, extractErr
}

// vendorFile is the vendor scope's documents of f: no enriched prose,
// and the stamp SyncVendor compares.
func vendorFile(f *extract.File, src []byte, stamp uint64) docsearch.CodeFile {
	cf := File(f, src, nil)
	cf.Vendor, cf.Stamp = true, stamp
	return cf
}

// appendLeft appends the files extraction skipped to left, but for those
// of no language it knows (a README or a licence without an extension),
// which are no source left out.
func appendLeft(left []docsearch.Skipped, skipped []extract.Skipped) []docsearch.Skipped {
	for _, sk := range skipped {
		if sk.Reason != unknownLanguage {
			left = append(left, docsearch.Skipped{Path: sk.Path, Reason: sk.Reason})
		}
	}
	return left
}

// vendorStale returns the stamp of the vendored file p and whether the
// vendor scope's documents of it, as have stamps them, are out of date;
// false for a path that is no regular file.
func vendorStale(sel Selection, root, p string, have map[string]uint64) (uint64, bool) {
	info, err := sel.Lstat(root, p)
	if err != nil || !Held(info) {
		return 0, false
	}
	stamp := vendorStamp(info)
	return stamp, have[p] != stamp
}

// unknownLanguage is the extractor's reason for a file of no language.
const unknownLanguage = "unknown language"
