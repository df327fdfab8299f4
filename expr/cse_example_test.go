package expr_test

import (
	"fmt"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// A node used several times is evaluated once: here the mean, shared by
// the centring and the variance, is one reduction, and the standardization
// runs in four passes (two reductions, the scalar sqrt, the result).
func Example_sharedSubexpression() {
	x := expr.Var("x", array.Float32, broadcast.Partial(-1))
	m := expr.ReduceMean(x, nil, false)
	z := expr.Div(expr.Sub(x, m), expr.Sqrt(expr.ReduceMean(expr.Square(expr.Sub(x, m)), nil, false)))

	p, err := expr.Compile(z)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := array.Wrap([]float32{1, 2, 3, 4})
	b := expr.Bindings{"x": a}
	plan, _ := p.Explain(b)
	fmt.Println("passes:", strings.Count(plan, "\npass "))
	out, err := p.Eval(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Release()
	v, _ := array.ToSlice[float32](out)
	fmt.Printf("%.4f\n", v)
	// Output:
	// passes: 4
	// [-1.3416 -0.4472 0.4472 1.3416]
}
