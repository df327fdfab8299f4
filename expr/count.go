package expr

import (
	"fmt"

	"github.com/stride0/stride0/broadcast"
)

// checkCount records an error in n when the element count of its shape does
// not fit in an int (broadcast.Size's test, the one view.BroadcastTo applies):
// such a shape cannot be evaluated, and a reduction over it would silently
// count wrong. For a partial shape the lower bound of every dim is counted,
// so only shapes that overflow whatever the variables turn out to be are
// rejected here; evaluation checks the resolved shapes again.
func (n *Node) checkCount(op string) *Node {
	if n.err != nil {
		return n
	}
	if err := countErr(n.shape); err != nil {
		n.err = fmt.Errorf("expr.%s: result shape %v: %w", op, n.shape, err)
	}
	return n
}

// countErr reports a broadcast.ErrOverflow error when the element count of s
// (the lower bounds of its dims) overflows int.
func countErr(s broadcast.Shape) error {
	if !s.RankKnown {
		return nil
	}
	lo := make([]int, len(s.Dims))
	for i, d := range s.Dims {
		lo[i] = max(d.Lo, 0)
	}
	_, err := broadcast.Size(lo)
	return err
}

// checkStaticCount is checkCount for a resolved (static) shape; the caller
// names the op.
func checkStaticCount(shape []int) error {
	if _, err := broadcast.Size(shape); err != nil {
		return fmt.Errorf("result shape %v: %w", shape, err)
	}
	return nil
}
