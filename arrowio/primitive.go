package arrowio

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/readlimit"
)

// FromArrow returns an Array over the values of an Arrow array, without
// copying them:
//
//   - a primitive array (every dtype of array.DTypes) of length n becomes a
//     1-D Array of shape [n];
//   - an arrow.fixed_shape_tensor column of N rows (or a plain
//     FixedSizeList<primitive>[k], read as tensors of shape [k]) becomes an
//     Array of shape [N, shape...]; see FixedShapeTensorType for the
//     permutation.
//
// The data buffer is shared and Retained (release the result with Release;
// arr stays the caller's). Arrow's offset is honoured. Two things are
// computed, in one pass each, into buffers from mem (memory.DefaultAllocator
// when nil): a validity bitmap with nulls becomes a byte mask (1 = valid), and
// a boolean bitmap becomes one byte per element. When a mask is made over a
// buffer with a non-zero offset, the Array's data is a memory.SliceBuffer of
// the Arrow buffer (still no copy), so that mask and data share one offset.
//
// Slots that Arrow marks null keep whatever bytes the producer left there
// (Arrow does not define them), where arrays made by package array hold zero.
//
// Malformed data (buffers shorter than the length and offset claim) returns an
// error wrapping ErrInvalid; other types return ErrUnsupported.
func FromArrow(mem memory.Allocator, arr arrow.Array) (*array.Array, error) {
	if isNil(arr) || isNilData(arr.Data()) {
		return nil, fmt.Errorf("arrowio.FromArrow: %w", array.ErrNil)
	}
	return fromData(mem, arr.Data())
}

// FromArrowData is FromArrow for an arrow.ArrayData.
func FromArrowData(mem memory.Allocator, d arrow.ArrayData) (*array.Array, error) {
	if isNilData(d) {
		return nil, fmt.Errorf("arrowio.FromArrowData: %w", array.ErrNil)
	}
	return fromData(mem, d)
}

func fromData(mem memory.Allocator, d arrow.ArrayData) (*array.Array, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	dt := d.DataType()
	if dt == nil {
		return nil, fmt.Errorf("arrowio.FromArrow: %w: nil data type", ErrInvalid)
	}
	switch t := dt.(type) {
	case arrow.ExtensionType:
		if t.ExtensionName() != ExtensionName {
			return nil, fmt.Errorf("arrowio.FromArrow: %w: extension type %q", ErrUnsupported, t.ExtensionName())
		}
		tt, err := asTensorType(t)
		if err != nil {
			return nil, fmt.Errorf("arrowio.FromArrow: %w", err)
		}
		return fromFixedSizeList(mem, d, tt)
	case *arrow.FixedSizeListType:
		tt, err := NewFixedShapeTensorType(t.Elem(), []int{int(t.Len())}, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("arrowio.FromArrow: %w", err)
		}
		return fromFixedSizeList(mem, d, tt)
	}
	adt, err := array.FromArrowType(dt)
	if err != nil || !arrow.TypeEqual(dt, adt.ArrowType()) {
		return nil, fmt.Errorf("arrowio.FromArrow: %w: Arrow type %s", ErrUnsupported, dt)
	}
	return fromPrimitive(mem, d, adt)
}

// fromPrimitive converts a primitive array of dtype dt.
func fromPrimitive(mem memory.Allocator, d arrow.ArrayData, dt array.DType) (*array.Array, error) {
	n, off := d.Len(), d.Offset()
	bufs := d.Buffers()
	if n < 0 || off < 0 || len(bufs) < 2 || off > math.MaxInt-n {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w: length %d, offset %d, %d buffers", dt, ErrInvalid, n, off, len(bufs))
	}
	mask, err := validityMask(mem, bufs[0], off, n)
	if err != nil {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w", dt, err)
	}
	if mask != nil {
		defer mask.Release()
	}
	data, base, err := valuesBuffer(mem, dt, bufs[1], off, n, mask != nil)
	if err != nil {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w", dt, err)
	}
	defer data.Release()
	return array.FromBufferIn(mem, dt, []int{n}, []int{1}, base, data, mask)
}

// validityMask turns bits off..off+n-1 of the bitmap bm into a byte mask of
// n bytes from mem, or returns nil when there is no null among them.
func validityMask(mem memory.Allocator, bm *memory.Buffer, off, n int) (*memory.Buffer, error) {
	// No bitmap means no nulls. The Arrow null count is not trusted: the
	// bitmap itself is counted (a popcount pass), so a mask is made only when
	// a bit in the range is clear.
	if bm == nil || bm.Len() == 0 || n == 0 {
		return nil, nil
	}
	if off > math.MaxInt-7-n || bm.Len() < readlimit.BitmapBytes(off+n) {
		return nil, fmt.Errorf("%w: validity bitmap of %d bytes for offset %d, length %d", ErrInvalid, bm.Len(), off, n)
	}
	if readlimit.CountZeroBits(bm.Bytes(), off, n) == 0 {
		return nil, nil
	}
	m := newBuffer(mem, n)
	unpackBits(m.Bytes(), bm.Bytes(), off)
	return m, nil
}

// valuesBuffer returns a buffer holding elements base..base+n-1 of dtype dt
// for the Arrow values buffer vb at element offset off, and base. It shares
// vb (Retained) except for bool, which is unpacked into a new buffer. With
// slice set and off != 0 it returns a memory.SliceBuffer of vb and base 0,
// so that a mask of n bytes lines up with it.
func valuesBuffer(mem memory.Allocator, dt array.DType, vb *memory.Buffer, off, n int, slice bool) (*memory.Buffer, int, error) {
	if dt == array.Bool {
		if n == 0 {
			return newBuffer(mem, 0), 0, nil
		}
		if vb == nil || off > math.MaxInt-7-n || vb.Len() < readlimit.BitmapBytes(off+n) {
			return nil, 0, fmt.Errorf("%w: boolean values buffer too short for offset %d, length %d", ErrInvalid, off, n)
		}
		b := newBuffer(mem, n)
		unpackBits(b.Bytes(), vb.Bytes(), off)
		return b, 0, nil
	}
	if n == 0 {
		return newBuffer(mem, 0), 0, nil
	}
	sz := dt.Size()
	if vb == nil || off+n > math.MaxInt/sz || vb.Len() < (off+n)*sz {
		have := 0
		if vb != nil {
			have = vb.Len()
		}
		return nil, 0, fmt.Errorf("%w: values buffer of %d bytes for %d %s elements at offset %d", ErrInvalid, have, n, dt, off)
	}
	if slice && off != 0 {
		return memory.SliceBuffer(vb, off*sz, n*sz), 0, nil
	}
	vb.Retain()
	return vb, off, nil
}

// ToArrow returns a 1-D Array as an Arrow primitive array, sharing a's data
// buffer (Retained; release the result with Release). A view that Arrow
// cannot describe (a stride other than 1: a broadcast, a reversed or strided
// slice) is materialized first with array.Copy, since Arrow arrays have no
// strides. A bool Array is bit-packed into a new buffer, and a validity mask
// becomes a validity bitmap (left out when no element is null); both come from
// mem (memory.DefaultAllocator when nil). N-D arrays travel as
// fixed_shape_tensor columns: see ToTensorColumn.
func ToArrow(mem memory.Allocator, a *array.Array) (arrow.Array, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("arrowio.ToArrow: %w", err)
	}
	if a.Rank() != 1 {
		return nil, fmt.Errorf("arrowio.ToArrow: %w: shape %v is not 1-D (use ToTensorColumn)", array.ErrShape, a.Shape())
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if !a.IsContiguous() {
		c, err := array.Copy(mem, a)
		if err != nil {
			return nil, fmt.Errorf("arrowio.ToArrow: %w", err)
		}
		defer c.Release()
		a = c
	}
	d := contiguousData(mem, a.DType(), a.DType().ArrowType(), a, a.Offset(), a.Len())
	defer d.Release()
	return arrowarray.MakeFromData(d), nil
}

// contiguousData builds Arrow data of type t over the n elements of a's
// buffers that start at element base (they must be a contiguous run).
func contiguousData(mem memory.Allocator, dt array.DType, t arrow.DataType, a *array.Array, base, n int) *arrowarray.Data {
	bitmap, nulls := packedValidity(mem, a, base, n)
	if bitmap != nil {
		defer bitmap.Release()
	}
	var vals *memory.Buffer
	off := base
	switch {
	case dt == array.Bool:
		vals = newBuffer(mem, readlimit.BitmapBytes(n))
		packBits(vals.Bytes(), a.Data().Bytes()[base:base+n])
		off = 0
	case bitmap != nil && base != 0:
		vals = memory.SliceBuffer(a.Data(), base*dt.Size(), n*dt.Size())
		off = 0
	default:
		vals = a.Data()
		vals.Retain()
	}
	defer vals.Release()
	return arrowarray.NewData(t, n, []*memory.Buffer{bitmap, vals}, nil, nulls, off)
}

// packedValidity packs mask bytes base..base+n-1 of a into a bitmap from mem
// (bit 0 = element base), or returns nil, 0 when none is null.
func packedValidity(mem memory.Allocator, a *array.Array, base, n int) (*memory.Buffer, int) {
	if !a.HasNulls() || n == 0 {
		return nil, 0
	}
	bm := newBuffer(mem, readlimit.BitmapBytes(n))
	nulls := packBits(bm.Bytes(), a.Validity().Bytes()[base:base+n])
	if nulls == 0 {
		bm.Release()
		return nil, 0
	}
	return bm, nulls
}

// newBuffer returns a buffer of n bytes from mem.
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	return b
}

// FromChunked converts every chunk of c with FromArrow, without copying. On
// error the arrays made so far are released.
func FromChunked(mem memory.Allocator, c *arrow.Chunked) ([]*array.Array, error) {
	if c == nil {
		return nil, fmt.Errorf("arrowio.FromChunked: %w", array.ErrNil)
	}
	out := make([]*array.Array, 0, len(c.Chunks()))
	for i, ch := range c.Chunks() {
		a, err := FromArrow(mem, ch)
		if err != nil {
			releaseAll(out)
			return nil, fmt.Errorf("arrowio.FromChunked: chunk %d: %w", i, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// ConcatChunked converts a chunked column into one Array whose axis 0 runs
// over the rows of every chunk in order. With exactly one chunk it is
// FromArrow (no copy); otherwise the values (and validity, if any chunk has
// nulls) are copied into new contiguous buffers from mem. Chunks of a
// fixed_shape_tensor column give [rows, shape...] (every chunk has the same
// type, so the same shape). Zero chunks of a primitive column give an empty
// [0] Array; zero chunks of a tensor column give an error (no chunk to take
// the layout from).
func ConcatChunked(mem memory.Allocator, c *arrow.Chunked) (*array.Array, error) {
	if c == nil {
		return nil, fmt.Errorf("arrowio.ConcatChunked: %w", array.ErrNil)
	}
	if len(c.Chunks()) == 1 {
		return FromArrow(mem, c.Chunk(0))
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if len(c.Chunks()) == 0 {
		dt, err := array.FromArrowType(c.DataType())
		if err != nil {
			return nil, fmt.Errorf("arrowio.ConcatChunked: no chunks: %w", err)
		}
		return array.New(mem, dt, 0)
	}
	parts, err := FromChunked(mem, c)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ConcatChunked: %w", err)
	}
	defer releaseAll(parts)
	return concatRows(mem, parts)
}

// concatRows stacks arrays of equal dtype and equal shape after axis 0 along
// axis 0 into new contiguous buffers.
func concatRows(mem memory.Allocator, parts []*array.Array) (*array.Array, error) {
	first := parts[0]
	dt := first.DType()
	inner := first.Shape()[1:]
	rows, nulls := 0, false
	for i, p := range parts {
		if p.DType() != dt || !equalInts(p.Shape()[1:], inner) {
			return nil, fmt.Errorf("arrowio.ConcatChunked: %w: chunk %d is %v %v, chunk 0 is %v %v", array.ErrShape, i, p.DType(), p.Shape(), dt, first.Shape())
		}
		rows += p.Dim(0)
		nulls = nulls || p.HasNulls()
	}
	shape := append([]int{rows}, inner...)
	out, err := array.Empty(mem, dt, shape...)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ConcatChunked: %w", err)
	}
	defer out.Release()
	var valid *memory.Buffer
	if nulls {
		valid = newBuffer(mem, out.Len())
		defer valid.Release()
	}
	sz := dt.Size()
	pos := 0 // in elements
	for _, p := range parts {
		if !p.IsContiguous() {
			c, err := array.Copy(mem, p)
			if err != nil {
				return nil, fmt.Errorf("arrowio.ConcatChunked: %w", err)
			}
			defer c.Release()
			p = c
		}
		n := p.Len()
		copy(out.Data().Bytes()[pos*sz:(pos+n)*sz], p.Data().Bytes()[p.Offset()*sz:(p.Offset()+n)*sz])
		if valid != nil {
			dst := valid.Bytes()[pos : pos+n]
			if p.HasNulls() {
				copy(dst, p.Validity().Bytes()[p.Offset():p.Offset()+n])
			} else {
				for i := range dst {
					dst[i] = 1
				}
			}
		}
		pos += n
	}
	return array.FromBufferIn(mem, dt, shape, out.Strides(), 0, out.Data(), valid)
}

func releaseAll(as []*array.Array) {
	for _, a := range as {
		a.Release()
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
