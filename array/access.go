package array

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Stride returns the stride of axis i in elements, or 0 if there is no such
// axis. Unlike Strides it does not allocate.
func (a *Array) Stride(i int) int {
	if a == nil || i < 0 || i >= len(a.strides) {
		return 0
	}
	return a.strides[i]
}

// DataPointer returns the address of buffer element 0 (not of element
// (0, 0, ...), which is Offset() elements further), or nil for an empty
// buffer. It is for kernels that walk the buffer with the array's strides;
// the array must stay live while the pointer is used.
func (a *Array) DataPointer() unsafe.Pointer {
	if a == nil || a.data == nil {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(a.data.Bytes()))
}

// ValidityPointer is DataPointer for the validity mask (nil without one).
func (a *Array) ValidityPointer() unsafe.Pointer {
	if a == nil || a.valid == nil {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(a.valid.Bytes()))
}

// EnsureValidity gives a a validity mask, all valid, if it has none, so
// that an evaluation can write nulls into it. Like SetNull it changes this
// header only.
func (a *Array) EnsureValidity() error {
	if err := Check(a); err != nil {
		return fmt.Errorf("array.EnsureValidity: %w", err)
	}
	if a.valid != nil {
		return nil
	}
	n := a.data.Len() / a.dtype.Size()
	v := memory.NewResizableBuffer(a.Allocator())
	v.Resize(n)
	b := v.Bytes()
	for i := range b {
		b[i] = 1
	}
	a.setValid(v)
	return nil
}

// Reshaped returns a new header over a contiguous a's buffers with another
// shape of the same element count (a must be contiguous).
func (a *Array) Reshaped(shape ...int) (*Array, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.Reshaped: %w", err)
	}
	n, err := numel(shape)
	if err != nil {
		return nil, fmt.Errorf("array.Reshaped %v: %w", shape, err)
	}
	if n != a.Len() || !a.IsContiguous() {
		return nil, fmt.Errorf("array.Reshaped: %w: %v (contiguous %v) to %v", ErrShape, a.shape, a.IsContiguous(), shape)
	}
	return a.View(shape, ContiguousStrides(shape), a.offset)
}
