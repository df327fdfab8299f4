package parquetio

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
)

// readTypes are the column types of the random files: those pqdecode
// reads and some it leaves to pqarrow (int8, a list, a fixed-size list).
var readTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint32,
	arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String, arrow.BinaryTypes.Binary,
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us,
	&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"},
	&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, &arrow.TimestampType{Unit: arrow.Nanosecond},
	arrow.PrimitiveTypes.Int8, arrow.ListOf(arrow.PrimitiveTypes.Float32), arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float64),
}

// fastRandomColumn builds n random values of t, a fraction nullFrac of them null
// (none when the field is not nullable), few distinct values when dict
// (so that the writer's dictionary holds), special values included.
func fastRandomColumn(mem memory.Allocator, rng *rand.Rand, t arrow.DataType, n int, nullFrac float64, few bool) arrow.Array {
	b := arrowarray.NewBuilder(mem, t)
	defer b.Release()
	distinct := 1 << 30
	if few {
		distinct = 1 + rng.IntN(50)
	}
	pick := func() int { return rng.IntN(distinct) }
	ints := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}
	floats := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64}
	for i := 0; i < n; i++ {
		if nullFrac > 0 && rng.Float64() < nullFrac {
			b.AppendNull()
			continue
		}
		v := pick()
		special := rng.IntN(20) == 0
		switch bb := b.(type) {
		case *arrowarray.Int32Builder:
			x := int32(v)
			if special {
				x = int32(ints[rng.IntN(len(ints))])
			}
			bb.Append(x)
		case *arrowarray.Int64Builder:
			x := int64(v) * 7919
			if special {
				x = ints[rng.IntN(len(ints))]
			}
			bb.Append(x)
		case *arrowarray.Uint32Builder:
			bb.Append(uint32(v) * 2654435761)
		case *arrowarray.Uint64Builder:
			bb.Append(uint64(v) * 0x9E3779B97F4A7C15)
		case *arrowarray.Float32Builder:
			x := float32(v) / 3
			if special {
				x = float32(floats[rng.IntN(len(floats))])
			}
			bb.Append(x)
		case *arrowarray.Float64Builder:
			x := float64(v) / 7
			if special {
				x = floats[rng.IntN(len(floats))]
			}
			bb.Append(x)
		case *arrowarray.BooleanBuilder:
			bb.Append(v%2 == 1)
		case *arrowarray.StringBuilder:
			if special {
				bb.Append("")
			} else {
				bb.Append(fmt.Sprintf("id%0*d", 1+v%5, v))
			}
		case *arrowarray.BinaryBuilder:
			bb.Append([]byte(fmt.Sprintf("\x00b%d\xff", v)))
		case *arrowarray.Date32Builder:
			bb.Append(arrow.Date32(v % 100000))
		case *arrowarray.Time32Builder:
			bb.Append(arrow.Time32(v % 86400000))
		case *arrowarray.Time64Builder:
			bb.Append(arrow.Time64(int64(v) % 86400000000))
		case *arrowarray.TimestampBuilder:
			bb.Append(arrow.Timestamp(int64(v%1000000) * 1000))
		case *arrowarray.Int8Builder:
			bb.Append(int8(v))
		case *arrowarray.ListBuilder:
			bb.Append(true)
			vb := bb.ValueBuilder().(*arrowarray.Float32Builder)
			for k := rng.IntN(4); k > 0; k-- {
				vb.Append(float32(v + k))
			}
		case *arrowarray.FixedSizeListBuilder:
			bb.Append(true)
			vb := bb.ValueBuilder().(*arrowarray.Float64Builder)
			for k := 0; k < 3; k++ {
				vb.Append(float64(v * k))
			}
		default:
			panic(fmt.Sprintf("no random values for %T", b))
		}
	}
	return b.NewArray()
}

// fastRandomFile writes a random file: its record, and the bytes.
func fastRandomFile(t *testing.T, mem memory.Allocator, rng *rand.Rand) (arrow.Record, []byte, string) {
	ncols := 1 + rng.IntN(6)
	rows := []int{0, 1, 7, 100, 1000, 3000}[rng.IntN(6)]
	fields := make([]arrow.Field, ncols)
	cols := make([]arrow.Array, ncols)
	for i := range fields {
		typ := readTypes[rng.IntN(len(readTypes))]
		nullable := rng.IntN(3) > 0
		frac := 0.0
		if nullable {
			frac = []float64{0, 0.01, 0.3, 1}[rng.IntN(4)]
		}
		if _, ok := typ.(*arrow.FixedSizeListType); ok {
			frac = 0 // tensor null rows are another rule (fslRowNulls), tested elsewhere
		}
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: typ, Nullable: nullable}
		cols[i] = fastRandomColumn(mem, rng, typ, rows, frac, rng.IntN(2) == 0)
	}
	schema := arrow.NewSchema(fields, nil)
	rec := arrowarray.NewRecord(schema, cols, int64(rows))
	releaseArrow(cols)
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Zstd, compress.Codecs.Brotli}
	codec := codecs[rng.IntN(len(codecs))]
	version := []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2}[rng.IntN(2)]
	dict := rng.IntN(3) > 0
	page := []int64{256, 4 << 10, 1 << 20}[rng.IntN(3)]
	group := []int{3, 100, 1000, 1 << 20}[rng.IntN(4)]
	if rows > 300 && group < 100 {
		group = 100
	}
	props := []parquet.WriterProperty{parquet.WithCompression(codec), parquet.WithDataPageVersion(version),
		parquet.WithDictionaryDefault(dict), parquet.WithDataPageSize(page), parquet.WithBatchSize(int64(1 + rng.IntN(2000)))}
	var buf bytes.Buffer
	rr, err := arrowarray.NewRecordReader(schema, []arrow.Record{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if err := Write(&buf, rr, WithRowGroupRows(group), WithWriteAllocator(mem), WithProperties(props...)); err != nil {
		t.Fatalf("writing: %v", err)
	}
	desc := fmt.Sprintf("%v, %d rows, codec %v, pages v%d of %d bytes, dict %v, groups of %d", schema, rows, codec, version, page, dict, group)
	return rec, buf.Bytes(), desc
}

// readAllRecords reads data with opts into records (retained).
func readAllRecords(t *testing.T, data []byte, opts ...ReadOption) []arrow.Record {
	t.Helper()
	rr, err := Read(bytes.NewReader(data), opts...)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	defer rr.Release()
	var recs []arrow.Record
	for rr.Next() {
		r := rr.Record()
		r.Retain()
		recs = append(recs, r)
	}
	if err := rr.Err(); err != nil {
		releaseRecords(recs)
		t.Fatalf("Read: %v", err)
	}
	return recs
}

// concatRecords concatenates recs (at least one) into one record.
func concatRecords(t *testing.T, mem memory.Allocator, recs []arrow.Record) arrow.Record {
	t.Helper()
	schema := recs[0].Schema()
	cols := make([]arrow.Array, schema.NumFields())
	rows := int64(0)
	for _, r := range recs {
		rows += r.NumRows()
	}
	for j := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(j)
		}
		c, err := arrowarray.Concatenate(parts, mem)
		if err != nil {
			t.Fatal(err)
		}
		cols[j] = c
	}
	rec := arrowarray.NewRecord(schema, cols, rows)
	releaseArrow(cols)
	return rec
}

// sameRecords checks that got and want hold the same batches: schemas,
// lengths, values and nulls.
func sameRecords(t *testing.T, what string, got, want []arrow.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d batches, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !got[i].Schema().Equal(want[i].Schema()) {
			t.Fatalf("%s: batch %d: schema\n%v\nwant\n%v", what, i, got[i].Schema(), want[i].Schema())
		}
		for j := 0; j < int(got[i].NumCols()); j++ {
			g, w := got[i].Column(j), want[i].Column(j)
			if !arrow.TypeEqual(g.DataType(), w.DataType()) || g.Len() != w.Len() || g.NullN() != w.NullN() || !sameValues(g, w) {
				t.Fatalf("%s: batch %d, column %q (%v, %d rows, %d nulls): differs from pqarrow's (%v, %d rows, %d nulls)",
					what, i, got[i].ColumnName(j), g.DataType(), g.Len(), g.NullN(), w.DataType(), w.Len(), w.NullN())
			}
		}
	}
}

// TestFastReadMatchesPqarrow reads random files (every type pqdecode reads
// and some it does not, nulls, row group and page sizes, dictionary or
// plain, version 1 and 2 pages, every codec) through pqdecode and through
// pqarrow alone, with and without row-group workers, projections, row-group
// subsets and batch sizes, and compares every batch. The checked allocator
// must end at zero.
func TestFastReadMatchesPqarrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2026))
	iters := 60
	if testing.Short() {
		iters = 20
	}
	for it := 0; it < iters; it++ {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec, data, desc := fastRandomFile(t, mem, rng)
		info, err := Info(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: Info: %v", desc, err)
		}
		opts := []ReadOption{WithAllocator(mem), WithBatchRows([]int{1, 333, 4096, 0}[rng.IntN(4)])}
		if rng.IntN(3) == 0 {
			opts = append(opts, WithColumns(rec.ColumnName(rng.IntN(int(rec.NumCols())))))
		}
		if n := len(info.RowGroups); n > 1 && rng.IntN(3) == 0 {
			opts = append(opts, WithRowGroups(n-1, 0, rng.IntN(n)))
		}
		for _, extra := range [][]ReadOption{nil, {WithRowGroupWorkers(2)}, {WithParallel(true)}} {
			o := append(append([]ReadOption{}, opts...), extra...)
			want := readAllRecords(t, data, append(o, withPqarrowOnly())...)
			got := readAllRecords(t, data, o...)
			sameRecords(t, fmt.Sprintf("file %d (%s), options %d", it, desc, len(o)), got, want)
			for _, g := range got {
				for j, c := range g.Columns() {
					if _, ok := c.DataType().(*arrow.ListType); ok && c.Data().Offset() != 0 {
						t.Fatalf("file %d: list column %d of a batch at offset %d (frame's AsTensor wants 0)", it, j, c.Data().Offset())
					}
				}
			}
			releaseRecords(got)
			releaseRecords(want)
		}
		// ReadTable: one record, the rows of the batches
		for _, extra := range [][]ReadOption{nil, {WithRowGroupWorkers(2)}, {WithParallel(true)}} {
			o := append(append([]ReadOption{}, opts...), extra...)
			want := readAllRecords(t, data, append(o, withPqarrowOnly())...)
			tab, err := ReadTable(bytes.NewReader(data), o...)
			if err != nil {
				t.Fatalf("file %d (%s): ReadTable: %v", it, desc, err)
			}
			if len(want) == 0 {
				if tab.NumRows() != 0 {
					t.Fatalf("file %d (%s): ReadTable: %d rows, want none", it, desc, tab.NumRows())
				}
			} else {
				all := concatRecords(t, mem, want)
				sameRecords(t, fmt.Sprintf("file %d (%s), ReadTable", it, desc), []arrow.Record{tab}, []arrow.Record{all})
				all.Release()
			}
			tab.Release()
			releaseRecords(want)
		}
		// and the values are the ones written (projection and subsets aside)
		got := readAllRecords(t, data, WithAllocator(mem))
		at := int64(0)
		for _, g := range got {
			for j := 0; j < int(g.NumCols()); j++ {
				w := arrowarray.NewSlice(rec.Column(j), at, at+g.NumRows())
				if !sameValues(g.Column(j), w) {
					t.Fatalf("file %d (%s): column %q of rows %d.. differs from what was written", it, desc, g.ColumnName(j), at)
				}
				w.Release()
			}
			at += g.NumRows()
		}
		if at != rec.NumRows() {
			t.Fatalf("file %d: %d rows read of %d", it, at, rec.NumRows())
		}
		releaseRecords(got)
		rec.Release()
		mem.AssertSize(t, 0)
	}
}

// TestFastReadHarnessFiles reads the frame harness's files (when present)
// through both decoders and compares them.
func TestFastReadHarnessFiles(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("large files")
	}
	for _, name := range []string{"G1_1e7_1e2_0_0_intkeys.parquet", "G1_1e7_1e2_0_0.parquet", "tensor_1e6_16.parquet"} {
		data, err := os.ReadFile("/tmp/frame-bench/data/" + name)
		if err != nil {
			t.Logf("%s: %v (skipped)", name, err)
			continue
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		for _, extra := range [][]ReadOption{nil, {WithRowGroupWorkers(2)}} {
			o := append([]ReadOption{WithAllocator(mem), WithMaxTotal(-1)}, extra...)
			want := readAllRecords(t, data, append(o, withPqarrowOnly())...)
			got := readAllRecords(t, data, o...)
			sameRecords(t, name, got, want)
			releaseRecords(got)
			releaseRecords(want)
		}
		mem.AssertSize(t, 0)
	}
}

// sameValues is arrowarray.Equal, floats compared by their bits (NaN equal
// to itself, -0 not to +0).
func sameValues(a, b arrow.Array) bool {
	if !arrow.TypeEqual(a.DataType(), b.DataType()) || a.Len() != b.Len() || a.NullN() != b.NullN() {
		return false
	}
	switch x := a.(type) {
	case *arrowarray.Float64:
		y := b.(*arrowarray.Float64)
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) != b.IsNull(i) || (a.IsValid(i) && math.Float64bits(x.Value(i)) != math.Float64bits(y.Value(i))) {
				return false
			}
		}
		return true
	case *arrowarray.Float32:
		y := b.(*arrowarray.Float32)
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) != b.IsNull(i) || (a.IsValid(i) && math.Float32bits(x.Value(i)) != math.Float32bits(y.Value(i))) {
				return false
			}
		}
		return true
	}
	return arrowarray.Equal(a, b)
}

// BenchmarkReadHarness reads the frame harness's files (when present)
// whole, through pqdecode and through pqarrow alone, one row group at a
// time.
func BenchmarkReadHarness(b *testing.B) {
	eachHarnessFile(b, func(name string, f *os.File, size int64) {
		for _, dec := range []string{"pqdecode", "pqarrow"} {
			b.Run(name+"/"+dec, func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				opts := []ReadOption{WithMaxTotal(-1), WithRowGroupWorkers(1)}
				if dec == "pqarrow" {
					opts = append(opts, withPqarrowOnly())
				}
				for i := 0; i < b.N; i++ {
					rr, err := Read(f, opts...)
					if err != nil {
						b.Fatal(err)
					}
					for rr.Next() {
					}
					if err := rr.Err(); err != nil {
						b.Fatal(err)
					}
					rr.Release()
				}
			})
		}
	})
}

// eachHarnessFile calls fn with each of the frame harness's Parquet files
// that is present (/tmp/frame-bench/data), open, and its size; it logs
// the missing ones.
func eachHarnessFile(b *testing.B, fn func(name string, f *os.File, size int64)) {
	for _, name := range []string{"G1_1e7_1e2_0_0_intkeys", "G1_1e7_1e2_0_0", "tensor_1e6_16"} {
		f, err := os.Open("/tmp/frame-bench/data/" + name + ".parquet")
		if err != nil {
			b.Logf("%s: %v (skipped)", name, err)
			continue
		}
		st, err := f.Stat()
		if err != nil {
			b.Fatal(err)
		}
		fn(name, f, st.Size())
		f.Close()
	}
}

// BenchmarkReadTableHarness reads the frame harness's files (when
// present) whole with ReadTable at 1 and 2 workers (frame's Collect of a
// bare Parquet source).
func BenchmarkReadTableHarness(b *testing.B) {
	eachHarnessFile(b, func(name string, f *os.File, size int64) {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/%dT", name, workers), func(b *testing.B) {
				b.SetBytes(size)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					rec, err := ReadTable(f, WithMaxTotal(-1), WithRowGroupWorkers(workers))
					if err != nil {
						b.Fatal(err)
					}
					rec.Release()
				}
			})
		}
	})
}
