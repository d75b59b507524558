package callgraph

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Call sites resolved through the values of javascript_values.go.

// jsValueCall resolves calls through local names whose values are known:
// g() for `g = foo`, x.m() for `x = new C()`, handlers.get() for an
// object literal holding functions, routes[0]() for an array of them.
// handled is false to leave c to the rules of jsCall.
func (r *resolver) jsValueCall(caller SymbolID, c extract.Call) (ids []SymbolID, how Resolution, reason string, handled bool) {
	switch {
	case c.Name == "()":
		if ids := r.jsCallables(r.jsEval(caller, c.ReceiverExpr(), 0)); len(ids) > 0 {
			ids, how, reason = r.jsInstantiate(ids, Local)
			return ids, how, reason, true
		}
		if m, ok := jsKeyedCall(c); ok {
			return r.jsCall(caller, m) // data['delete'](key): the method delete
		}
		return nil, "", "", false
	case c.Receiver == "":
		vs, at, ok := r.jsVar(caller, c.Name)
		if !ok || r.g.nodes[at].Kind == KindModule && r.known(joinQ(r.f.Module, c.Name)) {
			return nil, "", "", false
		}
		if ids := r.jsCallables(vs); len(ids) > 0 {
			ids, how, reason = r.jsInstantiate(ids, Local)
			return ids, how, reason, true
		}
		if ext := r.jsExternalAlias(at, c.Name); ext != "" {
			return nil, "", "external: " + ext, true
		}
		return nil, "", "", false
	}
	vs, guarded := r.jsGuarded(caller, c)
	if !guarded {
		root := c.ReceiverExpr()
		for {
			switch {
			case root.Kind() == extract.ExprAttr || root.Kind() == extract.ExprIndex:
				root = root.Sub(0)
				continue
			case root.Kind() == extract.ExprCall && root.Sub(0).Kind() == extract.ExprAttr && root.Sub(0).Name() == "get":
				root = root.Sub(0).Sub(0) // table.get(k).handle(): a Map's value
				continue
			}
			break
		}
		switch {
		case root.Kind() != extract.ExprName:
			return nil, "", "", false
		case root.Name() == "this":
			// this.x.m(): the field x of this (this.m() is jsSelfCall's).
			if c.ReceiverExpr().Kind() == extract.ExprName {
				return nil, "", "", false
			}
		default:
			_, at, ok := r.jsVar(caller, root.Name())
			if !ok || r.g.nodes[at].Kind == KindModule && r.known(joinQ(r.f.Module, root.Name())) {
				return nil, "", "", false
			}
		}
		vs = r.jsEval(caller, c.ReceiverExpr(), 0)
	}
	if len(vs) == 0 {
		return nil, "", "", false
	}
	var types []string
	inherits := map[string]bool{} // types that are a class's external base
	unknown := false
	how = Local
	for _, v := range vs {
		switch {
		case strings.HasPrefix(v.builtin, "external: "):
			types = append(types, v.builtin) // a declared type from a package
		case v.builtin != "":
			types = append(types, "builtin: "+v.builtin)
		case v.instance:
			ms, inherited := r.method(v.id, c.Name)
			switch {
			case len(ms) > 0:
				ids = append(ids, r.jsSources(ms)...)
				switch {
				case r.g.nodes[v.id].Kind == extract.KindInterface:
					how = Interface // the method a declared interface type declares
				case inherited:
					how = Inherited
				default:
					how = Receiver
				}
			case r.g.nodes[v.id].Kind != extract.KindClass || v.weak:
				// An ES5 constructor, whose members come by assignment, or
				// a value that may be another.
				unknown = true
			default:
				if ext := r.jsExternalBase(v.id); ext != "" {
					types = append(types, ext)
					inherits[ext] = true
				} else {
					types = append(types, r.g.nodes[v.id].Name)
				}
			}
		case v.lit.Kind() == extract.ExprList:
			if got := r.jsCallables(r.jsElement(v, c.Name, 1)); len(got) > 0 {
				ids = append(ids, got...)
			} else {
				types = append(types, "builtin: Array")
			}
		case v.lit.Valid():
			// An object literal may gain properties by assignment: only
			// the ones it holds are known.
			if got := r.jsCallables(r.jsElement(v, c.Name, 1)); len(got) > 0 {
				ids = append(ids, got...)
			} else {
				unknown = true
			}
		case (c.Name == "call" || c.Name == "apply") && r.isFunction(r.g.nodes[v.id].Qualified):
			ids = append(ids, v.id) // f.call(this, …) calls f
		default:
			got := r.jsCallables(r.jsEvalMember(v, c.Name, 1))
			if len(got) == 0 {
				unknown = true // a symbol's member: jsCall's rules
			}
			ids = append(ids, got...)
		}
	}
	if len(ids) > 0 {
		sortIDs(ids)
		ids = dedupeIDs(ids)
		out, h, reason := r.jsInstantiate(ids, how)
		return out, h, reason, true
	}
	if unknown {
		return nil, "", "", false
	}
	if types = dedupeStrings(types); len(types) == 1 {
		switch t := strings.TrimSuffix(types[0], "."); {
		case strings.HasPrefix(t, "builtin: "):
			return nil, "", t + "." + c.Name, true // builtin: Map.get
		case strings.HasPrefix(t, "external: ") && inherits[types[0]]:
			return nil, "", t + "." + c.Name + " (inherited)", true
		case strings.HasPrefix(t, "external: "):
			return nil, "", t + "." + c.Name, true
		}
	}
	return nil, "", fmt.Sprintf("no member %s on %s", c.Name, joinTypes(types)), true
}

// jsCallbackMethods are the builtin methods that call a function they
// are given: of arrays, strings, promises and event emitters.
var jsCallbackMethods = map[string]bool{
	"forEach": true, "map": true, "filter": true, "reduce": true, "reduceRight": true,
	"some": true, "every": true, "find": true, "findIndex": true, "findLast": true,
	"findLastIndex": true, "flatMap": true, "sort": true, "toSorted": true,
	"replace": true, "replaceAll": true,
	"then": true, "catch": true, "finally": true,
	"nextTick": true, "addEventListener": true, "on": true, "once": true,
	"addListener": true, "prependListener": true, "prependOnceListener": true,
}

// jsCallbackFunctions are the global functions that call a function
// they are given.
var jsCallbackFunctions = map[string]bool{
	"setTimeout": true, "setInterval": true, "setImmediate": true,
	"queueMicrotask": true, "requestAnimationFrame": true, "requestIdleCallback": true,
}

// jsUncalledArguments are the functions and methods of packages and
// Node that take a function to take it off, compare it or link it, not
// to call it: an emitter's removeListener, util.inherits.
var jsUncalledArguments = map[string]bool{
	"removeListener": true, "removeEventListener": true, "off": true, "removeAllListeners": true,
	"listeners": true, "listenerCount": true, "rawListeners": true, "inherits": true,
	"clearTimeout": true, "clearInterval": true, "clearImmediate": true,
}

// jsCallbacks returns the edges from caller to the functions that call c
// hands to code that calls them, labelled Callback: to a builtin that
// calls them (arr.map(foo), p.then(this.done), setTimeout(tick)), or,
// when outside is true (c calls a package's or Node's function or
// method), to that code: a function written as an argument
// (psTree(pid, (err, pids) => …), rxjs's catchError(async (e) => …)),
// or a function named as the last argument, where Node and its packages
// take their callback (exec(cmd, done)).
func (r *resolver) jsCallbacks(caller SymbolID, c extract.Call, outside bool) []Edge {
	n := c.ArgExprs().Len()
	if n == 0 {
		return nil
	}
	var builtin bool
	if c.Receiver == "" {
		builtin = jsCallbackFunctions[c.Name]
		if _, how := r.resolveName(caller, c.Name); builtin && how != "" {
			return nil // the repository's own setTimeout
		}
	} else {
		builtin = jsCallbackMethods[c.Name]
	}
	if !builtin && (!outside || jsUncalledArguments[c.Name]) {
		return nil
	}
	var vs []jsVal
	lambda := false
	for i := range n {
		switch a := c.ArgExprs().Sub(i); a.Kind() {
		case extract.ExprName, extract.ExprAttr, extract.ExprIndex, extract.ExprCall:
			// foo, this.done, handlers[0], this.done.bind(this), make()
			if builtin || i == n-1 {
				vs = append(vs, r.jsEval(caller, a, 0)...)
			}
		case extract.ExprLambda:
			lambda = true
		}
	}
	if lambda {
		// items.forEach((x) => …): the function written there.
		if id, ok := r.jsCallbackNode(caller, c); ok {
			vs = append(vs, jsVal{id: id})
		}
	}
	var out []Edge
	for _, id := range r.jsCallables(vs) {
		if r.jsAccessors([]SymbolID{id}) {
			continue // const host = this.hostname: the getter's value, not the getter
		}
		if k := r.g.nodes[id].Kind; k == extract.KindFunction || k == extract.KindMethod {
			out = append(out, Edge{Caller: caller, Callee: id, File: r.f.Path, Line: c.Line, Resolution: Callback})
		}
	}
	return out
}

// jsCallbackNode finds the function expression passed to c, written in
// caller: the symbol extract names "<callback of items.forEach>" (the
// callee as written when it is a path of names, else ".forEach"; with
// the first argument when it is a short string) that starts first on or
// after c's line, or in an object literal written in caller. Named
// function expressions keep their own names and are not found.
func (r *resolver) jsCallbackNode(caller SymbolID, c extract.Call) (SymbolID, bool) {
	label := c.Name
	if c.Receiver != "" {
		label = "." + c.Name
		if jsNamePathText(c.Receiver) && len(c.Receiver)+1+len(c.Name) <= 60 {
			label = c.Receiver + "." + c.Name
		}
	}
	labels := []string{label}
	if args := c.Args(); len(args) > 0 && len(args[0]) <= 40 && len(args[0]) > 1 && strings.ContainsRune("\"'`", rune(args[0][0])) {
		labels = append(labels, label+"("+args[0]+")")
	}
	parent := r.g.nodes[caller].Qualified
	parents := []string{parent}
	// {k: items.every((x) => …)}: the callback is named in the object
	// literal, whose values run in caller.
	for _, id := range r.g.InFile(r.f.Path) {
		if n := r.g.nodes[id]; n.Kind == extract.KindObject && n.Line <= c.Line && c.Line <= n.EndLine &&
			strings.HasPrefix(n.Qualified, parent+".") {
			parents = append(parents, n.Qualified)
		}
	}
	var best SymbolID
	found := false
	for _, p := range parents {
		for _, l := range labels {
			for _, id := range r.g.byQualified[joinQ(p, "<callback of "+l+">")] {
				n := r.g.nodes[id]
				if n.File != r.f.Path || n.Line < c.Line || n.Line > c.Line+maxCallbackLines {
					continue
				}
				if !found || n.Line < r.g.nodes[best].Line {
					best, found = id, true
				}
			}
		}
	}
	return best, found
}

// maxCallbackLines bounds how far below the called name a callback
// passed to it may start: arguments before it rarely take more.
const maxCallbackLines = 10

// jsNamePathText reports whether s is a name or a path of names: a,
// this.b, a.b.c.
func jsNamePathText(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80) {
				return false
			}
		}
	}
	return true
}

// joinTypes lists the types of a receiver for a reason.
func joinTypes(ts []string) string {
	ts = dedupeStrings(ts)
	switch len(ts) {
	case 0:
		return "its value"
	case 1:
		return ts[0]
	}
	return fmt.Sprintf("%s (or %d other types)", ts[0], len(ts)-1)
}

func dedupeStrings(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// jsKeyedCall is the method call that c, a call of an element with a
// string key (`data['delete'](key)`), makes: c with the key as its name
// and the object as its receiver.
func jsKeyedCall(c extract.Call) (extract.Call, bool) {
	recv := c.ReceiverExpr()
	key := recv.Sub(1)
	if recv.Kind() != extract.ExprIndex || key.Kind() != extract.ExprString || !jsNamePathText(key.Name()) ||
		strings.Contains(key.Name(), ".") || !strings.HasSuffix(c.Receiver, "]") {
		return c, false
	}
	i := strings.LastIndexByte(c.Receiver, '[')
	if i <= 0 {
		return c, false
	}
	obj := recv.Sub(0)
	m := c
	vals := *c.CallValues
	vals.ReceiverExpr = obj
	vals.Guard = ""
	m.CallValues = &vals
	m.Name = key.Name()
	m.Receiver = strings.TrimSpace(c.Receiver[:i])
	return m, true
}

// jsExternalAlias names the package member that every binding of name
// in scope takes, as `var exec = childProcess.exec` does for
// childProcess = require('child_process'): "child_process.exec"; else
// "".
func (r *resolver) jsExternalAlias(scope SymbolID, name string) string {
	idx := r.jsBindingsOf(r.f)[[2]string{r.g.nodes[scope].Qualified, name}]
	ext := ""
	for _, i := range idx {
		b := &r.f.Bindings[i]
		if b.Iter || b.ValueExpr.Kind() != extract.ExprAttr || !jsNamePathText(b.Value) {
			return ""
		}
		v, _, ok := r.jsValueOf(scope, b.Value)
		if !ok || v.ext == "" || ext != "" && v.ext != ext {
			return ""
		}
		ext = v.ext
	}
	return ext
}
