package view_test

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/view"
)

func ExampleBroadcastTo() {
	mem := memory.NewGoAllocator()
	row, _ := array.FromSlice(mem, []float64{1, 2, 3}) // shape [3]
	defer row.Release()

	b, err := view.BroadcastTo(row, []int{2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Release()
	vals, _ := array.ToSlice[float64](b)
	fmt.Println(b.Shape(), b.Strides(), vals)
	fmt.Println("read-only:", b.ReadOnly())

	_, err = view.BroadcastTo(row, []int{2, 4})
	fmt.Println(err)
	// Output:
	// [2 3] [0 1] [1 2 3 1 2 3]
	// read-only: true
	// view.BroadcastTo: broadcast numpy: cannot broadcast [3] to [2 4]: dim 1 is 3, target is 4
}

func ExampleTranspose() {
	a, _ := array.FromSlice(memory.NewGoAllocator(), []int32{1, 2, 3, 4, 5, 6}, 2, 3)
	defer a.Release()

	t, _ := view.Transpose(a) // reverse the axes
	defer t.Release()
	vals, _ := array.ToSlice[int32](t)
	fmt.Println(t.Shape(), t.Strides(), vals)
	// Output:
	// [3 2] [1 3] [1 4 2 5 3 6]
}

func ExampleSlice() {
	a, _ := array.Arange(memory.NewGoAllocator(), array.Int64, 0, 12, 1)
	defer a.Release()
	m, _ := view.Reshape(a, 3, -1) // [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
	defer m.Release()

	// m[::-1, 1::2]
	s, _ := view.Slice(m, view.Reverse(), view.Range{Start: 1, Stop: 4, Step: 2})
	defer s.Release()
	vals, _ := array.ToSlice[int64](s)
	fmt.Println(s.Shape(), s.Strides(), s.Offset(), vals)

	// m[1] drops the axis; m[1:2] keeps it.
	row, _ := view.Slice(m, view.Index(1))
	defer row.Release()
	keep, _ := view.Slice(m, view.Span(1, 2))
	defer keep.Release()
	fmt.Println(row.Shape(), keep.Shape())
	// Output:
	// [3 2] [-4 2] 9 [9 11 5 7 1 3]
	// [4] [1 4]
}
