package arrowio

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// This file checks Arrow IPC metadata (the flatbuffers of a Message or a
// file Footer) before arrow-go parses it. arrow-go v15 does not verify
// flatbuffers: it sizes Go slices from vector lengths read from the input
// (schema fields, field children, custom metadata, union type ids, variadic
// buffer counts), so a few corrupt bytes can make it ask for hundreds of
// gigabytes, which the Go runtime does not survive; and it follows offsets
// blindly, so a cycle of tables recurses until the stack overflows, also
// fatal. The checker walks exactly the tables arrow-go reads and rejects
// any offset, vector or string outside the buffer, nesting deeper than
// maxFBDepth, more tables than the buffer can hold without sharing, and
// record batches whose buffers do not fit in the body.

const maxFBDepth = 64

var errFB = errors.New("malformed IPC metadata")

type fbCheck struct {
	b      []byte
	budget int // tables left to visit
}

type fbTable struct {
	pos, vt, vtLen, inline int
}

func newFBCheck(b []byte) *fbCheck { return &fbCheck{b: b, budget: len(b)/4 + 1} }

func (c *fbCheck) u32(p int) (int, error) {
	if p < 0 || p > len(c.b)-4 {
		return 0, fmt.Errorf("%w: read at %d of %d bytes", errFB, p, len(c.b))
	}
	return int(binary.LittleEndian.Uint32(c.b[p:])), nil
}

// table checks the table at pos: its vtable and inline part in bounds.
func (c *fbCheck) table(pos int) (fbTable, error) {
	c.budget--
	if c.budget < 0 {
		return fbTable{}, fmt.Errorf("%w: too many tables for %d bytes", errFB, len(c.b))
	}
	if pos < 0 || pos > len(c.b)-4 || pos%4 != 0 {
		return fbTable{}, fmt.Errorf("%w: table at %d", errFB, pos)
	}
	soff := int(int32(binary.LittleEndian.Uint32(c.b[pos:])))
	vt := pos - soff
	if vt < 0 || vt > len(c.b)-4 || vt%2 != 0 {
		return fbTable{}, fmt.Errorf("%w: vtable at %d", errFB, vt)
	}
	vtLen := int(binary.LittleEndian.Uint16(c.b[vt:]))
	inline := int(binary.LittleEndian.Uint16(c.b[vt+2:]))
	if vtLen < 4 || vtLen%2 != 0 || vt+vtLen > len(c.b) || inline < 4 || pos+inline > len(c.b) {
		return fbTable{}, fmt.Errorf("%w: vtable at %d (size %d, table size %d)", errFB, vt, vtLen, inline)
	}
	return fbTable{pos: pos, vt: vt, vtLen: vtLen, inline: inline}, nil
}

// field returns the position of field slot of size bytes, or 0 when absent.
func (c *fbCheck) field(t fbTable, slot, size int) (int, error) {
	o := 4 + 2*slot
	if o+2 > t.vtLen {
		return 0, nil
	}
	off := int(binary.LittleEndian.Uint16(c.b[t.vt+o:]))
	if off == 0 {
		return 0, nil
	}
	if off < 4 || off+size > t.inline {
		return 0, fmt.Errorf("%w: field %d at %d outside its table", errFB, slot, off)
	}
	return t.pos + off, nil
}

// ref follows the offset field slot of t; 0 when absent.
func (c *fbCheck) ref(t fbTable, slot int) (int, error) {
	p, err := c.field(t, slot, 4)
	if p == 0 || err != nil {
		return 0, err
	}
	u, err := c.u32(p)
	if err != nil {
		return 0, err
	}
	if u == 0 || p+u > len(c.b) {
		return 0, fmt.Errorf("%w: offset %d at %d", errFB, u, p)
	}
	return p + u, nil
}

// vector checks the vector in slot of t with elements of elem bytes and
// returns the position of its first element and its length.
func (c *fbCheck) vector(t fbTable, slot, elem int) (int, int, error) {
	v, err := c.ref(t, slot)
	if v == 0 || err != nil {
		return 0, 0, err
	}
	n, err := c.u32(v)
	if err != nil {
		return 0, 0, err
	}
	if n > (len(c.b)-v-4)/elem {
		return 0, 0, fmt.Errorf("%w: vector of %d elements at %d overruns %d bytes", errFB, n, v, len(c.b))
	}
	return v + 4, n, nil
}

// tables calls f on every table of the vector in slot of t.
func (c *fbCheck) tables(t fbTable, slot int, f func(fbTable) error) error {
	start, n, err := c.vector(t, slot, 4)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		p := start + 4*i
		u, _ := c.u32(p)
		tt, err := c.table(p + u)
		if err != nil {
			return err
		}
		if err := f(tt); err != nil {
			return err
		}
	}
	return nil
}

func (c *fbCheck) keyValues(t fbTable, slot int) error {
	return c.tables(t, slot, func(kv fbTable) error {
		if _, _, err := c.vector(kv, 0, 1); err != nil {
			return err
		}
		_, _, err := c.vector(kv, 1, 1)
		return err
	})
}

// scalars checks that the scalar fields (slot, size) of t are in bounds.
func (c *fbCheck) scalars(t fbTable, sizes ...int) error {
	for slot, sz := range sizes {
		if _, err := c.field(t, slot, sz); err != nil {
			return err
		}
	}
	return nil
}

// subtable checks the table referenced by slot (absent is fine).
func (c *fbCheck) subtable(t fbTable, slot int, f func(fbTable) error) error {
	p, err := c.ref(t, slot)
	if p == 0 || err != nil {
		return err
	}
	st, err := c.table(p)
	if err != nil {
		return err
	}
	if f == nil {
		return nil
	}
	return f(st)
}

func (c *fbCheck) schema(s fbTable) error {
	if err := c.scalars(s, 2); err != nil {
		return err
	}
	if err := c.tables(s, 1, func(f fbTable) error { return c.fieldTable(f, 1) }); err != nil {
		return err
	}
	if err := c.keyValues(s, 2); err != nil {
		return err
	}
	_, _, err := c.vector(s, 3, 8)
	return err
}

func (c *fbCheck) fieldTable(f fbTable, depth int) error {
	if depth > maxFBDepth {
		return fmt.Errorf("%w: fields nested deeper than %d", errFB, maxFBDepth)
	}
	if _, _, err := c.vector(f, 0, 1); err != nil { // name
		return err
	}
	if err := c.scalars(f, 0, 1, 1); err != nil { // nullable, type_type
		return err
	}
	typeType := 0
	if p, _ := c.field(f, 2, 1); p != 0 {
		typeType = int(c.b[p])
	}
	if err := c.subtable(f, 3, func(t fbTable) error { return c.typeTable(t, typeType) }); err != nil {
		return err
	}
	if err := c.subtable(f, 4, func(d fbTable) error { // dictionary encoding
		if err := c.scalars(d, 8, 0, 1, 2); err != nil {
			return err
		}
		return c.subtable(d, 1, func(it fbTable) error { return c.scalars(it, 4, 1) })
	}); err != nil {
		return err
	}
	if err := c.tables(f, 5, func(ch fbTable) error { return c.fieldTable(ch, depth+1) }); err != nil {
		return err
	}
	return c.keyValues(f, 6)
}

// typeTable checks the fields arrow-go reads from a Type union member.
func (c *fbCheck) typeTable(t fbTable, typ int) error {
	switch typ {
	case 2: // Int
		return c.scalars(t, 4, 1)
	case 3, 8, 11, 18: // FloatingPoint, Date, Interval, Duration
		return c.scalars(t, 2)
	case 7: // Decimal
		return c.scalars(t, 4, 4, 4)
	case 9: // Time
		return c.scalars(t, 2, 4)
	case 10: // Timestamp
		if err := c.scalars(t, 2); err != nil {
			return err
		}
		_, _, err := c.vector(t, 1, 1)
		return err
	case 14: // Union
		if err := c.scalars(t, 2); err != nil {
			return err
		}
		_, _, err := c.vector(t, 1, 4)
		return err
	case 15, 16: // FixedSizeBinary, FixedSizeList
		return c.scalars(t, 4)
	case 17: // Map
		return c.scalars(t, 1)
	}
	return nil
}

// recordBatch checks a RecordBatch table against a body of bodyLen bytes:
// every buffer inside the body, their lengths adding up to at most the body
// (so that arrow-go, which copies each buffer, cannot be made to allocate
// more than the body per batch), and variadic counts within the buffers.
func (c *fbCheck) recordBatch(r fbTable, bodyLen int64) error {
	if err := c.scalars(r, 8); err != nil {
		return err
	}
	if _, _, err := c.vector(r, 1, 16); err != nil { // nodes
		return err
	}
	start, n, err := c.vector(r, 2, 16) // buffers
	if err != nil {
		return err
	}
	var total int64
	for i := 0; i < n; i++ {
		p := start + 16*i
		off := int64(binary.LittleEndian.Uint64(c.b[p:]))
		ln := int64(binary.LittleEndian.Uint64(c.b[p+8:]))
		if off < 0 || ln < 0 || off > bodyLen || ln > bodyLen-off {
			return fmt.Errorf("%w: buffer %d (offset %d, length %d) outside a body of %d bytes", errFB, i, off, ln, bodyLen)
		}
		total += ln
		if total > bodyLen {
			return fmt.Errorf("%w: buffers add up to more than the body of %d bytes", errFB, bodyLen)
		}
	}
	if err := c.subtable(r, 3, func(bc fbTable) error { return c.scalars(bc, 1, 1) }); err != nil {
		return err
	}
	vs, vn, err := c.vector(r, 4, 8)
	if err != nil {
		return err
	}
	var sum int64
	for i := 0; i < vn; i++ {
		v := int64(binary.LittleEndian.Uint64(c.b[vs+8*i:]))
		if v < 0 || v > int64(n) || sum+v > int64(n) {
			return fmt.Errorf("%w: variadic buffer count %d for %d buffers", errFB, v, n)
		}
		sum += v
	}
	return nil
}

// checkMessage checks a Message flatbuffer and returns its body length.
func checkMessage(meta []byte) (int64, error) {
	c := newFBCheck(meta)
	root, err := c.u32(0)
	if err != nil {
		return 0, err
	}
	m, err := c.table(root)
	if err != nil {
		return 0, err
	}
	if err := c.scalars(m, 2, 1, 4, 8); err != nil {
		return 0, err
	}
	var bodyLen int64
	if p, _ := c.field(m, 3, 8); p != 0 {
		bodyLen = int64(binary.LittleEndian.Uint64(meta[p:]))
	}
	if bodyLen < 0 {
		return 0, fmt.Errorf("%w: body length %d", errFB, bodyLen)
	}
	typ := 0
	if p, _ := c.field(m, 1, 1); p != 0 {
		typ = int(meta[p])
	}
	err = c.subtable(m, 2, func(h fbTable) error {
		switch typ {
		case 1:
			return c.schema(h)
		case 2: // DictionaryBatch
			if err := c.scalars(h, 8, 4, 1); err != nil {
				return err
			}
			return c.subtable(h, 1, func(r fbTable) error { return c.recordBatch(r, bodyLen) })
		case 3:
			return c.recordBatch(h, bodyLen)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return bodyLen, c.keyValues(m, 4)
}

// fileBlock is a Block of an IPC file footer.
type fileBlock struct {
	offset int64
	meta   int32
	body   int64
}

// checkFooter checks a file Footer flatbuffer and returns its dictionary and
// record batch blocks.
func checkFooter(b []byte) (dicts, recs []fileBlock, err error) {
	c := newFBCheck(b)
	root, err := c.u32(0)
	if err != nil {
		return nil, nil, err
	}
	f, err := c.table(root)
	if err != nil {
		return nil, nil, err
	}
	if err := c.scalars(f, 2); err != nil {
		return nil, nil, err
	}
	if err := c.subtable(f, 1, c.schema); err != nil {
		return nil, nil, err
	}
	blocks := func(slot int) ([]fileBlock, error) {
		start, n, err := c.vector(f, slot, 24)
		if err != nil {
			return nil, err
		}
		out := make([]fileBlock, n)
		for i := range out {
			p := start + 24*i
			out[i] = fileBlock{
				offset: int64(binary.LittleEndian.Uint64(b[p:])),
				meta:   int32(binary.LittleEndian.Uint32(b[p+8:])),
				body:   int64(binary.LittleEndian.Uint64(b[p+16:])),
			}
		}
		return out, nil
	}
	if dicts, err = blocks(2); err != nil {
		return nil, nil, err
	}
	if recs, err = blocks(3); err != nil {
		return nil, nil, err
	}
	return dicts, recs, c.keyValues(f, 4)
}
