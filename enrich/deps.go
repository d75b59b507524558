package enrich

import "fmt"

// DepSymbol is one API symbol of a dependency a file calls.
type DepSymbol struct {
	Dep       string // name@version, the locked version
	Qualified string
	Signature string
	Lead      string // the doc comment's first sentence
	Location  string // path:line in the dependency's source
}

// maxDependencies caps the dependency symbols a prompt lists.
const maxDependencies = 25

// dependencyLines renders the "Dependency APIs used" section of the
// structural info, or nothing when there are none.
func dependencyLines(ds []DepSymbol) []string {
	if len(ds) == 0 {
		return nil
	}
	out := []string{"\n", "### Dependency APIs called (at the locked versions)\n"}
	for i, d := range ds {
		if i == maxDependencies {
			out = append(out, fmt.Sprintf("- … and %d more\n", len(ds)-i))
			break
		}
		line := fmt.Sprintf("- %s from %s", codeSpan(oneLine(d.Qualified)), d.Dep)
		if d.Signature != "" {
			line += ": " + codeSpan(oneLine(d.Signature))
		}
		if d.Lead != "" {
			line += " — " + oneLine(d.Lead)
		}
		out = append(out, line+"\n")
	}
	return out
}
