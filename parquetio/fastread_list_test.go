package parquetio

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
)

// TestFastReadListDenseAndSparsePages: a list column whose runs of rows
// alternate between dense ones (every list present and not empty, no
// null element: the decoder's one-copy path) and ones with null lists,
// empty lists and null elements, in small pages, so that a chunk mixes
// both kinds and a list spans pages: the fast decoder reads what pqarrow
// reads and what was written.
func TestFastReadListDenseAndSparsePages(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 11))
	for it := 0; it < 24; it++ {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		lt := arrow.ListOf(arrow.PrimitiveTypes.Float32)
		b := arrowarray.NewListBuilder(mem, arrow.PrimitiveTypes.Float32)
		vb := b.ValueBuilder().(*arrowarray.Float32Builder)
		rows := 0
		for run := 0; run < 6; run++ {
			sparse := (run+it)%2 == 1
			n := 1 + rng.IntN(400)
			for i := 0; i < n; i++ {
				if sparse && rng.IntN(5) == 0 {
					b.AppendNull()
					continue
				}
				b.Append(true)
				l := 1 + rng.IntN(40)
				if sparse && rng.IntN(5) == 0 {
					l = 0
				}
				for e := 0; e < l; e++ {
					if sparse && rng.IntN(7) == 0 {
						vb.AppendNull()
					} else {
						vb.Append(float32(rows*100 + e))
					}
				}
			}
			rows += n
		}
		col := b.NewArray()
		b.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: lt, Nullable: true}}, nil)
		rec := arrowarray.NewRecord(schema, []arrow.Array{col}, int64(rows))
		col.Release()
		version := []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2}[it%2]
		page := []int64{64, 512, 4 << 10}[it%3]
		props := []parquet.WriterProperty{parquet.WithDataPageVersion(version), parquet.WithDictionaryDefault(false),
			parquet.WithDataPageSize(page), parquet.WithBatchSize(int64(1 + rng.IntN(300)))}
		var buf bytes.Buffer
		rr, err := arrowarray.NewRecordReader(schema, []arrow.Record{rec})
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(&buf, rr, WithRowGroupRows([]int{rows, 500}[it%2]), WithWriteAllocator(mem), WithProperties(props...)); err != nil {
			t.Fatalf("writing: %v", err)
		}
		rr.Release()
		data := buf.Bytes()
		desc := fmt.Sprintf("file %d: %d rows, pages v%d of %d bytes", it, rows, version, page)
		for _, o := range [][]ReadOption{{WithAllocator(mem)}, {WithAllocator(mem), WithRowGroupWorkers(2)}} {
			want := readAllRecords(t, data, append(o, withPqarrowOnly())...)
			got := readAllRecords(t, data, o...)
			sameRecords(t, desc, got, want)
			at := int64(0)
			for _, g := range got {
				w := arrowarray.NewSlice(rec.Column(0), at, at+g.NumRows())
				if !sameValues(g.Column(0), w) {
					t.Fatalf("%s: rows %d.. differ from what was written", desc, at)
				}
				w.Release()
				at += g.NumRows()
			}
			if at != int64(rows) {
				t.Fatalf("%s: %d rows read", desc, at)
			}
			releaseRecords(got)
			releaseRecords(want)
		}
		rec.Release()
		mem.AssertSize(t, 0)
	}
}
