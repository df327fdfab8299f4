package naive

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow/go/v15/arrow/float16"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/half"
)

// Equal reports how got differs from want, or nil when they are the same:
// same dtype, same shape, and at every coordinate the same validity and the
// same stored value, compared bit for bit (so NaN equals a NaN with the same
// bits, and -0 differs from +0). Null slots are compared too, since they hold
// zero. Whether a validity mask is present does not matter, only what it
// says: an array without a mask equals one whose mask marks every element
// valid. The error names the first differing coordinate and counts the rest.
func Equal(want, got *array.Array) error {
	return compare("naive.Equal", want, got, func(w, g element) bool { return w.bits == g.bits })
}

// Close is Equal with a tolerance for floating-point dtypes: values match
// when |got-want| <= atol + rtol*|want|, or both are NaN, or both are the
// same infinity. Integer and bool values must be equal.
func Close(want, got *array.Array, rtol, atol float64) error {
	return compare("naive.Close", want, got, func(w, g element) bool {
		if !w.float {
			return w.bits == g.bits
		}
		switch {
		case math.IsNaN(w.f) || math.IsNaN(g.f):
			return math.IsNaN(w.f) && math.IsNaN(g.f)
		case math.IsInf(w.f, 0) || math.IsInf(g.f, 0):
			return w.f == g.f
		}
		return math.Abs(g.f-w.f) <= atol+rtol*math.Abs(w.f)
	})
}

// element is one element read for comparison: its raw bits (sign-extended
// for signed integers) and, for floats, its value.
type element struct {
	bits  uint64
	f     float64
	float bool
}

func (e element) String() string {
	if e.float {
		return fmt.Sprintf("%v (bits %#x)", e.f, e.bits)
	}
	return fmt.Sprint(e.bits)
}

// read returns the element of a at c.
func read(a *array.Array, c []int) (element, error) {
	switch a.DType() {
	case array.Bool:
		b, err := array.At[bool](a, c...)
		if b {
			return element{bits: 1}, err
		}
		return element{}, err
	case array.Int8, array.Int16, array.Int32, array.Int64:
		i, err := array.At[int64](a, c...)
		return element{bits: uint64(i)}, err
	case array.Uint8, array.Uint16, array.Uint32, array.Uint64:
		u, err := array.At[uint64](a, c...)
		return element{bits: u}, err
	case array.Float16:
		h, err := array.At[float16.Num](a, c...)
		return element{bits: uint64(h.Uint16()), f: half.ToFloat64(h.Uint16()), float: true}, err
	case array.Float32:
		f, err := array.At[float32](a, c...)
		return element{bits: uint64(math.Float32bits(f)), f: float64(f), float: true}, err
	case array.Float64:
		f, err := array.At[float64](a, c...)
		return element{bits: math.Float64bits(f), f: f, float: true}, err
	}
	return element{}, nil
}

// readValid reads the validity and the element of want and got at c.
func readValid(want, got *array.Array, c []int) (wv, gv bool, w, g element, err error) {
	if wv, err = want.IsValid(c...); err != nil {
		return
	}
	if gv, err = got.IsValid(c...); err != nil {
		return
	}
	if w, err = read(want, c); err != nil {
		return
	}
	g, err = read(got, c)
	return
}

func compare(name string, want, got *array.Array, same func(w, g element) bool) error {
	if err := array.Check(want); err != nil {
		return fmt.Errorf("%s: want: %w", name, err)
	}
	if err := array.Check(got); err != nil {
		return fmt.Errorf("%s: got: %w", name, err)
	}
	if want.DType() != got.DType() {
		return fmt.Errorf("%s: dtype: got %v; want %v", name, got.DType(), want.DType())
	}
	if !slices.Equal(want.Shape(), got.Shape()) {
		return fmt.Errorf("%s: shape: got %v; want %v", name, got.Shape(), want.Shape())
	}
	var first string
	diffs := 0
	var err error
	ForEach(want.Shape(), func(c []int) bool {
		wv, gv, w, g, e := readValid(want, got, c)
		if e != nil {
			err = e
			return false
		}
		if wv != gv {
			if diffs == 0 {
				first = fmt.Sprintf("validity at %v: got %v; want %v", c, gv, wv)
			}
			diffs++
			return true
		}
		if !same(w, g) {
			if diffs == 0 {
				first = fmt.Sprintf("value at %v: got %v; want %v", c, g, w)
			}
			diffs++
		}
		return true
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	switch diffs {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s %v %v: %s", name, want.DType(), want.Shape(), first)
	}
	return fmt.Errorf("%s %v %v: %s (and %d more differences)", name, want.DType(), want.Shape(), first, diffs-1)
}
