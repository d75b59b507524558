package extract

import (
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Guards: what narrows the type of a name where a call sits in a branch
// that runs only when a test of that name holds.
//
//	if (isObservableMap(obj)) obj.delete(k)      guard "isObservableMap"
//	isMap(t) ? t.get(k) : …, isMap(t) && t.get(k)  guard "isMap"
//	if (x instanceof Foo) { x.run() }            guard "instanceof Foo"
//
// The test is the condition of an if statement (for its consequence), of
// a ternary (for its first branch) or the left of && (for its right),
// alone or as one side of a && in the condition. A function test is a
// call whose first argument is the name; whether it is a type guard
// (`x is T`) is the call graph's to find out. The innermost guard of the
// receiver's name around a call is its Guard.

// jsGuardTests are the conditions that may narrow a name: a call with
// the name as first argument, or `name instanceof C`, each maybe in
// parentheses.
var jsGuardTests = []string{
	`(call_expression
    function: [(identifier) (member_expression)] @guard.fn
    arguments: (arguments . (identifier) @guard.name))`,
	`(binary_expression
    left: (identifier) @guard.name
    operator: "instanceof"
    right: [(identifier) (member_expression)] @guard.class)`,
}

// jsGuardPatterns are where a TEST guards a branch, @guard.body.
var jsGuardPatterns = []string{
	`(if_statement condition: (parenthesized_expression TEST) consequence: (_) @guard.body)`,
	`(if_statement condition: (parenthesized_expression (binary_expression left: TEST operator: "&&")) consequence: (_) @guard.body)`,
	`(if_statement condition: (parenthesized_expression (binary_expression operator: "&&" right: TEST)) consequence: (_) @guard.body)`,
	`(ternary_expression condition: TEST consequence: (_) @guard.body)`,
	`(binary_expression left: TEST operator: "&&" right: (_) @guard.body)`,
	`(binary_expression left: (binary_expression operator: "&&" right: TEST) operator: "&&" right: (_) @guard.body)`,
}

// jsGuardQuery is every pattern with every test, plain and in
// parentheses, spelt out: tree-sitter misses matches of one pattern with
// nested alternations of them.
func jsGuardQuery() string {
	var b strings.Builder
	for _, p := range jsGuardPatterns {
		for _, t := range jsGuardTests {
			for _, test := range []string{t, "(parenthesized_expression " + t + ")"} {
				b.WriteString(strings.ReplaceAll(p, "TEST", test))
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// jsGuardRegion is one guarded branch: its bytes, the name tested and
// the guard.
type jsGuardRegion struct {
	start, end uint32
	name       string
	guard      string
}

// compiledGuards caches each JavaScript language's guard query; nil when
// it does not compile for the grammar (TestJSGuards fails then).
var compiledGuards sync.Map // *Language → *sitter.Query

func (l *Language) guardQuery() *sitter.Query {
	if q, ok := compiledGuards.Load(l); ok {
		return q.(*sitter.Query)
	}
	q, _ := sitter.NewQuery([]byte(jsGuardQuery()), l.grammarOf())
	got, _ := compiledGuards.LoadOrStore(l, q)
	return got.(*sitter.Query)
}

// jsGuards returns the guarded branches of f, found once per file.
func jsGuards(f *fileInfo) []jsGuardRegion {
	st := jsFileStateOf(f)
	if st.guardsDone {
		return st.guards
	}
	st.guardsDone = true
	q := f.lang.guardQuery()
	if q == nil || f.root == nil {
		return nil
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, f.root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		var g jsGuardRegion
		var body *sitter.Node
		for _, c := range m.Captures {
			switch q.CaptureNameForId(c.Index) {
			case "guard.fn":
				g.guard = collapseSpace(f.text(c.Node), 100)
			case "guard.class":
				g.guard = "instanceof " + collapseSpace(f.text(c.Node), 100)
			case "guard.name":
				g.name = f.text(c.Node)
			case "guard.body":
				body = c.Node
			}
		}
		if body == nil || g.name == "" || g.guard == "" {
			continue
		}
		g.start, g.end = body.StartByte(), body.EndByte()
		st.guards = append(st.guards, g)
	}
	return st.guards
}

// jsGuard is the guard hook: the innermost guard of the name recv
// around the call at byte at, or "".
func jsGuard(recv *sitter.Node, at uint32, f *fileInfo) string {
	if recv == nil || recv.Type() != "identifier" {
		return ""
	}
	regions := jsGuards(f)
	if len(regions) == 0 {
		return ""
	}
	name := f.text(recv)
	best := -1
	for i, g := range regions {
		if g.name != name || at < g.start || at >= g.end {
			continue
		}
		if best < 0 || g.end-g.start < regions[best].end-regions[best].start {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return regions[best].guard
}
