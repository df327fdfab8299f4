package expr

import (
	"fmt"
	"slices"
)

// RowWise reports whether n is computed row by row along axis 0: its result
// has the rows of its variables as axis 0, and row i of the result depends
// only on row i of each variable (elementwise ops, casts, where, and
// reductions, scans and arg-reductions over other axes; constants and leaf
// arrays only as far as they broadcast along the rows). Such an expression
// gives the same rows evaluated on a whole table or batch by batch, which
// is what package frame relies on to compute a column batch by batch. It returns nil when
// so, and otherwise an error wrapping ErrArgument that names the offending
// op: a reduction or scan over axis 0, a Broadcast op or ReduceTo of a
// variable, a variable's rows meeting a leaf of several rows, a variable
// of rank 0, or no variable at all.
func (n *Node) RowWise() error {
	if err := n.Err(); err != nil {
		return err
	}
	rows, err := n.rowAxis(map[*Node]rowAxisResult{})
	if err != nil {
		return err
	}
	if !rows {
		return fmt.Errorf("expr.RowWise: %w: %v depends on no variable, so it has no row axis", ErrArgument, n)
	}
	return nil
}

// rowAxisResult is rowAxis's answer for one node.
type rowAxisResult struct {
	rows bool
	err  error
}

// rowAxis reports whether axis 0 of n is the row axis of its variables
// (true) or n depends on no variable (false), or why n mixes rows. memo
// holds the answers for the nodes seen, so that a node reached by several
// paths is examined once.
func (n *Node) rowAxis(memo map[*Node]rowAxisResult) (bool, error) {
	if r, ok := memo[n]; ok {
		return r.rows, r.err
	}
	rows, err := n.rowAxisOf(memo)
	memo[n] = rowAxisResult{rows, err}
	return rows, err
}

func (n *Node) rowAxisOf(memo map[*Node]rowAxisResult) (bool, error) {
	switch n.kind {
	case kLeaf, kConst:
		return false, nil
	case kVar:
		if !n.shape.RankKnown || len(n.shape.Dims) == 0 {
			return false, fmt.Errorf("expr.RowWise: %w: variable %q of shape %v has no row axis", ErrArgument, n.name, n.shape)
		}
		return true, nil
	case kUnary, kCast:
		return n.args[0].rowAxis(memo)
	case kBinary, kWhere:
		if !n.shape.RankKnown {
			return false, fmt.Errorf("expr.RowWise: %w: %v has an unknown rank", ErrArgument, n)
		}
		rank := len(n.shape.Dims)
		rows := false
		rowsOf := make([]bool, len(n.args))
		for i, a := range n.args {
			r, err := a.rowAxis(memo)
			if err != nil {
				return false, err
			}
			rowsOf[i] = r
			rows = rows || r
		}
		if !rows {
			// no variable below: a constant subexpression, which the node
			// that meets the rows checks
			return false, nil
		}
		for i, a := range n.args {
			ar := len(a.shape.Dims)
			switch {
			case rowsOf[i] && ar != rank:
				return false, fmt.Errorf("expr.RowWise: %w: in %v the rows of %v (rank %d) land on axis %d of a rank-%d result, not axis 0", ErrArgument, n, a, ar, rank-ar, rank)
			case rowsOf[i]:
			case ar > 0 && (ar == rank || n.rule.kind == rulePDPD && n.rule.axis == 0) && !(a.shape.Dims[0].IsStatic() && a.shape.Dims[0].Lo == 1):
				return false, fmt.Errorf("expr.RowWise: %w: in %v the operand %v of shape %v lies along the rows (its axis 0 must be 1 to broadcast over them)", ErrArgument, n, a, a.shape)
			}
		}
		return true, nil
	case kBroadcast:
		r, err := n.args[0].rowAxis(memo)
		if err == nil && r {
			err = fmt.Errorf("expr.RowWise: %w: %v broadcasts a row-dependent operand", ErrArgument, n)
		}
		return false, err
	case kReduce:
		r, err := n.args[0].rowAxis(memo)
		if err != nil || !r {
			return false, err
		}
		if n.reshap != nil || n.flat || slices.Contains(n.axes, 0) {
			return false, fmt.Errorf("expr.RowWise: %w: %v %s over the row axis (axis 0 of %v)", ErrArgument, n, map[bool]string{true: "scans", false: "reduces"}[n.red.isScan()], n.args[0].shape)
		}
		return true, nil
	}
	return false, fmt.Errorf("expr.RowWise: %w: %v", ErrArgument, n)
}
