package docsearch

// docMem holds the documents a commit adds and their strings: the
// records by value in slabs of docSlab, their path, title and summary
// copied into blocks (termArena), and the chunks' titles there too.
//
// The collector marks what a building index holds at every collection,
// and a cold index of the Linux kernel holds 1.1 M documents by the end
// of its code pass, where a collection comes every ~300 MB allocated
// (docs/bigrepos.md, eleventh session). Each document was five objects
// of its own: its record, its key (made by CodeKeys), its title and its
// summary, which kept alive the symbol's qualified name and its whole
// doc comment that the summary is a part of. In a slab and the blocks,
// the pointers of a record lead to a few large objects that are marked
// once, and what the symbols were made of is garbage once their batch is
// committed.
//
// A removed document's slot and strings stay until compact, which moves
// the live documents into a new docMem: what is dead is bounded by what
// compaction lets pile up.
type docMem struct {
	slab []doc
	strs termArena
}

// docSlab is the number of records a slab holds: 36 KB.
const docSlab = 256

// keep returns a copy of d in m, its strings m's own.
func (m *docMem) keep(d *doc) *doc {
	if len(m.slab) == 0 {
		m.slab = make([]doc, docSlab)
	}
	k := &m.slab[0]
	m.slab = m.slab[1:]
	*k = *d
	k.path = m.strs.intern(d.path)
	k.title = m.strs.intern(d.title)
	k.summary = m.strs.intern(d.summary)
	return k
}

// title returns a chunk's title as m keeps it: d's own when it is d's
// title (a code document's chunk is titled by its symbol, as the
// document is), else a copy in m.
func (m *docMem) title(d *doc, title string) string {
	if title == d.title {
		return d.title
	}
	return m.strs.intern(title)
}
