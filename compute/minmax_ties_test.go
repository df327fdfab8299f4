package compute

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// numpyMaxX86 and numpyMinX86 are NumPy's maximum and minimum of float32
// and float64 on x86, written from its loops (maxps/maxss, minps/minss
// with a NaN fix-up): NaN if either operand is NaN, the second operand
// where the two compare equal (0.0 and -0.0). fmax and fmin ignore one NaN.
func numpyMaxX86(x, y float64) float64 {
	if math.IsNaN(x) || x > y {
		return x
	}
	return y
}

func numpyMinX86(x, y float64) float64 {
	if math.IsNaN(x) || x < y {
		return x
	}
	return y
}

// TestMinMaxTiesTakeTheSecond checks maximum, minimum, fmax and fmin of
// float32 and float64 where the operands tie as +0 and -0 (and around NaN)
// at every position of runs of 1 to 70 elements, so in the SIMD body and
// in the scalar tail alike, in the three forms and through the 2-D
// kernels (plain and streaming): the sign of the result is NumPy's. Before,
// the tails (Go's max and min) gave +0 for max and -0 for min whatever the
// order, the body the second operand.
func TestMinMaxTiesTakeTheSecond(t *testing.T) {
	nz := math.Copysign(0, -1)
	pairs := [][2]float64{{0, nz}, {nz, 0}, {0, 0}, {nz, nz}, {1, 1}, {math.NaN(), 0}, {0, math.NaN()}, {-1, nz}, {2, 0}}
	ref := map[Op]func(x, y float64) float64{
		Maximum: numpyMaxX86, Minimum: numpyMinX86,
		Fmax: func(x, y float64) float64 {
			switch {
			case math.IsNaN(x):
				return y
			case math.IsNaN(y):
				return x
			}
			return numpyMaxX86(x, y)
		},
		Fmin: func(x, y float64) float64 {
			switch {
			case math.IsNaN(x):
				return y
			case math.IsNaN(y):
				return x
			}
			return numpyMinX86(x, y)
		},
	}
	same := func(a, b float64) bool {
		return (math.IsNaN(a) && math.IsNaN(b)) || (a == b && math.Signbit(a) == math.Signbit(b))
	}
	for op, want := range ref {
		for _, typ := range []Type{Float32, Float64} {
			sz := typ.Size()
			put := func(b []byte, i int, v float64) {
				if typ == Float32 {
					*(*float32)(unsafe.Pointer(&b[i*4])) = float32(v)
				} else {
					*(*float64)(unsafe.Pointer(&b[i*8])) = v
				}
			}
			get := func(b []byte, i int) float64 {
				if typ == Float32 {
					return float64(*(*float32)(unsafe.Pointer(&b[i*4])))
				}
				return *(*float64)(unsafe.Pointer(&b[i*8]))
			}
			for n := 1; n <= 70; n++ {
				for pi, p := range pairs {
					x, y := make([]byte, n*sz+32), make([]byte, n*sz+32)
					for i := 0; i < n; i++ {
						a, b := p[0], p[1]
						if (i+pi)%3 == 1 {
							a, b = b, a // both orders in one run
						}
						put(x, i, a)
						put(y, i, b)
					}
					for _, form := range []Form{VV, VS, SV} {
						k, err := LookupBinary(op, typ, form)
						require.NoError(t, err)
						d := make([]byte, n*sz+64)
						d = d[(32-int(uintptr(unsafe.Pointer(&d[0]))%32))%32:]
						k(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n)
						check := func(what string) {
							for i := 0; i < n; i++ {
								xi, yi := get(x, i), get(y, i)
								switch form {
								case VS:
									yi = get(y, 0)
								case SV:
									xi = get(x, 0)
								}
								w := want(xi, yi)
								require.True(t, same(get(d, i), w), "%v %v form %d %s n=%d i=%d: %v, %v gave %v, want %v", op, typ, form, what, n, i, xi, yi, get(d, i), w)
							}
						}
						check("1-D")
						for _, streaming := range []bool{false, true} {
							k2, ok := LookupBinary2D(op, typ, form, streaming)
							if !ok {
								continue
							}
							for i := range d {
								d[i] = 0xCD
							}
							ys := n * sz
							if form == VS {
								ys = 0
							}
							xs := n * sz
							if form == SV {
								xs = 0
							}
							k2.Func(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n, 1, n*sz, xs, ys)
							Fence()
							check("2-D")
						}
					}
				}
			}
		}
	}
}
