package array

import (
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// GoElement is the set of Go types FromSlice, FromNested and ToNested take:
// the Element types and Go's int and uint, which are stored as int64 and
// uint64 (they are never narrower).
type GoElement interface {
	Element | int | uint
}

// FromSlice returns a new contiguous array holding a copy of values, with the
// given shape (1-D of len(values) when shape is omitted). The element count of
// shape must equal len(values). []int gives an int64 array and []uint a
// uint64 one; every other element type gives its own dtype (DTypeOf).
func FromSlice[T GoElement](mem memory.Allocator, values []T, shape ...int) (*Array, error) {
	switch v := any(values).(type) {
	case []int:
		return fromSlice(mem, widen[int, int64](v), shape...)
	case []uint:
		return fromSlice(mem, widen[uint, uint64](v), shape...)
	case []bool:
		return fromSlice(mem, v, shape...)
	case []int8:
		return fromSlice(mem, v, shape...)
	case []int16:
		return fromSlice(mem, v, shape...)
	case []int32:
		return fromSlice(mem, v, shape...)
	case []int64:
		return fromSlice(mem, v, shape...)
	case []uint8:
		return fromSlice(mem, v, shape...)
	case []uint16:
		return fromSlice(mem, v, shape...)
	case []uint32:
		return fromSlice(mem, v, shape...)
	case []uint64:
		return fromSlice(mem, v, shape...)
	case []float16.Num:
		return fromSlice(mem, v, shape...)
	case []float32:
		return fromSlice(mem, v, shape...)
	default:
		return fromSlice(mem, any(values).([]float64), shape...)
	}
}

// widen converts int or uint values to their 64-bit types: a
// reinterpretation where int is 64 bits wide, a copy elsewhere.
func widen[S int | uint, D int64 | uint64](v []S) []D {
	if unsafe.Sizeof(S(0)) == unsafe.Sizeof(D(0)) {
		return unsafe.Slice((*D)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
	}
	out := make([]D, len(v))
	for i, x := range v {
		out[i] = D(x)
	}
	return out
}
