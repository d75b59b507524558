package extract

import (
	"path"
	"slices"
	"strings"
	"unicode"
)

// testDirs are directory names whose files are test code in the
// languages that use them, in any case: Rust's integration tests,
// Python's test packages, SwiftPM's and .NET's Tests (tests), JUnit's
// src/test and Go's test trees (test), Jest's __tests__ and __mocks__,
// RSpec's spec, Go's testdata, Playwright's and Cypress's e2e, Linux's
// selftests; and the test doubles and helpers kept beside the code they
// stand in for (mocks, fakes, fixtures, testutil; Kubernetes's fake
// clientsets, one package fake per API group).
var testDirs = []string{"tests", "test", "__tests__", "__mocks__", "spec", "testdata", "e2e", "selftests",
	"mocks", "fakes", "fake", "fixtures", "__fixtures__", "testutil", "testutils"}

// camelTestExts are the languages whose test classes are named
// FooTest or FooTests (JUnit, Kotlin, ScalaTest, NUnit and xUnit, XCTest,
// PHPUnit), each in a file of its name.
var camelTestExts = []string{".java", ".kt", ".kts", ".scala", ".cs", ".swift", ".php", ".groovy"}

// IsTestPath reports whether the file at slash path p (relative to the
// root) is test-only code by its languages' conventions: a name of
// testStem's (Go's *_test.go, pytest's test_*.py, Ruby's *_spec.rb, C's
// test_*.c); conftest.py and Django's tests.py; *.test.* and *.spec.*
// (Jest, Mocha, Vitest, Jasmine), Nest's *.e2e-spec.*, Cypress's *.cy.*,
// *.e2e.*; FooTest and FooTests of the languages in camelTestExts; any
// file under a directory named in testDirs, a .NET test project
// (Foo.Tests, Foo.UnitTests, Foo.Specs), or a Gradle source set of tests
// (src/androidTest, src/commonTest, src/testFixtures).
func IsTestPath(p string) bool {
	dir, base := path.Split(p)
	switch {
	case base == "conftest.py", base == "tests.py",
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."), strings.Contains(base, ".e2e-spec."),
		strings.Contains(base, ".cy."), strings.Contains(base, ".e2e."),
		testStem(base), camelTestFile(base):
		return true
	}
	for elem := range strings.SplitSeq(strings.TrimSuffix(dir, "/"), "/") {
		if testDir(elem) {
			return true
		}
	}
	return false
}

// testStem reports whether a file's name less its extension says a test
// in any language: test_x or x_test (Go, pytest, Deno, C's and C++'s
// unit tests), x_tests, x_unittest (Chromium's C++), x_spec (RSpec,
// busted), or a test double: mock_x, x_mock(s), fake_x, x_fake (a
// hand-written fake_clock.go implements the interface it stands in for,
// and was a callee of every production call through it); in C and C++ also x-test and x_kunit (Linux's lib/test-*.c
// and KUnit suites). A Linux driver's selftest.c is the device's
// self-test that ethtool runs, not a test of the code.
func testStem(base string) bool {
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if stem == "" || stem == base && ext == "" {
		return false
	}
	for _, suffix := range []string{"_test", "_tests", "_unittest", "_spec", "_mock", "_mocks", "_fake"} {
		if strings.HasSuffix(stem, suffix) && len(stem) > len(suffix) {
			return true
		}
	}
	for _, prefix := range []string{"test_", "mock_", "fake_"} {
		if strings.HasPrefix(stem, prefix) && len(stem) > len(prefix) {
			return true
		}
	}
	switch strings.ToLower(ext) {
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return strings.HasSuffix(stem, "-test") || strings.HasSuffix(stem, "_kunit") || strings.HasPrefix(stem, "test-")
	}
	return false
}

// camelTestFile reports whether base is a file of a language in
// camelTestExts named for a test class: a stem that is Test or Tests, or
// ends in it after a lower-case letter or a digit (ParserTest.java,
// RouterTests.swift; not Latest.java or Contest.kt).
func camelTestFile(base string) bool {
	ext := path.Ext(base)
	if !slices.Contains(camelTestExts, strings.ToLower(ext)) {
		return false
	}
	stem := strings.TrimSuffix(base, ext)
	for _, suffix := range []string{"Tests", "Test"} {
		if rest, ok := strings.CutSuffix(stem, suffix); ok {
			return rest == "" || endsLowerOrDigit(rest)
		}
	}
	return false
}

// testDir reports whether a directory name says test code: one of
// testDirs in any case; a .NET project whose last dotted part ends in
// Tests or is Test, Spec or Specs (Foo.Tests, Foo.IntegrationTests); a
// Gradle source set of tests, a lower-case platform before Test
// (androidTest, commonTest, jvmTest) or test before an upper-case word
// (testFixtures, testDebug).
func testDir(elem string) bool {
	lower := strings.ToLower(elem)
	if slices.Contains(testDirs, lower) {
		return true
	}
	if i := strings.LastIndexByte(lower, '.'); i > 0 {
		last := lower[i+1:]
		return strings.HasSuffix(last, "tests") || last == "test" || last == "spec" || last == "specs"
	}
	if rest, ok := strings.CutSuffix(elem, "Test"); ok && rest != "" && isLowerWord(rest) {
		return true
	}
	if rest, ok := strings.CutPrefix(elem, "test"); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
		return true
	}
	return false
}

// endsLowerOrDigit reports whether s ends in a lower-case ASCII letter or
// a digit.
func endsLowerOrDigit(s string) bool {
	c := s[len(s)-1]
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

// isLowerWord reports whether s starts with a lower-case ASCII letter and
// holds only letters and digits (a camelCase word: android, commonJvm).
func isLowerWord(s string) bool {
	if s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
