package parquetio_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/parquetio"
)

// Info reads a file's footer only; WithRowGroups then reads the row
// groups one worker was given.
func ExampleInfo() {
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
	if err := parquetio.Write(&file, rr, parquetio.WithRowGroupRows(4)); err != nil {
		fmt.Println(err)
		return
	}
	rr.Release()

	info, err := parquetio.Info(bytes.NewReader(file.Bytes()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rows:", info.NumRows, "row groups:", len(info.RowGroups))
	for i, g := range info.RowGroups {
		fmt.Println("group", i, "rows", g.Rows)
	}
	pr, err := parquetio.Read(bytes.NewReader(file.Bytes()), parquetio.WithRowGroups(2, 0))
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

// A Writer takes batches as a producer has them (here three of 3
// rows each), filling row groups across batches.
func ExampleWriter() {
	mem := memory.DefaultAllocator
	s := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	var file bytes.Buffer
	pw, err := parquetio.NewWriter(&file, s, parquetio.WithRowGroupRows(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	for batch := int64(0); batch < 3; batch++ {
		b := arrowarray.NewInt64Builder(mem)
		b.AppendValues([]int64{3 * batch, 3*batch + 1, 3*batch + 2}, nil)
		ids := b.NewArray()
		b.Release()
		rec := arrowarray.NewRecord(s, []arrow.Array{ids}, 3)
		ids.Release()
		err := pw.Write(rec)
		rec.Release()
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := pw.Close(); err != nil {
		fmt.Println(err)
		return
	}
	info, err := parquetio.Info(bytes.NewReader(file.Bytes()))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, g := range info.RowGroups {
		fmt.Println("group", i, "rows", g.Rows)
	}
	// Output:
	// group 0 rows 4
	// group 1 rows 4
	// group 2 rows 1
}
