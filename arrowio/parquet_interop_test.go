package arrowio

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// pqReaderPackages are the npm packages TestParquetOtherReaders reads with:
// DuckDB's Node.js client (its native library comes in the platform package
// @duckdb/node-bindings-<os>-<arch>), arrow-rs's Parquet reader compiled to
// wasm, and Arrow JS to look at what it returns. Pinned: the README quotes
// what these versions were seen to give.
var pqReaderPackages = []string{"@duckdb/node-api@1.5.6-r.1", "parquet-wasm@0.8.0", "apache-arrow@21"}

// pqInteropBatches and pqInteropRowGroup lay out the file the Parquet
// interop test writes: batches of these sizes, row groups of
// pqInteropRowGroup rows (so row groups straddle batches). and pqInteropRowGroup lay out the file the
// Parquet interop test writes: batches of these sizes, row groups of
// pqInteropRowGroup rows (so row groups straddle batches).
const pqInteropRowGroup = 4

var pqInteropBatches = []int{4, 3, 5}

// pqWant is what was written to one column, row by row: a tensor column's
// rows as their elements in the order a plain reader stores them (row-major
// over the physical shape), nil for a null row, and a nil entry in a row's
// elems for a null element; a primitive column's rows as one-element rows.
type pqWant struct {
	name     string
	ext      bool  // an arrow.fixed_shape_tensor column
	shape    []int // physical shape of a tensor
	perm     []int // permutation written (nil: identity)
	nullable bool  // the field's nullability as written
	elemType string
	rows     [][]*float64 // tensor columns
	ints     []*int64     // the int64 column
}

// pqInteropFixture builds the batches (all of one schema) and what each
// column holds, from rng:
//
//	f32   fixed_shape_tensor<float32>[2,3], dim names h,w; row 2 null, element 4 of row 5 null
//	f64   fixed_shape_tensor<float64>[2,3]; row 7 null
//	tr    fixed_shape_tensor<float64>, logical [3,2] = transposed physical [2,3] (permutation [1,0])
//	id    int64, nulls at rows 1 and 8, values beyond 2^53
//	dense fixed_shape_tensor<int32>[2,3], field not nullable
func pqInteropFixture(t *testing.T, mem memory.Allocator, rng *rand.Rand) ([]arrow.Record, []pqWant) {
	t.Helper()
	n := 0
	for _, b := range pqInteropBatches {
		n += b
	}
	const k = 6
	f32 := make([]float32, n*k)
	f64 := make([]float64, n*k)
	trPhys := make([]float64, n*k) // physical [2,3] of each row
	dense := make([]int32, n*k)
	f32ok, f64ok := make([]bool, n*k), make([]bool, n*k)
	for i := range f32 {
		f32[i] = float32(rng.NormFloat64())
		f64[i] = rng.NormFloat64() * 1e3
		trPhys[i] = float64(rng.Intn(1000)) / 8
		dense[i] = rng.Int31() - 1<<30
		f32ok[i] = !(i/k == 2 || i == 5*k+4)
		f64ok[i] = i/k != 7
	}
	ids, idOK := make([]int64, n), make([]bool, n)
	for i := range ids {
		ids[i] = rng.Int63() - 1<<62
		idOK[i] = i != 1 && i != 8
	}

	wants := []pqWant{
		{name: "f32", ext: true, shape: []int{2, 3}, nullable: true, elemType: "float"},
		{name: "f64", ext: true, shape: []int{2, 3}, nullable: true, elemType: "double"},
		{name: "tr", ext: true, shape: []int{2, 3}, perm: []int{1, 0}, nullable: true, elemType: "double"},
		{name: "id", nullable: true, elemType: "int64"},
		{name: "dense", ext: true, shape: []int{2, 3}, nullable: false, elemType: "int32"},
	}
	for r := 0; r < n; r++ {
		row := func(get func(i int) float64, ok []bool) []*float64 {
			if ok != nil {
				null := true
				for e := 0; e < k; e++ {
					null = null && !ok[r*k+e]
				}
				if null {
					return nil
				}
			}
			out := make([]*float64, k)
			for e := 0; e < k; e++ {
				if ok == nil || ok[r*k+e] {
					v := get(r*k + e)
					out[e] = &v
				}
			}
			return out
		}
		wants[0].rows = append(wants[0].rows, row(func(i int) float64 { return float64(f32[i]) }, f32ok))
		wants[1].rows = append(wants[1].rows, row(func(i int) float64 { return f64[i] }, f64ok))
		wants[2].rows = append(wants[2].rows, row(func(i int) float64 { return trPhys[i] }, nil))
		wants[4].rows = append(wants[4].rows, row(func(i int) float64 { return float64(dense[i]) }, nil))
		if idOK[r] {
			v := ids[r]
			wants[3].ints = append(wants[3].ints, &v)
		} else {
			wants[3].ints = append(wants[3].ints, nil)
		}
	}

	var recs []arrow.Record
	r0 := 0
	for _, b := range pqInteropBatches {
		lo, hi := r0*k, (r0+b)*k
		a32, err := array.FromSliceValid(mem, f32[lo:hi], f32ok[lo:hi], b, 2, 3)
		require.NoError(t, err)
		c32, err := ToTensorColumn(mem, a32, WithDimNames("h", "w"))
		a32.Release()
		require.NoError(t, err)
		a64, err := array.FromSliceValid(mem, f64[lo:hi], f64ok[lo:hi], b, 2, 3)
		require.NoError(t, err)
		c64, err := ToTensorColumn(mem, a64)
		a64.Release()
		require.NoError(t, err)
		phys, err := array.FromSlice(mem, trPhys[lo:hi], b, 2, 3)
		require.NoError(t, err)
		logical, err := phys.View([]int{b, 3, 2}, []int{6, 1, 3}, 0)
		phys.Release()
		require.NoError(t, err)
		ctr, err := ToTensorColumn(mem, logical)
		logical.Release()
		require.NoError(t, err)
		require.Equal(t, []int{1, 0}, ctr.TensorType().Permutation())
		ad, err := array.FromSlice(mem, dense[lo:hi], b, 2, 3)
		require.NoError(t, err)
		cd, err := ToTensorColumn(mem, ad)
		ad.Release()
		require.NoError(t, err)
		ib := arrowarray.NewInt64Builder(mem)
		for i := r0; i < r0+b; i++ {
			if idOK[i] {
				ib.Append(ids[i])
			} else {
				ib.AppendNull()
			}
		}
		cid := ib.NewArray()
		ib.Release()
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "f32", Type: c32.DataType(), Nullable: true},
			{Name: "f64", Type: c64.DataType(), Nullable: true},
			{Name: "tr", Type: ctr.DataType(), Nullable: true},
			{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "dense", Type: cd.DataType(), Nullable: false},
		}, nil)
		cols := []arrow.Array{c32, c64, ctr, cid, cd}
		recs = append(recs, arrowarray.NewRecord(schema, cols, int64(b)))
		releaseArrow(cols)
		r0 += b
	}
	return recs, wants
}

// pqSeen is what testdata/parquet_readers.mjs reports (see there).
type pqSeen struct {
	DuckDB struct {
		Version string
		Columns []struct {
			Name, Type string
			Nullable   bool
		}
		Rows           []map[string]json.RawMessage
		Count          int
		RowGroups      int
		NullRows       map[string]int
		NoValidElement map[string]int
		FixedCast      map[string]string
	}
	ArrowRS struct {
		Count  int
		Fields []struct {
			Name, Type    string
			Nullable      bool
			ListSize      *int
			ChildNullable *bool
			Metadata      map[string]string
		}
		Rows map[string][]json.RawMessage
	}
}

// TestParquetOtherReaders writes a Parquet file with arrowio.WriteParquet
// (tensor columns of float32, float64 and int32, one with a permutation, one
// not nullable, null tensor rows, a null element, an int64 column with
// nulls, three row groups across three batches, values from a fixed seed)
// and reads it in Node.js with DuckDB and with arrow-rs's reader
// (parquet-wasm), which know nothing of stride0; it checks the types, the
// nullability, the extension metadata and every value they report against
// what was written. The README's "What other readers see" states these
// results. Like TestJavaScriptRoundTrip: skipped without node or npm (a
// failure under STRIDE0_REQUIRE_JS), failed when npm cannot install the
// packages, skipped by -short.
func TestParquetOtherReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the DuckDB and arrow-rs (npm) Parquet interop test")
	}
	dir := npmPackages(t, pqReaderPackages...)
	mem := newMem(t)
	recs, wants := pqInteropFixture(t, mem, rand.New(rand.NewSource(13)))
	defer releaseRecords(recs)
	schema := recs[0].Schema()
	data := writePQ(t, mem, schema, recs, WithRowGroupRows(pqInteropRowGroup))
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
	}

	work := t.TempDir()
	in, out := filepath.Join(work, "from_go.parquet"), filepath.Join(work, "seen.json")
	require.NoError(t, os.WriteFile(in, data, 0o644))
	script, err := os.ReadFile(filepath.Join("testdata", "parquet_readers.mjs"))
	require.NoError(t, err)
	prog := filepath.Join(dir, "parquet_readers.mjs") // next to node_modules
	require.NoError(t, os.WriteFile(prog, script, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := exec.CommandContext(ctx, "node", prog, in, out).CombinedOutput()
	require.NoError(t, err, "node parquet_readers.mjs:\n%s", res)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	var seen pqSeen
	require.NoError(t, json.Unmarshal(raw, &seen))

	// DuckDB: a tensor column is a LIST of its element type, FLOAT[] (not
	// FLOAT[6]), nullable; a null tensor row is a list of NULL elements, not
	// NULL; list_count(col) = 0 finds those rows; col::FLOAT[6] casts.
	d := seen.DuckDB
	t.Logf("DuckDB %s", d.Version)
	duckElem := map[string]string{"float": "FLOAT", "double": "DOUBLE", "int32": "INTEGER", "int64": "BIGINT"}
	require.Len(t, d.Columns, len(wants))
	assert.Equal(t, n, d.Count, "DuckDB row count")
	assert.Equal(t, (n+pqInteropRowGroup-1)/pqInteropRowGroup, d.RowGroups, "DuckDB row groups")
	require.Len(t, d.Rows, n)
	for i, w := range wants {
		c := d.Columns[i]
		assert.Equal(t, w.name, c.Name)
		assert.True(t, c.Nullable, "DuckDB: column %s nullable", w.name)
		if !w.ext {
			assert.Equal(t, duckElem[w.elemType], c.Type, "DuckDB type of %s", w.name)
			assert.Equal(t, countNil(w.ints), d.NullRows[w.name], "DuckDB NULLs in %s", w.name)
			for r := range w.ints {
				assert.Equal(t, int64String(w.ints[r]), string(d.Rows[r][w.name]), "DuckDB %s row %d", w.name, r)
			}
			continue
		}
		k := prod(w.shape)
		assert.Equal(t, duckElem[w.elemType]+"[]", c.Type, "DuckDB type of %s", w.name)
		assert.Zero(t, d.NullRows[w.name], "DuckDB: NULL rows in %s", w.name)
		assert.Equal(t, countNilRows(w.rows), d.NoValidElement[w.name], "DuckDB: rows of %s with list_count = 0", w.name)
		assert.Equal(t, fmt.Sprintf("%s[%d]", duckElem[w.elemType], k), d.FixedCast[w.name], "DuckDB: %s cast to a fixed-size array", w.name)
		for r, row := range w.rows {
			assertListRow(t, "DuckDB", w.name, r, rowOfNulls(row, k), d.Rows[r][w.name])
		}
	}

	// arrow-rs: the stored Arrow schema is restored: a tensor column is a
	// FixedSizeList with the field's ARROW:extension:name and metadata as
	// written (what pyarrow rebuilds a FixedShapeTensorType from); every
	// column holding a fixed-size list is nullable; a null tensor row is a
	// valid row of null elements.
	a := seen.ArrowRS
	arrowElem := map[string]string{"float": "Float32", "double": "Float64", "int32": "Int32", "int64": "Int64"}
	assert.Equal(t, n, a.Count, "arrow-rs row count")
	require.Len(t, a.Fields, len(wants))
	for i, w := range wants {
		f := a.Fields[i]
		assert.Equal(t, w.name, f.Name)
		assert.True(t, f.Nullable, "arrow-rs: field %s nullable", w.name)
		rows := a.Rows[w.name]
		require.Len(t, rows, n, "arrow-rs rows of %s", w.name)
		if !w.ext {
			assert.Equal(t, arrowElem[w.elemType], f.Type, "arrow-rs type of %s", w.name)
			assert.Empty(t, f.Metadata, "arrow-rs metadata of %s", w.name)
			for r := range w.ints {
				assert.Equal(t, int64String(w.ints[r]), string(rows[r]), "arrow-rs %s row %d", w.name, r)
			}
			continue
		}
		k := prod(w.shape)
		assert.Equal(t, fmt.Sprintf("FixedSizeList[%d]<%s>", k, arrowElem[w.elemType]), f.Type, "arrow-rs type of %s", w.name)
		if assert.NotNil(t, f.ChildNullable) {
			assert.True(t, *f.ChildNullable, "arrow-rs: elements of %s nullable", w.name)
		}
		tt := schema.Field(i).Type.(*FixedShapeTensorType)
		assert.Equal(t, tt.ExtensionName(), f.Metadata["ARROW:extension:name"], "arrow-rs: extension name of %s", w.name)
		assert.Equal(t, tt.Serialize(), f.Metadata["ARROW:extension:metadata"], "arrow-rs: extension metadata of %s", w.name)
		var md struct {
			Shape       []int
			Permutation []int
		}
		require.NoError(t, json.Unmarshal([]byte(f.Metadata["ARROW:extension:metadata"]), &md))
		assert.Equal(t, w.shape, md.Shape, "arrow-rs: shape of %s", w.name)
		assert.Equal(t, w.perm, md.Permutation, "arrow-rs: permutation of %s", w.name)
		for r, row := range w.rows {
			assertListRow(t, "arrow-rs", w.name, r, rowOfNulls(row, k), rows[r])
		}
	}
}

func prod(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

func countNil[T any](xs []*T) int {
	c := 0
	for _, x := range xs {
		if x == nil {
			c++
		}
	}
	return c
}

func countNilRows(rows [][]*float64) int {
	c := 0
	for _, r := range rows {
		if r == nil {
			c++
		}
	}
	return c
}

// int64String is how the script reports an int64: a JSON string of its
// decimal digits, or null.
func int64String(v *int64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%q", fmt.Sprint(*v))
}

// rowOfNulls is row, or k null elements for a null row (how WriteParquet
// stores a null tensor row).
func rowOfNulls(row []*float64, k int) []*float64 {
	if row == nil {
		return make([]*float64, k)
	}
	return row
}

// assertListRow checks a list row a reader reported (JSON: an array of
// numbers and nulls) against want, element by element, exactly.
func assertListRow(t *testing.T, reader, col string, r int, want []*float64, got json.RawMessage) {
	t.Helper()
	var els []*float64
	if !assert.NoError(t, json.Unmarshal(got, &els), "%s: %s row %d: %s", reader, col, r, got) {
		return
	}
	if !assert.NotNil(t, els, "%s: %s row %d is null", reader, col, r) || !assert.Len(t, els, len(want), "%s: %s row %d", reader, col, r) {
		return
	}
	for e := range want {
		switch {
		case want[e] == nil:
			assert.Nil(t, els[e], "%s: %s row %d element %d should be null", reader, col, r, e)
		case els[e] == nil:
			assert.Fail(t, "null element", "%s: %s row %d element %d is null, wrote %v", reader, col, r, e, *want[e])
		default:
			assert.Equal(t, *want[e], *els[e], "%s: %s row %d element %d", reader, col, r, e)
		}
	}
}
