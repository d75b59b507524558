package embed

import (
	"slices"
	"strings"
	"testing"
)

// rowsOf returns the rows e adds for text, in order: by the compound
// cache when cached is set, else word by word over the whole text.
func rowsOf(e *embedder, text string, cached bool) []int32 {
	var rows []int32
	e.visit = func(row int32) { rows = append(rows, row) }
	defer func() { e.visit = nil }()
	e.touched = e.touched[:0]
	if cached {
		e.tally(text)
	} else {
		splitWords(text, e.buf, e.word)
	}
	for _, row := range e.touched {
		e.count[row] = 0
	}
	return rows
}

// checkCompoundRows: a text adds the same rows in the same order word by
// word, through a cold compound cache and through a warm one.
func checkCompoundRows(t *testing.T, text string) {
	m := Default()
	ref := m.getEmbedder()
	defer m.putEmbedder(ref)
	want := rowsOf(ref, text, false)
	e := &embedder{m: m, acc: make([]float32, m.dim), count: make([]float32, len(m.coef)), segs: map[string]uint64{}, slots: new([slotCount]compoundSlot)}
	for _, pass := range []string{"cold", "warm"} {
		if got := rowsOf(e, text, true); !slices.Equal(got, want) {
			t.Fatalf("%s cache: %q adds rows %v, word by word %v", pass, text, got, want)
		}
	}
}

func TestCompoundRows(t *testing.T) {
	for _, text := range []string{
		"",
		"kthread_should_stop() && !signal_pending(current)",
		"static int __init ext4_init_fs(void) { return register_filesystem(&ext4_fs_type); }",
		"HTTPServer parseJSON utf8Decode x86_64 __init__ IOError",
		"ÉcoleNormale naïve_café 日本語テキスト emoji🙂here a\u00a0b",
		strings.Repeat("a", slotKey) + " " + strings.Repeat("b", slotKey+1) + " " + strings.Repeat("longWordName", 20),
		"many_words_in_one_long_compound_name more_than_four_rows_here",
		"os.path.join tree-sitter std::vector $var @decorator #include <linux/kthread.h>",
	} {
		checkCompoundRows(t, text)
	}
	// Compounds that share a slot evict each other; each must still add
	// its own rows.
	m := Default()
	e := &embedder{m: m, acc: make([]float32, m.dim), count: make([]float32, len(m.coef)), segs: map[string]uint64{}, slots: new([slotCount]compoundSlot)}
	seen := map[uint32]string{}
	var a, b string
	for i := 0; a == ""; i++ {
		w := "name" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
		h := uint32(2166136261)
		for k := 0; k < len(w); k++ {
			h = (h ^ uint32(w[k])) * 16777619
		}
		slot := (h ^ h>>16) & (slotCount - 1)
		if o, ok := seen[slot]; ok && o != w {
			a, b = o, w
		}
		seen[slot] = w
	}
	text := a + " " + b + " " + a + " " + b
	want := rowsOf(m.getEmbedder(), text, false)
	if got := rowsOf(e, text, true); !slices.Equal(got, want) {
		t.Errorf("%q and %q share a slot: rows %v, word by word %v", a, b, got, want)
	}
}

func FuzzCompoundRows(f *testing.F) {
	for _, s := range []string{"kmem_cache_alloc_node(cachep, flags, nid)", "getHTTPResponseCode", "ÉcoleNormale_x86", "a_b-c.d::e"} {
		f.Add(s)
	}
	f.Fuzz(checkCompoundRows)
}
