package expr_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Argsort against a stable reference sort, per dtype, over values drawn
// from a pool with each type's extremes (MinInt64, MaxUint64, ±Inf,
// subnormals, ±0, NaNs of both signs), lanes of 1 to 300 elements, along
// either axis. Fixed seed.
func TestArgsortRandomExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	checkArgsort(t, rng, []int8{math.MinInt8, -1, 0, 1, math.MaxInt8, 5, -5}, func(a, b int8) bool { return a < b })
	checkArgsort(t, rng, []int16{math.MinInt16, -300, 0, 1, math.MaxInt16, 7}, func(a, b int16) bool { return a < b })
	checkArgsort(t, rng, []int32{math.MinInt32, -1, 0, 2, math.MaxInt32, 1 << 20}, func(a, b int32) bool { return a < b })
	checkArgsort(t, rng, []int64{math.MinInt64, -1, 0, 1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64 + 1}, func(a, b int64) bool { return a < b })
	checkArgsort(t, rng, []uint8{0, 1, 200, 255, 7}, func(a, b uint8) bool { return a < b })
	checkArgsort(t, rng, []uint16{0, 1, 65535, 300}, func(a, b uint16) bool { return a < b })
	checkArgsort(t, rng, []uint32{0, 1, math.MaxUint32, 1 << 31, 1<<31 - 1}, func(a, b uint32) bool { return a < b })
	checkArgsort(t, rng, []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1}, func(a, b uint64) bool { return a < b })
	checkArgsort(t, rng, []bool{false, true}, func(a, b bool) bool { return !a && b })
	nanLess := func(a, b float64) bool { return a < b || !math.IsNaN(a) && math.IsNaN(b) }
	negNaN := math.Copysign(math.NaN(), -1)
	f64 := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 0, math.SmallestNonzeroFloat64, 2.5, math.MaxFloat64, math.Inf(1), math.NaN(), negNaN}
	checkArgsort(t, rng, f64, nanLess)
	f32 := make([]float32, len(f64))
	for i, v := range f64 {
		f32[i] = float32(v)
	}
	f32[1], f32[3], f32[8] = -math.MaxFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32
	checkArgsort(t, rng, f32, func(a, b float32) bool { return nanLess(float64(a), float64(b)) })
	f16 := make([]float16.Num, len(f32))
	for i, v := range f32 {
		f16[i] = float16.New(v)
	}
	f16[3] = float16.FromBits(0x8001) // the smallest negative subnormal
	checkArgsort(t, rng, f16, func(a, b float16.Num) bool { return nanLess(float64(a.Float32()), float64(b.Float32())) })
}

func checkArgsort[T array.Element](t *testing.T, rng *rand.Rand, pool []T, less func(a, b T) bool) {
	t.Helper()
	mem := checkedMem(t)
	for it := range 20 {
		n, m := 1+rng.IntN(300), 1+rng.IntN(3)
		v := make([]T, n*m)
		for i := range v {
			v[i] = pool[rng.IntN(len(pool))]
		}
		a, err := array.FromSlice(mem, v, m, n)
		require.NoError(t, err)
		axis := 1
		if it%2 == 1 {
			axis = 0
		}
		got := evalAs[int64](t, mem, expr.Argsort(expr.Leaf(a), axis), array.Int64, m, n)
		sorted := evalAs[float64](t, mem, expr.Sort(expr.Leaf(a), axis), a.DType(), m, n)
		all, _ := array.ToSlice[float64](a)
		lanes, length, step, start := m, n, 1, func(l int) int { return l * n }
		if axis == 0 {
			lanes, length, step, start = n, m, n, func(l int) int { return l }
		}
		for l := range lanes {
			order := make([]int, length)
			for j := range order {
				order[j] = j
			}
			sort.SliceStable(order, func(i, j int) bool { return less(v[start(l)+order[i]*step], v[start(l)+order[j]*step]) })
			for j, o := range order {
				e := start(l) + j*step
				require.Equal(t, int64(o), got[e], "%v lane %d position %d", a.DType(), l, j)
				w := all[start(l)+o*step]
				if math.IsNaN(w) {
					require.True(t, math.IsNaN(sorted[e]))
				} else {
					require.Equal(t, w, sorted[e])
				}
			}
		}
		a.Release()
	}
}
