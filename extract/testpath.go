package extract

import "strings"

// testDirs are directory names whose files are test code in the
// languages that use them: Rust's integration tests and Python's test
// packages (tests), JUnit's src/test and Go's test trees (test), Jest's
// __tests__ and __mocks__, RSpec's spec, Go's testdata.
var testDirs = []string{"tests", "test", "__tests__", "__mocks__", "spec", "testdata"}

// IsTestPath reports whether the file at slash path p (relative to the
// root) is test-only code by its languages' conventions: Go's *_test.go;
// pytest's test_*.py, *_test.py and conftest.py; *.test.* and *.spec.*
// (Jest, Mocha, Vitest, Jasmine); Ruby's *_spec.rb and *_test.rb; any file
// under a directory named in testDirs.
func IsTestPath(p string) bool {
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	switch {
	case strings.HasSuffix(base, "_test.go"),
		base == "conftest.py",
		strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")),
		strings.HasSuffix(base, "_spec.rb"), strings.HasSuffix(base, "_test.rb"),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."):
		return true
	}
	for dir != "" {
		elem := dir
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			elem, dir = dir[i+1:], dir[:i]
		} else {
			dir = ""
		}
		for _, t := range testDirs {
			if elem == t {
				return true
			}
		}
	}
	return false
}
