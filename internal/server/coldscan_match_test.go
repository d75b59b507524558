package server

import (
	"bytes"
	"strings"
	"testing"
)

// lowerContains is what holds with fold means: ASCII letters of src
// lowered, then a plain search.
func lowerContains(src, p []byte) bool {
	low := bytes.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, src)
	return bytes.Contains(low, p)
}

func TestHolds(t *testing.T) {
	for _, c := range []struct {
		src, p string
		fold   bool
		want   bool
	}{
		{"func NewProgram() {}", "NewProgram", false, true},
		{"func newProgram() {}", "NewProgram", false, false},
		{"func newProgram() {}", "newprogram", true, true},
		{"NEW_PROGRAM = 1", "new_program", true, true},
		{"new", "newprogram", true, false},
		{"nnnnewprogram", "newprogram", true, true},
		{"NnNewPrograM", "newprogram", true, true},
		{"Zeta", "zeta", true, true},
		{"zet", "zeta", true, false},
		{"", "a", true, false},
		{"_x_", "_x_", true, true},
	} {
		if got := holds([]byte(c.src), []byte(c.p), c.fold); got != c.want {
			t.Errorf("holds(%q, %q, %v) = %v, want %v", c.src, c.p, c.fold, got, c.want)
		}
	}
}

// FuzzHolds: holds with fold agrees with lowering then searching.
func FuzzHolds(f *testing.F) {
	f.Add([]byte("func NewProgram() {}"), "newprogram")
	f.Add([]byte("aAaAb"), "aab")
	f.Fuzz(func(t *testing.T, src []byte, p string) {
		p = strings.ToLower(p)
		if p == "" || strings.ContainsFunc(p, func(r rune) bool { return r >= 0x80 }) {
			return
		}
		if got, want := holds(src, []byte(p), true), lowerContains(src, []byte(p)); got != want {
			t.Fatalf("holds(%q, %q) = %v, lowering and searching says %v", src, p, got, want)
		}
	})
}

// BenchmarkHolds is the scan's matching of one file: Go source of 64 KB
// without the name, as most files of a scan are.
func BenchmarkHolds(b *testing.B) {
	src := bytes.Repeat([]byte("func (p *Program) CreatePackage(pkg *types.Package) *Package { return nil }\n"), 64<<10/76)
	for _, fold := range []bool{false, true} {
		name := "exact"
		if fold {
			name = "fold"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if holds(src, []byte("newprogram"), fold) {
					b.Fatal("found")
				}
			}
		})
	}
}
