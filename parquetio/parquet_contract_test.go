package parquetio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/arrowio"
)

// pqTempFile writes data to a file in t's temporary directory and opens it.
func pqTempFile(t *testing.T, data []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.parquet")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// requireOpen fails unless f is still open (it reads f's first bytes).
func requireOpen(t *testing.T, f *os.File, when string) {
	t.Helper()
	var b [1]byte
	if _, err := f.ReadAt(b[:], 0); err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("%s: the caller's file: %v", when, err)
	}
}

// The README's pattern: Info(f), then Read(f, WithRowGroups(0))
// on the same *os.File, which stays open after Release.
func TestParquetLeavesCallersFileOpen(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := recordFixture(t, mem, 7, 1)
	defer rec.Release()
	f := pqTempFile(t, writePQ(t, mem, rec.Schema(), []arrow.Record{rec}, WithRowGroupRows(3)))

	info, err := Info(f, WithAllocator(mem))
	require.NoError(t, err)
	require.Len(t, info.RowGroups, 3)
	requireOpen(t, f, "after Info")
	rr, err := Read(f, WithAllocator(mem), WithRowGroups(0))
	require.NoError(t, err)
	got, _ := drainCols(t, mem, rr)
	rr.Release()
	defer releaseArrow(got)
	require.Equal(t, 3, got[0].Len())
	requireOpen(t, f, "after Release")
	rr, err = Read(f, WithAllocator(mem), WithRowGroups(2, 1))
	require.NoError(t, err)
	rr.Release()
	requireOpen(t, f, "after a second Release")

	// errors: a missing column, a bad row group, a corrupt footer
	_, err = Read(f, WithAllocator(mem), WithColumns("nope"))
	require.Error(t, err)
	requireOpen(t, f, "after a missing column")
	_, err = Read(f, WithAllocator(mem), WithRowGroups(9))
	require.Error(t, err)
	requireOpen(t, f, "after a bad row group")
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec})
	data[len(data)-9] ^= 0x7f // inside the footer
	g := pqTempFile(t, data)
	_, err = Read(g, WithAllocator(mem))
	require.ErrorIs(t, err, ErrInvalid)
	requireOpen(t, g, "after a corrupt footer (Read)")
	_, err = Info(g, WithAllocator(mem))
	require.ErrorIs(t, err, ErrInvalid)
	requireOpen(t, g, "after a corrupt footer (Info)")
}

// A file that is not Parquet says so, whatever it is.
func TestParquetNotAParquetFile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := recordFixture(t, mem, 4, 0)
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(rec.Schema(), []arrow.Record{rec})
	require.NoError(t, err)
	var ipcFile bytes.Buffer
	_, err = arrowio.WriteFile(&ipcFile, rr)
	rr.Release()
	require.NoError(t, err)
	cases := map[string][]byte{
		"empty":  {},
		"text":   []byte("x,y\n1,2\n3,4\nthis is a CSV file, not a Parquet one\n"),
		"ipc":    ipcFile.Bytes(),
		"magic":  []byte("PAR1"),
		"tail":   []byte("hello, world PAR1"),
		"noTail": append([]byte("PAR1"), make([]byte, 40)...),
	}
	for name, data := range cases {
		f := pqTempFile(t, data)
		_, err := Read(f, WithAllocator(mem))
		require.ErrorIs(t, err, ErrInvalid, name)
		require.ErrorContains(t, err, "not a Parquet file", name)
		requireOpen(t, f, name)
		_, err = Info(f, WithAllocator(mem))
		require.ErrorIs(t, err, ErrInvalid, name)
		require.ErrorContains(t, err, "not a Parquet file", name)
		requireOpen(t, f, name)
	}
}

// A projected column the file lacks: ErrNoColumn, the columns, the nearest.
func TestParquetMissingColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := recordFixture(t, mem, 4, 0)
	defer rec.Release()
	data := writePQ(t, mem, rec.Schema(), []arrow.Record{rec})
	_, err := Read(bytes.NewReader(data), WithAllocator(mem), WithColumns("x", "yy"))
	require.ErrorIs(t, err, ErrNoColumn)
	require.ErrorContains(t, err, `"yy"`)
	require.ErrorContains(t, err, `the columns are "x", "y"`)
	require.ErrorContains(t, err, `did you mean "y"?`)
}
