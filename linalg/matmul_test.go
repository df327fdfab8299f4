package linalg_test

import (
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/linalg"
)

func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// randomArray returns an array of dt and shape whose layout is drawn at
// random: contiguous, with the last two axes transposed in memory, with
// the first axis reversed, or with size-1 batch axes... and which may carry
// nulls. Batch axes listed in bcast are stride-0 views of one matrix.
func randomArray(t *testing.T, rng *rand.Rand, mem memory.Allocator, dt array.DType, shape []int, bcast []bool, nulls bool) *array.Array {
	t.Helper()
	r := len(shape)
	// the stored shape: broadcast axes have size 1
	stored := append([]int(nil), shape...)
	for i, b := range bcast {
		if b {
			stored[i] = 1
		}
	}
	transpose := r >= 2 && rng.Intn(3) == 0
	mem2 := append([]int(nil), stored...)
	if transpose {
		mem2[r-1], mem2[r-2] = mem2[r-2], mem2[r-1]
	}
	n := 1
	for _, d := range mem2 {
		n *= d
	}
	vals := make([]float64, n)
	valid := make([]bool, n)
	for i := range vals {
		switch {
		case dt == array.Bool:
			vals[i] = float64(rng.Intn(2))
		case dt.IsFloat():
			vals[i] = math.Round(rng.NormFloat64()*8) / 4
		case dt.IsSigned():
			vals[i] = float64(rng.Intn(41) - 20)
			if rng.Intn(10) == 0 {
				vals[i] = float64(rng.Intn(1 << 15))
			}
		default:
			vals[i] = float64(rng.Intn(30))
			if rng.Intn(10) == 0 {
				vals[i] = float64(rng.Intn(1 << 16))
			}
		}
		valid[i] = !nulls || rng.Intn(6) != 0
	}
	base, err := array.New(mem, dt, mem2...)
	require.NoError(t, err)
	defer base.Release()
	idx := make([]int, r)
	for e := 0; e < n; e++ {
		rem := e
		for d := r - 1; d >= 0; d-- {
			idx[d] = rem % mem2[d]
			rem /= mem2[d]
		}
		require.NoError(t, array.Set(base, vals[e], idx...))
		if !valid[e] {
			require.NoError(t, base.SetNull(idx...))
		}
	}
	st := base.Strides()
	off := base.Offset()
	if transpose {
		st[r-1], st[r-2] = st[r-2], st[r-1]
	}
	if r >= 1 && stored[0] > 1 && rng.Intn(4) == 0 {
		off += (stored[0] - 1) * st[0]
		st[0] = -st[0]
	}
	for i, b := range bcast {
		if b {
			st[i] = 0
		}
	}
	v, err := base.View(shape, st, off)
	require.NoError(t, err)
	return v
}

// naive is the reference: a triple loop over multi-indices with At, in the
// result dtype's arithmetic (int64/uint64 wrapping, then truncated by Set;
// float64, then rounded by Set; or and and for bool). sumAbs holds Σ|a·b|
// per element, for the float tolerance.
func naive(t *testing.T, a, b *array.Array, dt array.DType) (want *array.Array, sumAbs []float64) {
	t.Helper()
	ash, bsh := a.Shape(), b.Shape()
	a1, b1 := len(ash) == 1, len(bsh) == 1
	if a1 {
		ash = []int{1, ash[0]}
	}
	if b1 {
		bsh = []int{bsh[0], 1}
	}
	n, k, m := ash[len(ash)-2], ash[len(ash)-1], bsh[len(bsh)-1]
	ab, bb := ash[:len(ash)-2], bsh[:len(bsh)-2]
	nbd := max(len(ab), len(bb))
	batch := make([]int, nbd)
	for i := 1; i <= nbd; i++ {
		d := 1
		if i <= len(ab) {
			d = max(d, ab[len(ab)-i])
		}
		if i <= len(bb) {
			d = max(d, bb[len(bb)-i])
		}
		batch[nbd-i] = d
	}
	outShape := append([]int(nil), batch...)
	if !a1 {
		outShape = append(outShape, n)
	}
	if !b1 {
		outShape = append(outShape, m)
	}
	want, err := array.New(nil, dt, outShape...)
	require.NoError(t, err)
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	sumAbs = make([]float64, nb*n*m)
	bidx := make([]int, nbd)
	for tb := 0; tb < nb; tb++ {
		rem := tb
		for d := nbd - 1; d >= 0; d-- {
			bidx[d] = rem % batch[d]
			rem /= batch[d]
		}
		sub := func(shape []int, i, j int, one bool, first bool) []int {
			bs := shape[:len(shape)-2]
			idx := make([]int, 0, len(shape))
			for d := range bs {
				x := bidx[nbd-len(bs)+d]
				if bs[d] == 1 {
					x = 0
				}
				idx = append(idx, x)
			}
			if one && first {
				return append(idx, j)
			}
			if one {
				return append(idx, i)
			}
			return append(idx, i, j)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				var si int64
				var su uint64
				var sf float64
				var sbool, null bool
				for q := 0; q < k; q++ {
					ai, bi := sub(ash, i, q, a1, true), sub(bsh, q, j, b1, false)
					if !arraytest.IsValid(t, a, ai...) || !arraytest.IsValid(t, b, bi...) {
						null = true
					}
					switch {
					case dt == array.Bool:
						sbool = sbool || (arraytest.At[bool](t, a, ai...) && arraytest.At[bool](t, b, bi...))
					case dt.IsSigned():
						si += arraytest.At[int64](t, a, ai...) * arraytest.At[int64](t, b, bi...)
					case dt.IsUnsigned():
						su += arraytest.At[uint64](t, a, ai...) * arraytest.At[uint64](t, b, bi...)
					default:
						x, y := arraytest.At[float64](t, a, ai...), arraytest.At[float64](t, b, bi...)
						sf += x * y
						sumAbs[(tb*n+i)*m+j] += math.Abs(x * y)
					}
				}
				oidx := append([]int(nil), bidx...)
				if !a1 {
					oidx = append(oidx, i)
				}
				if !b1 {
					oidx = append(oidx, j)
				}
				switch {
				case null:
					require.NoError(t, want.SetNull(oidx...))
				case dt == array.Bool:
					require.NoError(t, array.Set(want, sbool, oidx...))
				case dt.IsSigned():
					require.NoError(t, array.Set(want, si, oidx...))
				case dt.IsUnsigned():
					require.NoError(t, array.Set(want, su, oidx...))
				default:
					require.NoError(t, array.Set(want, sf, oidx...))
				}
			}
		}
	}
	return want, sumAbs
}

func assertMatches(t *testing.T, got, want *array.Array, sumAbs []float64, msg string) {
	t.Helper()
	require.Equal(t, want.DType(), got.DType(), msg)
	require.Equal(t, want.Shape(), got.Shape(), msg)
	gv, err := array.ValidSlice(got)
	require.NoError(t, err)
	wv, err := array.ValidSlice(want)
	require.NoError(t, err)
	require.Equal(t, wv, gv, msg)
	if !want.DType().IsFloat() {
		g, err := array.ToSlice[uint64](got)
		require.NoError(t, err)
		w, err := array.ToSlice[uint64](want)
		require.NoError(t, err)
		require.Equal(t, w, g, msg)
		return
	}
	tol := map[array.DType]float64{array.Float16: 2e-3, array.Float32: 1e-5, array.Float64: 1e-12}[want.DType()]
	g, err := array.ToSlice[float64](got)
	require.NoError(t, err)
	w, err := array.ToSlice[float64](want)
	require.NoError(t, err)
	for i := range g {
		require.InDelta(t, w[i], g[i], tol*sumAbs[i], "%s: element %d", msg, i)
	}
}

func TestMatmulRandom(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(5))
	dim := func() int {
		if rng.Intn(12) == 0 {
			return 0
		}
		return 1 + rng.Intn(5)
	}
	for it := 0; it < 1500; it++ {
		da := array.DTypes[rng.Intn(len(array.DTypes))]
		db := da
		if rng.Intn(2) == 0 {
			db = array.DTypes[rng.Intn(len(array.DTypes))]
		}
		n, k, m := dim(), dim(), dim()
		// batch shapes, right-aligned, with 1s that broadcast
		nbat := rng.Intn(3)
		batch := make([]int, nbat)
		for i := range batch {
			batch[i] = 1 + rng.Intn(3)
		}
		batchOf := func() ([]int, []bool) {
			nb := rng.Intn(nbat + 1)
			s := append([]int(nil), batch[nbat-nb:]...)
			bc := make([]bool, nb)
			for i := range s {
				switch rng.Intn(4) {
				case 0:
					s[i] = 1
				case 1:
					bc[i] = true // a stride-0 view of the full size
				}
			}
			return s, bc
		}
		var ash, bsh []int
		var abc, bbc []bool
		switch rng.Intn(6) {
		case 0:
			ash = []int{k}
		default:
			ash, abc = batchOf()
			ash = append(ash, n, k)
		}
		switch rng.Intn(6) {
		case 0:
			bsh = []int{k}
		default:
			bsh, bbc = batchOf()
			bsh = append(bsh, k, m)
		}
		abc = append(abc, make([]bool, len(ash)-len(abc))...)
		bbc = append(bbc, make([]bool, len(bsh)-len(bbc))...)
		a := randomArray(t, rng, mem, da, ash, abc, rng.Intn(8) == 0)
		b := randomArray(t, rng, mem, db, bsh, bbc, rng.Intn(8) == 0)
		msg := fmt.Sprintf("it %d: %v %v strides %v @ %v %v strides %v", it, da, a.Shape(), a.Strides(), db, b.Shape(), b.Strides())
		got, err := linalg.Matmul(mem, a, b)
		require.NoError(t, err, msg)
		want, sumAbs := naive(t, a, b, expr.Promote(da, db))
		assertMatches(t, got, want, sumAbs, msg)
		got.Release()
		want.Release()
		a.Release()
		b.Release()
	}
}

// TestMatmulLarge goes through gonum's blocked (and parallel) path, with
// in-place transposed operands and packed reversed ones, and through the
// split between goroutines: of the batch, and of the rows of one matrix.
func TestMatmulLarge(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewSource(9))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 3} {
		runtime.GOMAXPROCS(procs)
		for _, dt := range []array.DType{array.Float32, array.Float64, array.Float16, array.Int32, array.Bool} {
			for it := 0; it < 3; it++ {
				ash := []int{2, 40, 100}
				if it == 2 {
					ash = ash[1:] // one matrix: the int loop splits its rows
				}
				a := randomArray(t, rng, mem, dt, ash, []bool{it == 1, false, false}[:len(ash)], false)
				b := randomArray(t, rng, mem, dt, []int{100, 60}, nil, false)
				got, err := linalg.Matmul(mem, a, b)
				require.NoError(t, err)
				want, sumAbs := naive(t, a, b, dt)
				assertMatches(t, got, want, sumAbs, fmt.Sprintf("%v %d procs %d", dt, it, procs))
				got.Release()
				want.Release()
				a.Release()
				b.Release()
			}
		}
	}
}

// NumPy's documented examples of numpy.matmul.
func TestMatmulNumPyExamples(t *testing.T) {
	mem := checkedMem(t)
	a, _ := array.FromNested(mem, [][]int{{1, 0}, {0, 1}})
	defer a.Release()
	b, _ := array.FromNested(mem, [][]int{{4, 1}, {2, 2}})
	defer b.Release()
	c, err := linalg.Matmul(mem, a, b)
	require.NoError(t, err)
	assert.Equal(t, "[[4 1]\n [2 2]]", c.String())
	c.Release()

	v, _ := array.FromSlice(mem, []int{1, 2})
	defer v.Release()
	c, err = linalg.Matmul(mem, a, v)
	require.NoError(t, err)
	assert.Equal(t, "[1 2]", c.String())
	c.Release()
	c, err = linalg.Matmul(mem, v, a)
	require.NoError(t, err)
	assert.Equal(t, "[1 2]", c.String())
	c.Release()

	// np.arange(2*2*4).reshape((2,2,4)) @ np.arange(2*2*4).reshape((2,4,2)) -> [[[28 34] [76 98]] [[428 466] [604 658]]]
	x, _ := array.Arange(mem, array.Int64, 0, 16, 1)
	defer x.Release()
	x1, _ := x.Reshaped(2, 2, 4)
	defer x1.Release()
	x2, _ := x.Reshaped(2, 4, 2)
	defer x2.Release()
	c, err = linalg.Matmul(mem, x1, x2)
	require.NoError(t, err)
	got, _ := array.ToNested[int](c)
	assert.Equal(t, [][][]int{{{28, 34}, {76, 98}}, {{428, 466}, {604, 658}}}, got)
	c.Release()

	// vector @ vector is a scalar: np.matmul([2j, 3j], [2j, 3j]) in reals
	w, _ := array.FromSlice(mem, []float32{2, 3})
	defer w.Release()
	c, err = linalg.Matmul(mem, w, w)
	require.NoError(t, err)
	assert.Equal(t, []int{}, c.Shape())
	assert.Equal(t, float32(13), arraytest.At[float32](t, c))
	c.Release()

	// bool matmul is or of ands; int8 wraps
	p, _ := array.FromNested(mem, [][]bool{{true, false}, {false, false}})
	defer p.Release()
	q, _ := array.FromNested(mem, [][]bool{{false, true}, {true, true}})
	defer q.Release()
	c, err = linalg.Matmul(mem, p, q)
	require.NoError(t, err)
	assert.Equal(t, "[[False  True]\n [False False]]", c.String())
	c.Release()
	i8, _ := array.FromSlice(mem, []int8{100, 100})
	defer i8.Release()
	c, err = linalg.Matmul(mem, i8, i8)
	require.NoError(t, err)
	assert.Equal(t, int8(32), arraytest.At[int8](t, c)) // 20000 mod 256 = 32
	c.Release()

	// mixed: int8 @ uint8 is int16; int64 @ uint64 is float64; int8 @ float16 is float16
	u8, _ := array.FromSlice(mem, []uint8{200, 1})
	defer u8.Release()
	c, err = linalg.Matmul(mem, i8, u8)
	require.NoError(t, err)
	assert.Equal(t, array.Int16, c.DType())
	assert.Equal(t, int16(20100), arraytest.At[int16](t, c))
	c.Release()
}

func TestMatmulBroadcastIsNotCopied(t *testing.T) {
	// A stack of 1000 copies of a 2x2 matrix through stride 0, times a
	// float32 one: the float64 conversion of the broadcast operand converts
	// its one matrix, and the allocator sees the result and that copy only.
	mem := checkedMem(t)
	a, _ := array.FromSlice(mem, []int32{1, 2, 3, 4}, 1, 2, 2)
	defer a.Release()
	big, err := a.View([]int{1000, 2, 2}, []int{0, 2, 1}, 0)
	require.NoError(t, err)
	defer big.Release()
	b, _ := array.FromSlice(mem, []float32{1, 0, 0, 1}, 2, 2)
	defer b.Release()
	before := mem.CurrentAlloc()
	c, err := linalg.Matmul(mem, big, b)
	require.NoError(t, err)
	defer c.Release()
	assert.Equal(t, 1000*4*8, mem.CurrentAlloc()-before, "only the float64 result stays allocated")
	assert.Equal(t, []int{1000, 2, 2}, c.Shape())
	assert.Equal(t, 4.0, arraytest.At[float64](t, c, 999, 1, 1))
}

func TestMatmulErrors(t *testing.T) {
	mem := checkedMem(t)
	mk := func(shape ...int) *array.Array {
		a, err := array.New(mem, array.Float64, shape...)
		require.NoError(t, err)
		return a
	}
	for _, c := range []struct {
		a, b []int
		text string
	}{
		{[]int{2, 3}, []int{4, 5}, "shapes [2 3] and [4 5] do not align: the first's last axis has 3, the second's second-to-last axis has 4"},
		{[]int{3}, []int{4}, "shapes [3] and [4] do not align"},
		{[]int{2, 3}, []int{2}, "the second's only axis has 2"},
		{[]int{}, []int{2}, "shapes [] and [2]: an operand is a scalar"},
		{[]int{2, 2}, []int{}, "scalar"},
		{[]int{2, 1, 3}, []int{3, 3, 2}, "shapes [2 1 3] and [3 3 2]: batch axes [2] and [3] do not broadcast (2 against 3)"},
		{[]int{4, 2, 2, 2}, []int{3, 1, 2, 2}, "batch axes [4 2] and [3 1] do not broadcast (4 against 3)"},
	} {
		a, b := mk(c.a...), mk(c.b...)
		out, err := linalg.Matmul(mem, a, b)
		assert.Nil(t, out)
		assert.ErrorIs(t, err, array.ErrShape)
		assert.ErrorContains(t, err, c.text)
		a.Release()
		b.Release()
	}
	a := mk(2, 2)
	_, err := linalg.Matmul(mem, nil, a)
	assert.ErrorIs(t, err, array.ErrNil)
	assert.ErrorContains(t, err, "first operand")
	_, err = linalg.Matmul(mem, a, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	assert.ErrorContains(t, err, "second operand")
	a.Release()
	_, err = linalg.Matmul(mem, a, a)
	assert.ErrorIs(t, err, array.ErrReleased)
}

func TestPromoteMatchesExpr(t *testing.T) {
	mem := checkedMem(t)
	for _, x := range array.DTypes {
		for _, y := range array.DTypes {
			a, err := array.New(mem, x, 1, 1)
			require.NoError(t, err)
			b, err := array.New(mem, y, 1, 1)
			require.NoError(t, err)
			c, err := linalg.Matmul(mem, a, b)
			require.NoError(t, err)
			assert.Equal(t, expr.Promote(x, y), c.DType(), "%v @ %v", x, y)
			c.Release()
			a.Release()
			b.Release()
		}
	}
}

func ExampleMatmul() {
	a, _ := array.FromNested(nil, [][]float64{{1, 2}, {3, 4}})
	defer a.Release()
	v, _ := array.FromSlice(nil, []float64{1, -1})
	defer v.Release()
	av, _ := linalg.Matmul(nil, a, v) // a 1-D operand: the added axis is removed
	defer av.Release()
	aa, _ := linalg.Matmul(nil, a, a)
	defer aa.Release()
	fmt.Println(av)
	fmt.Println(aa)
	// Output:
	// [-1. -1.]
	// [[ 7. 10.]
	//  [15. 22.]]
}

// TestMatmulNonFinite: a zero times NaN or an infinity is NaN, as in NumPy,
// although gonum's gemm skips the terms whose A element is zero; every
// layout BLAS reads (plain, transposed, packed) and both float types.
func TestMatmulNonFinite(t *testing.T) {
	mem := checkedMem(t)
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		a, b    []float64
		n, k, m int
		want    []float64
	}{
		{[]float64{0, 1}, []float64{nan, 2}, 1, 2, 1, []float64{nan}},
		{[]float64{0, 1}, []float64{inf, 2}, 1, 2, 1, []float64{nan}},
		{[]float64{1, 1}, []float64{inf, -inf}, 1, 2, 1, []float64{nan}},
		{[]float64{2, 0, 0, 3}, []float64{1, 2, inf, 4}, 2, 2, 2, []float64{nan, 4, inf, 12}},
		{[]float64{inf, 0}, []float64{0, 1}, 1, 2, 1, []float64{nan}},
		{[]float64{inf, 1}, []float64{1, 1}, 1, 2, 1, []float64{inf}},
	}
	for _, dt := range []array.DType{array.Float32, array.Float64, array.Float16} {
		for i, tc := range cases {
			for _, transB := range []bool{false, true} {
				a := mustCast(t, mem, tc.a, dt, tc.n, tc.k)
				var b *array.Array
				if transB {
					// store B transposed, read it through a transposed view
					bt := make([]float64, len(tc.b))
					for q := 0; q < tc.k; q++ {
						for j := 0; j < tc.m; j++ {
							bt[j*tc.k+q] = tc.b[q*tc.m+j]
						}
					}
					stored := mustCast(t, mem, bt, dt, tc.m, tc.k)
					var err error
					b, err = stored.View([]int{tc.k, tc.m}, []int{1, tc.k}, 0)
					require.NoError(t, err)
					stored.Release()
				} else {
					b = mustCast(t, mem, tc.b, dt, tc.k, tc.m)
				}
				got, err := linalg.Matmul(mem, a, b)
				require.NoError(t, err)
				c, err := array.Copy(mem, got)
				require.NoError(t, err)
				vals, err := array.ToSlice[float64](mustAs(t, mem, c, array.Float64))
				require.NoError(t, err)
				for j, w := range tc.want {
					if math.IsNaN(w) {
						assert.True(t, math.IsNaN(vals[j]), "%v case %d transB %v: element %d is %v, want NaN", dt, i, transB, j, vals[j])
					} else {
						assert.Equal(t, w, vals[j], "%v case %d transB %v: element %d", dt, i, transB, j)
					}
				}
				got.Release()
				c.Release()
				a.Release()
				b.Release()
			}
		}
	}
}

func mustCast(t *testing.T, mem memory.Allocator, v []float64, dt array.DType, shape ...int) *array.Array {
	t.Helper()
	f, err := array.FromSlice(mem, v, shape...)
	require.NoError(t, err)
	defer f.Release()
	out, err := expr.Eval(expr.Cast(expr.Leaf(f), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	return out
}

// mustAs returns x converted to dt, releasing x.
func mustAs(t *testing.T, mem memory.Allocator, x *array.Array, dt array.DType) *array.Array {
	t.Helper()
	defer x.Release()
	out, err := expr.Eval(expr.Cast(expr.Leaf(x), dt), expr.WithAllocator(mem))
	require.NoError(t, err)
	t.Cleanup(out.Release)
	return out
}
