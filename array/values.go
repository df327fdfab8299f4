package array

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// fromSlice is FromSlice for the Element types.
func fromSlice[T Element](mem memory.Allocator, values []T, shape ...int) (*Array, error) {
	if shape == nil {
		shape = []int{len(values)}
	}
	n, err := numel(shape)
	if err != nil {
		return nil, fmt.Errorf("array.FromSlice %v: %w", shape, err)
	}
	if n != len(values) {
		return nil, fmt.Errorf("array.FromSlice: %w: shape %v holds %d elements, got %d values", ErrShape, shape, n, len(values))
	}
	a, err := Empty(mem, DTypeOf[T](), shape...)
	if err != nil {
		return nil, err
	}
	copy(typed[T](a.data), values)
	return a, nil
}

// FromSliceValid is FromSlice with a validity mask: valid[i] false makes
// element i null (its value is stored as zero, whatever values[i] holds). A
// nil valid gives an array without a mask; otherwise len(valid) must equal
// len(values), and the result carries a mask even if every element is valid.
func FromSliceValid[T Element](mem memory.Allocator, values []T, valid []bool, shape ...int) (*Array, error) {
	if valid != nil && len(valid) != len(values) {
		return nil, fmt.Errorf("array.FromSliceValid: %w: %d validity flags for %d values", ErrShape, len(valid), len(values))
	}
	a, err := FromSlice(mem, values, shape...)
	if err != nil || valid == nil {
		return a, err
	}
	m := memory.NewResizableBuffer(a.Allocator())
	m.Resize(len(valid))
	mb := m.Bytes()
	data := typed[T](a.data)
	var zero T
	for i, ok := range valid {
		mb[i] = 0
		if ok {
			mb[i] = 1
		} else {
			data[i] = zero
		}
	}
	a.setValid(m)
	return a, nil
}

// Wrap returns an array over values without copying them: writes through the
// array change values and the other way round. The buffer belongs to the Go
// garbage collector, so Release frees nothing. The element count of shape
// (default: 1-D) must equal len(values).
func Wrap[T Element](values []T, shape ...int) (*Array, error) {
	if shape == nil {
		shape = []int{len(values)}
	}
	n, err := numel(shape)
	if err != nil {
		return nil, fmt.Errorf("array.Wrap %v: %w", shape, err)
	}
	if n != len(values) {
		return nil, fmt.Errorf("array.Wrap: %w: shape %v holds %d elements, got %d values", ErrShape, shape, n, len(values))
	}
	var b []byte
	if len(values) > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), len(values)*DTypeOf[T]().Size())
	}
	a := newHeader(DTypeOf[T](), memory.NewBufferBytes(b), nil, DefaultAllocator)
	a.setLayout(shape, nil)
	return a, nil
}

// Full returns a new contiguous array of the given shape with every element
// equal to v. With no shape it returns a scalar (rank 0).
func Full[T Element](mem memory.Allocator, v T, shape ...int) (*Array, error) {
	a, err := Empty(mem, DTypeOf[T](), shape...)
	if err != nil {
		return nil, err
	}
	p := typed[T](a.data)
	for i := range p {
		p[i] = v
	}
	return a, nil
}

// Scalar returns a rank-0 array holding v.
func Scalar[T Element](mem memory.Allocator, v T) (*Array, error) { return Full(mem, v) }

// Arange returns the 1-D array start, start+step, ... (stopping before stop),
// converted to dt, like numpy.arange. step must not be 0.
func Arange(mem memory.Allocator, dt DType, start, stop, step float64) (*Array, error) {
	if step == 0 || step != step || start != start || stop != stop {
		return nil, fmt.Errorf("array.Arange(%v, %v, %v): %w: step must be a non-zero number", start, stop, step, ErrShape)
	}
	cnt := (stop - start) / step
	n := 0
	if cnt > 0 {
		if cnt > 1<<50 {
			return nil, fmt.Errorf("array.Arange(%v, %v, %v): %w: too many elements", start, stop, step, ErrShape)
		}
		n = int(cnt)
		if float64(n) < cnt {
			n++
		}
	}
	a, err := Empty(mem, dt, n)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		a.store(i, fromFloat(start+float64(i)*step))
	}
	return a, nil
}

// Values returns the whole data buffer as a []T, without copying: element
// (i0, i1, ...) of a is at index a.Offset() + Σ ik*a.Strides()[k]. T must be
// the Go type of a's dtype.
//
// What the slice may outlive (with a PageAllocator, the default; an
// allocator of the caller's own gets buffers back through Free either way):
// the buffer is Go memory, so the slice never faults. If the program drops
// a (and its views) without Release, the memory stays the slice's for as
// long as the slice is reachable: it is never handed to another array
// before. After the last explicit Release of
// the buffer, the slice must not be used: the allocator may hand the memory
// to the next array of a similar size. SetMemDebug(true) makes such a use
// visible (released buffers read as 0xFF bytes and are never reused).
func Values[T Element](a *Array) ([]T, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.Values: %w", err)
	}
	if DTypeOf[T]() != a.dtype {
		return nil, fmt.Errorf("array.Values: %w: array is %v, asked for %v", ErrDType, a.dtype, DTypeOf[T]())
	}
	return typed[T](a.data), nil
}

// ToSlice copies a's elements, in row-major order, into a new []T. Elements
// are converted to T when a's dtype differs (as a Go conversion would; bool
// is 0 or 1). Null elements read as zero.
func ToSlice[T Element](a *Array) ([]T, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.ToSlice: %w", err)
	}
	out := make([]T, a.Len())
	if len(out) == 0 {
		return out, nil
	}
	if DTypeOf[T]() == a.dtype && a.IsContiguous() {
		copy(out, typed[T](a.data)[a.offset:])
		return out, nil
	}
	i := 0
	if DTypeOf[T]() == a.dtype {
		src := typed[T](a.data)
		a.each(func(e int) { out[i] = src[e]; i++ })
		return out, nil
	}
	a.each(func(e int) {
		out[i] = convert[T](a.load(e))
		i++
	})
	return out, nil
}

// ValidSlice returns, in row-major order, whether each element is valid.
func ValidSlice(a *Array) ([]bool, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.ValidSlice: %w", err)
	}
	out := make([]bool, a.Len())
	i := 0
	mask := a.maskBytes()
	a.each(func(e int) {
		out[i] = mask == nil || mask[e] != 0
		i++
	})
	return out, nil
}

// At returns the element at idx, converted to T as ToSlice does (a null
// element reads as the zero it stores). It returns an error wrapping ErrNil
// or ErrReleased for a nil or released array, and one wrapping ErrIndex
// when idx does not have one index per axis or an index is outside
// [0, dim); the message names the index and the shape. A rank-0 array
// takes no index.
func At[T Element](a *Array, idx ...int) (T, error) {
	e, err := a.index(idx)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("array.At: %w", err)
	}
	if DTypeOf[T]() == a.dtype {
		return typed[T](a.data)[e], nil // same type: bit-exact, NaN payloads included
	}
	return convert[T](a.load(e)), nil
}

// IsValid reports whether the element at idx is valid (not null). It
// returns the errors of At for a nil or released array or a bad index.
func (a *Array) IsValid(idx ...int) (bool, error) {
	e, err := a.index(idx)
	if err != nil {
		return false, fmt.Errorf("array.IsValid: %w", err)
	}
	m := a.maskBytes()
	return m == nil || m[e] != 0, nil
}

// Set stores v, converted to a's dtype, at idx and marks it valid. It
// returns the errors of At for a nil or released array or a bad index, and
// ErrReadOnly for a broadcast (stride-0) view; when it fails it writes
// nothing.
func Set[T Element](a *Array, v T, idx ...int) error {
	e, err := a.index(idx)
	if err != nil {
		return fmt.Errorf("array.Set: %w", err)
	}
	if a.ReadOnly() {
		return fmt.Errorf("array.Set at %v of %#v: %w", slices.Clone(idx), a, ErrReadOnly)
	}
	if DTypeOf[T]() == a.dtype {
		typed[T](a.data)[e] = v
	} else {
		a.store(e, toValue(v))
	}
	if m := a.maskBytes(); m != nil {
		m[e] = 1
	}
	return nil
}

// SetNull marks the element at idx null and zeroes it, adding a validity mask
// (all valid) to a first if it has none. The mask is added to this header
// only: views made earlier do not see it, views made later share it. It
// returns the errors of At for a nil or released array or a bad index, and
// ErrReadOnly for a broadcast view; when it fails it writes nothing (and
// adds no mask).
func (a *Array) SetNull(idx ...int) error {
	e, err := a.index(idx)
	if err != nil {
		return fmt.Errorf("array.SetNull: %w", err)
	}
	if a.ReadOnly() {
		return fmt.Errorf("array.SetNull at %v of %#v: %w", slices.Clone(idx), a, ErrReadOnly)
	}
	if err := a.EnsureValidity(); err != nil {
		return err
	}
	a.valid.Bytes()[e] = 0
	a.store(e, value{})
	return nil
}

// index converts a multi-index to an element index of the buffer. It
// returns an error wrapping ErrNil or ErrReleased for a nil or released
// array, and one wrapping ErrIndex for an index of the wrong rank or out
// of range; the callers prefix their name.
//
// The errors print a copy of idx (indexError), so that idx does not escape
// and the variadic index of At and Set stays on the caller's stack.
func (a *Array) index(idx []int) (int, error) {
	if err := Check(a); err != nil {
		return 0, indexError(idx, nil, err)
	}
	if len(idx) != len(a.shape) {
		return 0, indexError(idx, a.shape, nil)
	}
	e := a.offset
	for k, i := range idx {
		if i < 0 || i >= a.shape[k] {
			return 0, indexError(idx, a.shape, nil)
		}
		e += i * a.strides[k]
	}
	return e, nil
}

// indexError is index's error for idx: into a nil or released array (err
// set), of the wrong length, or out of range for shape.
func indexError(idx, shape []int, err error) error {
	c := slices.Clone(idx)
	switch {
	case err != nil:
		return fmt.Errorf("index %v into %w", c, err)
	case len(c) != len(shape):
		return fmt.Errorf("index %v of length %d for shape %v of rank %d: %w", c, len(c), slices.Clone(shape), len(shape), ErrIndex)
	}
	return fmt.Errorf("index %v out of range for shape %v: %w", c, slices.Clone(shape), ErrIndex)
}

// each calls f with the buffer element index of every element of a, in
// row-major order.
func (a *Array) each(f func(e int)) {
	n := a.Len()
	if n == 0 {
		return
	}
	r := len(a.shape)
	if r == 0 {
		f(a.offset)
		return
	}
	idx := make([]int, r)
	e := a.offset
	last := r - 1
	for {
		for i := 0; i < a.shape[last]; i++ {
			f(e + i*a.strides[last])
		}
		k := last - 1
		for ; k >= 0; k-- {
			idx[k]++
			e += a.strides[k]
			if idx[k] < a.shape[k] {
				break
			}
			e -= idx[k] * a.strides[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

func (a *Array) maskBytes() []byte {
	if a.valid == nil {
		return nil
	}
	return a.valid.Bytes()
}

// typed views a buffer's bytes as a []T.
func typed[T Element](b *memory.Buffer) []T {
	var z T
	sz := int(unsafe.Sizeof(z))
	bs := b.Bytes()
	if len(bs) < sz {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&bs[0])), len(bs)/sz)
}
