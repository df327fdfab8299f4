package gonumio

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/stride0/stride0/array"
)

// ErrLayout is returned when a conversion asked to share memory cannot: the
// array's dtype, mask or strides have no gonum equivalent.
var ErrLayout = errors.New("layout has no gonum equivalent")

// ToDense returns the 2-D array a as a *mat.Dense. shared reports whether the
// Dense uses a's memory (see the package documentation for when it does and
// for the lifetime rule that then applies) rather than a copy.
func ToDense(a *array.Array) (d *mat.Dense, shared bool, err error) {
	if err := check("ToDense", a, 2); err != nil {
		return nil, false, err
	}
	if d, ok := denseView(a); ok {
		return d, true, nil
	}
	d, err = CopyToDense(a)
	return d, false, err
}

// DenseView is ToDense that never copies: it returns an error wrapping
// ErrLayout when a's memory cannot be shared.
func DenseView(a *array.Array) (*mat.Dense, error) {
	if err := check("DenseView", a, 2); err != nil {
		return nil, err
	}
	if d, ok := denseView(a); ok {
		return d, nil
	}
	return nil, fmt.Errorf("gonumio.DenseView: %w: %v %v strides %v (mask %v)", ErrLayout, a.DType(), a.Shape(), a.Strides(), a.HasNulls())
}

// CopyToDense copies the 2-D array a, converted to float64 with nulls as
// NaN, into a new *mat.Dense that does not depend on a.
func CopyToDense(a *array.Array) (*mat.Dense, error) {
	if err := check("CopyToDense", a, 2); err != nil {
		return nil, err
	}
	if a.Len() == 0 {
		return &mat.Dense{}, nil
	}
	vals, err := floats(a)
	if err != nil {
		return nil, err
	}
	return mat.NewDense(a.Dim(0), a.Dim(1), vals), nil
}

// ToVecDense returns the 1-D array a as a *mat.VecDense, sharing a's memory
// when it is float64 with no mask and a positive stride (shared true), and
// a copy otherwise.
func ToVecDense(a *array.Array) (v *mat.VecDense, shared bool, err error) {
	if err := check("ToVecDense", a, 1); err != nil {
		return nil, false, err
	}
	if v, ok := vecView(a); ok {
		return v, true, nil
	}
	if a.Len() == 0 {
		return &mat.VecDense{}, false, nil
	}
	vals, err := floats(a)
	if err != nil {
		return nil, false, err
	}
	return mat.NewVecDense(len(vals), vals), false, nil
}

// FromDense returns an array of shape [rows cols] over d's storage (no
// copy): writes through either show in the other. The array's buffer keeps
// the storage alive; Release frees nothing. A nil or empty d gives shape
// [0 0].
func FromDense(d *mat.Dense) (*array.Array, error) {
	if d == nil || d.IsEmpty() {
		return array.New(nil, array.Float64, 0, 0)
	}
	m := d.RawMatrix()
	return over(m.Data, []int{m.Rows, m.Cols}, []int{m.Stride, 1})
}

// FromVecDense returns a 1-D array over v's storage (no copy), its stride
// v's increment. A nil or empty v gives shape [0].
func FromVecDense(v *mat.VecDense) (*array.Array, error) {
	if v == nil || v.IsEmpty() {
		return array.New(nil, array.Float64, 0)
	}
	r := v.RawVector()
	return over(r.Data, []int{r.N}, []int{r.Inc})
}

// FromMatrix returns m as a 2-D float64 array. A *mat.Dense, a *mat.VecDense
// (an n×1 column) and their transposes (mat.Transpose, mat.TransposeVec) are
// shared as FromDense shares; any other mat.Matrix is copied element by
// element (At) into a new array from mem (memory.DefaultAllocator when nil).
func FromMatrix(mem memory.Allocator, m mat.Matrix) (*array.Array, error) {
	switch t := m.(type) {
	case nil:
		return nil, fmt.Errorf("gonumio.FromMatrix: %w", array.ErrNil)
	case *mat.Dense:
		return FromDense(t)
	case *mat.VecDense:
		if t == nil || t.IsEmpty() {
			return array.New(nil, array.Float64, 0, 1)
		}
		r := t.RawVector()
		return over(r.Data, []int{r.N, 1}, []int{r.Inc, 1})
	case mat.Transpose:
		return transposed(mem, t.Matrix)
	case mat.TransposeVec:
		return transposed(mem, t.Vector)
	}
	r, c := m.Dims()
	out, err := array.Empty(mem, array.Float64, r, c)
	if err != nil {
		return nil, err
	}
	vals, err := array.Values[float64](out)
	if err != nil {
		out.Release()
		return nil, err
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			vals[i*c+j] = m.At(i, j)
		}
	}
	return out, nil
}

// transposed is FromMatrix of the transpose of m: a swapped-strides view
// when m is shared, else a copy of the transpose.
func transposed(mem memory.Allocator, m mat.Matrix) (*array.Array, error) {
	a, err := FromMatrix(mem, m)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	st := a.Strides()
	return a.View([]int{a.Dim(1), a.Dim(0)}, []int{st[1], st[0]}, a.Offset())
}

// over wraps gonum's Go slice in an array buffer (the GC keeps it alive).
func over(data []float64, shape, strides []int) (*array.Array, error) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*8)
	buf := memory.NewBufferBytes(b)
	defer buf.Release()
	return array.FromBuffer(array.Float64, shape, strides, 0, buf, nil)
}

// denseView is the zero-copy Dense over a, when a's layout allows it.
func denseView(a *array.Array) (*mat.Dense, bool) {
	if a.DType() != array.Float64 || a.HasNulls() || a.Len() == 0 {
		return nil, false
	}
	r, c := a.Dim(0), a.Dim(1)
	rs, cs := a.Stride(0), a.Stride(1)
	if c == 1 {
		cs = 1 // a column: its column stride is never used
	}
	if r == 1 {
		rs = c // a row: its row stride is never used
	}
	if cs != 1 || rs < c {
		return nil, false
	}
	data := elems(a)
	end := a.Offset() + (r-1)*rs + c
	d := &mat.Dense{}
	d.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: rs, Data: data[a.Offset():end:end]})
	return d, true
}

// vecView is the zero-copy VecDense over a, when a's layout allows it.
func vecView(a *array.Array) (*mat.VecDense, bool) {
	if a.DType() != array.Float64 || a.HasNulls() || a.Len() == 0 {
		return nil, false
	}
	n, inc := a.Dim(0), a.Stride(0)
	if n == 1 {
		inc = 1
	}
	if inc < 1 {
		return nil, false
	}
	data := elems(a)
	end := a.Offset() + (n-1)*inc + 1
	v := &mat.VecDense{}
	v.SetRawVector(blas64.Vector{N: n, Inc: inc, Data: data[a.Offset():end:end]})
	return v, true
}

// elems is a's whole float64 buffer.
func elems(a *array.Array) []float64 {
	v, _ := array.Values[float64](a) // the dtype was checked
	return v
}

// floats copies a's elements, row-major, as float64 with nulls as NaN.
func floats(a *array.Array) ([]float64, error) {
	vals, err := array.ToSlice[float64](a)
	if err != nil {
		return nil, err
	}
	if a.HasNulls() {
		valid, err := array.ValidSlice(a)
		if err != nil {
			return nil, err
		}
		for i, ok := range valid {
			if !ok {
				vals[i] = math.NaN()
			}
		}
	}
	return vals, nil
}

// check rejects nil and released arrays and a wrong rank.
func check(op string, a *array.Array, rank int) error {
	if err := array.Check(a); err != nil {
		return fmt.Errorf("gonumio.%s: %w", op, err)
	}
	if a.Rank() != rank {
		return fmt.Errorf("gonumio.%s: %w: array of shape %v is not %d-D", op, array.ErrShape, a.Shape(), rank)
	}
	return nil
}
