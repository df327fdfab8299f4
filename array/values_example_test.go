package array_test

import (
	"errors"
	"fmt"

	"github.com/stride0/stride0/array"
)

// At reads one element; an index outside the shape is an error wrapping
// ErrIndex, never a panic. Set and SetNull write one element.
func ExampleAt() {
	a, err := array.FromSlice(nil, []int32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		panic(err)
	}
	defer a.Release()

	v, err := array.At[int32](a, 1, 2)
	fmt.Println(v, err)

	_ = array.Set(a, int32(60), 1, 2)
	f, _ := array.At[float64](a, 1, 2) // converted as ToSlice converts
	fmt.Println(f)

	_, err = array.At[int32](a, 2, 0)
	fmt.Println(err)
	fmt.Println(errors.Is(err, array.ErrIndex))

	_ = a.SetNull(0, 0)
	ok, _ := a.IsValid(0, 0)
	fmt.Println(ok)
	// Output:
	// 6 <nil>
	// 60
	// array.At: index [2 0] out of range for shape [2 3]: index out of range
	// true
	// false
}
