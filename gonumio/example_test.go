package gonumio_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/gonumio"
)

func Example() {
	a, _ := array.FromNested(nil, [][]float64{{1, 2}, {3, 4}})
	defer a.Release() // after the last use of d, which shares a's memory
	d, shared, _ := gonumio.ToDense(a)
	var inv mat.Dense
	_ = inv.Inverse(d)

	b, _ := gonumio.FromDense(&inv) // shares inv's storage; the GC keeps it alive
	defer b.Release()
	fmt.Println(shared)
	fmt.Printf("%.1f\n", b)
	// Output:
	// true
	// [[-2.0  1.0]
	//  [ 1.5 -0.5]]
}
