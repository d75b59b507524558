package codeindex

import (
	"bytes"
	"strings"
)

// A symbol's decorators, annotations and attributes can say what it is:
// the route a handler serves (`@app.route("/checkout")`,
// `@GetMapping("/orders")`, `[HttpGet("orders")]`, NestJS's
// `@Get('orders')`), the options a command takes with their help
// (`@click.option("--count", help="Number of greetings.")`), or that it is
// deprecated (`@Deprecated`, `#[deprecated]`, `[Obsolete]`). extract
// starts a symbol at its name's line, after them, so its document's body
// is led by those of them that hold a string or a deprecation mark
// (attributeText). Bare ones (`@property`, `@classmethod`,
// `@Override`) say little and lengthen short methods: all of them in the
// body cost the held-out Python questions 0.008 (docs/code-search.md,
// twenty-sixth session).

// maxAttributeLines bounds the lines above a symbol read for its
// attributes, continuation lines of a long one included.
const maxAttributeLines = 12

// attributeMarks are, by language, how a line starting an attribute
// begins once its indentation is trimmed.
var attributeMarks = map[string][]string{
	"python":     {"@"},
	"java":       {"@"},
	"kotlin":     {"@"},
	"scala":      {"@"},
	"swift":      {"@"},
	"typescript": {"@"},
	"tsx":        {"@"},
	"javascript": {"@"},
	"csharp":     {"["},
	"rust":       {"#[", "#!["},
	"php":        {"#["},
}

// attributesFrom returns the 1-based line where the decorators,
// annotations or attributes right above line start (line when there
// are none), in a file of language lang. The lines above are read
// upward while they are an attribute's or could continue one (a
// decorator's arguments over several lines); a blank line, a comment or
// a line that ends a statement or block stops the reading, and only
// lines up to the topmost attribute start are taken.
func attributesFrom(lines [][]byte, line int, lang string) int {
	marks := attributeMarks[lang]
	if len(marks) == 0 || line < 2 || line > len(lines)+1 {
		return line
	}
	from := line
	for i := line - 1; i >= 1 && line-i <= maxAttributeLines; i-- {
		t := bytes.TrimSpace(lines[i-1])
		if len(t) == 0 || commentLine(t, lang) {
			break
		}
		if startsWithAny(t, marks) {
			from = i
			continue
		}
		if last := t[len(t)-1]; last == ';' || last == '{' || last == '}' || last == ':' && lang == "python" {
			break // the end of the code before
		}
	}
	return from
}

// attributeText returns the attributes right above line (see
// attributesFrom) that hold a string or a deprecation mark, each with
// its continuation lines, one after another and each line ending in a
// newline; "" when none does.
func attributeText(lines [][]byte, line int, lang string) string {
	from := attributesFrom(lines, line, lang)
	if from == line {
		return ""
	}
	marks := attributeMarks[lang]
	var b strings.Builder
	for i := from; i < line; {
		j := i + 1 // the attribute's lines are [i, j)
		for j < line && !startsWithAny(bytes.TrimSpace(lines[j-1]), marks) {
			j++
		}
		if telling(lines[i-1 : j-1]) {
			for _, l := range lines[i-1 : j-1] {
				b.Write(l)
				b.WriteByte('\n')
			}
		}
		i = j
	}
	return b.String()
}

// telling reports whether an attribute's lines hold a string literal or
// mark what they annotate deprecated.
func telling(lines [][]byte) bool {
	for _, l := range lines {
		if bytes.ContainsAny(l, "\"'`") || bytes.Contains(bytes.ToLower(l), []byte("deprecat")) || bytes.Contains(l, []byte("Obsolete")) {
			return true
		}
	}
	return false
}

// startsWithAny reports whether t starts with one of marks; a C#
// attribute also needs a letter after its bracket (not an array).
func startsWithAny(t []byte, marks []string) bool {
	for _, m := range marks {
		if bytes.HasPrefix(t, []byte(m)) && len(t) > len(m) {
			c := t[len(m)]
			if m == "[" && !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
				continue
			}
			return true
		}
	}
	return false
}

// commentLine reports whether the trimmed line t is a comment or part of
// a doc comment in language lang.
func commentLine(t []byte, lang string) bool {
	switch {
	case lang == "python" && t[0] == '#',
		bytes.HasPrefix(t, []byte("//")), bytes.HasPrefix(t, []byte("/*")), t[0] == '*',
		bytes.HasSuffix(t, []byte("*/")), bytes.HasPrefix(t, []byte(`"""`)), bytes.HasPrefix(t, []byte("'''")):
		return true
	}
	return false
}
