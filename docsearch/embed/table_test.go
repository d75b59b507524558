package embed

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strings"
	"testing"
)

func TestDecodeCorrupt(t *testing.T) {
	small := smallTable(t)
	for name, mutate := range map[string]func([]byte) []byte{
		"empty":     func([]byte) []byte { return nil },
		"magic":     func(b []byte) []byte { b[0] = 'X'; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-9] },
		"flipped":   func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		"trailing":  func(b []byte) []byte { return append(b, 0) },
	} {
		if _, err := Decode(mutate(bytes.Clone(small))); err == nil {
			t.Errorf("%s: Decode accepted a corrupt table", name)
		}
	}
}

// smallTable is a hand-made table of three words.
func smallTable(t testing.TB) []byte {
	t.Helper()
	tab := &Table{
		Header: Header{Name: "test/1", Kind: KindWords, Dim: 2, Count: 3, Package: "none", Integrity: "sha512-x", License: "none", Generator: "test"},
		Tokens: []string{"read", "file", "write"},
		Probs:  []float32{0.5, 0.25, 0.25},
		Scales: []float32{0.01, 0.01, 0.02},
		// read and write point the same way, file across.
		Vectors: []int8{100, 0, 0, 100, 50, 0},
	}
	b, err := tab.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzDecode feeds Decode arbitrary tables with a valid CRC (the fuzzer
// would not get past a wrong one): it must return an error or a table that
// loads, embeds, and encodes stably; never panic.
func FuzzDecode(f *testing.F) {
	small := smallTable(f)
	f.Add(small[:len(small)-4])
	f.Add([]byte(Magic))
	pieces, err := piecesTable().Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pieces[:len(pieces)-4])
	f.Fuzz(func(t *testing.T, body []byte) {
		b := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.ChecksumIEEE(body))
		tab, err := Decode(b)
		if err != nil {
			return
		}
		m, err := New(tab, Options{})
		if err != nil {
			t.Fatalf("decoded table does not load: %v", err)
		}
		if _, err := m.Embed(context.Background(), []string{strings.Join(tab.Tokens, " ")}); err != nil {
			t.Fatal(err)
		}
		enc, err := tab.Encode()
		if err != nil {
			t.Fatalf("decoded table does not encode: %v", err)
		}
		tab2, err := Decode(enc)
		if err != nil {
			t.Fatalf("encoded table does not decode: %v", err)
		}
		if enc2, _ := tab2.Encode(); !bytes.Equal(enc, enc2) {
			t.Fatal("encode(decode(encode(t))) differs from encode(t)")
		}
	})
}

// FuzzDecodeMutated flips bytes of a valid table: the CRC must catch it.
func FuzzDecodeMutated(f *testing.F) {
	f.Add(uint16(0), byte(1))
	f.Add(uint16(12), byte(0x80))
	f.Fuzz(func(t *testing.T, at uint16, x byte) {
		b := smallTable(t)
		if x == 0 {
			return
		}
		b[int(at)%len(b)] ^= x
		if _, err := Decode(b); err == nil {
			t.Fatalf("flip at %d accepted", int(at)%len(b))
		}
	})
}

// TestFingerprint checks that a model's name changes with any change of
// its table's vectors, scales, probabilities or tokens, and not otherwise.
func TestFingerprint(t *testing.T) {
	base := mustDecode(t, defaultTable)
	name := func(tab *Table) string {
		t.Helper()
		m, err := New(tab, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m.Name()
	}
	want := name(base)
	if again := name(mustDecode(t, defaultTable)); again != want {
		t.Fatalf("the same table named %q and %q", want, again)
	}
	for _, c := range []struct {
		what   string
		change func(*Table)
	}{
		{"vector", func(t *Table) { t.Vectors[len(t.Vectors)/2]++ }},
		{"scale", func(t *Table) { t.Scales[7] *= 1.01 }},
		{"probability", func(t *Table) { t.Probs[3] *= 1.01 }},
		{"token", func(t *Table) { t.Tokens[100] += "x" }},
	} {
		tab := mustDecode(t, defaultTable)
		c.change(tab)
		if got := name(tab); got == want {
			t.Errorf("a changed %s leaves the model's name %q", c.what, got)
		}
	}
}

// piecesTable is a hand-made table of pieces whose last token is a whole
// word, more probable than the pieces it could replace.
func piecesTable() *Table {
	return &Table{
		Header: Header{Name: "test/1", Kind: KindPieces, Dim: 2, Count: 6, Whole: 1, Package: "none", Integrity: "sha512-x", License: "none", Generator: "test"},
		Tokens: []string{PieceMark + "read", PieceMark + "re", "ad", "s", "file", PieceMark + "reads"},
		Probs:  []float32{0.3, 0.2, 0.2, 0.1, 0.1, 0.5},
		Scales: []float32{0.01, 0.01, 0.01, 0.01, 0.01, 0.01},
		Vectors: []int8{
			100, 0,
			90, 10,
			80, 20,
			0, 100,
			10, 90,
			50, 50,
		},
	}
}

// TestWholeWords checks that a whole-word token stands for its word and
// for nothing else: it is not a piece of other words' segmentations,
// whatever its probability.
func TestWholeWords(t *testing.T) {
	b, err := piecesTable().Encode()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Whole != 1 {
		t.Fatalf("Whole = %d after a round trip, want 1", tab.Whole)
	}
	m, err := New(tab, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"reads", []string{PieceMark + "reads"}},
		{"read", []string{PieceMark + "read"}},
		{"readsfile", []string{PieceMark + "read", "s", "file"}},
		{"Reads the file", []string{PieceMark + "reads", "file"}}, // no piece covers "the"
	} {
		if got := m.Tokens(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	cut, err := New(tab, Options{Words: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cut.Tokens("reads"), []string{PieceMark + "read", "s"}; !slices.Equal(got, want) {
		t.Errorf("without the whole words, Tokens(reads) = %q, want %q", got, want)
	}
}

func TestWholeWordsChecked(t *testing.T) {
	for name, mutate := range map[string]func(*Table){
		"more than count": func(t *Table) { t.Whole = 7 },
		"negative":        func(t *Table) { t.Whole = -1 },
		"in a words table": func(t *Table) {
			t.Kind = KindWords
		},
		"without the mark": func(t *Table) { t.Tokens[5] = "reads" },
		"a bare mark":      func(t *Table) { t.Tokens[5] = PieceMark },
	} {
		tab := piecesTable()
		mutate(tab)
		if _, err := tab.Encode(); err == nil {
			t.Errorf("%s: Encode accepted the table", name)
		}
		if _, err := New(tab, Options{}); err == nil {
			t.Errorf("%s: New accepted the table", name)
		}
	}
}
