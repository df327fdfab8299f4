// Command everyday shows NumPy's everyday functions in stride0: it
// standardizes the columns of a matrix, takes the argmax of each row, sorts
// the rows and orders them by a column, and prints each result NumPy-style.
// Everything but the printing is a lazy expression, evaluated by Eval.
//
//	go run ./examples/everyday
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer) error {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer func() {
		if n := mem.CurrentAlloc(); n != 0 {
			log.Fatalf("leaked %d bytes", n)
		}
	}()
	opt := expr.WithAllocator(mem)

	// Five samples (rows) of four features (columns).
	m, err := array.FromNested(mem, [][]float64{
		{1.0, 20, 0.5, 300},
		{2.0, 18, 0.1, 150},
		{3.0, 25, 0.9, 220},
		{4.0, 22, 0.4, 410},
		{5.0, 19, 0.7, 180},
	})
	if err != nil {
		return err
	}
	defer m.Release()
	fmt.Fprintf(w, "data %+v\n", m)

	// z = (x - mean) / std, per column.
	x := expr.Leaf(m)
	mean := expr.ReduceMean(x, []int{0}, true)
	std := expr.ReduceStd(x, []int{0}, 0, true) // ddof 0, as numpy.std
	z, err := expr.Eval(expr.Div(expr.Sub(x, mean), std), opt)
	if err != nil {
		return err
	}
	defer z.Release()
	fmt.Fprintf(w, "standardized\n%.3f\n", z)

	// The feature with the largest z in each row (first occurrence).
	zl := expr.Leaf(z)
	best, err := expr.Eval(expr.Argmax(zl, []int{1}, false), opt)
	if err != nil {
		return err
	}
	defer best.Release()
	fmt.Fprintf(w, "argmax per row %v\n", best)

	// Each row sorted, and the rows ordered by the last feature.
	sorted, err := expr.Eval(expr.Sort(zl, 1), opt)
	if err != nil {
		return err
	}
	defer sorted.Release()
	fmt.Fprintf(w, "rows sorted\n%.3f\n", sorted)
	last := expr.Take(zl, expr.Const(-1), 1)
	byLast, err := expr.Eval(expr.Take(zl, expr.Argsort(last, 0), 0), opt)
	if err != nil {
		return err
	}
	defer byLast.Release()
	fmt.Fprintf(w, "rows by the last feature\n%.3f\n", byLast)

	// The two largest rows by that feature, stacked under the mean row.
	first2, err := array.FromSlice(mem, []int64{0, 1})
	if err != nil {
		return err
	}
	defer first2.Release()
	top := expr.Take(zl, expr.Take(expr.Argsort(expr.Neg(last), 0), expr.Leaf(first2), 0), 0)
	summary, err := expr.Eval(expr.Concatenate([]*expr.Node{expr.ReduceMean(zl, []int{0}, true), top}, 0), opt)
	if err != nil {
		return err
	}
	defer summary.Release()
	fmt.Fprintf(w, "mean row, then the top two\n%.3f\n", summary)
	return nil
}
