package docsearch

import (
	"path"
	"strings"
)

// deprecatedCode reports whether a code document (its file and text)
// is marked as deprecated or legacy: its doc comment or an attribute
// says so in its language's convention (deprecationMarks), or its file
// or directory is named deprecated or legacy (tRPC's src/deprecated/,
// jsonschema's _legacy_validators.py). A body that warns about one use
// (Python's DeprecationWarning, Node's util.deprecate) is no mark:
// express's res.json deprecates one way of calling itself.
func deprecatedCode(file, text string) bool {
	if lf := strings.ToLower(file); strings.Contains(lf, "deprecated") || strings.Contains(lf, "legacy") {
		for seg := range strings.SplitSeq(lf, "/") {
			seg = strings.TrimSuffix(seg, path.Ext(seg))
			for w := range strings.FieldsFuncSeq(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
				if w == "deprecated" || w == "legacy" {
					return true
				}
			}
		}
	}
	body := codeBody(text)
	for _, m := range deprecationMarks {
		if strings.Contains(body, m) {
			return true
		}
	}
	// A decorator: Python's @deprecated(...), @typing_extensions.deprecated(...).
	for line := range strings.Lines(body) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "@") && strings.Contains(t, "deprecated(") {
			return true
		}
	}
	return false
}

// deprecationMarks are how code marks itself deprecated, in the doc
// comment or in an attribute that leads its body (see
// internal/codeindex's attributeText): Go's "Deprecated:" paragraph,
// JSDoc's and PHPDoc's tag, Sphinx's directive, Java's and Kotlin's
// annotation, Rust's and C#'s attributes, Swift's availability.
var deprecationMarks = []string{"Deprecated:", "@deprecated", ".. deprecated::", "@Deprecated", "#[deprecated", "[Obsolete", "@available(*, deprecated"}
