package frame_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

// nanLastQuantile is the reference quantile: a sort with NaN last, then
// numpy's linear interpolation at q·(n-1).
func nanLastQuantile(v []float64, q float64) float64 {
	var nums, nans []float64
	for _, x := range v {
		if x != x {
			nans = append(nans, x)
		} else {
			nums = append(nums, x)
		}
	}
	slices.Sort(nums)
	v = append(nums, nans...)
	p := q * float64(len(v)-1)
	lo := int(math.Floor(p))
	hi := min(lo+1, len(v)-1)
	if p == float64(lo) || v[lo] == v[hi] {
		return v[lo]
	}
	return v[lo] + (v[hi]-v[lo])*(p-float64(lo))
}

// TestGroupQuantilesManyGroups: quantiles of thousands of groups, whose
// selections the workers share (and a tensor column's, per element),
// against a sort of each group's values; with nulls, NaNs, repeated
// values and groups of one value.
func TestGroupQuantilesManyGroups(t *testing.T) {
	mem := checked(t)
	for _, rows := range []int{9000, 40000} {
		r := rand.New(rand.NewPCG(uint64(rows), 77))
		d := makeData(r, rows)
		for i := range d.key {
			d.key[i] = int64(r.IntN(rows / 4))
			switch r.IntN(50) {
			case 0:
				d.y[i] = math.NaN()
			case 1, 2, 3:
				d.y[i] = float64(r.IntN(3)) // repeats
			}
		}
		recs := d.records(t, mem)
		f := frame.FromRecords(recs...).GroupBy("key").Agg(
			frame.Median("y").As("median"), frame.Quantile("y", 0.9).As("q90"),
			frame.Median("x").As("xmed"),
		)
		require.NoError(t, f.Err())
		var order []int64
		ys := map[int64][]float64{}
		xs := map[int64][][]float64{}
		for i, k := range d.key {
			if _, ok := xs[k]; !ok {
				order = append(order, k)
				xs[k] = make([][]float64, 16)
			}
			if d.yOK[i] {
				ys[k] = append(ys[k], d.y[i])
			}
			for e := range 16 {
				xs[k][e] = append(xs[k][e], float64(d.x[i][e]))
			}
		}
		for _, workers := range []int{1, 2, 4} {
			tb := collect(t, f, frame.WithWorkers(workers), frame.WithAllocator(mem))
			require.Equal(t, int64(len(order)), tb.NumRows())
			require.Equal(t, order, values[int64](t, tb, "key"))
			med, q90 := float64Col(t, tb, "median"), float64Col(t, tb, "q90")
			xmed := values[float32](t, tb, "xmed")
			for g, k := range order {
				if len(ys[k]) == 0 {
					require.True(t, med.IsNull(g) && q90.IsNull(g), "group %d", k)
				} else {
					for _, c := range []struct {
						got, want float64
					}{{med.Value(g), nanLastQuantile(ys[k], 0.5)}, {q90.Value(g), nanLastQuantile(ys[k], 0.9)}} {
						if !(c.got == c.want || (c.got != c.got && c.want != c.want)) {
							t.Fatalf("%d rows, %d workers, group %d: %v, want %v", rows, workers, k, c.got, c.want)
						}
					}
				}
				for e := range 16 {
					want := float32(nanLastQuantile(xs[k][e], 0.5))
					if got := xmed[g*16+e]; got != want {
						t.Fatalf("%d rows, %d workers, group %d element %d: %v, want %v", rows, workers, k, e, got, want)
					}
				}
			}
			tb.Release()
		}
		release(recs)
	}
}

// float64Col is tb's float64 column name, nulls kept.
func float64Col(t *testing.T, tb *frame.Table, name string) *arrowarray.Float64 {
	c, err := tb.Arrow(name)
	require.NoError(t, err)
	return c.(*arrowarray.Float64)
}
