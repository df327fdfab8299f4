package expr

import (
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// finishCast returns the cast kernel that converts a reduction's
// accumulator (contiguous, of type at) straight into its result when the
// result is a new array or a contiguous output: one call over the
// accumulator's elements ends the reduction, instead of a separate
// elementwise pass. It returns nil when the accumulator is the result
// (direct) or the output needs the general path (strided).
func finishCast(r *rnode, at array.DType, dst *array.Array, direct bool) compute.UnaryFunc {
	if direct || at == r.dtype || (dst != nil && !dst.IsContiguous()) {
		return nil
	}
	k, err := compute.LookupCast(compute.Type(at), compute.Type(r.dtype))
	if err != nil {
		return nil
	}
	return k
}

// finishInto converts the accumulator acc into the reduction's result:
// dst, or a new array when dst is nil. The result has no nulls.
func (ev *evaluation) finishInto(cast compute.UnaryFunc, acc *array.Array, r *rnode, dst *array.Array) (*array.Array, error) {
	out := dst
	if out == nil {
		var err error
		if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	n := acc.Len()
	if n > 0 {
		src := unsafe.Add(acc.DataPointer(), acc.Offset()*acc.DType().Size())
		cast(unsafe.Add(out.DataPointer(), out.Offset()*r.dtype.Size()), src, n)
	}
	if out.HasNulls() {
		m := unsafe.Slice((*byte)(unsafe.Add(out.ValidityPointer(), out.Offset())), out.Len())
		for i := range m {
			m[i] = 1
		}
	}
	return out, nil
}
