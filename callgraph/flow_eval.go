package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// eval returns the values an expression (source text) may have, seen from
// scope.
func (fl *flow) eval(scope SymbolID, expr string) valueSet {
	expr = strings.TrimSpace(expr)
	for _, p := range []string{"await ", "yield from ", "yield "} {
		expr = strings.TrimPrefix(expr, p)
	}
	out := valueSet{}
	if expr == "" || strings.HasPrefix(expr, "lambda") {
		return out
	}
	// a or b, a if c else b: either side.
	for _, sep := range []string{" or ", " if ", " else ", " and "} {
		if parts := splitTopString(expr, sep); len(parts) > 1 {
			for _, p := range parts {
				union(out, fl.eval(scope, p))
			}
			return out
		}
	}
	switch expr[0] {
	case '[', '(', '{':
		if close := matchingParen(expr[1:]); close == len(expr)-2 {
			// A container literal: its elements (dict: its values).
			for _, el := range splitTop(expr[1:len(expr)-1], ',') {
				if _, v, ok := cutTop(el, ':'); ok && expr[0] == '{' {
					el = v
				}
				if strings.Contains(el, " for ") {
					el = el[:strings.Index(el, " for ")]
				}
				union(out, fl.eval(scope, el))
			}
			return out
		}
	}
	last := expr[len(expr)-1]
	if last == ')' || last == ']' {
		if open := openingParen(expr); open > 0 {
			head := expr[:open]
			if last == ']' {
				// An element of a container: by literal key where the
				// literal was seen, else any element.
				if k := expr[open+1 : len(expr)-1]; isIdent(head) && isLiteralKey(k) {
					if vs, ok := fl.field(scope, head, normKey(k)); ok {
						return vs
					}
				}
				return fl.eval(scope, head)
			}
			if head == "super" || strings.HasSuffix(head, ".super") {
				return out
			}
			return fl.callResult(fl.eval(scope, head))
		}
	}
	if base, attr, ok := cutLastTop(expr, '.'); ok {
		return fl.attr(scope, base, attr)
	}
	if !isIdent(expr) {
		return out
	}
	return fl.name(scope, expr)
}

// name looks an identifier up: variables of the enclosing scopes, then
// the definitions and imports resolution knows.
func (fl *flow) name(scope SymbolID, n string) valueSet {
	out := valueSet{}
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if fl.r.isClass(s) && s != scope {
			continue // class bodies are not enclosing scopes in Python
		}
		if vs, ok := fl.vars[varKey{fl.r.g.nodes[s].Qualified, n}]; ok {
			union(out, vs) // the innermost scope that binds n
			break
		}
	}
	if fl.r.isSelf(n) {
		if cls, ok := fl.r.enclosingClass(scope); ok {
			out[value{cls, true}] = true
		}
	}
	if ids, _ := fl.r.resolveName(scope, n); len(ids) > 0 {
		for _, id := range ids {
			if !fl.decorated[id] { // the decorator's result stands for it
				out[value{id, false}] = true
			}
		}
	} else if t, ok := fl.r.scope.bind[n]; ok {
		if id, ok := fl.r.ix.module[t]; ok {
			out[value{id, false}] = true
		}
	}
	return out
}

// field finds the element of container variable n under a literal key, in
// the innermost scope that has it.
func (fl *flow) field(scope SymbolID, n, key string) (valueSet, bool) {
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if vs, ok := fl.vars[varKey{fl.r.g.nodes[s].Qualified, n + "[" + key + "]"}]; ok {
			return vs, true
		}
	}
	return nil, false
}

// attr evaluates base.attr: a module's member, a class's method or
// attribute, an instance's (bound) method or attribute.
func (fl *flow) attr(scope SymbolID, base, attr string) valueSet {
	out := valueSet{}
	for v := range fl.eval(scope, base) {
		q := fl.r.g.nodes[v.id].Qualified
		if fl.r.isClass(v.id) {
			// The first class in method resolution order that has attr.
			for _, c := range fl.r.linearize(v.id) {
				cq := fl.r.g.nodes[c].Qualified
				ids, vs := fl.r.g.byQualified[cq+"."+attr], fl.vars[varKey{cq, attr}]
				for _, id := range ids {
					out[value{id, false}] = true
				}
				union(out, vs)
				if len(ids) > 0 || len(vs) > 0 {
					break
				}
			}
			continue
		}
		if fl.r.g.nodes[v.id].Kind == KindModule {
			for _, id := range fl.r.g.byQualified[q+"."+attr] {
				out[value{id, false}] = true
			}
			if id, ok := fl.r.ix.module[q+"."+attr]; ok {
				out[value{id, false}] = true
			}
		}
		union(out, fl.vars[varKey{q, attr}])
	}
	return out
}

// targets turns the values of a call's callee into call targets: functions
// and methods, and classes (instantiation).
func (fl *flow) targets(scope SymbolID, c extract.Call) []SymbolID {
	var out []SymbolID
	seen := map[SymbolID]bool{}
	for v := range fl.callees(scope, c) {
		if v.instance || seen[v.id] {
			continue
		}
		k := fl.r.g.nodes[v.id].Kind
		if k == extract.KindFunction || k == extract.KindMethod || fl.r.isClass(v.id) {
			seen[v.id] = true
			out = append(out, v.id)
		}
	}
	sortIDs(out)
	return out
}

// callees evaluates what a call site calls.
func (fl *flow) callees(scope SymbolID, c extract.Call) valueSet {
	switch {
	case c.Name == "()":
		return fl.eval(scope, c.Receiver)
	case c.Receiver != "":
		return fl.eval(scope, c.Receiver+"."+c.Name)
	}
	return fl.eval(scope, c.Name)
}

func union(dst, src valueSet) {
	for v := range src {
		dst[v] = true
	}
}

// splitTop splits s at sep outside brackets and strings.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			if sep == '=' && (i > 0 && strings.ContainsRune("=!<>:+-*/%&|^", rune(s[i-1])) || i+1 < len(s) && s[i+1] == '=') {
				continue // ==, !=, <=, :=, += are not assignments
			}
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// splitTopString splits s at sep (a word like " or ") outside brackets.
func splitTopString(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			return []string{s} // strings: give up rather than misparse
		}
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			out = append(out, s[start:i])
			start = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, s[start:])
}

// cutTop cuts s at the first sep outside brackets.
func cutTop(s string, sep byte) (string, string, bool) {
	parts := splitTop(s, sep)
	if len(parts) < 2 {
		return s, "", false
	}
	return parts[0], strings.Join(parts[1:], string(sep)), true
}

// cutLastTop cuts s at the last sep outside brackets.
func cutLastTop(s string, sep byte) (string, string, bool) {
	parts := splitTop(s, sep)
	if len(parts) < 2 {
		return s, "", false
	}
	return strings.Join(parts[:len(parts)-1], string(sep)), parts[len(parts)-1], true
}

// matchingParen returns the index in s of the bracket closing one opened
// just before s, or -1.
func matchingParen(s string) int {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// openingParen returns the index of the bracket that the last byte of s
// closes, or -1.
func openingParen(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
