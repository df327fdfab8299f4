package arrowio

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arrowtest"
)

// encodeState writes a Reducer state for r's reductions by hand: rows, and
// per reduction the payload elem(i, lane) gives (8 bytes per value; 24 for
// moments: count, mean, M2), so that a test can state what no Add or Merge
// would build.
func encodeState(r *Reducer, rows uint64, elem func(i, lane int) []uint64) []byte {
	out := append([]byte{}, reducerMagic...)
	out = binary.LittleEndian.AppendUint64(out, r.fingerprint())
	out = binary.AppendUvarint(out, rows)
	out = binary.AppendUvarint(out, uint64(len(r.s.reds)))
	for i, red := range r.s.reds {
		out = append(out, byte(red.kind), byte(red.dtype))
		out = binary.AppendUvarint(out, uint64(red.src.lanes))
		if rows == 0 {
			continue
		}
		for k := 0; k < red.src.lanes; k++ {
			for _, v := range elem(i, k) {
				if red.kind == accBool {
					out = append(out, byte(v))
				} else {
					out = binary.LittleEndian.AppendUint64(out, v)
				}
			}
		}
	}
	return out
}

func f64(x float64) uint64 { return math.Float64bits(x) }

// stateReducer is a Reducer of var, count and sum over one float64 column.
func stateReducer(t testing.TB, mem memory.Allocator) *Reducer {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	x, err := SchemaVar(schema, "x")
	require.NoError(t, err)
	r, err := NewReducer(mem, schema,
		Reduction{Name: "var", Expr: x, Op: Var}, Reduction{Name: "count", Expr: x, Op: Count}, Reduction{Name: "sum", Expr: x, Op: Sum})
	require.NoError(t, err)
	return r
}

// state is a stateReducer state of rows rows whose moments are m and whose
// count is c (sum 1.5).
func state(r *Reducer, rows uint64, m [3]uint64, c int64) []byte {
	return encodeState(r, rows, func(i, _ int) []uint64 {
		switch i {
		case 0:
			return m[:]
		case 1:
			return []uint64{uint64(c)}
		}
		return []uint64{f64(1.5)}
	})
}

// Issue 17 item 4: states no Add or Merge builds are refused (a negative
// M2 gave a negative variance), and Merge of two valid states whose row
// count or counts overflow int64 is an error that leaves the Reducer as it
// was (it wrapped to negative counts).
func TestReducerUnmarshalImpossible(t *testing.T) {
	mem := arrowtest.NewMem(t)
	r := stateReducer(t, mem)
	defer r.Release()
	good := state(r, 3, [3]uint64{3, f64(2), f64(2)}, 3)
	require.NoError(t, r.UnmarshalBinary(good))
	res, err := r.Result(nil)
	require.NoError(t, err)
	v, _ := arrowtest.Elems(t, res[0])
	assert.InDelta(t, 2.0/3, v[0], 1e-15)
	for _, a := range res {
		a.Release()
	}

	bad := map[string][]byte{
		"negative M2":            state(r, 3, [3]uint64{3, f64(2), f64(-1)}, 3),
		"M2 of -Inf":             state(r, 3, [3]uint64{3, f64(2), f64(math.Inf(-1))}, 3),
		"M2 of one value":        state(r, 3, [3]uint64{1, f64(2), f64(5)}, 3),
		"moments count > rows":   state(r, 3, [3]uint64{4, f64(2), f64(2)}, 3),
		"negative moments count": state(r, 3, [3]uint64{math.MaxUint64, f64(2), f64(2)}, 3),
		"no values, a mean":      state(r, 3, [3]uint64{0, f64(2), 0}, 3),
		"no values, NaN M2":      state(r, 3, [3]uint64{0, 0, f64(math.NaN())}, 3),
		"count > rows":           state(r, 3, [3]uint64{3, f64(2), f64(2)}, 4),
		"negative count":         state(r, 3, [3]uint64{3, f64(2), f64(2)}, -1),
		"rows past int64":        state(r, math.MaxUint64, [3]uint64{3, f64(2), f64(2)}, 3),
	}
	for name, b := range bad {
		err := r.UnmarshalBinary(b)
		require.ErrorIs(t, err, ErrInvalid, name)
		assert.Equal(t, int64(3), r.Rows(), "%s: a failed decode changes nothing", name)
	}
	// Possible states with NaN and infinities: a NaN among the values, an
	// infinite value, one value.
	for name, b := range map[string][]byte{
		"NaN":       state(r, 3, [3]uint64{3, f64(math.NaN()), f64(math.NaN())}, 3),
		"Inf":       state(r, 3, [3]uint64{3, f64(math.Inf(1)), f64(math.Inf(1))}, 3),
		"one Inf":   state(r, 3, [3]uint64{1, f64(math.Inf(-1)), f64(math.NaN())}, 1),
		"one value": state(r, 3, [3]uint64{1, f64(-2), f64(math.Copysign(0, -1))}, 1),
		"all null":  state(r, 3, [3]uint64{0, 0, 0}, 0),
		"no rows":   state(r, 0, [3]uint64{}, 0),
	} {
		require.NoError(t, r.UnmarshalBinary(b), name)
	}

	// A sum of bools is a count too.
	bs := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.FixedWidthTypes.Boolean}}, nil)
	bv, err := SchemaVar(bs, "b")
	require.NoError(t, err)
	br, err := NewReducer(mem, bs, Reduction{Name: "hits", Expr: bv, Op: Sum})
	require.NoError(t, err)
	defer br.Release()
	require.Equal(t, accI64, br.s.reds[0].kind)
	sum := func(rows, v uint64) []byte {
		return encodeState(br, rows, func(int, int) []uint64 { return []uint64{v} })
	}
	require.NoError(t, br.UnmarshalBinary(sum(2, 2)))
	require.ErrorIs(t, br.UnmarshalBinary(sum(2, 3)), ErrInvalid)
	require.ErrorIs(t, br.UnmarshalBinary(sum(2, math.MaxUint64)), ErrInvalid)

	// Merge: rows and counts near the top of int64.
	half := uint64(math.MaxInt64 / 2)
	big := state(r, half, [3]uint64{half, f64(1), 0}, int64(half))
	a, b := stateReducer(t, mem), stateReducer(t, mem)
	defer a.Release()
	defer b.Release()
	require.NoError(t, a.UnmarshalBinary(big))
	require.NoError(t, b.UnmarshalBinary(big))
	require.NoError(t, a.Merge(b))
	assert.Equal(t, int64(2*half), a.Rows())
	before, err := a.MarshalBinary()
	require.NoError(t, err)
	err = a.Merge(b)
	require.ErrorIs(t, err, expr.ErrOverflow)
	assert.ErrorContains(t, err, "overflow")
	after, err := a.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, after, "a failed Merge changes nothing")
	res, err = a.Result(nil)
	require.NoError(t, err)
	c, _ := arrowtest.Elems(t, res[1])
	assert.Equal(t, float64(2*half), c[0], "counts never wrap")
	for _, x := range res {
		x.Release()
	}
	// Add past the top is refused too.
	rec := bindBatch(t, mem, "x", []float64{1, 2})
	defer rec.Release()
	require.ErrorIs(t, a.Add(rec), expr.ErrOverflow)
	assert.Equal(t, int64(2*half), a.Rows())
}
