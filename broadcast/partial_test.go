package broadcast_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

// Partial-shape shorthands: q is "?", iv an interval, st a static dim.
var q = broadcast.UnknownDim()

func iv(lo, hi int) broadcast.Dim { return broadcast.IntervalDim(lo, hi) }
func st(n int) broadcast.Dim      { return broadcast.StaticDim(n) }

func ps(dims ...broadcast.Dim) broadcast.Shape {
	if dims == nil {
		dims = []broadcast.Dim{}
	}
	return broadcast.Shape{Dims: dims, RankKnown: true}
}

var dyn = broadcast.DynamicShape()

// unknownValue is a target of n elements whose values are unknown.
func unknownValue(n int) broadcast.Shape {
	d := make([]broadcast.Dim, n)
	for i := range d {
		d[i] = q
	}
	return ps(d...)
}

func TestDim(t *testing.T) {
	assert.Equal(t, "5", st(5).String())
	assert.Equal(t, "?", q.String())
	assert.Equal(t, "2..7", iv(2, 7).String())
	assert.Equal(t, "6..?", iv(6, -1).String())
	assert.Equal(t, "0..6", iv(-1, 6).String())
	assert.Equal(t, "3", iv(3, 3).String())
	assert.Equal(t, "invalid(5..2)", iv(5, 2).String())
	assert.True(t, iv(3, 3).IsStatic())
	assert.False(t, q.IsStatic())
	assert.False(t, broadcast.Dim{Lo: -1, Hi: -1}.IsStatic())
	assert.True(t, q.Contains(0))
	assert.True(t, iv(6, -1).Contains(1<<62))
	assert.False(t, iv(2, 7).Contains(1))
	assert.False(t, iv(5, 2).Contains(3))
	assert.Equal(t, "[2 ? 3..5]", ps(st(2), q, iv(3, 5)).String())
	assert.Equal(t, "[]", ps().String())
	assert.Equal(t, "[...]", dyn.String())
	s, ok := ps(st(2), st(0)).Static()
	assert.True(t, ok)
	assert.Equal(t, []int{2, 0}, s)
	_, ok = ps(st(2), q).Static()
	assert.False(t, ok)
	_, ok = dyn.Static()
	assert.False(t, ok)
	assert.Equal(t, ps(st(1), st(2)), broadcast.StaticShape(1, 2))
}

// The examples of Dimension::broadcast_merge in the conformance README.
func TestBroadcastMerge(t *testing.T) {
	for _, tc := range []struct {
		a, b, want broadcast.Dim
		ok         bool
	}{
		{q, st(5), st(5), true},
		{q, q, q, true},
		{iv(1, 3), iv(2, 7), iv(2, 7), true},
		{iv(1, 6), st(1), iv(1, 6), true},
		{st(1), st(0), st(0), true},
		{st(3), st(4), broadcast.Dim{}, false},
		{iv(0, 6), iv(2, -1), iv(2, -1), true},
		{iv(0, 6), iv(1, -1), iv(0, -1), true},
		{iv(2, 4), iv(3, 8), iv(3, 4), true},
		{iv(2, 4), iv(5, 8), broadcast.Dim{}, false},
		{iv(2, 4), q, iv(2, 4), true},
		{st(1), st(1), st(1), true},
		{iv(5, 2), st(1), broadcast.Dim{}, false},
	} {
		got, ok := broadcast.BroadcastMerge(tc.a, tc.b)
		assert.Equal(t, tc.ok, ok, "%v x %v", tc.a, tc.b)
		if ok {
			assert.Equal(t, tc.want, got, "%v x %v", tc.a, tc.b)
		}
		got, ok = broadcast.BroadcastMerge(tc.b, tc.a)
		assert.Equal(t, tc.ok, ok, "%v x %v", tc.b, tc.a)
		if ok {
			assert.Equal(t, tc.want, got, "%v x %v", tc.b, tc.a)
		}
	}
	m, ok := broadcast.MergeDim(iv(1, 6), st(1))
	assert.True(t, ok)
	assert.Equal(t, st(1), m)
	_, ok = broadcast.MergeDim(st(3), iv(4, -1))
	assert.False(t, ok)
	m, ok = broadcast.MergeDim(iv(4, -1), iv(2, 9))
	assert.True(t, ok)
	assert.Equal(t, iv(4, 9), m)
}

type inferCase struct {
	name string
	run  func() (broadcast.Shape, error)
	want broadcast.Shape
	err  error
}

func TestInfer(t *testing.T) {
	cases := []inferCase{
		// Subtlety 1: a bidirectional target of smaller rank is padded.
		{"subtlety1/bidirectional_smaller_target", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(1, 3, 1), broadcast.StaticShape(3, 1))
		}, broadcast.StaticShape(1, 3, 1), nil},
		{"subtlety1/bidirectional_eight_ones", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(1, 1, 1, 1, 1, 1, 1, 1), broadcast.StaticShape(1, 3, 1, 1))
		}, broadcast.StaticShape(1, 1, 1, 1, 1, 3, 1, 1), nil},
		{"subtlety1/numpy_smaller_target", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(broadcast.StaticShape(1, 3, 1), broadcast.StaticShape(3, 1))
		}, broadcast.Shape{}, broadcast.ErrRank},
		// Subtlety 2: type_prop's {1} -> [0] is {0}.
		{"subtlety2/bidirectional_zero", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(1), broadcast.StaticShape(0))
		}, broadcast.StaticShape(0), nil},
		// Subtlety 3: explicit stretches a data dim of 1.
		{"subtlety3/explicit_stretch", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(broadcast.StaticShape(3, 1), broadcast.StaticShape(2, 3, 3), []int{1, 2})
		}, broadcast.StaticShape(2, 3, 3), nil},
		// Subtlety 4: checks need every piece.
		{"subtlety4/explicit_unsorted_unknown_target", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(q, q, q, q), unknownValue(4), []int{0, 2, 1, 3})
		}, unknownValue(4), nil},
		{"subtlety4/explicit_unsorted_dynamic_data", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(dyn, broadcast.StaticShape(3, 4, 5), []int{0, 2, 1})
		}, broadcast.StaticShape(3, 4, 5), nil},
		{"subtlety4/explicit_unsorted_known_target", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(q, q, q, q), broadcast.StaticShape(1, 1, 5, 10), []int{0, 2, 1, 3})
		}, broadcast.Shape{}, broadcast.ErrAxes},
		{"subtlety4/numpy_interval_data", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(ps(iv(4, 8), iv(2, 4)), ps(st(1), iv(5, 6)))
		}, ps(st(1), iv(5, 6)), nil},
		// Subtlety 5: broadcast pdpd grows a target 1, and checks ranks.
		{"subtlety5/pdpd_grows_target_one", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(broadcast.StaticShape(3, 5), broadcast.StaticShape(2, 3, 1), 1)
		}, broadcast.StaticShape(2, 3, 5), nil},
		{"subtlety5/pdpd_short_data", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(broadcast.StaticShape(3), broadcast.StaticShape(2, 3, 6), 1)
		}, broadcast.Shape{}, broadcast.ErrRank},
		// Subtlety 6: elementwise pdpd.
		{"subtlety6/axis_resolved_untrimmed", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 3, 4, 5), broadcast.StaticShape(4, 1), -1)
		}, broadcast.StaticShape(2, 3, 4, 5), nil},
		{"subtlety6/A_not_broadcast", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 3, 4, 1), broadcast.StaticShape(2, 3, 4, 5), -1)
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"subtlety6/axis_below_minus_one", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 3), broadcast.StaticShape(3), -2)
		}, broadcast.Shape{}, broadcast.ErrAxes},
		{"subtlety6/dynamic_B_replaces_A_one", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 1), ps(q), -1)
		}, ps(st(2), q), nil},
		{"pdpd_elementwise/dynamic_rank_A", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(dyn, broadcast.StaticShape(3), -1)
		}, dyn, nil},
		{"pdpd_elementwise/dynamic_rank_B", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(broadcast.StaticShape(2, 3), dyn, -1)
		}, broadcast.StaticShape(2, 3), nil},
		{"pdpd_elementwise/interval_A", func() (broadcast.Shape, error) {
			return broadcast.InferPDPDElementwise(ps(st(2), iv(1, 3)), ps(st(2)), -1)
		}, broadcast.StaticShape(2, 2), nil},

		// Broadcast-3 bidirectional type_prop cases (OpenVINO broadcast.cpp).
		{"bidirectional/rank_from_arg", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(ps(q, q, q, q), broadcast.StaticShape(8, 6, 4))
		}, ps(q, st(8), st(6), st(4)), nil},
		{"bidirectional/rank_from_target", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(ps(q, q, q, q), broadcast.StaticShape(8, 6, 1, 5, 1))
		}, ps(st(8), st(6), q, st(5), q), nil},
		{"bidirectional/dynamic_data_constant_target", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(dyn, broadcast.StaticShape(2, 4, 6))
		}, dyn, nil},
		{"bidirectional/unknown_target_length", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(1, 2, 3, 4), dyn)
		}, dyn, nil},
		{"bidirectional/unknown_target_value", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(1, 2, 3, 4), unknownValue(4))
		}, ps(q, st(2), st(3), st(4)), nil},
		{"bidirectional/partial_data", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(ps(q, st(1), q), broadcast.StaticShape(1, 1, 50, 50))
		}, ps(st(1), q, st(50), st(50)), nil},
		{"bidirectional/incorrect_target", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(broadcast.StaticShape(4, 3, 2), broadcast.StaticShape(8, 6, 4))
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"bidirectional/intervals", func() (broadcast.Shape, error) {
			return broadcast.InferBidirectional(ps(iv(1, 3), iv(2, 7), q), ps(iv(2, 7), st(1), iv(0, 6)))
		}, ps(iv(2, 7), iv(2, 7), q), nil},

		// Broadcast numpy.
		{"numpy/static_dims_incorrect", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(ps(q, st(999), st(3), st(4)), broadcast.StaticShape(1, 2, 3, 4))
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"numpy/dynamic_dims_ok", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(ps(q, st(2), st(3), q), broadcast.StaticShape(1, 2, 3, 4))
		}, broadcast.StaticShape(1, 2, 3, 4), nil},
		{"numpy/unknown_target_value", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(broadcast.StaticShape(3, 4, 5), unknownValue(2))
		}, unknownValue(2), nil},
		{"numpy/unknown_target_length", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(broadcast.StaticShape(3), dyn)
		}, dyn, nil},
		{"numpy/dynamic_data", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(dyn, ps(st(2), q))
		}, ps(st(2), q), nil},

		// Explicit.
		{"explicit/unknown_axes", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(broadcast.StaticShape(7), broadcast.StaticShape(2, 3), nil)
		}, broadcast.StaticShape(2, 3), nil},
		{"explicit/axes_length", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(q, q), unknownValue(3), []int{0})
		}, broadcast.Shape{}, broadcast.ErrAxes},
		{"explicit/scalar_target_dim_interval", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(), ps(st(3), iv(0, 2)), []int{1})
		}, ps(st(3), iv(0, 2)), nil},
		{"explicit/scalar_target_dim_not_one", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(), ps(st(3), iv(2, 5)), []int{1})
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"explicit/interval_data_may_be_one", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(iv(0, 4)), broadcast.StaticShape(2, 9), []int{1})
		}, broadcast.StaticShape(2, 9), nil},
		{"explicit/interval_mismatch", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(iv(2, 4)), broadcast.StaticShape(2, 9), []int{1})
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"explicit/out_of_range", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(q), broadcast.StaticShape(2, 9), []int{2})
		}, broadcast.Shape{}, broadcast.ErrAxes},
		{"explicit/dynamic_target", func() (broadcast.Shape, error) {
			return broadcast.InferExplicit(ps(q), dyn, []int{5})
		}, dyn, nil},

		// Broadcast pdpd.
		{"pdpd/v1_pdpd", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(broadcast.StaticShape(3, 1), broadcast.StaticShape(2, 3, 6), 1)
		}, broadcast.StaticShape(2, 3, 6), nil},
		{"pdpd/dynamic_data", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(dyn, broadcast.StaticShape(2, 3, 6), 1)
		}, unknownValue(3), nil},
		{"pdpd/unknown_target_value", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(broadcast.StaticShape(3, 1), unknownValue(3), 1)
		}, unknownValue(3), nil},
		{"pdpd/partial", func() (broadcast.Shape, error) {
			return broadcast.InferPDPD(ps(q, st(1), iv(2, 8)), ps(st(5), iv(3, 4), st(7), iv(4, 10)), -1)
		}, ps(st(5), iv(3, 4), st(7), iv(4, 8)), nil},

		// Elementwise numpy and none.
		{"multidirectional/dynamic_rank", func() (broadcast.Shape, error) {
			return broadcast.InferMultidirectional(broadcast.StaticShape(2, 3), dyn)
		}, dyn, nil},
		{"multidirectional/intervals", func() (broadcast.Shape, error) {
			return broadcast.InferMultidirectional(ps(iv(1, 3), st(1), q), ps(iv(2, 7), iv(1, 6), st(5)))
		}, ps(iv(2, 7), iv(1, 6), st(5)), nil},
		{"multidirectional/interval_mismatch", func() (broadcast.Shape, error) {
			return broadcast.InferMultidirectional(ps(iv(2, 3)), ps(iv(4, 7)))
		}, broadcast.Shape{}, broadcast.ErrIncompatible},
		{"multidirectional/three", func() (broadcast.Shape, error) {
			return broadcast.InferMultidirectional(ps(st(3), st(1)), ps(st(4)), ps(st(2), st(1), st(1)))
		}, broadcast.StaticShape(2, 3, 4), nil},
		{"none/intersect", func() (broadcast.Shape, error) {
			return broadcast.InferNone(ps(iv(1, 3), q), ps(iv(2, 7), st(4)))
		}, ps(iv(2, 3), st(4)), nil},
		{"none/dynamic_first", func() (broadcast.Shape, error) {
			return broadcast.InferNone(dyn, ps(st(2), q))
		}, ps(st(2), q), nil},
		{"none/rank", func() (broadcast.Shape, error) {
			return broadcast.InferNone(ps(st(2), q), ps(q))
		}, broadcast.Shape{}, broadcast.ErrRank},
		{"none/disjoint", func() (broadcast.Shape, error) {
			return broadcast.InferNone(ps(iv(1, 3)), ps(iv(4, 7)))
		}, broadcast.Shape{}, broadcast.ErrIncompatible},

		// nGraph.
		{"ngraph/partial_arg", func() (broadcast.Shape, error) {
			return broadcast.InferNGraph(ps(q, iv(2, 5)), ps(st(2), st(3), q), []int{1})
		}, ps(st(2), st(3), iv(2, 5)), nil},
		{"ngraph/dynamic_arg", func() (broadcast.Shape, error) {
			return broadcast.InferNGraph(dyn, broadcast.StaticShape(2, 3), []int{1})
		}, broadcast.StaticShape(2, 3), nil},
		{"ngraph/axis_out_of_range", func() (broadcast.Shape, error) {
			return broadcast.InferNGraph(dyn, broadcast.StaticShape(2, 3), []int{2})
		}, broadcast.Shape{}, broadcast.ErrAxes},
		{"ngraph/no_stretch", func() (broadcast.Shape, error) {
			return broadcast.InferNGraph(ps(st(1)), broadcast.StaticShape(2, 3), []int{0})
		}, broadcast.Shape{}, broadcast.ErrIncompatible},

		// Invalid dims.
		{"invalid/interval", func() (broadcast.Shape, error) {
			return broadcast.InferMultidirectional(ps(iv(5, 2)))
		}, broadcast.Shape{}, broadcast.ErrShape},
		{"invalid/negative_static", func() (broadcast.Shape, error) {
			return broadcast.InferNumpy(broadcast.StaticShape(-3), broadcast.StaticShape(3))
		}, broadcast.Shape{}, broadcast.ErrShape},
		{"invalid/no_shapes", func() (broadcast.Shape, error) {
			return broadcast.InferNone()
		}, broadcast.Shape{}, broadcast.ErrShape},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.run()
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				assert.NotContains(t, err.Error(), "%!")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want.String(), got.String())
			assert.Equal(t, tc.want.RankKnown, got.RankKnown)
		})
	}
}

func TestBidirectionalAxes(t *testing.T) {
	for _, tc := range []struct {
		data, target []int
		want         []int
	}{
		{[]int{1, 4, 1}, []int{1, 4}, []int{2}},
		{[]int{3, 1}, []int{2, 1, 6}, []int{0, 2}},
		{[]int{2, 1}, []int{2, 4}, []int{1}},
		{[]int{1, 3, 1}, []int{3, 1}, []int{}},
		{[]int{16, 1, 1}, []int{1, 1, 50, 50}, []int{0, 2, 3}},
		{[]int{1, 3, 1}, []int{3, 1, 3}, []int{0, 2}},
		{[]int{1}, []int{0}, []int{0}}, // subtlety 2
	} {
		axes, known, err := broadcast.BidirectionalAxes(broadcast.StaticShape(tc.data...), broadcast.StaticShape(tc.target...))
		require.NoError(t, err)
		assert.True(t, known)
		assert.Equal(t, tc.want, axes, "%v %v", tc.data, tc.target)
	}
	_, known, err := broadcast.BidirectionalAxes(ps(q), broadcast.StaticShape(2))
	require.NoError(t, err)
	assert.False(t, known)
	_, _, err = broadcast.BidirectionalAxes(broadcast.StaticShape(3), broadcast.StaticShape(2))
	assert.ErrorIs(t, err, broadcast.ErrIncompatible)
}

// Inference never keeps or changes its arguments.
func TestInferDoesNotAlias(t *testing.T) {
	data, target := broadcast.StaticShape(3, 1), broadcast.StaticShape(2, 3, 4)
	out, err := broadcast.InferNumpy(data, target)
	require.NoError(t, err)
	out.Dims[0] = st(9)
	assert.Equal(t, st(2), target.Dims[0])
	out, err = broadcast.InferNone(target)
	require.NoError(t, err)
	out.Dims[0] = st(9)
	assert.Equal(t, st(2), target.Dims[0])
}
