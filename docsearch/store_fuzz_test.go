package docsearch

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// encode returns the index in the on-disk format. Callers hold ix.mu and
// have compacted the index.
func (ix *Index) encode() []byte {
	ix.materialize()
	var buf bytes.Buffer
	ix.encodeTo(&buf) // a bytes.Buffer does not fail
	return buf.Bytes()
}

// decodeIndex parses the on-disk format in data, as load does a file.
func decodeIndex(data []byte) (*stored, error) { return decodeFrom(data, bytes.NewReader(data), true) }

// encodedWorkspace returns the on-disk bytes of the test workspace's
// index, with vectors.
func encodedWorkspace(t testing.TB) []byte {
	ix := openTest(t, mapFS(workspace), Options{Embedder: &trigramEmbedder{}})
	if err := ix.Put(ctx, []Document{{Path: "put/doc", Scope: ScopeDocs, Title: "Put", Text: "text with no file"}}); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.compact()
	return ix.encode()
}

// FuzzDecodeIndex checks that decoding never panics or loops, and that
// whatever decodes encodes back to the same bytes: the format has one
// spelling of each index.
func FuzzDecodeIndex(f *testing.F) {
	f.Add(encodedWorkspace(f))
	f.Add((&Index{lex: newLexicon()}).encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		// Mutations would almost all fail the checksums; fix them so
		// they reach the structure.
		fixSums(data)
		st, err := decodeIndex(data)
		if err != nil {
			return
		}
		ix := &Index{tab: st.tab, lex: st.lex, vec: st.vec, embName: st.embName, names: st.names}
		if again := ix.encode(); !bytes.Equal(again, data) {
			t.Fatalf("decode then encode changed the bytes:\n%q\n%q", data, again)
		}
	})
}

// fixSums sets the checksums at the end of data to those of the bytes
// before them, if the count there fits data's length.
func fixSums(data []byte) {
	if len(data) < 4 {
		return
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-4:]))
	body := len(data) - 4 - 4*n
	if n > len(data)/4 || body < 0 || (body+sumSegment-1)/sumSegment != n {
		return
	}
	for i := range n {
		seg := data[i*sumSegment : min((i+1)*sumSegment, body)]
		binary.LittleEndian.PutUint32(data[body+4*i:], crc32.Checksum(seg, castagnoli))
	}
}

func TestEncodeDecodeStable(t *testing.T) {
	data := encodedWorkspace(t)
	st, err := decodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	ix := &Index{tab: st.tab, lex: st.lex, vec: st.vec, embName: st.embName, names: st.names}
	if !bytes.Equal(ix.encode(), data) {
		t.Error("encode(decode(b)) != b")
	}
}
