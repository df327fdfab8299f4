package compute

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stride0/stride0/internal/exactsum"
)

// exactSum is the sum of x rounded once to float64.
func exactSum(x []float64) float64 { return exactsum.Sum(x) }

func absSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

const u64 = 0x1p-53 // float64's unit roundoff

// sumBound is the error the kernels allow for n values of type t summing
// to s with magnitudes summing to a: float64 values by TwoSum (2u|S| plus
// a second-order term), float32 values in plain float64 (n u Σ|x|).
func sumBound(t Type, n int, s, a float64) float64 {
	if t == Float32 {
		return 2*u64*math.Abs(s) + float64(n)*u64*a
	}
	return 2*u64*math.Abs(s) + 4*float64(n)*u64*u64*a + 1e-300
}

// sumData returns n values of type t (as float64, and in t's memory) of
// kind k: constant 0.1, large mean with noise, alternating signs of
// spread magnitudes.
func sumData(rng *rand.Rand, t Type, n, k int) ([]float64, unsafe.Pointer, any) {
	v := make([]float64, n)
	for i := range v {
		switch k {
		case 0:
			v[i] = 0.1
		case 1:
			v[i] = 1000 + rng.NormFloat64()
		default:
			v[i] = math.Ldexp(1+rng.Float64(), rng.IntN(40)-20)
			if i%2 == 1 {
				v[i] = -v[i]
			}
		}
	}
	if t == Float32 {
		f := make([]float32, n+1)
		for i, x := range v {
			f[i] = float32(x)
			v[i] = float64(f[i])
		}
		return v, unsafe.Pointer(&f[0]), f
	}
	f := make([]float64, n+1)
	copy(f, v)
	return v, unsafe.Pointer(&f[0]), f
}

// kernelSets are the registered kernels and the Go loops (which the noasm
// build registers, and the assembly's heads and tails use).
func kernelSets(t Type) map[string]SumKernels {
	k, _ := LookupSum(t)
	g := SumKernels{Fold: foldSum32Go, Accum: accSum32Go, Rows: rowsSum32Go}
	if t == Float64 {
		g = SumKernels{Fold: foldSum64Go, Accum: accSum64Go, Rows: rowsSum64Go}
	}
	return map[string]SumKernels{"registered": k, "go": g}
}

// TestSumKernels checks Fold, Accum, Rows, MergeSums and FinishSums on
// random lengths (vector bodies, heads and tails) against exact sums.
func TestSumKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	for _, typ := range []Type{Float32, Float64} {
		for name, k := range kernelSets(typ) {
			for it := 0; it < 300; it++ {
				n := rng.IntN(3000)
				if it < 40 {
					n = it
				}
				kind := it % 3
				v, p, keep := sumData(rng, typ, n, kind)
				// Fold, in two calls, then a merge of a second accumulator
				var acc, comp, acc2, comp2 float64
				h := n / 3
				k.Fold(unsafe.Pointer(&acc), unsafe.Pointer(&comp), p, h)
				k.Fold(unsafe.Pointer(&acc2), unsafe.Pointer(&comp2), unsafe.Add(p, h*typ.Size()), n-h)
				MergeSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), unsafe.Pointer(&acc2), unsafe.Pointer(&comp2), 1)
				FinishSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), 1)
				want := exactSum(v)
				if d := math.Abs(acc - want); d > sumBound(typ, n, want, absSum(v)) {
					t.Fatalf("%v %s fold n=%d kind %d: %v, exact %v (error %g)", typ, name, n, kind, acc, want, d)
				}
				// Rows and Accum: lanes of cols values over rows rows
				if n < 2 {
					continue
				}
				cols := 1 + rng.IntN(min(n, 40))
				rows := n / cols
				a := make([]float64, cols)
				c := make([]float64, cols)
				half := rows / 2
				k.Rows(unsafe.Pointer(&a[0]), unsafe.Pointer(&c[0]), p, cols, half, cols)
				for r := half; r < rows; r++ {
					k.Accum(unsafe.Pointer(&a[0]), unsafe.Pointer(&c[0]), unsafe.Add(p, r*cols*typ.Size()), cols)
				}
				FinishSums(unsafe.Pointer(&a[0]), unsafe.Pointer(&c[0]), cols)
				for j := 0; j < cols; j++ {
					lane := make([]float64, rows)
					for r := range lane {
						lane[r] = v[r*cols+j]
					}
					want := exactSum(lane)
					if d := math.Abs(a[j] - want); d > sumBound(typ, rows, want, absSum(lane)) {
						t.Fatalf("%v %s rows n=%d cols=%d lane %d: %v, exact %v", typ, name, n, cols, j, a[j], want)
					}
				}
				_ = keep
			}
		}
	}
}

// TestSumKernelsSpecial: infinities and NaN give the plain sum's value
// (the compensation of an infinite sum is NaN and is dropped).
func TestSumKernelsSpecial(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, inf, 2}, inf},
		{[]float64{1, -inf, 2}, -inf},
		{[]float64{inf, -inf}, math.NaN()},
		{[]float64{1, math.NaN()}, math.NaN()},
		{[]float64{math.MaxFloat64, math.MaxFloat64}, inf},
		{[]float64{1e308, 1, -1e308}, 1},
	} {
		for name, k := range kernelSets(Float64) {
			x := make([]float64, 0, 40)
			for len(x)+len(c.x) <= 40 { // long enough for the vector body
				x = append(x, c.x...)
				if c.want == 1 {
					break
				}
			}
			var acc, comp float64
			k.Fold(unsafe.Pointer(&acc), unsafe.Pointer(&comp), unsafe.Pointer(&x[0]), len(x))
			FinishSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), 1)
			want := c.want
			if c.want == 1 {
				want = 1
			}
			if !(acc == want || math.IsNaN(acc) && math.IsNaN(want)) {
				t.Errorf("%s fold %v: %v, want %v", name, c.x, acc, want)
			}
		}
	}
}

// TestSumRowsMatchGo: the multi-row kernels add every lane's rows in row
// order, as the Go loop does, so their accumulators and compensations
// equal the Go loop's bit for bit, for widths around the vector block (16
// lanes) and its tails, around the widths the AVX-512 kernel takes a row at
// a time (64 to 2048), row counts around the block of eight rows, strides
// wider than the rows, and starting accumulators that are not zero; and
// the values' NaN, infinities, -0 and denormals pass through as in the
// loop.
func TestSumRowsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, 1e-310, math.MaxFloat64, 1e308}
	for _, typ := range []Type{Float32, Float64} {
		k, _ := LookupSum(typ)
		g := SumKernels{Fold: foldSum32Go, Accum: accSum32Go, Rows: rowsSum32Go}
		if typ == Float64 {
			g = SumKernels{Fold: foldSum64Go, Accum: accSum64Go, Rows: rowsSum64Go}
		}
		for it := 0; it < 400; it++ {
			cols := []int{1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 71, 100, 1000, 2048, 2055, 2056, 4099}[rng.IntN(18)]
			rows := rng.IntN(20)
			if it%5 == 0 {
				rows = 60 + rng.IntN(80)
			}
			stride := cols + rng.IntN(3)*rng.IntN(40)
			n := max(rows*stride, 1)
			v, p, keep := sumData(rng, typ, n, it%3)
			if it%4 == 0 { // special values at random places
				for j := 0; j < 1+n/50; j++ {
					i := rng.IntN(n)
					s := special[rng.IntN(len(special))]
					if typ == Float32 {
						f := keep.([]float32)
						f[i] = float32(s)
						v[i] = float64(f[i])
					} else {
						keep.([]float64)[i] = s
						v[i] = s
					}
				}
			}
			a1, c1 := make([]float64, cols), make([]float64, cols)
			for j := range a1 {
				a1[j] = rng.NormFloat64() * 1e3
				if typ == Float64 {
					c1[j] = rng.NormFloat64() * 1e-13
				}
			}
			a2, c2 := slices.Clone(a1), slices.Clone(c1)
			k.Rows(unsafe.Pointer(&a1[0]), unsafe.Pointer(&c1[0]), p, cols, rows, stride)
			g.Rows(unsafe.Pointer(&a2[0]), unsafe.Pointer(&c2[0]), p, cols, rows, stride)
			for j := range a1 {
				same := func(x, y float64) bool {
					return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
				}
				if !same(a1[j], a2[j]) || !same(c1[j], c2[j]) {
					t.Fatalf("%v cols=%d rows=%d stride=%d lane %d: (%v, %v), Go loop (%v, %v)", typ, cols, rows, stride, j, a1[j], c1[j], a2[j], c2[j])
				}
			}
			_ = v
		}
	}
}

// TestSumFold4 checks Fold4 (four runs side by side, each into its own
// accumulator, vector bodies and tails) of the registered kernels and the
// Go loops against exact sums, from accumulators that are not zero.
func TestSumFold4(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 3))
	for _, typ := range []Type{Float32, Float64} {
		for name, k := range kernelSets(typ) {
			if k.Fold4 == nil {
				k.Fold4 = fold4(k.Fold)
			}
			for it := 0; it < 200; it++ {
				n := rng.IntN(2000)
				if it < 20 {
					n = it
				}
				var acc, comp, start [4]float64
				var ap, cp, xp [4]unsafe.Pointer
				var vals [4][]float64
				var keep [4]any
				for j := range xp {
					vals[j], xp[j], keep[j] = sumData(rng, typ, n, (it+j)%3)
					start[j] = rng.NormFloat64()
					acc[j] = start[j]
					ap[j], cp[j] = unsafe.Pointer(&acc[j]), unsafe.Pointer(&comp[j])
				}
				k.Fold4(&ap, &cp, &xp, n)
				for j := range xp {
					FinishSums(ap[j], cp[j], 1)
					v := append([]float64{start[j]}, vals[j]...)
					want := exactSum(v)
					if d := math.Abs(acc[j] - want); !(d <= sumBound(typ, n+1, want, absSum(v))) {
						t.Fatalf("%v %s n=%d run %d: %v, exact %v (error %g)", typ, name, n, j, acc[j], want, d)
					}
				}
				_ = keep
			}
		}
	}
}
