package arrowio_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
)

// ParquetInfo reads a file's footer only; WithRowGroups then reads the row
// groups one worker was given.
func ExampleParquetInfo() {
	mem := memory.DefaultAllocator
	b := arrowarray.NewInt64Builder(mem)
	for i := int64(0); i < 10; i++ {
		b.Append(i)
	}
	ids := b.NewArray()
	b.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := arrowarray.NewRecord(s, []arrow.Array{ids}, 10)
	ids.Release()
	rr, _ := arrowarray.NewRecordReader(s, []arrow.Record{rec})
	rec.Release()
	var file bytes.Buffer
	if err := arrowio.WriteParquet(&file, rr, arrowio.WithRowGroupRows(4)); err != nil {
		fmt.Println(err)
		return
	}
	rr.Release()

	info, err := arrowio.ParquetInfo(bytes.NewReader(file.Bytes()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rows:", info.NumRows, "row groups:", len(info.RowGroups))
	for i, g := range info.RowGroups {
		fmt.Println("group", i, "rows", g.Rows)
	}
	pr, err := arrowio.ReadParquet(bytes.NewReader(file.Bytes()), arrowio.WithRowGroups(2, 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pr.Release()
	for pr.Next() {
		fmt.Println(pr.Record().Column(0))
	}
	// Output:
	// rows: 10 row groups: 3
	// group 0 rows 4
	// group 1 rows 4
	// group 2 rows 2
	// [8 9 0 1 2 3]
}
