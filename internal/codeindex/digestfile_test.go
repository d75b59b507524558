package codeindex

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const hexA = "83489f99ed3ec07de66c273af20e0d21ce0aae4123370475d0c9226ac6737013"
const hexB = "32e103e1dff9dbb0dd1ac37f2447e43816b0671ecd3582ba02a142e8a39b67a2"

// TestDigestsFile checks that the digests file is decoded to what it was
// made from, and that a file damaged in any way is refused with an error
// saying how.
func TestDigestsFile(t *testing.T) {
	m := map[string]digestStamp{
		"fs/9p/acl.h":   {1355, 1793988916000000000, hexA},
		"fs/9p/cache.c": {1820, -3, hexB},
	}
	good := encodeDigests(m)
	if got, err := decodeDigests(good); err != nil || !maps.Equal(got, m) {
		t.Fatalf("decode(encode) = %v, %v; want %v", got, err, m)
	}
	if got, err := decodeDigests(encodeDigests(nil)); err != nil || len(got) != 0 {
		t.Errorf("no digests: %v, %v", got, err)
	}
	resum := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[len(digestsMagic)+4:], crc32.Checksum(b[stampsHeader:], castagnoli))
		return b
	}
	one := func(p string, d digestStamp) []byte { return encodeDigests(map[string]digestStamp{p: d}) }
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "not a digests file"},
		{"stamps file", encodeStamps(nil), "not a digests file"},
		{"a bit flipped", func() []byte { b := slices.Clone(good); b[len(b)-70] ^= 1; return b }(), "damaged"},
		{"truncated", good[:len(good)-1], "damaged"},
		{"truncated, summed", resum(slices.Clone(good[:len(good)-1])), "not a SHA-256"},
		{"trailing bytes", resum(append(slices.Clone(good), 0)), "after the last record"},
		{"count huge", func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[len(digestsMagic):], 1<<30)
			return b
		}(), "records in"},
		{"upper-case hex", one("a.go", digestStamp{300, 1, strings.ToUpper(hexA)}), "not a SHA-256"},
		{"outside", one("../a.go", digestStamp{300, 1, hexA}), "not a path inside"},
		{"negative size", one("a.go", digestStamp{-1, 1, hexA}), "bad size"},
		{"repeated", func() []byte {
			b := one("a.go", digestStamp{300, 1, hexA})
			rec := b[stampsHeader:]
			b = append(b, rec...)
			binary.LittleEndian.PutUint32(b[len(digestsMagic):], 2)
			return resum(b)
		}(), "not sorted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeDigests(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("decode = %v, %v; want an error saying %q", got, err, tc.want)
			}
		})
	}
}

// TestLegacyDigests checks that the digests left as JSON by an older
// fileinfo are taken once and replaced by the digests file, and that a
// damaged digests file is said in a line to log and rebuilt.
func TestLegacyDigests(t *testing.T) {
	dir := t.TempDir()
	m := map[string]digestStamp{"a/b.go": {300, 7, hexA}}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, legacyDigestsFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	got, legacy := readDigests(dir, nil)
	if !legacy || !maps.Equal(got, m) {
		t.Fatalf("legacy digests: %v, %v", got, legacy)
	}
	if err := writeDigests(dir, got); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, legacyDigestsFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("legacy digests file left behind: %v", err)
	}
	if got, legacy := readDigests(dir, nil); legacy || !maps.Equal(got, m) {
		t.Errorf("digests rewritten as %v (legacy %v); want %v", got, legacy, m)
	}
	if err := os.WriteFile(filepath.Join(dir, digestsFile), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	if got, _ := readDigests(dir, slog.New(slog.NewTextHandler(&logs, nil))); got != nil {
		t.Errorf("damaged digests taken: %v", got)
	}
	if !strings.Contains(logs.String(), digestsFile) || !strings.Contains(logs.String(), "not a digests file") {
		t.Errorf("log %q; want a line naming %s and saying why", logs.String(), digestsFile)
	}
}

// FuzzDigestsFile checks decodeDigests accepts or refuses any input
// without panicking, and that what it accepts is encoded back to the
// same digests.
func FuzzDigestsFile(f *testing.F) {
	f.Add(encodeDigests(map[string]digestStamp{"a/b.go": {300, 7, hexA}, "c.py": {301, -1, hexB}}))
	f.Add(encodeDigests(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeDigests(data)
		if err != nil {
			return
		}
		back, err := decodeDigests(encodeDigests(m))
		if err != nil {
			t.Fatalf("decode of its own encoding: %v", err)
		}
		if !maps.Equal(back, m) {
			t.Fatalf("round trip: %v, then %v", m, back)
		}
	})
}
