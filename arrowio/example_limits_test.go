package arrowio_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
)

// A zstd stream of a few KiB that decompresses to 4 MiB: with a total
// limit of 1 MiB the reader stops with ErrLimit before allocating more.
func ExampleWithMaxTotal() {
	mem := memory.NewGoAllocator()
	b := arrowarray.NewInt32Builder(mem)
	b.AppendValues(make([]int32, 1<<20), nil) // 4 MiB of zeros
	col := b.NewArray()
	b.Release()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "z", Type: arrow.PrimitiveTypes.Int32}}, nil)
	rec := arrowarray.NewRecord(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	_ = arrowio.WriteRecords(&buf, false, schema, []arrow.Record{rec}, ipc.WithZstd())
	fmt.Println("stream under 64 KiB:", buf.Len() < 64<<10)

	rr, _ := arrowio.ReadStream(bytes.NewReader(buf.Bytes()), arrowio.WithMaxTotal(1<<20))
	defer rr.Release()
	for rr.Next() {
	}
	fmt.Println("limit reached:", errors.Is(rr.Err(), arrowio.ErrLimit))
	// Output:
	// stream under 64 KiB: true
	// limit reached: true
}

// ValidateArray reports an array whose buffers do not hold what its type
// and length say (here a dictionary index outside the dictionary).
func ExampleValidateArray() {
	mem := memory.NewGoAllocator()
	sb := arrowarray.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b"}, nil)
	dict := sb.NewArray()
	sb.Release()
	defer dict.Release()
	ib := arrowarray.NewInt8Builder(mem)
	ib.AppendValues([]int8{0, 1, 5}, nil)
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	d := arrowarray.NewDictionaryArray(dt, idx, dict) // arrow-go does not check
	defer d.Release()
	err := arrowio.ValidateArray(d)
	fmt.Println(errors.Is(err, arrowio.ErrInvalid))
	fmt.Println(err)
	// Output:
	// true
	// arrowio.ValidateArray: invalid Arrow data: dictionary<values=utf8, indices=int8, ordered=false> array (length 3, offset 0): index 5 at 2 outside a dictionary of 2 values
}
