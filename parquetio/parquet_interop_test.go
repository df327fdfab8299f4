package parquetio

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
	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
)

// pqReaderPackages are the npm packages TestParquetOtherReaders reads with:
// DuckDB's Node.js client (its native library comes in the platform package
// @duckdb/node-bindings-<os>-<arch>), arrow-rs's Parquet reader compiled to
// wasm, and Arrow JS to look at what it returns. Pinned: the README quotes
// what these versions were seen to give.
var pqReaderPackages = []string{"@duckdb/node-api@1.5.6-r.1", "parquet-wasm@0.8.0", "apache-arrow@21"}

// The types DuckDB and arrow-rs (as Arrow JS prints them) give a Parquet
// column of each element type, as seen with pqReaderPackages. A tensor
// column of elements T is T[] in DuckDB and FixedSizeList[k]<T> in arrow-rs.
var (
	duckdbTypes = map[array.DType]string{
		array.Bool: "BOOLEAN", array.Int8: "TINYINT", array.Int16: "SMALLINT", array.Int32: "INTEGER",
		array.Int64: "BIGINT", array.Uint8: "UTINYINT", array.Uint16: "USMALLINT", array.Uint32: "UINTEGER",
		array.Uint64: "UBIGINT", array.Float16: "FLOAT", array.Float32: "FLOAT", array.Float64: "DOUBLE",
	}
	arrowRSTypes = map[array.DType]string{
		array.Bool: "Bool", array.Int8: "Int8", array.Int16: "Int16", array.Int32: "Int32",
		array.Int64: "Int64", array.Uint8: "Uint8", array.Uint16: "Uint16", array.Uint32: "Uint32",
		array.Uint64: "Uint64", array.Float16: "Float16", array.Float32: "Float32", array.Float64: "Float64",
	}
)

// pqCol is what was written to one column. rows[r] is the row as the script
// reports it (JSON-decoded): a scalar (float64, bool, the decimal string of
// a 64-bit integer) or nil for a primitive column; for a tensor column its
// elements in the order stored (row-major over the physical shape), with
// nil for a null element, or nil for a null row.
type pqCol struct {
	name   string
	dt     array.DType
	tensor bool
	shape  []int // physical shape of a tensor
	perm   []int // permutation written (nil: identity)
	rows   []any
	str    bool // a utf8 column (dt unused): VARCHAR in DuckDB, Utf8 in arrow-rs
}

// pqInteropBatches and pqInteropRowGroup lay out the mixed file: batches of
// these sizes, row groups of pqInteropRowGroup rows (so row groups straddle
// batches).
const pqInteropRowGroup = 4

var pqInteropBatches = []int{4, 3, 5}

// pqInteropFixture builds the batches of the mixed file (all of one schema)
// and what each column holds, from rng:
//
//	f32   fixed_shape_tensor<float32>[2,3], dim names h,w; row 2 null, element 4 of row 5 null
//	f64   fixed_shape_tensor<float64>[2,3]; row 7 null
//	tr    fixed_shape_tensor<float64>, logical [3,2] = transposed physical [2,3] (permutation [1,0])
//	id    int64, nulls at rows 1 and 8, values beyond 2^53
//	dense fixed_shape_tensor<int32>[2,3], field not nullable
func pqInteropFixture(t *testing.T, mem memory.Allocator, rng *rand.Rand) ([]arrow.Record, []pqCol) {
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

	cols := []pqCol{
		{name: "f32", dt: array.Float32, tensor: true, shape: []int{2, 3}},
		{name: "f64", dt: array.Float64, tensor: true, shape: []int{2, 3}},
		{name: "tr", dt: array.Float64, tensor: true, shape: []int{2, 3}, perm: []int{1, 0}},
		{name: "id", dt: array.Int64},
		{name: "dense", dt: array.Int32, tensor: true, shape: []int{2, 3}},
	}
	for r := 0; r < n; r++ {
		row := func(get func(i int) float64, ok []bool) any {
			out, null := make([]any, k), true
			for e := 0; e < k; e++ {
				if ok == nil || ok[r*k+e] {
					out[e], null = get(r*k+e), false
				}
			}
			if null {
				return nil
			}
			return out
		}
		cols[0].rows = append(cols[0].rows, row(func(i int) float64 { return float64(f32[i]) }, f32ok))
		cols[1].rows = append(cols[1].rows, row(func(i int) float64 { return f64[i] }, f64ok))
		cols[2].rows = append(cols[2].rows, row(func(i int) float64 { return trPhys[i] }, nil))
		cols[4].rows = append(cols[4].rows, row(func(i int) float64 { return float64(dense[i]) }, nil))
		if idOK[r] {
			cols[3].rows = append(cols[3].rows, fmt.Sprint(ids[r]))
		} else {
			cols[3].rows = append(cols[3].rows, nil)
		}
	}

	var recs []arrow.Record
	r0 := 0
	for _, b := range pqInteropBatches {
		lo, hi := r0*k, (r0+b)*k
		a32, err := array.FromSliceValid(mem, f32[lo:hi], f32ok[lo:hi], b, 2, 3)
		require.NoError(t, err)
		c32, err := arrowio.ToTensorColumn(mem, a32, arrowio.WithDimNames("h", "w"))
		a32.Release()
		require.NoError(t, err)
		a64, err := array.FromSliceValid(mem, f64[lo:hi], f64ok[lo:hi], b, 2, 3)
		require.NoError(t, err)
		c64, err := arrowio.ToTensorColumn(mem, a64)
		a64.Release()
		require.NoError(t, err)
		phys, err := array.FromSlice(mem, trPhys[lo:hi], b, 2, 3)
		require.NoError(t, err)
		logical, err := phys.View([]int{b, 3, 2}, []int{6, 1, 3}, 0)
		phys.Release()
		require.NoError(t, err)
		ctr, err := arrowio.ToTensorColumn(mem, logical)
		logical.Release()
		require.NoError(t, err)
		require.Equal(t, []int{1, 0}, ctr.TensorType().Permutation())
		ad, err := array.FromSlice(mem, dense[lo:hi], b, 2, 3)
		require.NoError(t, err)
		cd, err := arrowio.ToTensorColumn(mem, ad)
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
		arrs := []arrow.Array{c32, c64, ctr, cid, cd}
		recs = append(recs, arrowarray.NewRecord(schema, arrs, int64(b)))
		releaseArrow(arrs)
		r0 += b
	}
	return recs, cols
}

// pqEveryDTypeFixture builds one record with a tensor column of shape [2,2]
// for every dtype ("t_" + dtype), values from rng over the dtype's whole
// range, row 1 null and element 2 of row 3 null.
func pqEveryDTypeFixture(t *testing.T, mem memory.Allocator, rng *rand.Rand) ([]arrow.Record, []pqCol) {
	t.Helper()
	const rows, k = 6, 4
	var fields []arrow.Field
	var arrs []arrow.Array
	var cols []pqCol
	for _, dt := range array.DTypes {
		b := arrowarray.NewBuilder(mem, dt.ArrowType())
		c := pqCol{name: "t_" + dt.String(), dt: dt, tensor: true, shape: []int{2, 2}}
		for r := 0; r < rows; r++ {
			if r == 1 {
				for e := 0; e < k; e++ {
					b.AppendNull()
				}
				c.rows = append(c.rows, nil)
				continue
			}
			row := make([]any, k)
			for e := range row {
				if r == 3 && e == 2 {
					b.AppendNull()
					continue
				}
				row[e] = appendRandom(t, b, rng)
			}
			c.rows = append(c.rows, row)
		}
		flat := b.NewArray()
		b.Release()
		a, err := arrowio.FromArrow(mem, flat)
		flat.Release()
		require.NoError(t, err)
		a3, err := a.Reshaped(rows, 2, 2)
		a.Release()
		require.NoError(t, err)
		col, err := arrowio.ToTensorColumn(mem, a3)
		a3.Release()
		require.NoError(t, err)
		require.Equal(t, 1, col.NullN(), "%v", dt)
		fields = append(fields, arrow.Field{Name: c.name, Type: col.DataType(), Nullable: true})
		arrs = append(arrs, col)
		cols = append(cols, c)
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, rows)
	releaseArrow(arrs)
	return []arrow.Record{rec}, cols
}

// pqFlatRowGroup and pqFlatBatches lay out the flat file.
const pqFlatRowGroup = 1000

var pqFlatBatches = []int{700, 1800, 1, 499}

// pqFlatFixture builds the batches of a file the fast writer writes: for
// every dtype but bool and float16, and for utf8, a nullable column with
// nulls and many distinct values (PLAIN pages), one with few (a
// dictionary), and one not nullable; row groups straddle batches.
func pqFlatFixture(t *testing.T, mem memory.Allocator, rng *rand.Rand) ([]arrow.Record, []pqCol) {
	t.Helper()
	rows := 0
	for _, n := range pqFlatBatches {
		rows += n
	}
	var fields []arrow.Field
	var arrs []arrow.Array
	var cols []pqCol
	add := func(name string, typ arrow.DataType, nullable bool, c pqCol, value func(b arrowarray.Builder, r int) any) {
		b := arrowarray.NewBuilder(mem, typ)
		c.name = name
		for r := 0; r < rows; r++ {
			if nullable && rng.Intn(10) == 0 {
				b.AppendNull()
				c.rows = append(c.rows, nil)
				continue
			}
			c.rows = append(c.rows, value(b, r))
		}
		arrs = append(arrs, b.NewArray())
		b.Release()
		fields = append(fields, arrow.Field{Name: name, Type: typ, Nullable: nullable})
		cols = append(cols, c)
	}
	for _, dt := range array.DTypes {
		if dt == array.Bool || dt == array.Float16 {
			continue
		}
		c := pqCol{dt: dt}
		add("many_"+dt.String(), dt.ArrowType(), true, c, func(b arrowarray.Builder, r int) any { return appendRandom(t, b, rng) })
		add("few_"+dt.String(), dt.ArrowType(), true, c, func(b arrowarray.Builder, r int) any {
			return appendRandom(t, b, rand.New(rand.NewSource(int64(rng.Intn(5)))))
		})
		add("req_"+dt.String(), dt.ArrowType(), false, c, func(b arrowarray.Builder, r int) any { return appendRandom(t, b, rng) })
	}
	str := func(s string) func(b arrowarray.Builder, r int) any {
		return func(b arrowarray.Builder, r int) any {
			v := fmt.Sprintf(s, rng.Intn(1<<30))
			if s == "few" {
				v = []string{"", "a", "b\"", "é"}[rng.Intn(4)]
			}
			b.(*arrowarray.StringBuilder).Append(v)
			return v
		}
	}
	add("many_utf8", arrow.BinaryTypes.String, true, pqCol{str: true}, str("s%d"))
	add("few_utf8", arrow.BinaryTypes.String, true, pqCol{str: true}, str("few"))
	s := arrow.NewSchema(fields, nil)
	var recs []arrow.Record
	at := 0
	for _, n := range pqFlatBatches {
		part := make([]arrow.Array, len(arrs))
		for i, a := range arrs {
			part[i] = arrowarray.NewSlice(a, int64(at), int64(at+n))
		}
		recs = append(recs, arrowarray.NewRecord(s, part, int64(n)))
		releaseArrow(part)
		at += n
	}
	releaseArrow(arrs)
	return recs, cols
}

// appendRandom appends a random value of b's type (over the type's whole
// range for integers) to b and returns it as the script reports it.
func appendRandom(t *testing.T, b arrowarray.Builder, rng *rand.Rand) any {
	u := rng.Uint64()
	switch b := b.(type) {
	case *arrowarray.BooleanBuilder:
		b.Append(u&1 == 1)
		return u&1 == 1
	case *arrowarray.Int8Builder:
		b.Append(int8(u))
		return float64(int8(u))
	case *arrowarray.Int16Builder:
		b.Append(int16(u))
		return float64(int16(u))
	case *arrowarray.Int32Builder:
		b.Append(int32(u))
		return float64(int32(u))
	case *arrowarray.Int64Builder:
		b.Append(int64(u))
		return fmt.Sprint(int64(u))
	case *arrowarray.Uint8Builder:
		b.Append(uint8(u))
		return float64(uint8(u))
	case *arrowarray.Uint16Builder:
		b.Append(uint16(u))
		return float64(uint16(u))
	case *arrowarray.Uint32Builder:
		b.Append(uint32(u))
		return float64(uint32(u))
	case *arrowarray.Uint64Builder:
		b.Append(u)
		return fmt.Sprint(u)
	case *arrowarray.Float16Builder:
		v := float16.New(float32(rng.NormFloat64() * 100))
		b.Append(v)
		return float64(v.Float32())
	case *arrowarray.Float32Builder:
		v := float32(rng.NormFloat64() * 1e6)
		b.Append(v)
		return float64(v)
	case *arrowarray.Float64Builder:
		v := rng.NormFloat64() * 1e100
		b.Append(v)
		return v
	}
	t.Fatalf("appendRandom: no case for %T", b)
	return nil
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

// TestParquetOtherReaders writes Parquet files with parquetio.Write and
// reads them in Node.js with DuckDB and with arrow-rs's reader
// (parquet-wasm), which know nothing of stride0, then checks the types,
// nullability, extension metadata and every value they report against what
// was written (values from a fixed seed). "mixed": tensor columns of
// float32, float64 and int32, one with a permutation, one not nullable, null
// tensor rows, a null element, an int64 column with nulls, three row groups
// across three batches. "every dtype": a tensor column of each dtype. The
// README's "What other readers see" states these results. Like
// TestJavaScriptRoundTrip: skipped without node or npm (a failure under
// STRIDE0_REQUIRE_JS), failed when npm cannot install the packages, skipped
// by -short.
func TestParquetOtherReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the DuckDB and arrow-rs (npm) Parquet interop test")
	}
	dir := npmPackages(t, pqReaderPackages...)
	script, err := os.ReadFile(filepath.Join("testdata", "parquet_readers.mjs"))
	require.NoError(t, err)
	prog := filepath.Join(dir, "parquet_readers.mjs") // next to node_modules
	require.NoError(t, os.WriteFile(prog, script, 0o644))

	for _, tc := range []struct {
		name     string
		fixture  func(*testing.T, memory.Allocator, *rand.Rand) ([]arrow.Record, []pqCol)
		rowGroup int
		fast     bool // written by the fast writer (fastwrite.go)
	}{
		{"mixed", pqInteropFixture, pqInteropRowGroup, false},
		{"every dtype", pqEveryDTypeFixture, pqInteropRowGroup, false},
		{"flat", pqFlatFixture, pqFlatRowGroup, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := arrowtest.NewMem(t)
			recs, cols := tc.fixture(t, mem, rand.New(rand.NewSource(13)))
			defer arrowtest.ReleaseRecords(recs)
			// small pages: several per column chunk
			data := writePQ(t, mem, recs[0].Schema(), recs, WithRowGroupRows(tc.rowGroup), func(c *writeConfig) { c.pageBytes = 2000 })
			require.Equal(t, tc.fast, fastWritten(t, data), "written by the fast writer")
			seen := readWithOthers(t, prog, data)
			n := 0
			for _, r := range recs {
				n += int(r.NumRows())
			}
			checkDuckDB(t, seen, cols, n, tc.rowGroup)
			checkArrowRS(t, seen, recs[0].Schema(), cols, n)
		})
	}
}

// readWithOthers runs the script on a file holding data and returns what
// it reports.
func readWithOthers(t *testing.T, prog string, data []byte) pqSeen {
	t.Helper()
	work := t.TempDir()
	in, out := filepath.Join(work, "from_go.parquet"), filepath.Join(work, "seen.json")
	require.NoError(t, os.WriteFile(in, data, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := exec.CommandContext(ctx, "node", prog, in, out).CombinedOutput()
	require.NoError(t, err, "node parquet_readers.mjs:\n%s", res)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	var seen pqSeen
	require.NoError(t, json.Unmarshal(raw, &seen))
	return seen
}

// checkDuckDB: a tensor column is a LIST of its element type (FLOAT[], not
// FLOAT[6]), nullable; a null tensor row is a list of NULL elements, not
// NULL, and list_count(col) = 0 finds those rows; col::FLOAT[k] casts to a
// fixed-size array; the row groups are those written.
func checkDuckDB(t *testing.T, seen pqSeen, cols []pqCol, n, rowGroup int) {
	d := seen.DuckDB
	t.Logf("DuckDB %s", d.Version)
	assert.Equal(t, n, d.Count, "DuckDB row count")
	assert.Equal(t, (n+rowGroup-1)/rowGroup, d.RowGroups, "DuckDB row groups")
	require.Len(t, d.Columns, len(cols))
	require.Len(t, d.Rows, n)
	for i, w := range cols {
		c := d.Columns[i]
		assert.Equal(t, w.name, c.Name)
		assert.True(t, c.Nullable, "DuckDB: column %s nullable", w.name)
		for r := range w.rows {
			assertRow(t, "DuckDB", w, r, d.Rows[r][w.name])
		}
		if w.str {
			assert.Equal(t, "VARCHAR", c.Type, "DuckDB type of %s", w.name)
			assert.Equal(t, pqCountNil(w.rows), d.NullRows[w.name], "DuckDB: NULLs in %s", w.name)
			continue
		}
		if !w.tensor {
			assert.Equal(t, duckdbTypes[w.dt], c.Type, "DuckDB type of %s", w.name)
			assert.Equal(t, pqCountNil(w.rows), d.NullRows[w.name], "DuckDB: NULLs in %s", w.name)
			continue
		}
		assert.Equal(t, duckdbTypes[w.dt]+"[]", c.Type, "DuckDB type of %s", w.name)
		assert.Zero(t, d.NullRows[w.name], "DuckDB: NULL rows in %s", w.name)
		assert.Equal(t, pqCountNil(w.rows), d.NoValidElement[w.name], "DuckDB: rows of %s with list_count = 0", w.name)
		assert.Equal(t, fmt.Sprintf("%s[%d]", duckdbTypes[w.dt], pqProd(w.shape)), d.FixedCast[w.name], "DuckDB: %s cast to a fixed-size array", w.name)
	}
}

// checkArrowRS: the stored Arrow schema is restored: a tensor column is a
// FixedSizeList whose field carries ARROW:extension:name and metadata as
// written (what pyarrow rebuilds a arrowio.FixedShapeTensorType from); every column
// holding a fixed-size list is nullable; a null tensor row is a valid row of
// null elements.
func checkArrowRS(t *testing.T, seen pqSeen, schema *arrow.Schema, cols []pqCol, n int) {
	a := seen.ArrowRS
	assert.Equal(t, n, a.Count, "arrow-rs row count")
	require.Len(t, a.Fields, len(cols))
	for i, w := range cols {
		f := a.Fields[i]
		assert.Equal(t, w.name, f.Name)
		// every column holding a tensor is written nullable; the others as
		// the schema says
		assert.Equal(t, w.tensor || schema.Field(i).Nullable, f.Nullable, "arrow-rs: field %s nullable", w.name)
		rows := a.Rows[w.name]
		require.Len(t, rows, n, "arrow-rs rows of %s", w.name)
		for r := range w.rows {
			assertRow(t, "arrow-rs", w, r, rows[r])
		}
		if w.str {
			assert.Equal(t, "Utf8", f.Type, "arrow-rs type of %s", w.name)
			assert.Empty(t, f.Metadata, "arrow-rs metadata of %s", w.name)
			continue
		}
		if !w.tensor {
			assert.Equal(t, arrowRSTypes[w.dt], f.Type, "arrow-rs type of %s", w.name)
			assert.Empty(t, f.Metadata, "arrow-rs metadata of %s", w.name)
			continue
		}
		k := pqProd(w.shape)
		assert.Equal(t, fmt.Sprintf("FixedSizeList[%d]<%s>", k, arrowRSTypes[w.dt]), f.Type, "arrow-rs type of %s", w.name)
		if assert.NotNil(t, f.ChildNullable) {
			assert.True(t, *f.ChildNullable, "arrow-rs: elements of %s nullable", w.name)
		}
		tt, ok := schema.Field(i).Type.(*arrowio.FixedShapeTensorType)
		require.True(t, ok, "column %s written as %v", w.name, schema.Field(i).Type)
		assert.Equal(t, tt.ExtensionName(), f.Metadata["ARROW:extension:name"], "arrow-rs: extension name of %s", w.name)
		assert.Equal(t, tt.Serialize(), f.Metadata["ARROW:extension:metadata"], "arrow-rs: extension metadata of %s", w.name)
		var md struct {
			Shape       []int
			Permutation []int
		}
		require.NoError(t, json.Unmarshal([]byte(f.Metadata["ARROW:extension:metadata"]), &md))
		assert.Equal(t, w.shape, md.Shape, "arrow-rs: shape of %s", w.name)
		assert.Equal(t, w.perm, md.Permutation, "arrow-rs: permutation of %s", w.name)
	}
}

// assertRow checks row r of column w as a reader reported it (JSON), exactly:
// a null tensor row must come as a row of null elements (how Write
// stores it).
func assertRow(t *testing.T, reader string, w pqCol, r int, got json.RawMessage) {
	t.Helper()
	want := w.rows[r]
	if w.tensor && want == nil {
		want = make([]any, pqProd(w.shape))
	}
	var g any
	if assert.NoError(t, json.Unmarshal(got, &g), "%s: %s row %d: %s", reader, w.name, r, got) {
		assert.Equal(t, want, g, "%s: %s row %d", reader, w.name, r)
	}
}

func pqProd(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

func pqCountNil(xs []any) int {
	c := 0
	for _, x := range xs {
		if x == nil {
			c++
		}
	}
	return c
}
