package frame_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

// naiveGroup is the reference: per site (in order of first appearance), the
// row indices.
func naiveGroups(d *data) (order []string, rows map[string][]int) {
	rows = map[string][]int{}
	for i, s := range d.site {
		if _, ok := rows[s]; !ok {
			order = append(order, s)
		}
		rows[s] = append(rows[s], i)
	}
	return order, rows
}

func quantile(v []float64, q float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	p := q * float64(len(v)-1)
	lo := int(math.Floor(p))
	hi := min(lo+1, len(v)-1)
	return v[lo] + (v[hi]-v[lo])*(p-float64(lo))
}

func TestGroupByMatchesNaive(t *testing.T) {
	mem := checked(t)
	for _, rows := range []int{1, 50, 3000} {
		d := makeData(rand.New(rand.NewPCG(uint64(rows), 21)), rows)
		recs := d.records(t, mem)
		f := frame.FromRecords(recs...).GroupBy("site").Agg(
			frame.Count(), frame.Sum("key"), frame.Mean("y"), frame.Var("y", 1).As("var"),
			frame.Std("y", 0).As("std"), frame.Min("y").As("min"), frame.Max("y").As("max"),
			frame.First("y").As("first"), frame.Last("y").As("last"), frame.Any("key").As("any"),
			frame.All("key").As("all"), frame.CountDistinct("key").As("nkeys"),
			frame.Median("y").As("median"), frame.Quantile("y", 0.25).As("q25"),
			frame.Mean("x").As("xmean"), frame.Max("ts").As("tsmax"), frame.CountOf("y").As("ny"),
		)
		require.NoError(t, f.Err())
		order, groups := naiveGroups(d)
		for _, workers := range []int{1, 2, 4} {
			tb := collect(t, f, frame.WithWorkers(workers), frame.WithAllocator(mem))
			require.Equal(t, int64(len(order)), tb.NumRows())
			assert.Equal(t, order, strs(t, tb, "site"))
			count := values[int64](t, tb, "count")
			sum := values[int64](t, tb, "key")
			nkeys := values[int64](t, tb, "nkeys")
			ny := values[int64](t, tb, "ny")
			anyv := values[bool](t, tb, "any")
			allv := values[bool](t, tb, "all")
			xmean := values[float32](t, tb, "xmean")
			yc, err := tb.Arrow("y")
			require.NoError(t, err)
			ycol := yc.(*arrowarray.Float64)
			col := func(name string) *arrowarray.Float64 {
				c, err := tb.Arrow(name)
				require.NoError(t, err)
				return c.(*arrowarray.Float64)
			}
			tsmax, err := tb.Arrow("tsmax")
			require.NoError(t, err)
			for g, site := range order {
				idx := groups[site]
				assert.Equal(t, int64(len(idx)), count[g])
				var s int64
				var ys []float64
				distinct := map[int64]bool{}
				allTrue, anyTrue := true, false
				var ts int64
				for _, i := range idx {
					s += d.key[i]
					distinct[d.key[i]] = true
					allTrue = allTrue && d.key[i] != 0
					anyTrue = anyTrue || d.key[i] != 0
					ts = max(ts, d.ts[i])
					if d.yOK[i] {
						ys = append(ys, d.y[i])
					}
				}
				assert.Equal(t, s, sum[g])
				assert.Equal(t, int64(len(distinct)), nkeys[g])
				assert.Equal(t, anyTrue, anyv[g])
				assert.Equal(t, allTrue, allv[g])
				assert.Equal(t, int64(len(ys)), ny[g])
				assert.Equal(t, ts, int64(tsmax.(*arrowarray.Timestamp).Value(g)))
				// first and last rows, null included
				first, last := idx[0], idx[len(idx)-1]
				assert.Equal(t, d.yOK[first], col("first").IsValid(g))
				if d.yOK[first] {
					assert.Equal(t, d.y[first], col("first").Value(g))
				}
				assert.Equal(t, d.yOK[last], col("last").IsValid(g))
				if d.yOK[last] {
					assert.Equal(t, d.y[last], col("last").Value(g))
				}
				if len(ys) == 0 {
					for _, name := range []string{"y", "std", "min", "max", "median", "q25"} {
						assert.True(t, col(name).IsNull(g), name)
					}
				} else {
					var m float64
					for _, y := range ys {
						m += y
					}
					m /= float64(len(ys))
					var ss float64
					for _, y := range ys {
						ss += (y - m) * (y - m)
					}
					assert.InDelta(t, m, ycol.Value(g), 1e-12*(1+math.Abs(m)))
					assert.InDelta(t, math.Sqrt(ss/float64(len(ys))), col("std").Value(g), 1e-12*(1+m*m))
					if len(ys) > 1 {
						assert.InDelta(t, ss/float64(len(ys)-1), col("var").Value(g), 1e-11*(1+ss))
					} else {
						assert.True(t, col("var").IsNull(g), "var_samp of one value is null")
					}
					assert.Equal(t, slices.Min(ys), col("min").Value(g))
					assert.Equal(t, slices.Max(ys), col("max").Value(g))
					assert.InDelta(t, quantile(ys, 0.5), col("median").Value(g), 1e-12*(1+math.Abs(m)))
					assert.InDelta(t, quantile(ys, 0.25), col("q25").Value(g), 1e-12*(1+math.Abs(m)))
				}
				for e := 0; e < 16; e++ {
					var xs float64
					for _, i := range idx {
						xs += float64(d.x[i][e])
					}
					want := xs / float64(len(idx))
					assert.InDelta(t, want, float64(xmean[g*16+e]), 1e-5*(1+math.Abs(want)))
				}
			}
			tb.Release()
		}
		release(recs)
	}
}

func TestGroupByNoKeysAndEmpty(t *testing.T) {
	mem := checked(t)
	rec := emptyRecord(mem)
	defer rec.Release()
	f := frame.FromRecords(rec)
	tb := collect(t, f.GroupBy().Agg(frame.Count(), frame.Sum("key"), frame.Mean("y")), frame.WithAllocator(mem))
	require.Equal(t, int64(1), tb.NumRows(), "no keys: one row even over no rows")
	assert.Equal(t, []int64{0}, values[int64](t, tb, "count"))
	c, _ := tb.Arrow("key")
	assert.True(t, c.IsNull(0), "SQL: sum over no rows is null")
	tb.Release()
	tb = collect(t, f.GroupBy("site").Agg(frame.Count()), frame.WithAllocator(mem))
	assert.Equal(t, int64(0), tb.NumRows())
	tb.Release()
}

func TestGroupByErrors(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(22, 23)), 10)
	recs := d.records(t, mem)
	defer release(recs)
	f := frame.FromRecords(recs...)
	for _, c := range []struct {
		f   frame.Frame
		is  error
		msg string
	}{
		{f.GroupBy("sit").Agg(frame.Count()), frame.ErrNoColumn, `did you mean "site"`},
		{f.GroupBy("x").Agg(frame.Count()), frame.ErrType, "cannot be a key"},
		{f.GroupBy("site").Agg(frame.Sum("site")), frame.ErrType, "str has no sum"},
		{f.GroupBy("site").Agg(frame.Mean("yy")), frame.ErrNoColumn, `"yy"`},
		{f.GroupBy("site").Agg(frame.Mean("y"), frame.Sum("y")), frame.ErrDuplicate, "As"},
		{f.GroupBy("site").Agg(frame.Var("y", -1)), frame.ErrArgument, "ddof"},
		{f.GroupBy("site").Agg(frame.Quantile("y", 1.5)), frame.ErrArgument, "quantile"},
		{f.GroupBy("site").Agg(frame.CountDistinct("x")), frame.ErrType, "cannot be a key"},
		{f.GroupBy("site").Agg(frame.Agg{}), frame.ErrArgument, "zero Agg"},
		{f.GroupBy("site").Agg(frame.Corr("y", "x")), frame.ErrType, "two numeric columns"},
		{f.GroupBy("site").Agg(frame.Corr("y", "nope")), frame.ErrNoColumn, `"nope"`},
		{f.GroupBy("site").Head(-1), frame.ErrArgument, "-1"},
		{f.GroupBy("x").Head(1), frame.ErrType, "cannot be a key"},
	} {
		err := c.f.Err()
		require.Error(t, err)
		assert.ErrorIs(t, err, c.is, err.Error())
		assert.Contains(t, err.Error(), c.msg)
	}
}
