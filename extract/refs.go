package extract

import (
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Ref is a function's name used as a value rather than called: passed as
// an argument (`sorted(xs, key=by_name)`), stored (`Args: NoArgs`,
// `stream = wsgi_errors_stream`), returned or put in a collection. A call
// graph has no edge for it, but the function is not dead code. Refs are
// found in Python, Go, JavaScript and TypeScript; one per caller, name
// and receiver, at its first place.
type Ref struct {
	// Caller is the qualified name of the innermost enclosing named
	// symbol, or File.Module, as for Call.
	Caller string `json:"caller"`
	// Name is the name used; Receiver the expression before the dot
	// ("self", "os", "cobra"), or "".
	Name     string `json:"name"`
	Receiver string `json:"receiver,omitempty"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// refQueries are the tree-sitter queries of names used as values, by
// language: each captures @ref, a name or a member expression (`x.name`)
// in a value's place. A query, run in C, costs a fraction of walking the
// tree from Go (two cgo calls a node doubled the extraction's CPU time).
var refQueries = map[string]string{
	"python": refPatterns("[(identifier) (attribute)]",
		"(argument_list %s @ref)", "(keyword_argument value: %s @ref)", "(assignment right: %s @ref)",
		"(pair value: %s @ref)", "(return_statement %s @ref)", "(list %s @ref)", "(tuple %s @ref)", "(set %s @ref)",
		"(return_statement (expression_list %s @ref))", "(default_parameter value: %s @ref)"),
	"go": refPatterns("[(identifier) (selector_expression)]",
		"(argument_list %s @ref)", "(keyed_element (literal_element) (literal_element %s @ref))",
		"(literal_value (literal_element %s @ref))", "(return_statement (expression_list %s @ref))",
		"(assignment_statement right: (expression_list %s @ref))", "(short_var_declaration right: (expression_list %s @ref))",
		"(var_spec value: (expression_list %s @ref))"),
	"javascript": jsRefs, "typescript": jsRefs, "tsx": jsRefs,
}

var jsRefs = refPatterns("[(identifier) (member_expression)]",
	"(arguments %s @ref)", "(pair value: %s @ref)", "(variable_declarator value: %s @ref)",
	"(assignment_expression right: %s @ref)", "(return_statement %s @ref)", "(array %s @ref)",
	"(object (shorthand_property_identifier) @ref)")

// refPatterns fills each pattern's %s with names.
func refPatterns(names string, patterns ...string) string {
	var b strings.Builder
	for _, p := range patterns {
		b.WriteString(strings.ReplaceAll(p, "%s", names))
		b.WriteByte('\n')
	}
	return b.String()
}

// refMembers are the member expression types, with the fields of the
// name and of the object.
var refMembers = map[string][2]string{
	"attribute": {"attribute", "object"}, "selector_expression": {"field", "operand"}, "member_expression": {"property", "object"},
}

// compiledRefs caches each language's compiled refQueries entry; a nil
// query means it did not compile (TestRefs fails then).
var compiledRefs sync.Map // *Language → *sitter.Query

func (l *Language) refQuery() *sitter.Query {
	if q, ok := compiledRefs.Load(l); ok {
		return q.(*sitter.Query)
	}
	src, ok := refQueries[l.Name]
	var q *sitter.Query
	if ok {
		q, _ = sitter.NewQuery([]byte(src), l.grammar())
	}
	got, _ := compiledRefs.LoadOrStore(l, q)
	return got.(*sitter.Query)
}

// notRefs are names that are never a function's.
var notRefs = map[string]bool{"self": true, "cls": true, "this": true, "nil": true, "None": true, "True": true,
	"False": true, "null": true, "undefined": true, "true": true, "false": true, "iota": true, "_": true}

// refs runs the language's reference query over the tree (see Ref), and
// returns the references in order of place. Past the file's budget it
// gives up, and the file is skipped (overBudget): a partial list would
// differ from one run to the next with the machine's load.
func (f *fileInfo) refs(root *sitter.Node, decls []*decl, qc *sitter.QueryCursor) []Ref {
	q := f.lang.refQuery()
	if q == nil || root == nil {
		return nil
	}
	type key struct{ caller, recv, name string }
	seen := map[key]bool{}
	var out []Ref
	qc.Exec(q, root)
	for n := 0; ; n++ {
		if n%256 == 255 && f.budget.over() {
			f.overBudget = true // never a silent part of the uses
			return nil
		}
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			r, ok := f.valueRef(c.Node)
			if !ok {
				continue
			}
			r.Caller = callerOf(decls, c.Node.StartByte(), f.module)
			if k := (key{r.Caller, r.Receiver, r.Name}); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// valueRef returns the reference n, a captured name or member
// expression, makes.
func (f *fileInfo) valueRef(n *sitter.Node) (Ref, bool) {
	name, recv := n, (*sitter.Node)(nil)
	if m, ok := refMembers[n.Type()]; ok {
		name, recv = n.ChildByFieldName(m[0]), n.ChildByFieldName(m[1])
		if name == nil || recv == nil {
			return Ref{}, false
		}
	}
	text := f.text(name)
	if text == "" || len(text) > 200 || notRefs[text] {
		return Ref{}, false
	}
	p := name.StartPoint()
	return Ref{Name: text, Receiver: f.short(recv, 200), Line: int(p.Row) + 1, Column: int(p.Column) + 1}, true
}
