package frame

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Owned partitions of the key space. When a group-by with several workers
// has keys that are nearly all distinct (db-benchmark q10: 10^7 groups in
// 10^7 rows), each worker's table would hold most groups, and merging
// them would cost about as much as building them. Instead every worker
// reads every batch and folds in only the rows it owns: those whose keys'
// hash, times the number of workers, has the worker's number in its top
// bits. The workers' tables then hold disjoint groups, and are put
// together without a lookup (mergeDisjoint). The hash is of the keys'
// values, the same in every table (a table's codes are its own): of a
// number's raw value, of a string's bytes (its id is its table's own);
// dictionary keys do not take this path. The tables' string ids are put
// in table 0's terms at the merge (stringRemap: for keys such as
// db-benchmark's, a few thousand distinct strings).
//
// The path is taken when the first batch has at least ownedMinRows rows
// and its first ownedSample rows have at least ownedDistinct of their
// keys distinct (about 4·10^5 equally likely keys or more), and there
// are at least ownedMinWorkers workers. With fewer, such keys are folded
// into one table by one worker, sized for them, as the reader decodes the
// next batch; the other worker joins the result's columns. On two cores
// that is faster: the owned build costs each worker a hash and a gather
// of every row, and the reader's decoding takes a core of its own
// (db-benchmark q10, int keys, 2 workers: 1.21-1.26 s owned, 0.94-1.09
// one table; half the CPU, 170 MiB less at the peak).

var (
	ownedMinRows  = 1 << 14
	ownedSample   = 1 << 13
	ownedDistinct = 0.99
	// ownedMinWorkers is the fewest workers that take owned partitions
	ownedMinWorkers = 3
	// ownedForce (tests) takes the path whenever the keys allow it
	ownedForce bool
	// ownedRuns counts the group-bys that took it (tests)
	ownedRuns atomic.Int64
	// singleRuns counts the group-bys of such keys and fewer workers that
	// built one table (tests)
	singleRuns atomic.Int64
	// reservedGroups is the groups the last sized tables were sized for
	// (tests)
	reservedGroups atomic.Int64
)

// The row hash: h = (h ^ raw) * mixK per key column, from mixK; a null
// is nullMix (which may equal a value: the hash only chooses an owner).
const (
	mixK    = 0x9e3779b97f4a7c15
	nullMix = 0x6a09e667f3bcc909
)

// ownable reports whether n's keys can be hashed the same in every table
// (numbers, bools, dates and times, strings and binaries; not
// dictionaries).
func ownable(n *node) bool {
	if len(n.keys) == 0 {
		return false
	}
	for _, i := range n.keys {
		kind, err := keyable(n.in.schema.Field(i).Type)
		if err != nil || kind == keyDict {
			return false
		}
	}
	return true
}

// rowHashes sets h[i] to the hash of row i's key values (cols by input
// column index), read through k's columns (a string by its bytes).
func rowHashes(k *keyer, keys []int, cols []arrow.Array, h []uint64) error {
	for i := range h {
		h[i] = mixK
	}
	for c, i := range keys {
		if k.cols[c].kind == keyStr {
			if err := mixStrings(h, cols[i]); err != nil {
				return fmt.Errorf("frame.GroupBy: %w", err)
			}
			continue
		}
		kv, err := k.cols[c].values(cols[i])
		if err != nil {
			return fmt.Errorf("frame.GroupBy: %w", err)
		}
		kv.v.mix(h, kv.valid, kv.off)
	}
	return nil
}

// mixStrings mixes the hash of each row's bytes (nullMix: null) of a
// utf8 or binary column into h.
func mixStrings(h []uint64, a arrow.Array) error {
	var valid []byte
	if a.NullN() > 0 {
		valid = a.NullBitmapBytes()
	}
	off := a.Data().Offset()
	switch x := a.(type) {
	case *arrowarray.String:
		mixBytes(h, x.ValueOffsets(), x.ValueBytes(), valid, off)
	case *arrowarray.LargeString:
		mixBytes(h, x.ValueOffsets(), x.ValueBytes(), valid, off)
	case *arrowarray.Binary:
		mixBytes(h, x.ValueOffsets(), x.ValueBytes(), valid, off)
	case *arrowarray.LargeBinary:
		mixBytes(h, x.ValueOffsets(), x.ValueBytes(), valid, off)
	default:
		return fmt.Errorf("%w: a string key of type %s", ErrType, typeName(a.DataType()))
	}
	return nil
}

// ownSeed seeds the hash of a string key's bytes in every table.
var ownSeed = maphash.MakeSeed()

func mixBytes[O int32 | int64](h []uint64, offs []O, data []byte, valid []byte, off int) {
	base := offs[0] // data starts at the first row's bytes
	for i := range h {
		u := uint64(nullMix)
		if valid == nil || bitutil.BitIsSet(valid, off+i) {
			b := data[offs[i]-base : offs[i+1]-base]
			if w0, w1, short := shortWords(b); short {
				u = hash64(w0*mixK ^ w1)
			} else {
				u = maphash.Bytes(ownSeed, b)
			}
		}
		h[i] = (h[i] ^ u) * mixK
	}
}

// owner is the worker (of workers) that owns rows of hash h.
func owner(h uint64, workers int) int { return int((h >> 32) * uint64(workers) >> 32) }

// highCardinality reports whether the keys of batch rec look nearly all
// distinct: of its first ownedSample rows, at least ownedDistinct (it
// stops at the repeat too many, after a few hundred rows for keys of a
// hundred values). When they do, keys is an estimate of how many distinct
// keys there are (+Inf when the sample has no repeat): r repeats among s
// rows drawn from K equally likely keys come to about s²/2K.
func highCardinality(n *node, rec arrow.Record) (ok bool, keys float64, err error) {
	rows := int(rec.NumRows())
	if rows < ownedMinRows {
		return false, 0, nil
	}
	s := min(rows, ownedSample)
	cols := make([]arrow.Array, rec.NumCols())
	for _, i := range n.keys {
		cols[i] = arrowarray.NewSlice(rec.Column(i), 0, int64(s))
		defer cols[i].Release()
	}
	var types []arrow.DataType
	for _, i := range n.keys {
		types = append(types, n.in.schema.Field(i).Type)
	}
	h := make([]uint64, s)
	if err := rowHashes(newKeyer(types), n.keys, cols, h); err != nil {
		return false, 0, err
	}
	size := 1
	for size < 2*s {
		size *= 2
	}
	set := make([]uint64, size) // hash | 1 (0: empty)
	mask := uint64(size - 1)
	allowed := int((1 - ownedDistinct) * float64(s))
	repeats := 0
	for _, x := range h {
		x |= 1
		i := (x >> 32) & mask
		for set[i] != 0 && set[i] != x {
			i = (i + 1) & mask
		}
		if set[i] == x {
			if repeats++; repeats > allowed {
				return false, 0, nil
			}
			continue
		}
		set[i] = x
	}
	if repeats == 0 {
		return true, math.Inf(1), nil
	}
	return true, float64(s) * float64(s) / (2 * float64(repeats)), nil
}

// expectedGroups is about how many groups rows rows of keys drawn from
// about keys equally likely values make: keys·(1 - e^(-rows/keys)).
func expectedGroups(rows int64, keys float64) int {
	if rows <= 0 {
		return 0
	}
	g := float64(rows)
	if !math.IsInf(keys, 1) && keys > 0 {
		g = keys * -math.Expm1(-float64(rows)/keys)
	}
	return int(min(g, float64(rows), maxGroups))
}

// reserveOwned sizes the tables of an owned-partitions group-by for
// groups groups in all: each worker's keyer for its share (and a little
// more: shares vary), and table 0, which the others are merged into
// (mergeDisjoint), for all of them in its states and first rows, so that
// neither the build nor the merge copies a table to grow it.
func reserveOwned(tables []*gtable, groups int) {
	if groups <= 0 {
		return
	}
	reservedGroups.Store(int64(groups))
	share := groups/len(tables) + groups/len(tables)/50 + 1024
	for w, t := range tables {
		n := share
		if w == 0 {
			n = groups
		}
		t.k.reserve(share)
		t.k.first = reserveTo(t.k.first, n)
		t.k.pkeys = reserveTo(t.k.pkeys, n)
		for _, s := range t.states {
			if r, ok := s.(reserver); ok {
				r.reserve(n)
			}
		}
	}
}

// ownScratch is a worker's buffers for the rows it owns in a batch.
type ownScratch struct {
	h    []uint64
	idx  []int64
	at   []int64
	cols []arrow.Array
	pick []bool    // the input columns the step reads
	mem  *recycler // the gathered columns' buffers, batch after batch
}

// release gives the scratch's buffers back.
func (o *ownScratch) release() {
	if o.mem != nil {
		o.mem.release()
	}
}

// addOwned folds in the rows of batch rec (row 0 at position pos) that
// worker w of workers owns.
func (t *gtable) addOwned(mem memory.Allocator, rec arrow.Record, pos int64, w, workers int, o *ownScratch) error {
	rows := int(rec.NumRows())
	if o.pick == nil {
		o.pick = make([]bool, rec.NumCols())
		for _, i := range t.n.keys {
			o.pick[i] = true
		}
		for _, p := range t.n.aggs {
			if p.col >= 0 {
				o.pick[p.col] = true
			}
			if p.op == aggCorr {
				o.pick[p.col2] = true
			}
		}
	}
	o.h = slices.Grow(o.h[:0], rows)[:rows]
	if err := rowHashes(t.k, t.n.keys, rec.Columns(), o.h); err != nil {
		return err
	}
	// the owned rows' indices and positions, without a branch per row
	o.idx = slices.Grow(o.idx[:0], rows)[:rows]
	idx := o.idx
	j := 0
	for i, h := range o.h {
		idx[j] = int64(i)
		if owner(h, workers) == w {
			j++
		}
	}
	idx = idx[:j]
	if j == 0 {
		return nil
	}
	if j == rows {
		return t.addCols(rec.Columns(), rows, pos, nil)
	}
	o.at = slices.Grow(o.at[:0], j)[:j]
	for k, i := range idx {
		o.at[k] = pos + i
	}
	o.cols = slices.Grow(o.cols[:0], len(o.pick))[:len(o.pick)]
	clear(o.cols)
	defer func() {
		for _, c := range o.cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	if o.mem == nil {
		o.mem = newRecycler(mem)
	}
	if i, err := takeColumns(context.Background(), o.mem, rec.Columns(), o.pick, idx, o.cols); err != nil {
		return fmt.Errorf("frame.GroupBy: taking the rows of column %q: %w", rec.ColumnName(i), err)
	}
	return t.addCols(o.cols, j, pos, o.at)
}

// mergeDisjoint puts tables[1:] into tables[0] when no two tables share a
// group: each table's groups follow the ones before, keys and states
// copied in order.
func mergeDisjoint(tables []*gtable, workers int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	nt := len(tables)
	t0 := tables[0]
	for _, t := range tables {
		t.k.slots, t.k.dir = nil, nil // no more lookups: they can go
	}
	remap := stringRemap(tables)
	offs := make([]int, nt+1)
	offs[1] = t0.k.groups()
	ms := make([][]int32, nt)
	for w := 1; w < nt; w++ {
		n := tables[w].k.groups()
		if offs[w]+n > maxGroups {
			return errTooManyGroups
		}
		m := make([]int32, n)
		for g := range m {
			m[g] = int32(offs[w] + g)
		}
		ms[w] = m
		offs[w+1] = offs[w] + n
	}
	groups := offs[nt]
	if cl, ok := commonLayout(tables, remap); ok {
		// (table 0's keys are repacked in place when it has the room)
		var q []uint64
		if t0.k.mode != keyWide && cap(t0.k.pkeys) >= groups {
			q = t0.k.pkeys[:groups]
		} else {
			q = make([]uint64, groups)
		}
		parallel(workers, nt, func(w int) {
			repackTo(tables[w].k, remap[w], cl, q[offs[w]:offs[w+1]])
		})
		pk := &packedKeys{keys: q, lo: cl.lo, shift: cl.shift}
		for _, b := range cl.bits {
			pk.mask = append(pk.mask, uint64(1)<<b-1)
		}
		return mergeStates(tables, workers, remap, ms, nil, pk, groups)
	}
	src := make([]uint64, 0, groups-offs[1])
	for w := 1; w < nt; w++ {
		for g := range ms[w] {
			src = append(src, uint64(w)<<32|uint64(g))
		}
	}
	return mergeStates(tables, workers, remap, ms, src, nil, groups)
}
