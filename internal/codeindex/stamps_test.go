package codeindex

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestSyncRebuildsHostileStamps puts in place of the stamps file what a
// hostile or unlucky user leaves there: Sync must refuse it without
// blocking or reading it whole, read every file again, say so in one log
// line naming the file and why, and save good stamps in its place.
func TestSyncRebuildsHostileStamps(t *testing.T) {
	for _, how := range fixture.Spoilings {
		t.Run(string(how), func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, ".artifacts", ".index")
			os.WriteFile(filepath.Join(root, "shop.go"), []byte(shopGo), 0o644)
			os.WriteFile(filepath.Join(root, "tax.py"), []byte("def tax(amount):\n    return amount * 1.2\n"), 0o644)
			ctx := context.Background()
			ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Sync(ctx, ix, root, dir, nil); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, stampsFile)
			fixture.Spoil(t, file, how)
			var logs bytes.Buffer
			st := syncGuarded(t, ix, root, dir, slog.New(slog.NewTextHandler(&logs, nil)))
			if st.Files != 2 || st.Read != 2 || st.Extracted != 2 {
				t.Errorf("sync: %+v; want 2 files, all read and extracted again", st)
			}
			if got := ix.CodeFiles(); !reflect.DeepEqual(got, []string{"shop.go", "tax.py"}) {
				t.Errorf("code files %q", got)
			}
			want := map[fixture.Spoiling]string{
				fixture.LinkToDevZero: "symbolic link",
				fixture.FIFO:          "named pipe",
				fixture.Sparse:        "over the",
				fixture.Garbage:       "not a stamps file",
				fixture.Truncated:     "damaged",
			}[how]
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], file) || !strings.Contains(lines[0], want) {
				t.Errorf("log %q; want one line naming %s and saying %q", logs.String(), file, want)
			}
			if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s not replaced by a regular file: %v", file, err)
			}
			if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 0 {
				t.Errorf("the sync after: %+v, %v; want nothing read again", st, err)
			}
		})
	}
}

// syncGuarded runs Sync, failing t if it does not return: a stamps file
// that blocks it (a FIFO) would otherwise hang the test binary.
func syncGuarded(t *testing.T, ix *docsearch.Index, root, dir string, log *slog.Logger) SyncStats {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	type result struct {
		st  SyncStats
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := Sync(ctx, ix, root, dir, log)
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.st
	case <-ctx.Done():
		t.Fatal("Sync blocked on the stamps file")
		return SyncStats{}
	}
}

func TestDecodeStamps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" accepts
	}{
		{`{}`, ""},
		{`{"a/b.go":[10,1700000000000000000,0]}`, ""},
		{`{"a.go":[1,2,3],"b.py":[0,0,0]}`, ""},
		{`null`, "not an object"},
		{`[]`, "cannot unmarshal"},
		{`{"a.go":[1,2]}`, "want 3 numbers"},
		{`{"a.go":[1,2,3,4]}`, "want 3 numbers"},
		{`{"a.go":[-1,2,3]}`, "negative size"},
		{`{"../x.go":[1,2,3]}`, "not a path inside the workspace"},
		{`{"/etc/x.go":[1,2,3]}`, "not a path inside the workspace"},
		{`{"":[1,2,3]}`, "not a path inside the workspace"},
		{`{"a.go":[1,2,3]} x`, "invalid"},
	} {
		got, err := decodeStamps([]byte(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("decodeStamps(%s) = %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("decodeStamps(%s) = %v, %v; want an error saying %q", tc.in, got, err, tc.want)
		}
	}
}

// FuzzStamps checks decodeStamps accepts or refuses any input without
// panicking, and that what it accepts is written back (as writeStamps
// does) to the same stamps.
func FuzzStamps(f *testing.F) {
	f.Add([]byte(`{"a/b.go":[10,1700000000000000000,0],"c.py":[1,2,3]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"a.go":[1,2]}`))
	f.Add([]byte(`{"a.go":[1e3,2,3]}`))
	f.Add([]byte(`{"a.go":[1,2,3],"a.go":[4,5,6]}`))
	f.Add([]byte(`{"\u00e9.go":[1,2,3]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		stamps, err := decodeStamps(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(stamps)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeStamps(again)
		if err != nil {
			t.Fatalf("decodeStamps of its own output %s: %v", again, err)
		}
		if !reflect.DeepEqual(back, stamps) {
			t.Fatalf("round trip: %v, then %v", stamps, back)
		}
	})
}

// TestStampsFile checks that the stamps file is written back to what it
// was made from, and that a file damaged in any way is refused with an
// error saying how.
func TestStampsFile(t *testing.T) {
	stamps := []fileStamp{
		{"a.go", [3]int64{0, 0, 0}},
		{"a/b.go", [3]int64{10, 1700000000000000000, -5}},
		{"z\u00e9.py", [3]int64{1 << 40, -1, 1700000000000000001}},
	}
	good := encodeStamps(stamps)
	got, err := decodeStampsFile(good)
	if err != nil || !reflect.DeepEqual(got, stamps) {
		t.Fatalf("decode(encode) = %v, %v; want %v", got, err, stamps)
	}
	if got, err := decodeStampsFile(encodeStamps(nil)); err != nil || len(got) != 0 {
		t.Errorf("no stamps: %v, %v", got, err)
	}
	// resum rewrites the checksum of b, so that what is wrong is the
	// records themselves.
	resum := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[len(stampsMagic)+4:], crc32.Checksum(b[stampsHeader:], castagnoli))
		return b
	}
	withCount := func(n uint32) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint32(b[len(stampsMagic):], n)
		return b
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "not a stamps file"},
		{"other version", append([]byte("fistamp\x02"), good[len(stampsMagic):]...), "not a stamps file"},
		{"json", []byte(`{"a.go":[1,2,3]}`), "not a stamps file"},
		{"a bit flipped", func() []byte { b := slices.Clone(good); b[len(b)-3] ^= 4; return b }(), "damaged"},
		{"truncated", good[:len(good)-2], "damaged"},
		{"truncated, summed", resum(slices.Clone(good[:len(good)-2])), "bad"},
		{"trailing bytes", resum(append(slices.Clone(good), 0)), "after the last record"},
		{"count too big", withCount(4), "bad path length"},
		{"count huge", withCount(1 << 31), "records in"},
		{"count too small", withCount(2), "after the last record"},
		{"not sorted", encodeStamps([]fileStamp{{"b.go", [3]int64{}}, {"a.go", [3]int64{}}}), "not sorted"},
		{"repeated", encodeStamps([]fileStamp{{"a.go", [3]int64{}}, {"a.go", [3]int64{}}}), "not sorted"},
		{"outside", encodeStamps([]fileStamp{{"../x.go", [3]int64{}}}), "not a path inside"},
		{"absolute", encodeStamps([]fileStamp{{"/etc/x.go", [3]int64{}}}), "not a path inside"},
		{"root", encodeStamps([]fileStamp{{".", [3]int64{}}}), "not a path inside"},
		{"negative size", encodeStamps([]fileStamp{{"a.go", [3]int64{-1, 0, 0}}}), "bad size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeStampsFile(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("decode = %v, %v; want an error saying %q", got, err, tc.want)
			}
		})
	}
}

// TestLegacyStamps checks that the stamps left as JSON by an older
// fileinfo are taken once, and replaced by the stamps file: an upgrade
// does not read every source file again.
func TestLegacyStamps(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	writeFiles(t, root, map[string]string{"shop.go": shopGo, "tax.py": "def tax(amount):\n    return amount * 1.2\n"})
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sync(ctx, ix, root, dir, nil); err != nil {
		t.Fatal(err)
	}
	stamps, err := readStamps(dir)
	if err != nil {
		t.Fatal(err)
	}
	legacy := map[string][3]int64{}
	for _, s := range stamps {
		legacy[s.path] = s.stamp
	}
	b, _ := json.Marshal(legacy)
	if err := os.WriteFile(filepath.Join(dir, legacyStampsFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, stampsFile)); err != nil {
		t.Fatal(err)
	}
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 0 || st.Files != 2 {
		t.Errorf("sync with legacy stamps: %+v, %v; want 2 files, none read again", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, legacyStampsFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("legacy stamps file left behind: %v", err)
	}
	if got, err := readStamps(dir); err != nil || !reflect.DeepEqual(got, stamps) {
		t.Errorf("stamps rewritten as %v, %v; want %v", got, err, stamps)
	}
}

// FuzzStampsFile checks decodeStampsFile accepts or refuses any input
// without panicking, and that what it accepts is encoded back to the
// same stamps.
func FuzzStampsFile(f *testing.F) {
	f.Add(encodeStamps([]fileStamp{{"a/b.go", [3]int64{10, 1700000000000000000, 0}}, {"c.py", [3]int64{1, 2, 3}}}))
	f.Add(encodeStamps(nil))
	f.Add([]byte("fistamp\x01\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		stamps, err := decodeStampsFile(data)
		if err != nil {
			return
		}
		back, err := decodeStampsFile(encodeStamps(stamps))
		if err != nil {
			t.Fatalf("decode of its own encoding: %v", err)
		}
		if !reflect.DeepEqual(back, stamps) && len(stamps)+len(back) > 0 {
			t.Fatalf("round trip: %v, then %v", stamps, back)
		}
	})
}

// TestSyncInBatches checks Sync holds the sources of at most a batch of
// files at once, and indexes as one batch does: a file that no longer
// extracts leaves the index, and the stamps are saved.
func TestSyncInBatches(t *testing.T) {
	root := t.TempDir()
	for i := range 7 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("m%d.py", i)), []byte(fmt.Sprintf("def f%d(x):\n    return x + %d\n", i, i)), 0o644)
	}
	ctx := context.Background()
	index := func(batch int) (*docsearch.Index, int) {
		t.Helper()
		defer func(old int) { syncBatch, heldHook = old, nil }(syncBatch)
		syncBatch = batch
		held := 0
		heldHook = func(n int) { held = n }
		ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := Sync(ctx, ix, root, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Read != 7 || st.Extracted != 7 {
			t.Errorf("batch %d: %+v, want 7 read and extracted", batch, st)
		}
		return ix, held
	}
	whole, _ := index(100)
	ix, held := index(2)
	if held > 2 {
		t.Errorf("held the sources of %d files at once, want at most a batch of 2", held)
	}
	if got, want := ix.CodeFiles(), whole.CodeFiles(); !reflect.DeepEqual(got, want) || len(got) != 7 {
		t.Errorf("code files %q, want %q", got, want)
	}
	q := docsearch.Query{Text: "f3", Scopes: []string{docsearch.ScopeCode}, Limit: 5}
	a, _ := ix.Search(ctx, q)
	b, _ := whole.Search(ctx, q)
	if len(a.Results) == 0 || !reflect.DeepEqual(a.Results, b.Results) {
		t.Errorf("search in batches: %+v\nwhole: %+v", a.Results, b.Results)
	}
	// A file that no longer extracts (binary now) leaves the index.
	os.WriteFile(filepath.Join(root, "m4.py"), []byte("\x00\x01binary"), 0o644)
	defer func(old int) { syncBatch = old }(syncBatch)
	syncBatch = 2
	if _, err := Sync(ctx, ix, root, "", nil); err != nil {
		t.Fatal(err)
	}
	if got := ix.CodeFiles(); len(got) != 6 || slices.Contains(got, "m4.py") {
		t.Errorf("after m4.py turned binary: %q", got)
	}
}

// BenchmarkReadStamps decodes the stamps of 62,490 files, the Linux
// kernel's count, with paths shaped like its ("drivers/net/.../f123.c"):
// the stamps file, and the JSON a CLI search decoded before it.
func BenchmarkReadStamps(b *testing.B) {
	stamps := make([]fileStamp, 62490)
	legacy := make(map[string][3]int64, len(stamps))
	for i := range stamps {
		p := fmt.Sprintf("drivers/net/ethernet/vendor%03d/sub%02d/file%05d.c", i/500, i/50%10, i)
		stamps[i] = fileStamp{p, [3]int64{int64(1000 + i), 1700000000000000000 + int64(i), 0}}
		legacy[p] = stamps[i].stamp
	}
	bin := encodeStamps(stamps)
	js, err := json.Marshal(legacy)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("file", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStampsFile(bin); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStamps(js); err != nil {
				b.Fatal(err)
			}
		}
	})
}
