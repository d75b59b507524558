package extract

import (
	"fmt"
	"strings"
	"testing"
)

func TestShrink(t *testing.T) {
	tests := []struct {
		len, cap, wantCap int
		nilSlice          bool
	}{
		{0, 0, 0, true},
		{0, 0, 0, false},
		{8, 8, 8, false},
		{9, 10, 10, false}, // an eighth or less wasted: kept
		{5, 16, 5, false},
		{100, 200, 100, false},
	}
	for _, tt := range tests {
		s := make([]int, tt.len, tt.cap)
		if tt.nilSlice {
			s = nil
		}
		got := shrink(s)
		if cap(got) != tt.wantCap || len(got) != tt.len || (got == nil) != tt.nilSlice {
			t.Errorf("shrink(len %d cap %d nil %v) = len %d cap %d nil %v, want cap %d", tt.len, tt.cap, tt.nilSlice, len(got), cap(got), got == nil, tt.wantCap)
		}
	}
}

// TestExtractedSlicesAreTight checks that a File keeps no doubling slack
// in its biggest slices: a call graph holds every File of a repository.
func TestExtractedSlicesAreTight(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc g(int) {}\n\nfunc f() {\n")
	for i := range 70 {
		fmt.Fprintf(&b, "\tx%d := %d\n\tg(x%d)\n", i, i, i)
	}
	b.WriteString("}\n")
	f := extractString(t, "p.go", b.String())
	for name, lc := range map[string][2]int{
		"calls":    {len(f.Calls), cap(f.Calls)},
		"bindings": {len(f.Bindings), cap(f.Bindings)},
	} {
		if lc[0] < 70 || lc[1]-lc[0] > lc[0]/8 {
			t.Errorf("%s: len %d cap %d", name, lc[0], lc[1])
		}
	}
}
