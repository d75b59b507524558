package callgraph

import "testing"

// TestRustCases checks the cases of testdata/rust (see testCases):
// receivers' types, standard library method names, paths and test code.
func TestRustCases(t *testing.T) { testCases(t, "testdata/rust/*.txtar") }

// TestRustCasesUpdate checks that Update gives what Build does on the
// Rust cases, whose resolution reads other files' declarations.
func TestRustCasesUpdate(t *testing.T) { testCasesUpdate(t, "testdata/rust/*.txtar") }
