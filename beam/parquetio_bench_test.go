package beam

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/parquetio"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*numRowsFn)(nil)).Elem())
}

// numRowsFn decodes each batch and emits its number of rows.
type numRowsFn struct{}

func (f *numRowsFn) ProcessElement(b Batch) (int64, error) {
	rec, err := b.Record(nil)
	if err != nil {
		return 0, err
	}
	defer rec.Release()
	return rec.NumRows(), nil
}

// benchParquetFiles writes files Parquet files of rows rows each (id int64
// and a float32 tensor [4, 8] column, row groups of 64Ki rows) into dir.
func benchParquetFiles(b *testing.B, dir string, files, rows int) (names []string, size int64) {
	rng := rand.New(rand.NewPCG(1, 1))
	mem := memory.DefaultAllocator
	for f := 0; f < files; f++ {
		ids := make([]int64, rows)
		ts := make([]float32, rows*32)
		for i := range ids {
			ids[i] = int64(f*rows + i)
		}
		for i := range ts {
			ts[i] = float32(rng.NormFloat64())
		}
		ia, err := array.FromSlice(mem, ids, rows)
		if err != nil {
			b.Fatal(err)
		}
		ta, err := array.FromSlice(mem, ts, rows, 4, 8)
		if err != nil {
			b.Fatal(err)
		}
		rec := recordOf(b, mem, column{"id", ia, false}, column{"t", ta, true})
		data := pqBytes(b, []arrow.Record{rec}, 64<<10)
		for _, x := range []interface{ Release() }{ia, ta, rec} {
			x.Release()
		}
		name := filepath.Join(dir, fmt.Sprintf("part-%03d.parquet", f))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
		size += int64(len(data))
	}
	return names, size
}

// BenchmarkReadParquet reads ~100 MB of Parquet (8 files of 96,000 rows,
// 2 row groups each) with beam.ReadParquet on prism (each batch re-encoded as IPC,
// moved between steps and decoded) and with parquetio.Read in this
// process. Not run in CI: go test -run X -bench ReadParquet -benchtime 1x.
func BenchmarkReadParquet(b *testing.B) {
	const files, rows = 8, 96_000 // 136 bytes a row: 104 MB
	dir := b.TempDir()
	names, size := benchParquetFiles(b, dir, files, rows)
	total := int64(files * rows)
	b.Run("arrowio", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var n int64
			for _, name := range names {
				f, err := os.Open(name)
				if err != nil {
					b.Fatal(err)
				}
				rr, err := parquetio.Read(f)
				if err != nil {
					b.Fatal(err)
				}
				for rr.Next() {
					n += rr.Record().NumRows()
				}
				if err := rr.Err(); err != nil {
					b.Fatal(err)
				}
				rr.Release()
				f.Close()
			}
			if n != total {
				b.Fatalf("%d rows, want %d", n, total)
			}
		}
		b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("prism", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			p, s := abeam.NewPipelineWithRoot()
			counts := abeam.ParDo(s, &numRowsFn{}, ReadParquet(s, filepath.Join(dir, "*.parquet")))
			passert.Equals(s, stats.Sum(s, counts), total)
			if err := ptest.Run(p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
