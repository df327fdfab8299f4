package arrowio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/internal/arrowtest"
)

// capAllocator records the largest single request and the total requested,
// and refuses (panics on) any request above refuse, so that a test of a
// reader that would allocate gigabytes fails quickly instead.
type capAllocator struct {
	mem    memory.Allocator
	refuse int
	mu     sync.Mutex
	max    int
	total  int64
}

func (c *capAllocator) note(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.max = max(c.max, n)
	c.total += int64(n)
	if n > c.refuse {
		panic(fmt.Sprintf("capAllocator: %d bytes requested", n))
	}
}

func (c *capAllocator) Allocate(n int) []byte { c.note(n); return c.mem.Allocate(n) }
func (c *capAllocator) Reallocate(n int, b []byte) []byte {
	c.note(n)
	return c.mem.Reallocate(n, b)
}
func (c *capAllocator) Free(b []byte) { c.mem.Free(b) }

// dictRecords returns batches of a dictionary<int8, utf8> column (one
// dictionary for all batches, as IPC files require), an int32 column and a
// list<int16> column, with nulls in each.
func dictRecords(t testing.TB, mem memory.Allocator, batches, rows int) []arrow.Record {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: dt, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
	}, nil)
	sb := arrowarray.NewStringBuilder(mem)
	sb.AppendValues([]string{"alpha", "beta", "gamma", "delta"}, nil)
	dict := sb.NewArray()
	sb.Release()
	defer dict.Release()
	var recs []arrow.Record
	for k := 0; k < batches; k++ {
		xb := arrowarray.NewInt8Builder(mem)
		ib := arrowarray.NewInt32Builder(mem)
		lb := arrowarray.NewListBuilder(mem, arrow.PrimitiveTypes.Int16)
		vb := lb.ValueBuilder().(*arrowarray.Int16Builder)
		for r := 0; r < rows; r++ {
			if (r+k)%5 == 3 {
				xb.AppendNull()
				ib.AppendNull()
				lb.AppendNull()
				continue
			}
			xb.Append(int8((r*7 + k) % dict.Len()))
			ib.Append(int32(r*10 + k))
			lb.Append(true)
			for j := 0; j < r%3; j++ {
				vb.Append(int16(r + j))
			}
		}
		idx := xb.NewArray()
		d := arrowarray.NewDictionaryArray(dt, idx, dict)
		i32, l := ib.NewArray(), lb.NewArray()
		recs = append(recs, arrowarray.NewRecord(schema, []arrow.Array{d, i32, l}, int64(rows)))
		for _, a := range []arrow.Array{idx, d, i32, l} {
			a.Release()
		}
		xb.Release()
		ib.Release()
		lb.Release()
	}
	return recs
}

func writeIPC(t testing.TB, recs []arrow.Record, file bool, opts ...ipc.Option) []byte {
	var buf bytes.Buffer
	require.NoError(t, WriteRecords(&buf, file, recs[0].Schema(), recs, opts...))
	return buf.Bytes()
}

// readAll reads data as a stream or file with opts, exercising every batch
// (String, ValidateRecord); it returns the first error and the batches seen.
func readAll(t testing.TB, data []byte, file bool, opts ...ReadOption) (int, error) {
	var rr arrowarray.RecordReader
	var err error
	if file {
		rr, err = ReadFile(bytes.NewReader(data), opts...)
	} else {
		rr, err = ReadStream(bytes.NewReader(data), opts...)
	}
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	n := 0
	for rr.Next() {
		rec := rr.Record()
		for _, c := range rec.Columns() {
			_ = c.String()
			for i := 0; i < c.Len(); i++ {
				_ = c.ValueStr(i)
			}
		}
		if err := ValidateRecord(rec); err != nil {
			t.Fatalf("a reader returned an invalid batch: %v", err)
		}
		n++
	}
	if rr.Record() != nil {
		t.Fatalf("Record is not nil after Next returned false (err %v)", rr.Err())
	}
	return n, rr.Err()
}

// TestIPCStreamBodyLengthLie: a stream whose batch message claims a body of
// 0xFF000000 bytes, with a few hundred bytes present, fails without the
// reader asking for more than a small multiple of what is there.
func TestIPCStreamBodyLengthLie(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := dictRecords(t, mem, 1, 5)
	defer arrowtest.ReleaseRecords(recs)
	data := writeIPC(t, recs, false)
	// Walk the messages: continuation, length, metadata, body.
	var metas [][2]int // metadata start and end of each message
	p := 0
	for p+8 <= len(data) {
		n := int(binary.LittleEndian.Uint32(data[p+4:]))
		if n == 0 {
			break
		}
		metas = append(metas, [2]int{p + 8, p + 8 + n})
		p += 8 + n
		if len(metas) > 1 { // skip the body: up to the next message
			q := bytes.Index(data[p:], []byte{0xff, 0xff, 0xff, 0xff})
			require.GreaterOrEqual(t, q, 0)
			p += q
		}
	}
	require.GreaterOrEqual(t, len(metas), 2)
	last := metas[len(metas)-1]
	bodyLen := uint64(len(data) - last[1] - 8) // the end-of-stream marker follows
	var enc [8]byte
	binary.LittleEndian.PutUint64(enc[:], bodyLen)
	meta := data[last[0]:last[1]]
	at := bytes.Index(meta, enc[:])
	require.GreaterOrEqual(t, at, 0, "body length %d not found", bodyLen)
	require.Equal(t, -1, bytes.Index(meta[at+1:], enc[:]), "body length ambiguous")
	bad := append([]byte{}, data...)
	binary.LittleEndian.PutUint64(bad[last[0]+at:], 0xFF000000)
	for _, n := range []int{len(bad), len(bad) - 8} { // with and without the end marker
		ca := &capAllocator{mem: mem, refuse: 64 << 20}
		_, err := readAll(t, bad[:n], false, WithAllocator(ca))
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.LessOrEqual(t, ca.max, 1<<20, "largest request for a stream of %d bytes", n)
	}
}

// zeroRecord is a batch of cols int32 columns of rows zeros.
func zeroRecord(mem memory.Allocator, cols, rows int) arrow.Record {
	zeros := make([]int32, rows)
	var arrs []arrow.Array
	var fields []arrow.Field
	for i := 0; i < cols; i++ {
		b := arrowarray.NewInt32Builder(mem)
		b.AppendValues(zeros, nil)
		arrs = append(arrs, b.NewArray())
		b.Release()
		fields = append(fields, arrow.Field{Name: fmt.Sprint("c", i), Type: arrow.PrimitiveTypes.Int32})
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(rows))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// TestIPCDecompressionBomb: small zstd and lz4 streams and files whose
// batches decompress to far more than their size fail with ErrLimit once
// the reader's total passes WithMaxTotal, having allocated no more than the
// limit, and read in full with a limit that allows them. Under the default
// limit, a buffer whose prefix claims 3 GiB in a stream of a few KiB is
// refused before it is allocated.
func TestIPCDecompressionBomb(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rows := 1 << 18 // 1 MiB of zeros per column
	if raceBuild {
		rows = 1 << 15
	}
	rec := zeroRecord(mem, 4, rows)
	defer rec.Release()
	recs := []arrow.Record{rec, rec, rec, rec} // 64 bytes a row decoded
	decoded := int64(64 * rows)
	for ci, codec := range []ipc.Option{ipc.WithZstd(), ipc.WithLZ4()} {
		for _, file := range []bool{false, true} {
			data := writeIPC(t, recs, file, codec)
			require.Less(t, len(data), 1<<20, "the bomb is small")
			ca := &capAllocator{mem: mem, refuse: 64 << 20}
			_, err := readAll(t, data, file, WithAllocator(ca), WithMaxTotal(decoded*3/8))
			require.ErrorIs(t, err, ErrLimit, "codec %d file=%v", ci, file)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), "WithMaxTotal")
			assert.LessOrEqual(t, ca.total, decoded*3/8, "codec %d file=%v", ci, file)
			n, err := readAll(t, data, file, WithAllocator(mem), WithMaxTotal(4*decoded))
			require.NoError(t, err)
			assert.Equal(t, 4, n)
		}
	}
	// A lying size prefix: 3 GiB (under DefaultMaxBuffer) in a small lz4
	// stream and file: the default total limit refuses it.
	small := zeroRecord(mem, 1, 1000)
	defer small.Release()
	for _, file := range []bool{false, true} {
		data := writeIPC(t, []arrow.Record{small}, file, ipc.WithLZ4())
		var enc [8]byte
		binary.LittleEndian.PutUint64(enc[:], 4000) // the values buffer's decoded size
		at := bytes.Index(data, enc[:])
		require.GreaterOrEqual(t, at, 0)
		bad := append([]byte{}, data...)
		binary.LittleEndian.PutUint64(bad[at:], 3<<30)
		ca := &capAllocator{mem: mem, refuse: 64 << 20}
		_, err := readAll(t, bad, file, WithAllocator(ca))
		require.ErrorIs(t, err, ErrLimit, "file=%v", file)
		assert.Less(t, ca.max, 1<<20)
	}
}

// TestIPCDictionaryFileNoLeak: an IPC file (and stream) with a
// dictionary<int8, utf8> column, read and released, leaves nothing
// allocated; also when the reader is released before the last batch and
// when a batch is retained past the reader.
func TestIPCDictionaryFileNoLeak(t *testing.T) {
	for _, file := range []bool{false, true} {
		for _, codec := range []ipc.Option{nil, ipc.WithLZ4(), ipc.WithZstd()} {
			mem := arrowtest.NewMem(t)
			recs := dictRecords(t, memory.DefaultAllocator, 3, 7)
			data := writeIPC(t, recs, file, codec)
			arrowtest.ReleaseRecords(recs)
			n, err := readAll(t, data, file, WithAllocator(mem))
			require.NoError(t, err)
			assert.Equal(t, 3, n)
			mem.AssertSize(t, 0)
			// Released early, one batch retained past the reader.
			var rr arrowarray.RecordReader
			if file {
				rr, err = ReadFile(bytes.NewReader(data), WithAllocator(mem))
			} else {
				rr, err = ReadStream(bytes.NewReader(data), WithAllocator(mem))
			}
			require.NoError(t, err)
			require.True(t, rr.Next())
			kept := rr.Record()
			kept.Retain()
			rr.Release()
			assert.Equal(t, "alpha", kept.Column(0).(*arrowarray.Dictionary).Dictionary().ValueStr(0))
			kept.Release()
			mem.AssertSize(t, 0)
		}
	}
}

// TestIPCDictionaryCorruptionsNoLeak: every single-bit corruption of an lz4
// stream and file with a dictionary<int8, utf8> column ends in batches that
// validate or an error, and leaves nothing allocated.
func TestIPCDictionaryCorruptionsNoLeak(t *testing.T) {
	recs := dictRecords(t, memory.DefaultAllocator, 2, 6)
	defer arrowtest.ReleaseRecords(recs)
	for _, file := range []bool{false, true} {
		data := writeIPC(t, recs, file, ipc.WithLZ4())
		bad := make([]byte, len(data))
		leaks, errs := 0, 0
		step := 1
		if raceBuild {
			step = 7
		}
		for bit := 0; bit < 8*len(data); bit += step {
			copy(bad, data)
			bad[bit/8] ^= 1 << (bit % 8)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			if _, err := readAll(t, bad, file, WithAllocator(mem), WithMaxBuffer(1<<20)); err != nil {
				errs++
			}
			if mem.CurrentAlloc() != 0 {
				leaks++
				if leaks <= 3 {
					t.Errorf("file=%v bit %d: %d bytes left allocated", file, bit, mem.CurrentAlloc())
				}
			}
		}
		assert.Zero(t, leaks, "file=%v: corruptions that leak, of %d", file, 8*len(data))
		assert.Positive(t, errs)
	}
}

// TestIPCCorruptBatchesRejected: no corruption of a stream or file (every
// byte position, several masks) of a dictionary column, an int32 column and
// a list column yields a batch whose use panics: the readers validate every
// batch and report corruption as ErrInvalid.
func TestIPCCorruptBatchesRejected(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := dictRecords(t, mem, 2, 6)
	defer arrowtest.ReleaseRecords(recs)
	for _, file := range []bool{false, true} {
		for _, codec := range []ipc.Option{nil, ipc.WithLZ4()} {
			data := writeIPC(t, recs, file, codec)
			bad := make([]byte, len(data))
			step := 1
			if raceBuild {
				step = 5
			}
			for i := 0; i < len(data); i += step {
				for _, mask := range []byte{0x04, 0xff} {
					copy(bad, data)
					bad[i] ^= mask
					var err error
					require.NotPanics(t, func() { _, err = readAll(t, bad, file, WithAllocator(mem)) },
						"file=%v byte %d ^ %#x", file, i, mask)
					if err != nil && !errors.Is(err, ErrInvalid) {
						t.Fatalf("file=%v byte %d ^ %#x: error does not wrap ErrInvalid: %v", file, i, mask, err)
					}
				}
			}
		}
	}
}

// TestValidateArray: hand-made corrupt arrays of each layout are refused
// with ErrInvalid naming the problem; the same arrays intact pass.
func TestValidateArray(t *testing.T) {
	mem := arrowtest.NewMem(t)
	recs := dictRecords(t, mem, 1, 9)
	defer arrowtest.ReleaseRecords(recs)
	rec := recs[0]
	require.NoError(t, ValidateRecord(rec))
	for _, c := range rec.Columns() {
		require.NoError(t, ValidateArray(c))
	}
	// Corrupt copies of each column's data (buffers copied, then edited).
	corrupt := func(d arrow.ArrayData, edit func(bufs [][]byte)) arrow.ArrayData {
		var bufs []*memory.Buffer
		raw := make([][]byte, len(d.Buffers()))
		for i, b := range d.Buffers() {
			if b == nil {
				bufs = append(bufs, nil)
				continue
			}
			raw[i] = append([]byte{}, b.Bytes()...)
		}
		edit(raw)
		bufs = bufs[:0]
		for _, r := range raw {
			if r == nil {
				bufs = append(bufs, nil)
			} else {
				bufs = append(bufs, memory.NewBufferBytes(r))
			}
		}
		nd := arrowarray.NewData(d.DataType(), d.Len(), bufs, d.Children(), d.NullN(), d.Offset())
		if d.Dictionary() != nil {
			nd.SetDictionary(d.Dictionary())
		}
		return nd
	}
	d0, d1, d2 := rec.Column(0).Data(), rec.Column(1).Data(), rec.Column(2).Data()
	dictD := d0.Dictionary()
	cases := map[string]struct {
		data arrow.ArrayData
		want string
	}{
		"dictionary index out of range": {corrupt(d0, func(b [][]byte) { b[1][0] = 100 }), "index 100"},
		"short int32 values":            {corrupt(d1, func(b [][]byte) { b[1] = b[1][:8] }), "values buffer"},
		"null count disagrees":          {corrupt(d1, func(b [][]byte) { b[0][0] ^= 0x01 }), "null count"},
		"list offsets decrease":         {corrupt(d2, func(b [][]byte) { binary.LittleEndian.PutUint32(b[1][8:], 1000) }), "offset"},
		"string offsets past the data":  {corrupt(dictD, func(b [][]byte) { binary.LittleEndian.PutUint32(b[1][4*dictD.Len():], 1<<20) }), "beyond"},
	}
	for name, c := range cases {
		err := validateData(c.data, 0)
		require.ErrorIs(t, err, ErrInvalid, name)
		assert.Contains(t, err.Error(), c.want, name)
		c.data.Release()
	}
	// A struct whose field is shorter than the struct.
	st := arrowarray.NewData(arrow.StructOf(arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32}), d1.Len()+1, []*memory.Buffer{nil}, []arrow.ArrayData{d1}, 0, 0)
	defer st.Release()
	err := validateData(st, 0)
	require.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "field 0")
	assert.ErrorIs(t, ValidateRecord(nil), ErrInvalid)
	assert.ErrorIs(t, ValidateArray(nil), ErrInvalid)
}
