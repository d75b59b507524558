package graphstore

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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
func encodeSymbols(st *State, nodes []callgraph.Node, edges []callgraph.Edge, files []extract.File) ([]byte, error) {
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
	var offs [symSections][2]uint64
	pos := uint64(symHeaderSize)
	for i := range secSums {
		pos = (pos + 7) &^ 7
		offs[i] = [2]uint64{pos, uint64(len(sec[i]))}
		pos += uint64(len(sec[i]))
	}
	sumsAt := (pos + 7) &^ 7
	nblocks := (sumsAt + symBlock - 1) / symBlock
	offs[secSums] = [2]uint64{sumsAt, nblocks * 4}
	buf := make([]byte, sumsAt, sumsAt+nblocks*4)
	for i := range secSums {
		copy(buf[offs[i][0]:], sec[i])
	}
	h := buf[:0:symHeaderSize]
	h = append(h, symMagic...)
	for _, n := range []int{symVersion, len(nodes), len(edges), len(st.Config), len(st.Files)} {
		h = binary.LittleEndian.AppendUint32(h, uint32(n))
	}
	h = appendRef(h, keyRef)
	for _, o := range offs {
		h = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(h, o[0]), o[1])
	}
	h = binary.LittleEndian.AppendUint32(h, symBlock)
	// The sums, then their CRC, then the header's.
	var sums []byte
	for b := uint64(0); b < nblocks; b++ {
		end := min((b+1)*symBlock, sumsAt)
		if b == 0 {
			// Block 0 holds the header, whose last 8 bytes are not yet
			// written: the sum is taken once they are, below.
			sums = binary.LittleEndian.AppendUint32(sums, 0)
			continue
		}
		sums = binary.LittleEndian.AppendUint32(sums, crc32.Checksum(buf[b*symBlock:end], castagnoli))
	}
	h = binary.LittleEndian.AppendUint32(h, 0) // sumsCRC, set below
	h = binary.LittleEndian.AppendUint32(h, 0) // headerCRC, set below
	if len(h) != symHeaderSize {
		panic("symbols header size")
	}
	// Block 0 is summed with the last 8 bytes of the header zero: they
	// hold the sums' CRC and the header's, written after (verifyBlock
	// does the same).
	binary.LittleEndian.PutUint32(sums, crc32.Checksum(buf[:min(symBlock, sumsAt)], castagnoli))
	binary.LittleEndian.PutUint32(buf[symHeaderSize-8:], crc32.Checksum(sums, castagnoli))
	binary.LittleEndian.PutUint32(buf[symHeaderSize-4:], crc32.Checksum(buf[:symHeaderSize-8], castagnoli))
	return append(buf, sums...), nil
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
	data, err := encodeSymbols(st, nodes, edges, files)
	if err == nil {
		err = writeAtomic(file, data)
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
	tmp, err := os.CreateTemp(filepath.Dir(file), ".symbols-*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
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
