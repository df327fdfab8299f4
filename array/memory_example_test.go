package array_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/stride0/stride0/array"
)

// A request too large for the allocation limit (or the machine) is an
// error that names the shape, the dtype and the bytes, never a crash.
func ExampleAllocError() {
	prev := array.SetAllocLimit(1 << 30) // 1 GiB, for a message that does not depend on the machine
	defer array.SetAllocLimit(prev)

	_, err := array.New(nil, array.Float64, 1<<20, 1<<20)
	fmt.Println(err)
	var ae *array.AllocError
	fmt.Println(errors.Is(err, array.ErrAlloc), errors.As(err, &ae) && ae.Bytes == 8<<40)
	// Output:
	// array.New: unable to allocate 8 TiB for an array with shape [1048576 1048576] and data type float64: more than the allocation limit of 1 GiB (array.SetAllocLimit): cannot allocate memory
	// true true
}

// In debug mode a slice from Values used after Release reads poison (NaN)
// instead of another array's values, and Leaks says where unreleased arrays
// were made.
func ExampleSetMemDebug() {
	prev := array.SetMemDebug(true)
	defer array.SetMemDebug(prev)

	a, _ := array.Full(nil, 1.5, 4)
	v, _ := array.Values[float64](a)
	a.Release()
	b, _ := array.Full(nil, 2.5, 4) // never gets a's memory in debug mode
	fmt.Println(math.IsNaN(v[0]), len(array.Leaks()) > 0)
	b.Release()
	// Output: true true
}
