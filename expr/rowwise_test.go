package expr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

// TestRowWise: which expressions keep the rows on axis 0, element by
// element, and which mix them.
func TestRowWise(t *testing.T) {
	rows := broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(3), broadcast.StaticDim(4)}, RankKnown: true}
	x := Var("x", array.Float32, rows)
	y := Var("y", array.Int32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
	one, err := array.FromSlice(nil, []float32{1, 2, 3, 4}, 1, 1, 4)
	require.NoError(t, err)
	many, err := array.FromSlice(nil, make([]float32, 24), 2, 3, 4)
	require.NoError(t, err)
	row, err := array.FromSlice(nil, []float32{1, 2, 3, 4})
	require.NoError(t, err)
	ok := map[string]*Node{
		"var":              x,
		"elementwise":      Mul(Sub(x, Leaf(row)), Scalar(2, array.Float32)),
		"leaf of one row":  Add(x, Leaf(one)),
		"where":            Where(Greater(x, Const(0)), x, Leaf(row)),
		"reduce axis 1":    ReduceSum(x, []int{1}, false),
		"var axis 2":       ReduceVar(x, []int{-1}, 1, false),
		"cast, abs":        Abs(Cast(y, array.Float64)),
		"two variables":    Add(ReduceMean(x, []int{1, 2}, false), y),
		"cumsum over axis": Cumsum(x, []int{2}),
		"argmax axis 2":    Argmax(x, []int{2}, true),
		"constant subtree": Mul(x, Where(Greater(Leaf(row), Const(0)), Leaf(row), Const(1))),
	}
	for name, n := range ok {
		assert.NoError(t, n.RowWise(), name)
	}
	bad := map[string]*Node{
		"reduce axis 0":      ReduceSum(x, []int{0}, false),
		"reduce all":         ReduceMax(x, nil, false),
		"cumsum axis 0":      Cumsum(x, []int{0}),
		"cumsum flat":        Cumsum(x, nil),
		"rows moved":         Add(ReduceSum(x, []int{1, 2}, false), Var("z", array.Float32, rows)),
		"leaf of 2 rows":     Add(x, Leaf(many)),
		"no variable":        Leaf(row),
		"broadcast op":       BroadcastBidirectional(y, []int{5, 5}),
		"rank-0 variable":    Add(Var("s", array.Float32, broadcast.StaticShape()), x),
		"inner reduction":    Add(x, ReduceMean(x, []int{0}, true)),
		"reduce to a row":    ReduceTo(x, []int{3, 4}),
		"constant of 2 rows": Add(x, Add(Leaf(many), Const(1))),
	}
	for name, n := range bad {
		err := n.RowWise()
		if assert.Error(t, err, name) && n.Err() == nil {
			assert.ErrorIs(t, err, ErrArgument, name)
		}
	}
	assert.Error(t, (*Node)(nil).RowWise())
}
