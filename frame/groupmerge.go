package frame

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/bitutil"
)

// Workers' tables of many groups merge by partitions, in parallel: every
// group of every table goes to the partition its key's hash names (the
// hash of its raw values, strings as ids of the largest table's
// interners), and each partition's groups are deduplicated in a table of
// their own (a keyer sized to the partition, so that its slots stay in
// cache), partitions taken by the workers one at a time. The largest
// table keeps its group ids; a group the others add gets the next id, in
// order of partition. The aggregate states then merge into the largest
// table's (the aggregates one per worker, at once), and the result reads
// a group's key from the table that first had it (mergedKeys).

// partMergeMin is the fewest groups, in the tables merged into the
// largest, for which the tables merge by partitions (tests lower it).
var partMergeMin = 1 << 14

// partMerges counts the merges by partitions (for tests).
var partMerges atomic.Int64

// partMinBits is the fewest partition bits (tests raise it).
var partMinBits = 2

// partBits returns log2 of the partitions for a merge of groups groups:
// about 8Ki groups a partition, 4 to 1024 partitions.
func partBits(groups int) uint {
	b := uint(bits.Len64(uint64(groups / 8192)))
	return min(max(b, uint(partMinBits)), 10)
}

// mergedKeys reads the keys of a merged table: group g < g0 is the
// largest table's, the others are src[g-g0] (table << 32 | group).
type mergedKeys struct {
	pk    *packedKeys // the keys packed in a common layout (mergePacked), else:
	tabs  []*keyer
	g0    int
	src   []uint64
	remap [][][]uint64 // [table][column]: a string id of the table's -> the largest table's (nil: not strings)
}

func (m *mergedKeys) raw(g, c int) (uint64, bool) {
	if m.pk != nil {
		return m.pk.raw(g, c)
	}
	if g < m.g0 {
		return m.tabs[0].raw(g, c)
	}
	s := m.src[g-m.g0]
	w := int(s >> 32)
	u, ok := m.tabs[w].raw(int(uint32(s)), c)
	if ok && m.remap[w][c] != nil {
		u = m.remap[w][c][u]
	}
	return u, ok
}

// packedKeys are groups' keys packed in one layout.
type packedKeys struct {
	keys  []uint64
	lo    []uint64
	shift []uint
	mask  []uint64
}

func (pk *packedKeys) raw(g, c int) (uint64, bool) {
	code := (pk.keys[g] >> pk.shift[c]) & pk.mask[c]
	if code == 0 {
		return 0, false
	}
	return code - 1 + pk.lo[c], true
}

// packed returns k's keys as packedKeys (false: k's keys are wide).
func (k *keyer) packed() (*packedKeys, bool) {
	if k.mode == keyWide {
		return nil, false
	}
	pk := &packedKeys{keys: k.pkeys}
	for _, c := range k.cols {
		pk.lo = append(pk.lo, c.lo)
		pk.shift = append(pk.shift, c.shift)
		pk.mask = append(pk.mask, c.cmask())
	}
	return pk, true
}

// keySource reads a table's groups' keys as raw values.
type keySource interface {
	raw(g, c int) (uint64, bool)
}

// rawRow sets row to group g's raw values (strings remapped) and null
// flags, as a wide key.
func rawRow(k *keyer, g int, remap [][]uint64, row []uint64) {
	clear(row)
	nc := len(k.cols)
	for c := range k.cols {
		u, ok := k.raw(g, c)
		if !ok {
			row[nc+c/64] |= 1 << (c % 64)
			continue
		}
		if remap[c] != nil {
			u = remap[c][u]
		}
		row[c] = u
	}
}

// parallel runs f(i) for i in [0, n) on up to workers goroutines. A
// panic in f is raised again in the caller's goroutine (after the others
// stop taking work), where its recover turns it into an error.
func parallel(workers, n int, f func(i int)) {
	if workers <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var failed any
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { failed = r })
					next.Store(int64(n)) // the others take no more
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		panic(failed)
	}
}

// stringRemap returns, for each table w >= 1 and string key column c, the
// ids of its interner's strings in table 0's (interning those table 0 has
// not seen): remap[w][c][id] (nil for other columns and for table 0).
func stringRemap(tables []*gtable) [][][]uint64 {
	t0 := tables[0]
	remap := make([][][]uint64, len(tables))
	for w := range tables {
		remap[w] = make([][]uint64, len(t0.k.cols))
		if w == 0 {
			continue
		}
		for c, col := range t0.k.cols {
			if col.strs == nil {
				continue
			}
			os := tables[w].k.cols[c].strs
			ids := make([]uint64, os.len())
			for i := range ids {
				ids[i] = uint64(col.strs.id(os.get(i)))
			}
			remap[w][c] = ids
		}
	}
	return remap
}

// mergeParts merges tables[1:] into tables[0] (the largest) by
// partitions, on workers goroutines.
func mergeParts(tables []*gtable, workers int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	partMerges.Add(1)
	t0 := tables[0]
	nt := len(tables)
	nc := len(t0.k.cols)
	remap := stringRemap(tables)
	total := 0
	for _, t := range tables {
		total += t.k.groups()
	}
	if cl, ok := commonLayout(tables, remap); ok && !partRowsOnly {
		return mergePacked(tables, workers, remap, cl, total)
	}
	pb := partBits(total)
	np := 1 << pb
	// each table's groups in order of partition: part[w][start[w][p]:start[w][p+1]]
	part := make([][]int32, nt)
	start := make([][]int, nt)
	pof := make([][]uint16, nt)
	parallel(workers, nt, func(w int) {
		k := tables[w].k
		n := k.groups()
		ps := make([]uint16, n)
		cnt := make([]int, np+1)
		row := make([]uint64, k.w)
		for g := 0; g < n; g++ {
			rawRow(k, g, remap[w], row)
			p := uint16(hashWords(row) >> (64 - pb))
			ps[g] = p
			cnt[p+1]++
		}
		for p := 1; p <= np; p++ {
			cnt[p] += cnt[p-1]
		}
		st := append([]int(nil), cnt...)
		gs := make([]int32, n)
		for g, p := range ps {
			gs[cnt[p]] = int32(g)
			cnt[p]++
		}
		part[w], start[w], pof[w] = gs, st, ps
	})
	// each partition's groups deduplicated: a group of table w >= 1 maps to
	// the largest table's id (>= 0) or to -(1 + its index among the
	// partition's new groups)
	ms := make([][]int32, nt)
	for w := 1; w < nt; w++ {
		ms[w] = make([]int32, tables[w].k.groups())
	}
	newSrc := make([][]uint64, np)
	errs := make([]error, np)
	parallel(workers, np, func(p int) {
		rows := 0
		for w := range tables {
			rows += start[w][p+1] - start[w][p]
		}
		n0 := start[0][p+1] - start[0][p]
		k := newKeyer(t0.types)
		kv := make([]keyVals, nc)
		raws := make([][]uint64, nc)
		valids := make([][]byte, nc)
		for c := range kv {
			raws[c] = make([]uint64, rows)
			valids[c] = make([]byte, bitutil.BytesForBits(int64(rows)))
		}
		row := make([]uint64, k.w)
		nulls := make([]bool, nc)
		i := 0
		for w, t := range tables {
			for _, g := range part[w][start[w][p]:start[w][p+1]] {
				rawRow(t.k, int(g), remap[w], row)
				for c := 0; c < nc; c++ {
					if row[nc+c/64]&(1<<(c%64)) != 0 {
						nulls[c] = true
						continue
					}
					raws[c][i] = row[c]
					bitutil.SetBit(valids[c], i)
				}
				i++
			}
		}
		for c, col := range k.cols {
			if nulls[c] {
				kv[c].valid = valids[c]
			}
			if col.signed {
				kv[c].v = intsOf[int64](unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(raws[c]))), rows))
			} else {
				kv[c].v = intsOf[uint64](raws[c])
			}
		}
		loc := make([]int32, rows)
		if err := k.assign(kv, rows, 0, nil, loc); err != nil {
			errs[p] = err
			return
		}
		for j := 0; j < n0; j++ {
			if loc[j] != int32(j) {
				errs[p] = fmt.Errorf("frame.GroupBy: internal error: a merged table's groups are not distinct")
				return
			}
		}
		var src []uint64
		i = n0
		gs0 := part[0][start[0][p]:start[0][p+1]]
		for w := 1; w < nt; w++ {
			m := ms[w]
			for _, g := range part[w][start[w][p]:start[w][p+1]] {
				l := int(loc[i])
				i++
				if l < n0 {
					m[g] = gs0[l]
					continue
				}
				if l-n0 == len(src) {
					src = append(src, uint64(w)<<32|uint64(g))
				}
				m[g] = -int32(l-n0) - 1
			}
		}
		newSrc[p] = src
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	part, start = nil, nil
	g0 := t0.k.groups()
	base := make([]int, np+1)
	for p := 0; p < np; p++ {
		base[p+1] = base[p] + len(newSrc[p])
	}
	groups := g0 + base[np]
	if groups > maxGroups {
		return errTooManyGroups
	}
	src := make([]uint64, 0, base[np])
	for _, s := range newSrc {
		src = append(src, s...)
	}
	newSrc = nil
	parallel(workers, nt-1, func(i int) {
		w := i + 1
		m, ps := ms[w], pof[w]
		for g, d := range m {
			if d < 0 {
				m[g] = int32(g0 + base[ps[g]] + int(-d-1))
			}
		}
	})
	pof = nil
	return mergeStates(tables, workers, remap, ms, src, nil, groups)
}

// mergeStates ends a merge: o's group g is ms[o][g] in the largest table
// (which, with the new groups, has groups groups, the new ones from src).
func mergeStates(tables []*gtable, workers int, remap [][][]uint64, ms [][]int32, src []uint64, pk *packedKeys, groups int) error {
	t0 := tables[0]
	nt := len(tables)
	g0 := t0.k.groups()
	first := t0.k.first // (extended in place when it has the room)
	if cap(first) >= groups {
		first = first[:groups]
	} else {
		first = make([]int64, groups)
		copy(first, t0.k.first)
	}
	for g := g0; g < groups; g++ {
		first[g] = math.MaxInt64
	}
	for w := 1; w < nt; w++ {
		of := tables[w].k.first
		for g, d := range ms[w] {
			first[d] = min(first[d], of[g])
		}
	}
	for _, s := range t0.states {
		if r, ok := s.(reserver); ok {
			r.reserve(groups) // (grow would double the capacity)
		}
		s.grow(groups)
	}
	serrs := make([]error, len(t0.states))
	parallel(workers, len(t0.states), func(a int) {
		defer func() {
			if r := recover(); r != nil {
				serrs[a] = fmt.Errorf("frame.GroupBy: internal error: %v", r)
			}
		}()
		for w := 1; w < nt; w++ {
			if err := t0.states[a].merge(tables[w].states[a], ms[w]); err != nil {
				serrs[a] = fmt.Errorf("frame.Agg %v: %w", t0.n.aggs[a].Agg, err)
				return
			}
		}
	})
	for _, err := range serrs {
		if err != nil {
			return err
		}
	}
	keys := &mergedKeys{g0: g0, src: src, remap: remap, pk: pk}
	for w, t := range tables {
		if pk == nil {
			keys.tabs = append(keys.tabs, t.k)
		}
		if w > 0 {
			t.states = nil // they can go
			if pk != nil {
				t.k = nil
			}
		}
	}
	if pk != nil { // the largest table's index can go too
		t0.k.pkeys, t0.k.slots, t0.k.dir = nil, nil, nil
	}
	t0.merged, t0.mfirst = keys, first
	return nil
}

// partRowsOnly (tests) merges by partitions of raw rows even when the
// keys could be packed.
var partRowsOnly bool

// packLayout is a packed layout common to the tables merged: column c's
// code is raw - lo[c] + 1 (0: null) at shift[c].
type packLayout struct {
	lo    []uint64
	shift []uint
	bits  []uint
}

// commonLayout returns a packed layout covering every table's keys
// (strings as the largest table's ids), if there is one: no table has
// wide keys and the codes fit in 64 bits.
func commonLayout(tables []*gtable, remap [][][]uint64) (packLayout, bool) {
	t0 := tables[0]
	nc := len(t0.k.cols)
	cl := packLayout{lo: make([]uint64, nc), shift: make([]uint, nc), bits: make([]uint, nc)}
	for _, t := range tables {
		if t.k.mode == keyWide {
			return cl, false
		}
	}
	var total uint
	for c, col := range t0.k.cols {
		var cnt uint64
		if col.strs != nil {
			cl.lo[c], cnt = 0, uint64(col.strs.len())
		} else {
			seen := false
			var lo, hi uint64
			for _, t := range tables {
				tc := t.k.cols[c]
				if !tc.seen {
					continue
				}
				if !seen {
					lo, hi, seen = tc.min, tc.max, true
					continue
				}
				if tc.less(tc.min, lo) {
					lo = tc.min
				}
				if tc.less(hi, tc.max) {
					hi = tc.max
				}
			}
			if seen {
				cl.lo[c], cnt = lo, hi-lo+1
				if cnt == 0 {
					return cl, false
				}
			}
		}
		b := uint(bits.Len64(cnt))
		if b >= 64 {
			return cl, false
		}
		cl.shift[c], cl.bits[c] = total, b
		total += b
	}
	return cl, total <= 64
}

// repackTo returns table k's groups' keys in layout cl.
func repackTo(k *keyer, remap [][]uint64, cl packLayout, out []uint64) {
	type conv struct {
		sh, csh    uint
		mask, base uint64 // code - 1 + lo - clo + 1 = code + base
		ids        []uint64
		lo, clo    uint64
	}
	cs := make([]conv, len(k.cols))
	for c, col := range k.cols {
		cs[c] = conv{sh: col.shift, csh: cl.shift[c], mask: col.cmask(), base: col.lo - cl.lo[c], ids: remap[c], lo: col.lo, clo: cl.lo[c]}
	}
	for g, p := range k.pkeys {
		var q uint64
		for i := range cs {
			c := &cs[i]
			code := (p >> c.sh) & c.mask
			if code == 0 {
				continue
			}
			if c.ids != nil {
				code = c.ids[code-1+c.lo] - c.clo + 1
			} else {
				code += c.base
			}
			q |= code << c.csh
		}
		out[g] = q
	}
}

// mergePacked is mergeParts over keys packed in a common layout: each
// partition's groups are deduplicated in a small open-addressing table.
func mergePacked(tables []*gtable, workers int, remap [][][]uint64, cl packLayout, total int) error {
	nt := len(tables)
	pb := partBits(total)
	np := 1 << pb
	// each table's keys in order of partition, with their group ids
	pkeys := make([][]uint64, nt)
	pgids := make([][]int32, nt)
	var q0 []uint64
	start := make([][]int, nt)
	pof := make([][]uint16, nt)
	parallel(workers, nt, func(w int) {
		k := tables[w].k
		n := k.groups()
		c := n
		if w == 0 {
			c = total // the merged keys, the new ones after
		}
		qs := make([]uint64, n, c)
		repackTo(k, remap[w], cl, qs)
		if w == 0 {
			q0 = qs
		}
		ps := make([]uint16, n)
		cnt := make([]int, np+1)
		for g, q := range qs {
			p := uint16(hashKey(q) >> (64 - pb))
			ps[g] = p
			cnt[p+1]++
		}
		for p := 1; p <= np; p++ {
			cnt[p] += cnt[p-1]
		}
		st := append([]int(nil), cnt...)
		ks := make([]uint64, n)
		gs := make([]int32, n)
		for g, p := range ps {
			ks[cnt[p]], gs[cnt[p]] = qs[g], int32(g)
			cnt[p]++
		}
		pkeys[w], pgids[w], start[w], pof[w] = ks, gs, st, ps
	})
	ms := make([][]int32, nt)
	for w := 1; w < nt; w++ {
		ms[w] = make([]int32, tables[w].k.groups())
	}
	newSrc := make([][]uint64, np) // each partition's new keys
	parallel(workers, np, func(p int) {
		rows := 0
		for w := range tables {
			rows += start[w][p+1] - start[w][p]
		}
		size := 16
		for size < 2*rows {
			size *= 2
		}
		mask := uint64(size - 1)
		slots := make([]int32, size) // local id + 1; 0: empty
		keys := make([]uint64, 0, rows)
		k0 := pkeys[0][start[0][p]:start[0][p+1]]
		for l, q := range k0 {
			h := hashKey(q) & mask
			for slots[h] != 0 {
				h = (h + 1) & mask
			}
			slots[h] = int32(l + 1)
			keys = append(keys, q)
		}
		n0 := len(k0)
		g0s := pgids[0][start[0][p]:start[0][p+1]]
		var src []uint64
		for w := 1; w < nt; w++ {
			m := ms[w]
			ks := pkeys[w][start[w][p]:start[w][p+1]]
			gs := pgids[w][start[w][p]:start[w][p+1]]
			for i, q := range ks {
				h := hashKey(q) & mask
				for {
					s := slots[h]
					if s == 0 {
						l := len(keys)
						slots[h] = int32(l + 1)
						keys = append(keys, q)
						src = append(src, q)
						m[gs[i]] = -int32(l-n0) - 1
						break
					}
					if keys[s-1] == q {
						if l := int(s - 1); l < n0 {
							m[gs[i]] = g0s[l]
						} else {
							m[gs[i]] = -int32(l-n0) - 1
						}
						break
					}
					h = (h + 1) & mask
				}
			}
		}
		newSrc[p] = src
	})
	pkeys, pgids, start = nil, nil, nil
	g0 := tables[0].k.groups()
	base := make([]int, np+1)
	for p := 0; p < np; p++ {
		base[p+1] = base[p] + len(newSrc[p])
	}
	groups := g0 + base[np]
	if groups > maxGroups {
		return errTooManyGroups
	}
	for _, s := range newSrc {
		q0 = append(q0, s...)
	}
	newSrc = nil
	parallel(workers, nt-1, func(i int) {
		w := i + 1
		m, ps := ms[w], pof[w]
		for g, d := range m {
			if d < 0 {
				m[g] = int32(g0 + base[ps[g]] + int(-d-1))
			}
		}
	})
	pof = nil
	pk := &packedKeys{keys: q0, lo: cl.lo, shift: cl.shift}
	for _, b := range cl.bits {
		pk.mask = append(pk.mask, uint64(1)<<b-1)
	}
	return mergeStates(tables, workers, remap, ms, nil, pk, groups)
}
