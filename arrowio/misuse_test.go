package arrowio

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
	"github.com/stride0/stride0/view"
)

// TestNilTensorType: every method of a nil *FixedShapeTensorType answers
// without panicking (zero answers), and so does a nil or zero
// *FixedShapeTensorArray.
func TestNilTensorType(t *testing.T) {
	var tt *FixedShapeTensorType
	require.NotPanics(t, func() {
		assert.Contains(t, tt.String(), "nil")
		assert.Equal(t, "", tt.Serialize())
		assert.Nil(t, tt.Shape())
		assert.Equal(t, 0, tt.ListSize())
		assert.Equal(t, "", tt.Fingerprint())
		assert.Nil(t, tt.ValueType())
		assert.Nil(t, tt.StorageType())
		assert.Nil(t, tt.DimNames())
		assert.Nil(t, tt.Permutation())
		assert.Nil(t, tt.LogicalShape())
		assert.Nil(t, tt.LogicalDimNames())
		assert.False(t, tt.ExtensionEquals(tt))
		other, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2}, nil, nil)
		require.NoError(t, err)
		assert.False(t, tt.ExtensionEquals(other))
		assert.False(t, other.ExtensionEquals(tt))
	})
	for _, a := range []*FixedShapeTensorArray{nil, {}} {
		require.NotPanics(t, func() {
			assert.Nil(t, a.TensorType())
			assert.Equal(t, "", a.ValueStr(0))
			assert.Nil(t, a.ListValues())
			s, e := a.ValueOffsets(0)
			assert.Equal(t, [2]int64{0, 0}, [2]int64{s, e})
		})
	}
}

// TestWriteRecordsNilRecord: a nil record among those to write is an error
// wrapping array.ErrNil, for streams and files.
func TestWriteRecordsNilRecord(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 3, 1)
	defer rec.Release()
	for _, file := range []bool{false, true} {
		for _, recs := range [][]arrow.Record{{nil}, {rec, nil}} {
			var buf bytes.Buffer
			var err error
			require.NotPanics(t, func() { err = WriteRecords(&buf, file, rec.Schema(), recs) })
			assert.ErrorIs(t, err, array.ErrNil, "file=%v", file)
			assert.Contains(t, err.Error(), "record")
		}
	}
}

// nilReader is a RecordReader whose one batch is nil.
type nilReader struct {
	arrowarray.RecordReader
	schema *arrow.Schema
	done   bool
}

func (r *nilReader) Schema() *arrow.Schema { return r.schema }
func (r *nilReader) Next() bool            { ok := !r.done; r.done = true; return ok }
func (r *nilReader) Record() arrow.Record  { return nil }
func (r *nilReader) Err() error            { return nil }

// TestWriteNilBatch: a reader that yields a nil batch makes WriteStream and
// WriteFile fail with array.ErrNil.
func TestWriteNilBatch(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 2, 1)
	defer rec.Release()
	for _, file := range []bool{false, true} {
		var buf bytes.Buffer
		var err error
		require.NotPanics(t, func() {
			if file {
				_, err = WriteFile(&buf, &nilReader{schema: rec.Schema()})
			} else {
				_, err = WriteStream(&buf, &nilReader{schema: rec.Schema()})
			}
		})
		assert.ErrorIs(t, err, array.ErrNil, "file=%v", file)
	}
}

// isInvolution reports whether p applied twice is the identity.
func isInvolution(p []int) bool {
	for i, j := range p {
		if p[j] != i {
			return false
		}
	}
	return true
}

// TestToTensorColumnInvolutionOnly: every transposition of a [2, 2,3,4]
// array is written either without a permutation or with one that is its own
// inverse (a copy otherwise), and reads back to the same values; 2-D
// transposes still share the buffer.
func TestToTensorColumnInvolutionOnly(t *testing.T) {
	mem := arrowtest.NewMem(t)
	x, err := array.Arange(mem, array.Float32, 0, 2*2*3*4, 1)
	require.NoError(t, err)
	defer x.Release()
	x4, err := x.Reshaped(2, 2, 3, 4)
	require.NoError(t, err)
	defer x4.Release()
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, p := range perms {
		v, err := view.Transpose(x4, 0, p[0]+1, p[1]+1, p[2]+1)
		require.NoError(t, err)
		col, err := ToTensorColumn(mem, v)
		require.NoError(t, err)
		wp := col.TensorType().Permutation()
		assert.True(t, wp == nil || isInvolution(wp), "axes %v written with permutation %v", p, wp)
		back, err := FromArrow(mem, col)
		require.NoError(t, err)
		want, err := array.ToSlice[float32](v)
		require.NoError(t, err)
		got, err := array.ToSlice[float32](back)
		require.NoError(t, err)
		assert.Equal(t, want, got, "axes %v", p)
		assert.Equal(t, v.Shape(), back.Shape())
		back.Release()
		col.Release()
		v.Release()
	}
	x3, err := x.Reshaped(4, 6, 2)
	require.NoError(t, err)
	defer x3.Release()
	tr, err := view.Transpose(x3, 0, 2, 1)
	require.NoError(t, err)
	defer tr.Release()
	col, err := ToTensorColumn(mem, tr)
	require.NoError(t, err)
	defer col.Release()
	assert.Equal(t, []int{1, 0}, col.TensorType().Permutation())
	assert.Equal(t, arrowtest.Addr(x, 0), arrowtest.ArrowAddr(col.Storage().Data().Children()[0], 0), "a 2-D transpose shares the buffer")
}

// TestNilArrays: a nil array, a typed nil and a zero *FixedShapeTensorArray
// (no data) passed as an arrow.Array are errors for FromArrow and
// ValidateArray, not panics.
func TestNilArrays(t *testing.T) {
	var typedNil *FixedShapeTensorArray
	for name, a := range map[string]arrow.Array{"nil": nil, "typed nil": typedNil, "zero": &FixedShapeTensorArray{}} {
		require.NotPanics(t, func() {
			_, err := FromArrow(nil, a)
			assert.Error(t, err, name)
			assert.Error(t, ValidateArray(a), name)
		}, name)
	}
	var rec arrow.Record
	require.NotPanics(t, func() { assert.Error(t, ValidateRecord(rec)) })
}
