package broadcast_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

// specCase is one example of a specification document (see
// ../../shared/spec): the rule, its inputs, and either the output shape or
// the sentinel the rule must fail with.
type specCase struct {
	name string
	run  func() ([]int, error)
	want []int
	err  error // nil: success
}

func numpyCase(name string, data, target, want []int) specCase {
	return specCase{name: name, want: want, run: func() ([]int, error) {
		out, _, err := broadcast.Numpy(data, target)
		return out, err
	}}
}

func multiCase(name string, a, b, want []int, err error) specCase {
	return specCase{name: name, want: want, err: err, run: func() ([]int, error) {
		out, _, err := broadcast.Multidirectional(a, b)
		return out, err
	}}
}

func explicitCase(name string, data, target, axes, want []int) specCase {
	return specCase{name: name, want: want, run: func() ([]int, error) {
		out, _, err := broadcast.Explicit(data, target, axes)
		return out, err
	}}
}

func bidiCase(name string, data, target, want []int) specCase {
	return specCase{name: name, want: want, run: func() ([]int, error) {
		out, _, err := broadcast.Bidirectional(data, target)
		return out, err
	}}
}

func pdpdCase(name string, a, b []int, axis int, want []int, err error) specCase {
	return specCase{name: name, want: want, err: err, run: func() ([]int, error) {
		out, _, err := broadcast.PDPDElementwise(a, b, axis)
		return out, err
	}}
}

func ngraphCase(name string, arg, shape, axes, want []int) specCase {
	return specCase{name: name, want: want, run: func() ([]int, error) {
		out, _, err := broadcast.NGraph(arg, shape, axes)
		return out, err
	}}
}

// s is a shape literal; s() is the scalar.
func s(d ...int) []int {
	if d == nil {
		return []int{}
	}
	return d
}

var specCases = []specCase{
	// 000: OpenVINO Broadcast-3 specification (HTML), its four IR examples
	// and the two examples of the detailed description.
	numpyCase("000/example1_numpy", s(16, 1, 1), s(1, 16, 50, 50), s(1, 16, 50, 50)),
	explicitCase("000/example2_explicit", s(16), s(1, 16, 50, 50), s(1), s(1, 16, 50, 50)),
	explicitCase("000/example3_explicit", s(50, 50), s(1, 50, 50, 16), s(1, 2), s(1, 50, 50, 16)),
	bidiCase("000/example4_bidirectional", s(16, 1, 1), s(1, 1, 50, 50), s(1, 16, 50, 50)),
	explicitCase("000/description_C_to_NCHW", s(3), s(2, 3, 4, 5), s(1), s(2, 3, 4, 5)),
	explicitCase("000/description_HW_to_NHWC", s(4, 5), s(2, 4, 5, 3), s(1, 2), s(2, 4, 5, 3)),
	// 001: the same specification as Markdown (flattened examples).
	numpyCase("001/example1_numpy", s(16, 1, 1), s(1, 16, 50, 50), s(1, 16, 50, 50)),
	explicitCase("001/example2_explicit", s(16), s(1, 16, 50, 50), s(1), s(1, 16, 50, 50)),
	explicitCase("001/example3_explicit", s(50, 50), s(1, 50, 50, 16), s(1, 2), s(1, 50, 50, 16)),
	bidiCase("001/example4_bidirectional", s(16, 1, 1), s(1, 1, 50, 50), s(1, 16, 50, 50)),

	// 002: ONNX Broadcasting.md.
	multiCase("002/multidirectional_1_scalar", s(2, 3, 4, 5), s(), s(2, 3, 4, 5), nil),
	multiCase("002/multidirectional_2", s(2, 3, 4, 5), s(5), s(2, 3, 4, 5), nil),
	multiCase("002/multidirectional_3", s(4, 5), s(2, 3, 4, 5), s(2, 3, 4, 5), nil),
	multiCase("002/multidirectional_4", s(1, 4, 5), s(2, 3, 1, 1), s(2, 3, 4, 5), nil),
	multiCase("002/multidirectional_5", s(3, 4, 5), s(2, 1, 1, 1), s(2, 3, 4, 5), nil),
	// Unidirectional: B broadcasts to A, so Numpy(B, A).
	numpyCase("002/unidirectional_1_scalar", s(), s(2, 3, 4, 5), s(2, 3, 4, 5)),
	numpyCase("002/unidirectional_2", s(5), s(2, 3, 4, 5), s(2, 3, 4, 5)),
	numpyCase("002/unidirectional_3", s(2, 1, 1, 5), s(2, 3, 4, 5), s(2, 3, 4, 5)),
	numpyCase("002/unidirectional_4", s(1, 3, 1, 5), s(2, 3, 4, 5), s(2, 3, 4, 5)),

	// 003: nGraph Broadcast(arg, shape, broadcast_axes).
	ngraphCase("003/shape_2x3_axes_0", s(3), s(2, 3), s(0), s(2, 3)),
	ngraphCase("003/shape_3x2_axes_1", s(3), s(3, 2), s(1), s(3, 2)),
	ngraphCase("003/definition_axes_1_3", s(2, 4, 6), s(2, 3, 4, 5, 6), s(1, 3), s(2, 3, 4, 5, 6)),

	// 004: OpenVINO broadcast rules for elementwise operations.
	multiCase("004/numpy_1_scalars", s(), s(), s(), nil),
	multiCase("004/numpy_2", s(2, 3), s(1), s(2, 3), nil),
	multiCase("004/numpy_3", s(3), s(2, 3), s(2, 3), nil),
	multiCase("004/numpy_4", s(2, 3, 5), s(), s(2, 3, 5), nil),
	multiCase("004/numpy_5", s(2, 1, 5), s(1, 4, 5), s(2, 4, 5), nil),
	multiCase("004/numpy_6", s(6, 5), s(2, 1, 5), s(2, 6, 5), nil),
	multiCase("004/numpy_7", s(2, 1, 5), s(4, 1), s(2, 4, 5), nil),
	multiCase("004/numpy_8", s(3, 2, 1, 4), s(5, 4), s(3, 2, 5, 4), nil),
	multiCase("004/numpy_9", s(1, 5, 3), s(5, 2, 1, 3), s(5, 2, 5, 3), nil),
	multiCase("004/numpy_10_mismatch", s(3), s(2), nil, broadcast.ErrIncompatible),
	multiCase("004/numpy_11_mismatch_leftmost", s(3, 1, 5), s(4, 4, 5), nil, broadcast.ErrIncompatible),
	pdpdCase("004/pdpd_1", s(2, 3, 4, 5), s(3, 4), 1, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_2_trailing_one", s(2, 3, 4, 5), s(3, 1), 1, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_3_default_axis", s(2, 3, 4, 5), s(4, 5), -1, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_3_axis_2", s(2, 3, 4, 5), s(4, 5), 2, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_4", s(2, 3, 4, 5), s(1, 3), 0, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_5_scalar", s(2, 3, 4, 5), s(), -1, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_6", s(2, 3, 4, 5), s(5), -1, s(2, 3, 4, 5), nil),
	pdpdCase("004/pdpd_6_axis_3", s(2, 3, 4, 5), s(5), 3, s(2, 3, 4, 5), nil),
	// From the current rst page (conformance case doc/broadcast_rules/pdpd/mismatch).
	pdpdCase("004/pdpd_mismatch_only_B_to_A", s(8, 1, 6, 1), s(7, 1, 5), 1, nil, broadcast.ErrIncompatible),
	bidiCase("004/bidirectional_1", s(5), s(1), s(5)),
	bidiCase("004/bidirectional_2", s(2, 3), s(3), s(2, 3)),
	bidiCase("004/bidirectional_3", s(3, 1), s(3, 4), s(3, 4)),
	bidiCase("004/bidirectional_4_scalar_target", s(3, 4), s(), s(3, 4)),
	bidiCase("004/bidirectional_5", s(3, 1), s(2, 1, 6), s(2, 3, 6)),
	{name: "004/none_equal", want: s(2, 3), run: func() ([]int, error) {
		out, _, err := broadcast.None(s(2, 3), s(2, 3))
		return out, err
	}},
	{name: "004/none_mismatch", err: broadcast.ErrIncompatible, run: func() ([]int, error) {
		out, _, err := broadcast.None(s(2, 3), s(2, 1))
		return out, err
	}},
}

func TestSpecExamples(t *testing.T) {
	for _, tc := range specCases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.run()
			if tc.err != nil {
				require.Error(t, err)
				assert.ErrorIs(t, err, tc.err)
				var be *broadcast.Error
				require.ErrorAs(t, err, &be)
				for _, sh := range be.Shapes {
					assert.Contains(t, err.Error(), fmt.Sprint(sh))
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}

// The nGraph document defines output[C] = arg[p(C)], p removing the
// broadcast axes, and the adjoint Sum(delta, broadcast_axes).
func TestSpecNGraphDefinition(t *testing.T) {
	arg, shape, axes := s(2, 4, 6), s(2, 3, 4, 5, 6), s(1, 3)
	out, m, err := broadcast.NGraph(arg, shape, axes)
	require.NoError(t, err)
	assert.Equal(t, broadcast.AxisMap{0, 2, 4}, m)
	st, err := broadcast.Strides(arg, s(24, 6, 1), out, m)
	require.NoError(t, err)
	assert.Equal(t, s(24, 0, 6, 0, 1), st)
	// p([d0 d1 d2 d3 d4]) = [d0 d2 d4].
	c := s(1, 2, 3, 4, 5)
	off := 0
	for i := range c {
		off += c[i] * st[i]
	}
	assert.Equal(t, 1*24+3*6+5, off)
	sum, err := broadcast.Adjoint(arg, out, m)
	require.NoError(t, err)
	assert.Equal(t, axes, sum)

	// Broadcast(arg, Shape{2, 3}, AxisSet{0}) = [[a b c] [a b c]];
	// Broadcast(arg, Shape{3, 2}, AxisSet{1}) = [[a a] [b b] [c c]].
	vals := []string{"a", "b", "c"}
	for _, tc := range []struct {
		shape, axes []int
		want        [][]string
	}{
		{s(2, 3), s(0), [][]string{{"a", "b", "c"}, {"a", "b", "c"}}},
		{s(3, 2), s(1), [][]string{{"a", "a"}, {"b", "b"}, {"c", "c"}}},
	} {
		out, m, err := broadcast.NGraph(s(3), tc.shape, tc.axes)
		require.NoError(t, err)
		st, err := broadcast.Strides(s(3), s(1), out, m)
		require.NoError(t, err)
		got := make([][]string, out[0])
		for i := range got {
			got[i] = make([]string, out[1])
			for j := range got[i] {
				got[i][j] = vals[i*st[0]+j*st[1]]
			}
		}
		assert.Equal(t, tc.want, got)
	}
}

// The elementwise pdpd examples keep A's shape and give B's map; the
// trailing 1 of B = (3, 1) is ignored.
func TestSpecPDPDMaps(t *testing.T) {
	_, m, err := broadcast.PDPDElementwise(s(2, 3, 4, 5), s(3, 1), 1)
	require.NoError(t, err)
	assert.Equal(t, broadcast.AxisMap{1, -1}, m)
	_, m, err = broadcast.PDPDElementwise(s(2, 3, 4, 5), s(1, 3), 0)
	require.NoError(t, err)
	assert.Equal(t, broadcast.AxisMap{0, 1}, m)
	st, err := broadcast.Strides(s(1, 3), s(3, 1), s(2, 3, 4, 5), m)
	require.NoError(t, err)
	assert.Equal(t, s(0, 1, 0, 0), st)
}

func TestSpecErrorsAreTyped(t *testing.T) {
	_, _, err := broadcast.Multidirectional(s(3, 1, 5), s(4, 4, 5))
	var be *broadcast.Error
	require.True(t, errors.As(err, &be))
	assert.Equal(t, 0, be.Axis)
	assert.Equal(t, "broadcast multidirectional: cannot broadcast [3 1 5] and [4 4 5]: dim 0 is 3 in shape 0 and 4 in shape 1", err.Error())
}
