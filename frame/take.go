package frame

import (
	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// takeStrings gathers rows idx (-1: null) of a utf8 or binary column in
// two passes: the byte count, then the copy into buffers of that size.
// (arrow-go v15's take kernel grows its value buffer a row at a time, which
// copies the buffer over and over: 2.7 s for 200,000 short strings.)
func takeStrings(mem memory.Allocator, c arrow.Array, idx []int64) arrow.Array {
	type strs interface {
		arrow.Array
		ValueOffsets() []int32
		ValueBytes() []byte
	}
	s := c.(strs)
	offs, data := s.ValueOffsets(), s.ValueBytes()
	base := offs[0] // ValueBytes starts at the first row's offset
	total := 0
	nulls := 0
	for _, i := range idx {
		if i < 0 || c.IsNull(int(i)) {
			nulls++
			continue
		}
		total += int(offs[i+1] - offs[i])
	}
	n := len(idx)
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	vb := valid.Bytes()
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize((n + 1) * 4)
	out := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(total)
	db := dataBuf.Bytes()
	at := int32(0)
	for k, i := range idx {
		out[k] = at
		if i < 0 || c.IsNull(int(i)) {
			bitutil.ClearBit(vb, k)
			continue
		}
		bitutil.SetBit(vb, k)
		at += int32(copy(db[at:], data[offs[i]-base:offs[i+1]-base]))
	}
	out[n] = at
	d := arrowarray.NewData(c.DataType(), n, []*memory.Buffer{valid, offBuf, dataBuf}, nil, nulls, 0)
	valid.Release()
	offBuf.Release()
	dataBuf.Release()
	defer d.Release()
	return arrowarray.MakeFromData(d)
}

// takeFixed gathers rows idx (-1: null) of a column of 1-, 2-, 4- or
// 8-byte values (ints, floats, dates, times, ...) with a typed loop; ok is
// false for any other layout.
func takeFixed(mem memory.Allocator, c arrow.Array, idx []int64) (arrow.Array, bool) {
	d := c.Data()
	fw, isFixed := c.DataType().(arrow.FixedWidthDataType)
	if !isFixed || c.DataType().ID() == arrow.DICTIONARY || c.DataType().ID() == arrow.EXTENSION ||
		len(d.Buffers()) != 2 || len(d.Children()) != 0 {
		return nil, false
	}
	width := fw.BitWidth() / 8
	if fw.BitWidth()%8 != 0 || (width != 1 && width != 2 && width != 4 && width != 8) {
		return nil, false
	}
	n, off := len(idx), d.Offset()
	valBuf := memory.NewResizableBuffer(mem)
	valBuf.Resize(n * width)
	dst := valBuf.Bytes()
	var src []byte
	if b := d.Buffers()[1]; b != nil {
		src = b.Bytes()
	}
	// a null row's value is whatever is there; an index of -1 reads row 0
	// (or writes 0 when the column is empty)
	switch width {
	case 1:
		gatherFixed(dst, src, idx, off)
	case 2:
		gatherFixed(arrow.Uint16Traits.CastFromBytes(dst), arrow.Uint16Traits.CastFromBytes(src), idx, off)
	case 4:
		gatherFixed(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src), idx, off)
	case 8:
		gatherFixed(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src), idx, off)
	}
	var valid *memory.Buffer
	nulls := 0
	var vb []byte
	if b := d.Buffers()[0]; b != nil && c.NullN() > 0 { // (d.NullN() may be -1: unknown)
		vb = b.Bytes()
	}
	minus := false
	for _, i := range idx {
		if i < 0 {
			minus = true
			break
		}
	}
	if vb != nil || minus {
		var out []byte
		valid, out = newBitmap(mem, n, false)
		for k, i := range idx {
			if i >= 0 && (vb == nil || bitutil.BitIsSet(vb, off+int(i))) {
				bitutil.SetBit(out, k)
			} else {
				nulls++
			}
		}
	}
	nd := arrowarray.NewData(c.DataType(), n, []*memory.Buffer{valid, valBuf}, nil, nulls, 0)
	valBuf.Release()
	if valid != nil {
		valid.Release()
	}
	defer nd.Release()
	return arrowarray.MakeFromData(nd), true
}

func gatherFixed[T uint8 | uint16 | uint32 | uint64](dst, src []T, idx []int64, off int) {
	if len(src) <= off {
		for k := range dst {
			dst[k] = 0
		}
		return
	}
	src = src[off:]
	for k, i := range idx {
		if i < 0 {
			i = 0
		}
		dst[k] = src[i]
	}
}
