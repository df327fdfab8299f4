package arrowio

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/arrow/tensor"

	"github.com/stride0/stride0/array"
)

// tensorDTypes are the dtypes arrow-go v15's tensor.New accepts.
func tensorDType(dt array.DType) bool {
	return dt != array.Bool && dt != array.Float16 && dt.Valid()
}

// ToTensor returns a as an arrow-go tensor (arrow/tensor), sharing its data
// buffer. Strides are converted from elements to bytes. A view whose strides
// are all positive (any transposition or slice) is shared as it is; a
// broadcast (stride 0 on an axis longer than 1) or reversed (negative stride)
// view is materialized with array.Copy first, from mem. Options: WithDimNames.
//
// arrow/tensor in arrow-go v15 has no bool or float16 tensors (ErrUnsupported)
// and no validity: an array with a null element returns ErrNulls.
// Release the tensor when done.
func ToTensor(mem memory.Allocator, a *array.Array, opts ...TensorOption) (tensor.Interface, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("arrowio.ToTensor: %w", err)
	}
	dt := a.DType()
	if !tensorDType(dt) {
		return nil, fmt.Errorf("arrowio.ToTensor: %w: arrow/tensor has no %v tensors", ErrUnsupported, dt)
	}
	var cfg tensorConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.dimNames != nil && len(cfg.dimNames) != a.Rank() {
		return nil, fmt.Errorf("arrowio.ToTensor: %w: %d dim names for shape %v", array.ErrShape, len(cfg.dimNames), a.Shape())
	}
	if a.HasNulls() {
		ok, err := array.ValidSlice(a)
		if err != nil {
			return nil, fmt.Errorf("arrowio.ToTensor: %w", err)
		}
		for i, v := range ok {
			if !v {
				return nil, fmt.Errorf("arrowio.ToTensor: %w: element %d of %v is null", ErrNulls, i, a.Shape())
			}
		}
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	shape, strides := a.Shape(), a.Strides()
	for i, s := range strides {
		if s < 0 || (s == 0 && shape[i] > 1) {
			c, err := array.Copy(mem, a)
			if err != nil {
				return nil, fmt.Errorf("arrowio.ToTensor: %w", err)
			}
			defer c.Release()
			a = c
			strides = a.Strides()
			break
		}
	}
	n := a.Len()
	buf, off, extent := a.Data(), a.Offset(), 0
	if n == 0 {
		buf, off = memory.NewBufferBytes(nil), 0
	} else {
		extent = 1
		for i, d := range shape {
			extent += (d - 1) * strides[i]
		}
	}
	sz := int64(dt.Size())
	shape64 := make([]int64, len(shape))
	strides64 := make([]int64, len(shape))
	for i := range shape {
		shape64[i], strides64[i] = int64(shape[i]), int64(strides[i])*sz
	}
	data := arrowarray.NewData(dt.ArrowType(), extent, []*memory.Buffer{nil, buf}, nil, 0, off)
	defer data.Release()
	return tensor.New(data, shape64, strides64, cfg.dimNames), nil
}

// FromTensor returns an Array over an arrow-go tensor's data without copying:
// the buffer is shared and Retained, strides are converted from bytes to
// elements, and the tensor's data offset is honoured (arrow/tensor reads its
// values from Data().Offset() for Data().Len() elements). Strides that are
// not a multiple of the element size, or that reach outside those elements,
// return an error; so do dtypes without an Array counterpart (date32,
// date64). Dim names are dropped (Array has none).
func FromTensor(t tensor.Interface) (*array.Array, error) {
	if t == nil {
		return nil, fmt.Errorf("arrowio.FromTensor: %w", array.ErrNil)
	}
	dt, err := array.FromArrowType(t.DataType())
	if err != nil || !arrow.TypeEqual(t.DataType(), dt.ArrowType()) {
		return nil, fmt.Errorf("arrowio.FromTensor: %w: tensor of %v", ErrUnsupported, t.DataType())
	}
	d := t.Data()
	if d == nil || len(d.Buffers()) < 2 || d.Offset() < 0 || d.Len() < 0 {
		return nil, fmt.Errorf("arrowio.FromTensor: %w: tensor data without a values buffer", ErrInvalid)
	}
	shape64, strides64 := t.Shape(), t.Strides()
	shape := make([]int, len(shape64))
	for i, v := range shape64 {
		if v < 0 || v > math.MaxInt32 {
			return nil, fmt.Errorf("arrowio.FromTensor: %w: shape %v", array.ErrShape, shape64)
		}
		shape[i] = int(v)
	}
	var strides []int
	switch {
	case len(strides64) == len(shape):
		sz := int64(dt.Size())
		strides = make([]int, len(shape))
		for i, s := range strides64 {
			if s%sz != 0 {
				return nil, fmt.Errorf("arrowio.FromTensor: %w: stride %d bytes is not a multiple of the %v size", ErrUnsupported, s, dt)
			}
			strides[i] = int(s / sz)
		}
	case len(strides64) == 0:
		strides = array.ContiguousStrides(shape)
	default:
		return nil, fmt.Errorf("arrowio.FromTensor: %w: %d strides for shape %v", ErrInvalid, len(strides64), shape64)
	}
	buf, off := d.Buffers()[1], d.Offset()
	empty := false
	for _, v := range shape {
		empty = empty || v == 0
	}
	if buf == nil || empty {
		if !empty {
			return nil, fmt.Errorf("arrowio.FromTensor: %w: no values buffer", ErrInvalid)
		}
		buf, off = memory.NewBufferBytes(nil), 0
	}
	// The tensor's elements are values off .. off+Len()-1; every element the
	// strides reach must lie among them.
	if !empty {
		lo, hi := 0, 0
		for i, dim := range shape {
			s := strides[i]
			if dim == 1 || s == 0 {
				continue
			}
			if s > math.MaxInt/(dim-1) || s < -math.MaxInt/(dim-1) {
				return nil, fmt.Errorf("arrowio.FromTensor: %w: stride %d overflows", ErrInvalid, strides64[i])
			}
			span := (dim - 1) * s
			if span > 0 && hi > math.MaxInt-span || span < 0 && lo < math.MinInt-span {
				return nil, fmt.Errorf("arrowio.FromTensor: %w: extent overflows", ErrInvalid)
			}
			if span > 0 {
				hi += span
			} else {
				lo += span
			}
		}
		if lo < 0 || hi >= d.Len() {
			return nil, fmt.Errorf("arrowio.FromTensor: %w: shape %v strides %v reach elements %d..%d of %d", ErrInvalid, shape64, strides64, lo, hi, d.Len())
		}
	}
	a, err := array.FromBuffer(dt, shape, strides, off, buf, nil)
	if err != nil {
		return nil, fmt.Errorf("arrowio.FromTensor: %w: %w", ErrInvalid, err)
	}
	return a, nil
}
