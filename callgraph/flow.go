package callgraph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Flow-insensitive tracking of what names are bound to, in the spirit of
// PyCG: assignments, returns, arguments passed to parameters, decorators
// and containers (flattened) feed sets of abstract values; calls through a
// name or attribute whose set holds functions or classes resolve to them.
// It runs for files that carry bindings (Python).

// value is a function, class or module, or an instance of a class.
type value struct {
	id       SymbolID
	instance bool
}

type valueSet map[value]bool

// varKey names a variable: a scope's qualified name and a name in it.
// Class attributes are variables of the class; "<return>" holds what a
// function returns.
type varKey struct{ scope, name string }

type flow struct {
	r    *resolver
	vars map[varKey]valueSet
	sigs map[SymbolID]string
	grew bool
	// decorated are the definitions a decorator rebinds: calling their
	// name calls what the decorator returned.
	decorated map[SymbolID]bool
	ext       map[varKey]extSet // see flow_external.go
}

// maxFlowRounds bounds the fixpoint iteration; sets only grow, so it
// converges, and real code settles in a few rounds.
const maxFlowRounds = 12

// runFlow computes the variables of every file with bindings.
func runFlow(r *resolver, files []*extract.File, sigs map[SymbolID]string) *flow {
	fl := &flow{r: r, vars: map[varKey]valueSet{}, sigs: sigs, decorated: map[SymbolID]bool{}, ext: map[varKey]extSet{}}
	var withBindings []*extract.File
	for _, f := range files {
		if hasFlow(f) {
			withBindings = append(withBindings, f)
		}
	}
	if len(withBindings) == 0 {
		return fl
	}
	for round := 0; round < maxFlowRounds; round++ {
		fl.grew = false
		for _, f := range withBindings {
			r.enter(f)
			for i := 0; i < len(f.Bindings); {
				if n := decoratorStack(f.Bindings[i:]); n > 0 {
					fl.decorate(f.Bindings[i : i+n])
					i += n
					continue
				}
				fl.bind(f.Bindings[i])
				i++
			}
			for _, c := range f.Calls {
				fl.passArgs(c)
			}
		}
		if !fl.grew {
			break
		}
	}
	return fl
}

// hasFlow reports whether f carries what flow tracking reads: bindings or
// call arguments.
func hasFlow(f *extract.File) bool {
	if !languageTraits[f.Language].flow {
		return false
	}
	if len(f.Bindings) > 0 {
		return true
	}
	for _, c := range f.Calls {
		if len(c.Args) > 0 {
			return true
		}
	}
	return false
}

func (fl *flow) add(k varKey, vs valueSet) {
	addSet(&fl.grew, fl.vars, k, vs, nil)
}

// addSet adds to sets[k] the members of vs that admit takes (all, when
// admit is nil), and sets *grew when it added one.
func addSet[S ~map[V]bool, V comparable](grew *bool, sets map[varKey]S, k varKey, vs S, admit func(set S, v V) bool) {
	if len(vs) == 0 {
		return
	}
	set := sets[k]
	if set == nil {
		set = S{}
		sets[k] = set
	}
	for v := range vs {
		if !set[v] && (admit == nil || admit(set, v)) {
			set[v] = true
			*grew = true
		}
	}
}

// scopeID returns the node of a scope's qualified name in the current file.
func (fl *flow) scopeID(scope string) (SymbolID, bool) {
	if ids := fl.r.g.byQualified[scope]; len(ids) > 0 {
		return ids[0], true
	}
	id, ok := fl.r.ix.module[scope]
	return id, ok
}

// bind applies one binding.
func (fl *flow) bind(b extract.Binding) {
	scope, ok := fl.scopeID(b.Scope)
	if !ok {
		return
	}
	parts := splitTop(b.Value, '=')
	fl.destructure(scope, b.Scope, b.Target, parts[len(parts)-1])
	if b.Iter {
		// for x in obj: x also takes what obj's iterator's __next__
		// returns.
		_, next := fl.iteration(fl.eval(scope, b.Value))
		fl.bindAll(scope, b.Scope, b.Target, fl.callResult(next))
	}
}

// iteration returns the __iter__ methods iterating over the instances in
// vs calls, and the __next__ methods of the iterators they return.
func (fl *flow) iteration(vs valueSet) (iters, nexts valueSet) {
	iters, nexts = valueSet{}, valueSet{}
	for v := range vs {
		if !v.instance {
			continue
		}
		ms, _ := fl.r.method(v.id, "__iter__")
		for _, it := range ms {
			iters[value{it, false}] = true
			for w := range fl.vars[varKey{fl.r.g.nodes[it].Qualified, "<return>"}] {
				if !w.instance {
					continue
				}
				ns, _ := fl.r.method(w.id, "__next__")
				for _, n := range ns {
					nexts[value{n, false}] = true
				}
			}
		}
	}
	return iters, nexts
}

// bindAll binds every name in target to vs.
func (fl *flow) bindAll(scope SymbolID, scopeQ, target string, vs valueSet) {
	if len(vs) == 0 {
		return
	}
	if ts := sequence(target); ts != nil {
		for _, t := range ts {
			fl.bindAll(scope, scopeQ, t, vs)
		}
		return
	}
	fl.assign(scope, scopeQ, unstar(target), vs)
}

// unstar returns a target without the star of a starred one (`*rest`).
func unstar(target string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(target), "*"))
}

// destructure binds target to value, element by element where both are
// sequences written out, however nested: `a, (b, c) = f, (g, h)`. A
// starred target takes the elements the others leave, as a list (`a, *b
// = f, g, h` binds b to [g, h]). Where the value is not written out,
// every name in the target may hold any of its values.
func (fl *flow) destructure(scope SymbolID, scopeQ, target, value string) {
	targets := sequence(target)
	if targets == nil {
		t := unstar(target)
		fl.assign(scope, scopeQ, t, fl.eval(scope, value))
		if isIdent(t) {
			fl.bindFields(scope, scopeQ, t, value)
			fl.addExt(varKey{scopeQ, t}, fl.evalExt(scope, value))
		}
		return
	}
	values := sequence(value)
	star := slices.IndexFunc(targets, func(t string) bool { return strings.HasPrefix(t, "*") })
	switch {
	case values != nil && star < 0 && len(values) == len(targets):
		for i, t := range targets {
			fl.destructure(scope, scopeQ, t, values[i])
		}
	case values != nil && star >= 0 && len(values) >= len(targets)-1:
		after := len(targets) - star - 1
		for i := range star {
			fl.destructure(scope, scopeQ, targets[i], values[i])
		}
		rest := values[star : len(values)-after]
		fl.destructure(scope, scopeQ, targets[star][1:], "["+strings.Join(rest, ", ")+"]")
		for i := range after {
			fl.destructure(scope, scopeQ, targets[star+1+i], values[len(values)-after+i])
		}
	default:
		fl.bindAll(scope, scopeQ, target, fl.eval(scope, value))
	}
}

// sequence returns the elements of a tuple or list written out in s
// (`a, b`, `(a, b)`, `[a, b]`, `a,`), or nil when s is one expression.
func sequence(s string) []string {
	s = strings.TrimSpace(s)
	inner := s
	wrapped := len(s) >= 2 && (s[0] == '(' || s[0] == '[') && matchingParen(s[1:]) == len(s)-2
	if wrapped {
		inner = s[1 : len(s)-1]
	}
	parts := splitTop(inner, ',')
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	switch {
	case len(parts) > 1:
		return out
	case wrapped && s[0] == '[':
		return out // a list of one element
	}
	return nil
}

// decoratorStack returns how many bindings at the start of bs are the
// decorators of one definition (`@a @b def f`: bindings "@a" and "@b" of
// f, from one statement, top first), or 0.
func decoratorStack(bs []extract.Binding) int {
	n := 0
	for n < len(bs) && strings.HasPrefix(bs[n].Value, "@") &&
		bs[n].Scope == bs[0].Scope && bs[n].Target == bs[0].Target && bs[n].Line == bs[0].Line {
		n++
	}
	return n
}

// decorate applies the decorators of one definition, bottom up: `@a @b
// def f` binds f to a(b(f)). The bottom decorator's first parameter gets
// the undecorated f, each one above it the result of the one below.
func (fl *flow) decorate(stack []extract.Binding) {
	b := stack[0]
	scope, ok := fl.scopeID(b.Scope)
	if !ok {
		return
	}
	inner := valueSet{}
	ids, _ := fl.r.resolveName(scope, b.Target)
	for _, id := range ids {
		inner[value{id, false}] = true
		fl.decorated[id] = true
	}
	for i := len(stack) - 1; i >= 0; i-- {
		decs := fl.eval(scope, strings.TrimPrefix(stack[i].Value, "@"))
		for v := range decs {
			if params := fl.params(v.id); len(params) > 0 && !v.instance {
				fl.add(varKey{fl.r.g.nodes[v.id].Qualified, params[0]}, inner)
			}
		}
		inner = fl.callResult(decs)
	}
	fl.assign(scope, b.Scope, b.Target, inner)
}

// bindFields keeps the elements of a container literal apart by literal
// key or index, so that d["a"] and l[0] find only their own element.
func (fl *flow) bindFields(scope SymbolID, scopeQ, name, lit string) {
	lit = strings.TrimSpace(lit)
	if len(lit) < 2 || matchingParen(lit[1:]) != len(lit)-2 {
		return
	}
	for i, el := range splitTop(lit[1:len(lit)-1], ',') {
		if el == "" {
			continue
		}
		key := ""
		switch lit[0] {
		case '{':
			k, v, ok := cutTop(el, ':')
			if !ok || !isLiteralKey(k) {
				continue
			}
			key, el = normKey(k), v
		case '[', '(':
			key = strconvItoa(i)
		default:
			return
		}
		fl.add(varKey{scopeQ, name + "[" + key + "]"}, fl.eval(scope, el))
	}
}

// assign stores vs into a target expression seen from scope.
func (fl *flow) assign(scope SymbolID, scopeQ, target string, vs valueSet) {
	target = strings.Trim(target, "() ")
	if i := strings.IndexByte(target, '['); i > 0 && strings.HasSuffix(target, "]") {
		// d[k] = v: the container holds v, and so does its key k.
		if k := target[i+1 : len(target)-1]; isLiteralKey(k) && isIdent(target[:i]) {
			fl.add(varKey{scopeQ, target[:i] + "[" + normKey(k) + "]"}, vs)
		}
		target = target[:i]
	}
	base, attr, ok := cutLastTop(target, '.')
	if !ok {
		fl.add(varKey{scopeQ, target}, vs)
		return
	}
	if fl.r.isSelf(base) {
		if cls, ok := fl.r.enclosingClass(scope); ok {
			fl.add(varKey{fl.r.g.nodes[cls].Qualified, attr}, vs)
		}
		return
	}
	for v := range fl.eval(scope, base) {
		fl.add(varKey{fl.r.g.nodes[v.id].Qualified, attr}, vs)
	}
}

// passArgs binds a call's arguments to the parameters of its targets.
func (fl *flow) passArgs(c extract.Call) {
	if len(c.Args) == 0 {
		return
	}
	scope, ok := fl.scopeID(c.Caller)
	if !ok {
		return
	}
	for v := range fl.callees(scope, c) {
		fn, skip := v.id, 0
		if fl.r.isClass(fn) {
			ctor, ok := fl.ctor(fn)
			if !ok {
				continue
			}
			fn, skip = ctor, 1
		} else if fl.r.g.nodes[fn].Kind == extract.KindMethod && (c.Receiver != "" || fl.takesSelf(fn)) {
			// A method called through an instance, or through a name
			// holding one taken from an instance, is bound: self is
			// not among the arguments.
			skip = 1
		}
		params := fl.params(fn)
		q := fl.r.g.nodes[fn].Qualified
		for i, a := range c.Args {
			if strings.HasPrefix(a, "*") {
				continue
			}
			if name, val, ok := strings.Cut(a, "="); ok && isIdent(strings.TrimSpace(name)) {
				fl.add(varKey{q, strings.TrimSpace(name)}, fl.eval(scope, val))
				fl.addExt(varKey{q, strings.TrimSpace(name)}, fl.evalExt(scope, val))
				continue
			}
			if i+skip < len(params) {
				fl.add(varKey{q, params[i+skip]}, fl.eval(scope, a))
				fl.addExt(varKey{q, params[i+skip]}, fl.evalExt(scope, a))
			}
		}
	}
}

func (fl *flow) ctor(cls SymbolID) (SymbolID, bool) {
	if fl.r.tr.ctor == nil {
		return 0, false
	}
	for _, name := range fl.r.tr.ctor(fl.r.g.nodes[cls].Name) {
		if ms, _ := fl.r.method(cls, name); len(ms) > 0 {
			return ms[0], true
		}
	}
	return 0, false
}

// callResult is what calling each value gives: a function's returns, a
// class's instance.
func (fl *flow) callResult(vs valueSet) valueSet {
	out := valueSet{}
	for v := range vs {
		switch {
		case v.instance:
			if call, _ := fl.r.method(v.id, "__call__"); len(call) > 0 {
				for w := range fl.vars[varKey{fl.r.g.nodes[call[0]].Qualified, "<return>"}] {
					out[w] = true
				}
			}
		case fl.r.isClass(v.id):
			out[value{v.id, true}] = true
		default:
			for w := range fl.vars[varKey{fl.r.g.nodes[v.id].Qualified, "<return>"}] {
				out[w] = true
			}
		}
	}
	return out
}

// takesSelf reports whether a method's first parameter is self or cls:
// not a static method.
func (fl *flow) takesSelf(fn SymbolID) bool {
	params := fl.params(fn)
	return len(params) > 0 && contains(fl.r.tr.self, params[0])
}

// params returns the parameter names of a function from its signature.
func (fl *flow) params(id SymbolID) []string {
	sig := fl.sigs[id]
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return nil
	}
	inner := sig[open+1:]
	if close := matchingParen(inner); close >= 0 {
		inner = inner[:close]
	}
	var out []string
	for _, p := range splitTop(inner, ',') {
		p = strings.TrimSpace(p)
		if i := strings.IndexAny(p, ":="); i >= 0 {
			p = strings.TrimSpace(p[:i])
		}
		p = strings.TrimLeft(p, "*")
		if p != "" && p != "/" {
			out = append(out, p)
		}
	}
	return out
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isLiteralKey reports whether k is a string or integer literal.
func isLiteralKey(k string) bool {
	k = strings.TrimSpace(k)
	if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
		return true
	}
	return k != "" && strings.Trim(k, "-0123456789") == ""
}

// normKey writes a literal key one way: "a" and 'a' are the same key.
func normKey(k string) string {
	k = strings.TrimSpace(k)
	if len(k) >= 2 && k[0] == '\'' {
		return "\"" + k[1:len(k)-1] + "\""
	}
	return k
}

func strconvItoa(i int) string { return strconv.Itoa(i) }
