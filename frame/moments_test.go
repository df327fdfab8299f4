package frame_test

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

// TestVarStdByGroupExact: the variance and standard deviation of many
// groups (fewer than a quarter of a block's rows, so that momentBlocks
// folds them; and more, so that Welford's update does), of float64,
// float32 and int64 values far from zero relative to their spread, in
// batches of several blocks, against math/big, at 1 and 2 workers; a
// group with an Inf or a NaN is NaN.
func TestVarStdByGroupExact(t *testing.T) {
	mem := checked(t)
	for _, tc := range []struct {
		typ    arrow.DataType
		groups int
	}{
		{arrow.PrimitiveTypes.Float64, 300},
		{arrow.PrimitiveTypes.Float32, 300},
		{arrow.PrimitiveTypes.Int64, 300},
		{arrow.PrimitiveTypes.Float64, 60_000},
	} {
		r := rand.New(rand.NewPCG(uint64(tc.groups), uint64(tc.typ.ID())))
		const rows = 200_000
		schema := arrow.NewSchema([]arrow.Field{{Name: "g", Type: arrow.PrimitiveTypes.Int32}, {Name: "x", Type: tc.typ}}, nil)
		vals := make([][]float64, tc.groups)
		var recs []arrow.Record
		for at := 0; at < rows; {
			n := min(rows-at, 70_000+r.IntN(90_000))
			gb, xb := arrowarray.NewInt32Builder(mem), arrowarray.NewBuilder(mem, tc.typ)
			for i := 0; i < n; i++ {
				g := r.IntN(tc.groups)
				gb.Append(int32(g))
				var x float64
				switch tc.typ.ID() {
				case arrow.FLOAT64:
					x = 4e9 + r.NormFloat64()*3
					if g == 7 && r.IntN(50) == 0 {
						x = math.Inf(1)
					}
					if g == 8 && r.IntN(50) == 0 {
						x = math.NaN()
					}
					xb.(*arrowarray.Float64Builder).Append(x)
				case arrow.FLOAT32:
					x = float64(float32(1e5 + r.NormFloat64()))
					xb.(*arrowarray.Float32Builder).Append(float32(x))
				default:
					x = float64(int64(4e12) + int64(r.IntN(1000)))
					xb.(*arrowarray.Int64Builder).Append(int64(x))
				}
				vals[g] = append(vals[g], x)
			}
			cols := []arrow.Array{gb.NewArray(), xb.NewArray()}
			recs = append(recs, arrowarray.NewRecord(schema, cols, int64(n)))
			for _, c := range cols {
				c.Release()
			}
			gb.Release()
			xb.Release()
			at += n
		}
		f := frame.FromRecords(recs...).GroupBy("g").Agg(frame.Var("x", 1).As("var"), frame.Std("x", 0).As("std"))
		for _, workers := range []int{1, 2} {
			tb, err := f.Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
			require.NoError(t, err)
			keys := tb.Record().Column(0).(*arrowarray.Int32)
			vs, ss := floats(tb.Record().Column(1)), floats(tb.Record().Column(2))
			tol := 1e-13 // float64 results; float32's are rounded to it
			if tc.typ.ID() == arrow.FLOAT32 {
				tol = 0x1p-23
			}
			for i := 0; i < keys.Len(); i++ {
				xs := vals[keys.Value(i)]
				if len(xs) < 2 {
					continue
				}
				m2, special := exactM2(xs)
				if special {
					require.True(t, math.IsNaN(vs[i]) && math.IsNaN(ss[i]), "%s group %d: %v, %v", tc.typ, keys.Value(i), vs[i], ss[i])
					continue
				}
				want := m2 / float64(len(xs)-1)
				require.InDelta(t, want, vs[i], tol*want, "%s group %d var, workers %d", tc.typ, keys.Value(i), workers)
				wantStd := math.Sqrt(m2 / float64(len(xs)))
				require.InDelta(t, wantStd, ss[i], tol*wantStd, "%s group %d std, workers %d", tc.typ, keys.Value(i), workers)
			}
			tb.Release()
		}
		release(recs)
	}
}

// exactM2 is the sum of the squared deviations of xs from their mean, in
// exact arithmetic, rounded once; special when xs holds an Inf or a NaN.
func exactM2(xs []float64) (float64, bool) {
	sum := new(big.Rat)
	for _, x := range xs {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, true
		}
		sum.Add(sum, new(big.Rat).SetFloat64(x))
	}
	mean := sum.Quo(sum, big.NewRat(int64(len(xs)), 1))
	m2 := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(new(big.Rat).SetFloat64(x), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	f, _ := m2.Float64()
	return f, false
}

// floats is a float32 or float64 column's values as float64.
func floats(a arrow.Array) []float64 {
	out := make([]float64, a.Len())
	for i := range out {
		switch c := a.(type) {
		case *arrowarray.Float32:
			out[i] = float64(c.Value(i))
		case *arrowarray.Float64:
			out[i] = c.Value(i)
		}
	}
	return out
}
