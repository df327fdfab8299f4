package expr

import (
	"fmt"
	"strings"
)

// Structure renders every field of n's tree that decides what it computes
// (String omits some, such as Power's refusal of negative integer powers),
// so that tests can require two trees to be the same build.
func Structure(n *Node) string {
	var b strings.Builder
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		if n == nil {
			b.WriteString("<nil>")
			return
		}
		if depth > 64 || b.Len() > 1<<16 {
			b.WriteString("…")
			return
		}
		fmt.Fprintf(&b, "{kind=%d op=%v dtype=%v ctype=%v shape=%v rule=%v strictPow=%v weak=%v wv=%v wi=%v name=%q mode=%v target=%v axes=%v axis=%v red=%v keep=%v reshap=%v ddof=%v flat=%v err=%v",
			n.kind, n.op, n.dtype, n.ctype, n.shape, n.rule, n.strictPow, n.weak, n.wv, n.wi, n.name, n.mode, n.target, n.axes, n.axis, n.red, n.keep, n.reshap, n.ddof, n.flat, n.err)
		if n.arr != nil {
			fmt.Fprintf(&b, " arr=%v%v", n.arr.DType(), n.arr.Shape())
			if n.kind == kConst {
				fmt.Fprintf(&b, " const=%s", n.constString())
			}
		}
		if n.st != nil {
			b.WriteString(" structural")
		}
		b.WriteString(" args=[")
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			walk(a, depth+1)
		}
		b.WriteString("]}")
	}
	walk(n, 0)
	return b.String()
}
