package linalg_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/linalg"
	"github.com/stride0/stride0/view"
)

// TestMatmulFloat32LongK: a [1, 2^25] by [2^25, 1] product of float32 ones
// is 2^25 exactly (OpenBLAS's answer); a float32 running sum stops at
// 2^24. Through linalg.Matmul and expr.Matmul.
func TestMatmulFloat32LongK(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MiB of operands")
	}
	mem := checkedMem(t)
	const k = 1 << 25
	a, err := array.Full(mem, float32(1), 1, k)
	require.NoError(t, err)
	defer a.Release()
	b, err := a.Reshaped(k, 1) // the same ones as a column
	require.NoError(t, err)
	defer b.Release()
	got, err := linalg.Matmul(mem, a, b)
	require.NoError(t, err)
	require.Equal(t, float32(k), arraytest.At[float32](t, got, 0, 0))
	got.Release()
	got, err = expr.Eval(expr.Matmul(expr.Leaf(a), expr.Leaf(b)), expr.WithAllocator(mem))
	require.NoError(t, err)
	require.Equal(t, float32(k), arraytest.At[float32](t, got, 0, 0))
	got.Release()
}

// TestMatmulFloat32Blocks: a row of ones times a column of 1 and then
// 2^-24s. In float32, 1 + 2^-24 rounds back to 1 (a tie, to even), so a
// run of n terms loses its n-1 small ones: a product summing at most
// linalg.Float32SumTerms() terms in float32 stays within that many
// ulps, and one summing more (a block of k too long, a missed float64
// step) does not. Through the GEMM (matrices) and gonum's blocks (a
// matrix times a vector).
func TestMatmulFloat32Blocks(t *testing.T) {
	mem := checkedMem(t)
	blk := linalg.Float32SumTerms()
	for _, k := range []int{blk + 1, 2*blk + 3, 5 * blk} {
		for _, n := range []int{1, 37} {
			const m = 13
			ones := make([]float32, m*k)
			for i := range ones {
				ones[i] = 1
			}
			col := make([]float32, k*n)
			for i := range col {
				col[i] = 0x1p-24
			}
			for j := 0; j < n; j++ {
				col[j] = 1 // B[0, j]
			}
			a, err := array.FromSlice(mem, ones, m, k)
			require.NoError(t, err)
			b, err := array.FromSlice(mem, col, k, n)
			require.NoError(t, err)
			got, err := linalg.Matmul(mem, a, b)
			require.NoError(t, err)
			want := 1 + float64(k-1)*0x1p-24
			bound := 0x1p-24*want + float64(blk+1)*0x1p-24*want
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					g := float64(arraytest.At[float32](t, got, i, j))
					require.LessOrEqual(t, math.Abs(g-want), bound, "k %d n %d: C[%d,%d] = %v, want %v (float32 runs of at most %d terms)", k, n, i, j, g, want, blk)
				}
			}
			got.Release()
			a.Release()
			b.Release()
		}
	}
}

// TestMatmulFloat32Accuracy compares float32 products with long k (values
// of one sign, random or constant, where a float32 running sum drifts by
// ~k·ε) with a float64 reference, within the bound of float32 sums of
// blocks of b terms (linalg.Float32SumTerms: 256 or 512) added in float64
// and rounded once: ε|C| + (b·ε32 + (k/b)·u64)·Σ|a·b|, tighter than
// OpenBLAS's (its blocks of k are added in float32). Batched, transposed
// and float16 operands, and expr.Matmul, take the same path.
func TestMatmulFloat32Accuracy(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(41))
	ks := []int{1001, 70001, 70000, 1 << 18} // even k: constant operands
	blk := linalg.Float32SumTerms()
	if testing.Short() {
		ks = ks[:3]
	}
	for _, k := range ks {
		for _, c := range []struct {
			n, m, batch  int
			ta, tb, viaE bool
			dt           array.DType
		}{
			{1, 1, 0, false, false, false, array.Float32},
			{3, 2, 0, true, false, false, array.Float32},
			{2, 3, 2, false, true, true, array.Float32},
			{2, 2, 0, false, false, true, array.Float16},
		} {
			msg := fmt.Sprintf("k %d %+v", k, c)
			shapeA, shapeB := []int{c.n, k}, []int{k, c.m}
			if c.batch > 0 {
				shapeA, shapeB = []int{c.batch, c.n, k}, []int{c.batch, k, c.m}
			}
			constant := k%2 == 0
			mk := func(shape []int, trans bool) (*array.Array, []float64) {
				st := append([]int(nil), shape...)
				r := len(st)
				if trans {
					st[r-2], st[r-1] = st[r-1], st[r-2]
				}
				n := 1
				for _, d := range st {
					n *= d
				}
				v := make([]float64, n)
				for i := range v {
					switch {
					case c.dt == array.Float16:
						v[i] = 0.01 + rng.Float64()/1024 // sums stay within float16
					case constant:
						v[i] = 0.1 // a float32 running sum drifts by ~k·ε
					default:
						v[i] = 1 + rng.Float64()/4
					}
				}
				x, err := array.FromSlice(mem, v, st...)
				require.NoError(t, err)
				y, err := expr.Eval(expr.Cast(expr.Leaf(x), c.dt), expr.WithAllocator(mem))
				x.Release()
				require.NoError(t, err)
				if trans {
					perm := []int{0, 1, 2}[:r]
					perm[r-2], perm[r-1] = perm[r-1], perm[r-2]
					z, err := view.Transpose(y, perm...)
					require.NoError(t, err)
					y.Release()
					y = z
				}
				w, err := array.ToSlice[float64](y) // C order of the logical shape
				require.NoError(t, err)
				return y, w
			}
			a, av := mk(shapeA, c.ta)
			b, bv := mk(shapeB, c.tb)
			var got *array.Array
			var err error
			if c.viaE {
				got, err = expr.Eval(expr.Matmul(expr.Leaf(a), expr.Leaf(b)), expr.WithAllocator(mem))
			} else {
				got, err = linalg.Matmul(mem, a, b)
			}
			require.NoError(t, err, msg)
			gv, err := array.ToSlice[float64](got)
			require.NoError(t, err)
			eps := 0x1p-24
			if c.dt == array.Float16 {
				eps = 0x1p-11
			}
			nb := max(c.batch, 1)
			for q := 0; q < nb; q++ {
				for i := 0; i < c.n; i++ {
					for j := 0; j < c.m; j++ {
						s, sa := 0.0, 0.0
						for l := 0; l < k; l++ {
							p := av[q*c.n*k+i*k+l] * bv[q*k*c.m+l*c.m+j]
							s += p
							sa += math.Abs(p)
						}
						g := gv[q*c.n*c.m+i*c.m+j]
						// the rounding to the result dtype, float32 sums of
						// blocks of blk terms, their float64 sum
						bound := eps*math.Abs(s) + (0x1p-24*float64(blk)+0x1p-53*float64(k/blk+1))*sa
						require.LessOrEqual(t, math.Abs(g-s), bound, "%s: element %d %d %d = %v, reference %v", msg, q, i, j, g, s)
					}
				}
			}
			got.Release()
			a.Release()
			b.Release()
		}
	}
}

// TestMatmulFloat32LongKEmpty: empty results with k past the block length.
func TestMatmulFloat32LongKEmpty(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range [][2][]int{{{0, 300}, {300, 2}}, {{2, 300}, {300, 0}}, {{3, 0, 700}, {700, 4}}} {
		a, err := array.Full(mem, float32(1), c[0]...)
		require.NoError(t, err)
		b, err := array.Full(mem, float32(1), c[1]...)
		require.NoError(t, err)
		got, err := linalg.Matmul(mem, a, b)
		require.NoError(t, err, "%v", c)
		require.Equal(t, 0, got.Len())
		got.Release()
		a.Release()
		b.Release()
	}
}
