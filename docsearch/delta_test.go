package docsearch

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// savedDelta returns an overlay case whose change is saved as a delta.
func savedDelta(t testing.TB, emb Embedder) *overlayCase {
	t.Helper()
	tt, ok := t.(*testing.T)
	if !ok {
		t.Skip("needs a *testing.T")
	}
	oc := newOverlayCase(tt, emb)
	oc.change(tt, openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: emb}))
	if _, err := os.Stat(filepath.Join(oc.dir, deltaFile)); err != nil {
		t.Fatal("no delta:", err)
	}
	return oc
}

// TestDeltaRoundTrip checks that a delta read back encodes as it was
// written.
func TestDeltaRoundTrip(t *testing.T) {
	oc := savedDelta(t, &trigramEmbedder{})
	saved, err := os.ReadFile(filepath.Join(oc.dir, deltaFile))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := OpenSaved(ctx, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: &trigramEmbedder{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ix.encodeDelta(); string(got) != string(saved) {
		t.Errorf("the delta read back encodes to %d bytes, not the %d saved", len(got), len(saved))
	}
}

// TestDamagedDelta checks that a delta damaged, cut short or of another
// version is never served: OpenSaved fails, and Open rebuilds the index,
// which then searches as the whole one.
func TestDamagedDelta(t *testing.T) {
	for name, damage := range map[string]func([]byte) []byte{
		"flipped":   func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-9] },
		"empty":     func(b []byte) []byte { return nil },
		"version":   func(b []byte) []byte { b[len(deltaMagic)]++; return b },
		"resummed": func(b []byte) []byte { // sound sum, bad body
			b[len(b)/2] ^= 0x40
			binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			oc := savedDelta(t, nil)
			file := filepath.Join(oc.dir, deltaFile)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, damage(b), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := OpenSaved(ctx, os.DirFS(oc.root), Options{Dir: oc.dir}); err == nil && name != "resummed" {
				t.Error("OpenSaved served an index with a damaged delta")
			}
			// The whole index is rebuilt from the files; the Put documents
			// and code are put again, as their callers do when the index
			// is new.
			ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir})
			if ix.HasScope(ScopeCode) && name != "resummed" {
				t.Error("the index was not rebuilt")
			}
			if err := ix.Put(ctx, append([]Document{overlayPut[0]}, overlayPutAfter...)); err != nil {
				t.Fatal(err)
			}
			putCode(t, ix, overlayCode(true))
			expectSameResults(t, ix, oc.whole(t))
		})
	}
}

// TestStaleDelta checks that a delta of an earlier index file, left by a
// save killed between renaming the new file in and removing the delta,
// is dropped: the index file holds all it did.
func TestStaleDelta(t *testing.T) {
	oc := savedDelta(t, nil)
	file := filepath.Join(oc.dir, deltaFile)
	old, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Merge: true}) // folds the delta in
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("Merge left the delta: %v", err)
	}
	want := oc.whole(t)
	expectSameResults(t, ix, want)
	if err := os.WriteFile(file, old, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := OpenSaved(ctx, os.DirFS(oc.root), Options{Dir: oc.dir})
	if err != nil {
		t.Fatal(err)
	}
	expectSameResults(t, again, want)
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the stale delta is still there: %v", err)
	}
	if err := Verify(oc.dir); err != nil {
		t.Error(err)
	}
}

// TestVerifyDelta checks that Verify reports a damaged delta.
func TestVerifyDelta(t *testing.T) {
	oc := savedDelta(t, nil)
	if err := Verify(oc.dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(oc.dir, deltaFile)
	b, _ := os.ReadFile(file)
	b[len(b)/3] ^= 1
	os.WriteFile(file, b, 0o644)
	if err := Verify(oc.dir); err == nil {
		t.Error("Verify passed a damaged delta")
	}
}

// FuzzDecodeDelta checks that no delta body, summed and naming the index
// file, makes the decoder fail other than with an error.
func FuzzDecodeDelta(f *testing.F) {
	root := f.TempDir()
	writeTree(f, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	a := openTest(f, os.DirFS(root), Options{Dir: dir})
	if err := a.Put(ctx, overlayPut); err != nil {
		f.Fatal(err)
	}
	b := openTest(f, os.DirFS(root), Options{Dir: dir})
	if err := b.Put(ctx, overlayPutAfter); err != nil {
		f.Fatal(err)
	}
	saved, err := os.ReadFile(filepath.Join(dir, deltaFile))
	if err != nil {
		f.Fatal(err)
	}
	c := openTest(f, os.DirFS(root), Options{Dir: dir})
	head := len(deltaMagic) + 1
	_, n := binary.Uvarint(saved[head:])
	head += n + 4 // main size and sum
	f.Add(saved[head : len(saved)-4])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		d := append(append([]byte{}, saved[:head]...), body...)
		d = binary.LittleEndian.AppendUint32(d, crc32.Checksum(d, castagnoli))
		c.readDelta(d, c.mapped)
	})
}
