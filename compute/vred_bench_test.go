package compute

import (
	"fmt"
	"math/rand"
	"testing"
	"unsafe"
)

// Benchmarks of the extrema, bool folds and division by a scalar, each
// beside the Go loop it replaces (old/new in one process), over 4096
// elements (in cache: the kernel's own speed).

const vredN = 4096

func BenchmarkFoldExtrema(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	x32 := make([]float32, vredN)
	x64 := make([]float64, vredN)
	for i := range x32 {
		x32[i], x64[i] = rng.Float32()-0.5, rng.Float64()-0.5
	}
	p32, p64 := unsafe.Pointer(&x32[0]), unsafe.Pointer(&x64[0])
	newMax32, _ := LookupFold(Maximum, Float32)
	newMax64, _ := LookupFold(Maximum, Float64)
	for _, c := range []struct {
		name string
		f    FoldFunc
		p    unsafe.Pointer
		size int
	}{{"max/float32/go", foldMax[float32], p32, 4}, {"max/float32/new", newMax32, p32, 4},
		{"max/float64/go", foldMax[float64], p64, 8}, {"max/float64/new", newMax64, p64, 8}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(vredN * c.size))
			b.ReportAllocs()
			var acc [8]byte
			for i := 0; i < b.N; i++ {
				c.f(unsafe.Pointer(&acc), c.p, vredN)
			}
		})
	}
	b.Run("argmax/float32/go", func(b *testing.B) {
		b.SetBytes(int64(vredN * 4))
		for i := 0; i < b.N; i++ {
			argExtremeGo(x32, 0, -1, true)
		}
	})
	b.Run("argmax/float32/new", func(b *testing.B) {
		b.SetBytes(int64(vredN * 4))
		for i := 0; i < b.N; i++ {
			ArgExtremeFloat32(p32, vredN, true)
		}
	})
	b.Run("argmax/float64/go", func(b *testing.B) {
		b.SetBytes(int64(vredN * 8))
		for i := 0; i < b.N; i++ {
			argExtremeGo(x64, 0, -1, true)
		}
	})
	b.Run("argmax/float64/new", func(b *testing.B) {
		b.SetBytes(int64(vredN * 8))
		for i := 0; i < b.N; i++ {
			ArgExtremeFloat64(p64, vredN, true)
		}
	})
	x8 := make([]uint8, vredN)
	b.Run("any/bool/go", func(b *testing.B) {
		b.SetBytes(vredN)
		for i := 0; i < b.N; i++ {
			var acc uint8
			foldMax[uint8](unsafe.Pointer(&acc), unsafe.Pointer(&x8[0]), vredN)
		}
	})
	b.Run("any/bool/new", func(b *testing.B) {
		b.SetBytes(vredN)
		for i := 0; i < b.N; i++ {
			var acc uint8
			foldAnyBool(unsafe.Pointer(&acc), unsafe.Pointer(&x8[0]), vredN)
		}
	})
}

func BenchmarkIntDivScalar(b *testing.B) {
	rng := rand.New(rand.NewSource(2))
	x32 := make([]int32, vredN)
	x64 := make([]int64, vredN)
	s64 := make([]int64, vredN) // magnitudes below 2^31 (the vocab harness's [-1000, 1000])
	for i := range x32 {
		x32[i], x64[i] = int32(rng.Uint32()), int64(rng.Uint64())
		s64[i] = int64(rng.Intn(2001)) - 1000
	}
	d32, d64 := make([]int32, vredN), make([]int64, vredN)
	c32, c64 := int32(7), int64(7)
	for _, op := range []Op{FloorDiv, Remainder} {
		for _, c := range []struct {
			name    string
			f       BinaryFunc
			d, x, y unsafe.Pointer
			size    int
		}{
			{"int32/go", genericVS(op, Int32), unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), unsafe.Pointer(&c32), 4},
			{"int32/new", binTable[op][Int32][VS], unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), unsafe.Pointer(&c32), 4},
			{"int64/go", genericVS(op, Int64), unsafe.Pointer(&d64[0]), unsafe.Pointer(&x64[0]), unsafe.Pointer(&c64), 8},
			{"int64/new", binTable[op][Int64][VS], unsafe.Pointer(&d64[0]), unsafe.Pointer(&x64[0]), unsafe.Pointer(&c64), 8},
			{"int64small/new", binTable[op][Int64][VS], unsafe.Pointer(&d64[0]), unsafe.Pointer(&s64[0]), unsafe.Pointer(&c64), 8},
		} {
			b.Run(fmt.Sprint(op, "/", c.name), func(b *testing.B) {
				b.SetBytes(int64(2 * vredN * c.size))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					c.f(c.d, c.x, c.y, vredN)
				}
			})
		}
	}
}

// genericVS is the element-wise (a divide per element) kernel.
func genericVS(op Op, t Type) BinaryFunc {
	return func(dst, x, y unsafe.Pointer, n int) {
		switch t {
		case Int32:
			xs, ds, c := unsafe.Slice((*int32)(x), n), unsafe.Slice((*int32)(dst), n), *(*int32)(y)
			for i, v := range xs {
				if op == FloorDiv {
					ds[i] = floorDivS(v, c)
				} else {
					ds[i] = floorModS(v, c)
				}
			}
		case Int64:
			xs, ds, c := unsafe.Slice((*int64)(x), n), unsafe.Slice((*int64)(dst), n), *(*int64)(y)
			for i, v := range xs {
				if op == FloorDiv {
					ds[i] = floorDivS(v, c)
				} else {
					ds[i] = floorModS(v, c)
				}
			}
		}
	}
}

func BenchmarkIsNaN(b *testing.B) {
	x32 := make([]float32, vredN)
	x64 := make([]float64, vredN)
	d := make([]uint8, vredN)
	for i := range x32 {
		x32[i], x64[i] = float32(i), float64(i)
	}
	k32, _ := LookupUnary(IsNaN, Float32)
	k64, _ := LookupUnary(IsNaN, Float64)
	for _, c := range []struct {
		name string
		f    UnaryFunc
		x    unsafe.Pointer
		size int
	}{{"float32/go", wrapUnary(isnan_f[float32]), unsafe.Pointer(&x32[0]), 4}, {"float32/new", k32, unsafe.Pointer(&x32[0]), 4},
		{"float64/go", wrapUnary(isnan_f[float64]), unsafe.Pointer(&x64[0]), 8}, {"float64/new", k64, unsafe.Pointer(&x64[0]), 8}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(vredN * (c.size + 1)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.f(unsafe.Pointer(&d[0]), c.x, vredN)
			}
		})
	}
}
