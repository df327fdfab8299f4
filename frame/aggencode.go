package frame

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// The encoding of an Aggregator's state (MarshalBinary), little-endian:
//
//	"S0AG" 1                  magic and version
//	u64                       FNV-1a of the schema and aggregates (the signature)
//	uvarint rows              rows seen
//	uvarint n                 the number of aggregates
//	n times:
//	  u8 kind, u8 dtype       the state's kind and the input's element dtype
//	  uvarint width           elements per row
//	  payload if rows > 0:    the state's accumulators, width of each:
//	    count:                count int64
//	    integer sums:         sum (int64 or uint64), u8 has
//	    float sums and means: count int64, sum float64, compensation float64
//	    var and std:          count int64, mean float64, M2 float64
//	    min and max:          value (8 bytes: int64 or float64), u8 has
//	    first and last:       position int64 (-1: none), then value, u8 valid
//	    any and all:          u8 value, u8 has
//	    quantiles:            uvarint count, count float64 values
//	    count distinct:       uvarint count, count keys (uvarint length, bytes) in increasing order
//	    strings:              u8 has, u8 null, position int64, uvarint length, bytes
//	    corr:                 count int64, 5 float64 (means, M2s, co-moment)
//
// A state of no rows carries no payloads: its size is that of the header.
// Quantile, Median and CountDistinct carry their values (8 bytes a value,
// or the key's bytes); the others a few bytes per element.
const aggregatorMagic = "S0AG\x01"

// stateCodec is what the encoding asks of a state: its kind, and the
// accumulators of group 0 (an Aggregator has one group) in and out.
type stateCodec interface {
	codecKind() uint8
	// encode appends group 0's accumulators.
	encode(b []byte) []byte
	// decode reads them onto a state grown to one group, refusing what
	// no Add or Merge of rows rows could build.
	decode(d *stateDecoder, rows int64) error
}

var (
	_ stateCodec = (*countState)(nil)
	_ stateCodec = (*intSumState[int8])(nil)
	_ stateCodec = (*uintSumState[uint8])(nil)
	_ stateCodec = (*momentState[float32])(nil)
	_ stateCodec = (*extremeState[int16])(nil)
	_ stateCodec = (*firstState[uint16])(nil)
	_ stateCodec = (*boolState[float64])(nil)
	_ stateCodec = (*quantileState[int32])(nil)
	_ stateCodec = (*distinctState)(nil)
	_ stateCodec = (*strState)(nil)
	_ stateCodec = (*corrState)(nil)
)

func (a *Aggregator) fingerprint() uint64 {
	h := fnv.New64a()
	h.Write([]byte(a.sig))
	return h.Sum64()
}

// MarshalBinary encodes the Aggregator's state: the rows seen and each
// aggregate's accumulators (see the layout above; about 8 to 24 bytes per
// element, the values themselves for Quantile, Median and
// CountDistinct), and a fingerprint of the schema and aggregates but not
// the aggregates themselves. UnmarshalBinary decodes it onto an
// Aggregator made from the same schema and aggregates.
func (a *Aggregator) MarshalBinary() ([]byte, error) {
	if err := a.check("MarshalBinary"); err != nil {
		return nil, err
	}
	out := append([]byte{}, aggregatorMagic...)
	out = binary.LittleEndian.AppendUint64(out, a.fingerprint())
	out = binary.AppendUvarint(out, uint64(a.rows))
	out = binary.AppendUvarint(out, uint64(len(a.n.aggs)))
	for i, p := range a.n.aggs {
		c, ok := a.t.states[i].(stateCodec)
		if !ok {
			return nil, fmt.Errorf("frame.Aggregator.MarshalBinary %v: internal error: state %T has no encoding", p.Agg, a.t.states[i])
		}
		out = append(out, c.codecKind(), byte(p.dt))
		out = binary.AppendUvarint(out, uint64(p.width))
		if a.rows > 0 {
			out = c.encode(out)
		}
	}
	return out, nil
}

// UnmarshalBinary replaces the Aggregator's state by one MarshalBinary
// encoded, which must come from an Aggregator of the same schema and
// aggregates (else the error wraps ErrMismatch). Malformed bytes (short,
// trailing, out of range, not canonical) and states no Add or Merge could
// build return an error wrapping ErrInvalid and leave the Aggregator
// unchanged: a row count above 2^62-1; a count, a sum of bools or a
// number of held values above the rows or negative (Count() must equal
// the rows); a flag other than 0 or 1; a value outside its column's type
// (an int8 column's min of 300, a bool of 2); an accumulator that holds a
// value where its flag says none (a sum, a mean, a position); moments
// whose count is outside [0, rows], whose M2 is negative, or which have a
// mean or M2 for no values or an M2 other than 0 (or NaN, for an infinite
// or NaN value) for one value; distinct values not in increasing order
// (so repeated); a First or Last position outside the rows; a string that
// is not UTF-8 for a string column. A payload's length is checked against
// the bytes left before anything of its size is allocated.
func (a *Aggregator) UnmarshalBinary(data []byte) error {
	if err := a.check("UnmarshalBinary"); err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("frame.Aggregator.UnmarshalBinary: %w: %s (%d bytes)", ErrInvalid, fmt.Sprintf(format, args...), len(data))
	}
	if len(data) < len(aggregatorMagic)+8 || string(data[:len(aggregatorMagic)]) != aggregatorMagic {
		return bad("not an Aggregator state (magic %q, version 1)", aggregatorMagic[:4])
	}
	d := &stateDecoder{p: data[len(aggregatorMagic):]}
	if fp := d.u64(); fp != a.fingerprint() {
		return fmt.Errorf("frame.Aggregator.UnmarshalBinary: %w: the state is of another schema or other aggregates (fingerprint %016x, want %016x)", ErrMismatch, fp, a.fingerprint())
	}
	rows := d.uvarint()
	if d.err != nil {
		return bad("truncated or overlong row count")
	}
	if rows > math.MaxInt64/2 {
		return bad("row count %d", rows)
	}
	n := d.uvarint()
	if d.err != nil {
		return bad("truncated or overlong aggregate count")
	}
	if n != uint64(len(a.n.aggs)) {
		return fmt.Errorf("frame.Aggregator.UnmarshalBinary: %w: %d aggregates, want %d", ErrMismatch, n, len(a.n.aggs))
	}
	t := newTable(a.n)
	if rows > 0 {
		if err := t.keylessGroup(); err != nil {
			return fmt.Errorf("frame.Aggregator.UnmarshalBinary: %w", err)
		}
		t.grow()
	}
	for i, p := range a.n.aggs {
		c, ok := t.states[i].(stateCodec)
		if !ok {
			return fmt.Errorf("frame.Aggregator.UnmarshalBinary %v: internal error: state %T has no encoding", p.Agg, t.states[i])
		}
		kind, dt := d.byte(), d.byte()
		width := d.uvarint()
		if d.err != nil {
			return bad("aggregate %d (%v): truncated header", i, p.Agg)
		}
		if kind != c.codecKind() || dt != byte(p.dt) || width != uint64(p.width) {
			return fmt.Errorf("frame.Aggregator.UnmarshalBinary: %w: aggregate %d (%v): kind %d dtype %d width %d, want %d, %d and %d", ErrMismatch, i, p.Agg, kind, dt, width, c.codecKind(), p.dt, p.width)
		}
		if rows == 0 {
			continue
		}
		if err := c.decode(d, int64(rows)); err != nil {
			return bad("aggregate %d (%v): %v", i, p.Agg, err)
		}
		if d.err != nil {
			return bad("aggregate %d (%v): %v", i, p.Agg, d.err)
		}
	}
	if len(d.p) != 0 {
		return bad("%d trailing bytes", len(d.p))
	}
	a.t, a.rows = t, int64(rows)
	return nil
}

// stateDecoder reads an encoded state; the first short read sets err and
// makes every later read return zero.
type stateDecoder struct {
	p   []byte
	err error
}

func (d *stateDecoder) short(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("truncated %s (%d bytes left)", what, len(d.p))
	}
	d.p = nil
}

func (d *stateDecoder) u64() uint64 {
	if len(d.p) < 8 {
		d.short("value")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.p)
	d.p = d.p[8:]
	return v
}

func (d *stateDecoder) byte() byte {
	if len(d.p) < 1 {
		d.short("byte")
		return 0
	}
	v := d.p[0]
	d.p = d.p[1:]
	return v
}

// flag reads a byte that must be 0 or 1.
func (d *stateDecoder) flag() (bool, error) {
	c := d.byte()
	if c > 1 {
		return false, fmt.Errorf("flag byte %d", c)
	}
	return c == 1, nil
}

// uvarint reads a canonical uvarint (an overlong one is refused, so that
// a decoded state encodes to the same bytes).
func (d *stateDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.p)
	if n <= 0 || n != len(binary.AppendUvarint(nil, v)) {
		d.short("or overlong varint")
		return 0
	}
	d.p = d.p[n:]
	return v
}

// count reads a uvarint count of items of at least size bytes each, no
// more than limit, and checks that the bytes are there.
func (d *stateDecoder) count(limit int64, size int) (int, error) {
	c := d.uvarint()
	if d.err != nil {
		return 0, d.err
	}
	if c > uint64(limit) {
		return 0, fmt.Errorf("%d values of %d rows", c, limit)
	}
	if c > uint64(len(d.p)/size) {
		return 0, fmt.Errorf("%d values, %d bytes left", c, len(d.p))
	}
	return int(c), nil
}

func (d *stateDecoder) f64() float64 { return math.Float64frombits(d.u64()) }

// isFloat reports whether T is a float type.
func isFloat[T number]() bool {
	var one T = 1
	return one/2 != 0
}

// numBits is x's encoding: an integer's int64 (a uint64's bits), a
// float's float64 bits.
func numBits[T number](x T) uint64 {
	if isFloat[T]() {
		return math.Float64bits(float64(x))
	}
	var m1 T
	m1--
	if m1 > 0 { // unsigned
		return uint64(x)
	}
	return uint64(int64(x))
}

// numFrom decodes numBits's encoding, refusing bits that are not the
// encoding of a T (out of range, a float64 that is no float32).
func numFrom[T number](u uint64) (T, error) {
	var x T
	if isFloat[T]() {
		x = T(math.Float64frombits(u))
	} else {
		var m1 T
		m1--
		if m1 > 0 {
			x = T(u)
		} else {
			x = T(int64(u))
		}
	}
	if numBits(x) != u {
		return x, fmt.Errorf("value bits %#x are not a %T", u, x)
	}
	return x, nil
}

func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendF64(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// ---- the states ----

func (s *countState) codecKind() uint8 { return 1 }

func (s *countState) encode(b []byte) []byte {
	return binary.LittleEndian.AppendUint64(b, uint64(s.n[0]))
}

func (s *countState) decode(d *stateDecoder, rows int64) error {
	n := int64(d.u64())
	if n < 0 || n > rows || (s.rows && n != rows) {
		return fmt.Errorf("count %d of %d rows", n, rows)
	}
	s.n[0] = n
	return nil
}

func (s *intSumState[T]) codecKind() uint8 { return 2 }

func (s *intSumState[T]) encode(b []byte) []byte {
	for k := 0; k < s.width; k++ {
		b = binary.LittleEndian.AppendUint64(b, uint64(s.s[k]))
		b = appendFlag(b, s.has[k])
	}
	return b
}

func (s *intSumState[T]) decode(d *stateDecoder, rows int64) error {
	var u T
	_, isBool := any(u).(uint8) // a sum of uint8 is uint64: this is a sum of bools
	for k := 0; k < s.width; k++ {
		v := int64(d.u64())
		has, err := d.flag()
		if err != nil {
			return err
		}
		if !has && v != 0 {
			return fmt.Errorf("a sum of %d over no values", v)
		}
		if isBool && (v < 0 || v > rows) {
			return fmt.Errorf("a sum of bools of %d over %d rows", v, rows)
		}
		s.s[k], s.has[k] = v, has
	}
	return nil
}

func (s *uintSumState[T]) codecKind() uint8 { return 3 }

func (s *uintSumState[T]) encode(b []byte) []byte {
	for k := 0; k < s.width; k++ {
		b = binary.LittleEndian.AppendUint64(b, s.s[k])
		b = appendFlag(b, s.has[k])
	}
	return b
}

func (s *uintSumState[T]) decode(d *stateDecoder, _ int64) error {
	for k := 0; k < s.width; k++ {
		v := d.u64()
		has, err := d.flag()
		if err != nil {
			return err
		}
		if !has && v != 0 {
			return fmt.Errorf("a sum of %d over no values", v)
		}
		s.s[k], s.has[k] = v, has
	}
	return nil
}

func (s *momentState[T]) codecKind() uint8 {
	if s.op == aggVar || s.op == aggStd {
		return 5
	}
	return 4
}

func (s *momentState[T]) encode(b []byte) []byte {
	moments := s.op == aggVar || s.op == aggStd
	for k := 0; k < s.width; k++ {
		b = binary.LittleEndian.AppendUint64(b, uint64(s.n[k]))
		if moments {
			b = appendF64(appendF64(appendF64(b, s.mean[k]), s.m2[k]), s.piv[k])
		} else {
			b = appendF64(appendF64(b, s.s[k]), s.c[k])
		}
	}
	return b
}

func (s *momentState[T]) decode(d *stateDecoder, rows int64) error {
	moments := s.op == aggVar || s.op == aggStd
	for k := 0; k < s.width; k++ {
		m := compute.Moments{Count: int64(d.u64()), Mean: d.f64(), M2: d.f64()}
		if moments {
			// the mean and M2 are of the values minus the pivot (the
			// first value), which is 0 for no values
			piv := d.f64()
			if !momentsOK(m, rows) || (m.Count == 0 && (piv != 0 || math.Signbit(piv))) {
				return fmt.Errorf("moments %+v (pivot %v) of %d rows", m, piv, rows)
			}
			s.n[k], s.mean[k], s.m2[k], s.piv[k] = m.Count, m.Mean, m.M2, piv
			continue
		}
		// a compensated sum: count, sum, compensation
		if m.Count < 0 || m.Count > rows || (m.Count == 0 && (m.Mean != 0 || m.M2 != 0)) {
			return fmt.Errorf("a sum %v + %v of %d values of %d rows", m.Mean, m.M2, m.Count, rows)
		}
		s.n[k], s.s[k], s.c[k] = m.Count, m.Mean, m.M2
	}
	return nil
}

// momentsOK reports whether m is a state the updates and merges could
// have built from at most rows values: a count in [0, rows]; for no
// values, mean and M2 zero; M2 (a sum of squared deviations) never
// negative, and for one value zero, or NaN when that value was infinite or
// NaN. A NaN or infinite mean is possible (NaN or infinite values, or a
// sum that overflowed), so it is not refused.
func momentsOK(m compute.Moments, rows int64) bool {
	switch {
	case m.Count < 0 || m.Count > rows:
		return false
	case m.Count == 0:
		return m.Mean == 0 && m.M2 == 0 && !math.Signbit(m.Mean) && !math.Signbit(m.M2)
	case m.M2 < 0:
		return false
	case m.Count == 1:
		return m.M2 == 0 || math.IsNaN(m.M2)
	}
	return true
}

func (s *extremeState[T]) codecKind() uint8 { return 6 }

func (s *extremeState[T]) encode(b []byte) []byte {
	for k := 0; k < s.width; k++ {
		b = binary.LittleEndian.AppendUint64(b, numBits(s.v[k]))
		b = appendFlag(b, s.has[k])
	}
	return b
}

func (s *extremeState[T]) decode(d *stateDecoder, _ int64) error {
	for k := 0; k < s.width; k++ {
		u := d.u64()
		has, err := d.flag()
		if err != nil {
			return err
		}
		v, err := decodeValue[T](u, !has, s.out)
		if err != nil {
			return err
		}
		s.v[k], s.has[k] = v, has
	}
	return nil
}

// decodeValue decodes an element of a column of dtype o.dt; zero says
// there is no value, so the bits must be zero.
func decodeValue[T number](u uint64, zero bool, o out) (T, error) {
	v, err := numFrom[T](u)
	if err != nil {
		return v, err
	}
	if zero && u != 0 {
		return v, fmt.Errorf("a value %#x where there is none", u)
	}
	if o.dt == array.Bool && v != 0 && v != 1 {
		return v, fmt.Errorf("a bool of %v", v)
	}
	return v, nil
}

func (s *firstState[T]) codecKind() uint8 { return 7 }

func (s *firstState[T]) encode(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(s.pos[0]))
	for k := 0; k < s.width; k++ {
		b = binary.LittleEndian.AppendUint64(b, numBits(s.v[k]))
		b = appendFlag(b, s.ok[k])
	}
	return b
}

func (s *firstState[T]) decode(d *stateDecoder, rows int64) error {
	// Every row is a candidate: First's row is the first (0), Last's
	// the last.
	want := int64(0)
	if s.last {
		want = rows - 1
	}
	if p := int64(d.u64()); p != want {
		return fmt.Errorf("position %d of %d rows, want %d", p, rows, want)
	}
	s.pos[0] = want
	for k := 0; k < s.width; k++ {
		u := d.u64()
		ok, err := d.flag()
		if err != nil {
			return err
		}
		// a null element keeps the bits under it
		v, err := decodeValue[T](u, false, s.out)
		if err != nil {
			return err
		}
		s.v[k], s.ok[k] = v, ok
	}
	return nil
}

// shift moves the positions by off (the state's rows follow off others).
func (s *firstState[T]) shift(off int64) {
	for g, p := range s.pos {
		if p >= 0 {
			s.pos[g] = p + off
		}
	}
}

// shiftPositions moves the row positions a state keeps (First, Last) by
// off; other states keep none.
func shiftPositions(s aggState, off int64) {
	switch s := s.(type) {
	case interface{ shift(int64) }:
		s.shift(off)
	case *strState:
		if s.op == aggFirst || s.op == aggLast {
			for g := range s.pos {
				if s.has[g] {
					s.pos[g] += off
				}
			}
		}
	}
}

func (s *boolState[T]) codecKind() uint8 { return 8 }

func (s *boolState[T]) encode(b []byte) []byte {
	for k := 0; k < s.width; k++ {
		b = appendFlag(appendFlag(b, s.v[k]), s.has[k])
	}
	return b
}

func (s *boolState[T]) decode(d *stateDecoder, _ int64) error {
	for k := 0; k < s.width; k++ {
		v, err := d.flag()
		if err != nil {
			return err
		}
		has, err := d.flag()
		if err != nil {
			return err
		}
		if v && !has {
			return fmt.Errorf("a value where there is none")
		}
		s.v[k], s.has[k] = v, has
	}
	return nil
}

func (s *quantileState[T]) codecKind() uint8 { return 9 }

func (s *quantileState[T]) encode(b []byte) []byte {
	for k := 0; k < s.width; k++ {
		b = binary.AppendUvarint(b, uint64(len(s.v[k])))
		for _, x := range s.v[k] {
			b = appendF64(b, x)
		}
	}
	return b
}

func (s *quantileState[T]) decode(d *stateDecoder, rows int64) error {
	for k := 0; k < s.width; k++ {
		n, err := d.count(rows, 8)
		if err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		v := make([]float64, n)
		for i := range v {
			// a value of T, held as float64
			u := d.u64()
			x := T(math.Float64frombits(u))
			if math.Float64bits(float64(x)) != u {
				return fmt.Errorf("value bits %#x are not a %T", u, x)
			}
			v[i] = float64(x)
		}
		s.v[k] = v
	}
	return nil
}

func (s *distinctState) codecKind() uint8 { return 10 }

func (s *distinctState) encode(b []byte) []byte {
	keys := make([]string, 0, len(s.sets[0]))
	for k := range s.sets[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	return b
}

func (s *distinctState) decode(d *stateDecoder, rows int64) error {
	n, err := d.count(rows, 1)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	set := make(map[string]struct{}, n)
	var prev []byte
	for i := 0; i < n; i++ {
		l, err := d.count(math.MaxInt64, 1)
		if err != nil {
			return err
		}
		k := d.p[:l]
		d.p = d.p[l:]
		if i > 0 && bytes.Compare(prev, k) >= 0 {
			return fmt.Errorf("distinct values not in increasing order")
		}
		prev = k
		set[string(k)] = struct{}{}
	}
	s.sets[0] = set
	return nil
}

func (s *strState) codecKind() uint8 { return 11 }

func (s *strState) encode(b []byte) []byte {
	b = appendFlag(appendFlag(b, s.has[0]), s.null[0])
	b = binary.LittleEndian.AppendUint64(b, uint64(s.pos[0]))
	b = binary.AppendUvarint(b, uint64(len(s.v[0])))
	return append(b, s.v[0]...)
}

func (s *strState) decode(d *stateDecoder, rows int64) error {
	has, err := d.flag()
	if err != nil {
		return err
	}
	null, err := d.flag()
	if err != nil {
		return err
	}
	pos := int64(d.u64())
	l, err := d.count(math.MaxInt64, 1)
	if err != nil {
		return err
	}
	v := string(d.p[:l])
	d.p = d.p[l:]
	positional := s.op == aggFirst || s.op == aggLast
	want := int64(0) // First's row is the first; Last's the last
	if s.op == aggLast {
		want = rows - 1
	}
	switch {
	case !has && (null || pos != 0 || v != ""):
		return fmt.Errorf("a value where there is none")
	case positional && (!has || pos != want):
		return fmt.Errorf("position %d (seen %v) of %d rows, want %d", pos, has, rows, want)
	case null && (!positional || v != ""):
		return fmt.Errorf("a null with a value")
	case !positional && pos != 0:
		return fmt.Errorf("a position for %s", aggNames[s.op])
	case textual(s.t) && !utf8.ValidString(v):
		return fmt.Errorf("a string that is not UTF-8")
	}
	s.has[0], s.null[0], s.pos[0], s.v[0] = has, null, pos, v
	return nil
}

// textual reports whether t holds text (not bytes).
func textual(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BINARY, arrow.LARGE_BINARY:
		return false
	case arrow.DICTIONARY:
		return textual(t.(*arrow.DictionaryType).ValueType)
	}
	return true
}

func (s *corrState) codecKind() uint8 { return 12 }

func (s *corrState) encode(b []byte) []byte {
	x := &s.m[0]
	b = binary.LittleEndian.AppendUint64(b, uint64(x.n))
	for _, v := range []float64{x.ma, x.mb, x.m2a, x.m2b, x.cab} {
		b = appendF64(b, v)
	}
	return b
}

func (s *corrState) decode(d *stateDecoder, rows int64) error {
	n := int64(d.u64())
	ma, mb, m2a, m2b, cab := d.f64(), d.f64(), d.f64(), d.f64(), d.f64()
	if !momentsOK(compute.Moments{Count: n, Mean: ma, M2: m2a}, rows) ||
		!momentsOK(compute.Moments{Count: n, Mean: mb, M2: m2b}, rows) ||
		(n == 0 && (cab != 0 || math.Signbit(cab))) || (n == 1 && !(cab == 0 || math.IsNaN(cab))) {
		return fmt.Errorf("bivariate moments of %d values of %d rows", n, rows)
	}
	s.m[0] = corrMoments{n: n, ma: ma, mb: mb, m2a: m2a, m2b: m2b, cab: cab}
	return nil
}
