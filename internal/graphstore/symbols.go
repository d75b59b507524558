package graphstore

// symbols.idx, beside graph.bin: the call graph laid out to be read in
// place, so that a command that answers one lookup (callers, callees,
// symbols) maps it and reads the pages it needs instead of decoding
// graph.bin and restoring the graph (seconds and gigabytes on the Linux
// kernel). Sync writes it whenever it saves graph.bin, from the same
// state, and removes it when it cannot.
//
// All integers are little-endian. A string is a reference, two uint32s:
// its offset in the strings section and its length.
//
//	header    symHeaderSize bytes:
//	  magic      8 bytes "FISYMS\n\x00"
//	  version    uint32  symVersion; another is rebuilt
//	  nodes      uint32
//	  edges      uint32
//	  config     uint32  go.mod stamps
//	  files      uint32  source file stamps
//	  key        string  the state's key (State.Key)
//	  sections   symSections × (offset uint64, length uint64)
//	  block      uint32  bytes per checksum block: a power of two from
//	             minSymBlock to maxSymBlock (written as symBlock)
//	  sumsCRC    uint32  CRC-32C of the sums section
//	  headerCRC  uint32  CRC-32C of the header before it
//	sections, each at a multiple of 8:
//	  strings    the bytes every string reference points into
//	  nodes      per node, symNodeWords uint32s: qualified, name, kind,
//	             parent, file, language (strings), line, end line, flags
//	             (1: a declaration), then signature (cut at 256 bytes),
//	             doc (cut at 2 KiB) and bases (joined by "\n") of its
//	             symbol in the file's extraction
//	  edges      per edge, symEdgeWords uint32s: caller, callee, file
//	             (string), line, resolution (string)
//	  in, inIx   callers: (nodes+1) uint32 offsets into inIx, which holds
//	             edge numbers by callee, in edge order (CSR)
//	  out, outIx callees, alike by caller
//	  byQual     node numbers sorted by qualified name, then number
//	  byName     node numbers sorted by lower-case name, then number
//	  byFile     node numbers sorted by file, then number
//	  refs       per reference site (callgraph.RefSite) whose name is a
//	             node's other than a module's, sorted as
//	             callgraph.RefSitesOf sorts them (by name, then file, then
//	             the file's order), symRefWords uint32s: name, receiver,
//	             caller, file (strings), line, flags (1: the file is Go),
//	             first import (an index into refImps; a site's run ends
//	             where the next site's begins, the last's at the end)
//	  refImps    per import of a site, path and resolved (strings)
//	  names, nameStarts, grams, gramPosts
//	             the distinct lower-case names, sorted, and their index
//	             by trigram (symbols_names.go)
//	  stamps     per go.mod, then per source file, in walk order: path
//	             (string), size uint64, modification time uint64 (Unix
//	             ns; 0 for a racy time, which OpenSymbols never trusts)
//	  sums       CRC-32C of each block of the file before this section
//
// OpenSymbols checks the header (magic, version, CRC, every section
// inside the file, counts against section sizes) and the sums section;
// each block's checksum is verified the first time a read touches it
// (Verify checks them all), and every reference is bounds-checked, so a
// damaged file is an error (ErrCorrupt), never an answer.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"sync/atomic"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
)

// SymbolsFile is the name of the lookup index beside graph.bin.
const SymbolsFile = "symbols.idx"

const (
	symMagic = "FISYMS\n\x00"
	// symVersion 2 added the refs and refImps sections: a version 1
	// index is rebuilt, so that a restarted server's references are the
	// first start's. Version 3 added the names sections, which a name
	// search reads instead of every node's name.
	symVersion = 3
	// symBlock is the span of one checksum a writer uses: a lookup
	// verifies (and so faults in) every block it touches, once each. A
	// lookup's reads are scattered (a binary search of the names, then
	// its callers' nodes, names and files), so it touches about as many
	// blocks as it reads records. At 1 MiB, `callers kthread_should_stop`
	// on the Linux kernel (455 MB index) spent 19% of its samples
	// summing; at 4 KiB its user CPU fell from 0.44-0.47 s to
	// 0.33-0.36 s and its page faults by a third (docs/bigrepos.md). A
	// page is the least that is read anyway; the sums are then 4 bytes
	// a page (445 KB for the kernel, summed once at open).
	symBlock = 4 << 10
	// minSymBlock and maxSymBlock bound the block size a reader takes
	// from the header; 1 MiB is what version 1 was first written with.
	minSymBlock   = 4 << 10
	maxSymBlock   = 1 << 20
	symNodeWords  = 21
	symEdgeWords  = 7
	symRefWords   = 11
	symImpWords   = 4
	symStampBytes = 24
	maxSigBytes   = 256
	maxDocBytes   = 2048
)

// Sections of symbols.idx, in file order.
const (
	secStrings = iota
	secNodes
	secEdges
	secIn
	secInIx
	secOut
	secOutIx
	secByQual
	secByName
	secByFile
	secRefs
	secRefImps
	secNames
	secNameStarts
	secGrams
	secGramPosts
	secStamps
	secSums
	symSections
)

const symHeaderSize = 8 + 4*5 + 8 + 16*symSections + 4*3

// ErrCorrupt is the error of a symbols index that fails a check.
var ErrCorrupt = errors.New("corrupt symbols index")

// ErrStale is the error of OpenSymbols when the tree or the options
// changed since the index was written: Sync brings it up to date.
var ErrStale = errors.New("symbols index is stale")

var symbolsLimit = bounded.Limit{Kind: "symbols index", Max: 8 << 30}

// Symbols is a symbols index opened in place (see the format above). It
// serves lookup's Graph and Names; its methods panic with a
// *CorruptError when a block they read fails its checksum or a
// reference points outside the file: Guard turns that into an error.
// It is safe for concurrent use.
type Symbols struct {
	data     []byte
	release  func()
	mapped   bool // data is a mapping of the file (see DropPages)
	sec      [symSections][]byte
	secOff   [symSections]uint64
	nodes    int
	edges    int
	config   int
	files    int
	refs     int // reference sites
	refImps  int // their imports
	key      string
	block    uint64        // bytes per checksum block, from the header
	verified []atomic.Bool // by block
	sums     []byte
}

// CorruptError is what a Symbols method panics with on damaged data.
type CorruptError struct{ What string }

func (e *CorruptError) Error() string { return ErrCorrupt.Error() + ": " + e.What }
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// Guard runs f and returns the *CorruptError a Symbols method panicked
// with inside it, nil if none; any other panic goes on.
func Guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(*CorruptError)
			if !ok {
				panic(r)
			}
			err = ce
		}
	}()
	f()
	return nil
}

func corrupt(what string) { panic(&CorruptError{what}) }

// ReadSymbols opens the symbols index at file and checks its header; it
// does not look at the tree (see OpenSymbols). Close releases it.
func ReadSymbols(file string) (*Symbols, error) {
	f, info, err := bounded.Open(file, symbolsLimit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, release, mapped, err := mapFile(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", file, err)
	}
	s, err := parseSymbols(data)
	if err != nil {
		release()
		return nil, fmt.Errorf("open %s: %w", file, err)
	}
	s.release, s.mapped = release, mapped
	return s, nil
}

// DropPages gives back the pages of the index that reads have mapped
// into the process: a pass over every node (serve's index of names by
// word while it loads, earlySymbols.buildWords) maps the node table and
// the strings, 250 MB on the Linux kernel, of which later lookups read
// a few entries. The pages stay in the page cache; a read maps the one
// it needs again. It must not run beside Close.
func (s *Symbols) DropPages() bool {
	if !s.mapped || s.release == nil || len(s.data) == 0 {
		return false
	}
	return dropPages(s.data) == nil
}

// Close unmaps the index; nothing read from it may be used after.
func (s *Symbols) Close() {
	if s.release != nil {
		s.release()
		s.release = nil
	}
}

// parseSymbols checks the header of data and the sums.
func parseSymbols(data []byte) (*Symbols, error) {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrCorrupt, what) }
	if len(data) < symHeaderSize || !bytes.HasPrefix(data, []byte(symMagic)) {
		return nil, bad("not a symbols index")
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != symVersion {
		return nil, fmt.Errorf("symbols index version %d, want %d: %w", v, symVersion, ErrStale)
	}
	if crc32.Checksum(data[:symHeaderSize-8], castagnoli) != le.Uint32(data[symHeaderSize-4:]) {
		return nil, bad("header checksum")
	}
	s := &Symbols{data: data}
	s.nodes, s.edges = int(le.Uint32(data[12:])), int(le.Uint32(data[16:]))
	s.config, s.files = int(le.Uint32(data[20:])), int(le.Uint32(data[24:]))
	keyOff, keyLen := uint64(le.Uint32(data[28:])), uint64(le.Uint32(data[32:]))
	p := 36
	prev := uint64(symHeaderSize)
	for i := range symSections {
		off, n := le.Uint64(data[p:]), le.Uint64(data[p+8:])
		p += 16
		if off%8 != 0 || off < prev || off > uint64(len(data)) || n > uint64(len(data))-off {
			return nil, bad(fmt.Sprintf("section %d", i))
		}
		s.sec[i], s.secOff[i] = data[off:off+n], off
		prev = off + n
	}
	s.block = uint64(le.Uint32(data[p:]))
	if s.block < minSymBlock || s.block > maxSymBlock || s.block&(s.block-1) != 0 {
		return nil, bad("block size")
	}
	if prev != uint64(len(data)) {
		return nil, bad("file size")
	}
	sumsAt := s.secOff[secSums]
	nblocks := (sumsAt + s.block - 1) / s.block
	if uint64(len(s.sec[secSums])) != nblocks*4 {
		return nil, bad("sums")
	}
	if crc32.Checksum(s.sec[secSums], castagnoli) != le.Uint32(data[symHeaderSize-8:]) {
		return nil, bad("sums checksum")
	}
	s.sums = s.sec[secSums]
	s.verified = make([]atomic.Bool, nblocks)
	want := map[int]uint64{
		secNodes: uint64(s.nodes) * symNodeWords * 4, secEdges: uint64(s.edges) * symEdgeWords * 4,
		secIn: uint64(s.nodes+1) * 4, secOut: uint64(s.nodes+1) * 4, secInIx: uint64(s.edges) * 4, secOutIx: uint64(s.edges) * 4,
		secByQual: uint64(s.nodes) * 4, secByName: uint64(s.nodes) * 4, secByFile: uint64(s.nodes) * 4,
		secStamps: uint64(s.config+s.files) * symStampBytes,
	}
	for i, n := range want {
		if uint64(len(s.sec[i])) != n {
			return nil, bad(fmt.Sprintf("section %d size", i))
		}
	}
	if len(s.sec[secRefs])%(symRefWords*4) != 0 || len(s.sec[secRefImps])%(symImpWords*4) != 0 {
		return nil, bad("references size")
	}
	s.refs, s.refImps = len(s.sec[secRefs])/(symRefWords*4), len(s.sec[secRefImps])/(symImpWords*4)
	if err := s.checkNames(); err != nil {
		return nil, err
	}
	if keyOff+keyLen > uint64(len(s.sec[secStrings])) {
		return nil, bad("key")
	}
	s.key = string(s.sec[secStrings][keyOff : keyOff+keyLen])
	return s, nil
}

// touch verifies the blocks holding n bytes at off of section i, once
// each, panicking with a *CorruptError on a mismatch or a range outside
// the section.
func (s *Symbols) touch(i int, off, n uint64) []byte {
	sec := s.sec[i]
	if off > uint64(len(sec)) || n > uint64(len(sec))-off {
		corrupt(fmt.Sprintf("reference outside section %d", i))
	}
	if n == 0 {
		return nil
	}
	abs := s.secOff[i] + off
	for b := abs / s.block; b <= (abs+n-1)/s.block; b++ {
		if !s.verified[b].Load() {
			if err := s.verifyBlock(int(b)); err != nil {
				corrupt(err.Error())
			}
		}
	}
	return sec[off : off+n]
}

func (s *Symbols) verifyBlock(b int) error {
	size := int(s.block)
	end := min((b+1)*size, int(s.secOff[secSums]))
	var crc uint32
	if b == 0 {
		// Block 0 was summed with the sums CRC and the header CRC zero.
		var zero [8]byte
		crc = crc32.Update(0, castagnoli, s.data[:symHeaderSize-8])
		crc = crc32.Update(crc, castagnoli, zero[:])
		crc = crc32.Update(crc, castagnoli, s.data[symHeaderSize:end])
	} else {
		crc = crc32.Checksum(s.data[b*size:end], castagnoli)
	}
	if crc != binary.LittleEndian.Uint32(s.sums[4*b:]) {
		return fmt.Errorf("%w: block %d checksum", ErrCorrupt, b)
	}
	s.verified[b].Store(true)
	return nil
}

// Verify checks every block's checksum.
func (s *Symbols) Verify() error {
	for b := range s.verified {
		if err := s.verifyBlock(b); err != nil {
			return err
		}
	}
	return nil
}

func (s *Symbols) u32(i int, k uint64) uint32 {
	return binary.LittleEndian.Uint32(s.touch(i, 4*k, 4))
}

func (s *Symbols) str(b []byte) string {
	off, n := uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[4:]))
	return string(s.touch(secStrings, off, n))
}

// Len is the number of nodes.
func (s *Symbols) Len() int { return s.nodes }

func (s *Symbols) node(id callgraph.SymbolID) []byte {
	if int(id) >= s.nodes {
		corrupt(fmt.Sprintf("node %d of %d", id, s.nodes))
	}
	return s.touch(secNodes, uint64(id)*symNodeWords*4, symNodeWords*4)
}

// Node returns node id.
func (s *Symbols) Node(id callgraph.SymbolID) callgraph.Node {
	b := s.node(id)
	le := binary.LittleEndian
	return callgraph.Node{
		Qualified: s.str(b[0:]), Name: s.str(b[8:]), Kind: extract.Kind(s.str(b[16:])), Parent: s.str(b[24:]),
		File: s.str(b[32:]), Language: s.str(b[40:]), Line: int(le.Uint32(b[48:])), EndLine: int(le.Uint32(b[52:])),
		Declaration: le.Uint32(b[56:])&1 != 0,
	}
}

// Detail returns the signature (at most 256 bytes), doc (at most 2 KiB)
// and bases of node id's symbol; "" and nil when it has none.
func (s *Symbols) Detail(id callgraph.SymbolID) (signature, doc string, bases []string) {
	b := s.node(id)
	signature, doc = s.str(b[60:]), s.str(b[68:])
	if bs := s.str(b[76:]); bs != "" {
		bases = strings.Split(bs, "\n")
	}
	return signature, doc, bases
}

func (s *Symbols) edge(k uint32) callgraph.Edge {
	if int(k) >= s.edges {
		corrupt(fmt.Sprintf("edge %d of %d", k, s.edges))
	}
	b := s.touch(secEdges, uint64(k)*symEdgeWords*4, symEdgeWords*4)
	le := binary.LittleEndian
	e := callgraph.Edge{
		Caller: callgraph.SymbolID(le.Uint32(b)), Callee: callgraph.SymbolID(le.Uint32(b[4:])),
		File: s.str(b[8:]), Line: int(le.Uint32(b[16:])), Resolution: callgraph.Resolution(s.str(b[20:])),
	}
	if int(e.Caller) >= s.nodes || int(e.Callee) >= s.nodes {
		corrupt("edge end")
	}
	return e
}

func (s *Symbols) adjacent(offs, ix int, id callgraph.SymbolID) []callgraph.Edge {
	if int(id) >= s.nodes {
		corrupt(fmt.Sprintf("node %d of %d", id, s.nodes))
	}
	lo, hi := s.u32(offs, uint64(id)), s.u32(offs, uint64(id)+1)
	if lo > hi || int(hi) > s.edges {
		corrupt("adjacency offsets")
	}
	out := make([]callgraph.Edge, 0, hi-lo)
	for k := lo; k < hi; k++ {
		out = append(out, s.edge(s.u32(ix, uint64(k))))
	}
	return out
}

// Callers returns the edges into id, in edge order.
func (s *Symbols) Callers(id callgraph.SymbolID) []callgraph.Edge {
	return s.adjacent(secIn, secInIx, id)
}

// Callees returns the edges out of id, in edge order.
func (s *Symbols) Callees(id callgraph.SymbolID) []callgraph.Edge {
	return s.adjacent(secOut, secOutIx, id)
}

// ids returns the nodes of section sec (sorted by key) whose key is k.
func (s *Symbols) ids(sec int, k string, key func(callgraph.SymbolID) string) []callgraph.SymbolID {
	at := func(i int) callgraph.SymbolID { return callgraph.SymbolID(s.u32(sec, uint64(i))) }
	i := searchN(s.nodes, func(i int) bool { return key(at(i)) >= k })
	var out []callgraph.SymbolID
	for ; i < s.nodes; i++ {
		id := at(i)
		if key(id) != k {
			break
		}
		out = append(out, id)
	}
	return out
}

// searchN is sort.Search.
func searchN(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if !f(h) {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

func (s *Symbols) qualified(id callgraph.SymbolID) string { return s.str(s.node(id)[0:]) }
func (s *Symbols) lowerName(id callgraph.SymbolID) string {
	return strings.ToLower(s.str(s.node(id)[8:]))
}
func (s *Symbols) file(id callgraph.SymbolID) string { return s.str(s.node(id)[32:]) }

// Qualified returns the nodes of qualified name q, by number.
func (s *Symbols) Qualified(q string) []callgraph.SymbolID { return s.ids(secByQual, q, s.qualified) }

// Named returns the nodes whose lower-case name is lower, by number.
func (s *Symbols) Named(lower string) []callgraph.SymbolID {
	return s.ids(secByName, lower, s.lowerName)
}

// InFile returns the nodes of file path, by number.
func (s *Symbols) InFile(path string) []callgraph.SymbolID { return s.ids(secByFile, path, s.file) }

// readAll reads the size bytes of f, where it cannot be mapped.
func readAll(f *os.File, size int64) (data []byte, release func(), err error) {
	data = make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
