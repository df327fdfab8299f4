// Command quickstart shows stride0 in one screen: a zero-copy broadcast view,
// a lazy expression evaluated in one fused pass, and the adjoint of a
// broadcast (reduce a result back to its input's shape).
//
//	go run ./examples/quickstart
package main

import (
	"fmt"
	"log"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

func main() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())

	// A 4x3 matrix and a per-column bias.
	x, err := array.FromSlice(mem, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3)
	check(err)
	defer x.Release()
	bias, err := array.FromSlice(mem, []float32{0.5, -1, 2}, 3)
	check(err)
	defer bias.Release()

	// Broadcasting is a view: stride 0 on the new axis, no copy.
	b, err := view.BroadcastTo(bias, []int{4, 3})
	check(err)
	defer b.Release()
	fmt.Println("broadcast view:", b, "read-only:", b.ReadOnly())

	// A lazy expression: nothing is computed until Eval.
	// A plain Go number is a weak scalar (NumPy 2, NEP 50): the result stays float32.
	e := expr.Mul(expr.Add(expr.Leaf(x), expr.Leaf(bias)), expr.Const(2))
	fmt.Println("expression:", e)
	y, err := expr.Eval(e, expr.WithAllocator(mem))
	check(err)
	defer y.Release()
	vals, _ := array.ToSlice[float32](y)
	fmt.Println("(x + bias) * 2 =", vals)

	// The same expression as numexpr's users write it.
	pe, err := expr.Parse("(x + bias) * 2", map[string]*expr.Node{"x": expr.Leaf(x), "bias": expr.Leaf(bias)})
	check(err)
	py, err := expr.Eval(pe, expr.WithAllocator(mem))
	check(err)
	defer py.Release()
	fmt.Printf("parsed: %v\n%.1f\n", pe, py)

	// A plan over a variable with an unknown row count, bound per call.
	rows := broadcast.Partial(-1, 3) // [? 3]
	v := expr.Var("v", array.Float32, rows)
	gt := expr.Greater(v, expr.Add(expr.Leaf(bias), expr.Const(5)))
	fmt.Println("planned shape:", gt.Shape())
	p, err := expr.Compile(gt, expr.WithAllocator(mem))
	check(err)
	mask, err := p.Eval(expr.Bindings{"v": x})
	check(err)
	defer mask.Release()
	m, _ := array.ToSlice[bool](mask)
	fmt.Println("x > bias + 5 =", m)

	// The adjoint of broadcasting bias to [4 3]: sum the gradient back to [3].
	g, err := expr.Eval(expr.ReduceTo(expr.Leaf(y), []int{3}), expr.WithAllocator(mem))
	check(err)
	defer g.Release()
	gs, _ := array.ToSlice[float32](g)
	fmt.Println("reduce-to [3] =", gs)
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
