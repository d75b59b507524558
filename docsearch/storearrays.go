package docsearch

import (
	"encoding/binary"
	"io"
	"math"
	"os"
	"unsafe"
)

// slab hands out slices of one larger allocation, so that decoding many
// small slices does not allocate each.
type slab[T any] struct{ free []T }

// take returns a slice of n zero values, nil for n == 0.
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return nil
	}
	if len(s.free) < n {
		s.free = make([]T, max(n, 4096))
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// The arrays of the format are little-endian. On a little-endian
// machine, with the bytes aligned, they are used as they lie: nothing is
// copied or allocated, which is what makes loading a large index fast.
// Otherwise they are decoded into new slices.

// array returns b's Ts, used in place when it can be, else each decoded
// from its bytes by decode.
func array[T any](b []byte, decode func([]byte) T) []T {
	if len(b) == 0 {
		return nil
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
	}
	out := make([]T, len(b)/size)
	for i := range out {
		out[i] = decode(b[size*i:])
	}
	return out
}

func floats(b []byte) []float32 {
	return array(b, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) })
}

func uint32s(b []byte) []uint32 { return array(b, binary.LittleEndian.Uint32) }

// int8s returns b's int8s, in place on a little-endian machine like the
// other arrays (a byte needs no alignment).
func int8s(b []byte) []int8 { return array(b, func(b []byte) int8 { return int8(b[0]) }) }

func uint64s(b []byte) []uint64 { return array(b, binary.LittleEndian.Uint64) }

// postings returns b's postings, each a chunk and a tf uint32.
func postings(b []byte) []posting {
	return array(b, func(b []byte) posting {
		return posting{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])}
	})
}

// littleEndian reports whether the machine stores integers low byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// readAll reads f from its start to its size, for a system or a file
// that cannot be mapped.
func readAll(f *os.File) (data []byte, release func(), err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err = io.ReadAll(io.NewSectionReader(f, 0, st.Size()))
	return data, func() {}, err
}
