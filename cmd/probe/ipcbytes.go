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

// message is one encapsulated IPC message of a stream: its bytes from the
// continuation marker to the end of its body, and where its flatbuffer
// metadata starts.
type message struct {
	start, meta, end int // meta: offset of the flatbuffer; end: after the body
}

// splitStream cuts an IPC stream into messages (the end-of-stream marker
// excluded), reading each message's bodyLength from its flatbuffer.
func splitStream(s []byte) ([]message, error) {
	var msgs []message
	pos := 0
	for pos+8 <= len(s) {
		if binary.LittleEndian.Uint32(s[pos:]) != 0xFFFFFFFF {
			return nil, fmt.Errorf("no continuation marker at %d", pos)
		}
		n := int(binary.LittleEndian.Uint32(s[pos+4:]))
		if n == 0 {
			break
		}
		meta := pos + 8
		if meta+n > len(s) {
			return nil, fmt.Errorf("message at %d overruns the stream", pos)
		}
		body := 0
		if at, ok := fbField(s[meta:meta+n], 3); ok {
			body = int(binary.LittleEndian.Uint64(s[meta+at:]))
		}
		msgs = append(msgs, message{start: pos, meta: meta, end: meta + n + body})
		pos = meta + n + body
	}
	return msgs, nil
}

// fbField returns the position of field i of a flatbuffer's root table
// (Message: 0 version, 1 header_type, 2 header, 3 bodyLength).
func fbField(buf []byte, i int) (int, bool) {
	if len(buf) < 8 {
		return 0, false
	}
	root := int(binary.LittleEndian.Uint32(buf))
	if root+4 > len(buf) {
		return 0, false
	}
	vt := root - int(int32(binary.LittleEndian.Uint32(buf[root:])))
	if vt < 0 || vt+4 > len(buf) {
		return 0, false
	}
	vtLen := int(binary.LittleEndian.Uint16(buf[vt:]))
	o := 4 + 2*i
	if o+2 > vtLen || vt+o+2 > len(buf) {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(buf[vt+o:]))
	if off == 0 || root+off+8 > len(buf) {
		return 0, false
	}
	return root + off, true
}

// int32Stream is a small valid stream: one batch of an int32 column.
func int32Stream() ([]byte, error) {
	mem := memory.NewGoAllocator()
	b := arrowarray.NewInt32Builder(mem)
	defer b.Release()
	b.AppendValues([]int32{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	col := b.NewArray()
	defer col.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	err := arrowio.WriteRecords(&buf, false, s, []arrow.Record{rec})
	return buf.Bytes(), err
}

// dictType is dictionary<int8, utf8>.
var dictType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}

// dictRecords returns batches of a dictionary<int8, utf8> column and an
// int32 column.
func dictRecords(mem memory.Allocator, batches int) (*arrow.Schema, []arrow.Record) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: dictType, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	var recs []arrow.Record
	for k := 0; k < batches; k++ {
		rb := arrowarray.NewRecordBuilder(mem, s)
		db := rb.Field(0).(*arrowarray.BinaryDictionaryBuilder)
		ib := rb.Field(1).(*arrowarray.Int32Builder)
		for i, w := range []string{"red", "green", "blue", "green", "red", "cyan"} {
			if i == 2 && k == 1 {
				db.AppendNull()
			} else if err := db.AppendString(w); err != nil {
				panic(err)
			}
			ib.Append(int32(10*k + i))
		}
		recs = append(recs, rb.NewRecord())
		rb.Release()
	}
	return s, recs
}

// dictBytes writes dictRecords as a stream or file with the given options.
func dictBytes(file bool, batches int, opts ...ipc.Option) ([]byte, error) {
	mem := memory.NewGoAllocator()
	s, recs := dictRecords(mem, batches)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var buf bytes.Buffer
	err := arrowio.WriteRecords(&buf, file, s, recs, opts...)
	return buf.Bytes(), err
}
