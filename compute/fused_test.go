package compute_test

// The fused kernels (select-by-comparison, multi-row sums) against scalar
// references, with the same lengths, offsets and guards as kernels_test.go.

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

var cmpOps = []compute.Op{compute.Equal, compute.NotEqual, compute.Greater, compute.GreaterEqual, compute.Less, compute.LessEqual}

func TestSelectCompareKernels(t *testing.T) {
	for _, typ := range allTypes {
		for _, op := range append([]compute.Op{compute.Add, compute.Op(200)}, cmpOps...) {
			for _, bs := range []bool{false, true} {
				for _, ys := range []bool{false, true} {
					f, ok := compute.LookupSelectCompare(op, typ, bs, ys)
					fnt, okNT := compute.LookupSelectCompareNT(op, typ, bs, ys)
					if !op.IsComparison() || !isFloat(typ) {
						require.False(t, ok || okNT, "%v %v: a select kernel for a non-comparison or a non-float type", op, typ)
						continue
					}
					require.Equal(t, ok, f != nil)
					require.Equal(t, okNT, fnt != nil)
					name := fmt.Sprintf("%v/%v/b_scalar=%v/y_scalar=%v", op, typ, bs, ys)
					if ok {
						t.Run(name, func(t *testing.T) { selectCase(t, typ, op, f, bs, ys) })
					}
					if okNT {
						t.Run(name+"/nt", func(t *testing.T) {
							selectCase(t, typ, op, func(d, a, b, x, y unsafe.Pointer, n int) { fnt(d, a, b, x, y, n); compute.Fence() }, bs, ys)
						})
					}
				}
			}
		}
	}
	f, ok := compute.LookupSelectCompare(compute.Op(250), compute.Type(99), false, false)
	require.False(t, ok)
	require.Nil(t, f)
	_, ok = compute.LookupSelectCompareNT(compute.Equal, compute.Type(99), false, false)
	require.False(t, ok)
}

func selectCase(t *testing.T, typ compute.Type, op compute.Op, f compute.SelectCompareFunc, bs, ys bool) {
	if typ == compute.Float32 {
		selectType[float32](t, typ, op, f, bs, ys)
	} else {
		selectType[float64](t, typ, op, f, bs, ys)
	}
}

func selectType[T float32 | float64](t *testing.T, typ compute.Type, op compute.Op, f compute.SelectCompareFunc, bs, ys bool) {
	rng := rand.New(rand.NewPCG(uint64(op), uint64(typ)))
	const L = bigN + slack
	a := genValues[T](rng, typ, L, false)
	b := genValues[T](rng, typ, L, false)
	for i := range b {
		if rng.IntN(3) == 0 {
			b[i] = a[i] // ties, so that == and >= matter
		}
	}
	x := genValues[T](rng, typ, L, false)
	y := genValues[T](rng, typ, L, false)
	for _, n := range testSizes {
		ao, bo, xo := 1+n%3, 1+(n/3)%3, 1+(n/9)%3
		yo := 1 + (n/27)%3
		for doff := 1; doff <= maxOff(); doff++ {
			lo := guard + doff
			d := make([]T, n+slack)
			fillGuard(typ, d)
			f(ptr(d, lo), ptr(a, ao), ptr(b, bo), ptr(x, xo), ptr(y, yo), n)
			for i := 0; i < n; i++ {
				bi, yi := b[bo+i], y[yo+i]
				if bs {
					bi = b[bo]
				}
				if ys {
					yi = y[yo]
				}
				_, c := refBinary(typ, op, a[ao+i], bi)
				w := yi
				if c {
					w = x[xo+i]
				}
				if !same(typ, d[lo+i], w, false) {
					t.Fatalf("n=%d element %d: (%v %v %v) ? %v : %v: got %v; want %v", n, i, a[ao+i], op, bi, x[xo+i], yi, d[lo+i], w)
				}
			}
			checkGuards(t, typ, d, lo, n, "select")
		}
	}
}

func TestAccumulateRowsKernels(t *testing.T) {
	for _, typ := range allTypes {
		f, ok := compute.LookupAccumulateRows(typ)
		require.Equal(t, ok, f != nil)
		if !ok {
			continue
		}
		t.Run(typ.String(), func(t *testing.T) {
			switch typ {
			case compute.Float32:
				rowsType[float32](t, typ, f)
			case compute.Float64:
				rowsType[float64](t, typ, f)
			case compute.Int8:
				rowsType[int8](t, typ, f)
			case compute.Int16:
				rowsType[int16](t, typ, f)
			case compute.Int32:
				rowsType[int32](t, typ, f)
			case compute.Int64:
				rowsType[int64](t, typ, f)
			case compute.Uint8:
				rowsType[uint8](t, typ, f)
			case compute.Uint16:
				rowsType[uint16](t, typ, f)
			case compute.Uint32:
				rowsType[uint32](t, typ, f)
			case compute.Uint64:
				rowsType[uint64](t, typ, f)
			default:
				t.Fatalf("no test for multi-row sums of %v", typ)
			}
		})
	}
	_, ok := compute.LookupAccumulateRows(compute.Type(99))
	require.False(t, ok)
}

// rowsType: acc[i] += x[i] + x[stride+i] + ..., added row after row (the
// same order as one accumulation per row, hence bit for bit the same).
func rowsType[T elem](t *testing.T, typ compute.Type, f compute.RowsFunc) {
	rng := rand.New(rand.NewPCG(uint64(typ), 6))
	for _, rows := range []int{0, 1, 2, 3, 5, 8} {
		for _, extra := range []int{0, 3} {
			for n := 0; n <= maxN; n += 1 + 3*boolInt(raceOn) {
				stride := n + extra
				xo := 1 + n%3
				// rows*stride elements would do; max(n, ...) because the
				// kernel's tail forms x+m even for rows = 0 (see report),
				// which checkptr (-race) rejects as a fatal error
				x := genValues[T](rng, typ, xo+max(rows*stride, n)+slack, false)
				a0 := genValues[T](rng, typ, n, false)
				lo := guard + 1 + (n/3)%3
				d := make([]T, n+slack)
				fillGuard(typ, d)
				copy(d[lo:], a0)
				f(ptr(d, lo), ptr(x, xo), n, rows, stride)
				for i := 0; i < n; i++ {
					w := a0[i]
					for r := 0; r < rows; r++ {
						w, _ = refBinary(typ, compute.Add, w, x[xo+r*stride+i])
					}
					if !same(typ, d[lo+i], w, false) {
						t.Fatalf("rows=%d stride=%d n=%d element %d: got %v; want %v", rows, stride, n, i, d[lo+i], w)
					}
				}
				checkGuards(t, typ, d, lo, n, "rows")
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func BenchmarkSelectCompare(b *testing.B) {
	for _, typ := range []compute.Type{compute.Float32, compute.Float64} {
		for _, op := range []compute.Op{compute.Greater, compute.Equal} {
			for _, ys := range []bool{false, true} {
				f, ok := compute.LookupSelectCompare(op, typ, true, ys)
				if !ok {
					continue
				}
				for _, n := range benchSizes {
					b.Run(fmt.Sprintf("%v/%v/y_scalar=%v/n=%d", op, typ, ys, n), func(b *testing.B) {
						a, bb, x, y, d := benchBuf(typ, n), benchBuf(typ, 1), benchBuf(typ, n), benchBuf(typ, n), benchBuf(typ, n)
						read := 2 * n * typ.Size()
						if !ys {
							read += n * typ.Size()
						}
						b.SetBytes(int64(read + n*typ.Size()))
						b.ReportAllocs()
						for b.Loop() {
							f(d, a, bb, x, y, n)
						}
					})
				}
			}
		}
	}
}

func BenchmarkAccumulateRows(b *testing.B) {
	for _, typ := range allTypes {
		f, ok := compute.LookupAccumulateRows(typ)
		if !ok {
			continue
		}
		for _, n := range benchSizes {
			const rows = 8
			b.Run(fmt.Sprintf("%v/rows=%d/n=%d", typ, rows, n), func(b *testing.B) {
				a, x := benchBuf(typ, n), benchBuf(typ, rows*n)
				b.SetBytes(int64((rows + 2) * n * typ.Size()))
				b.ReportAllocs()
				for b.Loop() {
					f(a, x, n, rows, n)
				}
			})
		}
	}
}
