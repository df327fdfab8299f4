package pqbomb

import "encoding/binary"

// w writes the Thrift compact protocol (the subset Parquet's footer and
// page headers use), by hand, so that any size can be written.
type w struct {
	b    []byte
	last []int16 // the last field id of each open struct
}

func (t *w) field(id int16, typ byte) {
	l := &t.last[len(t.last)-1]
	if d := id - *l; d > 0 && d <= 15 {
		t.b = append(t.b, byte(d)<<4|typ)
	} else {
		t.b = append(t.b, typ)
		t.zigzag(int64(id))
	}
	*l = id
}

func (t *w) zigzag(v int64) { t.b = binary.AppendUvarint(t.b, uint64(v<<1^v>>63)) }

func (t *w) i32(id int16, v int32) { t.field(id, 5); t.zigzag(int64(v)) }
func (t *w) i64(id int16, v int64) { t.field(id, 6); t.zigzag(v) }
func (t *w) str(id int16, s string) {
	t.field(id, 8)
	t.b = binary.AppendUvarint(t.b, uint64(len(s)))
	t.b = append(t.b, s...)
}

// begin opens a struct (as field id of the current one, or a list
// element when id is 0); end closes it.
func (t *w) begin(id int16) {
	if id != 0 {
		t.field(id, 12)
	}
	t.last = append(t.last, 0)
}

func (t *w) end() {
	t.b = append(t.b, 0)
	t.last = t.last[:len(t.last)-1]
}

// list writes a list header of n elements of type et (as field id).
func (t *w) list(id int16, et byte, n int) {
	t.field(id, 9)
	if n < 15 {
		t.b = append(t.b, byte(n)<<4|et)
		return
	}
	t.b = append(t.b, 0xf0|et)
	t.b = binary.AppendUvarint(t.b, uint64(n))
}

func newW() *w { return &w{last: []int16{0}} }
