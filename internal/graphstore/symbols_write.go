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

// Writing symbols.idx (its format is at the top of symbols.go).

// symWriter builds the sections of a symbols index.
type symWriter struct {
	strs  []byte
	seen  map[string][2]uint32
	words []byte // scratch
}

func (w *symWriter) str(s string) [2]uint32 {
	if r, ok := w.seen[s]; ok {
		return r
	}
	r := [2]uint32{uint32(len(w.strs)), uint32(len(s))}
	w.strs = append(w.strs, s...)
	w.seen[s] = r
	return r
}

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

// encodeSymbols lays out the lookup index of nodes and edges, with the
// details of their symbols from files and the stamps of st.
// It sums the file in blocks of block bytes (symBlock when written).
func encodeSymbols(st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File, block uint64) ([]byte, error) {
	l, err := layoutSymbols(st, nodes, edges, files, block)
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

// symLayout is a symbols index in sections, before it is written.
type symLayout struct {
	sec     [symSections][]byte
	offs    [symSections][2]uint64
	head    []byte // but its last 8 bytes: the sums' CRC and its own
	headCRC uint32
	sumsAt  uint64
	block   uint64 // bytes per checksum block
}

// layoutSymbols makes the sections of the lookup index (see
// encodeSymbols) and the header that places them.
func layoutSymbols(st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File, block uint64) (*symLayout, error) {
	if len(nodes) >= 1<<31 || len(edges) >= 1<<31 {
		return nil, errors.New("graph too large for a symbols index")
	}
	w := &symWriter{seen: map[string][2]uint32{}}
	var sec [symSections][]byte
	type key struct {
		q    string
		line int
	}
	byPath := make(map[string]*extract.File, len(files))
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	var cur string
	var syms map[key]*extract.Symbol
	nb := make([]byte, 0, len(nodes)*symNodeWords*4)
	for _, n := range nodes {
		for _, s := range []string{n.Qualified, n.Name, string(n.Kind), n.Parent, n.File, n.Language} {
			nb = appendRef(nb, w.str(s))
		}
		flags := uint32(0)
		if n.Declaration {
			flags = 1
		}
		nb = binary.LittleEndian.AppendUint32(nb, uint32(max(n.Line, 0)))
		nb = binary.LittleEndian.AppendUint32(nb, uint32(max(n.EndLine, 0)))
		nb = binary.LittleEndian.AppendUint32(nb, flags)
		var sym *extract.Symbol
		if n.Kind != callgraph.KindModule {
			if n.File != cur || syms == nil {
				cur, syms = n.File, map[key]*extract.Symbol{}
				if f := byPath[n.File]; f != nil {
					for j := range f.Symbols {
						s := &f.Symbols[j]
						syms[key{s.Qualified, s.StartLine}] = s
					}
				}
			}
			sym = syms[key{n.Qualified, n.Line}]
		}
		var sig, doc, bases string
		if sym != nil {
			sig, doc, bases = cut(sym.Signature, maxSigBytes), cut(sym.Doc, maxDocBytes), strings.Join(sym.Bases, "\n")
		}
		nb = appendRef(nb, w.str(sig))
		nb = appendRef(nb, w.str(doc))
		nb = appendRef(nb, w.str(bases))
	}
	sec[secNodes] = nb
	eb := make([]byte, 0, len(edges)*symEdgeWords*4)
	in := make([]uint32, len(nodes)+1)
	out := make([]uint32, len(nodes)+1)
	for _, e := range edges {
		if int(e.Caller) >= len(nodes) || int(e.Callee) >= len(nodes) {
			return nil, fmt.Errorf("edge %d -> %d outside the %d nodes", e.Caller, e.Callee, len(nodes))
		}
		eb = binary.LittleEndian.AppendUint32(eb, uint32(e.Caller))
		eb = binary.LittleEndian.AppendUint32(eb, uint32(e.Callee))
		eb = appendRef(eb, w.str(e.File))
		eb = binary.LittleEndian.AppendUint32(eb, uint32(max(e.Line, 0)))
		eb = appendRef(eb, w.str(string(e.Resolution)))
		in[e.Callee+1]++
		out[e.Caller+1]++
	}
	sec[secEdges] = eb
	csr := func(offs []uint32, end func(callgraph.Edge) callgraph.SymbolID) (o, ix []byte) {
		for i := 1; i < len(offs); i++ {
			offs[i] += offs[i-1]
		}
		next := slices.Clone(offs[:len(offs)-1])
		idx := make([]uint32, len(edges))
		for i, e := range edges {
			n := end(e)
			idx[next[n]] = uint32(i)
			next[n]++
		}
		return u32s(offs), u32s(idx)
	}
	sec[secIn], sec[secInIx] = csr(in, func(e callgraph.Edge) callgraph.SymbolID { return e.Callee })
	sec[secOut], sec[secOutIx] = csr(out, func(e callgraph.Edge) callgraph.SymbolID { return e.Caller })
	order := func(by func(n *callgraph.Node) string) []byte {
		ids := make([]uint32, len(nodes))
		keys := make([]string, len(nodes))
		for i := range ids {
			ids[i], keys[i] = uint32(i), by(&nodes[i])
		}
		slices.SortFunc(ids, func(a, b uint32) int { return cmp.Or(strings.Compare(keys[a], keys[b]), cmp.Compare(a, b)) })
		return u32s(ids)
	}
	sec[secByQual] = order(func(n *callgraph.Node) string { return n.Qualified })
	sec[secByName] = order(func(n *callgraph.Node) string { return strings.ToLower(n.Name) })
	sec[secByFile] = order(func(n *callgraph.Node) string { return n.File })
	var sb []byte
	for _, es := range [][]Entry{st.Config, st.Files} {
		for _, e := range es {
			sb = appendRef(sb, w.str(e.Path))
			sb = binary.LittleEndian.AppendUint64(sb, uint64(max(e.Size, 0)))
			sb = binary.LittleEndian.AppendUint64(sb, uint64(max(e.ModTime, 0)))
		}
	}
	sec[secStamps] = sb
	keyRef := w.str(st.Key)
	sec[secStrings] = w.strs
	if len(w.strs) >= 1<<32 {
		return nil, errors.New("graph too large for a symbols index")
	}

	// Lay the sections out after the header, each at a multiple of 8.
	l := &symLayout{sec: sec, block: block}
	pos := uint64(symHeaderSize)
	for i := range secSums {
		pos = (pos + 7) &^ 7
		l.offs[i] = [2]uint64{pos, uint64(len(sec[i]))}
		pos += uint64(len(sec[i]))
	}
	l.sumsAt = (pos + 7) &^ 7
	nblocks := (l.sumsAt + block - 1) / block
	l.offs[secSums] = [2]uint64{l.sumsAt, nblocks * 4}
	h := make([]byte, 0, symHeaderSize)
	h = append(h, symMagic...)
	for _, n := range []int{symVersion, len(nodes), len(edges), len(st.Config), len(st.Files)} {
		h = binary.LittleEndian.AppendUint32(h, uint32(n))
	}
	h = appendRef(h, keyRef)
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

// write writes the index to w, section by section, letting go of each
// once written: the sections were 455 MB on the Linux kernel, and were
// copied into one buffer beside themselves. The last 8 bytes of the
// header are written as zeros (as block 0 is summed, see verifyBlock);
// finish gets the sums and writes them in place.
func (l *symLayout) write(w io.Writer, finish func(sums []byte) error) error {
	bs := &blockSums{w: w, block: l.block}
	var zero [8]byte
	if _, err := bs.Write(l.head); err != nil {
		return err
	}
	if _, err := bs.Write(zero[:]); err != nil {
		return err
	}
	for i := range secSums {
		if _, err := bs.Write(zero[:l.offs[i][0]-bs.at]); err != nil {
			return err
		}
		if _, err := bs.Write(l.sec[i]); err != nil {
			return err
		}
		l.sec[i] = nil
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

func u32s(v []uint32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// writeSymbols writes the symbols index of st and its graph to dir
// atomically. On failure it removes the old one, which no longer
// matches graph.bin, and returns the error.
func writeSymbols(dir string, st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File) error {
	file := filepath.Join(dir, SymbolsFile)
	l, err := layoutSymbols(st, nodes, edges, files, symBlock)
	if err == nil {
		err = writeStreamed(file, ".symbols-*.tmp", func(f *os.File) error {
			w := bufio.NewWriterSize(f, 1<<20)
			return l.write(w, func(sums []byte) error {
				if err := w.Flush(); err != nil {
					return err
				}
				var tail [8]byte
				binary.LittleEndian.PutUint32(tail[:], crc32.Checksum(sums, castagnoli))
				binary.LittleEndian.PutUint32(tail[4:], l.headCRC)
				_, err := f.WriteAt(tail[:], symHeaderSize-8)
				return err
			})
		})
	}
	if err != nil {
		os.Remove(file)
		return fmt.Errorf("save %s: %w", file, err)
	}
	return nil
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
