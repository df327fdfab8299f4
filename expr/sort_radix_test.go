package expr_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Sort and Argsort of lanes long enough for the radix sort (up to 70000,
// the write-combining scatter's size) along axis 0 and -1 of views with
// non-contiguous and negative strides, float32 and float64 with NaNs of
// both signs, ±0 and ±Inf mixed in or not, and int32; each lane against a
// stable reference sort, through Eval and EvalInto (the result written in
// place). Fixed seed.
func TestSortRadixLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	specials := []float64{math.NaN(), math.Copysign(math.NaN(), -1), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)}
	for _, tc := range []struct {
		rows, cols int
		axis       int
		flip       bool // a view with a negative stride on axis 0 and every other column
		special    bool
	}{
		{1, 70000, -1, false, false},
		{1, 70000, -1, false, true},
		{3, 5000, -1, true, true},
		{4000, 3, 0, true, false},
		{300, 2, 0, false, true},
		{2, 200, 1, true, false},
	} {
		for _, dt := range []array.DType{array.Float32, array.Float64, array.Int32} {
			mem := checkedMem(t)
			cols := tc.cols
			if tc.flip {
				cols *= 2
			}
			v := make([]float64, tc.rows*cols)
			for i := range v {
				v[i] = math.Round(rng.NormFloat64()*1000) / 8
				if tc.special && rng.IntN(50) == 0 && dt != array.Int32 {
					v[i] = specials[rng.IntN(len(specials))]
				}
			}
			base, err := array.FromSlice(mem, v, tc.rows, cols)
			require.NoError(t, err)
			a, err := expr.Eval(expr.Cast(expr.Leaf(base), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			base.Release()
			x := a
			if tc.flip {
				x, err = a.View([]int{tc.rows, tc.cols}, []int{-cols, 2}, (tc.rows-1)*cols+1)
				require.NoError(t, err)
			}
			vals, err := array.ToSlice[float64](x)
			require.NoError(t, err)
			ax := tc.axis
			if ax < 0 {
				ax += 2
			}
			n := []int{tc.rows, tc.cols}[ax]
			lanes := tc.rows * tc.cols / n
			at := func(l, j int) int { // the row-major position of lane l's j-th element
				if ax == 1 {
					return l*tc.cols + j
				}
				return j*tc.cols + l
			}
			sorted := evalAs[float64](t, mem, expr.Sort(expr.Leaf(x), tc.axis), dt, tc.rows, tc.cols)
			order := evalAs[int64](t, mem, expr.Argsort(expr.Leaf(x), tc.axis), array.Int64, tc.rows, tc.cols)
			into, err := array.Empty(mem, dt, tc.rows, tc.cols)
			require.NoError(t, err)
			require.NoError(t, expr.EvalInto(into, expr.Sort(expr.Leaf(x), tc.axis)))
			intoV, err := array.ToSlice[float64](into)
			require.NoError(t, err)
			into.Release()
			bits := func(f float64) uint64 {
				if dt == array.Float32 {
					return uint64(math.Float32bits(float32(f)))
				}
				return math.Float64bits(f)
			}
			for l := range lanes {
				ref := make([]int, n)
				for j := range ref {
					ref[j] = j
				}
				sort.SliceStable(ref, func(i, j int) bool {
					p, q := vals[at(l, ref[i])], vals[at(l, ref[j])]
					return p < q || !math.IsNaN(p) && math.IsNaN(q)
				})
				for j, o := range ref {
					e := at(l, j)
					require.Equal(t, int64(o), order[e], "%v %+v lane %d position %d", dt, tc, l, j)
					w := vals[at(l, o)]
					if dt != array.Float64 {
						// ToSlice[float64] widens float32, keeping NaN's sign but not its payload bits
						require.True(t, w == sorted[e] && math.Signbit(w) == math.Signbit(sorted[e]) || math.IsNaN(w) && math.IsNaN(sorted[e]) && math.Signbit(w) == math.Signbit(sorted[e]), "%v %+v lane %d position %d: %v want %v", dt, tc, l, j, sorted[e], w)
					} else {
						require.Equal(t, bits(w), bits(sorted[e]), "%v %+v lane %d position %d", dt, tc, l, j)
					}
					require.Equal(t, math.Float64bits(sorted[e]), math.Float64bits(intoV[e]))
				}
			}
			if x != a {
				x.Release()
			}
			a.Release()
		}
	}
}

// Take along the last axis at int64 indices (the direct path): negative
// indices count from the end, an index out of range is an array.ErrIndex error
// (through Eval and EvalInto), and the result matches the plain gather
// (indices of another integer type) on 1-D and 2-D arrays.
func TestTakeDirect(t *testing.T) {
	mem := checkedMem(t)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, dt := range []array.DType{array.Float32, array.Float64, array.Int8, array.Int16, array.Uint64} {
		for _, shape := range [][]int{{1000}, {3, 257}} {
			n := shape[len(shape)-1]
			total := 1
			for _, d := range shape {
				total *= d
			}
			v := make([]float64, total)
			for i := range v {
				v[i] = float64(rng.IntN(100))
			}
			xs, err := array.FromSlice(mem, v, shape...)
			require.NoError(t, err)
			x, err := expr.Eval(expr.Cast(expr.Leaf(xs), dt), expr.WithAllocator(mem))
			require.NoError(t, err)
			xs.Release()
			idx := make([]int64, 5000)
			for i := range idx {
				idx[i] = int64(rng.IntN(2*n) - n)
			}
			idx[0], idx[1] = -1, int64(-n)
			ia := mk(t, mem, idx)
			i32 := make([]int32, len(idx))
			for i, k := range idx {
				i32[i] = int32(k)
			}
			ib := mk(t, mem, i32)
			outShape := append(append([]int{}, shape[:len(shape)-1]...), len(idx))
			got := evalAs[float64](t, mem, expr.Take(expr.Leaf(x), expr.Leaf(ia), -1), dt, outShape...)
			want := evalAs[float64](t, mem, expr.Take(expr.Leaf(x), expr.Leaf(ib), -1), dt, outShape...)
			require.Equal(t, want, got)
			for r := range len(got) / len(idx) {
				for k, i := range idx {
					if i < 0 {
						i += int64(n)
					}
					require.Equal(t, v[r*n+int(i)], got[r*len(idx)+k])
				}
			}
			into, err := array.Empty(mem, dt, outShape...)
			require.NoError(t, err)
			require.NoError(t, expr.EvalInto(into, expr.Take(expr.Leaf(x), expr.Leaf(ia), -1)))
			iv, err := array.ToSlice[float64](into)
			require.NoError(t, err)
			require.Equal(t, got, iv)
			for _, bad := range []int64{int64(n), int64(-n - 1), math.MaxInt64, math.MinInt64} {
				bi := mk(t, mem, []int64{0, bad, 1})
				_, err := expr.Eval(expr.Take(expr.Leaf(x), expr.Leaf(bi), -1), expr.WithAllocator(mem))
				require.True(t, errors.Is(err, array.ErrIndex), "%v", err)
				into3, err := array.Empty(mem, dt, append(outShape[:len(outShape)-1:len(outShape)-1], 3)...)
				require.NoError(t, err)
				err = expr.EvalInto(into3, expr.Take(expr.Leaf(x), expr.Leaf(bi), -1))
				into3.Release()
				require.True(t, errors.Is(err, array.ErrIndex), "%v", err)
			}
			into.Release()
			x.Release()
		}
	}
}

// Repeat with one count of a contiguous array (copied slice by slice, or
// element by element along the last axis) against a direct reference, for
// every element width, axis and counts 0 to 3, through Eval and EvalInto.
func TestRepeatCopy(t *testing.T) {
	mem := checkedMem(t)
	shape := []int{3, 4, 5}
	v := make([]float64, 60)
	for i := range v {
		v[i] = float64(i)
	}
	base := mk(t, mem, v, shape...)
	for _, dt := range []array.DType{array.Int8, array.Int16, array.Float32, array.Float64} {
		x, err := expr.Eval(expr.Cast(expr.Leaf(base), dt), expr.WithAllocator(mem))
		require.NoError(t, err)
		for ax := range 3 {
			for count := range 4 {
				os := append([]int{}, shape...)
				os[ax] *= count
				want := make([]float64, 0, 60*count)
				for i := range os[0] {
					for j := range os[1] {
						for k := range os[2] {
							idx := []int{i, j, k}
							idx[ax] /= count
							want = append(want, v[idx[0]*20+idx[1]*5+idx[2]])
						}
					}
				}
				got := evalAs[float64](t, mem, expr.Repeat(expr.Leaf(x), []int{count}, ax), dt, os...)
				require.Equal(t, want, got, "%v axis %d count %d", dt, ax, count)
				into, err := array.Empty(mem, dt, os...)
				require.NoError(t, err)
				require.NoError(t, expr.EvalInto(into, expr.Repeat(expr.Leaf(x), []int{count}, ax)))
				iv, err := array.ToSlice[float64](into)
				require.NoError(t, err)
				require.Equal(t, want, iv, "into: %v axis %d count %d", dt, ax, count)
				into.Release()
			}
		}
		x.Release()
	}
}
