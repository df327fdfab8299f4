package compute

import (
	"bytes"
	"math/rand"
	"testing"
	"unsafe"
)

// TestWidenKernels checks the widening casts and 8/16-bit add/sub against
// the generic Go loops over random bytes, every length up to 200 and
// unaligned starts.
func TestWidenKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	ref := map[[2]Type]UnaryFunc{
		{Int8, Int16}: wrapUnary(castNum[int8, int16]), {Uint8, Int16}: wrapUnary(castNum[uint8, int16]),
		{Uint8, Uint16}: wrapUnary(castNum[uint8, uint16]), {Bool, Int16}: wrapUnary(castNum[uint8, int16]),
		{Bool, Uint16}: wrapUnary(castNum[uint8, uint16]), {Int16, Int32}: wrapUnary(castNum[int16, int32]),
		{Uint16, Int32}: wrapUnary(castNum[uint16, int32]), {Uint16, Uint32}: wrapUnary(castNum[uint16, uint32]),
		{Int32, Int64}: wrapUnary(castNum[int32, int64]), {Uint32, Int64}: wrapUnary(castNum[uint32, int64]),
		{Uint32, Uint64}: wrapUnary(castNum[uint32, uint64]),
	}
	src := make([]byte, 1024)
	for n := 0; n <= 200; n++ {
		rng.Read(src)
		off := rng.Intn(8)
		for ft, want := range ref {
			from, to := ft[0], ft[1]
			if from == Bool {
				for i := range src {
					src[i] &= 1
				}
			}
			got, _ := LookupCast(from, to)
			a, b := make([]byte, n*to.Size()+8), make([]byte, n*to.Size()+8)
			s := unsafe.Pointer(&src[off])
			got(unsafe.Pointer(&a[0]), s, n)
			want(unsafe.Pointer(&b[0]), s, n)
			if !bytes.Equal(a, b) {
				t.Fatalf("cast %v->%v n=%d differs", from, to, n)
			}
		}
		rng.Read(src)
		for _, tc := range []struct {
			op Op
			t  Type
			f  func(d, x, y unsafe.Pointer, n int)
		}{
			{Add, Int8, func(d, x, y unsafe.Pointer, n int) { refBin(d, x, y, n, func(a, b int8) int8 { return a + b }) }},
			{Sub, Uint8, func(d, x, y unsafe.Pointer, n int) { refBin(d, x, y, n, func(a, b uint8) uint8 { return a - b }) }},
			{Add, Int16, func(d, x, y unsafe.Pointer, n int) { refBin(d, x, y, n, func(a, b int16) int16 { return a + b }) }},
			{Sub, Int16, func(d, x, y unsafe.Pointer, n int) { refBin(d, x, y, n, func(a, b int16) int16 { return a - b }) }},
			{Add, Uint16, func(d, x, y unsafe.Pointer, n int) { refBin(d, x, y, n, func(a, b uint16) uint16 { return a + b }) }},
		} {
			f, _ := LookupBinary(tc.op, tc.t, VV)
			sz := tc.t.Size()
			x, y := unsafe.Pointer(&src[off]), unsafe.Pointer(&src[512+off*2])
			a, b := make([]byte, n*sz+8), make([]byte, n*sz+8)
			f(unsafe.Pointer(&a[0]), x, y, n)
			tc.f(unsafe.Pointer(&b[0]), x, y, n)
			if !bytes.Equal(a, b) {
				t.Fatalf("%v %v n=%d differs", tc.op, tc.t, n)
			}
			// in place: d = x
			c := append([]byte(nil), src...)
			f(unsafe.Pointer(&c[off]), unsafe.Pointer(&c[off]), unsafe.Pointer(&c[512+off*2]), n)
			if !bytes.Equal(c[off:off+n*sz], b[:n*sz]) {
				t.Fatalf("%v %v n=%d in place differs", tc.op, tc.t, n)
			}
		}
	}
}

func refBin[T any](d, x, y unsafe.Pointer, n int, f func(a, b T) T) {
	ds, xs, ys := unsafe.Slice((*T)(d), n), unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
	for i := range ds {
		ds[i] = f(xs[i], ys[i])
	}
}
