package codeindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/dirstamp"
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
// A directory changed within dirstamp.Slack of the walk cannot be
// vouched for by its time. When its entries, lstat'd as the stamps are
// written, are the ones the walk listed, each file as the walk found it
// (or older than the walk: a file it did not stat), its record is
// Listed: it holds the hash of that listing (dirstamp.Hash), and the
// quick check lists it again instead of failing. A file added just
// before a search then costs the next search one directory's listing,
// not the full check.
//
//	magic    8 bytes  "fidirs" 0x00 0x01
//	since    int64    little-endian: Unix ns when the full check's walk began
//	count    uint32   little-endian: the records that follow
//	crc      uint32   little-endian: CRC-32C (Castagnoli) of the records
//	records  count of, sorted by path, each path strictly after the last:
//	         uvarint  length of the path
//	         bytes    the path: "." or a slash path inside the workspace (fs.ValidPath)
//	         varint   size in bytes; -1: there was none (dirstamp.Absent),
//	                  -2: it changed while the walk ran (dirstamp.Unsure),
//	                  -3: so did this directory, vouched for by its
//	                  listing (dirstamp.Listed)
//	         varint   modification time, Unix ns; of a Listed record, the
//	                  hash of the directory's listing (dirstamp.Hash)
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

// dirStamp is the stamp of one path (see internal/dirstamp).
type dirStamp = dirstamp.Stamp

// dirStampsFrame is the directory stamps file's layout: since as its
// fixed field; a record takes at least 4 bytes; "." is the root.
var dirStampsFrame = recordFile{magic: dirStampsMagic, extra: 8, kind: "directory stamps: ", name: "directory stamps", minRec: 4, root: true}

// encodeDirStamps lays out stamps, sorted by path without repeats.
func encodeDirStamps(since int64, stamps []dirStamp) []byte {
	b := dirStampsFrame.start(len(stamps), len(stamps)*32)
	binary.LittleEndian.PutUint64(b[len(dirStampsMagic):], uint64(since))
	for _, s := range stamps {
		b = binary.AppendUvarint(b, uint64(len(s.Path)))
		b = append(b, s.Path...)
		b = binary.AppendVarint(b, s.Size)
		b = binary.AppendVarint(b, s.MTime)
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
		if v[0] < dirstamp.Listed {
			return 0, nil, fmt.Errorf("directory stamps of %s: size %d", p, v[0])
		}
		out = append(out, dirStamp{Path: p, Size: v[0], MTime: v[1]})
	}
	if err := dirStampsFrame.end(body, off); err != nil {
		return 0, nil, err
	}
	return since, out, nil
}

// ignoreFiles are the files, beside the .gitignore of each directory,
// whose rules choose what the walks enter (see extract.Walk and
// docsearch's walk).
var ignoreFiles = []string{".git/info/exclude"}

// WriteDirStamps writes, in dir, the stamps that CheckDirs checks: of
// every directory l holds (those a full check's walks entered), of the
// .gitignore files they hold and of ignoreFiles, all under root, as
// they are now. since is when the walk that filled l began: a path
// changed after it, or just before it (dirstamp.Slack), is stamped as
// unsure, and fails the next check. The index's own directory, dir, is
// left out when it lies under root: saving the index changes it. made
// holds the paths the caller made itself just before the walk began, as
// they were once made (see dirstamp.Vouch): a first index makes
// .artifacts, which would else be unsure and send the next search to a
// full check.
func WriteDirStamps(dir, root string, l *docsearch.Listing, since time.Time, made ...dirStamp) error {
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
		s := dirstamp.Vouch(root, dirstamp.Of(root, d, ns), made)
		if s.Size == dirstamp.Unsure {
			s = listedStamp(root, d, l, ns, s)
		}
		stamps = append(stamps, s)
		if entries, _ := l.Dir(d); hasEntry(entries, ".gitignore") {
			stamps = append(stamps, dirstamp.Vouch(root, dirstamp.Of(root, path.Join(d, ".gitignore"), ns), made))
		}
	}
	for _, p := range ignoreFiles {
		stamps = append(stamps, dirstamp.Of(root, p, ns))
	}
	// "a/.gitignore" sorts after "a/.b": sort them all.
	stamps = dirstamp.Sort(stamps)
	return writeFile(dir, DirStampsFile, "directory stamps", encodeDirStamps(ns, stamps))
}

// listedStamp returns the Listed stamp of directory d, whose stamp s by
// time is unsure, when its entries now are those the walk listed (l),
// each of its files as the walk found it or, for a file the walk did not
// stat (a document), older than the walk (which began at since, Unix
// ns): the index then holds what the directory holds (see
// dirstamp.VouchListed). Else it returns s.
func listedStamp(root, d string, l *docsearch.Listing, since int64, s dirStamp) dirStamp {
	walked, ok := l.Dir(d)
	if !ok {
		return s
	}
	stat := func(p string) (size, mtime int64, ok bool) {
		st, ok := l.Stat(p)
		return st.Size, st.MTime, ok
	}
	return dirstamp.VouchListed(root, d, walked, stat, since, s)
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
	Since    time.Time // when the last full check's walk began
	Checked  int       // directories and ignore files stat'd
	Relisted int       // of them, directories listed again (dirstamp.Listed)
	root     string
	listed   map[string]dirstamp.Entry // the files of the directories listed again, by slash path
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
	byTime := stamps[:0:0]
	for _, s := range stamps {
		switch s.Size {
		case dirstamp.Unsure:
			return f, fmt.Errorf("%w: %s changed as the last full check ran", ErrStale, s.Path)
		case dirstamp.Listed:
			es, ok := dirstamp.Relist(root, s)
			if !ok {
				return f, fmt.Errorf("%w: %s changed since it was listed by the last full check", ErrStale, s.Path)
			}
			if f.listed == nil {
				f.listed = map[string]dirstamp.Entry{}
			}
			for _, e := range es {
				if e.Type == 0 {
					f.listed[path.Join(s.Path, e.Name)] = e
				}
			}
			f.Relisted++
		default:
			byTime = append(byTime, s)
		}
	}
	// The first change in path order is the one reported.
	if i := dirstamp.FirstChanged(root, byTime, statWorkers); i < len(byTime) {
		return f, fmt.Errorf("%w: %s changed since %s", ErrStale, byTime[i].Path, f.Since.UTC().Format(time.RFC3339))
	}
	return f, nil
}

// Changed reports whether the file at slash path p, under the root
// CheckDirs checked, may have changed since the last full check began:
// it is gone, no longer a regular file, or modified after (or within
// dirstamp.Slack before) that time, unless it lies in a directory
// CheckDirs listed again and is as that listing, the full check's, found
// it (size, time and inode). An edit in place sets the modification time
// to the present; one that sets it back (touch -d) is not seen.
func (f Freshness) Changed(p string) bool {
	info, err := os.Lstat(filepath.Join(f.root, filepath.FromSlash(p)))
	if err != nil || !info.Mode().IsRegular() {
		return true
	}
	mtime := info.ModTime().UnixNano()
	if mtime < f.Since.UnixNano()-int64(dirstamp.Slack) {
		return false
	}
	e, ok := f.listed[p]
	return !ok || e.Size != info.Size() || e.MTime != mtime || e.Ino != dirstamp.Inode(info)
}
