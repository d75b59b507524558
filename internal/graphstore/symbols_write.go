package graphstore

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// Writing symbols.idx (its format is at the top of symbols.go), a
// section at a time: the strings are collected first (the strings
// section comes first, and every other section refers into it), then
// each section is made as it is written, through a small buffer. Laying
// every section out on the heap first held the whole file there (455 MB
// on the Linux kernel, and the strings section's growth beside it) on
// top of the graph it was made from: the highest point of the index's
// graph phase after the graph's build (docs/bigrepos.md).

// symStrings are the strings of a symbols index: each distinct one's
// offset in the strings section, in the order the sections first name
// them, and the strings in that order. They are the graph's and files'
// own strings; none is copied.
type symStrings struct {
	at    map[string]uint32
	order []string
	size  uint64 // bytes of the section
}

func (w *symStrings) add(s string) {
	if _, ok := w.at[s]; !ok {
		w.at[s] = uint32(w.size) // a section past 4 GiB is refused before any is written
		w.order = append(w.order, s)
		w.size += uint64(len(s))
	}
}

func (w *symStrings) ref(s string) [2]uint32 { return [2]uint32{w.at[s], uint32(len(s))} }

func appendRef(b []byte, r [2]uint32) []byte {
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(b, r[0]), r[1])
}

// cut returns s cut to at most n bytes at a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// symDetails finds the symbol of a node in its file's extraction, the
// nodes coming a file at a time.
type symDetails struct {
	byPath map[string]*extract.File
	cur    string
	syms   map[symKey]*extract.Symbol
}

type symKey struct {
	q    string
	line int
}

func newSymDetails(files []extract.File) *symDetails {
	d := &symDetails{byPath: make(map[string]*extract.File, len(files))}
	for i := range files {
		d.byPath[files[i].Path] = &files[i]
	}
	return d
}

// of returns the signature (cut), doc (cut) and bases (joined) of n's
// symbol, or "" for each when it has none.
func (d *symDetails) of(n *callgraph.Node) (sig, doc, bases string) {
	if n.Kind == callgraph.KindModule {
		return "", "", ""
	}
	if n.File != d.cur || d.syms == nil {
		d.cur, d.syms = n.File, map[symKey]*extract.Symbol{}
		if f := d.byPath[n.File]; f != nil {
			for j := range f.Symbols {
				s := &f.Symbols[j]
				d.syms[symKey{s.Qualified, s.StartLine}] = s
			}
		}
	}
	s := d.syms[symKey{n.Qualified, n.Line}]
	if s == nil {
		return "", "", ""
	}
	return cut(s.Signature, maxSigBytes), cut(s.Doc, maxDocBytes), strings.Join(s.Bases, "\n")
}

// encodeSymbols lays out the lookup index of nodes and edges, with the
// details of their symbols from files and the stamps of st.
// It sums the file in blocks of block bytes (symBlock when written).
func encodeSymbols(st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File, sites []callgraph.RefSite, block uint64) ([]byte, error) {
	l, err := layoutSymbols(st, nodes, edges, files, sites, block)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := l.write(&b, func(sums []byte) error {
		tail := b.Bytes()[symHeaderSize-8 : symHeaderSize]
		binary.LittleEndian.PutUint32(tail, crc32.Checksum(sums, castagnoli))
		binary.LittleEndian.PutUint32(tail[4:], l.headCRC)
		return nil
	}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// symLayout is a symbols index whose strings and header are known,
// and whose sections are made as they are written.
type symLayout struct {
	st      *State
	nodes   []callgraph.Node
	edges   []callgraph.Edge
	details *symDetails
	sites   []callgraph.RefSite // the graph's
	keep    bitset              // those of sites saved (savedSites)
	nsites  int                 // how many
	imps    int                 // their imports
	strs    symStrings
	offs    [symSections][2]uint64
	head    []byte // but its last 8 bytes: the sums' CRC and its own
	headCRC uint32
	sumsAt  uint64
	block   uint64   // bytes per checksum block
	ix      []uint32 // the CSR index made with its offsets, for the next section
	names   *nameLayout
}

// layoutSymbols collects the strings of the lookup index (see
// encodeSymbols) and makes the header that places its sections. sites
// are the graph's reference sites, as callgraph.RefSitesOf sorts them;
// those of a name no node but a module has are left out.
func layoutSymbols(st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File, sites []callgraph.RefSite, block uint64) (*symLayout, error) {
	if len(nodes) >= 1<<31 || len(edges) >= 1<<31 || len(sites) >= 1<<31 {
		return nil, errors.New("graph too large for a symbols index")
	}
	l := &symLayout{st: st, nodes: nodes, edges: edges, details: newSymDetails(files), strs: symStrings{at: map[string]uint32{}}, block: block}
	l.sites, l.keep = sites, savedSites(nodes, sites)
	w := &l.strs
	for i := range nodes {
		n := &nodes[i]
		for _, s := range [...]string{n.Qualified, n.Name, string(n.Kind), n.Parent, n.File, n.Language} {
			w.add(s)
		}
		sig, doc, bases := l.details.of(n)
		w.add(sig)
		w.add(doc)
		w.add(bases)
	}
	for _, e := range edges {
		if int(e.Caller) >= len(nodes) || int(e.Callee) >= len(nodes) {
			return nil, fmt.Errorf("edge %d -> %d outside the %d nodes", e.Caller, e.Callee, len(nodes))
		}
		w.add(e.File)
		w.add(string(e.Resolution))
	}
	for i := range l.sites {
		if !l.keep.has(i) {
			continue
		}
		r := &l.sites[i]
		l.nsites++
		for _, s := range [...]string{r.Name, r.Receiver, r.Caller, r.File} {
			w.add(s)
		}
		for _, im := range r.Imports {
			w.add(im.Path)
			w.add(im.Resolved)
		}
		l.imps += len(r.Imports)
	}
	for _, es := range [][]Entry{st.Config, st.Files} {
		for _, e := range es {
			w.add(e.Path)
		}
	}
	w.add(st.Key)
	if w.size >= 1<<32 || l.imps >= 1<<31 {
		return nil, errors.New("graph too large for a symbols index")
	}
	n, e := uint64(len(nodes)), uint64(len(edges))
	var size [symSections]uint64
	size[secStrings] = w.size
	size[secNodes], size[secEdges] = n*symNodeWords*4, e*symEdgeWords*4
	size[secIn], size[secOut] = (n+1)*4, (n+1)*4
	size[secInIx], size[secOutIx] = e*4, e*4
	size[secByQual], size[secByName], size[secByFile] = n*4, n*4, n*4
	size[secRefs], size[secRefImps] = uint64(l.nsites)*symRefWords*4, uint64(l.imps)*symImpWords*4
	size[secStamps] = uint64(len(st.Config)+len(st.Files)) * symStampBytes
	l.names = layoutNames(nodes)
	l.names.sizes(&size)

	// Lay the sections out after the header, each at a multiple of 8.
	pos := uint64(symHeaderSize)
	for i := range secSums {
		pos = (pos + 7) &^ 7
		l.offs[i] = [2]uint64{pos, size[i]}
		pos += size[i]
	}
	l.sumsAt = (pos + 7) &^ 7
	nblocks := (l.sumsAt + block - 1) / block
	l.offs[secSums] = [2]uint64{l.sumsAt, nblocks * 4}
	h := make([]byte, 0, symHeaderSize)
	h = append(h, symMagic...)
	for _, n := range []int{symVersion, len(nodes), len(edges), len(st.Config), len(st.Files)} {
		h = binary.LittleEndian.AppendUint32(h, uint32(n))
	}
	h = appendRef(h, w.ref(st.Key))
	for _, o := range l.offs {
		h = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(h, o[0]), o[1])
	}
	h = binary.LittleEndian.AppendUint32(h, uint32(block))
	if len(h) != symHeaderSize-8 {
		panic("symbols header size")
	}
	l.head, l.headCRC = h, crc32.Checksum(h, castagnoli)
	return l, nil
}

// sectionHook, set by tests, hears that section i was written.
var sectionHook func(i int)

// secBuffer gathers a section's bytes and hands them on a buffer's
// worth at a time.
type secBuffer struct {
	w   io.Writer
	buf []byte
	err error
}

const secBufferSize = 64 << 10

func (b *secBuffer) spill() {
	if len(b.buf) >= secBufferSize {
		b.flush()
	}
}

func (b *secBuffer) flush() {
	if b.err == nil && len(b.buf) > 0 {
		_, b.err = b.w.Write(b.buf)
	}
	b.buf = b.buf[:0]
}

func (b *secBuffer) u32(x uint32) {
	b.buf = binary.LittleEndian.AppendUint32(b.buf, x)
	b.spill()
}

func (b *secBuffer) u32s(v []uint32) {
	for _, x := range v {
		b.u32(x)
	}
}

// bytes hands on p a buffer's worth at a time, so the buffer never
// grows past one buffer however long p is.
func (b *secBuffer) bytes(p []byte) {
	for len(p) > 0 {
		k := min(len(p), secBufferSize)
		b.buf = append(b.buf, p[:k]...)
		b.spill()
		p = p[k:]
	}
}

// section makes section i and writes it to b.
func (l *symLayout) section(i int, b *secBuffer) {
	switch i {
	case secStrings:
		for _, s := range l.strs.order {
			b.buf = append(b.buf, s...)
			b.spill()
		}
	case secNodes:
		for k := range l.nodes {
			n := &l.nodes[k]
			for _, s := range [...]string{n.Qualified, n.Name, string(n.Kind), n.Parent, n.File, n.Language} {
				b.buf = appendRef(b.buf, l.strs.ref(s))
			}
			flags := uint32(0)
			if n.Declaration {
				flags = 1
			}
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(max(n.Line, 0)))
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(max(n.EndLine, 0)))
			b.buf = binary.LittleEndian.AppendUint32(b.buf, flags)
			sig, doc, bases := l.details.of(n)
			b.buf = appendRef(b.buf, l.strs.ref(sig))
			b.buf = appendRef(b.buf, l.strs.ref(doc))
			b.buf = appendRef(b.buf, l.strs.ref(bases))
			b.spill()
		}
	case secEdges:
		for _, e := range l.edges {
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(e.Caller))
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(e.Callee))
			b.buf = appendRef(b.buf, l.strs.ref(e.File))
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(max(e.Line, 0)))
			b.buf = appendRef(b.buf, l.strs.ref(string(e.Resolution)))
			b.spill()
		}
	case secIn, secOut:
		end := func(e *callgraph.Edge) callgraph.SymbolID { return e.Callee }
		if i == secOut {
			end = func(e *callgraph.Edge) callgraph.SymbolID { return e.Caller }
		}
		var offs []uint32
		offs, l.ix = l.csr(end)
		b.u32s(offs)
	case secInIx, secOutIx:
		b.u32s(l.ix)
		l.ix = nil
	case secByQual:
		l.order(b, func(n *callgraph.Node) string { return n.Qualified })
	case secByName, secNames, secNameStarts, secGrams, secGramPosts:
		l.names.section(i, b)
	case secByFile:
		l.order(b, func(n *callgraph.Node) string { return n.File })
	case secRefs:
		imp := uint32(0)
		for i := range l.sites {
			if !l.keep.has(i) {
				continue
			}
			r := &l.sites[i]
			for _, s := range [...]string{r.Name, r.Receiver, r.Caller, r.File} {
				b.buf = appendRef(b.buf, l.strs.ref(s))
			}
			flags := uint32(0)
			if r.Go {
				flags = 1
			}
			b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(max(r.Line, 0)))
			b.buf = binary.LittleEndian.AppendUint32(b.buf, flags)
			b.buf = binary.LittleEndian.AppendUint32(b.buf, imp)
			imp += uint32(len(r.Imports))
			b.spill()
		}
	case secRefImps:
		for i := range l.sites {
			if !l.keep.has(i) {
				continue
			}
			for _, im := range l.sites[i].Imports {
				b.buf = appendRef(b.buf, l.strs.ref(im.Path))
				b.buf = appendRef(b.buf, l.strs.ref(im.Resolved))
				b.spill()
			}
		}
	case secStamps:
		for _, es := range [][]Entry{l.st.Config, l.st.Files} {
			for _, e := range es {
				b.buf = appendRef(b.buf, l.strs.ref(e.Path))
				b.buf = binary.LittleEndian.AppendUint64(b.buf, uint64(max(e.Size, 0)))
				b.buf = binary.LittleEndian.AppendUint64(b.buf, uint64(max(e.ModTime, 0)))
				b.spill()
			}
		}
	}
}

// csr returns the offsets, by node, into the index of edge numbers by
// end (callee or caller), and that index, in edge order within a node.
func (l *symLayout) csr(end func(*callgraph.Edge) callgraph.SymbolID) (offs, idx []uint32) {
	offs = make([]uint32, len(l.nodes)+1)
	for i := range l.edges {
		offs[end(&l.edges[i])+1]++
	}
	for i := 1; i < len(offs); i++ {
		offs[i] += offs[i-1]
	}
	next := slices.Clone(offs[:len(offs)-1])
	idx = make([]uint32, len(l.edges))
	for i := range l.edges {
		n := end(&l.edges[i])
		idx[next[n]] = uint32(i)
		next[n]++
	}
	return offs, idx
}

// order writes the node numbers sorted by the key by gives, then by
// number.
func (l *symLayout) order(b *secBuffer, by func(n *callgraph.Node) string) {
	ids := make([]uint32, len(l.nodes))
	keys := make([]string, len(l.nodes))
	for i := range ids {
		ids[i], keys[i] = uint32(i), by(&l.nodes[i])
	}
	slices.SortFunc(ids, func(a, b uint32) int { return cmp.Or(strings.Compare(keys[a], keys[b]), cmp.Compare(a, b)) })
	b.u32s(ids)
}

// blockSums sums what is written through it, a block at a time.
type blockSums struct {
	w     io.Writer
	block uint64
	at    uint64 // bytes written
	crc   uint32 // of the current block so far
	sums  []byte
}

func (s *blockSums) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	for q := p[:n]; len(q) > 0; {
		k := min(uint64(len(q)), s.block-s.at%s.block)
		s.crc = crc32.Update(s.crc, castagnoli, q[:k])
		s.at += k
		q = q[k:]
		if s.at%s.block == 0 {
			s.sums = binary.LittleEndian.AppendUint32(s.sums, s.crc)
			s.crc = 0
		}
	}
	return n, err
}

// write writes the index to w, making each section as it goes (see
// the top of this file). The last 8 bytes of the header are written as
// zeros (as block 0 is summed, see verifyBlock); finish gets the sums
// and writes them in place.
func (l *symLayout) write(w io.Writer, finish func(sums []byte) error) error {
	bs := &blockSums{w: w, block: l.block}
	var zero [8]byte
	if _, err := bs.Write(l.head); err != nil {
		return err
	}
	if _, err := bs.Write(zero[:]); err != nil {
		return err
	}
	b := &secBuffer{w: bs, buf: make([]byte, 0, secBufferSize+256)}
	for i := range secSums {
		if _, err := bs.Write(zero[:l.offs[i][0]-bs.at]); err != nil {
			return err
		}
		l.section(i, b)
		if b.flush(); b.err != nil {
			return b.err
		}
		if bs.at != l.offs[i][0]+l.offs[i][1] {
			return fmt.Errorf("symbols index: section %d is %d bytes, not %d", i, bs.at-l.offs[i][0], l.offs[i][1])
		}
		if sectionHook != nil {
			sectionHook(i)
		}
	}
	if _, err := bs.Write(zero[:l.sumsAt-bs.at]); err != nil {
		return err
	}
	if bs.at%l.block != 0 {
		bs.sums = binary.LittleEndian.AppendUint32(bs.sums, bs.crc)
	}
	if _, err := w.Write(bs.sums); err != nil {
		return err
	}
	return finish(bs.sums)
}

// writeSymbols writes the symbols index of st and its graph to dir
// atomically; sites are the graph's reference sites (see
// layoutSymbols). It returns the identity of the index written (see
// Symbols.identity). On failure it removes the old one, which no longer
// matches graph.bin, and returns the error.
func writeSymbols(dir string, st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File, sites []callgraph.RefSite) (id [16]byte, err error) {
	file := filepath.Join(dir, SymbolsFile)
	l, err := layoutSymbols(st, nodes, edges, files, sites, symBlock)
	if err == nil {
		err = writeStreamed(file, ".symbols-*.tmp", func(f *os.File) error {
			w := bufio.NewWriterSize(f, 1<<20)
			return l.write(w, func(sums []byte) error {
				if err := w.Flush(); err != nil {
					return err
				}
				binary.LittleEndian.PutUint64(id[:], l.sumsAt+uint64(len(sums)))
				binary.LittleEndian.PutUint32(id[8:], crc32.Checksum(sums, castagnoli))
				binary.LittleEndian.PutUint32(id[12:], l.headCRC)
				_, err := f.WriteAt(id[8:], symHeaderSize-8)
				return err
			})
		})
	}
	if err != nil {
		os.Remove(file)
		return id, fmt.Errorf("save %s: %w", file, err)
	}
	return id, nil
}

// writeAtomic writes data to file through a temporary file in its
// directory, renamed over it.
func writeAtomic(file string, data []byte) error {
	return writeStreamed(file, ".symbols-*.tmp", func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// writeStreamed writes file through a temporary file named by pattern
// in its directory, which fill writes and which is renamed over file.
func writeStreamed(file, pattern string, fill func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), pattern)
	if err != nil {
		return err
	}
	werr := fill(tmp)
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
