package callgraph

import (
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Go method sets and implementers (class hierarchy analysis by method
// name; signatures are not compared). An interface's method set is its
// own methods, those of the repository's interfaces it embeds and those
// of embedded interfaces declared outside the repository (read by
// goExternal). An unexported method is implemented only by a method
// declared in the interface's package.

// goMethodSet returns the method set of the repository's interface iface
// and whether it is complete (every embedded interface was read).
func (r *resolver) goMethodSet(iface SymbolID) ([]goMethodReq, bool) {
	gt := r.gotypes
	if ms, ok := gt.msets[iface]; ok {
		return ms.reqs, ms.complete
	}
	seen := map[string]bool{}
	var reqs []goMethodReq
	add := func(m goMethodReq) {
		if !seen[m.name] {
			seen[m.name] = true
			reqs = append(reqs, m)
		}
	}
	complete := true
	for _, c := range r.linearize(iface) {
		cn := r.g.nodes[c]
		pkg := moduleName(r.g.files[cn.File])
		for _, id := range r.g.byFile[cn.File] {
			n := r.g.nodes[id]
			if n.Kind == extract.KindMethod && moduleOf(n.Qualified) == cn.Qualified {
				params, results := r.goArity(id)
				m := goMethodReq{name: n.Name, params: params, results: results}
				if !isExportedName(n.Name) {
					m.pkg = pkg
				}
				add(m)
			}
		}
		if cn.Kind != extract.KindInterface {
			continue
		}
		for _, ext := range r.goExternalBases(c) {
			if ext.unknown != "" {
				complete = false
			}
			for _, m := range ext.methods {
				add(m)
			}
		}
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].name < reqs[j].name })
	gt.msets[iface] = goMsetMemo{reqs, complete}
	return reqs, complete
}

type goMsetMemo struct {
	reqs     []goMethodReq
	complete bool
}

// goExternalBases returns the method sets of the types cls embeds that are
// declared outside the repository (`io.Writer`, `error`), as written in its
// file.
func (r *resolver) goExternalBases(cls SymbolID) []*goIface {
	n := r.g.nodes[cls]
	f := r.g.files[n.File]
	var out []*goIface
	for _, b := range r.ix.bases[cls] {
		if t := r.goExternalType(f, b); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// goExternalType reads the type written as text in file f when it is
// declared outside the repository (or is the predeclared error); nil for
// the repository's types and unnamed ones.
func (r *resolver) goExternalType(f *extract.File, written string) *goIface {
	b := cleanTypeName(written)
	pkg, name, ok := strings.Cut(b, ".")
	if !ok {
		if b == "error" {
			return errorIface
		}
		return nil
	}
	path, ok := r.fileScope(f).bind[pkg]
	if !ok || r.hasMembers(path) || strings.Contains(name, ".") {
		return nil
	}
	return goExternal.iface(path, name)
}

// goExternalIface returns the method set of the named type t declared
// outside the repository (or the predeclared error), or nil when t is
// none.
func goExternalIface(t *gtype) *goIface {
	if t == nil || t.kind != gNamed || t.declared || t.opaque != "" {
		return nil
	}
	if t.name == "error" {
		return errorIface
	}
	i := strings.LastIndexByte(t.name, '.')
	if i <= 0 {
		return nil
	}
	return goExternal.iface(t.name[:i], t.name[i+1:])
}

// hasMethod reports whether the method set holds name.
func hasMethod(reqs []goMethodReq, name string) bool {
	for _, m := range reqs {
		if m.name == name {
			return true
		}
	}
	return false
}

// goImplementersOf returns the repository's non-interface Go types whose
// method set covers reqs, sorted by ID; memoised by method set.
func (r *resolver) goImplementersOf(reqs []goMethodReq) []SymbolID {
	if len(reqs) == 0 {
		return nil
	}
	gt := r.gotypes
	var key strings.Builder
	for _, m := range reqs {
		key.WriteString(m.pkg)
		key.WriteByte(' ')
		key.WriteString(m.name)
		key.WriteByte(';')
	}
	if impl, ok := gt.implBySet[key.String()]; ok {
		return impl
	}
	// Candidates declare the rarest method or embed a type that does, or
	// embed a type declared outside the repository (the method may be
	// promoted from it).
	first := reqs[0].name
	for _, m := range reqs[1:] {
		if len(r.ix.byName[m.name]) < len(r.ix.byName[first]) {
			first = m.name
		}
	}
	cands := map[SymbolID]bool{}
	var addCand func(p SymbolID)
	addCand = func(p SymbolID) {
		if cands[p] {
			return
		}
		cands[p] = true
		for _, e := range r.goEmbedders(r.g.nodes[p].Name) {
			addCand(e)
		}
	}
	for _, id := range r.ix.byName[first] {
		n := r.g.nodes[id]
		if n.Kind != extract.KindMethod || n.Language != "go" {
			continue
		}
		if p, ok := r.parentOf(id); ok && r.isClass(p) {
			addCand(p)
		}
	}
	for _, c := range r.goEmbedsExternal() {
		addCand(c)
	}
	var impl []SymbolID
	for c := range cands {
		if r.g.nodes[c].Kind == extract.KindInterface || r.g.nodes[c].Language != "go" {
			continue
		}
		all := true
		for _, m := range reqs {
			if !r.goHasMethod(c, m) {
				all = false
				break
			}
		}
		if all {
			impl = append(impl, c)
		}
	}
	sortIDs(impl)
	gt.implBySet[key.String()] = impl
	return impl
}

// goEmbedders returns the Go types that embed a type named name (by its
// written name, unresolved: candidates only); the index is built once per
// resolver from the written bases, without resolving them, so that an
// Update does not linearize every type of the repository.
func (r *resolver) goEmbedders(name string) []SymbolID {
	gt := r.gotypes
	if gt.embedders == nil {
		gt.embedders = map[string][]SymbolID{}
		ids := make([]SymbolID, 0, len(r.ix.bases))
		for id := range r.ix.bases {
			if r.g.nodes[id].Language == "go" {
				ids = append(ids, id)
			}
		}
		sortIDs(ids)
		for _, id := range ids {
			for _, b := range r.ix.bases[id] {
				b = cleanTypeName(b)
				b = b[strings.LastIndexByte(b, '.')+1:]
				gt.embedders[b] = append(gt.embedders[b], id)
			}
		}
	}
	return gt.embedders[name]
}

// goEmbedsExternal returns the repository's Go types that embed a type
// written with a package qualifier or error, in ID order; computed once per
// resolver.
func (r *resolver) goEmbedsExternal() []SymbolID {
	gt := r.gotypes
	if gt.embedsExt != nil {
		return *gt.embedsExt
	}
	var out []SymbolID
	for id, bases := range r.ix.bases {
		if r.g.nodes[id].Language != "go" || r.g.nodes[id].Kind == extract.KindInterface {
			continue
		}
		for _, b := range bases {
			if strings.Contains(b, ".") || b == "error" {
				out = append(out, id)
				break
			}
		}
	}
	sortIDs(out)
	gt.embedsExt = &out
	return out
}

// goHasMethod reports whether the method set of the repository type c
// holds m: declared on c, promoted from a type it embeds, or from an
// interface declared outside the repository it embeds.
func (r *resolver) goHasMethod(c SymbolID, m goMethodReq) bool {
	if ms, _ := r.method(c, m.name); len(ms) > 0 {
		if m.pkg != "" && moduleName(r.g.files[r.g.nodes[ms[0]].File]) != m.pkg {
			return false
		}
		p, res := r.goArity(ms[0])
		return m.params < 0 || p < 0 || p == m.params && res == m.results
	}
	for _, b := range r.linearize(c) {
		for _, ext := range r.goExternalBases(b) {
			for _, em := range ext.methods {
				if em.name == m.name && em.pkg == m.pkg && (em.params < 0 || m.params < 0 || em.params == m.params && em.results == m.results) {
					return true
				}
			}
		}
	}
	return false
}

// goDispatch returns the methods named name of the types implementing the
// method set reqs, sorted by ID; memoised by set, the repository
// interface's SymbolID or the external *goIface that has reqs.
func (r *resolver) goDispatch(set any, reqs []goMethodReq, name string) []SymbolID {
	key := goDispatchKey{set, name}
	if ids, ok := r.gotypes.dispatch[key]; ok {
		return ids
	}
	var out []SymbolID
	seen := map[SymbolID]bool{}
	for _, cls := range r.goImplementersOf(reqs) {
		ms, _ := r.method(cls, name)
		if len(ms) == 0 {
			continue // promoted from an interface declared outside the repository
		}
		if !seen[ms[0]] {
			seen[ms[0]] = true
			out = append(out, ms[0])
		}
	}
	sortIDs(out)
	r.gotypes.dispatch[key] = out
	return out
}

type goDispatchKey struct {
	set  any
	name string
}

// goArity counts the parameters and results of the Go method or function
// id from its signature text (no parsing: it runs for every candidate
// implementer); -1, -1 when the signature is not understood.
func (r *resolver) goArity(id SymbolID) (params, results int) {
	gt := r.gotypes
	if a, ok := gt.arity[id]; ok {
		return a[0], a[1]
	}
	params, results = -1, -1
	n := r.g.nodes[id]
	for _, s := range r.g.files[n.File].Symbols {
		if s.Qualified == n.Qualified && s.StartLine == n.Line {
			params, results = sigArity(s.Signature)
			break
		}
	}
	gt.arity[id] = [2]int{params, results}
	return params, results
}

// sigArity counts parameters and results in a Go signature as package
// extract writes it: "func (r T) Name(a, b int) (int, error)" for a
// method, "Name(p []byte) error" for an interface method.
func sigArity(sig string) (params, results int) {
	rest := strings.TrimPrefix(sig, "func")
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") { // receiver
		end := closingParen(rest, 0)
		if end < 0 {
			return -1, -1
		}
		rest = rest[end+1:]
	}
	open := strings.IndexByte(rest, '(')
	if open < 0 || strings.ContainsRune(rest[:open], '[') { // type parameters
		return -1, -1
	}
	end := closingParen(rest, open)
	if end < 0 {
		return -1, -1
	}
	params = listLen(rest[open+1 : end])
	res := strings.TrimSpace(rest[end+1:])
	switch {
	case res == "":
		results = 0
	case res[0] == '(':
		e := closingParen(res, 0)
		if e < 0 {
			return -1, -1
		}
		results = listLen(res[1:e])
	default:
		results = 1
	}
	return params, results
}

// listLen counts the comma-separated items of a parameter list at its top
// level: "a, b int, c string" has 3.
func listLen(s string) int {
	if strings.TrimSpace(s) == "" {
		return 0
	}
	n, depth := 1, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 && strings.TrimSpace(s[i+1:]) != "" {
				n++
			}
		}
	}
	return n
}

// closingParen returns the index of the ')' matching the '(' at open.
func closingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
