package arrowio

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
)

// This file checks a record batch message against its schema before
// arrow-go decodes it: walking the fields as arrow-go's loader does, every
// buffer it will consume must be long enough for the length its field node
// claims (values, offsets, views, validity when there are nulls, type ids),
// and every child long enough for its parent (fixed-size lists, structs,
// sparse unions). arrow-go v15's array constructors slice buffers by those
// lengths and panic when a buffer is shorter; a constructor that panics
// half-way through a dictionary column keeps a reference to the reader's
// dictionary that nothing ever releases (a leak the readers cannot repair).
// Buffer contents (offsets, indices) are checked after decoding, by
// ValidateRecord.

// batchLayout is what a RecordBatch message says about its buffers.
type batchLayout struct {
	nodes    [][2]int64 // length, null count
	bufs     [][2]int64 // offset, length in the body
	variadic []int64
	codec    bool // buffers are compressed (8-byte uncompressed size prefix)
}

// readBatchLayout extracts the layout of a RecordBatch message; ok is false
// for other messages and for metadata versions before V5 (checked by
// arrow-go alone). meta must have passed checkMessage.
func readBatchLayout(meta []byte) (l batchLayout, ok bool, err error) {
	c := newFBCheck(meta)
	root, err := c.u32(0)
	if err != nil {
		return l, false, err
	}
	m, err := c.table(root)
	if err != nil {
		return l, false, err
	}
	version, typ := 0, 0
	if p, _ := c.field(m, 0, 2); p != 0 {
		version = int(int16(binary.LittleEndian.Uint16(meta[p:])))
	}
	if p, _ := c.field(m, 1, 1); p != 0 {
		typ = int(meta[p])
	}
	if typ != 3 || version < 4 { // RecordBatch, MetadataVersion V5
		return l, false, nil
	}
	h, err := c.ref(m, 2)
	if h == 0 || err != nil {
		return l, false, err
	}
	r, err := c.table(h)
	if err != nil {
		return l, false, err
	}
	start, n, err := c.vector(r, 1, 16)
	if err != nil {
		return l, false, err
	}
	for i := 0; i < n; i++ {
		p := start + 16*i
		l.nodes = append(l.nodes, [2]int64{int64(binary.LittleEndian.Uint64(meta[p:])), int64(binary.LittleEndian.Uint64(meta[p+8:]))})
	}
	start, n, err = c.vector(r, 2, 16)
	if err != nil {
		return l, false, err
	}
	for i := 0; i < n; i++ {
		p := start + 16*i
		l.bufs = append(l.bufs, [2]int64{int64(binary.LittleEndian.Uint64(meta[p:])), int64(binary.LittleEndian.Uint64(meta[p+8:]))})
	}
	if cp, err := c.ref(r, 3); err != nil {
		return l, false, err
	} else if cp != 0 {
		l.codec = true
	}
	start, n, err = c.vector(r, 4, 8)
	if err != nil {
		return l, false, err
	}
	for i := 0; i < n; i++ {
		l.variadic = append(l.variadic, int64(binary.LittleEndian.Uint64(meta[start+8*i:])))
	}
	return l, true, nil
}

// layoutWalk consumes nodes and buffers in arrow-go's loader order.
type layoutWalk struct {
	l          batchLayout
	size       func(off, n int64) (int64, error) // decoded size of a buffer
	maxRows    int64                             // < 0: no limit
	ni, bi, vi int
}

func (w *layoutWalk) node() (n, nulls int64, err error) {
	if w.ni >= len(w.l.nodes) {
		return 0, 0, fmt.Errorf("%w: more fields than the %d field nodes", errFB, len(w.l.nodes))
	}
	nd := w.l.nodes[w.ni]
	w.ni++
	if nd[0] < 0 || nd[1] < 0 || nd[1] > nd[0] {
		return 0, 0, fmt.Errorf("%w: field node %d: length %d, %d nulls", errFB, w.ni-1, nd[0], nd[1])
	}
	if w.maxRows >= 0 && nd[0] > w.maxRows {
		return 0, 0, fmt.Errorf("%w: %w: field node %d claims %d values, more than the %d bytes the reader may allocate (WithMaxTotal)", errFB, ErrLimit, w.ni-1, nd[0], w.maxRows)
	}
	return nd[0], nd[1], nil
}

// buffer consumes a buffer that must decode to at least need bytes.
func (w *layoutWalk) buffer(need int64, what string) error {
	if w.bi >= len(w.l.bufs) {
		return fmt.Errorf("%w: more buffers needed than the %d present", errFB, len(w.l.bufs))
	}
	b := w.l.bufs[w.bi]
	w.bi++
	if need <= 0 {
		return nil
	}
	got, err := w.size(b[0], b[1])
	if err != nil {
		return err
	}
	if got < need {
		return fmt.Errorf("%w: %s buffer %d decodes to %d bytes, needs %d", errFB, what, w.bi-1, got, need)
	}
	return nil
}

func (w *layoutWalk) skip() error { return w.buffer(0, "") }

// mul is a*b for the non-negative lengths of a layout, saturating.
func mul(a, b int64) int64 {
	if b != 0 && a > (1<<62)/b {
		return 1 << 62
	}
	return a * b
}

func (w *layoutWalk) validity(n, nulls int64) error {
	if nulls == 0 {
		return w.skip()
	}
	return w.buffer(bitutil.BytesForBits(n), "validity")
}

// field checks one field of type t and returns its length.
func (w *layoutWalk) field(t arrow.DataType, depth int) (int64, error) {
	if depth > maxFBDepth {
		return 0, fmt.Errorf("%w: fields nested deeper than %d", errFB, maxFBDepth)
	}
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	if t.ID() == arrow.NULL {
		n, _, err := w.node()
		return n, err
	}
	n, nulls, err := w.node()
	if err != nil {
		return 0, err
	}
	child := func(ct arrow.DataType, min int64) error {
		cn, err := w.field(ct, depth+1)
		if err == nil && cn < min {
			err = fmt.Errorf("%w: a %s child of %d values under a %s of %d", errFB, ct, cn, t, n)
		}
		return err
	}
	switch t := t.(type) {
	case *arrow.DictionaryType:
		it, ok := t.IndexType.(arrow.FixedWidthDataType)
		if !ok {
			return 0, fmt.Errorf("%w: dictionary index type %s", errFB, t.IndexType)
		}
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		return n, w.buffer(mul(n, int64(it.BitWidth()/8)), "indices")
	case *arrow.BooleanType:
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		return n, w.buffer(bitutil.BytesForBits(n), "values")
	case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType, *arrow.ListType, *arrow.LargeListType, *arrow.MapType:
		width := int64(4)
		switch t.ID() {
		case arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.LARGE_LIST:
			width = 8
		}
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		offsets := int64(0)
		if n > 0 {
			offsets = mul(n+1, width)
		}
		if err := w.buffer(offsets, "offsets"); err != nil {
			return 0, err
		}
		if lt, ok := t.(arrow.ListLikeType); ok {
			return n, child(lt.Elem(), 0)
		}
		return n, w.skip() // data: checked against the offsets after decoding
	case *arrow.StringViewType, *arrow.BinaryViewType:
		if w.vi >= len(w.l.variadic) {
			return 0, fmt.Errorf("%w: no variadic buffer count for a %s field", errFB, t)
		}
		k := w.l.variadic[w.vi]
		w.vi++
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		if err := w.buffer(mul(n, int64(arrow.ViewHeaderSizeBytes)), "views"); err != nil {
			return 0, err
		}
		for i := int64(0); i < k; i++ {
			if err := w.skip(); err != nil {
				return 0, err
			}
		}
		return n, nil
	case *arrow.ListViewType, *arrow.LargeListViewType:
		width := int64(4)
		if t.ID() == arrow.LARGE_LIST_VIEW {
			width = 8
		}
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		if err := w.buffer(mul(n, width), "offsets"); err != nil {
			return 0, err
		}
		if err := w.buffer(mul(n, width), "sizes"); err != nil {
			return 0, err
		}
		return n, child(t.(arrow.ListLikeType).Elem(), 0)
	case *arrow.FixedSizeListType:
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		return n, child(t.Elem(), mul(n, int64(t.Len())))
	case *arrow.StructType:
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		for _, f := range t.Fields() {
			if err := child(f.Type, n); err != nil {
				return 0, err
			}
		}
		return n, nil
	case arrow.UnionType:
		// V5: no validity bitmap; type ids, then offsets (dense).
		if err := w.buffer(n, "type ids"); err != nil {
			return 0, err
		}
		dense := t.Mode() == arrow.DenseMode
		if dense {
			if err := w.buffer(mul(n, 4), "offsets"); err != nil {
				return 0, err
			}
		}
		for _, f := range t.Fields() {
			min := n
			if dense {
				min = 0
			}
			if err := child(f.Type, min); err != nil {
				return 0, err
			}
		}
		return n, nil
	case *arrow.RunEndEncodedType:
		if err := child(t.RunEnds(), 0); err != nil {
			return 0, err
		}
		return n, child(t.Encoded(), 0)
	case arrow.FixedWidthDataType:
		if err := w.validity(n, nulls); err != nil {
			return 0, err
		}
		return n, w.buffer(mul(n, int64(t.BitWidth()/8)), "values")
	}
	return 0, fmt.Errorf("%w: cannot check the layout of a %s field", ErrUnsupported, t)
}

// checkBatchLayout checks the record batch message meta against schema s;
// size returns the decoded size of the buffer at (offset, length) of the
// body. No field may claim more than maxRows values (< 0: no limit): some
// types (null, structs without fields, fixed-size lists of size 0) take no
// bytes per value, and whoever uses the batch may well allocate some.
// Messages other than V5 record batches pass.
func checkBatchLayout(meta []byte, s *arrow.Schema, maxRows int64, size func(off, n int64) (int64, error)) error {
	l, ok, err := readBatchLayout(meta)
	if err != nil || !ok || s == nil {
		return err
	}
	w := &layoutWalk{l: l, maxRows: maxRows, size: func(off, n int64) (int64, error) {
		if !l.codec || n == 0 {
			return n, nil
		}
		if n < 8 {
			return 0, fmt.Errorf("%w: a compressed buffer of %d bytes", errFB, n)
		}
		return size(off, n)
	}}
	for _, f := range s.Fields() {
		if _, err := w.field(f.Type, 0); err != nil {
			return fmt.Errorf("field %q: %w", f.Name, err)
		}
	}
	return nil
}

// compressedSize reads a compressed buffer's decoded size from its 8-byte
// prefix (-1: stored uncompressed, the rest of the buffer).
func compressedSize(prefix []byte, n int64) int64 {
	v := int64(binary.LittleEndian.Uint64(prefix))
	if v == -1 {
		return n - 8
	}
	if v < 0 {
		return 0
	}
	return v
}
