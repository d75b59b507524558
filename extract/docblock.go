package extract

import "strings"

// isDocBlockAcrossBlank reports whether a block comment that blank lines
// separate from the declaration below is still its doc comment, in the
// languages whose doc tools read a `/** */` block so: JSDoc and
// TypeScript, javadoc (javac keeps the last `/** */` before a
// declaration whatever the whitespace between), KDoc and PHP
// (its compiler keeps the last doc comment for the next declaration, as
// ReflectionFunction::getDocComment shows). express and koa write a
// blank line after every block; so do parts of the JDK. A `/* */`
// block, a `/*** */` banner (JSDoc ignores blocks opened by three stars
// or more) and `//` lines are notes, as they are in the other
// languages. A block that documents something else — the file (@file,
// @license, …) or a name of its own (@typedef, @callback, @name, …) —
// stays unattached, as JSDoc and phpDocumentor keep it.
func isDocBlockAcrossBlank(block []string) bool {
	if len(block) == 0 {
		return false
	}
	first := block[0]
	if !strings.HasPrefix(first, "/**") || strings.HasPrefix(first, "/***") || strings.HasPrefix(first, "/**/") {
		return false
	}
	for _, line := range block {
		for i := strings.IndexByte(line, '@'); i >= 0; {
			if jsdocStandaloneTags[jsdocTag(line[i+1:])] && (i == 0 || !isTagChar(line[i-1])) {
				return false
			}
			next := strings.IndexByte(line[i+1:], '@')
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return true
}

// jsdocStandaloneTags are the tags of a comment that is not the doc of
// the code after it: the file's (file, fileoverview, overview, module,
// license, copyright, preserve) and JSDoc's virtual comments naming their
// own subject (typedef, callback, name, external, host, event).
var jsdocStandaloneTags = map[string]bool{
	"file": true, "fileoverview": true, "overview": true, "module": true,
	"license": true, "copyright": true, "preserve": true,
	"typedef": true, "callback": true, "name": true, "external": true, "host": true, "event": true,
}

// jsdocTag returns the tag name at the start of s (the text after '@').
func jsdocTag(s string) string {
	n := 0
	for n < len(s) && isTagChar(s[n]) {
		n++
	}
	return strings.ToLower(s[:n])
}

func isTagChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
