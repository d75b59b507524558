package embed

import (
	"slices"
	"strconv"
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

// coldEmbedder returns an embedder of m whose compound cache is empty;
// the caller gives it back with m.putEmbedder.
func coldEmbedder(m *Model) *embedder {
	e := m.getEmbedder()
	e.slots = new([slotCount]compoundSlot)
	return e
}

// checkCompoundRows: a text adds the same rows in the same order word by
// word, through a cold compound cache and through a warm one.
func checkCompoundRows(t *testing.T, text string) {
	m := Default()
	e := coldEmbedder(m)
	defer m.putEmbedder(e)
	want := rowsOf(e, text, false)
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
}

// TestCompoundSlotShared: two compounds that hash to one slot evict each
// other, and each still adds its own rows.
func TestCompoundSlotShared(t *testing.T) {
	m := Default()
	e := coldEmbedder(m)
	defer m.putEmbedder(e)
	slotOf := func(c string) int {
		for i := range e.slots {
			if s := &e.slots[i]; string(s.key[:s.klen]) == c {
				return i
			}
		}
		return -1
	}
	const a = "read_buffer"
	rowsOf(e, a, true)
	at := slotOf(a)
	if at < 0 {
		t.Fatalf("%q not cached", a)
	}
	b := ""
	for i := 0; b == "" && i < 1<<20; i++ {
		c := "write_page" + strconv.Itoa(i)
		if rowsOf(e, c, true); slotOf(c) == at {
			b = c
		}
	}
	if b == "" {
		t.Fatal("no compound shares a slot with " + a)
	}
	text := a + " " + b + " " + a + " " + b
	ref := m.getEmbedder()
	defer m.putEmbedder(ref)
	want := rowsOf(ref, text, false)
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
