package frame

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
)

// aggSchema: every kind of column an aggregate reads.
func aggSchema() *arrow.Schema {
	tt, err := arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil)
	if err != nil {
		panic(err)
	}
	return arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "h", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
		{Name: "t", Type: tt, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
	}, nil)
}

// aggRecords makes batches random records of aggSchema (some empty), with
// nulls, NaN, infinities and -0 among the floats.
func aggRecords(t testing.TB, mem memory.Allocator, seed uint64, batches, maxRows int) []arrow.Record {
	r := rand.New(rand.NewPCG(seed, 1))
	s := aggSchema()
	var recs []arrow.Record
	for k := 0; k < batches; k++ {
		n := r.IntN(maxRows + 1)
		b := arrowarray.NewRecordBuilder(mem, s)
		for i := 0; i < n; i++ {
			null := func() bool { return r.IntN(7) == 0 }
			if null() {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*arrowarray.Int32Builder).Append(int32(r.IntN(2001) - 1000))
			}
			b.Field(1).(*arrowarray.Uint16Builder).Append(uint16(r.IntN(65536)))
			switch x := r.IntN(40); {
			case x == 0:
				b.Field(2).AppendNull()
			case x == 1 && seed%2 == 1:
				b.Field(2).(*arrowarray.Float64Builder).Append(math.NaN())
			case x == 2 && seed%2 == 1:
				b.Field(2).(*arrowarray.Float64Builder).Append(math.Inf(1))
			case x == 3:
				b.Field(2).(*arrowarray.Float64Builder).Append(math.Copysign(0, -1))
			default:
				b.Field(2).(*arrowarray.Float64Builder).Append(1e6 + r.NormFloat64()*3)
			}
			if null() {
				b.Field(3).AppendNull()
			} else {
				b.Field(3).(*arrowarray.BooleanBuilder).Append(r.IntN(3) == 0)
			}
			if null() {
				b.Field(4).AppendNull()
			} else {
				b.Field(4).(*arrowarray.Float16Builder).Append(float16.New(float32(r.IntN(200)) / 8))
			}
			tb := b.Field(5).(*arrowarray.ExtensionBuilder).Builder.(*arrowarray.FixedSizeListBuilder)
			if null() {
				tb.AppendNull()
				tb.ValueBuilder().(*arrowarray.Float32Builder).AppendValues(make([]float32, 6), nil)
			} else {
				tb.Append(true)
				vb := tb.ValueBuilder().(*arrowarray.Float32Builder)
				for e := 0; e < 6; e++ {
					if r.IntN(9) == 0 {
						vb.AppendNull()
					} else {
						vb.Append(float32(r.NormFloat64()) + float32(e))
					}
				}
			}
			if null() {
				b.Field(6).AppendNull()
			} else {
				b.Field(6).(*arrowarray.StringBuilder).Append(fmt.Sprintf("s%02d", r.IntN(30)))
			}
			if null() {
				b.Field(7).AppendNull()
			} else {
				b.Field(7).(*arrowarray.Date32Builder).Append(arrow.Date32(19000 + r.IntN(400)))
			}
			b.Field(8).(*arrowarray.Int8Builder).Append(int8(r.IntN(256) - 128))
		}
		recs = append(recs, b.NewRecord())
		b.Release()
	}
	return recs
}

// testAggs: one aggregate of every state kind and column kind.
func testAggs() []Agg {
	return []Agg{
		Count(), CountOf("f").As("count_f"), Sum("i").As("sum_i"), Sum("u").As("sum_u"), Sum("b").As("sum_b"),
		Sum("f").As("sum_f"), Mean("t").As("mean_t"), Var("f", 1).As("var_f"), Std("t", 0).As("std_t"),
		Min("i8").As("min_i8"), Max("t").As("max_t"), Max("h").As("max_h"), Min("b").As("min_b"),
		First("f").As("first_f"), Last("t").As("last_t"), First("d").As("first_d"), Any("b").As("any_b"),
		All("i").As("all_i"), CountDistinct("s").As("nd_s"), Median("f").As("median_f"),
		Quantile("i", 0.25).As("q_i"), Quantile("t", 0.9).As("q_t"), Min("s").As("min_s"), Last("s").As("last_s"),
		First("s").As("first_s"), Corr("f", "i"), Mean("i").As("mean_i"),
	}
}

// groupByAll is the reference: GroupBy().Agg over all the records in order.
func groupByAll(t testing.TB, mem memory.Allocator, recs []arrow.Record, aggs []Agg) arrow.Record {
	s := aggSchema()
	f := Frame{&node{kind: stepSource, schema: s, src: recordSource{schema: s, recs: recs}}}
	tb, err := f.GroupBy().Agg(aggs...).Collect(context.Background(), WithAllocator(mem), WithWorkers(3))
	require.NoError(t, err)
	rec := tb.Record()
	rec.Retain()
	tb.Release()
	return rec
}

// sameResult compares two one-row results: exactly, but floats of moments
// and float sums within a relative 1e-9.
func sameResult(t testing.TB, want, got arrow.Record, what string) {
	t.Helper()
	require.True(t, want.Schema().Equal(got.Schema()), "%s: schema %v, want %v", what, got.Schema(), want.Schema())
	require.Equal(t, want.NumRows(), got.NumRows())
	for c := 0; c < int(want.NumCols()); c++ {
		name := want.ColumnName(c)
		w, g := want.Column(c), got.Column(c)
		if wa, err := arrowio.FromArrow(memory.DefaultAllocator, w); err == nil {
			ga, err := arrowio.FromArrow(memory.DefaultAllocator, g)
			require.NoError(t, err)
			wv, wok := arrowtest.Elems(t, wa)
			gv, gok := arrowtest.Elems(t, ga)
			wa.Release()
			ga.Release()
			require.Equal(t, wok, gok, "%s: %s validity", what, name)
			for k := range wv {
				if !wok[k] {
					continue
				}
				a, b := wv[k], gv[k]
				if a == b || (a != a && b != b) {
					continue
				}
				assert.InDelta(t, a, b, 1e-9*math.Max(1, math.Abs(a)), "%s: %s[%d]", what, name, k)
			}
			continue
		}
		assert.True(t, arrowarray.Equal(w, g), "%s: %s: %v, want %v", what, name, g, w)
	}
}

// mergeSplit adds recs, cut into parts contiguous runs, to one Aggregator
// each, passes some through MarshalBinary and UnmarshalBinary onto a fresh
// Aggregator (checking the bytes are stable), and merges neighbours in a
// random order (Merge is a's rows then b's, so First and Last stay right).
func mergeSplit(t testing.TB, r *rand.Rand, schema *arrow.Schema, recs []arrow.Record, aggs []Agg, parts int) *Aggregator {
	as := make([]*Aggregator, parts)
	for i := range as {
		a, err := NewAggregator(schema, aggs...)
		require.NoError(t, err)
		as[i] = a
	}
	cuts := make([]int, parts)
	for i := range cuts {
		cuts[i] = r.IntN(len(recs) + 1)
	}
	for k, rec := range recs {
		p := 0
		for _, c := range cuts {
			if k >= c {
				p++
			}
		}
		require.NoError(t, as[min(p, parts-1)].Add(rec))
	}
	for i, a := range as {
		if r.IntN(2) == 0 {
			continue
		}
		enc, err := a.MarshalBinary()
		require.NoError(t, err)
		fresh, err := NewAggregator(schema, aggs...)
		require.NoError(t, err)
		require.NoError(t, fresh.UnmarshalBinary(enc))
		assert.Equal(t, a.Rows(), fresh.Rows())
		again, err := fresh.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, enc, again, "a decoded state encodes to the same bytes")
		as[i] = fresh
	}
	for len(as) > 1 {
		i := r.IntN(len(as) - 1)
		rows := as[i].Rows() + as[i+1].Rows()
		require.NoError(t, as[i].Merge(as[i+1]))
		assert.Equal(t, rows, as[i].Rows())
		as = append(as[:i+1], as[i+2:]...)
	}
	return as[0]
}

// TestAggregatorMergeAgrees (from arrowio's TestReducerMergeAgrees): over
// random splits of 300 random batches (every column kind, nulls, NaN,
// infinities, -0, tensors) into 1 to 9 parts, some encoded and decoded,
// merged in random order, the Result equals GroupBy().Agg over all the
// batches: exactly but for float sums and moments (1e-9 relative).
func TestAggregatorMergeAgrees(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		recs := aggRecords(t, mem, seed, 300, 20)
		aggs := testAggs()
		want := groupByAll(t, mem, recs, aggs)
		r := rand.New(rand.NewPCG(seed, 5))
		for trial := 0; trial < 6; trial++ {
			parts := 1 + r.IntN(9)
			a := mergeSplit(t, r, aggSchema(), recs, aggs, parts)
			got, err := a.Result(mem)
			require.NoError(t, err)
			sameResult(t, want, got, fmt.Sprintf("seed %d, %d parts", seed, parts))
			// Result leaves the Aggregator as it was.
			again, err := a.Result(mem)
			require.NoError(t, err)
			sameResult(t, got, again, "a second Result")
			got.Release()
			again.Release()
		}
		want.Release()
		for _, rec := range recs {
			rec.Release()
		}
		mem.AssertSize(t, 0)
	}
}

// TestAggregatorEmpty (from arrowio's TestReducerEmpty): an Aggregator of
// no rows merges as the identity on both sides, encodes to a header only,
// and gives GroupBy().Agg's result over no rows (Count 0, the others null).
func TestAggregatorEmpty(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := aggRecords(t, mem, 4, 30, 10)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	aggs := testAggs()
	empty, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(t, err)
	enc, err := empty.MarshalBinary()
	require.NoError(t, err)
	assert.Less(t, len(enc), 200, "an empty state is a header")
	full, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, full.Add(rec))
	}
	before, err := full.MarshalBinary()
	require.NoError(t, err)
	require.NoError(t, full.Merge(empty))
	after, err := full.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, after, "merging an empty Aggregator changes nothing")
	left, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(t, err)
	require.NoError(t, left.Merge(full))
	got, err := left.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, got, "an empty Aggregator merged with another becomes it")

	res, err := empty.Result(mem)
	require.NoError(t, err)
	want := groupByAll(t, mem, nil, aggs)
	sameResult(t, want, res, "no rows")
	assert.Equal(t, int64(0), res.Column(0).(*arrowarray.Int64).Value(0), "Count over no rows")
	for c := 2; c < int(res.NumCols()); c++ {
		if res.ColumnName(c) != "nd_s" {
			assert.True(t, res.Column(c).IsNull(0), "%s over no rows is null", res.ColumnName(c))
		}
	}
	res.Release()
	want.Release()
	// An empty batch changes nothing either.
	none := recs[0].NewSlice(0, 0)
	defer none.Release()
	require.NoError(t, empty.Add(none))
	assert.Zero(t, empty.Rows())
}

// TestAggregatorMisuse (from arrowio's TestReducerMisuse): nil and zero
// Aggregators, bad aggregates, mismatched merges and states: typed errors,
// the receiver unchanged.
func TestAggregatorMisuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := aggRecords(t, mem, 7, 20, 10)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	s := aggSchema()
	aggA := []Agg{Var("f", 0), Max("i")}
	aggB := []Agg{Var("f", 1), Max("i")}

	_, err := NewAggregator(nil, aggA...)
	assert.ErrorIs(t, err, ErrArgument)
	_, err = NewAggregator(s)
	assert.ErrorIs(t, err, ErrArgument)
	_, err = NewAggregator(s, Agg{})
	assert.ErrorIs(t, err, ErrArgument)
	_, err = NewAggregator(s, Sum("nope"))
	assert.ErrorIs(t, err, ErrNoColumn)
	_, err = NewAggregator(s, Sum("s"))
	assert.ErrorIs(t, err, ErrType)
	_, err = NewAggregator(s, Var("f", -1))
	assert.ErrorIs(t, err, ErrArgument)

	var nilA *Aggregator
	var zero Aggregator
	for _, a := range []*Aggregator{nilA, &zero} {
		assert.ErrorIs(t, a.Add(recs[0]), ErrArgument)
		assert.ErrorIs(t, a.Merge(a), ErrArgument)
		_, err := a.Result(nil)
		assert.ErrorIs(t, err, ErrArgument)
		_, err = a.MarshalBinary()
		assert.ErrorIs(t, err, ErrArgument)
		assert.ErrorIs(t, a.UnmarshalBinary([]byte("S0AG")), ErrArgument)
		assert.Zero(t, a.Rows())
		assert.Nil(t, a.Schema())
	}

	a, err := NewAggregator(s, aggA...)
	require.NoError(t, err)
	b, err := NewAggregator(s, aggB...)
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, a.Add(rec))
		require.NoError(t, b.Add(rec))
	}
	assert.ErrorIs(t, a.Add(nil), ErrSource)
	encA, err := a.MarshalBinary()
	require.NoError(t, err)
	encB, err := b.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, a.Merge(b), ErrMismatch)
	assert.ErrorIs(t, a.Merge(nil), ErrArgument)
	assert.ErrorIs(t, a.UnmarshalBinary(encB), ErrMismatch)
	renamed, err := NewAggregator(s, Var("f", 0).As("v"), Max("i"))
	require.NoError(t, err)
	assert.ErrorIs(t, renamed.UnmarshalBinary(encA), ErrMismatch, "output names are part of the aggregates")
	got, err := a.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, encA, got, "a failed merge or decode leaves the Aggregator unchanged")

	// Nullability does not matter to a merge.
	fields := append([]arrow.Field(nil), s.Fields()...)
	for k := range fields {
		fields[k].Nullable = !fields[k].Nullable
	}
	nn, err := NewAggregator(arrow.NewSchema(fields, nil), aggA...)
	require.NoError(t, err)
	require.NoError(t, nn.Merge(a))
	assert.Equal(t, a.Rows(), nn.Rows())

	// Merging an Aggregator into itself counts its rows twice.
	rows := a.Rows()
	require.NoError(t, a.Merge(a))
	assert.Equal(t, 2*rows, a.Rows())
}

// The aggregates travel as JSON (Beam's DoFns carry them so).
func TestAggJSON(t *testing.T) {
	aggs := append(testAggs(), Median("f"), Quantile("f", 2), Var("f", -1), Count().As("n"))
	b, err := json.Marshal(aggs)
	require.NoError(t, err)
	var back []Agg
	require.NoError(t, json.Unmarshal(b, &back))
	require.Len(t, back, len(aggs))
	for i := range aggs {
		assert.Equal(t, aggs[i].String(), back[i].String())
		assert.Equal(t, aggs[i].outName(), back[i].outName())
		assert.Equal(t, aggs[i].err != nil, back[i].err != nil, aggs[i].String())
	}
	assert.Equal(t, aggSignature(aggSchema(), aggs), aggSignature(aggSchema(), back))
	var a Agg
	assert.ErrorIs(t, json.Unmarshal([]byte(`{"op":"prod","col":"x"}`), &a), ErrArgument)
	_, err = json.Marshal(Agg{})
	assert.Error(t, err)
}

// encodeState writes an Aggregator state by hand: rows, and per aggregate
// the payload bytes body(i) gives, so that a test can state what no Add or
// Merge would build.
func encodeState(a *Aggregator, rows uint64, body func(i int) []byte) []byte {
	out := append([]byte{}, aggregatorMagic...)
	out = binary.LittleEndian.AppendUint64(out, a.fingerprint())
	out = binary.AppendUvarint(out, rows)
	out = binary.AppendUvarint(out, uint64(len(a.n.aggs)))
	for i, p := range a.n.aggs {
		out = append(out, a.t.states[i].(stateCodec).codecKind(), byte(p.dt))
		out = binary.AppendUvarint(out, uint64(p.width))
		if rows > 0 {
			out = append(out, body(i)...)
		}
	}
	return out
}

func u64s(v ...uint64) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

func f64(x float64) uint64 { return math.Float64bits(x) }

// stateAggregator aggregates var, count and sum of one float64 column.
func stateAggregator(t testing.TB) *Aggregator {
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	a, err := NewAggregator(s, Var("x", 0).As("var"), CountOf("x").As("count"), Sum("x").As("sum"))
	require.NoError(t, err)
	return a
}

// state is a stateAggregator state of rows rows whose moments are m
// (count, mean and M2 of the values minus the pivot, 10 when there are
// values) and whose count is c (sum 1.5 of c values).
func state(a *Aggregator, rows uint64, m [3]uint64, c int64) []byte {
	return encodeState(a, rows, func(i int) []byte {
		switch i {
		case 0:
			piv := f64(10)
			if m[0] == 0 {
				piv = 0
			}
			return u64s(append(m[:], piv)...)
		case 1:
			return u64s(uint64(c))
		}
		if c == 0 {
			return u64s(0, 0, 0)
		}
		return u64s(uint64(c), f64(1.5), 0)
	})
}

// Issue 17 item 4 (from arrowio's TestReducerUnmarshalImpossible): states
// no Add or Merge builds are refused (a negative M2 gave a negative
// variance), and Merge of two valid states whose row count overflows
// int64 is an error that leaves the Aggregator as it was.
func TestAggregatorUnmarshalImpossible(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := stateAggregator(t)
	good := state(a, 3, [3]uint64{3, f64(2), f64(2)}, 3)
	require.NoError(t, a.UnmarshalBinary(good))
	res, err := a.Result(mem)
	require.NoError(t, err)
	assert.InDelta(t, 2.0/3, res.Column(0).(*arrowarray.Float64).Value(0), 1e-15)
	res.Release()

	bad := map[string][]byte{
		"negative M2":            state(a, 3, [3]uint64{3, f64(2), f64(-1)}, 3),
		"M2 of -Inf":             state(a, 3, [3]uint64{3, f64(2), f64(math.Inf(-1))}, 3),
		"M2 of one value":        state(a, 3, [3]uint64{1, f64(2), f64(5)}, 3),
		"moments count > rows":   state(a, 3, [3]uint64{4, f64(2), f64(2)}, 3),
		"negative moments count": state(a, 3, [3]uint64{math.MaxUint64, f64(2), f64(2)}, 3),
		"no values, a mean":      state(a, 3, [3]uint64{0, f64(2), 0}, 3),
		"no values, NaN M2":      state(a, 3, [3]uint64{0, 0, f64(math.NaN())}, 3),
		"count > rows":           state(a, 3, [3]uint64{3, f64(2), f64(2)}, 4),
		"negative count":         state(a, 3, [3]uint64{3, f64(2), f64(2)}, -1),
		"rows past int64":        state(a, math.MaxUint64, [3]uint64{3, f64(2), f64(2)}, 3),
		"rows past 2^62":         state(a, math.MaxInt64/2+1, [3]uint64{3, f64(2), f64(2)}, 3),
		"a sum of no values": encodeState(a, 3, func(i int) []byte {
			return [][]byte{u64s(3, f64(2), f64(2), 0), u64s(3), u64s(0, f64(1), 0)}[i]
		}),
		"no values, a pivot": encodeState(a, 3, func(i int) []byte {
			return [][]byte{u64s(0, 0, 0, f64(7)), u64s(0), u64s(0, 0, 0)}[i]
		}),
		"overlong rows": append(append(append([]byte{}, good[:13]...), 0x83, 0x00), good[14:]...),
	}
	for name, b := range bad {
		err := a.UnmarshalBinary(b)
		require.ErrorIs(t, err, ErrInvalid, name)
		assert.Equal(t, int64(3), a.Rows(), "%s: a failed decode changes nothing", name)
	}
	// Possible states with NaN and infinities: a NaN among the values, an
	// infinite value, one value.
	for name, b := range map[string][]byte{
		"NaN":       state(a, 3, [3]uint64{3, f64(math.NaN()), f64(math.NaN())}, 3),
		"Inf":       state(a, 3, [3]uint64{3, f64(math.Inf(1)), f64(math.Inf(1))}, 3),
		"one Inf":   state(a, 3, [3]uint64{1, f64(math.Inf(-1)), f64(math.NaN())}, 1),
		"one value": state(a, 3, [3]uint64{1, f64(-2), f64(math.Copysign(0, -1))}, 1),
		"all null":  state(a, 3, [3]uint64{0, 0, 0}, 0),
		"no rows":   state(a, 0, [3]uint64{}, 0),
	} {
		require.NoError(t, a.UnmarshalBinary(b), name)
	}

	// A sum of bools is a count too; a bool is 0 or 1; an int8's extreme
	// is an int8; Count() is the rows.
	bs := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.FixedWidthTypes.Boolean}, {Name: "c", Type: arrow.PrimitiveTypes.Int8}}, nil)
	br, err := NewAggregator(bs, Sum("b"), Max("b").As("mb"), Min("c"), Count())
	require.NoError(t, err)
	st := func(rows, sum, mb, mc, n uint64) []byte {
		return encodeState(br, rows, func(i int) []byte {
			return [][]byte{append(u64s(sum), 1), append(u64s(mb), 1), append(u64s(mc), 1), u64s(n)}[i]
		})
	}
	require.NoError(t, br.UnmarshalBinary(st(2, 2, 1, math.MaxUint64, 2)))
	for name, b := range map[string][]byte{
		"bool sum > rows": st(2, 3, 1, 0, 2),
		"bool sum < 0":    st(2, math.MaxUint64, 1, 0, 2),
		"bool of 2":       st(2, 2, 2, 0, 2),
		"int8 of 300":     st(2, 2, 1, 300, 2),
		"count() != rows": st(2, 2, 1, 0, 1),
		"flag byte 2": encodeState(br, 2, func(i int) []byte {
			return [][]byte{append(u64s(2), 2), append(u64s(1), 1), append(u64s(0), 1), u64s(2)}[i]
		}),
		"truncated": st(2, 2, 1, 0, 2)[:40],
		"trailing":  append(st(2, 2, 1, 0, 2), 0),
		"magic":     append([]byte("S0RD\x01"), st(2, 2, 1, 0, 2)[5:]...),
		"version":   append([]byte("S0AG\x02"), st(2, 2, 1, 0, 2)[5:]...),
	} {
		require.ErrorIs(t, br.UnmarshalBinary(b), ErrInvalid, name)
	}

	// Merge: rows near the top of int64.
	half := uint64(math.MaxInt64 / 2)
	big := state(a, half, [3]uint64{half, f64(1), 0}, int64(half))
	x, y := stateAggregator(t), stateAggregator(t)
	require.NoError(t, x.UnmarshalBinary(big))
	require.NoError(t, y.UnmarshalBinary(big))
	require.NoError(t, x.Merge(y))
	assert.Equal(t, int64(2*half), x.Rows())
	before, err := x.MarshalBinary()
	require.NoError(t, err)
	err = x.Merge(y)
	require.ErrorIs(t, err, ErrOverflow)
	assert.ErrorContains(t, err, "overflow")
	after, err := x.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, after, "a failed Merge changes nothing")
	res, err = x.Result(mem)
	require.NoError(t, err)
	assert.Equal(t, int64(2*half), res.Column(1).(*arrowarray.Int64).Value(0), "counts never wrap")
	res.Release()
	// Add past the top is refused too.
	rec := bindRecordOf(t, mem, []float64{1, 2})
	defer rec.Release()
	require.ErrorIs(t, x.Add(rec), ErrOverflow)
	assert.Equal(t, int64(2*half), x.Rows())

	// An exact sum that overflows in a merge leaves the receiver as it was.
	is := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	p, err := NewAggregator(is, Sum("x"), Count())
	require.NoError(t, err)
	q, err := NewAggregator(is, Sum("x"), Count())
	require.NoError(t, err)
	top := encodeState(p, 1, func(i int) []byte {
		return [][]byte{append(u64s(math.MaxInt64), 1), u64s(1)}[i]
	})
	require.NoError(t, p.UnmarshalBinary(top))
	require.NoError(t, q.UnmarshalBinary(top))
	err = p.Merge(q)
	require.ErrorIs(t, err, ErrOverflow)
	got, err := p.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, top, got, "a failed Merge changes nothing")
}

func bindRecordOf(t testing.TB, mem memory.Allocator, v []float64) arrow.Record {
	b := arrowarray.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues(v, nil)
	c := b.NewArray()
	defer c.Release()
	return arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil), []arrow.Array{c}, int64(len(v)))
}

func isAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// TestAggregatorUnmarshalHostile (from arrowio's
// TestReducerUnmarshalHostile): every truncation, every single-byte change
// of a valid encoding decode to an error wrapping ErrInvalid or
// ErrMismatch, or to a state that encodes back to the same bytes, never a
// panic; a failed decode leaves the state unchanged.
func TestAggregatorUnmarshalHostile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := aggRecords(t, mem, 8, 6, 4)
	aggs := testAggs()
	src, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, src.Add(rec))
		rec.Release()
	}
	enc, err := src.MarshalBinary()
	require.NoError(t, err)
	dst, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(t, err)
	require.NoError(t, dst.UnmarshalBinary(enc))
	check := func(data []byte) {
		err := dst.UnmarshalBinary(data)
		if err != nil {
			require.True(t, isAny(err, ErrInvalid, ErrMismatch), "%v", err)
			got, err := dst.MarshalBinary()
			require.NoError(t, err)
			require.Equal(t, enc, got, "state changed by a failed decode")
			return
		}
		got, err := dst.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, data, got, "an accepted state encodes to its bytes")
		res, err := dst.Result(mem)
		require.NoError(t, err)
		res.Release()
		require.NoError(t, dst.UnmarshalBinary(enc))
	}
	for n := 0; n < len(enc); n++ {
		check(enc[:n])
	}
	check(append(append([]byte{}, enc...), 0))
	for k := range enc {
		for _, x := range []byte{1, 0x80, 0xff} {
			bad := append([]byte{}, enc...)
			bad[k] ^= x
			check(bad)
		}
	}
}

// FuzzAggregatorUnmarshal (arrowio's FuzzReducerUnmarshal, moved) decodes
// arbitrary bytes onto an Aggregator of every state kind: an error wrapping
// ErrInvalid or ErrMismatch, or a state whose Result succeeds, which
// encodes and decodes again to the same bytes, and whose merges with
// itself give no negative variance nor a count outside [0, rows] (or
// overflow with an error, changing nothing). Never a panic, nothing
// leaked.
func FuzzAggregatorUnmarshal(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	recs := aggRecords(f, mem, 9, 8, 5)
	aggs := testAggs()
	a, err := NewAggregator(aggSchema(), aggs...)
	require.NoError(f, err)
	empty, err := a.MarshalBinary()
	require.NoError(f, err)
	f.Add(empty)
	for _, rec := range recs {
		require.NoError(f, a.Add(rec))
		enc, err := a.MarshalBinary()
		require.NoError(f, err)
		f.Add(enc)
		f.Add(enc[:len(enc)/2])
		rec.Release()
	}
	mem.AssertSize(f, 0)
	f.Add([]byte("S0AG\x01"))
	// Hostile states: a negative M2, M2 of one value, counts above the
	// rows, negative counts, rows at the top of int64 (Merge overflows).
	h := stateAggregator(f)
	for _, s := range []struct {
		rows  uint64
		count int64
		m     [3]uint64
	}{
		{3, 3, [3]uint64{3, f64(1), f64(-1)}},
		{3, 3, [3]uint64{1, f64(1), f64(7)}},
		{3, 4, [3]uint64{4, f64(1), 0}},
		{3, -1, [3]uint64{math.MaxUint64, f64(1), 0}},
		{math.MaxInt64 / 2, math.MaxInt64 / 2, [3]uint64{math.MaxInt64 / 2, f64(1), 0}},
		{math.MaxInt64/2 + 1, 1, [3]uint64{1, f64(1), 0}},
		{3, 3, [3]uint64{3, f64(math.Inf(1)), f64(math.Inf(-1))}},
	} {
		f.Add(state(h, s.rows, s.m, s.count))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		for _, mk := range []func() *Aggregator{
			func() *Aggregator { a, _ := NewAggregator(aggSchema(), testAggs()...); return a },
			func() *Aggregator { return stateAggregator(t) },
		} {
			r := mk()
			if err := r.UnmarshalBinary(data); err != nil {
				if !isAny(err, ErrInvalid, ErrMismatch) {
					t.Fatalf("untyped error %v", err)
				}
				continue
			}
			enc, err := r.MarshalBinary()
			require.NoError(t, err)
			require.Equal(t, data, enc, "an accepted state encodes to its bytes")
			r2 := mk()
			require.NoError(t, r2.UnmarshalBinary(enc))
			checkStateResult(t, mem, r)
			// Merging a valid state into itself doubles it, or overflows
			// with an error and changes nothing.
			for k := 0; k < 3; k++ {
				before, err := r2.MarshalBinary()
				require.NoError(t, err)
				if err := r2.Merge(r); err != nil {
					require.ErrorIs(t, err, ErrOverflow)
					after, err := r2.MarshalBinary()
					require.NoError(t, err)
					require.Equal(t, before, after)
					break
				}
				checkStateResult(t, mem, r2)
			}
		}
	})
}

// checkStateResult checks what no state may give: an error from Result, a
// negative variance or standard deviation, a count outside [0, rows].
func checkStateResult(t *testing.T, mem memory.Allocator, a *Aggregator) {
	res, err := a.Result(mem)
	require.NoError(t, err)
	defer res.Release()
	for c, fd := range res.Schema().Fields() {
		p := a.n.aggs[c]
		if p.op != aggVar && p.op != aggStd && p.op != aggCount && p.op != aggDistinct {
			continue
		}
		arr, err := arrowio.FromArrow(mem, res.Column(c))
		require.NoError(t, err)
		v, ok := arrowtest.Elems(t, arr)
		arr.Release()
		for k, x := range v {
			if ok[k] && (x < 0 || ((p.op == aggCount || p.op == aggDistinct) && x > float64(a.Rows()))) {
				t.Fatalf("%s gives %v after %d rows", fd.Name, v, a.Rows())
			}
		}
	}
}
