package frame_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/internal/exactsum"
)

// denseCase is a table of int32 keys k and a column x of width elements a
// row (a fixed_size_list, or a primitive column for width 1), with the
// valid values of each group's elements kept for the naive reference.
type denseCase struct {
	recs []arrow.Record
	vals map[int32][][]float64 // key -> element -> valid values
	rows map[int32]int64       // key -> valid rows
}

// makeDense builds a table: nulls "" (none), "rows" (null rows; elements
// all valid, so the typed loops run) or "elems" (null elements too: the
// per-element path).
func makeDense(mem memory.Allocator, rng *rand.Rand, et arrow.DataType, width, groups, batches, batchRows int, nulls string, special bool) *denseCase {
	dc := &denseCase{vals: map[int32][][]float64{}, rows: map[int32]int64{}}
	isFloat := et.ID() == arrow.FLOAT32 || et.ID() == arrow.FLOAT64
	value := func() float64 {
		switch et.ID() {
		case arrow.INT8:
			return float64(rng.IntN(256) - 128)
		case arrow.UINT16:
			return float64(rng.IntN(65536))
		case arrow.INT32:
			return float64(rng.Int32() - math.MaxInt32/2)
		case arrow.INT64:
			return float64(rng.Int64N(1<<40) - 1<<39)
		}
		if special && rng.IntN(50) == 0 {
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324}[rng.IntN(5)]
		}
		x := (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(8)-2))
		if et.ID() == arrow.FLOAT32 {
			x = float64(float32(x))
		}
		return x
	}
	_ = isFloat
	fields := []arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}
	xt := et
	if width > 1 {
		xt = arrow.FixedSizeListOf(int32(width), et)
	}
	fields = append(fields, arrow.Field{Name: "x", Type: xt, Nullable: true})
	schema := arrow.NewSchema(fields, nil)
	for b := 0; b < batches; b++ {
		rb := arrowarray.NewRecordBuilder(mem, schema)
		kb := rb.Field(0).(*arrowarray.Int32Builder)
		var eb arrowarray.Builder = rb.Field(1)
		var lb *arrowarray.FixedSizeListBuilder
		if width > 1 {
			lb = rb.Field(1).(*arrowarray.FixedSizeListBuilder)
			eb = lb.ValueBuilder()
		}
		n := batchRows + rng.IntN(batchRows/2+1)
		for i := 0; i < n; i++ {
			k := int32(rng.IntN(groups))
			if rng.IntN(4) == 0 {
				k = int32(i % groups) // every group in most batches
			}
			kb.Append(k)
			if dc.vals[k] == nil {
				dc.vals[k] = make([][]float64, width)
			}
			rowOK := !(nulls != "" && rng.IntN(7) == 0)
			if lb != nil {
				lb.AppendValues([]bool{rowOK})
			} else if !rowOK {
				eb.AppendNull()
				continue
			}
			if rowOK {
				dc.rows[k]++
			}
			for e := 0; e < width; e++ {
				x := value()
				if nulls == "elems" && width > 1 && rng.IntN(5) == 0 { // (width 1: a null element is a null row)
					eb.AppendNull()
					continue
				}
				appendNum(eb, x)
				if rowOK {
					dc.vals[k][e] = append(dc.vals[k][e], x)
				}
			}
		}
		dc.recs = append(dc.recs, rb.NewRecord())
		rb.Release()
	}
	return dc
}

func appendNum(b arrowarray.Builder, x float64) {
	switch b := b.(type) {
	case *arrowarray.Int8Builder:
		b.Append(int8(x))
	case *arrowarray.Int16Builder:
		b.Append(int16(x))
	case *arrowarray.Uint8Builder:
		b.Append(uint8(x))
	case *arrowarray.Uint16Builder:
		b.Append(uint16(x))
	case *arrowarray.Uint32Builder:
		b.Append(uint32(x))
	case *arrowarray.Uint64Builder:
		b.Append(uint64(x))
	case *arrowarray.Int32Builder:
		b.Append(int32(x))
	case *arrowarray.Int64Builder:
		b.Append(int64(x))
	case *arrowarray.Float32Builder:
		b.Append(float32(x))
	case *arrowarray.Float64Builder:
		b.Append(x)
	default:
		panic(fmt.Sprintf("appendNum: %T", b))
	}
}

// elems returns an aggregate column's elements as float64 (row-major)
// and their validity (a null row's elements are invalid).
func elems(t *testing.T, c arrow.Array, width int) ([]float64, []bool) {
	t.Helper()
	rows := c
	if ext, ok := c.(arrowarray.ExtensionArray); ok {
		c = ext.Storage()
	}
	base := 0
	if l, ok := c.(*arrowarray.FixedSizeList); ok {
		base = l.Data().Offset() * width
		c = l.ListValues()
	}
	n := rows.Len() * width
	v, ok := make([]float64, n), make([]bool, n)
	for j := 0; j < n; j++ {
		i := base + j
		ok[j] = rows.IsValid(j/width) && c.IsValid(i)
		switch a := c.(type) {
		case *arrowarray.Int8:
			v[j] = float64(a.Value(i))
		case *arrowarray.Uint16:
			v[j] = float64(a.Value(i))
		case *arrowarray.Int32:
			v[j] = float64(a.Value(i))
		case *arrowarray.Int64:
			v[j] = float64(a.Value(i))
		case *arrowarray.Uint64:
			v[j] = float64(a.Value(i))
		case *arrowarray.Float32:
			v[j] = float64(a.Value(i))
		case *arrowarray.Float64:
			v[j] = a.Value(i)
		default:
			t.Fatalf("elems: %T", c)
		}
	}
	return v, ok
}

// refSum is the exact sum (IEEE's for infinities and NaN) and the sum of
// magnitudes.
func refSum(xs []float64) (float64, float64) {
	var s exactsum.Acc
	abs := 0.0
	for _, x := range xs {
		s.Add(x)
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			abs += math.Abs(x)
		}
	}
	return s.Value(), abs
}

func sameFloat(got, want, tol float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return math.IsNaN(got) == math.IsNaN(want) && (math.IsNaN(want) || got == want)
	}
	return math.Abs(got-want) <= tol
}

// TestDenseAggregatesMatchNaive checks the aggregates' typed loops (rows
// of any width, row nulls) and their per-element path (element nulls)
// against a naive reference per group and element: exact sums, two-pass
// variances, extremes with NaN above every number, at 1 and 3 workers,
// few groups (the blocked sums) and many (compensated sums per value).
func TestDenseAggregatesMatchNaive(t *testing.T) {
	mem := checked(t)
	rng := rand.New(rand.NewPCG(19, 7))
	types := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64}
	widths := []int{1, 2, 3, 16, 17}
	if raceOn {
		widths = []int{1, 17} // race_test.go
	}
	for _, width := range widths {
		for _, et := range types {
			for _, nulls := range []string{"", "rows", "elems"} {
				for _, groups := range []int{5, 1500} {
					isFloat := et.ID() == arrow.FLOAT32 || et.ID() == arrow.FLOAT64
					batchRows := 400
					if groups > 100 {
						batchRows = 1200
					}
					if width > 8 {
						batchRows /= 4
					}
					dc := makeDense(mem, rng, et, width, groups, 4, batchRows, nulls, isFloat && groups < 100)
					name := fmt.Sprintf("w%d/%v/%q/g%d", width, et, nulls, groups)
					for _, workers := range []int{1, 3} {
						checkDense(t, mem, dc, width, isFloat, et.ID() == arrow.FLOAT32, workers, name)
					}
					release(dc.recs)
				}
			}
		}
	}
}

func checkDense(t *testing.T, mem memory.Allocator, dc *denseCase, width int, isFloat, f32 bool, workers int, name string) {
	tb, err := frame.FromRecords(dc.recs...).GroupBy("k").Agg(frame.CountOf("x").As("n"), frame.Sum("x").As("s"),
		frame.Mean("x").As("m"), frame.Var("x", 1).As("v"), frame.Std("x", 0).As("sd"), frame.Min("x").As("lo"),
		frame.Max("x").As("hi")).Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
	require.NoError(t, err, name)
	defer tb.Release()
	rec := tb.Record()
	keys := rec.Column(0).(*arrowarray.Int32)
	require.Equal(t, len(dc.vals), keys.Len(), name)
	col := func(i int) ([]float64, []bool) { return elems(t, rec.Column(i), width) }
	s, sok := col(2)
	m, mok := col(3)
	v, vok := col(4)
	sd, sdok := col(5)
	lo, look := col(6)
	hi, hiok := col(7)
	cnt := rec.Column(1).(*arrowarray.Int64)
	// output rounding: float32 results carry 2^-24 of their value
	rel := 1e-13
	if f32 {
		rel = 1.2e-7
	}
	for r := 0; r < keys.Len(); r++ {
		k := keys.Value(r)
		require.Equal(t, dc.rows[k], cnt.Value(r), "%s workers %d key %d count", name, workers, k)
		for e := 0; e < width; e++ {
			j := r*width + e
			xs := dc.vals[k][e]
			at := fmt.Sprintf("%s workers %d key %d element %d (%d values)", name, workers, k, e, len(xs))
			if len(xs) == 0 {
				require.False(t, sok[j] || mok[j] || look[j] || hiok[j], at)
				continue
			}
			want, abs := refSum(xs)
			require.True(t, sok[j] && mok[j] && look[j] && hiok[j], at)
			if !isFloat {
				require.Equal(t, want, s[j], "%s sum", at) // exact
			} else {
				require.True(t, sameFloat(s[j], want, rel*math.Abs(want)+1e-14*abs), "%s sum %v, want %v", at, s[j], want)
			}
			mean := want / float64(len(xs))
			require.True(t, sameFloat(m[j], mean, rel*math.Abs(mean)+1e-14*abs/float64(len(xs))), "%s mean %v, want %v", at, m[j], mean)
			// extremes: NaN above every number
			wlo, whi := xs[0], xs[0]
			for _, x := range xs {
				if x != x || whi != whi {
					whi = math.NaN()
				} else if x > whi {
					whi = x
				}
				if wlo != wlo || (x == x && x < wlo) {
					wlo = x
				}
			}
			require.True(t, sameFloat(lo[j], wlo, 0) && sameFloat(hi[j], whi, 0), "%s min %v max %v, want %v %v", at, lo[j], hi[j], wlo, whi)
			// variances: two-pass over finite values
			if math.IsNaN(mean) || math.IsInf(mean, 0) {
				require.True(t, !vok[j] || math.IsNaN(v[j]) || math.IsInf(v[j], 0), "%s var %v of non-finite values", at, v[j])
				continue
			}
			m2 := 0.0
			for _, x := range xs {
				m2 += (x - mean) * (x - mean)
			}
			if len(xs) < 2 {
				require.False(t, vok[j], "%s var of one value", at)
			} else {
				want := m2 / float64(len(xs)-1)
				require.True(t, vok[j] && sameFloat(v[j], want, (1e-9+rel)*want+1e-300), "%s var %v, want %v", at, v[j], want)
			}
			wsd := math.Sqrt(m2 / float64(len(xs)))
			require.True(t, sdok[j] && sameFloat(sd[j], wsd, (1e-9+rel)*wsd+1e-300), "%s std %v, want %v", at, sd[j], wsd)
		}
	}
}
