package docsearch

import (
	"path"
	"strings"
)

// deprecatedCode reports whether a code document (its file and text)
// is marked as deprecated or legacy: its doc comment says so in its
// language's convention (Go's "Deprecated:" paragraph, JSDoc's and
// PHPDoc's @deprecated, Sphinx's ".. deprecated::"), its body warns so
// (Python's DeprecationWarning, Node's util.deprecate), or its file or
// directory is named deprecated or legacy (tRPC's src/deprecated/,
// jsonschema's _legacy_validators.py).
func deprecatedCode(file, text string) bool {
	for _, seg := range strings.Split(strings.ToLower(file), "/") {
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		for _, w := range strings.FieldsFunc(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			if w == "deprecated" || w == "legacy" {
				return true
			}
		}
	}
	body := codeBody(text)
	return strings.Contains(body, "@deprecated") || strings.Contains(body, "Deprecated:") ||
		strings.Contains(body, ".. deprecated::")
}
