package arrowio

import (
	"fmt"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/arrowtest"
)

// childOf returns the list values of a tensor column.
func childOf(col arrow.Array) arrow.Array {
	return col.(arrowarray.ExtensionArray).Storage().(*arrowarray.FixedSizeList).ListValues()
}

// TestTensorColumnEveryDType: a contiguous [N, 2, 3] array of every dtype,
// with and without nulls, goes to a fixed_shape_tensor column sharing its
// buffer and comes back with the same shape, strides, values and mask.
func TestTensorColumnEveryDType(t *testing.T) {
	for _, dt := range array.DTypes {
		for _, nulls := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/nulls=%v", dt, nulls), func(t *testing.T) {
				mem := arrowtest.NewMem(t)
				a, err := array.Arange(mem, dt, 0, 24, 1)
				require.NoError(t, err)
				defer a.Release()
				v, err := a.View([]int{4, 2, 3}, []int{6, 3, 1}, 0)
				require.NoError(t, err)
				defer v.Release()
				if nulls {
					require.NoError(t, v.SetNull(1, 0, 2))
					for j := 0; j < 2; j++ { // row 3 entirely null
						for k := 0; k < 3; k++ {
							require.NoError(t, v.SetNull(3, j, k))
						}
					}
				}
				col, err := ToTensorColumn(mem, v)
				require.NoError(t, err)
				defer col.Release()
				tt := col.TensorType()
				assert.Equal(t, []int{2, 3}, tt.Shape())
				assert.Nil(t, tt.Permutation())
				assert.Equal(t, 4, col.Len())
				if nulls {
					assert.Equal(t, 1, col.NullN(), "only the all-null row is a null row")
					assert.True(t, col.IsNull(3))
					assert.Equal(t, 7, childOf(col).NullN())
				} else {
					assert.Zero(t, col.NullN())
				}
				if dt != array.Bool {
					assert.Equal(t, arrowtest.Addr(v, 0), arrowtest.ArrowAddr(childOf(col).Data(), 0), "buffer shared")
				}
				back, err := FromArrow(mem, col)
				require.NoError(t, err)
				defer back.Release()
				assert.Equal(t, v.Shape(), back.Shape())
				assert.Equal(t, v.Strides(), back.Strides())
				wv, wok := arrowtest.Elems(t, v)
				gv, gok := arrowtest.Elems(t, back)
				assert.Equal(t, wv, gv)
				assert.Equal(t, wok, gok)
			})
		}
	}
}

// TestTensorPermutationRead: a column built with Arrow's builders holding
// row-major [2,3,4] tensors with permutation [2,0,1] reads as logical
// [4,2,3] tensors where logical (i,j,k) is physical (j,k,i), as the
// specification defines (logical dim i is physical dim permutation[i]).
func TestTensorPermutationRead(t *testing.T) {
	mem := arrowtest.NewMem(t)
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int32, []int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1})
	require.NoError(t, err)
	assert.Equal(t, []int{4, 2, 3}, tt.LogicalShape())
	assert.Equal(t, []string{"c", "a", "b"}, tt.LogicalDimNames())
	b := arrowarray.NewFixedSizeListBuilder(mem, 24, arrow.PrimitiveTypes.Int32)
	defer b.Release()
	vb := b.ValueBuilder().(*arrowarray.Int32Builder)
	for r := 0; r < 2; r++ {
		b.Append(true)
		for e := 0; e < 24; e++ {
			vb.Append(int32(100*r + e))
		}
	}
	storage := b.NewArray()
	defer storage.Release()
	col := arrowarray.NewExtensionArrayWithStorage(tt, storage)
	defer col.Release()

	a, err := FromArrow(mem, col)
	require.NoError(t, err)
	defer a.Release()
	require.Equal(t, []int{2, 4, 2, 3}, a.Shape())
	for r := 0; r < 2; r++ {
		for i := 0; i < 4; i++ {
			for j := 0; j < 2; j++ {
				for k := 0; k < 3; k++ {
					want := int32(100*r + j*12 + k*4 + i)
					require.Equal(t, want, arraytest.At[int32](t, a, r, i, j, k), "(%d,%d,%d,%d)", r, i, j, k)
				}
			}
		}
	}
	// Writing the permuted Array back does not write [2,0,1] (not its own
	// inverse, which Arrow C++ misreads): the tensors are copied row-major,
	// with the same logical shape, names and values.
	again, err := ToTensorColumn(mem, a, WithDimNames("c", "a", "b"))
	require.NoError(t, err)
	defer again.Release()
	at := again.TensorType()
	assert.Nil(t, at.Permutation())
	assert.Equal(t, []int{4, 2, 3}, at.LogicalShape())
	assert.Equal(t, []string{"c", "a", "b"}, at.LogicalDimNames())
	assert.NotEqual(t, arrowtest.ArrowAddr(childOf(col).Data(), 0), arrowtest.ArrowAddr(childOf(again).Data(), 0))
	back, err := FromArrow(mem, again)
	require.NoError(t, err)
	defer back.Release()
	wv, _ := arrowtest.Elems(t, a)
	gv, _ := arrowtest.Elems(t, back)
	assert.Equal(t, wv, gv)
}

// TestTensorTransposedWrite: transposed views of a contiguous array are
// written as a permutation, not copied, for every order of the tensor axes
// that is its own inverse (reading gives back the same strides); the other
// orders are copied and written row-major without a permutation.
func TestTensorTransposedWrite(t *testing.T) {
	mem := arrowtest.NewMem(t)
	base, err := array.Arange(mem, array.Float64, 0, 3*2*3*4, 1)
	require.NoError(t, err)
	defer base.Release()
	phys := []int{2, 3, 4}
	pst := []int{12, 4, 1}
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, p := range perms {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			shape := []int{3, phys[p[0]], phys[p[1]], phys[p[2]]}
			strides := []int{24, pst[p[0]], pst[p[1]], pst[p[2]]}
			v, err := base.View(shape, strides, 0)
			require.NoError(t, err)
			defer v.Release()
			col, err := ToTensorColumn(mem, v)
			require.NoError(t, err)
			defer col.Release()
			tt := col.TensorType()
			assert.Equal(t, shape[1:], tt.LogicalShape())
			back, err := FromArrow(mem, col)
			require.NoError(t, err)
			defer back.Release()
			if isInvolution(p) {
				assert.Equal(t, phys, tt.Shape())
				if p[0] == 0 && p[1] == 1 {
					assert.Nil(t, tt.Permutation())
				} else {
					assert.Equal(t, p, tt.Permutation())
				}
				assert.Equal(t, arrowtest.Addr(base, 0), arrowtest.ArrowAddr(childOf(col).Data(), 0), "no copy")
				assert.Equal(t, strides, back.Strides())
			} else {
				assert.Equal(t, shape[1:], tt.Shape())
				assert.Nil(t, tt.Permutation())
				assert.NotEqual(t, arrowtest.Addr(base, 0), arrowtest.ArrowAddr(childOf(col).Data(), 0), "copied")
				assert.True(t, back.IsContiguous())
			}
			want, _ := arrowtest.Elems(t, v)
			got, _ := arrowtest.Elems(t, back)
			assert.Equal(t, want, got)
		})
	}
}

// TestTensorViewsCopied: layouts Arrow cannot describe are materialized.
func TestTensorViewsCopied(t *testing.T) {
	mem := arrowtest.NewMem(t)
	base, err := array.Arange(mem, array.Int64, 0, 12, 1)
	require.NoError(t, err)
	defer base.Release()
	cases := []struct {
		name           string
		shape, strides []int
		off            int
		shared         bool
	}{
		{"broadcast rows", []int{5, 3}, []int{0, 1}, 0, false},
		{"broadcast inner", []int{4, 3}, []int{3, 0}, 0, false},
		{"row slice", []int{2, 3}, []int{3, 1}, 3, true},
		{"strided rows", []int{2, 3}, []int{6, 1}, 0, false},
		{"reversed inner", []int{4, 3}, []int{3, -1}, 2, false},
		{"axis 0 moved", []int{3, 4}, []int{1, 3}, 0, false},
		{"size-1 axes", []int{4, 1, 3, 1}, []int{3, 7, 1, 5}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := base.View(c.shape, c.strides, c.off)
			require.NoError(t, err)
			defer v.Release()
			col, err := ToTensorColumn(mem, v)
			require.NoError(t, err)
			defer col.Release()
			if c.shared {
				assert.Equal(t, arrowtest.Addr(base, c.off), arrowtest.ArrowAddr(childOf(col).Data(), 0))
				assert.Nil(t, col.TensorType().Permutation())
			} else {
				assert.NotEqual(t, arrowtest.Addr(base, c.off), arrowtest.ArrowAddr(childOf(col).Data(), 0))
			}
			back, err := FromArrow(mem, col)
			require.NoError(t, err)
			defer back.Release()
			assert.Equal(t, v.Shape(), back.Shape())
			want, _ := arrowtest.Elems(t, v)
			got, _ := arrowtest.Elems(t, back)
			assert.Equal(t, want, got)
		})
	}
}

// TestTensorRank0AndEmpty: rank-0 tensors (a 1-D Array), zero rows, and
// Arrow row offsets (a sliced column) with row nulls.
func TestTensorRank0AndEmpty(t *testing.T) {
	mem := arrowtest.NewMem(t)
	a, err := array.FromSlice(mem, []float32{1, 2, 3, 4, 5})
	require.NoError(t, err)
	defer a.Release()
	require.NoError(t, a.SetNull(2))
	col, err := ToTensorColumn(mem, a)
	require.NoError(t, err)
	defer col.Release()
	assert.Equal(t, []int{}, col.TensorType().Shape())
	assert.Equal(t, `{"shape":[]}`, col.TensorType().Serialize())
	assert.Equal(t, 1, col.NullN(), "a rank-0 tensor's row is null when its one element is")
	back, err := FromArrow(mem, col)
	require.NoError(t, err)
	defer back.Release()
	assert.Equal(t, []int{5}, back.Shape())
	v, ok := arrowtest.Elems(t, back)
	assert.Equal(t, []float64{1, 2, 0, 4, 5}, v)
	assert.Equal(t, []bool{true, true, false, true, true}, ok)

	// Slice rows 1..4 of the Arrow column: the row offset is honoured.
	sl := arrowarray.NewSlice(col, 1, 4)
	defer sl.Release()
	s, err := FromArrow(mem, sl)
	require.NoError(t, err)
	defer s.Release()
	v, ok = arrowtest.Elems(t, s)
	assert.Equal(t, []float64{2, 0, 4}, v)
	assert.Equal(t, []bool{true, false, true}, ok)

	empty, err := array.New(mem, array.Uint8, 0, 2, 2)
	require.NoError(t, err)
	defer empty.Release()
	ec, err := ToTensorColumn(mem, empty)
	require.NoError(t, err)
	defer ec.Release()
	assert.Equal(t, 0, ec.Len())
	eb, err := FromArrow(mem, ec)
	require.NoError(t, err)
	defer eb.Release()
	assert.Equal(t, []int{0, 2, 2}, eb.Shape())

	zero, err := array.New(mem, array.Uint8, 3, 0)
	require.NoError(t, err)
	defer zero.Release()
	_, err = ToTensorColumn(mem, zero)
	assert.ErrorIs(t, err, ErrUnsupported)

	sc, err := array.Scalar(mem, int8(1))
	require.NoError(t, err)
	defer sc.Release()
	_, err = ToTensorColumn(mem, sc)
	assert.ErrorIs(t, err, array.ErrShape)
	_, err = ToTensorColumn(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	m, err := array.New(mem, array.Uint8, 2, 2)
	require.NoError(t, err)
	defer m.Release()
	_, err = ToTensorColumn(mem, m, WithDimNames("only", "two", "three"))
	assert.ErrorIs(t, err, array.ErrShape)
}

// TestTensorRowNullsFromArrow: a null row of an Arrow column whose elements
// are valid in the child reads as all-null elements; writing back gives a
// null row whose elements are null in the child too.
func TestTensorRowNullsFromArrow(t *testing.T) {
	mem := arrowtest.NewMem(t)
	b := arrowarray.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Float64)
	defer b.Release()
	vb := b.ValueBuilder().(*arrowarray.Float64Builder)
	b.Append(true)
	vb.AppendValues([]float64{1, 2}, nil)
	b.AppendNull() // appends 2 child slots
	b.Append(true)
	vb.AppendValues([]float64{5, 6}, []bool{true, false})
	storage := b.NewArray()
	defer storage.Release()
	a, err := FromArrow(mem, storage) // a plain FixedSizeList reads as tensors of shape [2]
	require.NoError(t, err)
	defer a.Release()
	assert.Equal(t, []int{3, 2}, a.Shape())
	_, ok := arrowtest.Elems(t, a)
	assert.Equal(t, []bool{true, true, false, false, true, false}, ok)
	col, err := ToTensorColumn(mem, a)
	require.NoError(t, err)
	defer col.Release()
	assert.True(t, col.IsNull(1))
	assert.False(t, col.IsNull(2))
	assert.Equal(t, 3, childOf(col).NullN())
}

// TestTensorFromArrowMalformed: children too short, wrong types, foreign
// implementations of the extension name.
func TestTensorFromArrowMalformed(t *testing.T) {
	mem := arrowtest.NewMem(t)
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	require.NoError(t, err)
	vals := memory.NewResizableBuffer(mem)
	vals.Resize(4 * 6)
	defer vals.Release()
	child := arrowarray.NewData(arrow.PrimitiveTypes.Float32, 6, []*memory.Buffer{nil, vals}, nil, 0, 0)
	defer child.Release()
	d := arrowarray.NewData(tt, 2, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0) // needs 8 values
	defer d.Release()
	_, err = FromArrowData(mem, d)
	assert.ErrorIs(t, err, ErrInvalid)

	st, err := NewFixedShapeTensorType(arrow.BinaryTypes.String, []int{1}, nil, nil)
	require.NoError(t, err)
	sb := arrowarray.NewFixedSizeListBuilder(mem, 1, arrow.BinaryTypes.String)
	sb.Append(true)
	sb.ValueBuilder().(*arrowarray.StringBuilder).Append("x")
	sarr := sb.NewArray()
	sb.Release()
	defer sarr.Release()
	scol := arrowarray.NewExtensionArrayWithStorage(st, sarr)
	defer scol.Release()
	_, err = FromArrow(mem, scol)
	assert.ErrorIs(t, err, ErrUnsupported)
}

// TestTensorEmptyBatchSameType: a batch with no rows of a transposed view
// gets the same type (permutation) as a full batch of the same view, so a
// stream's batches share one schema.
func TestTensorEmptyBatchSameType(t *testing.T) {
	mem := arrowtest.NewMem(t)
	base, err := array.Arange(mem, array.Float32, 0, 12, 1)
	require.NoError(t, err)
	defer base.Release()
	full, err := base.View([]int{2, 3, 2}, []int{6, 1, 3}, 0)
	require.NoError(t, err)
	defer full.Release()
	empty, err := base.View([]int{0, 3, 2}, []int{6, 1, 3}, 0)
	require.NoError(t, err)
	defer empty.Release()
	fc, err := ToTensorColumn(mem, full)
	require.NoError(t, err)
	defer fc.Release()
	ec, err := ToTensorColumn(mem, empty)
	require.NoError(t, err)
	defer ec.Release()
	assert.Equal(t, []int{1, 0}, fc.TensorType().Permutation())
	assert.True(t, arrow.TypeEqual(fc.DataType(), ec.DataType()))
}
