package embed

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
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
