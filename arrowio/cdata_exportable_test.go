//go:build cgo

package arrowio_test

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio"
)

// TestExportFieldlessStruct: arrow-go v15's C Data exporter panics on a
// struct with no fields (a corrupt stream produced a dictionary of
// struct<>); the exporters refuse such types, nested or not, with
// ErrUnsupported, and a batch or stream with no columns likewise.
func TestExportFieldlessStruct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	empty := arrow.StructOf()
	st := arrowarray.NewStructBuilder(mem, empty)
	st.AppendNull()
	st.Append(true)
	plain := st.NewArray()
	st.Release()
	defer plain.Release()
	lb := arrowarray.NewListBuilder(mem, empty)
	lb.Append(true)
	lb.ValueBuilder().(*arrowarray.StructBuilder).Append(true)
	nested := lb.NewArray()
	lb.Release()
	defer nested.Release()
	for _, arr := range []arrow.Array{plain, nested} {
		var ca cdata.CArrowArray
		var cs cdata.CArrowSchema
		err := arrowio.ExportCArray(arr, &ca, &cs)
		require.ErrorIs(t, err, arrowio.ErrUnsupported, "%v", arr.DataType())
		assert.Contains(t, err.Error(), "struct with no fields")

		sc := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arr.DataType(), Nullable: true}}, nil)
		rec := arrowarray.NewRecord(sc, []arrow.Array{arr}, int64(arr.Len()))
		err = arrowio.ExportCRecordBatch(rec, &ca, &cs)
		require.ErrorIs(t, err, arrowio.ErrUnsupported)
		assert.Contains(t, err.Error(), `column 0 ("s"`)
		rr, err := arrowarray.NewRecordReader(sc, []arrow.Record{rec})
		require.NoError(t, err)
		var stream cdata.CArrowArrayStream
		require.ErrorIs(t, arrowio.ExportCRecordReader(rr, &stream), arrowio.ErrUnsupported)
		rr.Release()
		rec.Release()
	}
	none := arrowarray.NewRecord(arrow.NewSchema(nil, nil), nil, 3)
	defer none.Release()
	var ca cdata.CArrowArray
	require.ErrorIs(t, arrowio.ExportCRecordBatch(none, &ca, nil), arrowio.ErrUnsupported)
}
