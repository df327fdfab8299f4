package frame

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	arrowcompute "github.com/apache/arrow/go/v15/arrow/compute"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/compute"
)

// A masked gather copies the rows a filter keeps (a mask's set bits) into
// columns sized for them. Each column type it knows has one layout:
// values of 1, 2, 4 or 8 bytes (numbers, dates, times, timestamps,
// dictionary indices), bits (bool), or int32/int64 offsets and bytes
// (utf8, binary and their large forms). A column is filled by gathers at
// disjoint ranges of its rows, which may run at once (the pieces of a
// table, each at its own rows: filterCollect).

type gatherKind uint8

const (
	kindNone  gatherKind = iota
	kindFixed            // values of width bytes
	kindBool             // bits
	kindStr32            // int32 offsets and bytes
	kindStr64            // int64 offsets and bytes
)

// gatherKindOf returns how a column of type dt is gathered (kindNone:
// not by a masked gather) and its values' width in bytes.
func gatherKindOf(dt arrow.DataType) (gatherKind, int) {
	switch dt.ID() {
	case arrow.BOOL:
		return kindBool, 0
	case arrow.STRING, arrow.BINARY:
		return kindStr32, 4
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return kindStr64, 8
	case arrow.DICTIONARY:
		if k, w := gatherKindOf(dt.(*arrow.DictionaryType).IndexType); k == kindFixed {
			return k, w
		}
		return kindNone, 0
	case arrow.EXTENSION, arrow.NULL:
		return kindNone, 0
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		return kindNone, 0
	}
	switch w := fw.BitWidth() / 8; w {
	case 1, 2, 4, 8:
		return kindFixed, w
	}
	return kindNone, 0
}

// maskOut is one output column of masked gathers: newMaskOut sizes it,
// gather fills rows of it, finish makes the array.
type maskOut struct {
	typ   arrow.DataType
	kind  gatherKind
	width int
	rows  int
	valid *memory.Buffer // nil: no row is null
	vals  *memory.Buffer // values, bits (bool) or offsets
	data  *memory.Buffer // the strings' bytes
	dict  arrow.Array    // a dictionary column's dictionary (the same in every gather's column)
	ones  atomic.Int64   // valid rows written
}

// newMaskOut returns a column for rows kept rows of columns like c (its
// type, and its dictionary if it has one); nulls asks for a validity
// bitmap (some input row is null), bytes is the strings' total length.
func newMaskOut(mem memory.Allocator, c arrow.Array, rows int, nulls bool, bytes int) *maskOut {
	dt := c.DataType()
	o := &maskOut{typ: dt, rows: rows}
	if d, ok := c.(*arrowarray.Dictionary); ok {
		o.dict = d.Dictionary()
	}
	o.kind, o.width = gatherKindOf(dt)
	if nulls {
		o.valid = zeroWords(mem, maskWords(rows))
	}
	switch o.kind {
	case kindFixed:
		o.vals = memory.NewResizableBuffer(mem)
		o.vals.Resize(rows * o.width)
	case kindBool:
		o.vals = zeroWords(mem, maskWords(rows))
	case kindStr32, kindStr64:
		o.vals = memory.NewResizableBuffer(mem)
		o.vals.Resize((rows + 1) * o.width)
		o.data = memory.NewResizableBuffer(mem)
		o.data.Resize(bytes)
	}
	return o
}

// zeroWords returns a buffer of words zero words.
func zeroWords(mem memory.Allocator, words int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(words * 8)
	clear(b.Bytes())
	return b
}

// release gives back the buffers (after an error; finish hands them on).
func (o *maskOut) release() {
	for _, b := range []*memory.Buffer{o.valid, o.vals, o.data} {
		if b != nil {
			b.Release()
		}
	}
	o.valid, o.vals, o.data = nil, nil, nil
}

// gather writes the rows of c at mask's set bits (kept of them) to rows
// pos, pos+1, ... of o, their strings' bytes (if any, bytes of them:
// maskedBytes) from byte at on. Gathers at disjoint rows may run at once.
func (o *maskOut) gather(c arrow.Array, mask []uint64, kept, pos, at, bytes int) {
	if kept == 0 {
		return
	}
	d := c.Data()
	off := d.Offset()
	if o.valid != nil {
		vw := words(o.valid)
		var ones int
		if c.NullN() > 0 {
			ones = gatherBits(vw, pos, kept, d.Buffers()[0].Bytes(), off, mask)
		} else {
			ones = setBits(vw, pos, kept)
		}
		o.ones.Add(int64(ones))
	}
	switch o.kind {
	case kindFixed:
		src := bufBytes(d.Buffers()[1])
		dst := o.vals.Bytes()[pos*o.width : (pos+kept)*o.width]
		if len(src) < (off+c.Len())*o.width { // (no values: every row null)
			clear(dst)
			break
		}
		switch o.width {
		case 1:
			gatherMasked(dst, src[off:], mask)
		case 2:
			gatherMasked(arrow.Uint16Traits.CastFromBytes(dst), arrow.Uint16Traits.CastFromBytes(src)[off:], mask)
		case 4:
			gatherMasked(arrow.Uint32Traits.CastFromBytes(dst), arrow.Uint32Traits.CastFromBytes(src)[off:], mask)
		case 8:
			gatherMasked(arrow.Uint64Traits.CastFromBytes(dst), arrow.Uint64Traits.CastFromBytes(src)[off:], mask)
		}
	case kindBool:
		gatherBits(words(o.vals), pos, kept, bufBytes(d.Buffers()[1]), off, mask)
	case kindStr32:
		offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[off : off+d.Len()+1]
		gatherStrings(arrow.Int32Traits.CastFromBytes(o.vals.Bytes())[pos:pos+kept], o.data.Bytes()[:at+bytes], int32(at), offs, bufBytes(d.Buffers()[2]), mask)
	case kindStr64:
		offs := arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[off : off+d.Len()+1]
		gatherStrings(arrow.Int64Traits.CastFromBytes(o.vals.Bytes())[pos:pos+kept], o.data.Bytes()[:at+bytes], int64(at), offs, bufBytes(d.Buffers()[2]), mask)
	}
}

func bufBytes(b *memory.Buffer) []byte {
	if b == nil {
		return nil
	}
	return b.Bytes()
}

// words is a buffer of whole words as []uint64.
func words(b *memory.Buffer) []uint64 {
	return arrow.Uint64Traits.CastFromBytes(b.Bytes())
}

// finish returns the column as an array, after every gather.
func (o *maskOut) finish() arrow.Array {
	bufs := []*memory.Buffer{o.valid, o.vals}
	switch o.kind {
	case kindStr32:
		arrow.Int32Traits.CastFromBytes(o.vals.Bytes())[o.rows] = int32(o.data.Len())
		bufs = append(bufs, o.data)
	case kindStr64:
		arrow.Int64Traits.CastFromBytes(o.vals.Bytes())[o.rows] = int64(o.data.Len())
		bufs = append(bufs, o.data)
	}
	nulls := 0
	if o.valid != nil {
		nulls = o.rows - int(o.ones.Load())
	}
	var d *arrowarray.Data
	if o.dict != nil {
		d = arrowarray.NewDataWithDictionary(o.typ, o.rows, bufs, nulls, 0, o.dict.Data().(*arrowarray.Data))
	} else {
		d = arrowarray.NewData(o.typ, o.rows, bufs, nil, nulls, 0)
	}
	o.release()
	defer d.Release()
	return arrowarray.MakeFromData(d)
}

// gatherMasked copies src's values at mask's set bits to dst, in order
// (dst has as many values as mask has bits set): compute.CompressMask,
// AVX2 for 4- and 8-byte values.
func gatherMasked[T uint8 | uint16 | uint32 | uint64](dst, src []T, mask []uint64) {
	compute.CompressMask(dst, src, mask)
}

// gatherBits writes the bits of the bitmap bm from bit off on at mask's
// set bits (kept of them) to bits pos, pos+1, ... of dst, which are zero,
// and returns how many of them are set. The words wholly inside those
// bits are stored, the first and the last (which gathers of the rows
// around may share) OR'ed atomically.
func gatherBits(dst []uint64, pos, kept int, bm []byte, off int, mask []uint64) int {
	bw := bitWriter{dst: dst, wi: pos / 64, nb: uint(pos % 64), first: pos / 64, last: (pos + kept - 1) / 64}
	for w, m := range mask {
		if m == 0 {
			continue
		}
		v := bitmapWord(bm, off+w*64)
		if m == ^uint64(0) {
			bw.word(v)
			continue
		}
		for m != 0 {
			bw.bit((v >> uint(bits.TrailingZeros64(m))) & 1)
			m &= m - 1
		}
	}
	bw.end()
	return bw.ones
}

// setBits sets bits pos ... pos+n-1 of dst (which are zero) and returns n.
func setBits(dst []uint64, pos, n int) int {
	bw := bitWriter{dst: dst, wi: pos / 64, nb: uint(pos % 64), first: pos / 64, last: (pos + n - 1) / 64}
	for ; n >= 64; n -= 64 {
		bw.word(^uint64(0))
	}
	for ; n > 0; n-- {
		bw.bit(1)
	}
	bw.end()
	return bw.ones
}

// bitWriter appends bits to dst from word wi, bit nb on.
type bitWriter struct {
	dst         []uint64
	wi          int
	nb          uint   // bits of cur taken
	cur         uint64 // the word being filled
	first, last int    // the words others may share
	ones        int
}

func (b *bitWriter) bit(v uint64) {
	b.cur |= v << b.nb
	if b.nb++; b.nb == 64 {
		b.flush()
		b.cur, b.nb = 0, 0
	}
}

// word appends 64 bits.
func (b *bitWriter) word(v uint64) {
	b.cur |= v << b.nb
	b.flush()
	b.cur = v >> (64 - b.nb) // (0 when nb is 0)
}

func (b *bitWriter) flush() {
	b.ones += bits.OnesCount64(b.cur)
	if b.wi == b.first || b.wi == b.last {
		atomic.OrUint64(&b.dst[b.wi], b.cur)
	} else {
		b.dst[b.wi] = b.cur
	}
	b.wi++
}

func (b *bitWriter) end() {
	if b.cur != 0 {
		b.flush()
	}
}

// maskedBytes is the total length of the strings at mask's set bits
// (offs: the rows' offsets, one more than rows).
func maskedBytes[O int32 | int64](offs []O, mask []uint64) int {
	total := 0
	for w, m := range mask {
		base := w * 64
		if m == ^uint64(0) {
			total += int(offs[base+64] - offs[base])
			continue
		}
		for m != 0 {
			i := base + bits.TrailingZeros64(m)
			total += int(offs[i+1] - offs[i])
			m &= m - 1
		}
	}
	return total
}

// gatherStrings writes the strings at mask's set bits: their offsets
// (from at on) to dOffs, one per kept row, and their bytes to dData from
// at on, up to its end. A string is copied 16 bytes at a time while the
// copy stays inside both buffers (the next string's copy overwrites what
// spills past its end).
func gatherStrings[O int32 | int64](dOffs []O, dData []byte, at O, offs []O, data []byte, mask []uint64) {
	k := 0
	end := len(dData)
	for w, m := range mask {
		base := w * 64
		for m != 0 {
			i := base + bits.TrailingZeros64(m)
			m &= m - 1
			s, e := int(offs[i]), int(offs[i+1])
			dOffs[k] = at
			k++
			n := e - s
			if n <= 16 && int(at)+16 <= end && s+16 <= len(data) {
				*(*[16]byte)(unsafe.Pointer(&dData[at])) = *(*[16]byte)(unsafe.Pointer(&data[s]))
			} else {
				copy(dData[int(at):int(at)+n], data[s:e])
			}
			at += O(n)
		}
	}
}

// takeMasked returns the rows of rec at mask's set bits (kept of them):
// columns a masked gather knows are gathered, the others taken by
// takeColumn.
func takeMasked(mem memory.Allocator, rec arrow.Record, mask []uint64, kept int) (arrow.Record, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var idx []int64
	var ix arrow.Array
	defer func() {
		if ix != nil {
			ix.Release()
		}
	}()
	for i := range cols {
		c := rec.Column(i)
		kind, _ := gatherKindOf(c.DataType())
		if kind != kindNone {
			bytes := 0
			switch kind {
			case kindStr32:
				bytes = maskedBytes(c.(interface{ ValueOffsets() []int32 }).ValueOffsets(), mask)
			case kindStr64:
				bytes = maskedBytes(c.(interface{ ValueOffsets() []int64 }).ValueOffsets(), mask)
			}
			o := newMaskOut(mem, c, kept, c.NullN() > 0, bytes)
			o.gather(c, mask, kept, 0, 0, bytes)
			cols[i] = o.finish()
			continue
		}
		if idx == nil {
			idx = maskIndices(mask, kept)
		}
		t, err := takeColumn(arrowcompute.WithAllocator(context.Background(), mem), mem, c, idx, func() arrow.Array {
			if ix == nil {
				ib := arrowarray.NewInt64Builder(mem)
				defer ib.Release()
				ib.AppendValues(idx, nil)
				ix = ib.NewArray()
			}
			return ix
		})
		if err != nil {
			return nil, fmt.Errorf("frame: taking rows of column %q: %w", rec.ColumnName(i), err)
		}
		cols[i] = t
	}
	return arrowarray.NewRecord(rec.Schema(), cols, int64(kept)), nil
}

// maskIndices returns the positions of mask's set bits (kept of them).
func maskIndices(mask []uint64, kept int) []int64 {
	idx := make([]int64, 0, kept)
	for w, m := range mask {
		for m != 0 {
			idx = append(idx, int64(w*64+bits.TrailingZeros64(m)))
			m &= m - 1
		}
	}
	return idx
}
