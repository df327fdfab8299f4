package array

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Copy returns a new contiguous (row-major) array with a's dtype, shape,
// values and validity, its buffers from mem (a's allocator when nil). It is
// how any view, a broadcast one included, is materialized.
func Copy(mem memory.Allocator, a *Array) (*Array, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.Copy: %w", err)
	}
	if mem == nil {
		mem = a.Allocator()
	}
	out, err := Empty(mem, a.dtype, a.shape...)
	if err != nil {
		return nil, err
	}
	copyElements(out, a)
	if a.valid != nil {
		v := memory.NewResizableBuffer(mem)
		v.Resize(out.Len())
		dst := v.Bytes()
		src := a.valid.Bytes()
		i := 0
		a.each(func(e int) { dst[i] = src[e]; i++ })
		out.setValid(v)
	}
	return out, nil
}

// copyElements copies a's elements in row-major order into the contiguous
// out, whose dtype and size match.
func copyElements(out, a *Array) {
	sz := a.dtype.Size()
	dst := out.data.Bytes()
	src := a.data.Bytes()
	i := 0
	switch sz {
	case 1:
		a.each(func(e int) { dst[i] = src[e]; i++ })
	case 2:
		d, s := typed[uint16](out.data), typed[uint16](a.data)
		a.each(func(e int) { d[i] = s[e]; i++ })
	case 4:
		d, s := typed[uint32](out.data), typed[uint32](a.data)
		a.each(func(e int) { d[i] = s[e]; i++ })
	case 8:
		d, s := typed[uint64](out.data), typed[uint64](a.data)
		a.each(func(e int) { d[i] = s[e]; i++ })
	default:
		a.each(func(e int) { copy(dst[i*sz:(i+1)*sz], src[e*sz:(e+1)*sz]); i++ })
	}
}
