package callgraph

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dotStmt is one statement of WriteDOT's output: a node (to == "") or an
// edge, with its attributes unquoted.
type dotStmt struct {
	from, to string
	attrs    map[string]string
}

var (
	stmtRE = regexp.MustCompile(`^\t"([^"]*)"(?: -> "([^"]*)")? \[ (.*)\];$`)
	attrRE = regexp.MustCompile(`^\s*(\w+)=(?:"((?:[^"\\]|\\.)*)"|(\d+))\s*,?`)
)

// parseDOT parses the subset of DOT that WriteDOT writes, failing on
// anything else.
func parseDOT(t *testing.T, out string) []dotStmt {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 || lines[0] != "strict digraph {" || lines[len(lines)-1] != "}" {
		t.Fatalf("not a strict digraph:\n%s", out)
	}
	var stmts []dotStmt
	for _, l := range lines[1 : len(lines)-1] {
		m := stmtRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("bad statement %q", l)
		}
		st := dotStmt{from: m[1], to: m[2], attrs: map[string]string{}}
		for rest := m[3]; strings.TrimSpace(rest) != ""; {
			a := attrRE.FindStringSubmatch(rest)
			if a == nil {
				t.Fatalf("bad attributes %q in %q", rest, l)
			}
			v := a[3]
			if a[3] == "" {
				v = strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(a[2])
			}
			st.attrs[a[1]] = v
			rest = rest[len(a[0]):]
		}
		stmts = append(stmts, st)
	}
	return stmts
}

// expectDOT checks the statements of s's DOT output, in order, each
// rendered "from[attr=value ...]" or "from->to[...]" with attributes as
// listed in keys.
func expectDOT(t *testing.T, s *Subgraph, keys []string, want ...string) {
	t.Helper()
	var buf bytes.Buffer
	if err := s.WriteDOT(&buf); err != nil {
		t.Fatal(err)
	}
	// draw.DOT walks maps: a second rendering tells whether the order is
	// really fixed.
	for range 3 {
		var again bytes.Buffer
		if err := s.WriteDOT(&again); err != nil || again.String() != buf.String() {
			t.Fatalf("output differs between runs (%v):\n%s\n---\n%s", err, buf.String(), again.String())
		}
	}
	var got []string
	for _, st := range parseDOT(t, buf.String()) {
		name := st.from
		if st.to != "" {
			name += "->" + st.to
		}
		var as []string
		for _, k := range keys {
			if v, ok := st.attrs[k]; ok {
				as = append(as, k+"="+v)
			}
		}
		got = append(got, name+"["+strings.Join(as, " ")+"]")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("DOT statements:\n got  %s\n want %s\noutput:\n%s", strings.Join(got, "\n      "), strings.Join(want, "\n      "), buf.String())
	}
}

func TestWriteDOTNeighbourhood(t *testing.T) {
	g := buildArchive(t, hoodArchive)
	s := g.Neighbourhood(g.Lookup("app.b"), 1, Both)
	id := func(q string) string { return strconv.Itoa(int(g.Lookup(q)[0])) }
	main, b, c, d := id("app.main"), id("app.b"), id("app.c"), id("app.d")
	expectDOT(t, s, []string{"label", "style", "weight"},
		main+`[label=app.main\napp.py:1 weight=0]`,
		main+"->"+b+"[label=local style=solid weight=1]",
		b+`[label=app.b\napp.py:8 style=filled weight=0]`,
		b+"->"+c+"[label=local style=solid weight=1]",
		b+"->"+d+"[label=local style=solid weight=1]",
		c+`[label=app.c\napp.py:12 weight=0]`,
		d+`[label=app.d\napp.py:15 weight=0]`,
	)
}

func TestWriteDOTEdges(t *testing.T) {
	g := synthetic(3, []Edge{
		{Caller: 0, Callee: 1, Line: 1, Resolution: Name},
		{Caller: 0, Callee: 1, Line: 2, Resolution: Local},
		{Caller: 0, Callee: 2, Line: 3, Resolution: Interface},
		{Caller: 1, Callee: 2, Line: 4, Resolution: Name},
		{Caller: 2, Callee: 2, Line: 5, Resolution: Receiver},
	})
	g.nodes[2].Qualified = `say "hi" \ bye`
	expectDOT(t, g.Subgraph([]SymbolID{0, 1, 2}), []string{"label", "style", "weight"},
		`0[label=f0\ns.go:1 weight=0]`,
		"0->1[label=name,local style=solid weight=2]",
		"0->2[label=interface style=dashed weight=1]",
		`1[label=f1\ns.go:2 weight=0]`,
		"1->2[label=name style=dotted weight=1]",
		`2[label=say "hi" \ bye\ns.go:3 weight=0]`,
		"2->2[label=receiver style=solid weight=1]",
	)
	expectDOT(t, g.Subgraph(nil), nil)
}

func TestDOTEscape(t *testing.T) {
	for in, want := range map[string]string{
		"pkg.F":    "pkg.F",
		`a"b`:      `a\"b`,
		`a\b`:      `a\\b`,
		"two\nrow": `two\nrow`,
	} {
		if got := dotEscape(in); got != want {
			t.Errorf("dotEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
