package arrowio

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
)

// ipcBatches are batches of one schema: tensor columns (transposed, with
// nulls), an empty batch, and a row slice (Arrow offsets on every column).
func ipcBatches(t testing.TB, mem memory.Allocator) []arrow.Record {
	a := recordFixture(t, mem, 4, 0)
	b := recordFixture(t, mem, 0, 7)
	c := recordFixture(t, mem, 9, 2)
	d := c.NewSlice(2, 7)
	c.Release()
	return []arrow.Record{a, b, d}
}

// TestIPCRoundTrip: streams and files, plain and compressed, to a
// bytes.Buffer (not a seeker) and to a file: every batch comes back equal,
// with the extension type.
func TestIPCRoundTrip(t *testing.T) {
	for _, file := range []bool{false, true} {
		for _, zstd := range []bool{false, true} {
			t.Run(fmt.Sprintf("file=%v/zstd=%v", file, zstd), func(t *testing.T) {
				mem := arrowtest.NewMem(t)
				recs := ipcBatches(t, mem)
				defer arrowtest.ReleaseRecords(recs)
				opts := []ipc.Option{ipc.WithAllocator(mem)}
				if zstd {
					opts = append(opts, ipc.WithZstd())
				}
				var buf bytes.Buffer
				require.NoError(t, WriteRecords(&buf, file, recs[0].Schema(), recs, opts...))
				var rr arrowarray.RecordReader
				var err error
				if file {
					rr, err = ReadFile(bytes.NewReader(buf.Bytes()), WithAllocator(mem))
				} else {
					rr, err = ReadStream(&buf, WithAllocator(mem))
				}
				require.NoError(t, err)
				defer rr.Release()
				assert.True(t, recs[0].Schema().Equal(rr.Schema()))
				i := 0
				for rr.Next() {
					arrowtest.RequireSameRecord(t, recs[i], rr.Record())
					x, err := FromArrow(mem, rr.Record().Column(0))
					require.NoError(t, err)
					assert.Equal(t, []int{int(recs[i].NumRows()), 2, 2}, x.Shape())
					x.Release()
					i++
				}
				require.NoError(t, rr.Err())
				assert.Equal(t, len(recs), i)
			})
		}
	}
}

func TestIPCFileOnDisk(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := ipcBatches(t, mem)
	defer arrowtest.ReleaseRecords(recs)
	path := filepath.Join(t.TempDir(), "x.arrow")
	f, err := os.Create(path)
	require.NoError(t, err)
	_, err = f.Write([]byte("junk")) // the file writer records its start
	require.NoError(t, err)
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	n, err := WriteFile(f, rr, ipc.WithAllocator(mem))
	rr.Release()
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	require.NoError(t, f.Close())

	f, err = os.Create(path)
	require.NoError(t, err)
	rr, err = arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	_, err = WriteFile(f, rr, ipc.WithAllocator(mem))
	rr.Release()
	require.NoError(t, err)
	require.NoError(t, f.Close())
	f, err = os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	in, err := ReadFile(f, WithAllocator(mem))
	require.NoError(t, err)
	defer in.Release()
	i := 0
	for in.Next() {
		arrowtest.RequireSameRecord(t, recs[i], in.Record())
		i++
	}
	require.NoError(t, in.Err())
	assert.Equal(t, 3, i)
}

// TestIPCMalformed: truncations and corruptions of valid streams and files
// give errors (or fewer batches), never panics, and leak nothing.
func TestIPCMalformed(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := ipcBatches(t, mem)
	defer arrowtest.ReleaseRecords(recs)
	for _, file := range []bool{false, true} {
		var buf bytes.Buffer
		require.NoError(t, WriteRecords(&buf, file, recs[0].Schema(), recs))
		good := buf.Bytes()
		for cut := 0; cut < len(good); cut += 7 {
			drainIPC(t, mem, good[:cut], file)
		}
		for pos := 0; pos < len(good); pos += 3 {
			bad := append([]byte{}, good...)
			bad[pos] ^= 0xff
			drainIPC(t, mem, bad, file)
		}
	}
	_, err := ReadStream(bytes.NewReader([]byte("definitely not arrow")))
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = ReadFile(bytes.NewReader([]byte("ARROW1\x00\x00 short")))
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = ReadStream(nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = ReadFile(nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = WriteStream(nil, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = WriteFile(nil, nil)
	assert.ErrorIs(t, err, array.ErrNil)
}

// drainIPC reads every batch of data and converts every column it can;
// errors are fine, panics are not (a panic fails the test).
func drainIPC(t testing.TB, mem memory.Allocator, data []byte, file bool) {
	var rr arrowarray.RecordReader
	var err error
	if file {
		rr, err = ReadFile(bytes.NewReader(data), WithAllocator(mem), WithMaxBuffer(1<<20))
	} else {
		rr, err = ReadStream(bytes.NewReader(data), WithAllocator(mem), WithMaxBuffer(1<<20))
	}
	if err != nil {
		return
	}
	defer rr.Release()
	for rr.Next() {
		for _, c := range rr.Record().Columns() {
			if a, err := FromArrow(mem, c); err == nil {
				_, _ = array.ToSlice[float64](a)
				_, _ = array.ValidSlice(a)
				a.Release()
			}
		}
	}
	_ = rr.Err()
}

// TestIPCBadExtensionMetadata: a stream whose field carries bad
// fixed_shape_tensor metadata is rejected when its schema is read.
func TestIPCBadExtensionMetadata(t *testing.T) {
	mem := arrowtest.NewMem(t)
	b := arrowarray.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Float64)
	b.Append(true)
	b.ValueBuilder().(*arrowarray.Float64Builder).AppendValues([]float64{1, 2}, nil)
	storage := b.NewArray()
	b.Release()
	defer storage.Release()
	for _, meta := range []string{`{"shape":[3]}`, `{"shape":[2],"permutation":[1]}`, `not json`, ``} {
		md := arrow.NewMetadata([]string{ipc.ExtensionTypeKeyName, ipc.ExtensionMetadataKeyName}, []string{ExtensionName, meta})
		schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: storage.DataType(), Metadata: md}}, nil)
		rec := arrowarray.NewRecord(schema, []arrow.Array{storage}, 1)
		for _, file := range []bool{false, true} {
			var buf bytes.Buffer
			require.NoError(t, WriteRecords(&buf, file, schema, []arrow.Record{rec}, ipc.WithAllocator(mem)))
			var err error
			if file {
				_, err = ReadFile(bytes.NewReader(buf.Bytes()), WithAllocator(mem))
			} else {
				_, err = ReadStream(&buf, WithAllocator(mem))
			}
			assert.ErrorIs(t, err, ErrMetadata, "%q file=%v", meta, file)
			assert.ErrorIs(t, err, ErrInvalid)
		}
		rec.Release()
	}
}

// TestIPCEveryDType: a primitive column (sliced, with nulls) and a tensor
// column (transposed, with nulls) of every dtype survive an IPC file and a
// stream and convert back to the same values and masks.
func TestIPCEveryDType(t *testing.T) {
	mem := arrowtest.NewMem(t)
	var fields []arrow.Field
	var cols []arrow.Array
	var want []*array.Array
	defer func() {
		for _, c := range cols {
			c.Release()
		}
		for _, w := range want {
			w.Release()
		}
	}()
	for _, dt := range array.DTypes {
		full := arrowtest.BuildArrow(t, mem, dt, arrowtest.TestValues(dt, 9), arrowtest.NullEvery(9, 4))
		prim := arrowarray.NewSlice(full, 2, 9)
		full.Release()
		pa, err := FromArrow(mem, prim)
		require.NoError(t, err)
		base, err := array.Arange(mem, dt, 0, 12, 1)
		require.NoError(t, err)
		tv, err := base.View([]int{3, 2, 2}, []int{4, 1, 2}, 0)
		base.Release()
		require.NoError(t, err)
		require.NoError(t, tv.SetNull(1, 0, 1))
		tc, err := ToTensorColumn(mem, tv)
		require.NoError(t, err)
		fields = append(fields, arrow.Field{Name: "p_" + dt.String(), Type: prim.DataType(), Nullable: true},
			arrow.Field{Name: "t_" + dt.String(), Type: tc.DataType(), Nullable: true})
		cols = append(cols, prim, tc)
		want = append(want, pa, tv)
	}
	// Primitive columns have 7 rows, tensor columns 3: one record per kind.
	for kind := 0; kind < 2; kind++ {
		var fs []arrow.Field
		var cs []arrow.Array
		var ws []*array.Array
		for i := kind; i < len(cols); i += 2 {
			fs, cs, ws = append(fs, fields[i]), append(cs, cols[i]), append(ws, want[i])
		}
		s := arrow.NewSchema(fs, nil)
		r := arrowarray.NewRecord(s, cs, int64(cs[0].Len()))
		for _, file := range []bool{false, true} {
			var buf bytes.Buffer
			require.NoError(t, WriteRecords(&buf, file, s, []arrow.Record{r}))
			var rr arrowarray.RecordReader
			var err error
			if file {
				rr, err = ReadFile(bytes.NewReader(buf.Bytes()), WithAllocator(mem))
			} else {
				rr, err = ReadStream(&buf, WithAllocator(mem))
			}
			require.NoError(t, err)
			require.True(t, rr.Next())
			for i, c := range rr.Record().Columns() {
				got, err := FromArrow(mem, c)
				require.NoError(t, err, fs[i].Name)
				wv, wok := arrowtest.Elems(t, ws[i])
				gv, gok := arrowtest.Elems(t, got)
				assert.Equal(t, wv, gv, fs[i].Name)
				assert.Equal(t, wok, gok, fs[i].Name)
				assert.Equal(t, ws[i].Strides(), got.Strides(), fs[i].Name)
				got.Release()
			}
			assert.False(t, rr.Next())
			require.NoError(t, rr.Err())
			rr.Release()
		}
		r.Release()
	}
}

// TestIPCOptionsReachTheReader: options given with WithIPCOptions reach
// arrow-go's reader; here an expected schema, which a stream of another
// schema fails.
func TestIPCOptionsReachTheReader(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := ipcBatches(t, mem)
	defer arrowtest.ReleaseRecords(recs)
	var buf bytes.Buffer
	require.NoError(t, WriteRecords(&buf, false, recs[0].Schema(), recs, ipc.WithAllocator(mem)))
	data := buf.Bytes()

	rr, err := ReadStream(bytes.NewReader(data), WithAllocator(mem), WithIPCOptions(ipc.WithSchema(recs[0].Schema())))
	require.NoError(t, err)
	n := 0
	for rr.Next() {
		n++
	}
	require.NoError(t, rr.Err())
	rr.Release()
	require.Equal(t, len(recs), n)

	other := arrow.NewSchema([]arrow.Field{{Name: "other", Type: arrow.PrimitiveTypes.Int8}}, nil)
	rr, err = ReadStream(bytes.NewReader(data), WithAllocator(mem), WithIPCOptions(ipc.WithSchema(other)))
	if err == nil {
		rr.Release()
	}
	require.Error(t, err)
}
