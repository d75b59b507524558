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
	r      *resolver
	vars   map[varKey]valueSet
	params map[SymbolID][]string // by function
	grew   bool
	// decorated are the definitions a decorator rebinds: calling their
	// name calls what the decorator returned.
	decorated map[SymbolID]bool
	ext       map[varKey]extSet // see flow_external.go
	// attrs are the attributes the repository's classes assign on
	// self (`self.x = ...`), whatever the value: an external base's
	// member of that name is not what the instance holds.
	attrs map[varKey]bool
	// stars are the indexes of the *args and **kwargs parameters (-1
	// for none) of the functions that have one (python_outside.go).
	stars map[SymbolID][2]int
	// argparse is set once some set_defaults or add_argument gave a
	// default that is a value (python_flow.go).
	argparse bool
	// failed are the files whose tracking panicked, with the reason;
	// they take no further part.
	failed map[string]string
	// scratch is hasName's set, emptied at each use.
	scratch valueSet
	// defs memoises definitions (flow_eval.go).
	defs map[defKey]nameDefs
}

// maxFlowRounds bounds the fixpoint iteration; sets only grow, so it
// converges, and real code settles in a few rounds.
const maxFlowRounds = 12

// runFlow computes the variables of every file with bindings.
func runFlow(r *resolver, files []*extract.File, params map[SymbolID][]string) *flow {
	fl := &flow{r: r, vars: map[varKey]valueSet{}, params: params, decorated: map[SymbolID]bool{}, ext: map[varKey]extSet{}, attrs: map[varKey]bool{}, stars: map[SymbolID][2]int{}, failed: map[string]string{}}
	var withBindings []*extract.File
	for _, f := range files {
		if hasFlow(f) {
			withBindings = append(withBindings, f)
		}
	}
	if len(withBindings) == 0 {
		return fl
	}
	for _, f := range withBindings {
		fl.selfAttrs(f)
	}
	fixtures := fl.fixtureUses(withBindings)
	for round := 0; round < maxFlowRounds; round++ {
		fl.grew = false
		for _, f := range withBindings {
			if _, ok := fl.failed[f.Path]; !ok {
				fl.round(f)
			}
		}
		fl.passFixtures(fixtures)
		if !fl.grew {
			break
		}
	}
	return fl
}

// round applies f's bindings and passes its calls' arguments once; a
// panic puts f in fl.failed.
func (fl *flow) round(f *extract.File) {
	defer func() {
		if v := recover(); v != nil {
			fl.failed[f.Path] = panicReason("tracking values", v)
		}
	}()
	if testHookFile != nil {
		testHookFile(f.Path)
	}
	fl.r.enter(f)
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
		if c.ArgExprs().Len() > 0 {
			return true
		}
	}
	return false
}

// maxValues bounds what one variable may hold. A variable that could
// hold more (the parameter of an identity decorator applied across a
// package, a registry every plugin is appended to) is saturated: it
// holds nothing from then on, and calls through it stay unresolved. An
// edge to each of a hundred candidates tells an agent nothing, and
// without the bound the values of such variables flow into everything
// they touch: on the Python standard library with its tests the sets grew
// to 175 million members in four rounds, past 14 GB.
const maxValues = 64

func (fl *flow) add(k varKey, vs valueSet) {
	addSet(&fl.grew, fl.vars, k, vs, maxValues)
}

// addSet adds the members of vs to sets[k], and sets *grew when it added
// one. A set that would pass limit members is saturated instead: emptied
// for good, present so that lookups stop at it. Whether a set saturates
// does not depend on the order of its members, so neither does the graph.
func addSet[S ~map[V]bool, V comparable](grew *bool, sets map[varKey]S, k varKey, vs S, limit int) {
	if len(vs) == 0 {
		return
	}
	set, ok := sets[k]
	if ok && set == nil {
		return // saturated
	}
	n := len(set)
	for v := range vs {
		if !set[v] {
			n++
		}
	}
	switch {
	case n == len(set):
		return
	case n > limit:
		sets[k] = nil
		*grew = true
		return
	case set == nil:
		set = make(S, len(vs))
		sets[k] = set
	}
	for v := range vs {
		set[v] = true
	}
	*grew = true
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
	switch {
	case ok && b.Type != "" && !b.ValueExpr.Valid():
		fl.annotate(scope, b)
	case !ok || !b.ValueExpr.Valid():
	case b.Target == "<return>":
		fl.add(varKey{b.Scope, b.Target}, fl.eval(scope, b.ValueExpr))
	case b.Iter && b.TargetExpr.Kind() == extract.ExprName:
		// for x in v: x holds v's elements (containers are flattened),
		// which are no list or dict as v is (python_flow.go).
		fl.add(varKey{b.Scope, b.TargetExpr.Name()}, fl.eval(scope, b.ValueExpr))
		fl.addExt(varKey{b.Scope, b.TargetExpr.Name()}, elementsExt(fl.evalExt(scope, b.ValueExpr)))
		_, next := fl.iteration(fl.eval(scope, b.ValueExpr))
		fl.bindAll(scope, b.Scope, b.TargetExpr, fl.callResult(next))
	case b.TargetExpr.Valid():
		fl.destructure(scope, b.Scope, b.TargetExpr, b.ValueExpr)
		if b.Iter {
			// for x in obj: x also takes what obj's iterator's
			// __next__ returns.
			_, next := fl.iteration(fl.eval(scope, b.ValueExpr))
			fl.bindAll(scope, b.Scope, b.TargetExpr, fl.callResult(next))
		}
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
func (fl *flow) bindAll(scope SymbolID, scopeQ string, target extract.Expr, vs valueSet) {
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
func unstar(target extract.Expr) extract.Expr {
	if target.Kind() == extract.ExprSplat {
		return target.Sub(0)
	}
	return target
}

// destructure binds target to value, element by element where both are
// sequences written out, however nested: `a, (b, c) = f, (g, h)`. A
// starred target takes the elements the others leave, as a list (`a, *b
// = f, g, h` binds b to [g, h]). Where the value is not written out,
// every name in the target may hold any of its values.
func (fl *flow) destructure(scope SymbolID, scopeQ string, target, value extract.Expr) {
	targets := sequence(target)
	if targets == nil {
		t := unstar(target)
		if t.Kind() == extract.ExprName {
			fl.bindName(scope, scopeQ, t.Name(), value)
		} else {
			fl.assign(scope, scopeQ, t, fl.eval(scope, value))
			fl.assignExt(scope, t, fl.evalExt(scope, value))
		}
		return
	}
	values := sequence(value)
	star := slices.IndexFunc(targets, func(t extract.Expr) bool { return t.Kind() == extract.ExprSplat })
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
		if t := unstar(targets[star]); t.Kind() == extract.ExprName {
			fl.bindList(scope, scopeQ, t.Name(), rest)
		} else {
			vs := valueSet{}
			for _, r := range rest {
				fl.evalInto(vs, scope, r)
			}
			fl.assign(scope, scopeQ, t, vs)
		}
		for i := range after {
			fl.destructure(scope, scopeQ, targets[star+1+i], values[len(values)-after+i])
		}
	default:
		fl.bindAll(scope, scopeQ, target, fl.eval(scope, value))
	}
}

// bindName binds variable name to the value of v: what it holds, its
// elements under literal keys, what it holds from outside.
func (fl *flow) bindName(scope SymbolID, scopeQ, name string, v extract.Expr) {
	fl.add(varKey{scopeQ, name}, fl.eval(scope, v))
	fl.bindFields(scope, scopeQ, name, v)
	fl.bindSlice(scope, scopeQ, name, v)
	fl.addExt(varKey{scopeQ, name}, fl.evalExt(scope, v))
}

// bindList binds variable name to a list of the elements written out:
// `*b` in `a, *b = f, g, h` holds [g, h].
func (fl *flow) bindList(scope SymbolID, scopeQ, name string, elems []extract.Expr) {
	k := varKey{scopeQ, name}
	for i, e := range elems {
		vs := fl.eval(scope, e)
		fl.add(k, vs)
		fl.add(varKey{scopeQ, name + "[" + strconv.Itoa(i) + "]"}, vs)
	}
}

// sequence returns the elements of a tuple or list written out (`a, b`,
// `(a, b)`, `[a, b]`, `a,`), or nil for any other expression.
func sequence(e extract.Expr) []extract.Expr {
	if k := e.Kind(); k != extract.ExprTuple && k != extract.ExprList {
		return nil
	}
	out := make([]extract.Expr, e.Len())
	for i := range out {
		out[i] = e.Sub(i)
	}
	return out
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
		decs := fl.eval(scope, stack[i].ValueExpr)
		for v := range decs {
			if params := fl.paramsOf(v.id); len(params) > 0 && !v.instance {
				fl.add(varKey{fl.r.g.nodes[v.id].Qualified, params[0]}, inner)
			}
		}
		inner = fl.callResult(decs)
	}
	fl.add(varKey{b.Scope, b.Target}, inner)
}

// bindFields keeps the elements of a container literal apart by literal
// key or index, so that d["a"] and l[0] find only their own element.
func (fl *flow) bindFields(scope SymbolID, scopeQ, name string, lit extract.Expr) {
	switch lit.Kind() {
	case extract.ExprDict:
		for i := 0; i+1 < lit.Len(); i += 2 {
			if key, ok := literalKey(lit.Sub(i)); ok {
				fl.add(varKey{scopeQ, name + "[" + key + "]"}, fl.eval(scope, lit.Sub(i+1)))
			}
		}
	case extract.ExprList, extract.ExprTuple:
		for i := range lit.Len() {
			if lit.Sub(i).Kind() == extract.ExprSplat {
				return // the indexes after *xs are unknown
			}
			fl.add(varKey{scopeQ, name + "[" + strconv.Itoa(i) + "]"}, fl.eval(scope, lit.Sub(i)))
		}
	}
}

// assign stores vs into a target expression seen from scope.
func (fl *flow) assign(scope SymbolID, scopeQ string, target extract.Expr, vs valueSet) {
	if target.Kind() == extract.ExprIndex {
		// d[k] = v: the container holds v, and so does its key k.
		obj := target.Sub(0)
		if key, ok := literalKey(target.Sub(1)); ok && obj.Kind() == extract.ExprName {
			fl.add(varKey{scopeQ, obj.Name() + "[" + key + "]"}, vs)
		}
		target = obj
	}
	switch target.Kind() {
	case extract.ExprName:
		fl.add(varKey{scopeQ, target.Name()}, vs)
	case extract.ExprAttr:
		base, attr := target.Sub(0), target.Name()
		if base.Kind() == extract.ExprName && fl.r.isSelf(base.Name()) {
			if cls, ok := fl.r.enclosingClass(scope); ok {
				fl.add(varKey{fl.r.g.nodes[cls].Qualified, attr}, vs)
			}
			return
		}
		for v := range fl.eval(scope, base) {
			fl.add(varKey{fl.r.g.nodes[v.id].Qualified, attr}, vs)
		}
	}
}

// passArgs binds a call's arguments to the parameters of its targets.
func (fl *flow) passArgs(c extract.Call) {
	if c.ArgExprs().Len() == 0 {
		return
	}
	scope, ok := fl.scopeID(c.Caller)
	if !ok {
		return
	}
	fl.argparseDefaults(scope, c)
	fl.mutate(scope, c)
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
		params := fl.paramsOf(fn)
		q := fl.r.g.nodes[fn].Qualified
		for i := range c.ArgExprs().Len() {
			a := c.ArgExprs().Sub(i)
			switch a.Kind() {
			case extract.ExprSplat:
			case extract.ExprKeyword:
				fl.add(varKey{q, a.Name()}, fl.eval(scope, a.Sub(0)))
				fl.addExt(varKey{q, a.Name()}, fl.evalExt(scope, a.Sub(0)))
			default:
				if p, ok := fl.positional(fn, params, i+skip); ok {
					fl.add(varKey{q, p}, fl.eval(scope, a))
					fl.addExt(varKey{q, p}, fl.evalExt(scope, a))
				}
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
	fl.callResultInto(out, vs)
	return out
}

// callResultInto adds what calling each value of vs gives to out, which
// is not vs.
func (fl *flow) callResultInto(out, vs valueSet) {
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
}

// takesSelf reports whether a method's first parameter is self or cls:
// not a static method.
func (fl *flow) takesSelf(fn SymbolID) bool {
	params := fl.paramsOf(fn)
	return len(params) > 0 && contains(fl.r.tr.self, params[0])
}

// paramsOf returns the parameter names of a function.
func (fl *flow) paramsOf(id SymbolID) []string { return fl.params[id] }

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
