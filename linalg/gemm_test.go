package linalg_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/linalg"
)

// TestMatmulGemm: float products through the packed kernels with random
// layouts (transposed, reversed, broadcast batch axes), split between 1 to
// 3 workers by batch element or by column and row blocks, with k past the
// float32 blocks of 256 and 512 (one block and a step, two blocks and a
// rest), against the naive loop.
func TestMatmulGemm(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(23))
	cases := []struct {
		a, b        []int
		abcast, bbc []bool
	}{
		{[]int{50, 70}, []int{70, 90}, nil, nil},
		{[]int{3, 13, 300}, []int{300, 35}, nil, nil},
		{[]int{2, 2, 29, 31}, []int{2, 1, 31, 17}, []bool{false, true, false, false}, nil},
		{[]int{4, 12, 40}, []int{4, 40, 32}, []bool{true, false, false}, []bool{false, false, false}},
		{[]int{130, 2}, []int{2, 97}, nil, nil},
		{[]int{37, 513}, []int{513, 41}, nil, nil},
		{[]int{13, 1100}, []int{1100, 37}, nil, nil},
		{[]int{2, 0, 7}, []int{7, 9}, nil, nil},
		{[]int{5, 0}, []int{0, 9}, nil, nil},
		{[]int{6, 7}, []int{7, 0}, nil, nil},
	}
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		for ci, c := range cases {
			for _, w := range []int{1, 2, 3} {
				abc, bbc := c.abcast, c.bbc
				if abc == nil {
					abc = make([]bool, len(c.a))
				}
				if bbc == nil {
					bbc = make([]bool, len(c.b))
				}
				a := randomArray(t, rng, mem, dt, c.a, abc, false)
				b := randomArray(t, rng, mem, dt, c.b, bbc, false)
				msg := fmt.Sprintf("%v case %d workers %d: %v strides %v @ %v strides %v", dt, ci, w, a.Shape(), a.Strides(), b.Shape(), b.Strides())
				got, err := linalg.MatmulWorkers(mem, a, b, w)
				require.NoError(t, err, msg)
				want, sumAbs := naive(t, a, b, dt)
				assertMatches(t, got, want, sumAbs, msg)
				got.Release()
				want.Release()
				a.Release()
				b.Release()
			}
		}
	}
}

// TestMatmulGemmSpecial: NaN, infinities, -0, subnormals and zeros (0·Inf
// is NaN: every term counts) in products through the packed kernels.
func TestMatmulGemmSpecial(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(24))
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		tiny := 0x1p-1070
		if dt == array.Float32 {
			tiny = 0x1p-140
		}
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, tiny, -tiny}
		for _, sh := range [][3]int{{29, 37, 300}, {13, 33, 20}, {64, 64, 64}} {
			m, n, k := sh[0], sh[1], sh[2]
			gen := func(size int) []float64 {
				v := make([]float64, size)
				for i := range v {
					v[i] = rng.NormFloat64()
					if dt == array.Float32 {
						v[i] = float64(float32(v[i]))
					}
					if rng.Intn(300) == 0 {
						v[i] = specials[rng.Intn(len(specials))]
					}
				}
				return v
			}
			av, bv := gen(m*k), gen(k*n)
			a := mustCast(t, mem, av, dt, m, k)
			b := mustCast(t, mem, bv, dt, k, n)
			got, err := linalg.MatmulWorkers(mem, a, b, 2)
			require.NoError(t, err)
			gv, err := array.ToSlice[float64](got)
			require.NoError(t, err)
			eps := 0x1p-53
			if dt == array.Float32 {
				eps = 0x1p-24
			}
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					want, mag := 0.0, 0.0
					for p := 0; p < k; p++ {
						want += av[i*k+p] * bv[p*n+j]
						mag += math.Abs(av[i*k+p] * bv[p*n+j])
					}
					g := gv[i*n+j]
					msg := fmt.Sprintf("%v %v: C[%d,%d] = %v, want %v", dt, sh, i, j, g, want)
					switch {
					case math.IsNaN(want):
						require.True(t, math.IsNaN(g), msg)
					case math.IsInf(want, 0):
						require.Equal(t, want, g, msg)
					default:
						require.LessOrEqual(t, math.Abs(g-want), eps*math.Abs(want)+float64(min(k, linalg.Float32SumTerms())+1)*eps*mag+0x1p-1074, msg)
					}
				}
			}
			got.Release()
			a.Release()
			b.Release()
		}
	}
}

// TestMatmulInto: written in place when dst qualifies (also a contiguous
// view at an offset), refused with dst untouched when it does not (another
// dtype or shape, nulls, a strided dst, memory shared with an operand).
func TestMatmulInto(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(25))
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		a := randomArray(t, rng, mem, dt, []int{3, 17, 40}, []bool{false, false, false}, false)
		b := randomArray(t, rng, mem, dt, []int{40, 19}, nil, false)
		want, err := linalg.Matmul(mem, a, b)
		require.NoError(t, err)
		wv, err := array.ToSlice[float64](want)
		require.NoError(t, err)

		// a view at an offset into a larger buffer
		big, err := array.Full(mem, 9.0, 3*17*19+5)
		require.NoError(t, err)
		bigT := mustAs(t, mem, big, dt)
		dst, err := bigT.View([]int{3, 17, 19}, array.ContiguousStrides([]int{3, 17, 19}), 5)
		require.NoError(t, err)
		ok, err := linalg.MatmulInto(dst, a, b, 2)
		require.NoError(t, err)
		require.True(t, ok, "%v", dt)
		gv, err := array.ToSlice[float64](dst)
		require.NoError(t, err)
		require.Equal(t, wv, gv, "%v", dt)
		all, err := array.ToSlice[float64](bigT)
		require.NoError(t, err)
		require.Equal(t, []float64{9, 9, 9, 9, 9}, all[:5], "%v: before the view", dt)

		refuse := func(name string, d *array.Array, x, y *array.Array) {
			before, err := array.ToSlice[float64](d)
			require.NoError(t, err)
			ok, err := linalg.MatmulInto(d, x, y, 1)
			require.NoError(t, err, name)
			require.False(t, ok, "%v: %s", dt, name)
			after, err := array.ToSlice[float64](d)
			require.NoError(t, err)
			require.Equal(t, before, after, "%v: %s: dst written", dt, name)
		}
		other := array.Float64
		if dt == array.Float64 {
			other = array.Float32
		}
		od, err := array.New(mem, other, 3, 17, 19)
		require.NoError(t, err)
		refuse("dtype", od, a, b)
		wrong, err := array.New(mem, dt, 3, 19, 17)
		require.NoError(t, err)
		refuse("shape", wrong, a, b)
		wideBuf, err := array.New(mem, dt, 3, 17, 38)
		require.NoError(t, err)
		strided, err := wideBuf.View([]int{3, 17, 19}, []int{17 * 38, 38, 2}, 0)
		require.NoError(t, err)
		wideBuf.Release()
		refuse("strided", strided, a, b)
		sq := randomArray(t, rng, mem, dt, []int{40, 40}, nil, false)
		sqc, err := array.Copy(mem, sq)
		require.NoError(t, err)
		refuse("shares memory with an operand", sqc, sqc, sq)
		withNull := randomArray(t, rng, mem, dt, []int{3, 17, 40}, []bool{false, false, false}, true)
		d2, err := array.New(mem, dt, 3, 17, 19)
		require.NoError(t, err)
		refuse("nulls", d2, withNull, b)
		for _, x := range []*array.Array{a, b, want, big, bigT, dst, od, wrong, strided, sq, sqc, withNull, d2} {
			x.Release()
		}
	}
}

// TestEvalIntoMatmul: expr.EvalInto of a Matmul goes into dst in place, or
// through a temporary when dst is an operand.
func TestEvalIntoMatmul(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(26))
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		x := randomArray(t, rng, mem, dt, []int{30, 30}, nil, false)
		xc, err := array.Copy(mem, x) // contiguous
		require.NoError(t, err)
		y := randomArray(t, rng, mem, dt, []int{30, 30}, nil, false)
		want, err := linalg.Matmul(mem, xc, y)
		require.NoError(t, err)
		wv, err := array.ToSlice[float64](want)
		require.NoError(t, err)
		d, err := array.New(mem, dt, 30, 30)
		require.NoError(t, err)
		require.NoError(t, expr.EvalInto(d, expr.Matmul(expr.Leaf(xc), expr.Leaf(y)), expr.WithAllocator(mem)))
		gv, err := array.ToSlice[float64](d)
		require.NoError(t, err)
		require.Equal(t, wv, gv, "%v: into a new array", dt)
		require.NoError(t, expr.EvalInto(xc, expr.Matmul(expr.Leaf(xc), expr.Leaf(y)), expr.WithAllocator(mem)))
		gv, err = array.ToSlice[float64](xc)
		require.NoError(t, err)
		require.Equal(t, wv, gv, "%v: into its first operand", dt)
		for _, a := range []*array.Array{x, xc, y, want, d} {
			a.Release()
		}
	}
}

// TestMatmulGemmBatched: batches of small float products through the
// packed kernels (the next product's operands fetched while one is
// computed), with random sizes (1, odd, edge tiles, k = 0), layouts
// (contiguous, transposed, reversed, broadcast) and 1 to 3 workers,
// against the naive loop, by Matmul and by MatmulInto.
func TestMatmulGemmBatched(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(27))
	dims := []int{1, 2, 3, 5, 6, 7, 8, 13, 16, 17, 31, 33, 64, 65}
	iters := 60
	if testing.Short() {
		iters = 15
	}
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		for it := 0; it < iters; it++ {
			m, n, k := dims[rng.Intn(len(dims))], dims[rng.Intn(len(dims))], dims[rng.Intn(len(dims))]
			if it%10 == 9 {
				k = 0
			}
			nb := 1 + rng.Intn(9)
			abc := []bool{rng.Intn(5) == 0, false, false}
			bbc := []bool{rng.Intn(5) == 0, false, false}
			a := randomArray(t, rng, mem, dt, []int{nb, m, k}, abc, false)
			b := randomArray(t, rng, mem, dt, []int{nb, k, n}, bbc, false)
			w := 1 + rng.Intn(3)
			msg := fmt.Sprintf("%v iter %d workers %d: %v strides %v @ %v strides %v", dt, it, w, a.Shape(), a.Strides(), b.Shape(), b.Strides())
			want, sumAbs := naive(t, a, b, dt)
			got, err := linalg.MatmulWorkers(mem, a, b, w)
			require.NoError(t, err, msg)
			assertMatches(t, got, want, sumAbs, msg)
			dst, err := array.Full(mem, 7.0, nb, m, n)
			require.NoError(t, err)
			dstT := mustAs(t, mem, dst, dt)
			ok, err := linalg.MatmulInto(dstT, a, b, w)
			require.NoError(t, err, msg)
			if ok {
				assertMatches(t, dstT, want, sumAbs, msg+" (into)")
			}
			for _, x := range []*array.Array{a, b, want, got, dst, dstT} {
				x.Release()
			}
		}
	}
}
