package naive

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// SumAxes sums a over the given axes and drops them (nGraph's Sum, the
// adjoint of a broadcast: see broadcast.Adjoint). The axes may come in any
// order; a negative axis counts from the end; a repeated or out-of-range axis
// is an error. Sums accumulate in float64, in row-major order, and are
// converted to a's dtype at the end (as array.Set converts: integers
// truncate, bool is "any true"). Null elements count as zero; the result has
// no validity mask. No axes gives a copy of a (without its mask); all axes
// give a scalar.
func SumAxes(mem memory.Allocator, a *array.Array, axes []int) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.SumAxes: %w", err)
	}
	in := a.Shape()
	summed := make([]bool, len(in))
	for _, ax := range axes {
		k := ax
		if k < 0 {
			k += len(in)
		}
		if k < 0 || k >= len(in) || summed[k] {
			return nil, fmt.Errorf("naive.SumAxes %v over %v: axis %d out of range or repeated: %w", in, axes, ax, array.ErrShape)
		}
		summed[k] = true
	}
	var out []int
	for k, d := range in {
		if !summed[k] {
			out = append(out, d)
		}
	}
	res, err := array.New(mem, a.DType(), out...)
	if err != nil {
		return nil, fmt.Errorf("naive.SumAxes %v over %v: %w", in, axes, err)
	}
	acc := make([]float64, res.Len())
	ForEach(in, func(c []int) bool {
		flat := 0 // row-major position in out of c without the summed axes
		for k, i := range c {
			if !summed[k] {
				flat = flat*in[k] + i
			}
		}
		var ok bool
		if ok, err = a.IsValid(c...); err == nil && ok {
			var v float64
			v, err = array.At[float64](a, c...)
			acc[flat] += v
		}
		return err == nil
	})
	k := 0
	if err == nil {
		ForEach(out, func(c []int) bool {
			err = array.Set(res, acc[k], c...)
			k++
			return err == nil
		})
	}
	if err != nil {
		res.Release()
		return nil, fmt.Errorf("naive.SumAxes %v over %v: %w", in, axes, err)
	}
	return res, nil
}
