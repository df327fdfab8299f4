package compute

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestRowKernelMatchesGo: every repeated-row kernel (add, sub, mul on
// float32 and float64, the row second or first) against the Go
// expression, bit for bit, over random rows (none included), rows of one
// to three 256-byte chunks, row strides of dst and x longer than the row
// (padding that must stay untouched), and values with infinities and
// signed zeros.
func TestRowKernelMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 28))
	val := func() float64 {
		switch r.IntN(20) {
		case 0:
			return math.Inf(1 - 2*r.IntN(2))
		case 1:
			return math.Copysign(0, float64(r.IntN(2)*2-1))
		}
		return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(12)-6))
	}
	ops := map[Op]func(a, b float64) float64{
		Add: func(a, b float64) float64 { return a + b },
		Sub: func(a, b float64) float64 { return a - b },
		Mul: func(a, b float64) float64 { return a * b },
	}
	ops32 := map[Op]func(a, b float32) float32{
		Add: func(a, b float32) float32 { return a + b },
		Sub: func(a, b float32) float32 { return a - b },
		Mul: func(a, b float32) float32 { return a * b },
	}
	tested := 0
	for op := range ops {
		for _, typ := range []Type{Float32, Float64} {
			for _, first := range []bool{false, true} {
				k, ok := LookupRowKernel(op, typ, first)
				if !ok {
					continue
				}
				tested++
				sz := 4
				if typ == Float64 {
					sz = 8
				}
				for c := 0; c < 40; c++ {
					rows := r.IntN(9)
					nb := RowKernelBytes * (1 + r.IntN(3))
					n := nb / sz
					dpad, xpad := r.IntN(3)*8, r.IntN(3)*8 // elements of padding per row
					ds, xs := n+dpad, n+xpad
					x := make([]float64, rows*xs+1)
					y := make([]float64, n)
					for i := range x {
						x[i] = val()
					}
					for i := range y {
						y[i] = val()
					}
					const canary = 12345
					check := func(name string, got func(i int) (float64, uint64), want func(xv, yv float64) (float64, uint64)) {
						for row := 0; row < rows; row++ {
							for i := 0; i < ds; i++ {
								gv, gb := got(row*ds + i)
								if i >= n {
									if gv != canary {
										t.Fatalf("%s: padding at row %d col %d overwritten: %v", name, row, i, gv)
									}
									continue
								}
								_, wb := want(x[row*xs+i], y[i])
								if gb != wb {
									t.Fatalf("%s: rows %d nbytes %d row %d col %d: got %v want %v", name, rows, nb, row, i, gv, math.Float64frombits(wb))
								}
							}
						}
					}
					name := func() string {
						s := map[Op]string{Add: "add", Sub: "sub", Mul: "mul"}[op]
						if first {
							return s + " first"
						}
						return s + " second"
					}()
					if typ == Float32 {
						x32, y32, d32 := make([]float32, len(x)), make([]float32, n), make([]float32, rows*ds+1)
						for i := range x {
							x32[i] = float32(x[i])
						}
						for i := range y {
							y32[i] = float32(y[i])
						}
						for i := range d32 {
							d32[i] = canary
						}
						k(unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), unsafe.Pointer(&y32[0]), nb, rows, ds*4, xs*4)
						f := ops32[op]
						check("float32 "+name, func(i int) (float64, uint64) { return float64(d32[i]), uint64(math.Float32bits(d32[i])) },
							func(xv, yv float64) (float64, uint64) {
								a, b := float32(xv), float32(yv)
								if first {
									a, b = b, a
								}
								v := f(a, b)
								return float64(v), uint64(math.Float32bits(v))
							})
						continue
					}
					d := make([]float64, rows*ds+1)
					for i := range d {
						d[i] = canary
					}
					k(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), nb, rows, ds*8, xs*8)
					f := ops[op]
					check("float64 "+name, func(i int) (float64, uint64) { return d[i], math.Float64bits(d[i]) },
						func(xv, yv float64) (float64, uint64) {
							if first {
								xv, yv = yv, xv
							}
							v := f(xv, yv)
							return v, math.Float64bits(v)
						})
				}
			}
		}
	}
	if Asm && !hasAVX512 && tested != 12 {
		t.Fatalf("%d repeated-row kernels, want 12", tested)
	}
}
