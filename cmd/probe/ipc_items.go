package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
)

// drain reads every batch of an IPC stream (or file) and returns the rows
// read and the reader's error.
func drain(data []byte, file bool, opts ...arrowio.ReadOption) (rows int64, err error) {
	var rr arrowarray.RecordReader
	if file {
		rr, err = arrowio.ReadFile(bytes.NewReader(data), opts...)
	} else {
		rr, err = arrowio.ReadStream(bytes.NewReader(data), opts...)
	}
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	for rr.Next() {
		rows += rr.Record().NumRows()
	}
	return rows, rr.Err()
}

// bodyLengthLie is the report's stream whose record batch message claims a
// body of 0xFF000000 bytes: the reader must fail without allocating it.
func bodyLengthLie() (string, string) {
	data, err := int32Stream()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	msgs, err := splitStream(data)
	if err != nil || len(msgs) < 2 {
		return vFailed, fmt.Sprintf("setup: %v (%d messages)", err, len(msgs))
	}
	m := msgs[1]
	at, ok := fbField(data[m.meta:], 3)
	if !ok {
		return vFailed, "setup: the batch message has no bodyLength"
	}
	binary.LittleEndian.PutUint64(data[m.meta+at:], 0xFF000000)
	mem := newTracker()
	var rerr error
	used := heap(func() { _, rerr = drain(data, false, arrowio.WithAllocator(mem)) })
	peak := mem.peak.Load()
	switch {
	case rerr == nil:
		return vFailed, "a body of 0xFF000000 bytes read from a short stream without error"
	case peak > 64<<20 || used > 256<<20:
		return vFailed, fmt.Sprintf("error (%v) after allocating %s (allocator peak) and %s of Go heap for a %d-byte input", rerr, mib(peak), mib(int64(used)), len(data))
	case mem.CurrentAlloc() != 0:
		return vFailed, fmt.Sprintf("error (%v), %d bytes leaked", rerr, mem.CurrentAlloc())
	}
	return vError, fmt.Sprintf("%d-byte input, allocator peak %s: %v", len(data), mib(peak), rerr)
}

// zstdBomb is a stream of batches of 13 int64 columns of 32M zeros each
// compressed with zstd: 3.3 GB per batch from 374 KB (the report's bomb),
// repeated 3 times (10 GB in all, more than the probe's 8 GiB address
// space). The reader must stop at a total limit (per message or per
// stream) with an error; decoding it all means there is none.
func zstdBomb() (string, string) {
	const rows, cols, copies = 32 << 20, 13, 3
	mem := memory.NewGoAllocator()
	b := arrowarray.NewInt64Builder(mem)
	b.AppendValues(make([]int64, rows), nil)
	col := b.NewArray()
	b.Release()
	fields := make([]arrow.Field, cols)
	arrs := make([]arrow.Array, cols)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: arrow.PrimitiveTypes.Int64}
		arrs[i] = col
	}
	s := arrow.NewSchema(fields, nil)
	rec := arrowarray.NewRecord(s, arrs, rows)
	var buf bytes.Buffer
	err := arrowio.WriteRecords(&buf, false, s, []arrow.Record{rec}, ipc.WithZstd())
	rec.Release()
	col.Release()
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	one := buf.Bytes()
	msgs, err := splitStream(one)
	if err != nil || len(msgs) != 2 {
		return vFailed, fmt.Sprintf("setup: %v (%d messages)", err, len(msgs))
	}
	data := append([]byte{}, one[:msgs[1].start]...)
	for i := 0; i < copies; i++ {
		data = append(data, one[msgs[1].start:msgs[1].end]...)
	}
	data = append(data, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0)
	tr := newTracker()
	n, rerr := drain(data, false, arrowio.WithAllocator(tr))
	total := n * 8 * cols
	if rerr == nil {
		return vFailed, fmt.Sprintf("decoded %d rows (%s of values) from a %s stream with no error (no total limit); allocator peak %s",
			n, mib(total), mib(int64(len(data))), mib(tr.peak.Load()))
	}
	if tr.CurrentAlloc() != 0 {
		return vFailed, fmt.Sprintf("error (%v), %d bytes leaked", rerr, tr.CurrentAlloc())
	}
	return vError, fmt.Sprintf("%s stream, %d rows decoded before the error, allocator peak %s: %v", mib(int64(len(data))), n, mib(tr.peak.Load()), rerr)
}

// dictFileLeak is the report's valid IPC file with a dictionary<int8, utf8>
// column: reading and releasing it must leave nothing allocated.
func dictFileLeak() (string, string) {
	data, err := dictBytes(true, 1) // a file holds one dictionary per field
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	mem := newTracker()
	rr, err := arrowio.ReadFile(bytes.NewReader(data), arrowio.WithAllocator(mem))
	if err != nil {
		return vFailed, fmt.Sprintf("reading a valid file: %v", err)
	}
	var got []string
	for rr.Next() {
		d := rr.Record().Column(0).(*arrowarray.Dictionary)
		dict := d.Dictionary().(*arrowarray.String)
		for i := 0; i < d.Len(); i++ {
			if d.IsNull(i) {
				got = append(got, "null")
			} else {
				got = append(got, dict.Value(d.GetValueIndex(i)))
			}
		}
	}
	rerr := rr.Err()
	rr.Release()
	want := "[red green blue green red cyan]"
	switch {
	case rerr != nil:
		return vFailed, fmt.Sprintf("reading a valid file: %v", rerr)
	case fmt.Sprint(got) != want:
		return vFailed, fmt.Sprintf("read %v, want %v", got, want)
	case mem.CurrentAlloc() != 0:
		return vFailed, fmt.Sprintf("right values, but %d bytes stay allocated after Release", mem.CurrentAlloc())
	}
	return vRight, fmt.Sprintf("%d values match, nothing left allocated", len(got))
}

// lz4Flips flips every bit of an lz4 stream with a dictionary column: every
// read must end in an error or batches, and leave nothing allocated.
func lz4Flips() (string, string) {
	data, err := dictBytes(false, 2, ipc.WithLZ4())
	if err != nil {
		return vFailed, fmt.Sprintf("setup: %v", err)
	}
	leaks, errs, firstLeak := 0, 0, ""
	for bit := 0; bit < 8*len(data); bit++ {
		c := append([]byte{}, data...)
		c[bit/8] ^= 1 << (bit % 8)
		mem := newTracker()
		_, err := drain(c, false, arrowio.WithAllocator(mem))
		if err != nil {
			errs++
		}
		if n := mem.CurrentAlloc(); n != 0 {
			leaks++
			if firstLeak == "" {
				firstLeak = fmt.Sprintf("bit %d leaves %d bytes", bit, n)
			}
		}
	}
	if leaks > 0 {
		return vFailed, fmt.Sprintf("%d of %d single-bit corruptions leak (%s)", leaks, 8*len(data), firstLeak)
	}
	return vRight, fmt.Sprintf("%d single-bit corruptions of a %d-byte stream: %d errors, no leak", 8*len(data), len(data), errs)
}
