package parquetio

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/pqbomb"
)

// heapDuring returns the bytes Go's heap handed out while fn ran (freed or
// not), and how long fn took.
func heapDuring(fn func()) (uint64, time.Duration) {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	t0 := time.Now()
	fn()
	d := time.Since(t0)
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, d
}

// Each hostile file of issue 17 item 9 (and siblings) fails with ErrInvalid
// (or ErrLimit), quickly, without allocating what it claims, with the
// default limits (4 GiB buffers): the checks do not lean on the limits.
// Before pqscan, these files ended in "fatal error: out of memory" or
// multi-GiB allocations inside arrow-go.
func TestParquetBombs(t *testing.T) {
	for _, b := range pqbomb.Bombs() {
		t.Run(b.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var infoErr, readErr error
			used, took := heapDuring(func() {
				_, infoErr = Info(bytes.NewReader(b.Data), WithAllocator(mem))
				readErr = drainParquet(mem, b.Data, []ReadOption{WithAllocator(mem)})
			})
			t.Logf("%d bytes: %v; %s; %d bytes of heap", len(b.Data), readErr, took, used)
			if readErr == nil {
				t.Fatalf("%s: read without an error", b.Title)
			}
			if !errors.Is(readErr, ErrInvalid) {
				t.Fatalf("%s: %v does not wrap ErrInvalid", b.Title, readErr)
			}
			if infoErr != nil && !errors.Is(infoErr, ErrInvalid) {
				t.Fatalf("%s: Info: %v does not wrap ErrInvalid", b.Title, infoErr)
			}
			if used > 16<<20+4*uint64(len(b.Data)) {
				t.Fatalf("%s: %d bytes of heap for a file of %d", b.Title, used, len(b.Data))
			}
			if took > 2*time.Second {
				t.Fatalf("%s: took %s", b.Title, took)
			}
		})
	}
}

// A schema 20,000 groups deep is refused from the footer, fast: Info
// does not get to arrow-go's schema builder (quadratic in the depth).
func TestParquetDeepSchema(t *testing.T) {
	for _, depth := range []int{pqMaxDepth + 1, 5000, 20000} {
		data := pqbomb.Deep(depth)
		_, err := Info(bytes.NewReader(data))
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("depth %d: %v", depth, err)
		}
	}
	// within the bound: arrow-go reads it
	if _, err := Info(bytes.NewReader(pqbomb.Deep(pqMaxDepth - 2))); err != nil {
		t.Fatalf("depth %d: %v", pqMaxDepth-2, err)
	}
}

// The checks let every valid file through: each codec, both data page
// versions, dictionaries on and off, the delta encodings, small pages.
func TestParquetChecksPassValidFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec := recordFixture(t, mem, 300, 2)
	defer rec.Release()
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Brotli, compress.Codecs.Zstd}
	for _, codec := range codecs {
		for _, v := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			for _, enc := range []string{"dict", "plain", "delta"} {
				props := []parquet.WriterProperty{parquet.WithCompression(codec), parquet.WithDataPageVersion(v), parquet.WithDataPageSize(256)}
				switch enc {
				case "plain":
					props = append(props, parquet.WithDictionaryDefault(false))
				case "delta":
					props = append(props, parquet.WithDictionaryDefault(false), parquet.WithEncodingFor("y", parquet.Encodings.DeltaBinaryPacked))
				}
				data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(128), WithProperties(props...))
				before := mem.CurrentAlloc()
				rr, err := Read(bytes.NewReader(data), WithAllocator(mem), WithBatchRows(100))
				require.NoError(t, err, "%v %v %s", codec, v, enc)
				got, _ := drainCols(t, mem, rr)
				rr.Release()
				for i, c := range got {
					require.True(t, arrowarray.Equal(rec.Column(i), c), "%v %v %s: column %d", codec, v, enc, i)
				}
				releaseArrow(got)
				// arrow-go v15's delta decoder never frees its miniblock
				// widths buffer (64 bytes a column chunk): a leak of
				// arrow-go's, not of the checks.
				if left := mem.CurrentAlloc() - before; left != 0 && (enc != "delta" || left > 64*3) {
					t.Fatalf("%v %v %s: the reader leaves %d bytes", codec, v, enc, left)
				}
			}
		}
	}
}

// The hand-written files the bombs are made from are real Parquet: with
// honest sizes they read (so the bombs fail for their sizes alone).
func TestParquetHandWrittenFilesRead(t *testing.T) {
	for i, data := range pqbomb.Valid() {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		if err := drainParquet(mem, data, []ReadOption{WithAllocator(mem)}); err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
		mem.AssertSize(t, 0)
	}
}

// String columns in the delta encodings (checked by inflating the page and
// walking the prefix lengths) read back, with nulls, in both page versions
// and with a codec.
func TestParquetChecksPassDeltaStrings(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := arrowarray.NewStringBuilder(mem)
	for i := 0; i < 500; i++ {
		if i%7 == 3 {
			b.AppendNull()
		} else {
			b.Append(fmt.Sprintf("row %d of a column of strings %d", i, i*i))
		}
	}
	col := b.NewArray()
	b.Release()
	defer col.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	for _, enc := range []parquet.Encoding{parquet.Encodings.DeltaLengthByteArray, parquet.Encodings.DeltaByteArray} {
		for _, v := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Zstd, compress.Codecs.Gzip} {
				data := writePQ(t, mem, s, []arrow.Record{rec}, WithRowGroupRows(200), WithProperties(
					parquet.WithDictionaryDefault(false), parquet.WithEncodingFor("s", enc), parquet.WithDataPageVersion(v),
					parquet.WithCompression(codec), parquet.WithDataPageSize(1024)))
				rr, err := Read(bytes.NewReader(data), WithAllocator(mem))
				require.NoError(t, err, "%v %v %v", enc, v, codec)
				got, _ := drainCols(t, mem, rr)
				rr.Release()
				require.True(t, arrowarray.Equal(col, got[0]), "%v %v %v", enc, v, codec)
				releaseArrow(got)
			}
		}
	}
}
