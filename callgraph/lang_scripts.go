package callgraph

// Lua and Ruby: call hooks for how their modules and constants are
// reached from other files.
//
//   - Lua: a module returns a table, and its functions are qualified
//     under the table's local name (`function M.f()` in shop/util.lua is
//     shop.util.M.f), while a caller reaches them through the name it
//     bound the require to: `local util = require("shop.util");
//     util.f()`. The hook looks for the one table of the required module
//     that has f (import).
//   - Ruby: constants are global whatever file defines them, and
//     qualified names start with the file's path module. A receiver that
//     is a constant path (Item, Shop::Item) not found otherwise is looked
//     up by its path within the caller's nesting (Shop::Cart sees
//     Shop::Item), then anywhere it is the only class with that path
//     (name). Item.new is a constructor call.

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

func init() {
	for lang, hook := range map[string]func(*resolver, SymbolID, extract.Call) ([]SymbolID, Resolution, string, bool){
		"lua": luaCall, "ruby": rubyCall,
	} {
		t := languageTraits[lang]
		t.call = hook
		languageTraits[lang] = t
	}
}

// luaCall resolves mod.f() where mod is bound to a required module of the
// repository; see the file comment.
func luaCall(r *resolver, caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	target, ok := r.scope.bind[c.Receiver]
	if !ok {
		return nil, "", "", false
	}
	if _, ok := r.ix.module[target]; !ok {
		return nil, "", "", false
	}
	var out []SymbolID
	defs := map[string]bool{}
	for _, id := range r.ix.byName[c.Name] {
		q := r.g.nodes[id].Qualified
		table, ok := strings.CutPrefix(q, target+".")
		if !ok || r.g.nodes[id].Language != "lua" {
			continue
		}
		if table, ok = strings.CutSuffix(table, "."+c.Name); ok && isIdent(table) {
			out = append(out, id)
			defs[q] = true
		}
	}
	if len(defs) != 1 {
		return nil, "", "", false
	}
	return out, Import, "", true
}

// rubyCall resolves calls on a constant path defined in another file;
// see the file comment.
func rubyCall(r *resolver, caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	recv := strings.TrimPrefix(c.Receiver, "::")
	if recv == "" || recv[0] < 'A' || recv[0] > 'Z' || r.isSelf(recv) {
		return nil, "", "", false
	}
	path := strings.ReplaceAll(recv, "::", ".")
	for _, p := range strings.Split(path, ".") {
		if !isIdent(p) {
			return nil, "", "", false
		}
	}
	if _, _, ok := r.resolveExpr(caller, recv); ok {
		return nil, "", "", false // in scope: the generic rules place it
	}
	classes, how := r.rubyConstant(caller, path)
	if len(classes) == 0 {
		return nil, "", "", false
	}
	if r.tr.newMethod != "" && c.Name == r.tr.newMethod {
		ids, how, reason := r.instantiate(classes, how)
		return ids, how, reason, true
	}
	var out []SymbolID
	for _, cls := range classes {
		ms, _ := r.method(cls, c.Name)
		out = append(out, ms...)
	}
	if len(out) == 0 {
		return nil, "", "", false
	}
	return out, how, "", true
}

// rubyConstant returns the class or module nodes (one per file that opens
// it) of a constant path seen from caller: within the caller's nesting,
// innermost first (local), else the only path that ends with it (name).
func (r *resolver) rubyConstant(caller SymbolID, path string) ([]SymbolID, Resolution) {
	last := lastSegment(path)
	byPath := map[string][]SymbolID{}
	for _, id := range r.ix.byName[last] {
		n := r.g.nodes[id]
		if n.Language != "ruby" || !(r.isClass(id) || n.Kind == extract.KindModule && !r.isFileModule(id)) {
			continue
		}
		p := strings.TrimPrefix(n.Qualified, moduleName(r.g.files[n.File])+".")
		if p == path || strings.HasSuffix(p, "."+path) {
			byPath[p] = append(byPath[p], id)
		}
	}
	nesting := ""
	if cls, ok := r.enclosingClass(caller); ok {
		n := r.g.nodes[cls]
		nesting = strings.TrimPrefix(n.Qualified, moduleName(r.g.files[n.File])+".")
	}
	for nesting != "" {
		if ids := byPath[nesting+"."+path]; len(ids) > 0 {
			return ids, Local
		}
		nesting = moduleOf(nesting)
	}
	if ids := byPath[path]; len(ids) > 0 {
		return ids, Local
	}
	if len(byPath) == 1 {
		for _, ids := range byPath {
			return ids, Name
		}
	}
	return nil, ""
}
