package compute

import (
	"unsafe"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

// The float32 and float64 arithmetic kernels that vek accelerates replace
// the generated Go loops. vek's _Into variants copy x into dst and then work
// in place; the engine calls them on cache-resident tiles, where the second
// pass costs little. vek panics on unequal lengths and on overlapping
// slices: every slice here is cut to n, and the caller guarantees that dst
// does not overlap x or y (see the package documentation).
//
// Division stays on the Go loops: vek's AVX2 float32 division (vector and
// by-number) is not correctly rounded (it multiplies by an approximate
// reciprocal; about 1 result in 8 differs in the last bit from x/y), and
// its float64 division by a number is suspect for the same reason. Results
// must not depend on the CPU, so only the exact kernels are used.
func registerVek() {
	reg32 := func(op Op, vv func(d, x, y []float32) []float32, vs func(d, x []float32, a float32) []float32) {
		binTable[op][Float32][VV] = func(d, x, y unsafe.Pointer, n int) {
			if n == 0 {
				return
			}
			vv(unsafe.Slice((*float32)(d), n), unsafe.Slice((*float32)(x), n), unsafe.Slice((*float32)(y), n))
		}
		if vs != nil {
			binTable[op][Float32][VS] = func(d, x, y unsafe.Pointer, n int) {
				if n == 0 {
					return
				}
				vs(unsafe.Slice((*float32)(d), n), unsafe.Slice((*float32)(x), n), *(*float32)(y))
			}
		}
	}
	reg64 := func(op Op, vv func(d, x, y []float64) []float64, vs func(d, x []float64, a float64) []float64) {
		binTable[op][Float64][VV] = func(d, x, y unsafe.Pointer, n int) {
			if n == 0 {
				return
			}
			vv(unsafe.Slice((*float64)(d), n), unsafe.Slice((*float64)(x), n), unsafe.Slice((*float64)(y), n))
		}
		if vs != nil {
			binTable[op][Float64][VS] = func(d, x, y unsafe.Pointer, n int) {
				if n == 0 {
					return
				}
				vs(unsafe.Slice((*float64)(d), n), unsafe.Slice((*float64)(x), n), *(*float64)(y))
			}
		}
	}
	reg32(Add, vek32.Add_Into, vek32.AddNumber_Into)
	reg32(Sub, vek32.Sub_Into, vek32.SubNumber_Into)
	reg32(Mul, vek32.Mul_Into, vek32.MulNumber_Into)
	reg64(Add, vek.Add_Into, vek.AddNumber_Into)
	reg64(Sub, vek.Sub_Into, vek.SubNumber_Into)
	reg64(Mul, vek.Mul_Into, vek.MulNumber_Into)
	// x op y[i] with a scalar x: commutative operators swap their operands.
	for _, op := range []Op{Add, Mul} {
		for _, t := range []Type{Float32, Float64} {
			vs := binTable[op][t][VS]
			binTable[op][t][SV] = func(d, x, y unsafe.Pointer, n int) { vs(d, y, x, n) }
		}
	}
}
