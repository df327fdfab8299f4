package broadcast_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
		is   error
		axis int
	}{
		{"numpy_design_example", second(broadcast.Numpy([]int{3, 1, 5}, []int{4, 4, 5})),
			"broadcast numpy: cannot broadcast [3 1 5] to [4 4 5]: dim 0 is 3, target is 4", broadcast.ErrIncompatible, 0},
		{"numpy_rank", second(broadcast.Numpy([]int{1, 3, 1}, []int{3, 1})),
			"broadcast numpy: cannot broadcast [1 3 1] to [3 1]: target rank 2 is smaller than data rank 3", broadcast.ErrRank, -1},
		{"multidirectional_three", second(broadcast.Multidirectional([]int{2, 1}, []int{3}, []int{4, 1, 2})),
			"broadcast multidirectional: cannot broadcast [2 1], [3] and [4 1 2]: dim 2 is 3 in shape 1 and 2 in shape 2", broadcast.ErrIncompatible, 2},
		{"bidirectional", second(broadcast.Bidirectional([]int{4, 3, 2}, []int{8, 6, 4})),
			"broadcast bidirectional: cannot broadcast [4 3 2] and [8 6 4]: dim 0 is 4 in data and 8 in target", broadcast.ErrIncompatible, 0},
		{"explicit_unsorted", second(broadcast.Explicit([]int{2, 3}, []int{3, 2}, []int{1, 0})),
			"broadcast explicit: cannot broadcast [2 3] to [3 2] with axes_mapping [1 0]: axes_mapping[1] = 0 does not follow axes_mapping[0] = 1 (must be strictly increasing)", broadcast.ErrAxes, 1},
		{"explicit_missing_axes", second(broadcast.Explicit([]int{2}, []int{3, 2}, nil)),
			"broadcast explicit: cannot broadcast [2] to [3 2] with axes_mapping []: axes_mapping has 0 entries, data rank is 1", broadcast.ErrAxes, -1},
		{"explicit_dim", second(broadcast.Explicit([]int{2}, []int{3, 4}, []int{1})),
			"broadcast explicit: cannot broadcast [2] to [3 4] with axes_mapping [1]: data dim 0 is 2, target dim 1 is 4", broadcast.ErrIncompatible, 1},
		{"pdpd", second(broadcast.PDPD([]int{3, 5}, []int{2, 3, 4}, 1)),
			"broadcast pdpd: cannot broadcast [3 5] to [2 3 4]: dim 2 is 5, target is 4 (axis 1)", broadcast.ErrIncompatible, 2},
		{"pdpd_elementwise", second(broadcast.PDPDElementwise([]int{8, 1, 6, 1}, []int{7, 1, 5}, 1)),
			"broadcast pdpd elementwise: cannot broadcast [7 1 5] onto [8 1 6 1]: dim 1 of A is 1, B dim 0 is 7 (only B broadcasts onto A, axis 1)", broadcast.ErrIncompatible, 1},
		{"pdpd_elementwise_axis", second(broadcast.PDPDElementwise([]int{2, 3}, []int{3}, 2)),
			"broadcast pdpd elementwise: cannot broadcast [3] onto [2 3]: B of rank 1 does not fit into A of rank 2 at axis 2", broadcast.ErrAxes, -1},
		{"none", second(broadcast.None([]int{2, 3}, []int{2, 4})),
			"broadcast none: shapes [2 3] and [2 4] must be equal: dim 1 is 3 in shape 0 and 4 in shape 1", broadcast.ErrIncompatible, 1},
		{"ngraph", second(broadcast.NGraph([]int{1}, []int{2, 3}, []int{0})),
			"broadcast ngraph: cannot broadcast [1] to [2 3] with broadcast_axes [0]: arg dim 0 is 1, shape dim 1 is 3", broadcast.ErrIncompatible, 1},
		{"adjoint", errOf(broadcast.Adjoint([]int{3}, []int{2, 4}, broadcast.AxisMap{1})),
			"broadcast adjoint: invalid broadcast of [3] to [2 4] through axis map [1]: input dim 0 is 3, output dim 1 is 4", broadcast.ErrIncompatible, 1},
		{"reduce_to", errOf(broadcast.ReduceTo([]int{2, 4}, []int{3})),
			"broadcast reduce to: cannot reduce [2 4] to [3]: dim 1 is 3, target is 4", broadcast.ErrIncompatible, 1},
		{"strides", errOf(broadcast.Strides([]int{3}, []int{1, 1}, []int{2, 3}, broadcast.AxisMap{1})),
			"broadcast strides: invalid broadcast of [3] to [2 3] through axis map [1]: 2 strides [1 1] for an input of rank 1", broadcast.ErrShape, -1},
		{"size", errOf(broadcast.Size([]int{math.MaxInt, 2})),
			"broadcast size: shape [9223372036854775807 2]: the product overflows at dim 1", broadcast.ErrOverflow, 1},
		{"negative", second(broadcast.Numpy([]int{-1}, []int{2})),
			"broadcast numpy: cannot broadcast [-1] to [2]: data dim 0 is negative (-1)", broadcast.ErrShape, 0},
		{"partial", errOf(broadcast.InferMultidirectional(ps(iv(2, 3), q), ps(iv(4, 7), st(1)))),
			"broadcast multidirectional: cannot broadcast [2..3 ?] and [4..7 1]: dim 0 is 2..3 in the shapes before and 4..7 in shape 1", broadcast.ErrIncompatible, 0},
		{"partial_explicit", errOf(broadcast.InferExplicit(ps(q, q), dyn, []int{0})),
			"broadcast explicit: cannot broadcast [? ?] to [...] with axes_mapping [0]: axes_mapping has 1 entries, data rank is 2", broadcast.ErrAxes, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			assert.Equal(t, tc.want, tc.err.Error())
			assert.ErrorIs(t, tc.err, tc.is)
			var be *broadcast.Error
			require.ErrorAs(t, tc.err, &be)
			assert.Equal(t, tc.axis, be.Axis)
			// errors.Is and errors.As see through wrapping.
			wrapped := fmt.Errorf("expr: Add: %w", tc.err)
			assert.ErrorIs(t, wrapped, tc.is)
			var be2 *broadcast.Error
			require.ErrorAs(t, wrapped, &be2)
			assert.Same(t, be, be2)
		})
	}
}

func second[A, B any](_ A, _ B, err error) error { return err }

func errOf[A any](_ A, err error) error { return err }

// The shapes an error carries are copies.
func TestErrorCopiesShapes(t *testing.T) {
	data, target := []int{3}, []int{2}
	_, _, err := broadcast.Numpy(data, target)
	var be *broadcast.Error
	require.ErrorAs(t, err, &be)
	assert.Equal(t, [][]int{{3}, {2}}, be.Shapes)
	data[0], target[0] = 7, 7
	assert.Equal(t, [][]int{{3}, {2}}, be.Shapes)
	assert.Nil(t, be.Partial)

	_, err = broadcast.InferNumpy(broadcast.StaticShape(3), broadcast.StaticShape(2))
	require.ErrorAs(t, err, &be)
	assert.Equal(t, [][]int{{3}, {2}}, be.Shapes, "all-static partial shapes are also given as static")
	assert.Len(t, be.Partial, 2)
	_, err = broadcast.InferNone(ps(q), ps(q, q))
	require.ErrorAs(t, err, &be)
	assert.Nil(t, be.Shapes)
	assert.Equal(t, "broadcast none: shapes [?] and [? ?] must be equal: shape 1 has rank 2, the shapes before have rank 1", err.Error())
}

// Every sentinel is distinct and *Error is only ever returned as a pointer.
func TestSentinels(t *testing.T) {
	all := []error{broadcast.ErrIncompatible, broadcast.ErrRank, broadcast.ErrAxes, broadcast.ErrShape, broadcast.ErrOverflow}
	for i, a := range all {
		for j, b := range all {
			assert.Equal(t, i == j, errors.Is(a, b))
		}
	}
	var e error = &broadcast.Error{Rule: "x", Err: broadcast.ErrShape, Axis: -1}
	assert.ErrorIs(t, e, broadcast.ErrShape)
	assert.Equal(t, "broadcast x: cannot broadcast ? to ?", e.Error())
}
