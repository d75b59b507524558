package enrich

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// MaxReportSize is the largest report accepted, in bytes of its JSON
// encoding (256 KB).
const MaxReportSize = 256 << 10

// maxKnown caps the names listed in an error about an unknown name.
const maxKnown = 50

// Report is what the host's model sends back through report_file_info:
// the prose for one file, or for one part of it. The JSON field names are
// the tool's contract.
type Report struct {
	Path      string     `json:"path" jsonschema:"as given to file_info"`
	Overview  string     `json:"overview,omitempty" jsonschema:"2-3 sentences: purpose, inputs, outputs, related files (required in part 1)"`
	Inputs    string     `json:"inputs,omitempty" jsonschema:"one sentence: what the file takes"`
	Outputs   string     `json:"outputs,omitempty" jsonschema:"one sentence: what it produces"`
	Functions []Function `json:"functions" jsonschema:"each listed function (and method of no listed type)"`
	Classes   []Class    `json:"classes,omitempty" jsonschema:"each listed class or type"`
	// Part is the part of the prompt this report answers, from 1; 0 for a
	// file that came in one prompt.
	Part int `json:"part,omitempty" jsonschema:"when parts > 1"`
}

// Function is the prose for one function or method.
type Function struct {
	Name    string `json:"name" jsonschema:"exactly as listed"`
	Purpose string `json:"purpose" jsonschema:"one sentence: what it does"`
	// Implementation is the Implementation Summary: 3-5 steps, one per
	// line, numbered or not. When decoding JSON, a list of strings (one
	// step each) is accepted too and joined with newlines; it always
	// encodes as a string, the tool's contract.
	Implementation string `json:"implementation" jsonschema:"3-5 numbered steps, one per line"`
}

// UnmarshalJSON accepts implementation as a string or a list of steps.
func (fn *Function) UnmarshalJSON(data []byte) error {
	var raw struct {
		Name           string          `json:"name"`
		Purpose        string          `json:"purpose"`
		Implementation json.RawMessage `json:"implementation"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*fn = Function{Name: raw.Name, Purpose: raw.Purpose}
	if len(raw.Implementation) == 0 || string(raw.Implementation) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw.Implementation, &fn.Implementation); err == nil {
		return nil
	}
	var steps []string
	if err := json.Unmarshal(raw.Implementation, &steps); err != nil {
		return fmt.Errorf("implementation of %q: want a string or a list of strings", raw.Name)
	}
	fn.Implementation = strings.Join(steps, "\n")
	return nil
}

// Class is the prose for one class-like type and its methods.
type Class struct {
	Name    string     `json:"name" jsonschema:"exactly as listed"`
	Purpose string     `json:"purpose,omitempty" jsonschema:"one sentence; omit to keep the saved one"`
	Methods []Function `json:"methods,omitempty" jsonschema:"its methods"`
}

// doc is the prose resolved for one symbol.
type doc struct {
	purpose, implementation string
}

func (d doc) empty() bool {
	return blank(d.purpose) && blank(d.implementation)
}

// Validate checks r against f before anything is written: the report is
// at most MaxReportSize as JSON, is for f's path, has an overview (a part
// after the first may leave it empty), and names only real symbols of f —
// functions among its functions and methods, classes among its types,
// methods among their class's methods. A name may be the local name the
// prompt lists ("Store.get"), the qualified name, or a simple name that is
// unique where it is looked up. The methods a Go file declares on a type
// of another file are listed under that type. Errors are written for the
// model to act on, listing the names it could have used and, with the
// call graph g (nil for none), the file that declares a symbol the
// report put in the wrong one.
func Validate(r *Report, f *extract.File, g Graph) error {
	if r == nil {
		return fmt.Errorf("no report for %s", f.Path)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("report for %s: %w", f.Path, err)
	}
	if len(data) > MaxReportSize {
		return fmt.Errorf("report for %s is %d bytes; the limit is %d: shorten the prose, or send the file in parts", f.Path, len(data), MaxReportSize)
	}
	var problems []error
	if !samePath(r.Path, f.Path) {
		problems = append(problems, fmt.Errorf("report is for %q but the file is %q", r.Path, f.Path))
	}
	if r.Part < 0 {
		problems = append(problems, fmt.Errorf("part %d is not a part number", r.Part))
	}
	if strings.TrimSpace(r.Overview) == "" && r.Part <= 1 {
		problems = append(problems, fmt.Errorf("overview is empty: write 2-3 sentences on what %s does", f.Path))
	}
	_, nameProblems := resolve(r, newFacts(f, g))
	return errors.Join(append(problems, nameProblems...)...)
}

// outerMethods returns the methods declared in the file on a type of that
// name declared in another (Go allows it), and the type's qualified name.
func (fs *facts) outerMethods(name string) (idx []int, typeQ string) {
	n := normName(name)
	for i, s := range fs.syms {
		if s.role != roleCallable || s.owner >= 0 || s.Kind != extract.KindMethod {
			continue
		}
		prefix, ok := strings.CutSuffix(s.graphName, "."+s.Name)
		if !ok || !(prefix == n || localName(fs.f, prefix) == n || strings.HasSuffix(prefix, "."+n)) {
			continue
		}
		if typeQ == "" {
			typeQ = prefix
		} else if typeQ != prefix {
			continue // another type of the same simple name
		}
		idx = append(idx, i)
	}
	return idx, typeQ
}

// declaredElsewhere returns the file other than this one where the graph
// has a symbol of qualified name q, or "" (no graph, or none).
func (fs *facts) declaredElsewhere(q string) string {
	if fs.g == nil {
		return ""
	}
	for _, id := range fs.g.Lookup(q) {
		if n := fs.g.Node(id); n.File != fs.f.Path {
			return n.File
		}
	}
	return ""
}

// samePath reports whether p, a path as a model wrote it, names the file
// at want: exactly, once cleaned ("./a//b.go"), or read forgivingly, with
// surrounding space trimmed and backslashes taken for separators. The
// forgiving reading comes last, so that a file whose name starts with a
// space or holds a backslash is still named by its exact path.
func samePath(p, want string) bool {
	if p == want || path.Clean(p) == want {
		return true
	}
	p = strings.ReplaceAll(strings.TrimSpace(p), "\\", "/")
	return p != "" && path.Clean(p) == want
}

// Undocumented returns the local names of f's symbols that r leaves
// without prose, in line order: functions and methods without a purpose
// or without an implementation summary, and types without a purpose.
// Names r does not resolve are ignored; a nil r documents nothing.
func Undocumented(r *Report, f *extract.File) []string {
	if r == nil {
		r = &Report{}
	}
	fs := newFacts(f, nil)
	docs, _ := resolve(r, fs)
	var out []string
	seen := map[string]bool{}
	for _, s := range fs.syms {
		if s.role == roleContainer || seen[s.local] {
			continue
		}
		seen[s.local] = true
		d := docs[s.Qualified]
		if blank(d.purpose) || s.role == roleCallable && blank(d.implementation) {
			out = append(out, s.local)
		}
	}
	return out
}

// Update returns the prose of f once r is reported over prev, the prose
// recorded before (see Recorded); either may be nil. Each symbol r gives
// a purpose or an implementation summary gets it; every other symbol
// keeps what prev says of it, and prose in r that is blank replaces
// nothing. The overview, inputs and outputs of a report of the whole file
// or of its first part replace earlier ones; those of a later part only
// fill gaps. What prev says of symbols f no longer has is dropped.
//
// The result is in canonical form, as an artifact records it: for f's
// path, part 0, each symbol with prose once, by its local name, in line
// order — functions (with methods of types declared elsewhere) under
// functions, and types with their methods under classes.
func Update(prev, r *Report, f *extract.File) *Report {
	fs := newFacts(f, nil)
	out := &Report{}
	docs := map[string]doc{}
	if prev != nil {
		docs, _ = resolve(prev, fs)
		out.Overview, out.Inputs, out.Outputs = prev.Overview, prev.Inputs, prev.Outputs
	}
	if r != nil {
		// r was validated: names it gets wrong were refused before.
		news, _ := resolve(r, fs)
		for q, d := range news {
			old := docs[q]
			if !blank(d.purpose) {
				old.purpose = d.purpose
			}
			if !blank(d.implementation) {
				old.implementation = d.implementation
			}
			docs[q] = old
		}
		pick := func(old *string, new string) {
			if !blank(new) && (r.Part <= 1 || blank(*old)) {
				*old = new
			}
		}
		pick(&out.Overview, r.Overview)
		pick(&out.Inputs, r.Inputs)
		pick(&out.Outputs, r.Outputs)
	}
	return canonical(fs, out, docs)
}

// canonical returns the report of fs's file with r's overview, inputs
// and outputs and the prose docs, in the form Update describes.
func canonical(fs *facts, r *Report, docs map[string]doc) *Report {
	out := &Report{Path: fs.f.Path, Overview: r.Overview, Inputs: r.Inputs, Outputs: r.Outputs, Functions: []Function{}}
	fn := func(s *symbol) (Function, bool) {
		d := docs[s.Qualified]
		return Function{Name: s.local, Purpose: d.purpose, Implementation: d.implementation}, !d.empty()
	}
	methods := map[int][]Function{} // by the index of their type
	seen := map[string]bool{}
	for i := range fs.syms {
		s := &fs.syms[i]
		if s.role != roleCallable || seen[s.Qualified] {
			continue
		}
		seen[s.Qualified] = true
		f, ok := fn(s)
		switch {
		case !ok:
		case s.owner >= 0:
			methods[s.owner] = append(methods[s.owner], f)
		default:
			out.Functions = append(out.Functions, f)
		}
	}
	clear(seen)
	for i := range fs.syms {
		s := &fs.syms[i]
		if s.role != roleType || seen[s.Qualified] {
			continue
		}
		seen[s.Qualified] = true
		if p := docs[s.Qualified].purpose; !blank(p) || len(methods[i]) > 0 {
			out.Classes = append(out.Classes, Class{Name: s.local, Purpose: p, Methods: methods[i]})
		}
	}
	return out
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// normName undoes the ways a model may dress a name: backticks, a call's
// parentheses or parameter list, "::" or "#" for ".".
func normName(n string) string {
	n = strings.Trim(strings.TrimSpace(n), "`")
	if i := strings.IndexByte(n, '('); i > 0 {
		n = n[:i]
	}
	n = strings.ReplaceAll(n, "::", ".")
	n = strings.ReplaceAll(n, "#", ".")
	return strings.TrimSpace(n)
}

// resolve maps r's entries to qualified names. An entry with no prose
// does not replace another for the same symbol; otherwise a later entry
// wins (functions come before classes). Problems are returned, grouped so
// that each lists what could have been named.
func resolve(r *Report, fs *facts) (map[string]doc, []error) {
	docs := map[string]doc{}
	set := func(q string, d doc) {
		if old, ok := docs[q]; !ok || !d.empty() || old.empty() {
			docs[q] = d
		}
	}
	var callables, types []int
	for i, s := range fs.syms {
		switch s.role {
		case roleCallable:
			callables = append(callables, i)
		case roleType:
			types = append(types, i)
		}
	}
	var problems []error
	var unknownFuncs, unknownClasses []string
	for i, fn := range r.Functions {
		q, err := fs.find(fn.Name, callables)
		switch {
		case errors.Is(err, errNoName):
			problems = append(problems, fmt.Errorf("functions[%d] has no name", i))
		case errors.Is(err, errUnknown):
			if _, terr := fs.find(fn.Name, types); terr == nil {
				problems = append(problems, fmt.Errorf("%q in functions is a type of %s: put it in classes", fn.Name, fs.f.Path))
			} else {
				unknownFuncs = append(unknownFuncs, fn.Name)
			}
		case err != nil:
			problems = append(problems, err)
		default:
			set(q, doc{fn.Purpose, fn.Implementation})
		}
	}
	// methodsOf resolves the methods a class entry lists among cands, the
	// methods of q here; q is "" for a type declared in another file.
	methodsOf := func(i int, c Class, q, typeName string, cands []int) {
		var unknown, elsewhere []string
		for j, m := range c.Methods {
			mq, err := fs.find(m.Name, cands)
			switch {
			case errors.Is(err, errNoName):
				problems = append(problems, fmt.Errorf("classes[%d].methods[%d] has no name", i, j))
			case errors.Is(err, errUnknown):
				if file := fs.declaredElsewhere(q + "." + normName(m.Name)); q != "" && file != "" {
					elsewhere = append(elsewhere, fmt.Sprintf("%q of %s is declared in %s", m.Name, typeName, file))
				} else {
					unknown = append(unknown, m.Name)
				}
			case err != nil:
				problems = append(problems, err)
			default:
				set(mq, doc{m.Purpose, m.Implementation})
			}
		}
		if len(elsewhere) > 0 {
			problems = append(problems, fmt.Errorf("method %s: report it with that file, not with %s", strings.Join(elsewhere, "; method "), fs.f.Path))
		}
		if len(unknown) > 0 {
			known := "it has none"
			if len(cands) > 0 {
				known = "its methods: " + fs.known(cands, true)
			}
			problems = append(problems, fmt.Errorf("%s not in class %s of %s; %s", quoteNames("method", unknown), typeName, fs.f.Path, known))
		}
	}
	for i, c := range r.Classes {
		q, err := fs.find(c.Name, types)
		switch {
		case errors.Is(err, errNoName):
			problems = append(problems, fmt.Errorf("classes[%d] has no name", i))
			continue
		case errors.Is(err, errUnknown):
			if _, ferr := fs.find(c.Name, callables); ferr == nil {
				problems = append(problems, fmt.Errorf("%q in classes is a function of %s: put it in functions", c.Name, fs.f.Path))
				continue
			}
			// A Go type may have methods here and be declared elsewhere:
			// they are listed under it, its purpose with its own file.
			outer, typeQ := fs.outerMethods(c.Name)
			if len(outer) == 0 {
				unknownClasses = append(unknownClasses, c.Name)
				continue
			}
			if !blank(c.Purpose) {
				where := cmp.Or(fs.declaredElsewhere(typeQ), "another file")
				problems = append(problems, fmt.Errorf("class %q is declared in %s, not in %s: give its purpose in the report of %s; its methods declared here (%s) may stay under it here with no purpose",
					c.Name, where, fs.f.Path, where, fs.known(outer, true)))
				continue
			}
			methodsOf(i, c, "", normName(c.Name), outer)
			continue
		case err != nil:
			problems = append(problems, err)
			continue
		}
		set(q, doc{purpose: c.Purpose})
		var methods []int
		for _, m := range callables {
			if o := fs.syms[m].owner; o >= 0 && fs.syms[o].Qualified == q {
				methods = append(methods, m)
			}
		}
		methodsOf(i, c, q, localName(fs.f, q), methods)
	}
	if len(unknownFuncs) > 0 {
		problems = append(problems, fmt.Errorf("%s not in %s; known: %s", quoteNames("symbol", unknownFuncs), fs.f.Path, fs.known(callables, false)))
	}
	if len(unknownClasses) > 0 {
		known := "none"
		if len(types) > 0 {
			known = fs.known(types, false)
		}
		problems = append(problems, fmt.Errorf("%s not in %s; known: %s", quoteNames("class", unknownClasses), fs.f.Path, known))
	}
	return docs, problems
}

var (
	errNoName  = errors.New("no name")
	errUnknown = errors.New("unknown name")
)

// find resolves name among the symbols cands: by qualified name, by local
// name, then by a unique dotted suffix ("get" for "Store.get").
func (fs *facts) find(name string, cands []int) (string, error) {
	n := normName(name)
	if n == "" {
		return "", errNoName
	}
	for _, i := range cands {
		if s := fs.syms[i]; s.Qualified == n || s.local == n {
			return s.Qualified, nil
		}
	}
	var matches []string
	for _, i := range cands {
		s := fs.syms[i]
		if strings.HasSuffix(s.Qualified, "."+n) && !slices.Contains(matches, s.Qualified) {
			matches = append(matches, s.Qualified)
		}
	}
	switch len(matches) {
	case 0:
		return "", errUnknown
	case 1:
		return matches[0], nil
	}
	locals := make([]string, len(matches))
	for i, q := range matches {
		locals[i] = localName(fs.f, q)
	}
	return "", fmt.Errorf("symbol %q is ambiguous in %s: %s; use the name as listed", name, fs.f.Path, strings.Join(locals, ", "))
}

// known lists the distinct names of the symbols idx: local names, or
// simple names for methods.
func (fs *facts) known(idx []int, simple bool) string {
	var names []string
	seen := map[string]bool{}
	for _, i := range idx {
		n := fs.syms[i].local
		if simple {
			n = fs.syms[i].Name
			if s := fs.syms[i]; s.graphName != s.Qualified {
				n += "@" + strconv.Itoa(s.StartLine) // one of two getter/setter-like methods
			}
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return capList(names, maxKnown)
}

// quoteNames renders `symbol "Foo"` or `symbols "Foo", "Bar"`.
func quoteNames(what string, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return what + " " + q[0]
	}
	if len(q) > maxKnown {
		return fmt.Sprintf("%ss %s and %d more", what, strings.Join(q[:maxKnown], ", "), len(q)-maxKnown)
	}
	return what + "s " + strings.Join(q, ", ")
}
