//go:build cgo

package arrowio

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio/internal/cabi"
	"github.com/stride0/stride0/internal/arrowtest"
)

// importAll runs every importer on fresh copies of one hostile schema and
// array, and reports each one's error. Successes are released at once.
func importAll(t *testing.T, hs *cabi.HSchema, ha *cabi.HArray) map[string]error {
	t.Helper()
	mem := arrowtest.NewMem(t)
	errs := map[string]error{}
	require.NotPanics(t, func() {
		_, a, err := ImportCArray(cabi.BuildArray(ha), cabi.BuildSchema(hs))
		if err == nil {
			a.Release()
		}
		errs["ImportCArray"] = err
		arr, err := ImportArray(mem, cabi.BuildArray(ha), cabi.BuildSchema(hs))
		if err == nil {
			arr.Release()
		}
		errs["ImportArray"] = err
		rec, err := ImportCRecordBatch(cabi.BuildArray(ha), cabi.BuildSchema(hs))
		if err == nil {
			rec.Release()
		}
		errs["ImportCRecordBatch"] = err
	})
	return errs
}

// TestCDataImportZeroedAndReleased: zeroed structs (release NULL) and
// released structs whose other pointers would fault if read are refused by
// every importer with ErrInvalid, before anything else is read; so are
// structs with a NULL or empty format and a live release callback.
func TestCDataImportZeroedAndReleased(t *testing.T) {
	defer cabi.FreeAll()
	// Zeroed, in C memory.
	for name, imp := range map[string]func(*cdata.CArrowArray, *cdata.CArrowSchema) error{
		"ImportCArray": func(a *cdata.CArrowArray, s *cdata.CArrowSchema) error {
			_, _, err := ImportCArray(a, s)
			return err
		},
		"ImportArray": func(a *cdata.CArrowArray, s *cdata.CArrowSchema) error {
			_, err := ImportArray(nil, a, s)
			return err
		},
		"ImportCRecordBatch": func(a *cdata.CArrowArray, s *cdata.CArrowSchema) error {
			_, err := ImportCRecordBatch(a, s)
			return err
		},
	} {
		for _, poison := range []bool{false, true} {
			ca, cs := cStructs(t)
			if poison {
				cabi.PoisonArray(ca)
				cabi.PoisonSchema(cs)
			}
			var err error
			require.NotPanics(t, func() { err = imp(ca, cs) }, "%s poisoned=%v", name, poison)
			assert.ErrorIs(t, err, ErrInvalid, "%s poisoned=%v", name, poison)
			assert.Contains(t, err.Error(), "released", "%s", name)
		}
	}
	// A live schema with no format, or an empty one, and a released array
	// with a good schema.
	good := &cabi.HArray{Length: 1, NBuffers: 2, Buffers: []bool{false, true}}
	for _, hs := range []*cabi.HSchema{{NoFormat: true}, {Format: ""}} {
		for name, err := range importAll(t, hs, good) {
			assert.ErrorIs(t, err, ErrInvalid, name)
		}
	}
	for name, err := range importAll(t, &cabi.HSchema{Format: "g"}, &cabi.HArray{Released: true}) {
		assert.ErrorIs(t, err, ErrInvalid, name)
		assert.Contains(t, err.Error(), "released", name)
	}
	assert.Equal(t, 2*3*2+3, cabi.Releases(), "every live struct released once")

	// A live stream without callbacks.
	var err error
	require.NotPanics(t, func() { _, err = ImportCRecordReader(cabi.HalfStream()) })
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Equal(t, 2*3*2+3+1, cabi.Releases(), "the stream is released")
}

// TestCDataExportNilArrays: typed nil and zero arrays are ErrNil for
// ExportCArray, not panics.
func TestCDataExportNilArrays(t *testing.T) {
	var typedNil *FixedShapeTensorArray
	for _, a := range []arrow.Array{typedNil, &FixedShapeTensorArray{}} {
		ca, cs := cStructs(t)
		var err error
		require.NotPanics(t, func() { err = ExportCArray(a, ca, cs) })
		assert.ErrorIs(t, err, array.ErrNil)
	}
}

// TestCDataImportBadFormats: formats arrow-go v15's importer indexes past
// their end, or whose children do not fit, are errors, and every struct is
// released exactly once.
func TestCDataImportBadFormats(t *testing.T) {
	defer cabi.FreeAll()
	leaf := func(f string) *cabi.HSchema { return &cabi.HSchema{Format: f} }
	cases := []*cabi.HSchema{
		leaf("+"), leaf("+v"), leaf("+u"), leaf("tss"), leaf("w"), leaf("d"), leaf("+w"), leaf("+ud"),
		leaf("w:-3"), leaf("+w:x"), leaf("?"), leaf("+l"), leaf("+m"),
		{Format: "+m", NChildren: 1, Children: []*cabi.HSchema{leaf("g")}},
		{Format: "+m", NChildren: 1, Children: []*cabi.HSchema{{Format: "+s", NChildren: 1, Children: []*cabi.HSchema{leaf("g")}}}},
		{Format: "+s", NChildren: 2, Children: []*cabi.HSchema{leaf("g")}},                     // a NULL child
		{Format: "+s", NChildren: 1, NoChildren: true},                                         // NULL children
		{Format: "+s", NChildren: -1},                                                          // negative
		{Format: "+s", NChildren: 1, Children: []*cabi.HSchema{{Format: "g", Released: true}}}, // a released child
		{Format: "g", Dictionary: leaf("u")},                                                   // float index
		{Format: "i", Dictionary: &cabi.HSchema{Format: "u", Released: true}},
		{Format: "+r", NChildren: 1, Children: []*cabi.HSchema{leaf("i")}},
		{Format: "+us:1,2", NChildren: 1, Children: []*cabi.HSchema{leaf("i")}},
	}
	arr := &cabi.HArray{Length: 1, NBuffers: 1, Buffers: []bool{false}}
	for _, hs := range cases {
		for name, err := range importAll(t, hs, arr) {
			assert.ErrorIs(t, err, ErrInvalid, "%s %+v", name, hs)
		}
	}
	assert.Equal(t, 2*3*len(cases), cabi.Releases(), "every schema and array released once")
}

// TestCDataImportBadArrays: arrays whose counts or lengths do not fit their
// type are errors, released once; a good one imports.
func TestCDataImportBadArrays(t *testing.T) {
	defer cabi.FreeAll()
	st := &cabi.HSchema{Format: "+s", NChildren: 1, Children: []*cabi.HSchema{{Format: "g", Name: "x"}}}
	child := func(h cabi.HArray) *cabi.HArray { return &h }
	okChild := cabi.HArray{Length: 2, NBuffers: 2, Buffers: []bool{false, true}}
	wrap := func(c *cabi.HArray) *cabi.HArray {
		return &cabi.HArray{Length: 2, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, Children: []*cabi.HArray{c}}
	}
	bad := []*cabi.HArray{
		{Length: 2, NBuffers: 1, Buffers: []bool{false}}, // no children
		{Length: 2, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, NoChildren: true},
		{Length: 2, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, Children: []*cabi.HArray{nil}},
		{Length: 2, NBuffers: 0, NChildren: 1, Children: []*cabi.HArray{child(okChild)}},
		{Length: 2, NBuffers: 1, NoBuffers: true, NChildren: 1, Children: []*cabi.HArray{child(okChild)}},
		{Length: -1, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, Children: []*cabi.HArray{child(okChild)}},
		{Length: 2, Offset: -4, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, Children: []*cabi.HArray{child(okChild)}},
		{Length: 2, NullCount: 3, NBuffers: 1, Buffers: []bool{true}, NChildren: 1, Children: []*cabi.HArray{child(okChild)}},
		wrap(&cabi.HArray{Length: 2, NBuffers: 1, Buffers: []bool{true}}),
		wrap(&cabi.HArray{Length: 2, NBuffers: 3, Buffers: []bool{false, true, true}}),
		wrap(&cabi.HArray{Length: 2, NBuffers: 2, Buffers: []bool{false, true}, Released: true}),
		wrap(&cabi.HArray{Length: 1 << 62, NBuffers: 2, Buffers: []bool{false, true}}),
	}
	for i, ha := range bad {
		for name, err := range importAll(t, st, ha) {
			if name == "ImportCRecordBatch" || err == nil {
				assert.ErrorIs(t, err, ErrInvalid, "case %d %s", i, name)
			}
		}
	}
	require.NoError(t, importAll(t, st, wrap(child(okChild)))["ImportCRecordBatch"])
	assert.Equal(t, 2*3*(len(bad)+1), cabi.Releases())
}

// TestIPCCorruptBatchesExport: every batch a reader returns from a corrupt
// stream or file of a dictionary<int8, utf8> and an int32 column exports
// through the C Data Interface (ExportCRecordBatch, ExportCArray) without
// panicking, and the export releases cleanly.
func TestIPCCorruptBatchesExport(t *testing.T) {
	recs := dictRecords(t, memory.DefaultAllocator, 1, 8)
	defer arrowtest.ReleaseRecords(recs)
	two := recs[0].NewSlice(0, 8)
	defer two.Release()
	schema := arrow.NewSchema(two.Schema().Fields()[:2], nil)
	rec := arrowarray.NewRecord(schema, two.Columns()[:2], two.NumRows())
	defer rec.Release()
	for _, file := range []bool{false, true} {
		var buf bytes.Buffer
		require.NoError(t, WriteRecords(&buf, file, schema, []arrow.Record{rec}))
		data := buf.Bytes()
		bad := make([]byte, len(data))
		step := 1
		if raceBuild {
			step = 5
		}
		for i := 0; i < len(data); i += step {
			for _, mask := range []byte{0x01, 0xff} {
				copy(bad, data)
				bad[i] ^= mask
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var rr arrowarray.RecordReader
				var err error
				if file {
					rr, err = ReadFile(bytes.NewReader(bad), WithAllocator(mem))
				} else {
					rr, err = ReadStream(bytes.NewReader(bad), WithAllocator(mem))
				}
				if err != nil {
					continue
				}
				require.NotPanics(t, func() {
					for rr.Next() {
						r := rr.Record()
						ca, cs := cStructs(t)
						require.NoError(t, ExportCRecordBatch(r, ca, cs))
						cabi.ReleaseArray(ca)
						cabi.ReleaseSchema(cs)
						for _, c := range r.Columns() {
							ca, cs := cStructs(t)
							require.NoError(t, ExportCArray(c, ca, cs))
							cabi.ReleaseArray(ca)
							cabi.ReleaseSchema(cs)
							_ = c.String()
						}
					}
				}, "file=%v byte %d ^ %#x", file, i, mask)
				rr.Release()
				assert.Zero(t, mem.CurrentAlloc(), "file=%v byte %d ^ %#x", file, i, mask)
			}
		}
	}
}

// TestCDataImportHostileMetadata (issue 17 item 11): schema metadata whose
// pair count or lengths go beyond the bytes (a count of 2^31-1 over an
// 8-byte blob made arrow-go allocate 2^32 strings, a fatal out-of-memory)
// is refused by every importer, at the top and in a child, with the
// structs released once; good metadata still imports.
func TestCDataImportHostileMetadata(t *testing.T) {
	defer cabi.FreeAll()
	bad := [][]byte{
		metadataBlob(1<<31-1, 0, ""),
		metadataBlob(-1),
		metadataBlob(maxCMetadataPairs + 1),
		metadataBlob(1, -2, "", 0, ""),
		metadataBlob(1, 1<<31-1, "k", 0, ""),
		metadataBlob(1, -1, "k", -9, "v"),
	}
	leaf := &cabi.HArray{Length: 1, NBuffers: 2, Buffers: []bool{false, true}}
	st := &cabi.HArray{Length: 1, NBuffers: 1, Buffers: []bool{false}, NChildren: 1, Children: []*cabi.HArray{leaf}}
	n := 0
	for i, md := range bad {
		top := &cabi.HSchema{Format: "+s", RawMetadata: md, NChildren: 1, Children: []*cabi.HSchema{{Format: "g", Name: "x"}}}
		child := &cabi.HSchema{Format: "+s", NChildren: 1, Children: []*cabi.HSchema{{Format: "g", Name: "x", RawMetadata: md}}}
		for _, hs := range []*cabi.HSchema{top, child} {
			for name, err := range importAll(t, hs, st) {
				require.ErrorIs(t, err, ErrInvalid, "case %d %s", i, name)
				assert.ErrorContains(t, err, "metadata", "case %d %s", i, name)
			}
			n++
		}
	}
	good := &cabi.HSchema{Format: "+s", NChildren: 1, Children: []*cabi.HSchema{{Format: "g", Name: "x", RawMetadata: metadataBlob(1, -1, "k", -1, "v")}}}
	rec, err := ImportCRecordBatch(cabi.BuildArray(st), cabi.BuildSchema(good))
	require.NoError(t, err)
	v, ok := rec.Schema().Field(0).Metadata.GetValue("k")
	assert.True(t, ok)
	assert.Equal(t, "v", v)
	rec.Release()
	assert.Equal(t, 2*3*n+2, cabi.Releases(), "every schema and array released once")
}
