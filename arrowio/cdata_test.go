//go:build cgo

package arrowio

import (
	"errors"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio/internal/cabi"
	"github.com/stride0/stride0/internal/arrowtest"
)

// cStructs allocates a zeroed ArrowArray and ArrowSchema in C memory, freed
// when the test ends.
func cStructs(t *testing.T) (*cdata.CArrowArray, *cdata.CArrowSchema) {
	a, s := cabi.NewArray(), cabi.NewSchema()
	t.Cleanup(func() { cabi.Free(a); cabi.Free(s) })
	return a, s
}

// TestCDataTensorColumn: a fixed_shape_tensor column crosses the C Data
// Interface: a C consumer sees the FixedSizeList format, the float64 child,
// the extension name and metadata, and the Go buffer itself (no copy); the
// Go importer gives back the extension type and, through FromArrow, the
// original buffer and mask.
func TestCDataTensorColumn(t *testing.T) {
	mem := arrowtest.NewMem(t)
	v, col := tensorFixture(t, mem)
	defer v.Release()
	defer col.Release()
	ca, cs := cStructs(t)
	require.NoError(t, ExportCArray(col, ca, cs))

	info := cabi.Describe(cs, ca)
	assert.Equal(t, "+w:6", info.Format)
	assert.Equal(t, "g", info.ChildFormat)
	assert.Equal(t, ExtensionName, info.ExtName)
	assert.Equal(t, `{"shape":[2,3],"dim_names":["h","w"]}`, info.ExtMeta)
	assert.Equal(t, int64(3), info.Length)
	assert.Equal(t, int64(1), info.NullCount)
	assert.Equal(t, int64(1), info.NChildren)
	assert.Equal(t, int64(7), info.ChildNullCount)
	assert.Equal(t, arrowtest.Addr(v, 0), info.ChildValues, "the C consumer reads the Go buffer")
	assert.Equal(t, float64(0+1+2+3+5+6+7+8+9+10+11), info.Sum)

	field, imp, err := ImportCArray(ca, cs)
	require.NoError(t, err)
	defer imp.Release()
	assert.True(t, cabi.Released(ca), "import moves the array")
	got, ok := imp.(*FixedShapeTensorArray)
	require.True(t, ok, "imported %T", imp)
	assert.True(t, arrow.TypeEqual(col.DataType(), got.DataType()))
	assert.Equal(t, 0, field.Metadata.Len(), "extension keys are consumed")
	assert.True(t, arrowarray.Equal(col, got))
	back, err := FromArrow(mem, got)
	require.NoError(t, err)
	defer back.Release()
	assert.Equal(t, arrowtest.Addr(v, 0), arrowtest.Addr(back, back.Offset()), "Go -> C -> Go without a copy")
	wv, wok := arrowtest.Elems(t, v)
	gv, gok := arrowtest.Elems(t, back)
	assert.Equal(t, wv, gv)
	assert.Equal(t, wok, gok)
}

// foreignType is an extension type over a FixedSizeList whose array is not
// ListLike, like most extension types written against arrow-go v15.
type foreignType struct{ arrow.ExtensionBase }

type foreignArray struct{ arrowarray.ExtensionArrayBase }

func (*foreignType) ArrayType() reflect.Type { return reflect.TypeOf(foreignArray{}) }
func (*foreignType) ExtensionName() string   { return "stride0.test.foreign" }
func (*foreignType) Serialize() string       { return "x" }
func (*foreignType) Deserialize(st arrow.DataType, _ string) (arrow.ExtensionType, error) {
	return &foreignType{arrow.ExtensionBase{Storage: st}}, nil
}
func (f *foreignType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == f.ExtensionName() && arrow.TypeEqual(f.Storage, o.StorageType())
}

// TestCDataExtensionChildren shows the arrow-go v15 export problem and both
// fixes: cdata.ExportArrowArray writes no child array for an extension array
// over a FixedSizeList that is not ListLike (the schema has a child, the
// array none, and importing it fails); ExportCArray exports the storage
// instead, and *FixedShapeTensorArray is ListLike so the plain export works.
func TestCDataExtensionChildren(t *testing.T) {
	mem := arrowtest.NewMem(t)
	require.NoError(t, arrow.RegisterExtensionType(&foreignType{arrow.ExtensionBase{Storage: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float64)}}))
	defer arrow.UnregisterExtensionType("stride0.test.foreign")
	b := arrowarray.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Float64)
	b.Append(true)
	b.ValueBuilder().(*arrowarray.Float64Builder).AppendValues([]float64{1.5, 2.5}, nil)
	storage := b.NewArray()
	b.Release()
	defer storage.Release()
	ft := &foreignType{arrow.ExtensionBase{Storage: storage.DataType()}}
	foreign := arrowarray.NewExtensionArrayWithStorage(ft, storage)
	defer foreign.Release()

	ca, cs := cStructs(t)
	cdata.ExportArrowArray(foreign, ca, cs)
	info := cabi.Describe(cs, ca)
	assert.Equal(t, int64(1), info.SchemaChildren)
	assert.Equal(t, int64(0), info.NChildren, "arrow-go v15 drops the child array")
	cabi.ReleaseArray(ca)
	cabi.ReleaseSchema(cs)

	ca, cs = cStructs(t)
	require.NoError(t, ExportCArray(foreign, ca, cs))
	info = cabi.Describe(cs, ca)
	assert.Equal(t, int64(1), info.NChildren)
	assert.Equal(t, "stride0.test.foreign", info.ExtName)
	assert.Equal(t, 4.0, info.Sum)
	_, imp, err := ImportCArray(ca, cs)
	require.NoError(t, err)
	assert.IsType(t, &foreignArray{}, imp)
	assert.True(t, arrowarray.Equal(foreign, imp))
	imp.Release()

	v, col := tensorFixture(t, mem)
	defer v.Release()
	defer col.Release()
	ca, cs = cStructs(t)
	cdata.ExportArrowArray(col, ca, cs) // the plain exporter, on our ListLike array
	info = cabi.Describe(cs, ca)
	assert.Equal(t, int64(1), info.NChildren)
	_, imp, err = ImportCArray(ca, cs)
	require.NoError(t, err)
	assert.True(t, arrowarray.Equal(col, imp))
	imp.Release()
}

func TestCDataRecordBatch(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 5, 1)
	defer rec.Release()
	ca, cs := cStructs(t)
	require.NoError(t, ExportCRecordBatch(rec, ca, cs))
	info := cabi.Describe(cs, ca)
	assert.Equal(t, "+s", info.Format)
	assert.Equal(t, int64(2), info.NChildren)
	got, err := ImportCRecordBatch(ca, cs)
	require.NoError(t, err)
	defer got.Release()
	arrowtest.RequireSameRecord(t, rec, got)
}

// TestCDataStream: a RecordReader exported as a C stream is read back by
// ImportCRecordReader batch by batch, and drained by a C consumer; in both
// cases every buffer is given back when the consumer releases the stream
// (the checked allocator ends at zero without waiting for a GC).
func TestCDataStream(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := []arrow.Record{recordFixture(t, mem, 4, 0), recordFixture(t, mem, 0, 7), recordFixture(t, mem, 6, 2)}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	st := cabi.NewStream()
	defer cabi.Free(st)
	require.NoError(t, ExportCRecordReader(rr, st))
	rr.Release() // the stream holds its own reference

	in, err := ImportCRecordReader(st)
	require.NoError(t, err)
	assert.True(t, recs[0].Schema().Equal(in.Schema()))
	i := 0
	for in.Next() {
		arrowtest.RequireSameRecord(t, recs[i], in.Record())
		i++
	}
	require.NoError(t, in.Err())
	assert.Equal(t, 3, i)
	in.Release()

	rr, err = arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	st2 := cabi.NewStream()
	defer cabi.Free(st2)
	require.NoError(t, ExportCRecordReader(rr, st2))
	rr.Release()
	batches, rows, format, rc := cabi.Drain(st2)
	assert.Equal(t, 0, rc)
	assert.Equal(t, int64(3), batches)
	assert.Equal(t, int64(10), rows)
	assert.Equal(t, "+s", format)
}

// failingReader yields one batch, then fails.
type failingReader struct {
	arrowarray.RecordReader
	n int
}

func (f *failingReader) Next() bool {
	f.n++
	return f.n == 1 && f.RecordReader.Next()
}

func (f *failingReader) Err() error {
	if f.n > 1 {
		return errors.New("disk on fire")
	}
	return nil
}

func TestCDataStreamError(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 3, 0)
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec, rec})
	require.NoError(t, err)
	st := cabi.NewStream()
	defer cabi.Free(st)
	require.NoError(t, ExportCRecordReader(&failingReader{RecordReader: rr}, st))
	rr.Release()
	in, err := ImportCRecordReader(st)
	require.NoError(t, err)
	defer in.Release()
	require.True(t, in.Next())
	require.False(t, in.Next())
	assert.ErrorIs(t, in.Err(), ErrCData)
	assert.Contains(t, in.Err().Error(), "disk on fire")
	assert.False(t, in.Next())
}

// TestCDataArrays: stride0 arrays through ExportArray/ImportArray: 1-D
// with nulls, bool, and a transposed N-D view (written with a permutation).
func TestCDataArrays(t *testing.T) {
	mem := arrowtest.NewMem(t)
	one, err := array.FromSlice(mem, []int64{5, 6, 7, 8})
	require.NoError(t, err)
	defer one.Release()
	require.NoError(t, one.SetNull(1))
	flags, err := array.FromSlice(mem, []bool{true, false, true})
	require.NoError(t, err)
	defer flags.Release()
	base, err := array.Arange(mem, array.Uint16, 0, 24, 1)
	require.NoError(t, err)
	defer base.Release()
	tr, err := base.View([]int{2, 4, 3}, []int{12, 1, 4}, 0)
	require.NoError(t, err)
	defer tr.Release()
	for _, a := range []*array.Array{one, flags, tr} {
		ca, cs := cStructs(t)
		require.NoError(t, ExportArray(mem, a, ca, cs))
		back, err := ImportArray(mem, ca, cs)
		require.NoError(t, err)
		assert.Equal(t, a.Shape(), back.Shape())
		assert.Equal(t, a.Strides(), back.Strides())
		wv, wok := arrowtest.Elems(t, a)
		gv, gok := arrowtest.Elems(t, back)
		assert.Equal(t, wv, gv)
		assert.Equal(t, wok, gok)
		if a.DType() != array.Bool {
			assert.Equal(t, arrowtest.Addr(a, a.Offset()), arrowtest.Addr(back, back.Offset()), "shared through C")
		}
		back.Release()
	}
}

func TestCDataErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	ca, cs := cStructs(t)
	assert.ErrorIs(t, ExportCArray(nil, ca, cs), array.ErrNil)
	assert.ErrorIs(t, ExportCRecordBatch(nil, ca, cs), array.ErrNil)
	assert.ErrorIs(t, ExportCRecordReader(nil, nil), array.ErrNil)
	_, _, err := ImportCArray(nil, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = ImportCRecordBatch(nil, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = ImportCRecordReader(nil)
	assert.ErrorIs(t, err, array.ErrNil)
	st := cabi.NewStream()
	defer cabi.Free(st)
	_, err = ImportCRecordReader(st) // zeroed: released
	assert.ErrorIs(t, err, array.ErrNil)
	assert.ErrorIs(t, ExportArray(mem, nil, ca, cs), array.ErrNil)

	// Bad extension metadata on the way in: the import fails with
	// ErrMetadata and releases the exported buffers (checked at cleanup).
	b := arrowarray.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Float64)
	b.Append(true)
	b.ValueBuilder().(*arrowarray.Float64Builder).AppendValues([]float64{1, 2}, nil)
	storage := b.NewArray()
	b.Release()
	defer storage.Release()
	md := arrow.NewMetadata([]string{ipc.ExtensionTypeKeyName, ipc.ExtensionMetadataKeyName}, []string{ExtensionName, `{"shape":[3]}`})
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: storage.DataType(), Metadata: md}}, nil)
	rec := arrowarray.NewRecord(schema, []arrow.Array{storage}, 1)
	defer rec.Release()
	require.NoError(t, ExportCRecordBatch(rec, ca, cs))
	_, err = ImportCRecordBatch(ca, cs)
	assert.ErrorIs(t, err, ErrMetadata)
	assert.True(t, cabi.Released(ca))

	// The same through a stream.
	rr, err := arrowarray.NewRecordReader(schema, []arrow.Record{rec})
	require.NoError(t, err)
	st2 := cabi.NewStream()
	defer cabi.Free(st2)
	require.NoError(t, ExportCRecordReader(rr, st2))
	rr.Release()
	_, err = ImportCRecordReader(st2)
	assert.ErrorIs(t, err, ErrMetadata)
}
