package codeindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/bounded"
)

// The directory stamps file (DirStampsFile), in the index's directory,
// lets a CLI search trust the saved index without walking the tree. A
// full check (a CLI search with --full, one whose quick check failed,
// `fileinfo index`) walks every file and then writes it: the stamp of
// every directory its walks entered, and of every ignore file that
// chose what they entered. A file added, removed or renamed changes its
// directory's modification time; an ignore rule edited changes its
// file's; so while every stamp holds, the set of files is the one the
// index was made from (CheckDirs). What the stamps cannot see is a file
// edited in place: the quick check looks at the files a search returns
// (Freshness.Changed), and says that it did so.
//
//	magic    8 bytes  "fidirs" 0x00 0x01
//	since    int64    little-endian: Unix ns when the full check's walk began
//	count    uint32   little-endian: the records that follow
//	crc      uint32   little-endian: CRC-32C (Castagnoli) of the records
//	records  count of, sorted by path, each path strictly after the last:
//	         uvarint  length of the path
//	         bytes    the path: "." or a slash path inside the workspace (fs.ValidPath)
//	         varint   size in bytes; -1: there was none (absentSize),
//	                  -2: it changed while the walk ran (unsureSize)
//	         varint   modification time, Unix ns
//
// Nothing follows the last record. On the Linux kernel it holds 5,403
// records in 212,838 bytes, and checking it is an lstat per record.
const DirStampsFile = "code-dirs.bin"

// dirStampsMagic starts a directory stamps file; its last byte is the
// version.
const dirStampsMagic = "fidirs\x00\x01"

// dirStampsLimit caps the file: 512 bytes a record for 500,000
// directories.
var dirStampsLimit = bounded.Limit{Kind: "directory stamps file", Max: 256 << 20}

const (
	absentSize = -1 // the path had no file: it must still have none
	unsureSize = -2 // it changed as the walk ran: the check fails
)

// MTimeSlack is how far before a full check's walk began a modification
// time must lie to be trusted: a file system's clock ticks coarser than
// the process's (Linux stamps files with a clock that lags by up to a
// tick), so a directory changed just before the walk could look as old
// as one changed just after it.
const MTimeSlack = 2 * time.Second

// dirStamp is the stamp of one path.
type dirStamp struct {
	path        string
	size, mtime int64
}

// dirStampsFrame is the directory stamps file's layout: since as its
// fixed field; a record takes at least 4 bytes; "." is the root.
var dirStampsFrame = recordFile{magic: dirStampsMagic, extra: 8, kind: "directory stamps: ", name: "directory stamps", minRec: 4, root: true}

// encodeDirStamps lays out stamps, sorted by path without repeats.
func encodeDirStamps(since int64, stamps []dirStamp) []byte {
	b := dirStampsFrame.start(len(stamps), len(stamps)*32)
	binary.LittleEndian.PutUint64(b[len(dirStampsMagic):], uint64(since))
	for _, s := range stamps {
		b = binary.AppendUvarint(b, uint64(len(s.path)))
		b = append(b, s.path...)
		b = binary.AppendVarint(b, s.size)
		b = binary.AppendVarint(b, s.mtime)
	}
	return dirStampsFrame.seal(b)
}

// decodeDirStamps decodes a directory stamps file: since, and the
// records sorted by path. Anything but a file laid out as above is an
// error saying what is wrong.
func decodeDirStamps(b []byte) (int64, []dirStamp, error) {
	fixed, body, count, err := dirStampsFrame.open(b)
	if err != nil {
		return 0, nil, err
	}
	since := int64(binary.LittleEndian.Uint64(fixed))
	text := string(body)
	out := make([]dirStamp, 0, count)
	off, last := 0, ""
	for i := range count {
		p, err := dirStampsFrame.path(body, text, &off, i, last)
		if err != nil {
			return 0, nil, err
		}
		last = p
		var v [2]int64
		for j := range v {
			x, n := binary.Varint(body[off:])
			if n <= 0 {
				return 0, nil, fmt.Errorf("directory stamps of %s: bad number", p)
			}
			off += n
			v[j] = x
		}
		if v[0] < unsureSize {
			return 0, nil, fmt.Errorf("directory stamps of %s: size %d", p, v[0])
		}
		out = append(out, dirStamp{p, v[0], v[1]})
	}
	if err := dirStampsFrame.end(body, off); err != nil {
		return 0, nil, err
	}
	return since, out, nil
}

// stampOf returns the stamp of the file at slash path p under root as
// lstat sees it now; a path with no file has absentSize, one changed
// since the walk began (its time within MTimeSlack of since, or after
// it) unsureSize.
func stampOf(root, p string, since int64) dirStamp {
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return dirStamp{p, absentSize, 0}
	}
	st := dirStamp{p, info.Size(), info.ModTime().UnixNano()}
	if st.mtime >= since-int64(MTimeSlack) {
		st.size = unsureSize
	}
	return st
}

// ignoreFiles are the files, beside the .gitignore of each directory,
// whose rules choose what the walks enter (see extract.Walk and
// docsearch's walk).
var ignoreFiles = []string{".git/info/exclude"}

// WriteDirStamps writes, in dir, the stamps that CheckDirs checks: of
// every directory l holds (those a full check's walks entered), of the
// .gitignore files they hold and of ignoreFiles, all under root, as
// they are now. since is when the walk that filled l began: a path
// changed after it, or just before it (MTimeSlack), is stamped as
// unsure, and fails the next check. The index's own directory, dir, is
// left out when it lies under root: saving the index changes it.
func WriteDirStamps(dir, root string, l *docsearch.Listing, since time.Time) error {
	skip := ""
	if rel, err := filepath.Rel(root, dir); err == nil && filepath.IsLocal(rel) {
		skip = filepath.ToSlash(rel)
	}
	inside := func(p string) bool { return skip != "" && (p == skip || strings.HasPrefix(p, skip+"/")) }
	ns := since.UnixNano()
	var stamps []dirStamp
	for _, d := range l.Dirs() { // sorted; a directory's .gitignore sorts right after it
		if inside(d) {
			continue
		}
		stamps = append(stamps, stampOf(root, d, ns))
		if entries, _ := l.Dir(d); hasEntry(entries, ".gitignore") {
			stamps = append(stamps, stampOf(root, path.Join(d, ".gitignore"), ns))
		}
	}
	for _, p := range ignoreFiles {
		stamps = append(stamps, stampOf(root, p, ns))
	}
	// "a/.gitignore" sorts after "a/.b": sort them all.
	sortDirStamps(&stamps)
	return writeFile(dir, DirStampsFile, "directory stamps", encodeDirStamps(ns, stamps))
}

// sortDirStamps sorts stamps by path and drops repeats.
func sortDirStamps(s *[]dirStamp) {
	v := *s
	slices.SortFunc(v, func(a, b dirStamp) int { return strings.Compare(a.path, b.path) })
	out := v[:0]
	for i, st := range v {
		if i == 0 || st.path != out[len(out)-1].path {
			out = append(out, st)
		}
	}
	*s = out
}

func hasEntry(entries []fs.DirEntry, name string) bool {
	for _, e := range entries {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// Freshness is what a quick check found: the time the last full check
// began, and how many paths it looked at.
type Freshness struct {
	Since   time.Time // when the last full check's walk began
	Checked int       // directories and ignore files stat'd
	root    string
}

// ErrStale wraps the error of a quick check that found a change, or
// could not tell.
var ErrStale = errors.New("a full check is needed")

// CheckDirs checks the directory stamps saved in dir against the tree
// under root: one lstat per record, however many files the directories
// hold. It returns nil when every stamp holds, and otherwise an error
// wrapping ErrStale that says which path changed (or that there are no
// stamps, or they do not decode): the caller then checks every file.
func CheckDirs(root, dir string) (Freshness, error) {
	b, err := bounded.ReadFile(filepath.Join(dir, DirStampsFile), dirStampsLimit)
	if err != nil {
		return Freshness{}, fmt.Errorf("%w: %v", ErrStale, err)
	}
	since, stamps, err := decodeDirStamps(b)
	if err != nil {
		return Freshness{}, fmt.Errorf("%w: %v", ErrStale, err)
	}
	f := Freshness{Since: time.Unix(0, since), Checked: len(stamps), root: root}
	for _, s := range stamps {
		if s.size == unsureSize {
			return f, fmt.Errorf("%w: %s changed as the last full check ran", ErrStale, s.path)
		}
	}
	// The lstats in statWorkers goroutines, as statAll's: they wait on
	// the kernel more than on a core. The first change in path order is
	// the one reported.
	first := atomic.Int64{}
	first.Store(int64(len(stamps)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(statWorkers, len(stamps)) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(stamps)) || i > first.Load() {
					return
				}
				if now := stampOf(root, stamps[i].path, since); now != stamps[i] {
					for {
						f := first.Load()
						if i >= f || first.CompareAndSwap(f, i) {
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if i := first.Load(); i < int64(len(stamps)) {
		return f, fmt.Errorf("%w: %s changed since %s", ErrStale, stamps[i].path, f.Since.UTC().Format(time.RFC3339))
	}
	return f, nil
}

// Changed reports whether the file at slash path p, under the root
// CheckDirs checked, may have changed since the last full check began:
// it is gone, no longer a regular file, or modified after (or within
// MTimeSlack before) that time. An edit in place sets the modification
// time to the present; one that sets it back (touch -d) is not seen.
func (f Freshness) Changed(p string) bool {
	info, err := os.Lstat(filepath.Join(f.root, filepath.FromSlash(p)))
	return err != nil || !info.Mode().IsRegular() || info.ModTime().UnixNano() >= f.Since.UnixNano()-int64(MTimeSlack)
}
