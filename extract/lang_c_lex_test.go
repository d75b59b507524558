package extract

import (
	"os"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// FuzzCTokens: cTokens, which skips comments, directives and line breaks
// by search, gives the tokens, points and directive sites that lexing
// byte by byte gives.
func FuzzCTokens(f *testing.F) {
	f.Add([]byte(cMacroText))
	f.Add([]byte("#define A(x) \\\n\tx\n/* a\n b */ f(\"s\\\n t\", 'c'); // c\n#if B\\\\\nx\n"))
	f.Add([]byte("if (\n#ifdef X\r\n a &&\n#endif\n b) { /* open"))
	f.Add([]byte("\"a\\\n\n#else\\"))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, gotSites := cTokens(src, nil)
		want, wantSites := cTokensByByte(src, nil)
		if len(got) == 0 && len(want) == 0 {
			got, want = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: tokens\n%v, want\n%v", src, got, want)
		}
		if !reflect.DeepEqual(gotSites, wantSites) {
			t.Fatalf("%q: directive sites %v, want %v", src, gotSites, wantSites)
		}
	})
}

// TestCTokensPoints: the points of tokens after comments, strings and
// directives that span lines.
func TestCTokensPoints(t *testing.T) {
	src := "/* a\n b */ x \"s\\\nt\" y\n#if A \\\n B\nz\n"
	toks, _ := cTokens([]byte(src), nil)
	var got []sitter.Point
	for _, tok := range toks {
		got = append(got, tok.point)
	}
	want := []sitter.Point{{Row: 1, Column: 6}, {Row: 1, Column: 8}, {Row: 2, Column: 3}, {Row: 5, Column: 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
}

// TestCTokensGrowth: the tokens of a big file, past any buffer a worker
// keeps, are lexed into a buffer sized once from the file and doubled
// if the guess was short, not grown by a quarter at a time.
func TestCTokensGrowth(t *testing.T) {
	if raceOn {
		t.Skip("the race detector's allocations are counted")
	}
	src := []byte(strings.Repeat("a b c d ;\n", 40000)) // 2 bytes a token, a third of the guess
	if allocs := testing.AllocsPerRun(3, func() { cTokens(src, nil) }); allocs > 3 {
		t.Errorf("lexing 200,000 tokens allocated %.0f times, want at most 3", allocs)
	}
}

// BenchmarkCTextRepairs lexes C files of realistic size for their text
// repairs the way a worker does, into the buffer it keeps: Linux 6.1's
// kernel/sched/core.c (300 KB) and, past the kept buffer's size,
// drivers/net/wireless/broadcom/brcm80211/brcmsmac/phy/phy_n.c (900 KB),
// where the tree is at hand (LINUX_SRC names it: Debian's linux-source
// package, unpacked); else cMacroText repeated to 20 KB, a typical Linux
// .c file.
func BenchmarkCTextRepairs(b *testing.B) {
	root := os.Getenv("LINUX_SRC")
	for _, tc := range []struct{ name, path string }{
		{"core.c", "kernel/sched/core.c"},
		{"phy_n.c", "drivers/net/wireless/broadcom/brcm80211/brcmsmac/phy/phy_n.c"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			src, err := os.ReadFile(root + "/" + tc.path)
			if root == "" || err != nil {
				src = []byte(strings.Repeat(cMacroText, 20<<10/len(cMacroText)))
			}
			var kept []cToken
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				f := &fileInfo{src: src, ctoks: &kept}
				f.cTextRepairs()
			}
		})
	}
}

// cTokensByByte is cTokens as it was before it skipped comments, directives
// and line breaks by search: it moved the line and column past every byte.
// FuzzCTokens holds cTokens to it.
func cTokensByByte(src []byte, out []cToken) ([]cToken, []macroSite) {
	out = out[:0]
	var inParens []macroSite
	var row, col uint32
	var depth, paren int32
	lineHead := true
	n := uint32(len(src))
	adv := func(i uint32) uint32 { // moves past src[i], keeping row and col
		if src[i] == '\n' {
			row, col = row+1, 0
		} else {
			col++
		}
		return i + 1
	}
	for i := uint32(0); i < n; {
		c := src[i]
		switch {
		case c == '\n':
			lineHead = true
			i = adv(i)
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i = adv(i)
			continue
		case c == '#' && lineHead:
			// A directive, with its continuation lines.
			site := macroSite{start: i, startPoint: sitter.Point{Row: row, Column: col}}
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] == '\n' {
					i = adv(i)
				}
				i = adv(i)
			}
			if paren > 0 && isConditional(src[site.start+1:i]) {
				site.end, site.endPoint = i, sitter.Point{Row: row, Column: col}
				inParens = append(inParens, site)
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i = adv(i)
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = adv(adv(i))
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				i = adv(i)
			}
			if i < n {
				i = adv(adv(i))
			}
			continue
		}
		lineHead = false
		t := cToken{start: i, point: sitter.Point{Row: row, Column: col}, kind: c, depth: depth, paren: paren}
		switch {
		case c == '"' || c == '\'':
			t.kind = '"'
			i = adv(i)
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n {
					i = adv(i)
				}
				i = adv(i)
			}
			if i < n && src[i] == c {
				i = adv(i)
			}
		case isIdentByte(c) && c < 0x80:
			t.kind = 'a'
			for i < n && isIdentByte(src[i]) && src[i] < 0x80 {
				i = adv(i)
			}
		default:
			i = adv(i)
			switch c {
			case '{':
				depth, paren = depth+1, 0
			case '}':
				depth, paren = max(depth-1, 0), 0
			case ';':
				paren = 0
			case '(':
				paren++
			case ')':
				paren = max(paren-1, 0)
			}
		}
		t.end = i
		out = append(out, t)
	}
	return out, inParens
}
