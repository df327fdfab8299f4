package expr_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/exactsum"
)

// pairwiseSum is NumPy's pairwise summation (numpy/core/src/umath/
// loops_utils.h.src, pairwise_sum): up to 8 values one after another,
// up to 128 in eight accumulators, longer runs split in two at a multiple
// of 8. It is the reference the float sums must be at least as accurate as.
func pairwiseSum(x []float64) float64 {
	n := len(x)
	switch {
	case n < 8:
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], x[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += x[i+j]
			}
		}
		s := (r[0] + r[1]) + (r[2] + r[3]) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += x[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(x[:n2]) + pairwiseSum(x[n2:])
}

// bigSum is the exact sum of x rounded once to float64 (internal/exactsum;
// math/big at 1024 bits before, which rounded the partial sums of
// "huge-back": 1e300 beside values with bits down to 2^-53 spans 1050).
func bigSum(x []float64) float64 { return exactsum.Sum(x) }

// TestSumAdversarial sums float64 data built to cancel (pairs ±a·1e8 with a
// small remainder, so the sum is about 10^-9 of the magnitudes' sum;
// alternating signs over 40 binades; a huge value, many small ones and the
// huge value taken back) over 10^7 values (10^5 under -short or the race
// detector), whole and along axis 1 of a [10, n/10] view, at 1, 2, 4 and
// 8 workers. Each result must be within the compensated bound (2u|S| +
// 4nu²Σ|x|) of the exact sum (math/big), and never further from it than
// NumPy's pairwise sum of the same values plus one rounding (u|S|).
func TestSumAdversarial(t *testing.T) {
	n := 10_000_000
	if testing.Short() || raceOn {
		n = 100_000
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(61, 8))
	kinds := map[string]func(i int, v []float64){
		"pairs": func(i int, v []float64) {
			if i%2 == 0 {
				v[i] = (1 + rng.Float64()) * 1e8
			} else {
				v[i] = -v[i-1] + rng.Float64()
			}
		},
		"alternating": func(i int, v []float64) {
			v[i] = math.Ldexp(1+rng.Float64(), rng.IntN(40)-20)
			if i%2 == 1 {
				v[i] = -v[i]
			}
		},
		"huge-back": func(i int, v []float64) {
			switch i {
			case 0:
				v[i] = 1e300
			case len(v) - 1:
				v[i] = -1e300
			default:
				v[i] = rng.Float64()
			}
		},
	}
	for _, name := range []string{"pairs", "alternating", "huge-back"} {
		vals := make([]float64, n)
		for i := range vals {
			kinds[name](i, vals)
		}
		rows := 10
		lanes := []struct{ lo, hi int }{{0, n}}
		for r := 0; r < rows; r++ {
			lanes = append(lanes, struct{ lo, hi int }{r * n / rows, (r + 1) * n / rows})
		}
		want := make([]float64, len(lanes))
		bound := make([]float64, len(lanes))
		pair := make([]float64, len(lanes))
		for k, l := range lanes {
			x := vals[l.lo:l.hi]
			want[k] = bigSum(x)
			a := 0.0
			for _, v := range x {
				a += math.Abs(v)
			}
			m := float64(len(x))
			bound[k] = 2*u64*math.Abs(want[k]) + 4*m*u64*u64*a
			pair[k] = math.Abs(pairwiseSum(x)-want[k]) + u64*math.Abs(want[k])
		}
		a, err := array.FromSlice(mem, vals)
		require.NoError(t, err)
		m, err := a.Reshaped(rows, n/rows)
		require.NoError(t, err)
		for _, w := range []int{1, 2, 4, 8} {
			// lane 0: the whole array; lanes 1..rows: the rows of m
			for first, e := range map[int]*expr.Node{0: expr.ReduceSum(expr.Leaf(a), nil, false), 1: expr.ReduceSum(expr.Leaf(m), []int{1}, false)} {
				out, err := expr.Eval(e, expr.WithWorkers(w), expr.WithAllocator(mem))
				require.NoError(t, err)
				got, err := array.ToSlice[float64](out)
				out.Release()
				require.NoError(t, err)
				for j, g := range got {
					k := first + j
					d := math.Abs(g - want[k])
					what := fmt.Sprintf("%s n=%d lane %d, %d workers: %.17g, exact %.17g (error %.3g)", name, n, k, w, g, want[k], d)
					if !(d <= bound[k]) {
						t.Fatalf("%s: beyond the compensated bound %.3g", what, bound[k])
					}
					if !(d <= pair[k]) {
						t.Fatalf("%s: NumPy's pairwise sum is closer (its error plus one rounding: %.3g)", what, pair[k])
					}
					if w == 1 && j == 0 {
						t.Logf("%s: pairwise error %.3g", what, pair[k]-u64*math.Abs(want[k]))
					}
				}
			}
		}
		m.Release()
		a.Release()
	}
}
