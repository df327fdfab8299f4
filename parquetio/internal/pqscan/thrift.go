package pqscan

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The Thrift compact protocol, as Parquet's footer and page headers use it,
// read from a byte slice with every length and count checked against the
// bytes left, and nesting bounded.

// Compact protocol type codes.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxThriftDepth bounds the nesting of structs, lists and maps.
const maxThriftDepth = 32

// errShort marks a structure that runs past the bytes given (a page header
// read with too few bytes is read again with more).
type errShort struct{ need string }

func (e *errShort) Error() string { return "truncated Thrift: " + e.need }

// tReader reads compact-protocol values from b.
type tReader struct {
	b     []byte
	pos   int
	depth int
	hdr   int // where the header of the field fields last read starts
}

func (r *tReader) left() int { return len(r.b) - r.pos }

func (r *tReader) byte1() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, &errShort{"a byte"}
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *tReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.pos:])
	switch {
	case n == 0:
		return 0, &errShort{"a varint"}
	case n < 0:
		return 0, fmt.Errorf("%w: a varint of more than 64 bits at byte %d", ErrInvalid, r.pos)
	}
	r.pos += n
	return v, nil
}

func (r *tReader) i64() (int64, error) {
	u, err := r.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (r *tReader) i32() (int32, error) {
	v, err := r.i64()
	if err == nil && (v < math.MinInt32 || v > math.MaxInt32) {
		return 0, fmt.Errorf("%w: i32 out of range (%d)", ErrInvalid, v)
	}
	return int32(v), err
}

// size reads a length or count that must fit in the bytes left (each
// element or byte takes at least one).
func (r *tReader) size(what string) (int, error) {
	u, err := r.uvarint()
	if err != nil {
		return 0, err
	}
	if u > uint64(r.left()) {
		return 0, &errShort{fmt.Sprintf("%s of %d with %d bytes left", what, u, r.left())}
	}
	return int(u), nil
}

// binary returns the next binary (or string) value, a view of r.b.
func (r *tReader) binary() ([]byte, error) {
	n, err := r.size("a binary")
	if err != nil {
		return nil, err
	}
	v := r.b[r.pos : r.pos+n]
	r.pos += n
	return v, nil
}

// listHeader reads a list or set header: element type and count.
func (r *tReader) listHeader() (byte, int, error) {
	h, err := r.byte1()
	if err != nil {
		return 0, 0, err
	}
	n := int(h >> 4)
	if n == 15 {
		if n, err = r.size("a list"); err != nil {
			return 0, 0, err
		}
	} else if n > r.left() {
		return 0, 0, &errShort{"a list"}
	}
	return h & 0x0f, n, nil
}

// fields calls fn for each field of the struct that starts at r.pos, with
// its id and type; fn must consume the value (r.skip when it does not want
// it). Booleans carry their value in the type (tTrue, tFalse).
func (r *tReader) fields(fn func(id int16, typ byte) error) error {
	if r.depth++; r.depth > maxThriftDepth {
		return fmt.Errorf("%w: Thrift nested more than %d deep", ErrInvalid, maxThriftDepth)
	}
	defer func() { r.depth-- }()
	var last int16
	for {
		r.hdr = r.pos
		h, err := r.byte1()
		if err != nil {
			return err
		}
		if h == tStop {
			return nil
		}
		typ := h & 0x0f
		id := last + int16(h>>4)
		if h>>4 == 0 {
			v, err := r.i64()
			if err != nil {
				return err
			}
			if v < math.MinInt16 || v > math.MaxInt16 {
				return fmt.Errorf("%w: Thrift field id %d", ErrInvalid, v)
			}
			id = int16(v)
		}
		last = id
		if err := fn(id, typ); err != nil {
			return err
		}
	}
}

// skip consumes a value of type typ.
func (r *tReader) skip(typ byte) error {
	switch typ {
	case tTrue, tFalse:
		return nil
	case tByte:
		_, err := r.byte1()
		return err
	case tI16, tI32, tI64:
		_, err := r.uvarint()
		return err
	case tDouble:
		if r.left() < 8 {
			return &errShort{"a double"}
		}
		r.pos += 8
		return nil
	case tBinary:
		_, err := r.binary()
		return err
	case tStruct:
		return r.fields(func(_ int16, t byte) error { return r.skip(t) })
	case tList, tSet:
		et, n, err := r.listHeader()
		if err != nil {
			return err
		}
		return r.elems(et, n, func() error { return r.skipElem(et) })
	case tMap:
		n, err := r.size("a map")
		if err != nil || n == 0 {
			return err
		}
		kv, err := r.byte1()
		if err != nil {
			return err
		}
		return r.elems(tMap, n, func() error {
			if err := r.skipElem(kv >> 4); err != nil {
				return err
			}
			return r.skipElem(kv & 0x0f)
		})
	}
	return fmt.Errorf("%w: Thrift type %d", ErrInvalid, typ)
}

// skipElem consumes a list element of type typ (a boolean takes a byte).
func (r *tReader) skipElem(typ byte) error {
	if typ == tTrue || typ == tFalse {
		_, err := r.byte1()
		return err
	}
	return r.skip(typ)
}

// elems calls fn n times, one nesting level down.
func (r *tReader) elems(_ byte, n int, fn func() error) error {
	if r.depth++; r.depth > maxThriftDepth {
		return fmt.Errorf("%w: Thrift nested more than %d deep", ErrInvalid, maxThriftDepth)
	}
	defer func() { r.depth-- }()
	for i := 0; i < n; i++ {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// want checks that a field has the type its id calls for.
func want(what string, id int16, typ, want byte) error {
	if typ != want && !(want == tTrue && typ == tFalse) {
		return fmt.Errorf("%w: %s field %d has Thrift type %d, not %d", ErrInvalid, what, id, typ, want)
	}
	return nil
}

// list reads a list (the field's type typ must say so) whose elements
// have type et, calling fn for each.
func (r *tReader) list(what string, typ, et byte, fn func(i int) error) error {
	if typ != tList {
		return fmt.Errorf("%w: %s has Thrift type %d, not a list", ErrInvalid, what, typ)
	}
	t, n, err := r.listHeader()
	if err != nil {
		return err
	}
	if t != et && n > 0 {
		return fmt.Errorf("%w: %s: a list of Thrift type %d, not %d", ErrInvalid, what, t, et)
	}
	i := 0
	return r.elems(t, n, func() error { err := fn(i); i++; return err })
}
