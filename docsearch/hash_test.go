package docsearch

import "testing"

// TestContentHashOf checks that the hash of two strings is the hash of
// them joined, as code documents recorded it.
func TestContentHashOf(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"terms 2\x00", ""}, {"", "func f() {}"}, {"terms 2\x00", "func f() {}\n"}} {
		if got, want := contentHashOf(c[0], c[1]), contentHash([]byte(c[0]+c[1])); got != want {
			t.Errorf("contentHashOf(%q, %q) = %x; want %x", c[0], c[1], got, want)
		}
	}
}

// BenchmarkCodeDocHash hashes a symbol's text of 2 KB, as each code
// document is hashed when it is put.
func BenchmarkCodeDocHash(b *testing.B) {
	text := string(make([]byte, 2048))
	b.ReportAllocs()
	for b.Loop() {
		codeDocHash(text)
	}
}
