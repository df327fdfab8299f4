package broadcast_test

import (
	"errors"
	"fmt"

	"github.com/stride0/stride0/broadcast"
)

// One-directional numpy broadcasting of a bias [16 1 1] to [1 16 50 50]
// (the Broadcast-3 specification's example), and the strides of the
// zero-copy view.
func ExampleNumpy() {
	data, target := []int{16, 1, 1}, []int{1, 16, 50, 50}
	out, m, err := broadcast.Numpy(data, target)
	if err != nil {
		fmt.Println(err)
		return
	}
	strides, _ := broadcast.Strides(data, []int{1, 1, 1}, out, m)
	fmt.Println(out, m, strides)

	_, _, err = broadcast.Numpy([]int{3, 1, 5}, []int{4, 4, 5})
	fmt.Println(err)
	fmt.Println(errors.Is(err, broadcast.ErrIncompatible))
	// Output:
	// [1 16 50 50] [1 2 3] [0 1 0 0]
	// broadcast numpy: cannot broadcast [3 1 5] to [4 4 5]: dim 0 is 3, target is 4
	// true
}

// Explicit mode: [H W] = [50 50] to [N H W C] with axes_mapping [1 2].
func ExampleExplicit() {
	out, m, err := broadcast.Explicit([]int{50, 50}, []int{1, 50, 50, 16}, []int{1, 2})
	fmt.Println(out, m, err)

	_, _, err = broadcast.Explicit([]int{3, 4}, []int{4, 3}, []int{1, 0})
	fmt.Println(err)
	// Output:
	// [1 50 50 16] [1 2] <nil>
	// broadcast explicit: cannot broadcast [3 4] to [4 3] with axes_mapping [1 0]: axes_mapping[1] = 0 does not follow axes_mapping[0] = 1 (must be strictly increasing)
}

// The gradient of a broadcast [3 1] -> [2 3 4] is the output gradient
// summed over axes 0 (new) and 2 (stretched), reshaped to [3 1].
func ExampleAdjoint() {
	in := []int{3, 1}
	out, m, _ := broadcast.Numpy(in, []int{2, 3, 4})
	axes, _ := broadcast.Adjoint(in, out, m)
	fmt.Println(axes)

	// ReduceTo does both steps for the numpy rule.
	axes, _ = broadcast.ReduceTo([]int{2, 3, 4}, []int{3, 1})
	fmt.Println(axes)
	// Output:
	// [0 2]
	// [0 2]
}

// Planning with a partial shape: the row count is not known yet.
func ExampleInferMultidirectional() {
	rows := broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(3)}, RankKnown: true}
	out, err := broadcast.InferMultidirectional(rows, broadcast.StaticShape(3))
	fmt.Println(out, err)
	// Output:
	// [? 3] <nil>
}
