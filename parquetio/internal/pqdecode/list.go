package pqdecode

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// ListSpec describes a list column (Arrow list<T> of a fixed-width T): a
// top-level group, required or optional, over a repeated group over the
// leaf, required or optional (the three-level LIST layout), so the maximum
// repetition level is 1.
type ListSpec struct {
	// Physical is the leaf's physical type; Elem the Arrow type of the
	// elements (Supported, fixed width); Type the list type.
	Physical int32
	Elem     arrow.DataType
	Type     arrow.DataType
	// NullList says the list is optional, NullElem that its elements are.
	NullList, NullElem bool
	// Rows is the lists read in all; Values the level entries of all the
	// chunks (the footer's num_values), which bound the elements.
	Rows, Values int64
	MaxBuffer    int64
}

// ListColumn decodes the chunks of a list column into one array.
type ListColumn struct {
	d        *Decoder
	mem      memory.Allocator
	s        ListSpec
	w        int
	bufs     []*memory.Buffer // list validity, offsets, element validity, values
	valid    []byte
	offs     []int32
	evalid   []byte
	vals     []byte
	row      int // lists decoded
	elems    int // elements decoded
	nulls    int
	enulls   int
	maxDef   int
	rep, def []uint32
}

// BeginList allocates the buffers of a list column (s.Values elements at
// most).
func (d *Decoder) BeginList(s ListSpec, mem memory.Allocator) (col *ListColumn, err error) {
	if !Supported(s.Physical, s.Elem) || s.Physical == pqscan.TypeBoolean || s.Physical == pqscan.TypeBytes ||
		s.Rows < 0 || s.Values < 0 || s.Rows > math.MaxInt32 || s.Values > math.MaxInt32 {
		return nil, ErrFallback
	}
	col = &ListColumn{d: d, mem: mem, s: s, w: 4}
	if s.Physical == pqscan.TypeInt64 || s.Physical == pqscan.TypeDouble {
		col.w = 8
	}
	defer func() {
		if err != nil {
			col.Abort()
			col = nil
		}
	}()
	defer guard(&err) // (runs first)
	alloc := func(n int) []byte {
		buf := memory.NewResizableBuffer(mem)
		col.bufs = append(col.bufs, buf)
		buf.Resize(n)
		return buf.Bytes()
	}
	rows, vals := int(s.Rows), int(s.Values)
	col.valid = alloc(int(bitutil.BytesForBits(int64(rows))))
	clear(col.valid)
	col.offs = arrow.Int32Traits.CastFromBytes(alloc((rows + 1) * 4))
	col.offs[0] = 0
	col.evalid = alloc(int(bitutil.BytesForBits(int64(vals))))
	clear(col.evalid)
	col.vals = alloc(vals * col.w)
	col.maxDef = 1
	if s.NullList {
		col.maxDef++
	}
	if s.NullElem {
		col.maxDef++
	}
	return col, nil
}

// Abort releases the column's buffers.
func (col *ListColumn) Abort() {
	for _, b := range col.bufs {
		b.Release()
	}
	col.bufs = nil
}

// Chunk decodes the next chunk, of rows lists and values level entries,
// compressed with codec.
func (col *ListColumn) Chunk(b []byte, rows, values int64, codec int32) (err error) {
	defer guard(&err)
	if rows < 0 || rows > int64(len(col.offs)-1-col.row) {
		return fmt.Errorf("%w: a chunk of %d lists with %d left", ErrInvalid, rows, len(col.offs)-1-col.row)
	}
	d := col.d
	end := col.row + int(rows)
	start := col.row
	pos := 0
	dbits := bits.Len(uint(col.maxDef))
	if values < 0 || values > int64(len(col.evalid))*8 {
		return fmt.Errorf("%w: a chunk of %d level entries", ErrInvalid, values)
	}
	left := int(values)
	for page := 0; left > 0; page++ {
		if pos >= len(b) {
			return fmt.Errorf("%w: the pages end %d level entries short", ErrInvalid, left)
		}
		h, hl, err := pqscan.ParsePageHeader(b[pos:])
		if err != nil {
			return fmt.Errorf("%w: page %d: %w", ErrInvalid, page, err)
		}
		body := pos + hl
		if h.Compressed < 0 || int(h.Compressed) > len(b)-body || h.Uncompressed < 0 || int64(h.Uncompressed) > col.s.MaxBuffer {
			return fmt.Errorf("%w: page %d: compressed_page_size %d, uncompressed_page_size %d, with %d bytes left", ErrInvalid, page, h.Compressed, h.Uncompressed, len(b)-body)
		}
		raw := b[body : body+int(h.Compressed)]
		pos = body + int(h.Compressed)
		var repB, defB, vals []byte
		switch h.Type {
		case pqscan.PageData:
			if h.DefEncoding != pqscan.EncRLE || h.RepEncoding != pqscan.EncRLE {
				return ErrFallback
			}
			p, err := d.inflate(raw, codec, int(h.Uncompressed))
			if err != nil {
				return fmt.Errorf("page %d: %w", page, err)
			}
			for _, lv := range []*[]byte{&repB, &defB} {
				if len(p) < 4 {
					return fmt.Errorf("%w: page %d: no room for a level length", ErrInvalid, page)
				}
				l := binary.LittleEndian.Uint32(p)
				if uint64(l) > uint64(len(p)-4) {
					return fmt.Errorf("%w: page %d: levels of %d bytes in %d", ErrInvalid, page, l, len(p)-4)
				}
				*lv, p = p[4:4+l], p[4+l:]
			}
			vals = p
		case pqscan.PageDataV2:
			if h.DefLen < 0 || h.RepLen < 0 || int64(h.DefLen)+int64(h.RepLen) > int64(len(raw)) || h.DefLen+h.RepLen > h.Uncompressed {
				return fmt.Errorf("%w: page %d: level lengths %d and %d in a page of %d bytes", ErrInvalid, page, h.DefLen, h.RepLen, len(raw))
			}
			repB, defB = raw[:h.RepLen], raw[h.RepLen:h.RepLen+h.DefLen]
			c := codec
			if !h.Compressed2 {
				c = pqscan.CodecNone
			}
			if vals, err = d.inflate(raw[h.RepLen+h.DefLen:], c, int(h.Uncompressed-h.DefLen-h.RepLen)); err != nil {
				return fmt.Errorf("page %d: %w", page, err)
			}
		case pqscan.PageDict:
			return ErrFallback
		default:
			return ErrFallback
		}
		if h.Encoding != pqscan.EncPlain {
			return ErrFallback
		}
		nv := int(h.NumValues)
		if nv < 0 || nv > left {
			return fmt.Errorf("%w: page %d: %d level entries with %d of the chunk's left", ErrInvalid, page, nv, left)
		}
		left -= nv
		if cap(d.idx) < 2*nv {
			d.idx = make([]uint32, 2*nv)
		}
		col.rep, col.def = d.idx[:nv], d.idx[nv:2*nv]
		if err := rleInts(repB, 1, col.rep); err != nil {
			return fmt.Errorf("page %d: repetition levels: %w", page, err)
		}
		if err := rleInts(defB, dbits, col.def); err != nil {
			return fmt.Errorf("page %d: definition levels: %w", page, err)
		}
		if err := col.entries(vals, start, end); err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
	}
	if col.row != end {
		return fmt.Errorf("%w: the chunk holds %d of its %d lists", ErrInvalid, col.row-start, end-start)
	}
	return nil
}

// entries walks a page's level entries (col.rep, col.def) with the values
// vals of its present elements.
func (col *ListColumn) entries(vals []byte, start, end int) error {
	w := col.w
	maxDef := uint32(col.maxDef)
	listDef := uint32(0) // a list is present from this level
	if col.s.NullList {
		listDef = 1
	}
	present := 0
	for _, v := range col.def {
		if v > maxDef {
			return fmt.Errorf("%w: definition level %d over %d", ErrInvalid, v, maxDef)
		}
		if v == maxDef {
			present++
		}
	}
	if present*w > len(vals) {
		return fmt.Errorf("%w: %d values of %d bytes in %d bytes", ErrInvalid, present, w, len(vals))
	}
	if present == len(col.def) && maxDef > listDef {
		return col.denseEntries(vals, start, end)
	}
	j := 0
	for e, r := range col.rep {
		v := col.def[e]
		if r == 0 {
			if col.row >= end {
				return fmt.Errorf("%w: more lists than the row group's %d", ErrInvalid, end-start)
			}
			col.row++
			col.offs[col.row] = int32(col.elems)
			if v >= listDef {
				bitutil.SetBit(col.valid, col.row-1)
			} else {
				col.nulls++
			}
		} else if col.row == start {
			return fmt.Errorf("%w: a chunk starting inside a list", ErrInvalid)
		}
		if v > listDef { // an element slot
			if col.elems*w+w > len(col.vals) {
				return fmt.Errorf("%w: more elements than the chunks' %d level entries", ErrInvalid, len(col.vals)/w)
			}
			o := col.vals[col.elems*w : col.elems*w+w]
			if v == maxDef {
				copy(o, vals[j*w:j*w+w])
				j++
				bitutil.SetBit(col.evalid, col.elems)
			} else {
				clear(o)
				col.enulls++
			}
			col.elems++
			col.offs[col.row] = int32(col.elems)
		}
	}
	return nil
}

// denseEntries is entries for a page whose every level entry is a present
// element (no null or empty list, no null element: a tensor column's
// pages): the values are copied at once and their validity set as one
// run; only the list boundaries (repetition level 0) are walked.
func (col *ListColumn) denseEntries(vals []byte, start, end int) error {
	w, n := col.w, len(col.rep)
	if col.elems*w+n*w > len(col.vals) {
		return fmt.Errorf("%w: more elements than the chunks' %d level entries", ErrInvalid, len(col.vals)/w)
	}
	e0, row0 := col.elems, col.row
	for e, r := range col.rep {
		if r != 0 {
			continue
		}
		if col.row >= end {
			return fmt.Errorf("%w: more lists than the row group's %d", ErrInvalid, end-start)
		}
		col.offs[col.row] = int32(e0 + e) // the list before ends here
		col.row++
	}
	if n > 0 && col.rep[0] != 0 && row0 == start {
		return fmt.Errorf("%w: a chunk starting inside a list", ErrInvalid)
	}
	copy(col.vals[e0*w:(e0+n)*w], vals[:n*w])
	bitutil.SetBitsTo(col.evalid, int64(e0), int64(n), true)
	bitutil.SetBitsTo(col.valid, int64(row0), int64(col.row-row0), true)
	col.elems += n
	col.offs[col.row] = int32(col.elems)
	return nil
}

// Finish returns the list array.
func (col *ListColumn) Finish() (out arrow.ArrayData, err error) {
	defer col.Abort()
	defer guard(&err)
	if col.row != len(col.offs)-1 {
		return nil, fmt.Errorf("%w: %d of the column's %d lists decoded", ErrInvalid, col.row, len(col.offs)-1)
	}
	var ev *memory.Buffer
	if col.enulls > 0 {
		ev = col.bufs[2]
	}
	child := arrowarray.NewData(col.s.Elem, col.elems, []*memory.Buffer{ev, col.bufs[3]}, nil, col.enulls, 0)
	defer child.Release()
	var lv *memory.Buffer
	if col.nulls > 0 {
		lv = col.bufs[0]
	}
	return arrowarray.NewData(col.s.Type, len(col.offs)-1, []*memory.Buffer{lv, col.bufs[1]}, []arrow.ArrayData{child}, col.nulls, 0), nil
}
