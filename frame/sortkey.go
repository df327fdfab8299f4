package frame

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/internal/half"
)

// sortCol is one sort key's column in the form rows are ordered by: each
// row's value as a uint64 whose unsigned order is the key's order
// (direction applied: ints with the sign bit flipped, floats by their bits
// with -0 as +0 and every NaN one value above +Inf, dictionary codes by the
// rank of their string, strings by their first 8 bytes), the string itself
// where 8 bytes do not decide, and the null rows, which hold 0 and are
// ordered apart (last, or first with NullsFirst).
type sortCol struct {
	u        []uint64
	str      func(i int) string // strings: the full value (nil otherwise)
	desc     bool               // strings: compare str descending
	nulls    []bool             // nil when the column has no null row
	nullRank int                // +1: nulls after the values, -1: before
}

// newSortCol reads column c for key k.
func newSortCol(c arrow.Array, k SortKey) sortCol {
	n := c.Len()
	s := sortCol{u: make([]uint64, n), nullRank: 1, desc: k.Desc}
	if k.NullsFirst {
		s.nullRank = -1
	}
	if c.NullN() > 0 {
		s.nulls = make([]bool, n)
		for i := range s.nulls {
			s.nulls[i] = c.IsNull(i)
		}
	}
	u := s.u
	switch a := c.(type) {
	case *arrowarray.Dictionary:
		rank := dictRanks(a.Dictionary())
		for i := range u {
			if s.nulls == nil || !s.nulls[i] {
				u[i] = rank[a.GetValueIndex(i)]
			}
		}
	case *arrowarray.String:
		s.str = a.Value
	case *arrowarray.LargeString:
		s.str = a.Value
	case *arrowarray.Binary:
		s.str = func(i int) string { return string(a.Value(i)) }
	case *arrowarray.LargeBinary:
		s.str = func(i int) string { return string(a.Value(i)) }
	case *arrowarray.Boolean:
		for i := range u {
			if a.Value(i) {
				u[i] = 1
			}
		}
	case *arrowarray.Float16:
		for i := range u {
			u[i] = floatKey(half.ToFloat64(a.Value(i).Uint16()))
		}
	case *arrowarray.Float32:
		for i, v := range a.Float32Values() {
			u[i] = floatKey(float64(v))
		}
	case *arrowarray.Float64:
		for i, v := range a.Float64Values() {
			u[i] = floatKey(v)
		}
	default:
		intKeys(c, u)
	}
	if s.str != nil {
		for i := range u {
			u[i] = strPrefix(s.str(i))
		}
	}
	for i := range u {
		if s.nulls != nil && s.nulls[i] {
			u[i] = 0
		} else if k.Desc {
			u[i] = ^u[i]
		}
	}
	return s
}

// intKeys writes the order keys of an integer-like column (ints, uints,
// dates, times, timestamps, durations) to u.
func intKeys(c arrow.Array, u []uint64) {
	d := c.Data()
	off, n := d.Offset(), d.Len()
	if n == 0 || len(d.Buffers()) < 2 || d.Buffers()[1] == nil {
		return
	}
	buf := d.Buffers()[1].Bytes()
	const flip = 1 << 63
	switch c.DataType().ID() {
	case arrow.INT8:
		for i, v := range arrow.Int8Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(int64(v)) ^ flip
		}
	case arrow.INT16:
		for i, v := range arrow.Int16Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(int64(v)) ^ flip
		}
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		for i, v := range arrow.Int32Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(int64(v)) ^ flip
		}
	case arrow.UINT8:
		for i, v := range arrow.Uint8Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(v)
		}
	case arrow.UINT16:
		for i, v := range arrow.Uint16Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(v)
		}
	case arrow.UINT32:
		for i, v := range arrow.Uint32Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(v)
		}
	case arrow.UINT64:
		copy(u, arrow.Uint64Traits.CastFromBytes(buf)[off:off+n])
	default: // INT64, DATE64, TIME64, TIMESTAMP, DURATION
		for i, v := range arrow.Int64Traits.CastFromBytes(buf)[off : off+n] {
			u[i] = uint64(v) ^ flip
		}
	}
}

// floatKey maps v to a uint64 of the same order: -0 as +0, every NaN one
// value above +Inf.
func floatKey(v float64) uint64 {
	if v != v {
		return math.MaxUint64
	}
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// strPrefix is the first 8 bytes of s, big-endian, zero-padded: its order
// is the strings' byte order as far as 8 bytes go.
func strPrefix(s string) uint64 {
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 8
		if i < len(s) {
			p |= uint64(s[i])
		}
	}
	return p
}

// dictRanks gives each entry of a string dictionary the rank of its value
// (equal values, equal ranks; a null entry above every value).
func dictRanks(dict arrow.Array) []uint64 {
	n := dict.Len()
	val := func(i int) string { return "" }
	switch d := dict.(type) {
	case *arrowarray.String:
		val = d.Value
	case *arrowarray.LargeString:
		val = d.Value
	case *arrowarray.Binary:
		val = func(i int) string { return string(d.Value(i)) }
	case *arrowarray.LargeBinary:
		val = func(i int) string { return string(d.Value(i)) }
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		na, nb := dict.IsNull(a), dict.IsNull(b)
		switch {
		case na || nb:
			return cmp.Compare(b2i(na), b2i(nb))
		}
		return strings.Compare(val(a), val(b))
	})
	rank := make([]uint64, n)
	r := uint64(0)
	for k, i := range order {
		if k > 0 {
			p := order[k-1]
			if dict.IsNull(i) != dict.IsNull(p) || (!dict.IsNull(i) && val(i) != val(p)) {
				r++
			}
		}
		rank[i] = r
	}
	return rank
}

// compare orders rows i and j by this key alone.
func (s *sortCol) compare(i, j int) int {
	if s.nulls != nil {
		ni, nj := s.nulls[i], s.nulls[j]
		if ni || nj {
			if ni && nj {
				return 0
			}
			if ni {
				return s.nullRank
			}
			return -s.nullRank
		}
	}
	if c := cmp.Compare(s.u[i], s.u[j]); c != 0 || s.str == nil {
		return c
	}
	c := strings.Compare(s.str(i), s.str(j))
	if s.desc {
		return -c
	}
	return c
}

// rowOrder orders rows by several keys, then by their index (so that any
// sort by it is stable).
type rowOrder []sortCol

func newRowOrder(rec arrow.Record, cols []int, keys []SortKey) rowOrder {
	o := make(rowOrder, len(cols))
	for k, c := range cols {
		o[k] = newSortCol(rec.Column(c), keys[k])
	}
	return o
}

// compare orders rows i and j: the keys, then the index.
func (o rowOrder) compare(i, j int) int {
	for k := range o {
		if c := o[k].compare(i, j); c != 0 {
			return c
		}
	}
	return cmp.Compare(i, j)
}

// sort orders perm (row indices, ascending) by the keys, stably: rows that
// tie on every key keep their order.
func (o rowOrder) sort(perm []int64) {
	if len(perm) < 2 {
		return
	}
	fixed := uint64(len(perm)) <= math.MaxUint32
	for k := range o {
		fixed = fixed && o[k].str == nil
	}
	if !fixed || len(perm) < 256 {
		slices.SortFunc(perm, func(a, b int64) int { return o.compare(int(a), int(b)) })
		return
	}
	// LSD radix sort: the last key first, each pass stable
	pairs := make([]keyRow, len(perm))
	tmp := make([]keyRow, len(perm))
	for k := len(o) - 1; k >= 0; k-- {
		s := &o[k]
		for i, r := range perm {
			pairs[i] = keyRow{s.u[r], uint32(i)}
		}
		sorted := radixPairs(pairs, tmp)
		next := make([]int64, len(perm))
		for i, p := range sorted {
			next[i] = perm[p.row]
		}
		copy(perm, next)
		if s.nulls != nil {
			partitionNulls(perm, s.nulls, s.nullRank)
		}
	}
}

type keyRow struct {
	key uint64
	row uint32
}

// radixPairs sorts a by key, stably (least significant byte first, the
// bytes every key shares skipped), using tmp (of a's length) as scratch;
// it returns the one of the two that holds the result.
func radixPairs(a, tmp []keyRow) []keyRow {
	var counts [8][256]int
	k0 := a[0].key
	var diff uint64
	for _, p := range a {
		diff |= p.key ^ k0
		k := p.key
		for b := 0; b < 8; b++ {
			counts[b][byte(k>>(8*b))]++
		}
	}
	for b := 0; b < 8; b++ {
		shift := uint(8 * b)
		if (diff>>shift)&0xff == 0 {
			continue
		}
		c := &counts[b]
		sum := 0
		for d := range c {
			n := c[d]
			c[d] = sum
			sum += n
		}
		for _, p := range a {
			d := byte(p.key >> shift)
			tmp[c[d]] = p
			c[d]++
		}
		a, tmp = tmp, a
	}
	return a
}

// partitionNulls moves the rows of perm whose nulls entry is set to the
// end (rank 1) or the start (rank -1), each side keeping its order.
func partitionNulls(perm []int64, nulls []bool, rank int) {
	out := make([]int64, 0, len(perm))
	var rest []int64
	for _, r := range perm {
		if nulls[r] == (rank < 0) {
			out = append(out, r)
		} else {
			rest = append(rest, r)
		}
	}
	copy(perm, append(out, rest...))
}

// groupIDs numbers the distinct values of the key columns of rec (row by
// row, in order of first appearance: nulls are one group, NaNs one, -0 and
// +0 one, as GroupBy's keys): the group of each row, and the number of
// groups.
func groupIDs(rec arrow.Record, cols []int) ([]int32, int) {
	rows := int(rec.NumRows())
	ids := make([]int32, rows)
	keys := make([]sortCol, len(cols))
	for k, c := range cols {
		keys[k] = newSortCol(rec.Column(c), SortKey{})
	}
	if len(keys) == 1 && keys[0].str == nil {
		s := &keys[0]
		lo, hi := uint64(math.MaxUint64), uint64(0)
		for i, v := range s.u {
			if s.nulls == nil || !s.nulls[i] {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		next := int32(0)
		if lo <= hi && hi-lo < uint64(max(4*rows, 1<<16)) {
			// a dense range: a direct table
			slot := make([]int32, hi-lo+2) // the last: null
			for i, v := range s.u {
				j := v - lo
				if s.nulls != nil && s.nulls[i] {
					j = hi - lo + 1
				}
				if slot[j] == 0 {
					next++
					slot[j] = next
				}
				ids[i] = slot[j] - 1
			}
			return ids, int(next)
		}
		m := map[uint64]int32{}
		nullID := int32(-1)
		for i, v := range s.u {
			if s.nulls != nil && s.nulls[i] {
				if nullID < 0 {
					nullID = next
					next++
				}
				ids[i] = nullID
				continue
			}
			id, ok := m[v]
			if !ok {
				id = next
				m[v] = id
				next++
			}
			ids[i] = id
		}
		return ids, int(next)
	}
	m := map[string]int32{}
	var key []byte
	for i := 0; i < rows; i++ {
		key = key[:0]
		for k := range keys {
			s := &keys[k]
			if s.nulls != nil && s.nulls[i] {
				key = append(key, 0)
				continue
			}
			key = append(key, 1)
			if s.str != nil {
				v := s.str(i)
				key = appendUvarint(key, uint64(len(v)))
				key = append(key, v...)
			} else {
				v := s.u[i]
				for b := 0; b < 8; b++ {
					key = append(key, byte(v>>(8*b)))
				}
			}
		}
		id, ok := m[string(key)]
		if !ok {
			id = int32(len(m))
			m[string(key)] = id
		}
		ids[i] = id
	}
	return ids, len(m)
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// topPerGroupOn returns the rows that a stable sort by o followed by the
// first n rows of each group (gid, of groups groups) keeps, in that sort's
// order, without sorting the other rows: each group holds its n best rows
// so far, and a row enters when it is better than the group's worst. On up
// to workers goroutines (ranges of topSplitMin rows or more), each keeps
// the top n rows per group of its own range, then one pass over their
// candidates keeps the top n of those (the top n of a union is the top n
// of its parts' top n). The candidates come range by range, and a range's
// tied rows of a group in row order, so a tie keeps the earlier row first,
// as one pass over every row does.
func topPerGroupOn(o rowOrder, gid []int32, groups, n, workers int) []int64 {
	if n <= 0 || len(gid) == 0 {
		return nil
	}
	parts := min(workers, len(gid)/topSplitMin)
	if parts < 2 || groups*n*parts > len(gid) {
		t := newTopSlots(groups, n)
		t.scan(o, gid, 0, len(gid), nil)
		return t.order(o, groups)
	}
	tops := make([]*topSlots, parts)
	var wg sync.WaitGroup
	for w := range tops {
		lo, hi := len(gid)*w/parts, len(gid)*(w+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[w] = newTopSlots(groups, n)
			tops[w].scan(o, gid, lo, hi, nil)
		}()
	}
	wg.Wait()
	var cand []int32
	for _, t := range tops {
		for g := 0; g < groups; g++ {
			cand = append(cand, t.slots[g*n:g*n+int(t.count[g])]...)
		}
	}
	t := newTopSlots(groups, n)
	t.scan(o, gid, 0, len(cand), cand)
	return t.order(o, groups)
}

// topSplitMin is the fewest rows a goroutine of topPerGroupOn takes (a
// variable: tests lower it).
var topSplitMin = 1 << 16

// topSlots holds each group's best n rows so far, best first: slots[g*n:]
// the rows, count[g] how many, vals their keys when the order is one
// fixed-width key without nulls (kept beside the rows, not read back from
// the key column at random), and then worst[g] the top 32 bits of the
// group's worst kept key once it has n (MaxUint32 before): a row whose
// key's top bits are above it cannot enter, which a read of 4 bytes a
// group tells (10^5 groups: 400 KB, in the cache) without the counts' and
// keys' lines.
type topSlots struct {
	n     int
	slots []int32
	count []int32
	vals  []uint64
	worst []uint32
}

func newTopSlots(groups, n int) *topSlots {
	return &topSlots{n: n, slots: make([]int32, groups*n), count: make([]int32, groups)}
}

// scan offers rows lo..hi-1 (or rows[lo:hi] when rows is not nil; rows of a
// group that tie in row order) to their groups' slots.
func (t *topSlots) scan(o rowOrder, gid []int32, lo, hi int, rows []int32) {
	n, slots, count := t.n, t.slots, t.count
	if len(o) == 1 && o[0].str == nil && o[0].nulls == nil {
		u := o[0].u
		if t.vals == nil {
			t.vals = make([]uint64, len(slots))
			t.worst = make([]uint32, len(count))
			for g := range t.worst {
				t.worst[g] = math.MaxUint32
			}
		}
		vals, worst := t.vals, t.worst
		for k := lo; k < hi; k++ {
			r := k
			if rows != nil {
				r = int(rows[k])
			}
			g := gid[r]
			v := u[r]
			if uint32(v>>32) > worst[g] {
				continue
			}
			base := int(g) * n
			s, sv := slots[base:base+n], vals[base:base+n]
			c := int(count[g])
			if c == n && v >= sv[n-1] {
				continue
			}
			p := min(c, n-1)
			for p > 0 && v < sv[p-1] {
				s[p], sv[p] = s[p-1], sv[p-1]
				p--
			}
			s[p], sv[p] = int32(r), v
			if c < n {
				c++
				count[g] = int32(c)
			}
			if c == n {
				worst[g] = uint32(sv[n-1] >> 32)
			}
		}
		return
	}
	for k := lo; k < hi; k++ {
		r := k
		if rows != nil {
			r = int(rows[k])
		}
		g := gid[r]
		s := slots[int(g)*n : int(g)*n+n]
		c := int(count[g])
		if c == n && o.compare(r, int(s[n-1])) >= 0 {
			continue
		}
		// insert r before the first row it beats (rows come in index
		// order: a tie keeps the earlier row first)
		p := min(c, n-1)
		for p > 0 && o.compare(r, int(s[p-1])) < 0 {
			s[p] = s[p-1]
			p--
		}
		s[p] = int32(r)
		if c < n {
			count[g]++
		}
	}
}

// order returns the kept rows in o's order.
func (t *topSlots) order(o rowOrder, groups int) []int64 {
	out := make([]int64, 0, len(t.slots))
	for g := 0; g < groups; g++ {
		for _, r := range t.slots[g*t.n : g*t.n+int(t.count[g])] {
			out = append(out, int64(r))
		}
	}
	slices.Sort(out) // input order first: the sort keeps it among ties
	o.sort(out)
	return out
}
