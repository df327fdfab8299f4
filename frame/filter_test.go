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

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/frame"
)

// filterTable is a record of every column type a filter carries: numbers
// of each width (the compared columns), strings, bools, dates, a
// dictionary and a fixed_size_list, plus "row", the row's number; nulls
// (when withNulls) in every column but row.
func filterTable(mem memory.Allocator, rng *rand.Rand, n int, withNulls bool) (arrow.Record, map[string][]float64) {
	numeric := []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32,
		arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64}
	fields := []arrow.Field{{Name: "row", Type: arrow.PrimitiveTypes.Int64}}
	for _, t := range numeric {
		fields = append(fields, arrow.Field{Name: "c_" + t.String(), Type: t, Nullable: true})
	}
	fields = append(fields,
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		arrow.Field{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		arrow.Field{Name: "l", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true})
	schema := arrow.NewSchema(fields, nil)
	rb := arrowarray.NewRecordBuilder(mem, schema)
	defer rb.Release()
	vals := map[string][]float64{} // column -> values; column#null -> 1 where null
	for i := 0; i < n; i++ {
		rb.Field(0).(*arrowarray.Int64Builder).Append(int64(i))
		for k, t := range numeric {
			b := rb.Field(1 + k)
			name := "c_" + t.String()
			if withNulls && rng.IntN(5) == 0 {
				b.AppendNull()
				vals[name] = append(vals[name], 0) // (not read: name#null is 1)
				vals[name+"#null"] = append(vals[name+"#null"], 1)
				continue
			}
			vals[name+"#null"] = append(vals[name+"#null"], 0)
			var x float64
			switch t.ID() {
			case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
				x = float64(rng.IntN(11))
			case arrow.FLOAT32, arrow.FLOAT64:
				x = float64(rng.IntN(11)-5) * 0.5
				if rng.IntN(20) == 0 {
					x = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}[rng.IntN(4)]
				}
			default:
				x = float64(rng.IntN(11) - 5)
			}
			vals[name] = append(vals[name], x)
			appendNum(b, x)
		}
		null := withNulls && rng.IntN(6) == 0
		at := 1 + len(numeric)
		if null {
			for j := at; j < len(fields); j++ {
				rb.Field(j).AppendNull()
			}
			continue
		}
		rb.Field(at).(*arrowarray.StringBuilder).Append(fmt.Sprintf("s%d", rng.IntN(1000)))
		rb.Field(at + 1).(*arrowarray.BooleanBuilder).Append(rng.IntN(2) == 0)
		rb.Field(at + 2).(*arrowarray.Date32Builder).Append(arrow.Date32(rng.IntN(20000)))
		if err := rb.Field(at + 3).(*arrowarray.BinaryDictionaryBuilder).AppendString(fmt.Sprintf("d%d", rng.IntN(9))); err != nil {
			panic(err)
		}
		lb := rb.Field(at + 4).(*arrowarray.FixedSizeListBuilder)
		lb.Append(true)
		for e := 0; e < 3; e++ {
			lb.ValueBuilder().(*arrowarray.Float32Builder).Append(rng.Float32())
		}
	}
	return rb.NewRecord(), vals
}

// TestFilterMatchesNaive checks filters that compare a numeric column
// with a number (the fast path straight from the values, and the general
// one for numbers the column's type cannot hold) against a row loop:
// every column type carried, with and without Select, nulls in the
// compared column (null is not true), empty results, all rows, sliced
// input, 1 and 3 workers.
func TestFilterMatchesNaive(t *testing.T) {
	mem := checked(t)
	rng := rand.New(rand.NewPCG(42, 1))
	ops := map[string]func(x, v float64) bool{
		"==": func(x, v float64) bool { return x == v }, "!=": func(x, v float64) bool { return x != v },
		"<": func(x, v float64) bool { return x < v }, "<=": func(x, v float64) bool { return x <= v },
		">": func(x, v float64) bool { return x > v }, ">=": func(x, v float64) bool { return x >= v },
	}
	flip := map[string]string{"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	for _, withNulls := range []bool{false, true} {
		full, vals := filterTable(mem, rng, 1500, withNulls)
		text := columnsText(full)
		for _, sliced := range []bool{false, true} {
			rec, lo := full, 0
			if sliced {
				lo = 7
				rec = full.NewSlice(7, full.NumRows()-11)
			}
			f := frame.FromRecords(rec)
			for ci := 1; ci <= 10; ci++ {
				col := rec.Schema().Field(ci).Name
				lits := []float64{-2, 0, 3, 2.5, 100, -100}
				if col[:3] == "c_u" {
					lits = []float64{0, 3, 2.5, 100}
				}
				for oi, op := range []string{"==", "!=", "<", "<=", ">", ">="} {
					holds := ops[op]
					for li, v := range lits {
						if raceOn && (oi+li)%3 != 0 {
							continue // a third of the cases under -race (race_test.go)
						}
						src := fmt.Sprintf("%s %s %v", col, op, v)
						if (oi+li)%2 == 1 {
							src = fmt.Sprintf("%v %s %s", v, flip[op], col) // the constant on the left
						}
						var want []int64
						for i := lo; i < lo+int(rec.NumRows()); i++ {
							if vals[col+"#null"][i] == 0 && holds(vals[col][i], v) {
								want = append(want, int64(i))
							}
						}
						name := fmt.Sprintf("%s nulls=%v sliced=%v", src, withNulls, sliced)
						checkFiltered(t, mem, f.Filter(src), text, want, name+" all columns", 1)
						q := f.Filter(src).Select("row", "s", col, "dict", "l", "b")
						for _, workers := range []int{1, 3} {
							checkFiltered(t, mem, q, text, want, name+" selected", workers)
						}
					}
				}
			}
			if sliced {
				rec.Release()
			}
		}
		full.Release()
	}
}

// columnsText is each column's values as text ("" for null), by name.
func columnsText(rec arrow.Record) map[string][]string {
	out := map[string][]string{}
	for c := 0; c < int(rec.NumCols()); c++ {
		a := rec.Column(c)
		v := make([]string, a.Len())
		for i := range v {
			if a.IsValid(i) {
				v[i] = "=" + a.ValueStr(i)
			}
		}
		out[rec.ColumnName(c)] = v
	}
	return out
}

// checkFiltered checks that q's rows are the rows want of the input
// (text: its columns as columnsText), every column's values and nulls.
func checkFiltered(t *testing.T, mem memory.Allocator, q frame.Frame, text map[string][]string, want []int64, name string, workers int) {
	t.Helper()
	tb, err := q.Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
	require.NoError(t, err, name)
	defer tb.Release()
	got := columnsText(tb.Record())
	require.Equal(t, int64(len(want)), tb.NumRows(), name)
	for cn, g := range got {
		w := make([]string, len(want))
		for k, i := range want {
			w[k] = text[cn][i]
		}
		require.Equal(t, w, g, "%s column %s", name, cn)
	}
}

// TestFilterNullTests checks is_null(c) and is_not_null(c) (read from the
// validity bitmap) against a row loop, for every column type, with and
// without nulls, on sliced input, alone and under not/and, at 1 and 3
// workers.
func TestFilterNullTests(t *testing.T) {
	mem := checked(t)
	rng := rand.New(rand.NewPCG(42, 2))
	for _, withNulls := range []bool{false, true} {
		full, _ := filterTable(mem, rng, 1500, withNulls)
		text := columnsText(full)
		for _, sliced := range []bool{false, true} {
			rec, lo := full, 0
			if sliced {
				lo = 5
				rec = full.NewSlice(5, full.NumRows()-9)
			}
			f := frame.FromRecords(rec)
			for ci := 1; ci < int(rec.NumCols()); ci++ {
				col := rec.Schema().Field(ci).Name
				c := rec.Column(ci)
				for _, test := range []string{"is_null", "is_not_null"} {
					for _, form := range []string{"%s(%s)", "not %s(%s)", "%s(%s) and row >= 0"} {
						src := fmt.Sprintf(form, test, col)
						var want []int64
						for i := 0; i < c.Len(); i++ {
							keep := c.IsNull(i) == (test == "is_null")
							if form == "not %s(%s)" {
								keep = !keep
							}
							if keep {
								want = append(want, int64(lo+i))
							}
						}
						name := fmt.Sprintf("%s nulls=%v sliced=%v", src, withNulls, sliced)
						for _, workers := range []int{1, 3} {
							checkFiltered(t, mem, f.Filter(src), text, want, name, workers)
						}
					}
				}
			}
			if sliced {
				rec.Release()
			}
		}
		full.Release()
	}
}

// TestFilterScalarPredicate checks predicates with one value for every row,
// as SQL's WHERE TRUE: constants alone and under and/or with a column, and
// a comparison of a whole-column reduction (the step then holds its whole
// input), against a row loop, with nulls, on sliced input, at 1 and 3
// workers.
func TestFilterScalarPredicate(t *testing.T) {
	mem := checked(t)
	rng := rand.New(rand.NewPCG(42, 3))
	full, vals := filterTable(mem, rng, 1500, true)
	defer full.Release()
	text := columnsText(full)
	const col = "c_int32"
	for _, sliced := range []bool{false, true} {
		rec, lo := full, 0
		if sliced {
			lo = 6
			rec = full.NewSlice(6, full.NumRows()-10)
		}
		n := int(rec.NumRows())
		valid := func(i int) bool { return vals[col+"#null"][i] == 0 }
		sum, cnt := 0.0, 0
		for i := lo; i < lo+n; i++ {
			if valid(i) {
				sum += vals[col][i]
				cnt++
			}
		}
		mean := sum / float64(cnt) // SQL's avg and frame's mean skip nulls
		rows := func(keep func(i int) bool) []int64 {
			var w []int64
			for i := lo; i < lo+n; i++ {
				if keep(i) {
					w = append(w, int64(i))
				}
			}
			return w
		}
		all := func(int) bool { return true }
		none := func(int) bool { return false }
		positive := func(i int) bool { return valid(i) && vals[col][i] > 0 }
		f := frame.FromRecords(rec)
		for _, c := range []struct {
			src  string
			keep func(int) bool
		}{
			{"True", all},
			{"False", none},
			{"(1 > 0) & (2 > 1)", all},
			{col + " > 0", positive},
			{"(" + col + " > 0) | True", all}, // null | true is true
			{"(" + col + " > 0) & False", none},
			{"(" + col + " > 0) & True", positive},
			{fmt.Sprintf("mean(%s) > %v", col, mean-0.5), all},
			{fmt.Sprintf("mean(%s) > %v", col, mean+0.5), none},
			{fmt.Sprintf("(%s > 0) | (mean(%s) > %v)", col, col, mean+0.5), positive},
			{fmt.Sprintf("~(mean(%s) > %v)", col, mean+0.5), all},
		} {
			for _, workers := range []int{1, 3} {
				checkFiltered(t, mem, f.Filter(c.src), text, rows(c.keep), fmt.Sprintf("%s sliced=%v", c.src, sliced), workers)
			}
		}
		// a predicate of numbers alone folds as Python does: ~True is -2
		_, err := f.Filter("~(1 > 0)").Collect(context.Background(), frame.WithAllocator(mem))
		require.ErrorIs(t, err, frame.ErrType)
		// one value per row or one for every row: a [rows, 3] predicate is neither
		_, err = f.Filter("l > 0").Collect(context.Background(), frame.WithAllocator(mem))
		require.ErrorIs(t, err, array.ErrShape)
		if sliced {
			rec.Release()
		}
	}
}
