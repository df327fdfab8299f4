package compute_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/compute"
)

// TestAccumulateExtrema: the accumulating steps of max, min, nanmax and
// nanmin reductions over outer axes (AVX2 for whole vectors, Go for the
// rest), and nanmax's and nanmin's folds, against the rule written out:
// NaN when either operand is (nanmax, nanmin: only when both are), -0
// below +0 in either order, else the larger (smaller). Every length to 70, values drawn from
// a small set so that ties, zeros of both signs, NaNs and infinities meet
// at every position, float32 and float64.
func TestAccumulateExtrema(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 29))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e-40}
	want := func(op compute.Op, a, x float64) float64 {
		nanIgnoring := op == compute.Fmax || op == compute.Fmin
		switch {
		case nanIgnoring && math.IsNaN(a):
			return x
		case nanIgnoring && math.IsNaN(x):
			return a
		case math.IsNaN(a) || math.IsNaN(x):
			return math.NaN()
		case a == x && a == 0:
			neg := math.Signbit(a) && math.Signbit(x) // max: -0 only when both are
			if op == compute.Minimum || op == compute.Fmin {
				neg = math.Signbit(a) || math.Signbit(x)
			}
			return math.Copysign(0, map[bool]float64{true: -1, false: 1}[neg])
		case op == compute.Maximum || op == compute.Fmax:
			return math.Max(a, x)
		}
		return math.Min(a, x)
	}
	same := func(a, b float64) bool {
		return math.IsNaN(a) && math.IsNaN(b) || math.Float64bits(a) == math.Float64bits(b)
	}
	for _, op := range []compute.Op{compute.Maximum, compute.Minimum, compute.Fmax, compute.Fmin} {
		for n := 0; n <= 70; n++ {
			for rep := 0; rep < 6; rep++ {
				a64, x64 := make([]float64, n+1), make([]float64, n+1)
				for i := range a64 {
					a64[i], x64[i] = specials[r.IntN(len(specials))], specials[r.IntN(len(specials))]
				}
				a32, x32 := make([]float32, n+1), make([]float32, n+1)
				for i := range a64 {
					a32[i], x32[i] = float32(a64[i]), float32(x64[i])
				}
				f64, err := compute.LookupAccumulate(op, compute.Float64)
				require.NoError(t, err)
				f32, err := compute.LookupAccumulate(op, compute.Float32)
				require.NoError(t, err)
				w64 := append([]float64(nil), a64...)
				w32 := append([]float32(nil), a32...)
				f64(unsafe.Pointer(&a64[0]), unsafe.Pointer(&x64[0]), n)
				f32(unsafe.Pointer(&a32[0]), unsafe.Pointer(&x32[0]), n)
				for i := 0; i < n; i++ {
					require.True(t, same(want(op, w64[i], x64[i]), a64[i]), "%v float64 n %d [%d]: %v, %v gave %v", op, n, i, w64[i], x64[i], a64[i])
					e := want(op, float64(w32[i]), float64(x32[i]))
					require.True(t, same(e, float64(a32[i])), "%v float32 n %d [%d]: %v, %v gave %v", op, n, i, w32[i], x32[i], a32[i])
				}
				require.True(t, same(w64[n], a64[n]), "past the end written")
				require.True(t, same(float64(w32[n]), float64(a32[n])), "past the end written")
			}
		}
	}
}

func TestFoldNanExtrema(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 31))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e-40, 7}
	step := func(op compute.Op, a, x float64) float64 {
		switch {
		case math.IsNaN(a):
			return x
		case math.IsNaN(x):
			return a
		case a == 0 && x == 0:
			if op == compute.Fmin {
				return math.Copysign(0, map[bool]float64{true: -1, false: 1}[math.Signbit(a) || math.Signbit(x)])
			}
			return math.Copysign(0, map[bool]float64{true: -1, false: 1}[math.Signbit(a) && math.Signbit(x)])
		case op == compute.Fmax:
			return math.Max(a, x)
		}
		return math.Min(a, x)
	}
	same := func(a, b float64) bool {
		return math.IsNaN(a) && math.IsNaN(b) || math.Float64bits(a) == math.Float64bits(b)
	}
	for _, op := range []compute.Op{compute.Fmax, compute.Fmin} {
		f64, err := compute.LookupFold(op, compute.Float64)
		require.NoError(t, err)
		f32, err := compute.LookupFold(op, compute.Float32)
		require.NoError(t, err)
		for n := 0; n <= 300; n += 1 + n/40 {
			for rep := 0; rep < 12; rep++ {
				x := make([]float64, n+1)
				pick := specials
				switch rep {
				case 0: // all NaN
					pick = []float64{math.NaN()}
				case 1: // NaN or zeros of either sign
					pick = []float64{math.NaN(), 0, math.Copysign(0, -1)}
				}
				for i := range x {
					x[i] = pick[r.IntN(len(pick))]
				}
				init := specials[r.IntN(len(specials))]
				if rep == 2 && n > 0 {
					// zeros of the losing sign but one, anywhere: the
					// winner must survive every lane and the final fold
					lose, win := math.Copysign(0, -1), 0.0
					if op == compute.Fmin {
						lose, win = win, lose
					}
					for i := range x {
						x[i] = lose
					}
					x[r.IntN(n)] = win
					init = lose
				}
				x32 := make([]float32, n+1)
				for i := range x {
					x32[i] = float32(x[i])
				}
				w := init
				for _, v := range x[:n] {
					w = step(op, w, v)
				}
				w32 := float64(float32(init))
				for _, v := range x32[:n] {
					w32 = step(op, w32, float64(v))
				}
				acc := init
				f64(unsafe.Pointer(&acc), unsafe.Pointer(&x[0]), n)
				require.True(t, same(w, acc), "%v float64 n %d rep %d: want %v got %v", op, n, rep, w, acc)
				acc32 := float32(init)
				f32(unsafe.Pointer(&acc32), unsafe.Pointer(&x32[0]), n)
				require.True(t, same(w32, float64(acc32)), "%v float32 n %d rep %d: want %v got %v", op, n, rep, w32, acc32)
			}
		}
	}
}
