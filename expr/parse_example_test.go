package expr_test

import (
	"errors"
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Parse reads numexpr's (Python's) syntax; names are env's nodes. The first
// expression is the builder form's
// Mul(Sub(x, ReduceMean(x, []int{0}, false)), Const(2)); the weak 2 keeps
// float32.
func ExampleParse() {
	x, _ := array.FromSlice(nil, []float32{1, 2, 3, 4, 5, 6}, 3, 2)
	defer x.Release()
	env := map[string]*expr.Node{"x": expr.Leaf(x)}

	e, err := expr.Parse("(x - mean(x, axis=0)) * 2", env)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := expr.Eval(e)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer y.Release()
	fmt.Println(y.DType(), y)

	s, _ := expr.Parse("where(x > 2, sqrt(x), -x**2) * 2", env)
	fmt.Println(s, s.DType())

	_, err = expr.Parse("x - mena(x, axis=0)", env)
	var pe *expr.ParseError
	fmt.Println(err, errors.As(err, &pe), pe.Pos, errors.Is(err, expr.ErrSyntax))
	// Output:
	// float32 [[-4. -4.]
	//  [ 0.  0.]
	//  [ 4.  4.]]
	// multiply(select(greater(array<float32[3 2]>, 2), sqrt(array<float32[3 2]>), negative(power(array<float32[3 2]>, 2))), 2) float32
	// parse error at 4: unknown function "mena" (did you mean "mean"?) true 4 true
}
