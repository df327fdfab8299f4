package frame

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"

	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/internal/half"
)

// A keyer turns a batch's key columns into group ids, a batch at a time.
//
// Every key column's values become 64-bit raw values: integers as
// themselves (sign-extended), floats as the bits of their float64 value
// (-0 as 0, every NaN as one NaN), bools as 0 and 1, strings (and the
// entries of string dictionaries) as ids in the column's interner. A
// column's raw values are then coded as code = raw - lo + 1 in bits bits
// (code 0 is null), lo and bits covering the values seen (with room to
// grow: a batch outside them lays the key out again, doubling the room).
// When the codes of all columns fit in 64 bits, a row's key is their
// concatenation (packed): up to directBits bits, the key indexes an array
// of group ids directly; above, an open-addressing hash table of packed
// keys. Otherwise (a column spanning nearly all of int64, floats, many
// wide columns) the key is one word per column and a word of null flags,
// hashed (wide).
type keyer struct {
	cols  []*keyCol
	mode  keyMode
	first []int64 // each group's first row

	// packed
	pkeys []uint64 // each group's packed key
	dir   []int32  // direct: group id + 1 by packed key (0: none)
	slots []uint64 // hashed: open addressing, linear probing; the key's hash's high 32 bits << 32 | group id + 1 (0: empty)
	mask  uint64
	sbits uint // hashed: log2 len(slots); a key's home slot is its hash's top sbits bits

	// wide
	w     int      // words a key: one per column, then the null flags
	gw    []uint64 // each group's words
	wslot []pslot  // k is the key's hash

	pk []uint64 // the batch's packed keys or wide words

	// hint is the groups the table expects (0: unknown): the hashed
	// slots grow to hold that many at once
	hint int
}

// reserve makes room for n groups: their first rows and packed keys, and
// (hint) the slots, which grow to n's size the first time they grow.
func (k *keyer) reserve(n int) {
	if n <= 0 || k.mode == keyWide {
		return
	}
	k.hint = n
	k.first = reserveTo(k.first, n)
	k.pkeys = reserveTo(k.pkeys, n)
}

type keyMode uint8

const (
	keyDirect keyMode = iota
	keyHashed
	keyWide
)

// directBits is the widest packed key indexed directly (4 MiB of ids).
const directBits = 20

// maxGroups is the most groups a table holds (ids are int32).
const maxGroups = 1<<31 - 1

type pslot struct {
	k uint64
	g int32 // group id + 1; 0: empty
}

// keyCol is one key column's part of the key.
type keyCol struct {
	kind   keyKind
	signed bool // raw values order as int64 (else as uint64)

	seen     bool   // a valid value has been laid out
	min, max uint64 // the raw values seen
	lo       uint64 // raw value of code 1
	bits     uint   // code width
	shift    uint   // position in the packed key

	strs *interner // keyStr, keyDict

	dict arrow.ArrayData // keyDict: the dictionary dmap maps
	dmap []int64         // its entries' ids, -1 not yet interned

	raw   []uint64 // the batch's raw values (floats, bools, strings)
	valid []byte   // a validity of our own (dictionaries with null entries)
}

// keyVals is a column of a batch as the keyer reads it.
type keyVals struct {
	v     keySlice
	valid []byte // validity bitmap; nil: no nulls
	off   int    // bit of row 0 in valid
}

func (kv keyVals) isValid(i int) bool { return kv.valid == nil || bitutil.BitIsSet(kv.valid, kv.off+i) }

func newKeyer(types []arrow.DataType) *keyer {
	k := &keyer{}
	for _, t := range types {
		kind, _ := keyable(t)
		c := &keyCol{kind: kind, signed: kind == keyInt}
		if kind == keyStr || kind == keyDict {
			c.strs = newInterner()
		}
		k.cols = append(k.cols, c)
	}
	k.w = len(k.cols) + (len(k.cols)+63)/64 + 1
	k.layout()
	return k
}

func (k *keyer) groups() int { return len(k.first) }

// ---- raw values ----

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// keySlice is a batch's raw values of one column.
type keySlice interface {
	len() int
	// minMax returns the least and greatest valid raw values.
	minMax(valid []byte, off int) (lo, hi uint64, ok bool)
	// pack sets (or, with or, adds) each row's code (raw - lo + 1, masked
	// by cmask; 0 for a null row) at shift in pk.
	pack(pk []uint64, valid []byte, off int, lo, cmask uint64, shift uint, or bool)
	at(i int) uint64
	// mix folds each row's raw value (nullMix for a null) into its hash:
	// h[i] = (h[i] ^ raw) * mixK.
	mix(h []uint64, valid []byte, off int)
}

type intsOf[T integer] []T

// directIDer is a keySlice that can read its rows' group ids straight
// from a direct index.
type directIDer interface {
	// directIDs sets ids[i] to the group of row i, whose code is
	// raw - lo + 1 (the only column, at shift 0, every value between the
	// column's min and max), from dir (a power of two long); false when a
	// row's key has no group yet (ids then partly set).
	directIDs(dir []int32, lo uint64, ids []int32) bool
}

func (v intsOf[T]) directIDs(dir []int32, lo uint64, ids []int32) bool {
	mask := uint64(len(dir) - 1) // (no bounds check: the codes fit)
	base := 1 - lo
	ids = ids[:len(v)]
	for i, x := range v {
		g := dir[(uint64(x)+base)&mask]
		if g == 0 {
			return false
		}
		ids[i] = g - 1
	}
	return true
}

func (v intsOf[T]) len() int        { return len(v) }
func (v intsOf[T]) at(i int) uint64 { return uint64(v[i]) }

func (v intsOf[T]) minMax(valid []byte, off int) (uint64, uint64, bool) {
	if len(v) == 0 {
		return 0, 0, false
	}
	if valid == nil {
		lo, hi := v[0], v[0]
		for _, x := range v[1:] {
			lo = min(lo, x)
			hi = max(hi, x)
		}
		return uint64(lo), uint64(hi), true
	}
	var lo, hi T
	ok := false
	for i, x := range v {
		if !bitutil.BitIsSet(valid, off+i) {
			continue
		}
		if !ok {
			lo, hi, ok = x, x, true
			continue
		}
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return uint64(lo), uint64(hi), ok
}

func (v intsOf[T]) mix(h []uint64, valid []byte, off int) {
	h = h[:len(v)]
	if valid == nil {
		for i, x := range v {
			h[i] = (h[i] ^ uint64(x)) * mixK
		}
		return
	}
	for i, x := range v {
		u := uint64(x)
		if !bitutil.BitIsSet(valid, off+i) {
			u = nullMix
		}
		h[i] = (h[i] ^ u) * mixK
	}
}

func (v intsOf[T]) pack(pk []uint64, valid []byte, off int, lo, cmask uint64, shift uint, or bool) {
	pk = pk[:len(v)]
	base := 1 - lo
	if or {
		for i, x := range v {
			pk[i] |= ((uint64(x) + base) & cmask) << shift
		}
	} else {
		for i, x := range v {
			pk[i] = ((uint64(x) + base) & cmask) << shift
		}
	}
	if valid != nil {
		m := cmask << shift
		for i := range v {
			if !bitutil.BitIsSet(valid, off+i) {
				pk[i] &^= m
			}
		}
	}
}

// values reads column c of the batch (n rows) as raw values.
func (c *keyCol) values(a arrow.Array) (keyVals, error) {
	n := a.Len()
	kv := keyVals{off: a.Data().Offset()}
	if a.NullN() > 0 {
		kv.valid = a.NullBitmapBytes()
	}
	switch c.kind {
	case keyInt, keyUint:
		v, err := intValues(a)
		if err != nil {
			return kv, err
		}
		kv.v = v
		return kv, nil
	}
	c.raw = growTo(c.raw[:0], n)[:n]
	raw := c.raw
	switch x := a.(type) {
	case *arrowarray.Float64:
		for i, f := range x.Float64Values() {
			raw[i] = floatBits(f)
		}
	case *arrowarray.Float32:
		for i, f := range x.Float32Values() {
			raw[i] = floatBits(float64(f))
		}
	case *arrowarray.Float16:
		for i, f := range x.Values() {
			raw[i] = floatBits(half.ToFloat64(f.Uint16()))
		}
	case *arrowarray.Boolean:
		for i := range raw {
			raw[i] = 0
			if x.Value(i) {
				raw[i] = 1
			}
		}
	case *arrowarray.String:
		internAll(c.strs, raw, x.ValueOffsets(), x.ValueBytes(), kv)
	case *arrowarray.LargeString:
		internAll(c.strs, raw, x.ValueOffsets(), x.ValueBytes(), kv)
	case *arrowarray.Binary:
		internAll(c.strs, raw, x.ValueOffsets(), x.ValueBytes(), kv)
	case *arrowarray.LargeBinary:
		internAll(c.strs, raw, x.ValueOffsets(), x.ValueBytes(), kv)
	case *arrowarray.Dictionary:
		if err := c.dictValues(x, raw, &kv); err != nil {
			return kv, err
		}
	default:
		return kv, fmt.Errorf("%w: a key of type %s", ErrType, typeName(a.DataType()))
	}
	kv.v = intsOf[uint64](raw)
	return kv, nil
}

// floatBits is a float key's raw value: -0 as 0, every NaN as one.
func floatBits(f float64) uint64 {
	if f == 0 {
		return 0
	}
	if f != f {
		return math.Float64bits(math.NaN())
	}
	return math.Float64bits(f)
}

// intValues returns an integer-like column's values (offset applied).
func intValues(a arrow.Array) (keySlice, error) {
	d := a.Data()
	n, off := d.Len(), d.Offset()
	var b []byte
	if bufs := d.Buffers(); len(bufs) > 1 && bufs[1] != nil {
		b = bufs[1].Bytes()
	}
	switch a.DataType().ID() {
	case arrow.INT8:
		return intsOf[int8](castBytes[int8](b, off, n)), nil
	case arrow.INT16:
		return intsOf[int16](castBytes[int16](b, off, n)), nil
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return intsOf[int32](castBytes[int32](b, off, n)), nil
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return intsOf[int64](castBytes[int64](b, off, n)), nil
	case arrow.UINT8:
		return intsOf[uint8](castBytes[uint8](b, off, n)), nil
	case arrow.UINT16:
		return intsOf[uint16](castBytes[uint16](b, off, n)), nil
	case arrow.UINT32:
		return intsOf[uint32](castBytes[uint32](b, off, n)), nil
	case arrow.UINT64:
		return intsOf[uint64](castBytes[uint64](b, off, n)), nil
	}
	return nil, fmt.Errorf("%w: a key of type %s", ErrType, typeName(a.DataType()))
}

// castBytes views b as n values of T from value off.
func castBytes[T integer](b []byte, off, n int) []T {
	if n == 0 {
		return nil
	}
	var z T
	w := int(unsafe.Sizeof(z))
	if len(b) < (off+n)*w {
		panic("frame: internal error: a short value buffer")
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[off*w])), n)
}

// internAll sets raw[i] to the id of row i's string (valid rows): offs
// are the column's offsets (from its first row's), data its bytes from
// its first row's.
//
// It works in blocks of internBlock rows: first each row's words and
// hash, then (a table past internCold) a prefetch of their home slots,
// then the lookups, so that the cache misses of a block's lookups overlap
// rather than queue (in a table of 10^5 strings, each lookup's miss was
// most of its cost).
func internAll[O int32 | int64](s *interner, raw []uint64, offs []O, data []byte, kv keyVals) {
	if len(raw) == 0 {
		return
	}
	base := offs[0]
	var hs, w0s, w1s, home [internBlock]uint64
	for lo := 0; lo < len(raw); lo += internBlock {
		cold := len(s.slots)*int(unsafe.Sizeof(islot{})) > internCold
		hi := min(lo+internBlock, len(raw))
		for i := lo; i < hi; i++ {
			if kv.valid != nil && !bitutil.BitIsSet(kv.valid, kv.off+i) {
				w1s[i-lo], home[i-lo] = nullWord, 0
				continue
			}
			b := data[offs[i]-base : offs[i+1]-base]
			w0, w1, short := shortWords(b)
			h := s.hash(b, w0, w1, short)
			if !short {
				w0, w1 = longWords[0], longWords[1]
			}
			hs[i-lo], w0s[i-lo], w1s[i-lo], home[i-lo] = h, w0, w1, h&s.mask
		}
		if cold {
			compute.PrefetchAt(unsafe.Pointer(&s.slots[0]), int(unsafe.Sizeof(islot{})), home[:hi-lo])
		}
		for i := lo; i < hi; i++ {
			if w1s[i-lo] == nullWord {
				raw[i] = 0
				continue
			}
			w0, w1, h := w0s[i-lo], w1s[i-lo], hs[i-lo]
			// inline, a short string found in its home slot (most rows)
			if sl := &s.slots[h&s.mask]; sl.w0 == w0 && sl.w1 == w1 && sl.e != 0 && w1 != longWords[1] {
				raw[i] = sl.e&(1<<32-1) - 1
				continue
			}
			raw[i] = uint64(s.idHash(data[offs[i]-base:offs[i+1]-base], w0, w1, h))
		}
	}
}

// internBlock is internAll's block of rows; internCold is the size in
// bytes of an interner's table past which it prefetches (a table within
// half a core's L2 is not); nullWord marks a null row among a block's
// words (no string's words have 254 in w1's top byte).
const (
	internBlock = 32
	internCold  = 256 << 10
	nullWord    = 0xfe << 56
)

// dictValues maps a dictionary column's indices to ids: each dictionary
// entry is interned once, when a row first uses it (unused entries never
// are; duplicate entries get the same id). A row whose entry is null is
// null.
func (c *keyCol) dictValues(x *arrowarray.Dictionary, raw []uint64, kv *keyVals) error {
	dict := x.Dictionary()
	if c.dict != dict.Data() {
		c.dict = dict.Data()
		c.dmap = growTo(c.dmap[:0], dict.Len())[:dict.Len()]
		for i := range c.dmap {
			c.dmap[i] = -1
		}
	}
	idx, err := intValues(x.Indices())
	if err != nil {
		return err
	}
	n := len(raw)
	nullEntries := dict.NullN() > 0
	if nullEntries {
		c.valid = growTo(c.valid[:0], int(bitutil.BytesForBits(int64(n))))
		bitutil.SetBitsTo(c.valid, 0, int64(n), true)
	}
	for i := 0; i < n; i++ {
		if !kv.isValid(i) {
			raw[i] = 0
			if nullEntries {
				bitutil.ClearBit(c.valid, i)
			}
			continue
		}
		e := int(int64(idx.at(i)))
		if e < 0 || e >= len(c.dmap) {
			return fmt.Errorf("frame: a dictionary index %d out of range [0, %d)", e, len(c.dmap))
		}
		id := c.dmap[e]
		if id < 0 {
			if dict.IsNull(e) {
				id = math.MaxInt64 // a null entry
			} else {
				id = int64(c.strs.id(dictEntry(dict, e)))
			}
			c.dmap[e] = id
		}
		if id == math.MaxInt64 {
			raw[i] = 0
			bitutil.ClearBit(c.valid, i)
			continue
		}
		raw[i] = uint64(id)
	}
	if nullEntries {
		kv.valid, kv.off = c.valid, 0
	}
	return nil
}

func dictEntry(d arrow.Array, i int) []byte {
	switch x := d.(type) {
	case *arrowarray.String:
		return unsafe.Slice(unsafe.StringData(x.Value(i)), len(x.Value(i)))
	case *arrowarray.Binary:
		return x.Value(i)
	case *arrowarray.LargeString:
		return unsafe.Slice(unsafe.StringData(x.Value(i)), len(x.Value(i)))
	case *arrowarray.LargeBinary:
		return x.Value(i)
	}
	return nil
}

// ---- layout ----

// less orders raw values as the column's values.
func (c *keyCol) less(a, b uint64) bool {
	if c.signed {
		return int64(a) < int64(b)
	}
	return a < b
}

// fits reports whether raw values in [lo, hi] have codes in the layout.
func (c *keyCol) fits(lo, hi uint64) bool {
	return c.seen && !c.less(lo, c.lo) && hi-c.lo < (uint64(1)<<c.bits)-1
}

// widen lays column c out again to cover [lo, hi] too, with room to grow;
// it reports false when the codes need 64 bits or more.
func (c *keyCol) widen(lo, hi uint64) bool {
	mn, mx := lo, hi
	lowering := true
	if c.seen {
		if c.less(c.min, mn) {
			mn = c.min
		}
		if c.less(mx, c.max) {
			mx = c.max
		}
		lowering = c.less(mn, c.lo)
	}
	from := mn
	if !lowering {
		from = c.lo
	}
	cnt := mx - from + 1 // codes 1..cnt
	if cnt == 0 {
		return false
	}
	b := uint(bits.Len64(cnt))
	if c.seen {
		b = max(b, c.bits+1)
	}
	if b >= 64 {
		return false
	}
	nlo := from
	if lowering && c.seen { // room below, for values still lower
		room := uint64(1)<<b - 2 // the most values above lo
		if c.signed {
			if int64(mx) < math.MinInt64+int64(room) {
				nlo = uint64(1) << 63 // MinInt64
			} else {
				nlo = mx - room
			}
		} else if mx < room {
			nlo = 0
		} else {
			nlo = mx - room
		}
	}
	c.seen, c.min, c.max, c.lo, c.bits = true, mn, mx, nlo, b
	return true
}

// note records values seen within the layout.
func (c *keyCol) note(lo, hi uint64) {
	if c.less(lo, c.min) {
		c.min = lo
	}
	if c.less(c.max, hi) {
		c.max = hi
	}
}

func (c *keyCol) cmask() uint64 { return uint64(1)<<c.bits - 1 }

// layout places the columns' codes and builds the index of the groups
// (their packed keys must be in this layout), or turns to wide keys.
func (k *keyer) layout() {
	var total uint
	for _, c := range k.cols {
		c.shift = total
		total += c.bits
	}
	spare := k.slots
	k.dir, k.slots = nil, nil
	if total <= directBits {
		k.mode = keyDirect
		k.dir = make([]int32, 1<<total)
		for g, p := range k.pkeys {
			k.dir[p] = int32(g + 1)
		}
		return
	}
	k.mode = keyHashed
	k.sizeSlots(len(k.pkeys), spare)
}

// repack re-encodes the groups' packed keys from layout old to the
// columns' current one.
func (k *keyer) repack(old []keyCol) {
	for g, p := range k.pkeys {
		var q uint64
		for c, oc := range old {
			code := (p >> oc.shift) & oc.cmask()
			if code == 0 {
				continue
			}
			nc := k.cols[c]
			raw := code - 1 + oc.lo
			q |= (raw - nc.lo + 1) << nc.shift
		}
		k.pkeys[g] = q
	}
}

// sizeSlots builds the hashed slots of the groups' packed keys, with room
// for n groups or for the hint, whichever is more (a table laid out anew
// when a key widens keeps the size it was given), in spare (the slots it
// had) when that is big enough: a wider key rebuilds the index in the
// memory it had, not in a fresh table of the same size.
func (k *keyer) sizeSlots(n int, spare []uint64) {
	n = max(n, k.hint)
	size := 64
	for size*3/4 <= n {
		size *= 2
	}
	if cap(spare) >= size {
		k.slots = spare[:size]
		clear(k.slots)
	} else {
		k.slots = make([]uint64, size)
	}
	k.mask = uint64(size - 1)
	k.sbits = uint(bits.TrailingZeros64(uint64(size)))
	for g, p := range k.pkeys {
		hp := hashKey(p)
		h := hp >> (64 - k.sbits)
		for k.slots[h] != 0 {
			h = (h + 1) & k.mask
		}
		k.slots[h] = hp&^(1<<32-1) | uint64(g+1)
	}
}

// growSlots doubles the slots (or grows them to hold the hint's groups)
// without reading a key: a key's home slot is the top bits of its hash, which its slot's tag holds (sbits <= 32), so
// each entry moves to its new home from its tag alone; and the old slots
// are read in order of home, so that the new ones are written nearly in
// order too (no cache miss a key, as a rebuild from the keys would take).
func (k *keyer) growSlots() {
	old := k.slots
	nb := k.sbits + 1
	for nb < 32 && (1<<nb)*3/4 <= k.hint {
		nb++ // straight to the size the table expects
	}
	if nb > 32 {
		k.sizeSlots(len(k.pkeys), nil) // (cannot happen: maxGroups keys fit in 2^32 slots)
		return
	}
	size := uint64(1) << nb
	slots := make([]uint64, size)
	mask := size - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		h := e >> (64 - nb)
		for slots[h] != 0 {
			h = (h + 1) & mask
		}
		slots[h] = e
	}
	k.slots, k.mask, k.sbits = slots, mask, nb
}

func hash64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// toWide turns the keys into one word per column and the null flags.
func (k *keyer) toWide() {
	w := k.w
	k.gw = make([]uint64, 0, len(k.pkeys)*w)
	row := make([]uint64, w)
	for _, p := range k.pkeys {
		clear(row)
		for c, col := range k.cols {
			code := (p >> col.shift) & col.cmask()
			if code == 0 {
				row[len(k.cols)+c/64] |= 1 << (c % 64)
				continue
			}
			row[c] = code - 1 + col.lo
		}
		k.gw = append(k.gw, row...)
	}
	k.pkeys, k.dir, k.slots = nil, nil, nil
	k.mode = keyWide
	k.rebuildWide()
}

func (k *keyer) rebuildWide() {
	n := len(k.gw) / k.w
	size := 64
	for size*3/4 <= n {
		size *= 2
	}
	k.wslot = make([]pslot, size)
	k.mask = uint64(size - 1)
	for g := 0; g < n; g++ {
		h := hashWords(k.gw[g*k.w : (g+1)*k.w])
		i := h & k.mask
		for k.wslot[i].g != 0 {
			i = (i + 1) & k.mask
		}
		k.wslot[i] = pslot{k: h, g: int32(g + 1)}
	}
}

func hashWords(ws []uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range ws {
		h = hash64(h ^ w)
	}
	if weakHash {
		h &= weakMask
	}
	return h
}

// weakHash (tests only) keeps 4 bits of a key's hash for the tag and 4
// low bits: tags collide and probe chains are long (a keyer's home
// slots, the top bits, are all slot 0).
var weakHash bool

const weakMask = 0xf<<32 | 0xf

// hashKey is a packed key's hash: its high 32 bits are the tag kept in
// the slot, and its top bits the home slot in a keyer's table (a
// partition's table in a merge takes its low bits).
func hashKey(p uint64) uint64 {
	h := hash64(p)
	if weakHash {
		h &= weakMask
	}
	return h
}

// ---- group ids ----

var errTooManyGroups = fmt.Errorf("frame.GroupBy: %w: more than 2^31-1 groups", ErrArgument)

// assign sets gids[i] to the group of row i of the key columns (n rows),
// adding the groups not seen yet: a new group's first row is firsts[i], or
// pos+i when firsts is nil.
func (k *keyer) assign(cols []keyVals, n int, pos int64, firsts []int64, gids []int32) error {
	if k.mode != keyWide {
		relayout := false
		var old []keyCol
		for c, kv := range cols {
			lo, hi, ok := kv.v.minMax(kv.valid, kv.off)
			if !ok {
				continue
			}
			col := k.cols[c]
			if col.fits(lo, hi) {
				col.note(lo, hi)
				continue
			}
			if old == nil {
				old = make([]keyCol, len(k.cols))
				for i, oc := range k.cols {
					old[i] = *oc
				}
			}
			relayout = true
			if !col.widen(lo, hi) {
				k.toWideFrom(old)
				relayout = false
				break
			}
		}
		if relayout {
			var total uint
			for _, c := range k.cols {
				total += c.bits
			}
			if total > 64 && !k.tighten() {
				k.toWideFrom(old)
			} else {
				k.layoutShifts()
				k.repack(old)
				k.layout()
			}
		}
	}
	if k.mode == keyWide {
		return k.assignWide(cols, n, pos, firsts, gids)
	}
	if k.mode == keyDirect && len(cols) == 1 && cols[0].valid == nil {
		// one key column without nulls, every key seen before (the
		// common case after the first batches): ids straight from the
		// values, no packed keys written and read back
		if d, ok := cols[0].v.(directIDer); ok && d.directIDs(k.dir, k.cols[0].lo, gids[:n]) {
			return nil
		}
	}
	k.pk = growTo(k.pk[:0], n)[:n]
	pk := k.pk
	if len(cols) == 0 {
		clear(pk)
	}
	for c, kv := range cols {
		col := k.cols[c]
		kv.v.pack(pk, kv.valid, kv.off, col.lo, col.cmask(), col.shift, c > 0)
	}
	if k.mode == keyDirect {
		dir := k.dir
		for i, p := range pk {
			g := dir[p]
			if g == 0 {
				if len(k.first) >= maxGroups {
					return errTooManyGroups
				}
				g = int32(len(k.first) + 1)
				dir[p] = g
				k.pkeys = push(k.pkeys, p)
				k.first = push(k.first, firstOf(firsts, pos, i))
			}
			gids[i] = g - 1
		}
		return nil
	}
	// in chunks: first a chunk's hashes, and (a table past internCold) a
	// prefetch of their home slots, whose cache misses then overlap; then
	// the keys are probed in order
	var hs, home [64]uint64
	for at := 0; at < len(pk); at += len(hs) {
		chunk := pk[at:min(len(pk), at+len(hs))]
		sh := 64 - k.sbits
		for j, p := range chunk {
			hs[j] = hashKey(p)
			home[j] = hs[j] >> sh
		}
		if len(k.slots)*8 > internCold {
			compute.PrefetchAt(unsafe.Pointer(&k.slots[0]), 8, home[:len(chunk)])
		}
		for j, p := range chunk {
			i := at + j
			tag := hs[j] &^ (1<<32 - 1)
			h := hs[j] >> (64 - k.sbits)
			for {
				e := k.slots[h]
				if e == 0 {
					if len(k.first) >= maxGroups {
						return errTooManyGroups
					}
					g := len(k.first)
					k.slots[h] = tag | uint64(g+1)
					k.pkeys = push(k.pkeys, p)
					k.first = push(k.first, firstOf(firsts, pos, i))
					gids[i] = int32(g)
					if len(k.pkeys) >= len(k.slots)*3/4 {
						k.growSlots()
					}
					break
				}
				if e&^(1<<32-1) == tag {
					if g := int32(e) - 1; k.pkeys[g] == p {
						gids[i] = g
						break
					}
				}
				h = (h + 1) & k.mask
			}
		}
	}
	return nil
}

// push appends v to s, doubling its capacity when full (append grows
// large slices by a quarter, copying them over and over).
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		t := make([]T, len(s), max(64, 2*cap(s)))
		copy(t, s)
		s = t
	}
	return append(s, v)
}

func firstOf(firsts []int64, pos int64, i int) int64 {
	if firsts != nil {
		return firsts[i]
	}
	return pos + int64(i)
}

// toWideFrom turns to wide keys from the groups packed in layout old.
func (k *keyer) toWideFrom(old []keyCol) {
	for c := range k.cols {
		*k.cols[c] = old[c]
	}
	k.toWide()
}

// tighten lays every column out over exactly the values seen (no room to
// grow but what the code width leaves), when the layout with room does
// not fit in 64 bits: it reports whether this one does (q10's six keys
// need 62 bits, and room for both ways of two of them was too much).
func (k *keyer) tighten() bool {
	var total uint
	for _, c := range k.cols {
		if !c.seen {
			total += c.bits
			continue
		}
		cnt := c.max - c.min + 1
		if cnt == 0 {
			return false
		}
		total += uint(bits.Len64(cnt))
	}
	if total > 64 {
		return false
	}
	for _, c := range k.cols {
		if c.seen {
			c.lo, c.bits = c.min, uint(bits.Len64(c.max-c.min+1))
		}
	}
	return true
}

// layoutShifts places the columns' codes one after the other.
func (k *keyer) layoutShifts() {
	var sh uint
	for _, c := range k.cols {
		c.shift = sh
		sh += c.bits
	}
}

func (k *keyer) assignWide(cols []keyVals, n int, pos int64, firsts []int64, gids []int32) error {
	w, nc := k.w, len(k.cols)
	k.pk = growTo(k.pk[:0], n*w)[:n*w]
	rows := k.pk
	clear(rows)
	for c, kv := range cols {
		for i := 0; i < n; i++ {
			if kv.isValid(i) {
				rows[i*w+c] = kv.v.at(i)
			} else {
				rows[i*w+nc+c/64] |= 1 << (c % 64)
			}
		}
	}
	for i := 0; i < n; i++ {
		row := rows[i*w : (i+1)*w]
		h := hashWords(row)
		j := h & k.mask
		for {
			s := &k.wslot[j]
			if s.g == 0 {
				if len(k.first) >= maxGroups {
					return errTooManyGroups
				}
				g := int32(len(k.first))
				*s = pslot{k: h, g: g + 1}
				k.gw = append(k.gw, row...)
				k.first = push(k.first, firstOf(firsts, pos, i))
				gids[i] = g
				if len(k.first) >= len(k.wslot)*3/4 {
					k.rebuildWide()
				}
				break
			}
			if s.k == h && wordsEqual(k.gw[int(s.g-1)*w:int(s.g)*w], row) {
				gids[i] = s.g - 1
				break
			}
			j = (j + 1) & k.mask
		}
	}
	return nil
}

func wordsEqual(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// raw returns group g's raw value of column c, and whether it is valid.
func (k *keyer) raw(g, c int) (uint64, bool) {
	if k.mode == keyWide {
		if k.gw[g*k.w+len(k.cols)+c/64]&(1<<(c%64)) != 0 {
			return 0, false
		}
		return k.gw[g*k.w+c], true
	}
	col := k.cols[c]
	code := (k.pkeys[g] >> col.shift) & col.cmask()
	if code == 0 {
		return 0, false
	}
	return code - 1 + col.lo, true
}

// groupKeys returns o's groups as key columns in k's raw values (strings
// interned in k), to be assigned like a batch.
func (k *keyer) groupKeys(o *keyer) []keyVals {
	n := o.groups()
	out := make([]keyVals, len(k.cols))
	for c, col := range k.cols {
		raw := make([]uint64, n)
		valid := make([]byte, bitutil.BytesForBits(int64(n)))
		nulls := false
		var ids []int64 // o's string id -> k's
		if col.strs != nil {
			ids = make([]int64, o.cols[c].strs.len())
			for i := range ids {
				ids[i] = -1
			}
		}
		for g := 0; g < n; g++ {
			r, ok := o.raw(g, c)
			if !ok {
				nulls = true
				continue
			}
			bitutil.SetBit(valid, g)
			if ids != nil {
				if ids[r] < 0 {
					ids[r] = int64(col.strs.id(o.cols[c].strs.get(int(r))))
				}
				r = uint64(ids[r])
			}
			raw[g] = r
		}
		kv := keyVals{}
		if nulls {
			kv.valid = valid
		}
		if col.signed {
			kv.v = intsOf[int64](unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(raw))), n))
		} else {
			kv.v = intsOf[uint64](raw)
		}
		out[c] = kv
	}
	return out
}

// ---- strings ----

// interner gives each distinct string an id, in order of first sight.
// A string of at most 15 bytes (db-benchmark's "id001" and
// "id0000000001") is kept in its slot as two words (shortWords), which
// a lookup hashes and compares in registers, so that a lookup in a table
// of 10^5 strings costs one cache miss, the slot's: when the words were
// kept by id beside the slots, the second miss made q3 with string keys
// spend 55% of its time here. A longer string is compared with its bytes
// in data once its hash's tag matches.
type interner struct {
	seed   maphash.Seed
	s0, s1 uint64 // short strings' hash seeds
	data   []byte
	offs   []int // string i is data[offs[i]:offs[i+1]]
	slots  []islot
	mask   uint64
}

// islot is one slot of an interner's open-addressed table.
type islot struct {
	w0, w1 uint64 // the string's shortWords, or longWords
	e      uint64 // hash's high 32 bits << 32 | id+1; 0: empty
}

// longWords marks a string of more than 15 bytes in an islot (no short
// string has 255 in its length byte).
var longWords = [2]uint64{0, 0xff << 56}

func newInterner() *interner {
	s := &interner{seed: maphash.MakeSeed(), offs: []int{0}}
	s.s0 = maphash.Comparable(s.seed, uint64(1))
	s.s1 = maphash.Comparable(s.seed, uint64(2))
	s.slots = make([]islot, 64)
	s.mask = 63
	return s
}

// shortWords packs a string of at most 15 bytes into two words, its
// bytes in order from the low byte of w0 on and its length in w1's top
// byte (false: the string is longer).
func shortWords(b []byte) (w0, w1 uint64, ok bool) {
	n := len(b)
	switch {
	case n > 15:
		return 0, 0, false
	case n >= 8:
		w0 = binary.LittleEndian.Uint64(b)
		// bytes 8..n-1: the last 8 bytes, less those w0 has
		w1 = binary.LittleEndian.Uint64(b[n-8:]) >> (8 * (16 - n))
	case cap(b) >= 8:
		// the 8 bytes from b's start are inside its backing array
		// (the bytes of the strings after it): those past b masked off
		w0 = binary.LittleEndian.Uint64(b[:8]) & (1<<(8*n) - 1)
	default:
		for i := n - 1; i >= 0; i-- {
			w0 = w0<<8 | uint64(b[i])
		}
	}
	return w0, w1 | uint64(n)<<56, true
}

// hash is string b's hash (w0, w1: its shortWords when short).
func (s *interner) hash(b []byte, w0, w1 uint64, short bool) uint64 {
	var h uint64
	if short {
		h = hash64((w0^s.s0)*0x9e3779b97f4a7c15 + (w1 ^ s.s1))
	} else {
		h = maphash.Bytes(s.seed, b)
	}
	if weakHash {
		h &= weakMask
	}
	return h
}

func (s *interner) len() int { return len(s.offs) - 1 }

func (s *interner) get(i int) []byte { return s.data[s.offs[i]:s.offs[i+1]] }

func (s *interner) id(b []byte) int {
	w0, w1, short := shortWords(b)
	h := s.hash(b, w0, w1, short)
	if !short {
		w0, w1 = longWords[0], longWords[1]
	}
	return s.idHash(b, w0, w1, h)
}

// idHash is id with b's words (shortWords, or longWords) and hash given.
func (s *interner) idHash(b []byte, w0, w1, h uint64) int {
	short := w1 != longWords[1]
	tag := h &^ (1<<32 - 1)
	i := h & s.mask
	for {
		sl := &s.slots[i]
		if sl.e == 0 {
			id := s.len()
			s.data = append(s.data, b...)
			s.offs = append(s.offs, len(s.data))
			*sl = islot{w0, w1, tag | uint64(id+1)}
			if s.len() >= len(s.slots)*3/4 {
				s.grow()
			}
			return id
		}
		if sl.w0 == w0 && sl.w1 == w1 {
			id := int(sl.e&(1<<32-1)) - 1
			if short || sl.e&^(1<<32-1) == tag && string(s.get(id)) == string(b) {
				return id
			}
		}
		i = (i + 1) & s.mask
	}
}

func (s *interner) grow() {
	old := s.slots
	size := len(old) * 2
	s.slots = make([]islot, size)
	s.mask = uint64(size - 1)
	for _, sl := range old {
		if sl.e == 0 {
			continue
		}
		var h uint64
		if sl.w0 == longWords[0] && sl.w1 == longWords[1] {
			h = s.hash(s.get(int(sl.e&(1<<32-1))-1), 0, 0, false)
		} else {
			h = s.hash(nil, sl.w0, sl.w1, true)
		}
		i := h & s.mask
		for s.slots[i].e != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = sl
	}
}
