package view_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// ruleCase is one broadcast through a named view function, with what the
// rule in package broadcast says about it.
type ruleCase struct {
	name  string
	in    []int
	view  func(a *array.Array) (*array.Array, error)
	rule  func(in []int) ([]int, broadcast.AxisMap, error)
	out   []int // want (nil when the case must fail)
	st    []int // want strides for a contiguous input (nil: not checked)
	fails error // want sentinel when out is nil
}

func numpyCase(name string, in, target, out, st []int, fails error) ruleCase {
	return ruleCase{name, in,
		func(a *array.Array) (*array.Array, error) { return view.Numpy(a, target) },
		func(in []int) ([]int, broadcast.AxisMap, error) { return broadcast.Numpy(in, target) },
		out, st, fails}
}

func bidiCase(name string, in, target, out, st []int, fails error) ruleCase {
	return ruleCase{name, in,
		func(a *array.Array) (*array.Array, error) { return view.Bidirectional(a, target) },
		func(in []int) ([]int, broadcast.AxisMap, error) { return broadcast.Bidirectional(in, target) },
		out, st, fails}
}

func explicitCase(name string, in, target, mapping, out, st []int, fails error) ruleCase {
	return ruleCase{name, in,
		func(a *array.Array) (*array.Array, error) { return view.Explicit(a, target, mapping) },
		func(in []int) ([]int, broadcast.AxisMap, error) { return broadcast.Explicit(in, target, mapping) },
		out, st, fails}
}

func pdpdCase(name string, in, target []int, axis int, out, st []int, fails error) ruleCase {
	return ruleCase{name, in,
		func(a *array.Array) (*array.Array, error) { return view.PDPD(a, target, axis) },
		func(in []int) ([]int, broadcast.AxisMap, error) { return broadcast.PDPD(in, target, axis) },
		out, st, fails}
}

func ngraphCase(name string, in, shape, axes, out, st []int, fails error) ruleCase {
	return ruleCase{name, in,
		func(a *array.Array) (*array.Array, error) { return view.NGraph(a, shape, axes) },
		func(in []int) ([]int, broadcast.AxisMap, error) { return broadcast.NGraph(in, shape, axes) },
		out, st, fails}
}

func ints(v ...int) []int { return append([]int{}, v...) }

var ruleCases = []ruleCase{
	// Broadcast-3 examples.
	numpyCase("spec numpy", ints(16, 1, 1), ints(1, 16, 50, 50), ints(1, 16, 50, 50), ints(0, 1, 0, 0), nil),
	explicitCase("spec explicit 1", ints(16), ints(1, 16, 50, 50), ints(1), ints(1, 16, 50, 50), ints(0, 1, 0, 0), nil),
	explicitCase("spec explicit 2", ints(50, 50), ints(1, 50, 50, 16), ints(1, 2), ints(1, 50, 50, 16), ints(0, 50, 1, 0), nil),
	bidiCase("spec bidirectional", ints(16, 1, 1), ints(1, 1, 50, 50), ints(1, 16, 50, 50), ints(0, 1, 0, 0), nil),

	// Numpy, one-directional.
	numpyCase("scalar to scalar", ints(), ints(), ints(), ints(), nil),
	numpyCase("scalar to matrix", ints(), ints(2, 3), ints(2, 3), ints(0, 0), nil),
	numpyCase("row", ints(3), ints(2, 3), ints(2, 3), ints(0, 1), nil),
	numpyCase("column", ints(2, 1), ints(2, 3), ints(2, 3), ints(1, 0), nil),
	numpyCase("same", ints(2, 3), ints(2, 3), ints(2, 3), ints(3, 1), nil),
	numpyCase("to zero", ints(1, 3), ints(0, 3), ints(0, 3), ints(0, 1), nil),
	numpyCase("zero", ints(0), ints(4, 0), ints(4, 0), ints(0, 1), nil),
	numpyCase("mismatch", ints(3), ints(2, 4), nil, nil, broadcast.ErrIncompatible),
	numpyCase("leftmost mismatch", ints(3, 1, 5), ints(4, 4, 5), nil, nil, broadcast.ErrIncompatible),
	numpyCase("target rank too small", ints(2, 3), ints(3), nil, nil, broadcast.ErrRank),
	numpyCase("not bidirectional", ints(3), ints(1), nil, nil, broadcast.ErrIncompatible),
	numpyCase("negative target", ints(3), ints(-1, 3), nil, nil, broadcast.ErrShape),

	// Bidirectional: the output may differ from the target.
	bidiCase("5 and 1", ints(5), ints(1), ints(5), ints(1), nil),
	bidiCase("2,3 and 3", ints(2, 3), ints(3), ints(2, 3), ints(3, 1), nil),
	bidiCase("3,1 and 3,4", ints(3, 1), ints(3, 4), ints(3, 4), ints(1, 0), nil),
	bidiCase("3,4 and scalar", ints(3, 4), ints(), ints(3, 4), ints(4, 1), nil),
	bidiCase("3,1 and 2,1,6", ints(3, 1), ints(2, 1, 6), ints(2, 3, 6), ints(0, 1, 0), nil),
	bidiCase("3 and 4", ints(3), ints(4), nil, nil, broadcast.ErrIncompatible),

	// Explicit.
	explicitCase("scalar", ints(), ints(2, 2), ints(), ints(2, 2), ints(0, 0), nil),
	explicitCase("stretch", ints(1, 3), ints(2, 4, 3), ints(1, 2), ints(2, 4, 3), ints(0, 0, 1), nil),
	explicitCase("unsorted", ints(2, 3), ints(3, 2), ints(1, 0), nil, nil, broadcast.ErrAxes),
	explicitCase("wrong length", ints(2, 3), ints(2, 3), ints(0), nil, nil, broadcast.ErrAxes),
	explicitCase("out of range", ints(3), ints(3), ints(1), nil, nil, broadcast.ErrAxes),
	explicitCase("mismatch", ints(3), ints(4, 4), ints(1), nil, nil, broadcast.ErrIncompatible),

	// PDPD (the Broadcast op form).
	pdpdCase("axis 1", ints(3, 4, 5), ints(2, 3, 4, 5), 1, ints(2, 3, 4, 5), ints(0, 20, 5, 1), nil),
	pdpdCase("axis 1 with 1s", ints(3, 1, 5), ints(2, 3, 4, 5), 1, ints(2, 3, 4, 5), ints(0, 5, 0, 1), nil),
	pdpdCase("default axis", ints(4, 5), ints(2, 3, 4, 5), -1, ints(2, 3, 4, 5), ints(0, 0, 5, 1), nil),
	pdpdCase("scalar", ints(), ints(2, 3), -1, ints(2, 3), ints(0, 0), nil),
	pdpdCase("target 1 takes data dim", ints(3, 4), ints(2, 3, 1), 1, ints(2, 3, 4), ints(0, 4, 1), nil),
	pdpdCase("rank mismatch", ints(3, 4), ints(2, 3, 4, 5), 1, nil, nil, broadcast.ErrRank),
	pdpdCase("mismatch", ints(3, 4), ints(2, 3, 5), 1, nil, nil, broadcast.ErrIncompatible),

	// nGraph.
	ngraphCase("spec rows", ints(3), ints(2, 3), ints(0), ints(2, 3), ints(0, 1), nil),
	ngraphCase("spec columns", ints(3), ints(3, 2), ints(1), ints(3, 2), ints(1, 0), nil),
	ngraphCase("two axes", ints(2, 4), ints(5, 2, 3, 4), ints(2, 0), ints(5, 2, 3, 4), ints(0, 4, 0, 1), nil),
	ngraphCase("no axes", ints(2, 4), ints(2, 4), ints(), ints(2, 4), ints(4, 1), nil),
	ngraphCase("no stretching", ints(1), ints(2, 3), ints(0), nil, nil, broadcast.ErrIncompatible),
	ngraphCase("repeated axis", ints(3), ints(2, 2, 3), ints(0, 0), nil, nil, broadcast.ErrAxes),
	ngraphCase("axis out of range", ints(3), ints(2, 3), ints(2), nil, nil, broadcast.ErrAxes),
}

func TestRuleViews(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			a := arange(t, mem, tc.in...)
			v, err := tc.view(a)
			if tc.out == nil {
				require.Error(t, err)
				assert.Nil(t, v)
				assert.ErrorIs(t, err, tc.fails)
				var be *broadcast.Error
				assert.True(t, errors.As(err, &be))
				assert.True(t, strings.HasPrefix(err.Error(), "view."), err.Error())
				return
			}
			require.NoError(t, err)
			defer v.Release()
			assert.Equal(t, tc.out, v.Shape())
			if tc.st != nil {
				assert.Equal(t, tc.st, v.Strides())
			}
			out, m, err := tc.rule(tc.in)
			require.NoError(t, err)
			checkBroadcast(t, mem, a, out, m, v)
			assert.Equal(t, tc.in, a.Shape(), "input unchanged")
		})
	}
}

// TestNGraphSpecValues is the example of the nGraph page, value by value.
func TestNGraphSpecValues(t *testing.T) {
	mem := checkedMem(t)
	arg, err := array.FromSlice(mem, []int32{10, 20, 30}) // [a b c]
	require.NoError(t, err)
	defer arg.Release()
	rows, err := view.NGraph(arg, []int{2, 3}, []int{0})
	require.NoError(t, err)
	defer rows.Release()
	got, err := array.ToSlice[int32](rows)
	require.NoError(t, err)
	assert.Equal(t, []int32{10, 20, 30, 10, 20, 30}, got)
	cols, err := view.NGraph(arg, []int{3, 2}, []int{1})
	require.NoError(t, err)
	defer cols.Release()
	got, err = array.ToSlice[int32](cols)
	require.NoError(t, err)
	assert.Equal(t, []int32{10, 10, 20, 20, 30, 30}, got)
}

func TestBroadcastGeneral(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 1)
	// Every rule's map goes through Broadcast, the -1 of elementwise pdpd included.
	out, m, err := broadcast.PDPDElementwise([]int{4, 2, 3}, a.Shape(), 1)
	require.NoError(t, err)
	require.Equal(t, broadcast.AxisMap{1, -1}, m)
	v, err := view.Broadcast(a, out, m)
	require.NoError(t, err)
	checkBroadcast(t, mem, a, out, m, v)
	v.Release()

	bad := []struct {
		name string
		out  []int
		m    broadcast.AxisMap
		want error
	}{
		{"short map", []int{2, 3}, broadcast.AxisMap{0}, broadcast.ErrAxes},
		{"decreasing", []int{3, 2}, broadcast.AxisMap{1, 0}, broadcast.ErrAxes},
		{"out of range", []int{2}, broadcast.AxisMap{0, 1}, broadcast.ErrAxes},
		{"dropping a 2", []int{3}, broadcast.AxisMap{-1, 0}, broadcast.ErrAxes},
		{"incompatible", []int{3, 1}, broadcast.AxisMap{0, 1}, broadcast.ErrIncompatible},
		{"negative dim", []int{2, -1}, broadcast.AxisMap{0, 1}, broadcast.ErrShape},
		{"overflow", []int{1 << 40, 1 << 40, 2, 1}, broadcast.AxisMap{2, 3}, broadcast.ErrOverflow},
	}
	for _, tc := range bad {
		v, err := view.Broadcast(a, tc.out, tc.m)
		assert.Nil(t, v, tc.name)
		assert.ErrorIs(t, err, tc.want, tc.name)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "view.Broadcast"), err.Error())
		}
	}
}

func TestMultidirectional(t *testing.T) {
	mem := checkedMem(t)
	a := arange(t, mem, 2, 1, 5)
	b := arange(t, mem, 4, 1)
	c := arange(t, mem)
	vs, err := view.Multidirectional(a, b, c)
	require.NoError(t, err)
	require.Len(t, vs, 3)
	out, maps, err := broadcast.Multidirectional(a.Shape(), b.Shape(), c.Shape())
	require.NoError(t, err)
	for i, x := range []*array.Array{a, b, c} {
		checkBroadcast(t, mem, x, out, maps[i], vs[i])
		vs[i].Release()
	}

	d := arange(t, mem, 3)
	vs, err = view.Multidirectional(a, d)
	assert.Nil(t, vs)
	assert.ErrorIs(t, err, broadcast.ErrIncompatible)
	_, err = view.Multidirectional()
	assert.ErrorIs(t, err, broadcast.ErrShape)
	_, err = view.Multidirectional(a, nil)
	assert.ErrorIs(t, err, array.ErrNil)
}

// TestBroadcastIsFree: a broadcast view allocates no buffer, and the same
// few header allocations whatever its size.
func TestBroadcastIsFree(t *testing.T) {
	mem := checkedMem(t)
	s, err := array.Scalar(mem, 2.5)
	require.NoError(t, err)
	defer s.Release()
	before := mem.CurrentAlloc()

	huge := []int{1 << 20, 1 << 20, 1 << 10}
	v, err := view.BroadcastTo(s, huge)
	require.NoError(t, err)
	assert.Equal(t, before, mem.CurrentAlloc(), "no buffer allocated")
	assert.Equal(t, 1<<50, v.Len())
	assert.Equal(t, 2.5, arraytest.At[float64](t, v, 1<<20-1, 12345, 1023))
	v.Release()

	allocs := func(shape []int) float64 {
		return testing.AllocsPerRun(100, func() {
			v, err := view.BroadcastTo(s, shape)
			if err != nil {
				panic(err)
			}
			v.Release()
		})
	}
	small := allocs([]int{2, 2, 2})
	big := allocs(huge)
	assert.Equal(t, small, big, "allocations do not depend on the size")
	assert.LessOrEqual(t, big, 16.0)
	assert.Equal(t, before, mem.CurrentAlloc())

	row := arange(t, mem, 1000)
	before = mem.CurrentAlloc()
	w, err := view.Explicit(row, []int{1 << 30, 1000, 4}, []int{1})
	require.NoError(t, err)
	assert.Equal(t, before, mem.CurrentAlloc())
	w.Release()
}

func TestBroadcastReadOnlyAndOwnership(t *testing.T) {
	mem := checkedMem(t)
	a, err := array.FromSliceValid(mem, []float32{1, 2, 3}, []bool{true, false, true})
	require.NoError(t, err)
	v, err := view.Numpy(a, []int{2, 3})
	require.NoError(t, err)
	assert.True(t, v.ReadOnly())
	assert.ErrorIs(t, array.Set(v, float32(5), 0, 0), array.ErrReadOnly)
	assert.ErrorIs(t, v.SetNull(0, 0), array.ErrReadOnly)
	assert.True(t, v.HasNulls())
	assert.False(t, arraytest.IsValid(t, v, 1, 1))

	// Writes to the input show through the view.
	require.NoError(t, array.Set(a, float32(7), 0))
	assert.Equal(t, float32(7), arraytest.At[float32](t, v, 1, 0))

	// The view outlives its input.
	a.Release()
	assert.True(t, v.Live())
	assert.Equal(t, []float64{7, 0, 3, 7, 0, 3}, f64s(t, v))
	c, err := array.Copy(mem, v)
	require.NoError(t, err)
	assert.False(t, c.ReadOnly())
	v.Release()
	c.Release()

	// A broadcast to length 1 is writable.
	b := arange(t, mem, 3)
	w, err := view.Numpy(b, []int{1, 3})
	require.NoError(t, err)
	assert.False(t, w.ReadOnly())
	require.NoError(t, array.Set(w, 9.0, 0, 2))
	assert.Equal(t, 9.0, arraytest.At[float64](t, b, 2))
	w.Release()
}

// TestNilAndReleasedInputs: every function of the package returns an error
// wrapping array.ErrNil or array.ErrReleased, naming itself, and no view.
func TestNilAndReleasedInputs(t *testing.T) {
	mem := checkedMem(t)
	released, err := array.New(mem, array.Float64, 1)
	require.NoError(t, err)
	released.Release()

	fns := map[string]func(a *array.Array) (*array.Array, error){
		"Broadcast":     func(a *array.Array) (*array.Array, error) { return view.Broadcast(a, []int{1}, broadcast.AxisMap{0}) },
		"Numpy":         func(a *array.Array) (*array.Array, error) { return view.Numpy(a, []int{1}) },
		"BroadcastTo":   func(a *array.Array) (*array.Array, error) { return view.BroadcastTo(a, []int{1}) },
		"Bidirectional": func(a *array.Array) (*array.Array, error) { return view.Bidirectional(a, []int{1}) },
		"Explicit":      func(a *array.Array) (*array.Array, error) { return view.Explicit(a, []int{1}, []int{0}) },
		"PDPD":          func(a *array.Array) (*array.Array, error) { return view.PDPD(a, []int{1}, -1) },
		"NGraph":        func(a *array.Array) (*array.Array, error) { return view.NGraph(a, []int{1}, nil) },
		"Transpose":     func(a *array.Array) (*array.Array, error) { return view.Transpose(a) },
		"Reshape":       func(a *array.Array) (*array.Array, error) { return view.Reshape(a, 1) },
		"Slice":         func(a *array.Array) (*array.Array, error) { return view.Slice(a) },
		"ExpandDims":    func(a *array.Array) (*array.Array, error) { return view.ExpandDims(a, 0) },
		"Squeeze":       func(a *array.Array) (*array.Array, error) { return view.Squeeze(a) },
		"Multidirectional": func(a *array.Array) (*array.Array, error) {
			vs, err := view.Multidirectional(a)
			if vs != nil {
				return vs[0], err
			}
			return nil, err
		},
	}
	for name, f := range fns {
		for _, tc := range []struct {
			a    *array.Array
			want error
		}{{nil, array.ErrNil}, {released, array.ErrReleased}} {
			var v *array.Array
			var err error
			require.NotPanics(t, func() { v, err = f(tc.a) }, name)
			assert.Nil(t, v, name)
			assert.ErrorIs(t, err, tc.want, name)
			if err != nil {
				assert.True(t, strings.HasPrefix(err.Error(), "view."+name), err.Error())
			}
		}
	}
}

// TestBroadcastOfViews: broadcasting transposed, reversed and masked inputs
// against the naive evaluation.
func TestBroadcastOfViews(t *testing.T) {
	mem := checkedMem(t)
	base, err := array.FromSliceValid(mem, []int16{1, 2, 3, 4, 5, 6}, []bool{true, true, false, true, true, true}, 2, 3)
	require.NoError(t, err)
	defer base.Release()
	tr, err := view.Transpose(base) // [3 2]
	require.NoError(t, err)
	defer tr.Release()
	rev, err := view.Slice(tr, view.Reverse(), view.Reverse())
	require.NoError(t, err)
	defer rev.Release()
	col, err := view.Slice(rev, view.All(), view.Span(1, 2)) // [3 1]
	require.NoError(t, err)
	defer col.Release()

	for _, x := range []*array.Array{tr, rev, col} {
		target := append([]int{4}, x.Shape()...)
		target[len(target)-1] = 2
		out, m, err := broadcast.Numpy(x.Shape(), target)
		require.NoError(t, err)
		v, err := view.Numpy(x, target)
		require.NoError(t, err)
		checkBroadcast(t, mem, x, out, m, v)
		v.Release()
	}
	want, err := naive.Broadcast(mem, col, []int{3, 4}, broadcast.AxisMap{0, 1})
	require.NoError(t, err)
	defer want.Release()
	got, err := array.ToSlice[int16](want)
	require.NoError(t, err)
	// base = [[1 2 _] [4 5 6]] (the null holds 0), rev = [[6 0] [5 2] [4 1]],
	// col = [[0] [2] [1]]
	assert.Equal(t, []int16{0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 1, 1}, got)
	vs, err := array.ValidSlice(want)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, false, false, false, true, true, true, true, true, true, true, true}, vs)
}
