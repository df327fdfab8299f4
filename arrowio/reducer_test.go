package arrowio

import (
	"bytes"
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arrowtest"
)

func caseReductions(cases []agreeCase) []Reduction {
	var reds []Reduction
	for _, c := range cases {
		reds = append(reds, c.r)
	}
	return reds
}

// mergeSplit reduces s's batches split at random into parts (some empty,
// batches assigned in shuffled order), passes some parts through
// MarshalBinary and UnmarshalBinary onto a fresh Reducer, merges the parts
// pairwise in random order and returns the merged Reducer.
func mergeSplit(t testing.TB, mem memory.Allocator, rng *rand.Rand, s *randStream, reds []Reduction, parts int) *Reducer {
	rs := make([]*Reducer, parts)
	for i := range rs {
		r, err := NewReducer(mem, s.schema, reds...)
		require.NoError(t, err)
		rs[i] = r
	}
	for _, k := range rng.Perm(len(s.recs)) {
		require.NoError(t, rs[rng.Intn(parts)].Add(s.recs[k]))
	}
	for i, r := range rs {
		if rng.Intn(2) == 0 {
			continue
		}
		enc, err := r.MarshalBinary()
		require.NoError(t, err)
		fresh, err := NewReducer(mem, s.schema, reds...)
		require.NoError(t, err)
		require.NoError(t, fresh.UnmarshalBinary(enc))
		assert.Equal(t, r.Rows(), fresh.Rows())
		again, err := fresh.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, enc, again, "a decoded state encodes to the same bytes")
		r.Release()
		rs[i] = fresh
	}
	for len(rs) > 1 {
		i, j := rng.Intn(len(rs)), rng.Intn(len(rs)-1)
		if j >= i {
			j++
		}
		rows := rs[i].Rows() + rs[j].Rows()
		require.NoError(t, rs[i].Merge(rs[j]))
		assert.Equal(t, rows, rs[i].Rows())
		rs[j].Release()
		rs = append(rs[:j], rs[j+1:]...)
	}
	return rs[0]
}

// TestReducerMergeAgrees: over random splits of 600 random batches (every
// dtype of randStream, nulls, row shapes [], [2], [3], [3, 4]) into 1 to 9
// parts, some encoded and decoded, merged in random order, the Result
// equals the in-memory reductions of the concatenation with
// TestReduceAgrees's tolerances (exact for integers, bools, min, max,
// count and exact float sums), and Reduce's results within them too.
func TestReducerMergeAgrees(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 21, 600, 24)
	defer s.release()
	cases, scale := agreeCases(t, mem, s)
	defer scale.Release()
	reds := caseReductions(cases)
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 6; trial++ {
		parts := 1 + rng.Intn(9)
		r := mergeSplit(t, mem, rng, s, reds, parts)
		got, err := r.Result(nil)
		require.NoError(t, err)
		// Result leaves the Reducer as it was: a second call agrees.
		again, err := r.Result(mem)
		require.NoError(t, err)
		for k := range got {
			gv, _ := array.ToSlice[float64](got[k])
			av, _ := array.ToSlice[float64](again[k])
			assert.Equal(t, gv, av, cases[k].r.Name)
			again[k].Release()
		}
		r.Release()
		checkAgree(t, mem, s, cases, got)
	}
}

// TestReducerEmpty: a Reducer of no rows merges as the identity on both
// sides, encodes to a header only, and gives Reduce's results over no rows
// (Min and Max: ErrEmpty).
func TestReducerEmpty(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 4, 30, 10)
	defer s.release()
	cases, scale := agreeCases(t, mem, s)
	defer scale.Release()
	reds := caseReductions(cases)

	empty, err := NewReducer(mem, s.schema, reds...)
	require.NoError(t, err)
	defer empty.Release()
	enc, err := empty.MarshalBinary()
	require.NoError(t, err)
	assert.Less(t, len(enc), 200, "an empty state is a header")
	full, err := NewReducer(mem, s.schema, reds...)
	require.NoError(t, err)
	defer full.Release()
	for _, rec := range s.recs {
		require.NoError(t, full.Add(rec))
	}
	before, err := full.MarshalBinary()
	require.NoError(t, err)
	require.NoError(t, full.Merge(empty))
	after, err := full.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, after, "merging an empty Reducer changes nothing")

	left, err := NewReducer(mem, s.schema, reds...)
	require.NoError(t, err)
	require.NoError(t, left.Merge(full))
	got, err := left.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, got, "an empty Reducer merged with another becomes it")
	left.Release()

	// Results over no rows are Reduce's.
	noMin := reds[:0:0]
	for _, r := range reds {
		if r.Op != Min && r.Op != Max {
			noMin = append(noMin, r)
		}
	}
	e2, err := NewReducer(mem, s.schema, noMin...)
	require.NoError(t, err)
	defer e2.Release()
	res, err := e2.Result(nil)
	require.NoError(t, err)
	rr, err := NewReducer(mem, s.schema, noMin...)
	require.NoError(t, err)
	want, err := rr.s.results(mem, true)
	require.NoError(t, err)
	rr.Release()
	for k := range res {
		a, _ := array.ToSlice[float64](res[k])
		b, _ := array.ToSlice[float64](want[k])
		assert.Equal(t, len(a), len(b))
		for i := range a {
			assert.True(t, a[i] == b[i] || (a[i] != a[i] && b[i] != b[i]), noMin[k].Name)
		}
		res[k].Release()
		want[k].Release()
	}
	_, err = empty.Result(nil)
	assert.ErrorIs(t, err, ErrEmpty)
}

// TestReducerMisuse: nil, zero and released Reducers, mismatched merges and
// states: typed errors, the receiver unchanged, nothing leaked.
func TestReducerMisuse(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 7, 20, 10)
	defer s.release()
	f, err := SchemaVar(s.schema, "f")
	require.NoError(t, err)
	i, err := SchemaVar(s.schema, "i")
	require.NoError(t, err)
	redA := []Reduction{{Name: "var", Expr: f, Op: Var}, {Name: "max", Expr: i, Op: Max}}
	redB := []Reduction{{Name: "var", Expr: f, Op: Var, Ddof: 1}, {Name: "max", Expr: i, Op: Max}}

	_, err = NewReducer(mem, nil, redA...)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = NewReducer(mem, s.schema, Reduction{Name: "bad", Expr: f})
	assert.ErrorIs(t, err, expr.ErrArgument)

	var nilR *Reducer
	var zero Reducer
	for _, r := range []*Reducer{nilR, &zero} {
		assert.ErrorIs(t, r.Add(s.recs[0]), array.ErrNil)
		assert.ErrorIs(t, r.Merge(r), array.ErrNil)
		_, err := r.Result(nil)
		assert.ErrorIs(t, err, array.ErrNil)
		_, err = r.MarshalBinary()
		assert.ErrorIs(t, err, array.ErrNil)
		assert.ErrorIs(t, r.UnmarshalBinary([]byte("S0RD")), array.ErrNil)
		assert.Zero(t, r.Rows())
		r.Release()
	}

	a, err := NewReducer(mem, s.schema, redA...)
	require.NoError(t, err)
	b, err := NewReducer(mem, s.schema, redB...)
	require.NoError(t, err)
	for _, rec := range s.recs {
		require.NoError(t, a.Add(rec))
		require.NoError(t, b.Add(rec))
	}
	assert.ErrorIs(t, a.Add(nil), ErrInvalid)
	encA, err := a.MarshalBinary()
	require.NoError(t, err)
	encB, err := b.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, a.Merge(b), ErrMismatch)
	assert.ErrorIs(t, a.Merge(nil), array.ErrNil)
	assert.ErrorIs(t, a.UnmarshalBinary(encB), ErrMismatch)
	got, err := a.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, encA, got, "a failed merge or decode leaves the Reducer unchanged")

	// Nullability does not matter to a merge.
	fields := append([]arrow.Field(nil), s.schema.Fields()...)
	for k := range fields {
		fields[k].Nullable = !fields[k].Nullable
	}
	nn, err := NewReducer(mem, arrow.NewSchema(fields, nil), redA...)
	require.NoError(t, err)
	require.NoError(t, nn.Merge(a))
	assert.Equal(t, a.Rows(), nn.Rows())
	nn.Release()

	// Merging a Reducer into itself counts its rows twice.
	rows := a.Rows()
	require.NoError(t, a.Merge(a))
	assert.Equal(t, 2*rows, a.Rows())

	// A batch whose columns are in another order than the schema's binds
	// by name.
	fa := arrowtest.BuildArrow(t, mem, array.Float64, []float64{1, 2}, nil)
	fb := arrowtest.BuildArrow(t, mem, array.Float64, []float64{3, 4}, nil)
	ab := arrow.NewSchema([]arrow.Field{{Name: "a", Type: fa.DataType()}, {Name: "b", Type: fb.DataType()}}, nil)
	ba := arrow.NewSchema([]arrow.Field{{Name: "b", Type: fa.DataType()}, {Name: "a", Type: fb.DataType()}}, nil)
	swapped := arrowarray.NewRecord(ba, []arrow.Array{fb, fa}, 2)
	fa.Release()
	fb.Release()
	av, err := SchemaVar(ab, "a")
	require.NoError(t, err)
	sw, err := NewReducer(mem, ab, Reduction{Name: "sum a", Expr: av, Op: Sum})
	require.NoError(t, err)
	require.NoError(t, sw.Add(swapped))
	sums, err := sw.Result(mem)
	require.NoError(t, err)
	v, _ := arrowtest.Elems(t, sums[0])
	assert.Equal(t, []float64{3}, v, "the sum of a, not of b")
	sums[0].Release()
	sw.Release()
	swapped.Release()

	a.Release()
	a.Release()
	assert.ErrorIs(t, a.Add(s.recs[0]), array.ErrNil)
	assert.ErrorIs(t, b.Merge(a), array.ErrNil)
	_, err = a.Result(nil)
	assert.ErrorIs(t, err, array.ErrNil)
	b.Release()
}

// TestReducerUnmarshalHostile: every truncation, every single-byte change
// and some crafted states of a valid encoding decode to an error wrapping
// ErrInvalid or ErrMismatch (or, for a change that keeps the state
// well-formed, a state that encodes back to the same bytes), never a
// panic; a failed decode leaves the Reducer's state unchanged.
func TestReducerUnmarshalHostile(t *testing.T) {
	mem := arrowtest.NewMem(t)
	s := newRandStream(t, mem, 8, 12, 6)
	defer s.release()
	f, _ := SchemaVar(s.schema, "f")
	tt, _ := SchemaVar(s.schema, "t")
	b, _ := SchemaVar(s.schema, "b")
	h, _ := SchemaVar(s.schema, "h")
	reds := []Reduction{
		{Name: "var", Expr: f, Op: Var}, {Name: "min", Expr: tt, Op: Min}, {Name: "count", Expr: h, Op: Count},
		{Name: "any", Expr: b, Op: Any}, {Name: "sum", Expr: b, Op: Sum}, {Name: "max b", Expr: b, Op: Max},
	}
	src, err := NewReducer(mem, s.schema, reds...)
	require.NoError(t, err)
	for _, rec := range s.recs {
		require.NoError(t, src.Add(rec))
	}
	enc, err := src.MarshalBinary()
	require.NoError(t, err)
	src.Release()

	dst, err := NewReducer(mem, s.schema, reds...)
	require.NoError(t, err)
	defer dst.Release()
	require.NoError(t, dst.UnmarshalBinary(enc))
	check := func(data []byte) {
		err := dst.UnmarshalBinary(data)
		if err != nil {
			assert.True(t, isAny(err, ErrInvalid, ErrMismatch), "%v", err)
			got, err := dst.MarshalBinary()
			require.NoError(t, err)
			assert.Equal(t, enc, got, "state changed by a failed decode")
			return
		}
		got, err := dst.MarshalBinary()
		require.NoError(t, err)
		if !bytes.Equal(got, data) {
			// Accepted bytes that are not canonical (an overlong varint)
			// encode canonically, and that encoding is stable.
			require.NoError(t, dst.UnmarshalBinary(got))
			again, err := dst.MarshalBinary()
			require.NoError(t, err)
			assert.Equal(t, got, again)
		}
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

func isAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// FuzzReducerUnmarshal decodes arbitrary bytes onto a Reducer of every
// accumulator kind: an error wrapping ErrInvalid or ErrMismatch, or a state
// whose Result succeeds (Min, Max excepted over no rows) and which encodes
// and decodes again to the same bytes. Never a panic, nothing leaked.
func FuzzReducerUnmarshal(f *testing.F) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	s := newRandStream(f, mem, 9, 8, 5)
	reds := fuzzReductions(f, s.schema)
	r, err := NewReducer(mem, s.schema, reds...)
	require.NoError(f, err)
	empty, err := r.MarshalBinary()
	require.NoError(f, err)
	f.Add(empty)
	for _, rec := range s.recs {
		require.NoError(f, r.Add(rec))
		enc, err := r.MarshalBinary()
		require.NoError(f, err)
		f.Add(enc)
		f.Add(enc[:len(enc)/2])
	}
	r.Release()
	s.release()
	mem.AssertSize(f, 0)
	f.Add([]byte("S0RD\x01"))
	// Hostile states: a negative M2, M2 of one value, counts above the
	// rows, negative counts, rows at the top of int64 (Merge overflows).
	hr, err := NewReducer(mem, reducerFuzzSchema, fuzzReductions(f, reducerFuzzSchema)...)
	require.NoError(f, err)
	for _, h := range []struct {
		rows  uint64
		count uint64
		m     [3]uint64
	}{
		{3, 3, [3]uint64{3, f64(1), f64(-1)}},
		{3, 3, [3]uint64{1, f64(1), f64(7)}},
		{3, 4, [3]uint64{4, f64(1), 0}},
		{3, math.MaxUint64, [3]uint64{math.MaxUint64, f64(1), 0}},
		{math.MaxInt64 / 2, math.MaxInt64 / 2, [3]uint64{math.MaxInt64 / 2, f64(1), 0}},
		{math.MaxInt64/2 + 1, 1, [3]uint64{1, f64(1), 0}},
		{3, 3, [3]uint64{3, f64(math.Inf(1)), f64(math.Inf(-1))}},
	} {
		f.Add(encodeState(hr, h.rows, func(i, _ int) []uint64 {
			switch red := hr.s.reds[i]; {
			case red.kind == accMom:
				return h.m[:]
			case red.r.Op == Count:
				return []uint64{h.count}
			case red.kind == accBool:
				return []uint64{1}
			case red.kind == accArray:
				return make([]uint64, (red.dtype.Size()+7)/8)
			}
			return []uint64{f64(2)}
		}))
	}
	hr.Release()
	mem.AssertSize(f, 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		r, err := NewReducer(mem, reducerFuzzSchema, fuzzReductions(t, reducerFuzzSchema)...)
		require.NoError(t, err)
		defer r.Release()
		if err := r.UnmarshalBinary(data); err != nil {
			if !isAny(err, ErrInvalid, ErrMismatch) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		enc, err := r.MarshalBinary()
		require.NoError(t, err)
		r2, err := NewReducer(mem, reducerFuzzSchema, fuzzReductions(t, reducerFuzzSchema)...)
		require.NoError(t, err)
		defer r2.Release()
		require.NoError(t, r2.UnmarshalBinary(enc))
		enc2, err := r2.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, enc, enc2)
		res, err := r.Result(nil)
		if r.Rows() == 0 {
			require.ErrorIs(t, err, ErrEmpty)
			return
		}
		require.NoError(t, err)
		checkStateResults(t, r, res)
		for _, a := range res {
			a.Release()
		}
		// Merging a valid state into itself doubles it, or overflows
		// with an error and changes nothing; counts never go negative.
		for k := 0; k < 3; k++ {
			before, err := r2.MarshalBinary()
			require.NoError(t, err)
			if err := r2.Merge(r); err != nil {
				require.ErrorIs(t, err, expr.ErrOverflow)
				after, err := r2.MarshalBinary()
				require.NoError(t, err)
				require.Equal(t, before, after)
				break
			}
			res, err := r2.Result(nil)
			require.NoError(t, err)
			checkStateResults(t, r2, res)
			for _, a := range res {
				a.Release()
			}
		}
	})
}

// checkStateResults checks what no state may give: a negative variance or
// standard deviation, a count outside [0, rows].
func checkStateResults(t *testing.T, r *Reducer, res []*array.Array) {
	for i, red := range r.s.reds {
		if red.r.Op != Var && red.r.Op != Std && red.r.Op != Count {
			continue
		}
		v, _ := arrowtest.Elems(t, res[i])
		for _, x := range v {
			if x < 0 || (red.r.Op == Count && x > float64(r.Rows())) {
				t.Fatalf("%s gives %v after %d rows", red.r.Name, v, r.Rows())
			}
		}
	}
}

var reducerFuzzSchema *arrow.Schema

// fuzzReductions: one reduction of each accumulator kind over randStream's
// columns, and sets the schema the fuzz target uses.
func fuzzReductions(t testing.TB, schema *arrow.Schema) []Reduction {
	reducerFuzzSchema = schema
	v := func(n string) *expr.Node {
		x, err := SchemaVar(schema, n)
		require.NoError(t, err)
		return x
	}
	return []Reduction{
		{Name: "sum i", Expr: v("i"), Op: Sum}, {Name: "sum u", Expr: v("u"), Op: Sum},
		{Name: "prod f", Expr: v("f"), Op: Prod}, {Name: "all b", Expr: v("b"), Op: All},
		{Name: "std t", Expr: v("t"), Op: Std, Ddof: 1}, {Name: "count h", Expr: v("h"), Op: Count},
		{Name: "min h", Expr: v("h"), Op: Min}, {Name: "max b", Expr: v("b"), Op: Max},
	}
}
