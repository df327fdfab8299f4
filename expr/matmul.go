package expr

import (
	"fmt"

	"github.com/stride0/stride0/array"
)

// Matmul is the matrix product of a and b as a node, with NumPy's rules
// (those of linalg.Matmul, which computes it): stacks of matrices in the
// last two axes, a 1-D a a row and a 1-D b a column with the added axis
// removed from the result, batch axes broadcast (stride 0, never copied),
// the dtypes promoted. A rank-0 operand, a k mismatch or batch axes that do
// not broadcast are errors naming both shapes (wrapping array.ErrShape),
// reported when the node is built if the shapes are known.
//
// Lazy: the result's shape is known from the operands' shapes, so Matmul
// plans like a reduction: its operands are evaluated into temporaries
// (arrays are read in place), then the kernel writes the result, which the
// nodes above read as a leaf.
func Matmul(a, b *Node) *Node {
	n := structNode(kMatmul, "Matmul", &structInfo{}, a, b)
	if n.err != nil {
		return n
	}
	n.dtype = Promote(a.dtype, b.dtype)
	n.ctype = n.dtype
	return n.finish(func(r []int) int {
		if r[0] == 0 || r[1] == 0 {
			return -1
		}
		out := max(r[0]-2, r[1]-2, 0)
		if r[0] > 1 {
			out++
		}
		if r[1] > 1 {
			out++
		}
		return out
	})
}

// matmulShape is NumPy's matmul result shape.
func matmulShape(a, b []int) ([]int, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, fmt.Errorf("expr.Matmul: %w: shapes %v and %v: an operand is a scalar (rank 0); matmul needs rank 1 or more", array.ErrShape, a, b)
	}
	var n, k, k2, m int
	var ba, bb []int
	if len(a) == 1 {
		n, k = 1, a[0]
	} else {
		n, k, ba = a[len(a)-2], a[len(a)-1], a[:len(a)-2]
	}
	if len(b) == 1 {
		k2, m = b[0], 1
	} else {
		k2, m, bb = b[len(b)-2], b[len(b)-1], b[:len(b)-2]
	}
	if k != k2 {
		return nil, fmt.Errorf("expr.Matmul: %w: shapes %v and %v do not align: the first's last axis has %d, the second's has %d", array.ErrShape, a, b, k, k2)
	}
	r := max(len(ba), len(bb))
	out := make([]int, r, r+2)
	for i := 1; i <= r; i++ {
		dx, dy := 1, 1
		if i <= len(ba) {
			dx = ba[len(ba)-i]
		}
		if i <= len(bb) {
			dy = bb[len(bb)-i]
		}
		switch {
		case dx == dy || dy == 1:
			out[r-i] = dx
		case dx == 1:
			out[r-i] = dy
		default:
			return nil, fmt.Errorf("expr.Matmul: %w: shapes %v and %v: batch axes do not broadcast (%d against %d)", array.ErrShape, a, b, dx, dy)
		}
	}
	if len(a) > 1 {
		out = append(out, n)
	}
	if len(b) > 1 {
		out = append(out, m)
	}
	return out, nil
}
