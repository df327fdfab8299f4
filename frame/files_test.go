package frame_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

func TestFilesRoundTrip(t *testing.T) {
	mem := checked(t)
	dir := t.TempDir()
	a := duckTable(mem, rand.New(rand.NewPCG(51, 52)), 900, 300)
	b := duckTable(mem, rand.New(rand.NewPCG(53, 54)), 400, 300)
	writeParquetFile(t, filepath.Join(dir, "part-0.parquet"), a, 250)
	writeParquetFile(t, filepath.Join(dir, "part-1.parquet"), b, 250)
	want := collect(t, frame.Concat(frame.FromRecords(a...), frame.FromRecords(b...)).Filter("v > 0.3").Select("id", "k1", "x", "ts"), frame.WithAllocator(mem))
	release(a)
	release(b)
	defer want.Release()

	q := func(f frame.Frame) frame.Frame { return f.Filter("v > 0.3").Select("id", "k1", "x", "ts") }
	got := collect(t, q(frame.ScanParquet(filepath.Join(dir, "part-*.parquet"), parquetio.WithAllocator(mem))), frame.WithAllocator(mem), frame.WithWorkers(3))
	assert.True(t, want.Record().Schema().Equal(got.Record().Schema()), "%v\n%v", want.Schema(), got.Schema())
	assert.Equal(t, want.String(), got.String())
	assert.Equal(t, values[int64](t, want, "id"), values[int64](t, got, "id"))
	got.Release()

	// a Parquet sink, read back from an io.ReaderAt
	var pq bytes.Buffer
	require.NoError(t, q(frame.ScanParquet(filepath.Join(dir, "*.parquet"))).WriteParquet(context.Background(), &pq, frame.WithAllocator(mem)))
	back := collect(t, frame.ScanParquetReaderAt(bytes.NewReader(pq.Bytes()), int64(pq.Len()), parquetio.WithAllocator(mem)), frame.WithAllocator(mem))
	assert.Equal(t, values[int64](t, want, "id"), values[int64](t, back, "id"))
	assert.Equal(t, values[float32](t, want, "x"), values[float32](t, back, "x"))
	back.Release()

	// an IPC file sink and source, and a stream
	ipcPath := filepath.Join(dir, "out.arrow")
	fh, err := os.Create(ipcPath)
	require.NoError(t, err)
	require.NoError(t, q(frame.ScanParquet(filepath.Join(dir, "*.parquet"))).WriteIPC(context.Background(), fh, frame.WithAllocator(mem)))
	require.NoError(t, fh.Close())
	back = collect(t, frame.ScanIPC(ipcPath, arrowio.WithAllocator(mem)), frame.WithAllocator(mem))
	assert.Equal(t, strs(t, want, "k1")[:5], strs(t, back, "k1")[:5])
	assert.Equal(t, values[int64](t, want, "id"), values[int64](t, back, "id"))
	back.Release()
	var st bytes.Buffer
	require.NoError(t, frame.ScanIPC(ipcPath).Select("id").WriteIPCStream(context.Background(), &st, frame.WithAllocator(mem)))
	rr, err := arrowio.ReadStream(&st, arrowio.WithAllocator(mem))
	require.NoError(t, err)
	back = collect(t, frame.FromReader(rr), frame.WithAllocator(mem))
	rr.Release()
	assert.Equal(t, values[int64](t, want, "id"), values[int64](t, back, "id"))
	back.Release()

	// errors name what is wrong
	assert.ErrorIs(t, frame.ScanParquet(filepath.Join(dir, "nothing-*.parquet")).Err(), frame.ErrSource)
	assert.ErrorIs(t, frame.ScanParquet(filepath.Join(dir, "missing.parquet")).Err(), os.ErrNotExist)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "part-2.parquet"), pq.Bytes(), 0o644))
	err = frame.ScanParquet(filepath.Join(dir, "part-*.parquet")).Err()
	assert.ErrorIs(t, err, frame.ErrSource)
	assert.Contains(t, err.Error(), "part-2.parquet")
	assert.Error(t, frame.ScanParquet(ipcPath).Err(), "an IPC file is not Parquet")
	assert.ErrorIs(t, frame.ScanParquetReaderAt(nil, 0).Err(), frame.ErrArgument)
}
