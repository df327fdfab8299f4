package naive

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
)

// ForEach calls f with every coordinate of shape in row-major order (the
// last axis fastest): once with an empty coordinate for a scalar, never when
// a dim is 0 or negative. f must not keep or modify c; it returns false to
// stop early.
func ForEach(shape []int, f func(c []int) bool) {
	for _, d := range shape {
		if d <= 0 {
			return
		}
	}
	c := make([]int, len(shape))
	for {
		if !f(c) {
			return
		}
		k := len(shape) - 1
		for ; k >= 0; k-- {
			c[k]++
			if c[k] < shape[k] {
				break
			}
			c[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// count is the element count of shape, or an error for a negative dim or an
// overflow.
func count(shape []int) (int, error) {
	n := 1
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("dim %d is negative (%d): %w", i, d, array.ErrShape)
		}
	}
	for _, d := range shape {
		if d == 0 {
			return 0, nil
		}
	}
	for _, d := range shape {
		if n > int(^uint(0)>>1)/d {
			return 0, fmt.Errorf("element count of %v overflows int: %w", shape, array.ErrShape)
		}
		n *= d
	}
	return n, nil
}

// Gather returns the array of the given shape whose element at coordinate C
// is a's element at src(C), validity included: out[C] = a[src(C)]. It is the
// one primitive the other functions of the package are written with. src
// must not keep or modify C; a coordinate out of a's range is an error.
func Gather(mem memory.Allocator, a *array.Array, shape []int, src func(c []int) []int) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.Gather: %w", err)
	}
	if src == nil {
		return nil, fmt.Errorf("naive.Gather: nil source function: %w", array.ErrNil)
	}
	switch a.DType() {
	case array.Bool:
		return gather[bool](mem, a, shape, src)
	case array.Int8:
		return gather[int8](mem, a, shape, src)
	case array.Int16:
		return gather[int16](mem, a, shape, src)
	case array.Int32:
		return gather[int32](mem, a, shape, src)
	case array.Int64:
		return gather[int64](mem, a, shape, src)
	case array.Uint8:
		return gather[uint8](mem, a, shape, src)
	case array.Uint16:
		return gather[uint16](mem, a, shape, src)
	case array.Uint32:
		return gather[uint32](mem, a, shape, src)
	case array.Uint64:
		return gather[uint64](mem, a, shape, src)
	case array.Float16:
		return gather[float16.Num](mem, a, shape, src)
	case array.Float32:
		return gather[float32](mem, a, shape, src)
	case array.Float64:
		return gather[float64](mem, a, shape, src)
	}
	return nil, fmt.Errorf("naive.Gather: %w: %v", array.ErrDType, a.DType())
}

func gather[T array.Element](mem memory.Allocator, a *array.Array, shape []int, src func(c []int) []int) (*array.Array, error) {
	n, err := count(shape)
	if err != nil {
		return nil, fmt.Errorf("naive.Gather to %v: %w", shape, err)
	}
	inShape := a.Shape()
	vals := make([]T, 0, n)
	var valid []bool
	if a.HasNulls() {
		valid = make([]bool, 0, n)
	}
	ForEach(shape, func(c []int) bool {
		p := src(c)
		if !inside(p, inShape) {
			err = fmt.Errorf("naive.Gather to %v: output %v reads %v, outside %v: %w", shape, c, p, inShape, array.ErrBounds)
			return false
		}
		v, e := array.At[T](a, p...)
		vals = append(vals, v)
		if valid != nil && e == nil {
			var ok bool
			ok, e = a.IsValid(p...)
			valid = append(valid, ok)
		}
		if e != nil {
			err = fmt.Errorf("naive.Gather to %v: output %v: %w", shape, c, e)
		}
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return array.FromSliceValid(mem, vals, valid, shape...)
}

// inside reports whether p is a coordinate of shape.
func inside(p, shape []int) bool {
	if len(p) != len(shape) {
		return false
	}
	for k, i := range p {
		if i < 0 || i >= shape[k] {
			return false
		}
	}
	return true
}

// Broadcast materializes the broadcast of a to the shape out through the axis
// map m, from the definition output[C] = arg[p(C)]: input axis i reads the
// output coordinate C[m[i]], or 0 when the input dim is 1 (stretched) or m[i]
// is -1 (a dropped size-1 axis). Output axes that no input axis maps to are
// the new, replicated ones. m must have one entry per input axis, name
// distinct output axes in range, and map every input dim to an equal output
// dim or be a dim of 1; errors wrap broadcast.ErrAxes,
// broadcast.ErrIncompatible or broadcast.ErrShape.
func Broadcast(mem memory.Allocator, a *array.Array, out []int, m broadcast.AxisMap) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.Broadcast: %w", err)
	}
	in := a.Shape()
	fail := func(sentinel error, format string, args ...any) error {
		return fmt.Errorf("naive.Broadcast %v to %v through %v: %s: %w", in, out, m, fmt.Sprintf(format, args...), sentinel)
	}
	for o, d := range out {
		if d < 0 {
			return nil, fail(broadcast.ErrShape, "output dim %d is negative", o)
		}
	}
	if len(m) != len(in) {
		return nil, fail(broadcast.ErrAxes, "%d map entries for %d input axes", len(m), len(in))
	}
	used := make([]bool, len(out))
	for i, o := range m {
		switch {
		case o == -1 && in[i] == 1:
			continue
		case o == -1:
			return nil, fail(broadcast.ErrAxes, "input axis %d of size %d is dropped", i, in[i])
		case o < 0 || o >= len(out):
			return nil, fail(broadcast.ErrAxes, "input axis %d maps to %d, outside the output", i, o)
		case used[o]:
			return nil, fail(broadcast.ErrAxes, "output axis %d is mapped twice", o)
		case in[i] != 1 && in[i] != out[o]:
			return nil, fail(broadcast.ErrIncompatible, "input dim %d is %d, output dim %d is %d", i, in[i], o, out[o])
		}
		used[o] = true
	}
	p := make([]int, len(in))
	return Gather(mem, a, out, func(c []int) []int {
		for i, o := range m {
			if o == -1 || in[i] == 1 {
				p[i] = 0
			} else {
				p[i] = c[o]
			}
		}
		return p
	})
}

// Transpose materializes out[C] = a[D] where D[perm[k]] = C[k]: output axis k
// is input axis perm[k]. perm must be a permutation of 0 .. rank-1.
func Transpose(mem memory.Allocator, a *array.Array, perm []int) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.Transpose: %w", err)
	}
	in := a.Shape()
	if len(perm) != len(in) {
		return nil, fmt.Errorf("naive.Transpose %v by %v: wrong length: %w", in, perm, array.ErrShape)
	}
	seen := make([]bool, len(in))
	out := make([]int, len(in))
	for k, ax := range perm {
		if ax < 0 || ax >= len(in) || seen[ax] {
			return nil, fmt.Errorf("naive.Transpose %v by %v: not a permutation: %w", in, perm, array.ErrShape)
		}
		seen[ax] = true
		out[k] = in[ax]
	}
	p := make([]int, len(in))
	return Gather(mem, a, out, func(c []int) []int {
		for k, ax := range perm {
			p[ax] = c[k]
		}
		return p
	})
}

// Reshape materializes a with another shape of the same element count: the
// k-th element in row-major order of the result is the k-th element in
// row-major order of a. No dim may be -1 (nothing is inferred here).
func Reshape(mem memory.Allocator, a *array.Array, shape []int) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.Reshape: %w", err)
	}
	in := a.Shape()
	n, err := count(shape)
	if err != nil {
		return nil, fmt.Errorf("naive.Reshape %v to %v: %w", in, shape, err)
	}
	if n != a.Len() {
		return nil, fmt.Errorf("naive.Reshape %v to %v: %d elements, want %d: %w", in, shape, n, a.Len(), array.ErrShape)
	}
	p := make([]int, len(in))
	return Gather(mem, a, shape, func(c []int) []int {
		flat := 0 // row-major position of c in shape
		for k, i := range c {
			flat = flat*shape[k] + i
		}
		for k := len(in) - 1; k >= 0; k-- { // the same position in a's shape
			p[k] = flat % in[k]
			flat /= in[k]
		}
		return p
	})
}

// Take materializes out[C] = a[idx[0][C[0]], idx[1][C[1]], ...]: one list of
// input indices per axis, each in range, the output dim k being len(idx[k]).
// It expresses any slice (any start, stop and step, repeated or reversed
// indices) without the slicing arithmetic under test.
func Take(mem memory.Allocator, a *array.Array, idx [][]int) (*array.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("naive.Take: %w", err)
	}
	in := a.Shape()
	if len(idx) != len(in) {
		return nil, fmt.Errorf("naive.Take from %v: %d index lists: %w", in, len(idx), array.ErrShape)
	}
	out := make([]int, len(in))
	for k, list := range idx {
		for _, i := range list {
			if i < 0 || i >= in[k] {
				return nil, fmt.Errorf("naive.Take from %v: index %d on axis %d: %w", in, i, k, array.ErrIndex)
			}
		}
		out[k] = len(list)
	}
	p := make([]int, len(in))
	return Gather(mem, a, out, func(c []int) []int {
		for k, i := range c {
			p[k] = idx[k][i]
		}
		return p
	})
}
