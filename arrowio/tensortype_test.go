package arrowio

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
)

func TestTensorMetadata(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	good := []struct {
		name    string
		storage arrow.DataType
		meta    string
		shape   []int
		names   []string
		perm    []int
		logical []int
		canon   string
	}{
		{"plain", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3]}`, []int{2, 3}, nil, nil, []int{2, 3}, `{"shape":[2,3]}`},
		{"spec example", arrow.FixedSizeListOf(100*200*500, f32), `{"shape": [100, 200, 500], "permutation": [2, 0, 1]}`,
			[]int{100, 200, 500}, nil, []int{2, 0, 1}, []int{500, 100, 200}, `{"shape":[100,200,500],"permutation":[2,0,1]}`},
		{"names", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"dim_names":["H","W"],"permutation":[1,0]}`,
			[]int{2, 3}, []string{"H", "W"}, []int{1, 0}, []int{3, 2}, `{"shape":[2,3],"dim_names":["H","W"],"permutation":[1,0]}`},
		{"identity dropped", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"permutation":[0,1]}`, []int{2, 3}, nil, nil, []int{2, 3}, `{"shape":[2,3]}`},
		{"rank 0", arrow.FixedSizeListOf(1, f32), `{"shape":[]}`, []int{}, nil, nil, []int{}, `{"shape":[]}`},
		{"unknown key ignored", arrow.FixedSizeListOf(2, f32), `{"shape":[2],"later":{"x":1}}`, []int{2}, nil, nil, []int{2}, `{"shape":[2]}`},
		{"any value type", arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), `{"shape":[2]}`, []int{2}, nil, nil, []int{2}, `{"shape":[2]}`},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			et, err := (&FixedShapeTensorType{}).Deserialize(c.storage, c.meta)
			require.NoError(t, err)
			tt := et.(*FixedShapeTensorType)
			assert.Equal(t, c.shape, tt.Shape())
			assert.Equal(t, c.names, tt.DimNames())
			assert.Equal(t, c.perm, tt.Permutation())
			assert.Equal(t, c.logical, tt.LogicalShape())
			assert.Equal(t, c.canon, tt.Serialize())
			again, err := tt.Deserialize(c.storage, tt.Serialize())
			require.NoError(t, err)
			assert.True(t, tt.ExtensionEquals(again.(arrow.ExtensionType)))
			assert.True(t, arrow.TypeEqual(tt, again))
		})
	}
	bad := []struct {
		name    string
		storage arrow.DataType
		meta    string
	}{
		{"empty", arrow.FixedSizeListOf(1, f32), ``},
		{"not json", arrow.FixedSizeListOf(1, f32), `shape=[1]`},
		{"truncated", arrow.FixedSizeListOf(1, f32), `{"shape":[1`},
		{"trailing", arrow.FixedSizeListOf(1, f32), `{"shape":[1]} x`},
		{"two objects", arrow.FixedSizeListOf(1, f32), `{"shape":[1]}{"shape":[1]}`},
		{"no shape", arrow.FixedSizeListOf(1, f32), `{"dim_names":[]}`},
		{"null shape", arrow.FixedSizeListOf(1, f32), `{"shape":null}`},
		{"shape not list", arrow.FixedSizeListOf(1, f32), `{"shape":3}`},
		{"float dim", arrow.FixedSizeListOf(1, f32), `{"shape":[1.5]}`},
		{"negative dim", arrow.FixedSizeListOf(1, f32), `{"shape":[-1,-1]}`},
		{"huge dim", arrow.FixedSizeListOf(1, f32), `{"shape":[99999999999999999999999]}`},
		{"overflow", arrow.FixedSizeListOf(1, f32), `{"shape":[4294967296,4294967296,4294967296]}`},
		{"size mismatch", arrow.FixedSizeListOf(5, f32), `{"shape":[2,3]}`},
		{"perm length", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"permutation":[0]}`},
		{"perm repeat", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"permutation":[1,1]}`},
		{"perm range", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"permutation":[0,2]}`},
		{"perm negative", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"permutation":[-1,0]}`},
		{"names length", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"dim_names":["a"]}`},
		{"names type", arrow.FixedSizeListOf(6, f32), `{"shape":[2,3],"dim_names":[1,2]}`},
		{"storage not fsl", arrow.PrimitiveTypes.Float32, `{"shape":[1]}`},
		{"nil storage", nil, `{"shape":[1]}`},
		{"rank too large", arrow.FixedSizeListOf(1, f32), `{"shape":[` + ones(MaxTensorRank+1) + `]}`},
	}
	for _, c := range bad {
		t.Run("bad/"+c.name, func(t *testing.T) {
			et, err := (&FixedShapeTensorType{}).Deserialize(c.storage, c.meta)
			assert.ErrorIs(t, err, ErrMetadata)
			assert.Nil(t, et)
		})
	}
	_, err := NewFixedShapeTensorType(nil, []int{1}, nil, nil)
	assert.ErrorIs(t, err, ErrMetadata)
	_, err = NewFixedShapeTensorType(f32, []int{4, 0}, nil, nil)
	assert.ErrorIs(t, err, ErrUnsupported, "arrow-go v15 cannot make a FixedSizeList of size 0")
	_, err = NewFixedShapeTensorType(f32, []int{2}, []string{"a", "b"}, nil)
	assert.ErrorIs(t, err, ErrMetadata)
}

func ones(n int) string {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('1')
	}
	return b.String()
}

func TestRegistered(t *testing.T) {
	require.NoError(t, Register())
	require.NoError(t, Register(), "idempotent")
	_, ours := arrow.GetExtensionType(ExtensionName).(*FixedShapeTensorType)
	assert.True(t, ours)
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int16, []int{2, 3}, []string{"r", "c"}, []int{1, 0})
	require.NoError(t, err)
	assert.Equal(t, "extension<arrow.fixed_shape_tensor[value=int16, shape=[2 3], dim_names=[\"r\" \"c\"], permutation=[1 0]]>", tt.String())
	assert.Equal(t, []string{"c", "r"}, tt.LogicalDimNames())
	other, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int16, []int{3, 2}, nil, nil)
	assert.NotEqual(t, tt.Fingerprint(), other.Fingerprint())
	assert.False(t, tt.ExtensionEquals(other))
}

// TestTensorColumnIPCRoundTrip: the registered type survives an IPC stream:
// the reader returns *FixedShapeTensorArray with the same type and values.
func TestTensorColumnIPCRoundTrip(t *testing.T) {
	mem := arrowtest.NewMem(t)
	a, err := array.Arange(mem, array.Float32, 0, 24, 1)
	require.NoError(t, err)
	defer a.Release()
	v, err := a.View([]int{2, 4, 3}, []int{12, 1, 4}, 0) // tensors [4,3] stored as [3,4]^T
	require.NoError(t, err)
	defer v.Release()
	col, err := ToTensorColumn(mem, v, WithDimNames("x", "y"))
	require.NoError(t, err)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: col.DataType(), Nullable: true}}, nil)
	rec := arrowarray.NewRecord(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()

	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())

	r, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Next())
	got, ok := r.Record().Column(0).(*FixedShapeTensorArray)
	require.True(t, ok, "column is %T", r.Record().Column(0))
	assert.True(t, arrow.TypeEqual(col.DataType(), got.DataType()))
	assert.Equal(t, []int{4, 3}, got.TensorType().LogicalShape())
	assert.Equal(t, []string{"x", "y"}, got.TensorType().LogicalDimNames())
	back, err := FromArrow(mem, got)
	require.NoError(t, err)
	defer back.Release()
	assert.Equal(t, v.Shape(), back.Shape())
	assert.Equal(t, v.Strides(), back.Strides())
	want, _ := arrowtest.Elems(t, v)
	have, _ := arrowtest.Elems(t, back)
	assert.Equal(t, want, have)
	assert.False(t, r.Next())
	require.NoError(t, r.Err())
}
