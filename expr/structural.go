package expr

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/view"
)

// Structural nodes: joins, reshapes, gathers, sorts and matmul. Their
// result shape is known from the operands' shapes (never from their
// values), so they are lazy and plan like a reduction: each ends a fused
// pass. A view node (Transpose, Reshape, Flip, Tile, Repeat) whose operand
// is an array is read in place through a view by the pass that uses it;
// other operands are evaluated into a temporary first.
const (
	kView   kind = 64 + iota // a view of the operand where one exists: transpose, reshape, flip, tile, repeat
	kConcat                  // concatenate or stack: pieces evaluated into slices of the output
	kTake                    // gather along an axis
	kSort                    // sort or argsort along an axis
	kMatmul                  // linalg.Matmul of two operands
)

type viewOp uint8

const (
	vTranspose viewOp = iota + 1
	vReshape
	vFlip
	vTile
	vRepeat
)

// structInfo holds the parameters of a structural node.
type structInfo struct {
	vop   viewOp
	ints  []int // transpose perm, reshape shape, flip axes, tile reps
	axis  int   // concat, stack, take, sort, repeat: the axis (normalized when the rank is known)
	count int   // repeat: the number of repeats
	stack bool  // kConcat: stack along a new axis
	arg   bool  // kSort: argsort
	name  string
}

func isStructural(k kind) bool { return k >= kView && k <= kMatmul }

// structNode starts a node of kind k over args with the constructor's name.
func structNode(k kind, name string, info *structInfo, args ...*Node) *Node {
	info.name = name
	n := &Node{kind: k, st: info, args: slices.Clone(args)} // the caller's slice stays theirs
	n.err = firstErr(name, args...)
	if n.err == nil && k == kView {
		n.dtype, n.ctype = args[0].dtype, args[0].dtype
	}
	return n
}

// finish sets n's shape from its operands': the static shape (and any
// error) when every operand's shape is static, else a shape of the rank
// that rank() gives with unknown dims, checked at evaluation.
func (n *Node) finish(rank func(ranks []int) int) *Node {
	if n.err != nil {
		return n
	}
	shapes := make([][]int, len(n.args))
	static := true
	ranks := make([]int, len(n.args))
	known := true
	for i, a := range n.args {
		if !a.shape.RankKnown {
			known = false
			break
		}
		ranks[i] = len(a.shape.Dims)
	}
	for i, a := range n.args {
		if s, ok := a.shape.Static(); ok {
			shapes[i] = s
		} else {
			static = false
		}
	}
	if static {
		s, err := n.structShape(shapes)
		if err != nil {
			n.err = err
			return n
		}
		n.shape = broadcast.StaticShape(s...)
		return n
	}
	n.shape = broadcast.DynamicShape()
	if known {
		if r := rank(ranks); r >= 0 {
			dims := make([]broadcast.Dim, r)
			for i := range dims {
				dims[i] = broadcast.UnknownDim()
			}
			n.shape = broadcast.Shape{Dims: dims, RankKnown: true}
			n.refinePartial()
		}
	}
	return n
}

// refinePartial fills in the dims of a partial result shape (of known
// rank) that follow from the operands' partial shapes; the others stay
// unknown and are checked at evaluation.
func (n *Node) refinePartial() {
	s, out := n.st, n.shape.Dims
	x := n.args[0].shape.Dims
	switch {
	case n.kind == kView && s.vop == vTranspose:
		if len(s.ints) == 0 {
			for k := range out {
				out[k] = x[len(x)-1-k]
			}
		} else if axes, err := checkAxes(s.ints, len(x)); err == nil {
			for k, a := range axes {
				out[k] = x[a]
			}
		}
	case n.kind == kView && s.vop == vFlip, n.kind == kSort:
		copy(out, x)
	case n.kind == kView && s.vop == vReshape:
		for k, d := range s.ints {
			if d >= 0 {
				out[k] = broadcast.StaticDim(d)
			}
		}
	case n.kind == kTake:
		if ax, ok := normAxis(s.axis, len(x)); ok {
			idx := n.args[1].shape.Dims
			copy(out, slices.Concat(x[:ax], idx, x[ax+1:]))
		}
	case n.kind == kConcat && s.stack:
		if ax, ok := normAxis(s.axis, len(out)); ok {
			copy(out, slices.Insert(slices.Clone(x), ax, broadcast.StaticDim(len(n.args))))
		}
	case n.kind == kConcat:
		if ax, ok := normAxis(s.axis, len(out)); ok {
			copy(out, x)
			out[ax] = broadcast.UnknownDim()
			sum := 0
			for _, a := range n.args {
				d := a.shape.Dims[ax]
				if !d.IsStatic() {
					return
				}
				sum += d.Lo
			}
			out[ax] = broadcast.StaticDim(sum)
		}
	}
}

func sameRank(r []int) int { return r[0] }

// Transpose permutes x's axes: result axis k is x's axis perm[k]
// (negative entries count from the end); no perm reverses the axes, as
// numpy.transpose does. Lazy: over an array it is a view (no copy).
func Transpose(x *Node, perm ...int) *Node {
	n := structNode(kView, "Transpose", &structInfo{vop: vTranspose, ints: clone(perm)}, x)
	return n.finish(func(r []int) int {
		if len(perm) != 0 && len(perm) != r[0] {
			return -1
		}
		return r[0]
	})
}

// Reshape gives x another shape of the same element count, its elements
// in row-major order (numpy.reshape, order C); one dim may be -1, inferred
// from the others. Lazy: a view when x is an array whose strides allow it
// (always for a contiguous one), otherwise one copy pass.
func Reshape(x *Node, shape ...int) *Node {
	n := structNode(kView, "Reshape", &structInfo{vop: vReshape, ints: clone(shape)}, x)
	if n.st.ints == nil {
		n.st.ints = []int{}
	}
	return n.finish(func([]int) int { return len(shape) })
}

// Flip reverses the order of x's elements along axes (every axis when none
// is given), as numpy.flip. Lazy: a view with negative strides.
func Flip(x *Node, axes ...int) *Node {
	n := structNode(kView, "Flip", &structInfo{vop: vFlip, ints: clone(axes)}, x)
	return n.finish(sameRank)
}

// Tile repeats x reps times along each axis, as numpy.tile: reps is padded
// with leading 1s to x's rank and x with leading axes of size 1 to
// len(reps). Lazy: where a view expresses the result (the repeated axes
// have size 1, as broadcast_to) it is a stride-0 view; otherwise one copy
// pass reading x through stride 0 (view.TileExpanded).
func Tile(x *Node, reps ...int) *Node {
	n := structNode(kView, "Tile", &structInfo{vop: vTile, ints: clone(reps)}, x)
	if n.st.ints == nil {
		n.st.ints = []int{}
	}
	return n.finish(func(r []int) int { return max(r[0], len(reps)) })
}

// Repeat repeats each element of x along axis (negative counts from the
// end), as numpy.repeat(x, repeats, axis). repeats holds one count for
// every element, or one count per element along the axis. Lazy: a single
// count is a stride-0 view where one exists (an axis of size 1) and
// otherwise one copy pass; per-element counts are one gather of each slice
// along the axis, count times. As in NumPy, a rank-0 x repeats as a 1-D array of one
// element.
func Repeat(x *Node, repeats []int, axis int) *Node {
	x = ravelScalar(x)
	info := &structInfo{vop: vRepeat, axis: axis, ints: append([]int{}, repeats...)}
	if len(repeats) == 1 {
		info.count, info.ints = repeats[0], nil
	}
	return structNode(kView, "Repeat", info, x).finish(sameRank)
}

// maxRepeat bounds the length of a repeated axis.
const maxRepeat = min(1<<40, math.MaxInt)

// RepeatFlat repeats each element of x, flattened in row-major order,
// repeats times: numpy.repeat(x, repeats) with axis None.
func RepeatFlat(x *Node, repeats int) *Node {
	return Repeat(Reshape(x, -1), []int{repeats}, 0)
}

// Concatenate joins xs along an existing axis (negative counts from the
// end), as numpy.concatenate: every piece has the same rank (not 0) and
// the same dims but along axis; the dtype is the promotion of the pieces'
// (NumPy's result_type, array.PromoteTypesN: int8, uint16 and float32
// give float32, not a pairwise fold's float64). Lazy: no piece is copied until the node is
// evaluated, and then each is evaluated (fused with whatever it computes)
// straight into its slice of the output.
func Concatenate(xs []*Node, axis int) *Node {
	return joinNode("Concatenate", xs, axis, false)
}

// Stack joins xs, which have one shape, along a new axis at position axis
// of the result (negative counts from the end of the result), as
// numpy.stack. Lazy, like Concatenate.
func Stack(xs []*Node, axis int) *Node {
	return joinNode("Stack", xs, axis, true)
}

func joinNode(name string, xs []*Node, axis int, stack bool) *Node {
	n := structNode(kConcat, name, &structInfo{axis: axis, stack: stack}, xs...)
	if n.err != nil {
		return n
	}
	if len(xs) == 0 {
		n.err = fmt.Errorf("expr.%s: %w: need at least one array", name, ErrArgument)
		return n
	}
	dts := make([]array.DType, len(xs))
	for i, x := range xs {
		dts[i] = x.dtype
	}
	dt := array.PromoteTypesN(dts...) // NumPy's n-ary promotion, not a pairwise fold
	n.dtype, n.ctype = dt, dt
	for i, x := range xs {
		if x.dtype != dt {
			n.args[i] = Cast(x, dt)
		}
	}
	return n.finish(func(r []int) int {
		for _, k := range r[1:] {
			if k != r[0] {
				return -1
			}
		}
		if stack {
			return r[0] + 1
		}
		return r[0]
	})
}

// normAxis maps axis in [-n, n) to [0, n).
func normAxis(axis, n int) (int, bool) {
	if axis < -n || axis >= n {
		return 0, false
	}
	if axis < 0 {
		axis += n
	}
	return axis, true
}

// structShape is the static result shape of a structural node over
// operands of the given shapes, or the error naming them. A shape of more
// than 2^48 elements (possible only with variables of absurd static
// shapes) is an error rather than an overflow.
func (n *Node) structShape(in [][]int) ([]int, error) {
	out, err := n.structShape0(in)
	if err != nil {
		return nil, err
	}
	total := 1
	if slices.Contains(out, 0) {
		return out, nil
	}
	for _, d := range out {
		if d < 0 || int64(total) > (1<<48)/int64(d) {
			return nil, fmt.Errorf("expr.%s: %w: result shape %v is too large", n.st.name, ErrArgument, out)
		}
		total *= d
	}
	return out, nil
}

func (n *Node) structShape0(in [][]int) ([]int, error) {
	s := n.st
	fail := func(format string, a ...any) ([]int, error) {
		return nil, fmt.Errorf("expr.%s: "+format, append([]any{s.name}, a...)...)
	}
	switch n.kind {
	case kView:
		x := in[0]
		switch s.vop {
		case vTranspose:
			out := make([]int, len(x))
			if len(s.ints) == 0 {
				for k := range out {
					out[k] = x[len(x)-1-k]
				}
				return out, nil
			}
			if len(s.ints) != len(x) {
				return fail("%v by %v: %d axes for rank %d: %w", x, s.ints, len(s.ints), len(x), broadcast.ErrAxes)
			}
			norm, err := checkAxes(s.ints, len(x))
			if err != nil {
				return fail("%v by %v: %w", x, s.ints, err)
			}
			for k, ax := range norm {
				out[k] = x[ax]
			}
			return out, nil
		case vReshape:
			out, err := inferReshape(x, s.ints)
			if err != nil {
				return fail("%v to %v: %w", x, s.ints, err)
			}
			return out, nil
		case vFlip:
			if _, err := checkAxes(s.ints, len(x)); err != nil {
				return fail("%v along %v: %w", x, s.ints, err)
			}
			return slices.Clone(x), nil
		case vTile:
			out, _, err := view.TileShape(x, s.ints)
			if err != nil {
				return fail("%v by %v: %w", x, s.ints, err)
			}
			return out, nil
		case vRepeat:
			ax, ok := normAxis(s.axis, len(x))
			if !ok {
				return fail("axis %d out of range for shape %v: %w", s.axis, x, broadcast.ErrAxes)
			}
			out := slices.Clone(x)
			if s.ints == nil {
				switch {
				case s.count < 0:
					return fail("%w: repeats is negative (%d)", ErrArgument, s.count)
				case s.count > 0 && x[ax] > maxRepeat/s.count:
					return fail("%w: %d × %d elements along axis %d", ErrArgument, x[ax], s.count, ax)
				}
				out[ax] *= s.count
				return out, nil
			}
			if len(s.ints) != x[ax] {
				return fail("%w: %d repeats for axis %d of shape %v (one, or one per element)", ErrArgument, len(s.ints), ax, x)
			}
			out[ax] = 0
			for i, r := range s.ints {
				if r < 0 {
					return fail("%w: repeats[%d] is negative (%d)", ErrArgument, i, r)
				}
				if r > maxRepeat-out[ax] {
					return fail("%w: more than 2^40 repeats along axis %d", ErrArgument, ax)
				}
				out[ax] += r
			}
			return out, nil
		}
		return fail("%w: unknown view", ErrArgument)
	case kConcat:
		return n.joinShape(in)
	case kTake:
		return n.takeShape(in)
	case kSort:
		return n.sortShape(in)
	case kMatmul:
		return matmulShape(in[0], in[1])
	}
	return fail("%w: unknown structural node", ErrArgument)
}

// checkAxes normalizes axes of a rank-r operand: each in range, none
// repeated.
func checkAxes(axes []int, r int) ([]int, error) {
	norm := make([]int, len(axes))
	for i, a := range axes {
		ax, ok := normAxis(a, r)
		if !ok {
			return nil, fmt.Errorf("axis %d out of range for rank %d: %w", a, r, broadcast.ErrAxes)
		}
		if slices.Contains(norm[:i], ax) {
			return nil, fmt.Errorf("axis %d repeated: %w", a, broadcast.ErrAxes)
		}
		norm[i] = ax
	}
	return norm, nil
}

// inferReshape checks a reshape of shape x to shape (with one -1).
func inferReshape(x, shape []int) ([]int, error) {
	total := size(x)
	out := slices.Clone(shape)
	unknown, known, zero := -1, 1, false // known: the product of the other non-zero dims, saturated
	for i, d := range out {
		switch {
		case d == -1 && unknown >= 0:
			return nil, fmt.Errorf("%w: dims %d and %d are both -1", view.ErrShape, unknown, i)
		case d == -1:
			unknown = i
		case d < 0:
			return nil, fmt.Errorf("%w: dim %d is negative (%d)", view.ErrShape, i, d)
		case d == 0:
			zero = true
		case known > math.MaxInt/d:
			known = math.MaxInt
		default:
			known *= d
		}
	}
	if zero {
		known = 0
	}
	if unknown >= 0 {
		if known == 0 || total%known != 0 {
			return nil, fmt.Errorf("%w: %d elements cannot take a shape of %v", view.ErrShape, total, shape)
		}
		out[unknown] = total / known
		known = total
	}
	if known != total {
		return nil, fmt.Errorf("%w: %d elements cannot take a shape of %v", view.ErrShape, total, shape)
	}
	return out, nil
}

func (n *Node) joinShape(in [][]int) ([]int, error) {
	s := n.st
	first := in[0]
	r := len(first)
	if s.stack {
		ax, ok := normAxis(s.axis, r+1)
		if !ok {
			return nil, fmt.Errorf("expr.Stack: axis %d out of range for rank %d: %w", s.axis, r+1, broadcast.ErrAxes)
		}
		for i, x := range in {
			if !slices.Equal(x, first) {
				return nil, fmt.Errorf("expr.Stack: %w: all input arrays must have the same shape: piece 0 is %v, piece %d is %v", broadcast.ErrIncompatible, first, i, x)
			}
		}
		out := slices.Insert(slices.Clone(first), ax, len(in))
		return out, nil
	}
	if r == 0 {
		return nil, fmt.Errorf("expr.Concatenate: %w: zero-dimensional arrays cannot be concatenated", broadcast.ErrIncompatible)
	}
	ax, ok := normAxis(s.axis, r)
	if !ok {
		return nil, fmt.Errorf("expr.Concatenate: axis %d out of range for shape %v: %w", s.axis, first, broadcast.ErrAxes)
	}
	out := slices.Clone(first)
	out[ax] = 0
	for i, x := range in {
		if len(x) != r {
			return nil, fmt.Errorf("expr.Concatenate: %w: piece 0 has shape %v, piece %d has shape %v (another rank)", broadcast.ErrIncompatible, first, i, x)
		}
		for k := range x {
			if k != ax && x[k] != first[k] {
				return nil, fmt.Errorf("expr.Concatenate: %w: along axis %d piece 0 has shape %v, piece %d has shape %v (axis %d differs)", broadcast.ErrIncompatible, ax, first, i, x, k)
			}
		}
		out[ax] += x[ax]
	}
	return out, nil
}

// formatStruct writes a structural node's parameters after its operands.
func (n *Node) formatStruct(b *strings.Builder) {
	s := n.st
	switch n.kind {
	case kView:
		switch s.vop {
		case vTranspose:
			if len(s.ints) > 0 {
				fmt.Fprintf(b, ", %v", s.ints)
			}
		case vReshape, vTile:
			fmt.Fprintf(b, ", %v", s.ints)
		case vFlip:
			if len(s.ints) > 0 {
				fmt.Fprintf(b, ", axes=%v", s.ints)
			}
		case vRepeat:
			if s.ints != nil {
				fmt.Fprintf(b, ", %v, axis=%d", s.ints, s.axis)
			} else {
				fmt.Fprintf(b, ", %d, axis=%d", s.count, s.axis)
			}
		}
	case kConcat, kTake, kSort:
		fmt.Fprintf(b, ", axis=%d", s.axis)
	}
}

// structName is a structural node's name in String.
func (n *Node) structName() string {
	s := n.st
	switch n.kind {
	case kView:
		return [...]string{"?", "transpose", "reshape", "flip", "tile", "repeat"}[s.vop]
	case kConcat:
		if s.stack {
			return "stack"
		}
		return "concatenate"
	case kTake:
		return "take"
	case kSort:
		if s.arg {
			return "argsort"
		}
		return "sort"
	case kMatmul:
		return "matmul"
	}
	return "?"
}
