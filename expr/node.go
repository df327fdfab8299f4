package expr

import (
	"fmt"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

type kind uint8

const (
	kLeaf      kind = iota + 1 // an array
	kVar                       // a named variable, bound at evaluation
	kConst                     // a scalar constant
	kBroadcast                 // a Broadcast op (rule + target)
	kUnary                     // elementwise, one operand
	kBinary                    // elementwise, two operands with an auto-broadcast rule
	kWhere                     // select(cond, x, y)
	kCast                      // dtype conversion
	kReduce                    // reduction over axes (ends a fused group)
)

// Node is one vertex of a lazy expression. Nodes are immutable once built
// and may be shared between expressions and goroutines. A node whose
// construction failed records the error (Err) and so does every node built
// on it, so a whole expression can be written before checking once.
type Node struct {
	kind  kind
	op    compute.Op
	dtype array.DType
	shape broadcast.Shape
	args  []*Node
	err   error

	arr  *array.Array // kLeaf, kConst (a rank-0 array)
	weak weakKind     // kConst: a weak scalar (Const of a Go int, float64 or bool)
	wv   float64      // kConst, weak: the value
	wi   int64        // kConst, weak int: the exact value
	name string       // kVar
	st   *structInfo  // structural nodes (structural.go)

	// kBroadcast
	mode   Mode
	target []int
	axes   []int // axes_mapping (explicit), broadcast_axes (ngraph), reduction axes (kReduce)
	axis   int   // pdpd start axis

	// kBinary, kWhere
	rule Rule
	// kBinary Power: integers to a negative power are an error (Power, not
	// PowerTruncating)
	strictPow bool

	// kReduce
	red    reduction
	keep   bool
	reshap []int // ReduceTo: the final shape; nil otherwise
	ddof   int   // Var, Std: delta degrees of freedom
	flat   bool  // Cumsum, Cumprod: over the flattened array

	// compute dtype of an elementwise op (operands are cast to it first)
	ctype array.DType
}

// Err returns the error recorded when n (or any node below it) was built,
// or nil. A nil *Node, and a zero Node (not made by a constructor), report
// an error too.
func (n *Node) Err() error {
	if n == nil {
		return fmt.Errorf("expr: %w", ErrNilNode)
	}
	if n.kind == 0 && n.err == nil {
		return fmt.Errorf("expr: zero Node (build nodes with the package's functions): %w", ErrNilNode)
	}
	return n.err
}

// DType is the element type of n's result.
func (n *Node) DType() array.DType {
	if n == nil {
		return array.Invalid
	}
	return n.dtype
}

// Shape is n's result shape as far as it is known when built: static for
// expressions over arrays, partial where variables have unknown dims.
func (n *Node) Shape() broadcast.Shape {
	if n == nil {
		return broadcast.DynamicShape()
	}
	return n.shape
}

// StaticShape returns n's shape if every dim is known.
func (n *Node) StaticShape() ([]int, bool) {
	if n == nil {
		return nil, false
	}
	return n.shape.Static()
}

// String renders n as a readable formula, e.g. "add(x, broadcast_numpy(b, [4 3]))".
func (n *Node) String() string {
	var b strings.Builder
	n.format(&b)
	return b.String()
}

// MaxStringLength bounds what String writes: a subtree that starts once
// this many bytes are written is written as "…" (the calls still open are
// then closed, a few bytes each). A node shared by several paths is written
// once per path, so without the bound an expression of d nested e = e + e
// would print 2^d leaves.
const MaxStringLength = 1 << 16

func (n *Node) format(b *strings.Builder) {
	if n == nil {
		b.WriteString("<nil>")
		return
	}
	if b.Len() > MaxStringLength {
		b.WriteString("…")
		return
	}
	switch n.kind {
	case kLeaf:
		fmt.Fprintf(b, "array<%v%v>", n.dtype, n.arr.Shape())
		return
	case kVar:
		b.WriteString(n.name)
		return
	case kConst:
		b.WriteString(n.constString())
		return
	}
	b.WriteString(n.opName())
	b.WriteByte('(')
	for i, a := range n.args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.format(b)
	}
	switch n.kind {
	case kBroadcast:
		fmt.Fprintf(b, ", %v", n.target)
		if n.mode == ModeExplicit || n.mode == ModeNGraph {
			fmt.Fprintf(b, ", axes=%v", n.axes)
		}
		if n.mode == ModePDPD {
			fmt.Fprintf(b, ", axis=%d", n.axis)
		}
	case kBinary, kWhere:
		if n.rule.kind != ruleNumpy {
			fmt.Fprintf(b, ", %v", n.rule)
		}
	case kCast:
		fmt.Fprintf(b, ", %v", n.dtype)
	case kView, kConcat, kTake, kSort, kMatmul:
		n.formatStruct(b)
	case kReduce:
		switch {
		case n.reshap != nil:
			fmt.Fprintf(b, ", to=%v", n.reshap)
		case n.red.isScan():
			if n.flat {
				b.WriteString(", flattened")
			} else {
				fmt.Fprintf(b, ", axis=%d", n.axes[0])
			}
		default:
			fmt.Fprintf(b, ", axes=%v", n.axes)
			if n.red == redVar || n.red == redStd {
				fmt.Fprintf(b, ", ddof=%d", n.ddof)
			}
			if n.keep {
				b.WriteString(", keepdims")
			}
		}
	}
	b.WriteByte(')')
}

func (n *Node) opName() string {
	switch n.kind {
	case kBroadcast:
		return "broadcast_" + string(n.mode)
	case kWhere:
		return "select"
	case kCast:
		return "cast"
	case kView, kConcat, kTake, kSort, kMatmul:
		return n.structName()
	case kReduce:
		switch {
		case n.reshap != nil:
			return "reduce_to"
		case n.red >= redVar:
			return n.red.String()
		}
		return "reduce_" + n.red.String()
	}
	return n.op.String()
}

// walk calls f for n and every node below it, each once (a node reached
// by several paths at its first visit), children before parents: the cost
// is the number of distinct nodes, not of paths.
func (n *Node) walk(f func(*Node)) {
	n.walkSeen(f, map[*Node]bool{})
}

func (n *Node) walkSeen(f func(*Node), seen map[*Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	for _, a := range n.args {
		a.walkSeen(f, seen)
	}
	f(n)
}

// Vars returns the names of the variables n refers to, each once, in order
// of first appearance.
func (n *Node) Vars() []string {
	var names []string
	seen := map[string]bool{}
	n.walk(func(m *Node) {
		if m.kind == kVar && !seen[m.name] {
			seen[m.name] = true
			names = append(names, m.name)
		}
	})
	return names
}
