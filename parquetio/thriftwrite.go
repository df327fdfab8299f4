package parquetio

import "encoding/binary"

// thriftW is a small writer of Thrift's compact protocol, enough for the
// Parquet structures the fast writer writes (page headers and the footer):
// structs, i16/i32/i64, binary, lists and booleans. Field ids are given in
// increasing order within a struct.
type thriftW struct {
	b    []byte
	last []int16 // the last field id of each open struct
}

// compact protocol type codes
const (
	tcTrue   = 1
	tcFalse  = 2
	tcByte   = 3
	tcI16    = 4
	tcI32    = 5
	tcI64    = 6
	tcBinary = 8
	tcList   = 9
	tcStruct = 12
)

func (t *thriftW) uvarint(v uint64) { t.b = binary.AppendUvarint(t.b, v) }
func (t *thriftW) zigzag(v int64)   { t.uvarint(uint64(v<<1) ^ uint64(v>>63)) }

// field writes the header of field id of type typ in the open struct.
func (t *thriftW) field(id int16, typ byte) {
	top := len(t.last) - 1
	if d := id - t.last[top]; d > 0 && d <= 15 {
		t.b = append(t.b, byte(d)<<4|typ)
	} else {
		t.b = append(t.b, typ)
		t.zigzag(int64(id))
	}
	t.last[top] = id
}

// begin opens a struct (the outermost one, a field's or a list element's).
func (t *thriftW) begin() { t.last = append(t.last, 0) }

// end closes the innermost open struct.
func (t *thriftW) end() {
	t.b = append(t.b, 0)
	t.last = t.last[:len(t.last)-1]
}

// beginField opens a struct as field id.
func (t *thriftW) beginField(id int16) {
	t.field(id, tcStruct)
	t.begin()
}

func (t *thriftW) i32(id int16, v int32) {
	t.field(id, tcI32)
	t.zigzag(int64(v))
}

func (t *thriftW) i64(id int16, v int64) {
	t.field(id, tcI64)
	t.zigzag(v)
}

func (t *thriftW) byteField(id int16, v int8) {
	t.field(id, tcByte)
	t.b = append(t.b, byte(v))
}

func (t *thriftW) boolean(id int16, v bool) {
	if v {
		t.field(id, tcTrue)
	} else {
		t.field(id, tcFalse)
	}
}

func (t *thriftW) binary(id int16, v []byte) {
	t.field(id, tcBinary)
	t.uvarint(uint64(len(v)))
	t.b = append(t.b, v...)
}

func (t *thriftW) str(id int16, v string) {
	t.field(id, tcBinary)
	t.uvarint(uint64(len(v)))
	t.b = append(t.b, v...)
}

// list writes the header of a list field of n elements of type elem; the
// elements follow (structs with begin/end, i32s with listI32, strings with
// listStr).
func (t *thriftW) list(id int16, elem byte, n int) {
	t.field(id, tcList)
	if n < 15 {
		t.b = append(t.b, byte(n)<<4|elem)
	} else {
		t.b = append(t.b, 0xf0|elem)
		t.uvarint(uint64(n))
	}
}

func (t *thriftW) listI32(v int32) { t.zigzag(int64(v)) }

func (t *thriftW) listStr(v string) {
	t.uvarint(uint64(len(v)))
	t.b = append(t.b, v...)
}
