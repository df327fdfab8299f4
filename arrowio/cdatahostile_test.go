//go:build cgo

package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow/cdata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio/internal/cabi"
)

// importAll runs every importer on fresh copies of one hostile schema and
// array, and reports each one's error. Successes are released at once.
func importAll(t *testing.T, hs *cabi.HSchema, ha *cabi.HArray) map[string]error {
	t.Helper()
	mem := newMem(t)
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
