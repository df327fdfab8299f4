package frame

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// gtable is a table of groups (a keyer: their keys and ids) and their
// aggregates' states.
type gtable struct {
	n       *node
	k       *keyer
	types   []arrow.DataType // the key columns' types
	states  []aggState
	gids    []int32
	kv      []keyVals
	lastPos int64
	// unordered: a batch came before one already added (the groups' first
	// rows are then kept by a pass over each batch)
	unordered bool
	// merged by partitions (mergeParts): the keys and first rows of the
	// groups (nil: the keyer's)
	merged *mergedKeys
	mfirst []int64
}

func newTable(n *node) *gtable {
	t := &gtable{n: n}
	for _, i := range n.keys {
		t.types = append(t.types, n.in.schema.Field(i).Type)
	}
	t.k = newKeyer(t.types)
	t.kv = make([]keyVals, len(n.keys))
	for _, p := range n.aggs {
		t.states = append(t.states, newState(p))
	}
	return t
}

func (t *gtable) grow() {
	for _, s := range t.states {
		s.grow(t.k.groups())
	}
}

// add folds batch rec (whose row 0 is at position pos) in.
func (t *gtable) add(rec arrow.Record, pos int64) error {
	return t.addCols(rec.Columns(), int(rec.NumRows()), pos, nil)
}

// addCols folds a batch of rows rows in: cols are its columns (by input
// column index; those the step does not read may be nil), row i at
// position at[i], or pos+i when at is nil (at ascends).
func (t *gtable) addCols(cols []arrow.Array, rows int, pos int64, at []int64) error {
	t.gids = slices.Grow(t.gids[:0], rows)[:rows]
	if pos < t.lastPos {
		t.unordered = true
	}
	t.lastPos = pos
	for c, i := range t.n.keys {
		kv, err := t.k.cols[c].values(cols[i])
		if err != nil {
			return fmt.Errorf("frame.GroupBy: %w", err)
		}
		t.kv[c] = kv
	}
	if err := t.k.assign(t.kv, rows, pos, at, t.gids); err != nil {
		return err
	}
	if t.unordered {
		first := t.k.first
		for i, g := range t.gids {
			first[g] = min(first[g], firstOf(at, pos, i))
		}
	}
	t.grow()
	for a, p := range t.n.aggs {
		var c *colData
		switch {
		case p.col < 0:
		case p.str || p.op == aggCount || p.op == aggDistinct:
			c = &colData{col: cols[p.col], elems: cols[p.col]}
		case p.op == aggCorr:
			cs := t.states[a].(*corrState)
			if err := cs.read(cols[p.col], cols[p.col2]); err != nil {
				return fmt.Errorf("frame.Agg %v: %w", p.Agg, err)
			}
		default:
			var err error
			if c, err = readColumn(cols[p.col], p.width); err != nil {
				return fmt.Errorf("frame.Agg %v: %w", p.Agg, err)
			}
		}
		if c != nil {
			c.at = at
		}
		if err := t.states[a].update(t.gids, c, pos); err != nil {
			return fmt.Errorf("frame.Agg %v: %w", p.Agg, err)
		}
	}
	return nil
}

// merge folds o's groups into t.
func (t *gtable) merge(o *gtable) error {
	n := o.k.groups()
	m := make([]int32, n)
	if err := t.k.assign(t.k.groupKeys(o.k), n, 0, o.k.first, m); err != nil {
		return err
	}
	first := t.k.first
	for g, d := range m {
		first[d] = min(first[d], o.k.first[g])
	}
	t.grow()
	for a, s := range t.states {
		if err := s.merge(o.states[a], m); err != nil {
			return fmt.Errorf("frame.Agg %v: %w", t.n.aggs[a].Agg, err)
		}
	}
	return nil
}

// result builds the output batch: groups in the order of their first row.
func (t *gtable) result(mem memory.Allocator) (arrow.Record, error) {
	return t.resultN(mem, 1, false)
}

// resultN is result with up to workers columns built at once; last: the
// table is not used after (its states go once their columns are built).
func (t *gtable) resultN(mem memory.Allocator, workers int, last bool) (arrow.Record, error) {
	if len(t.n.keys) == 0 && t.k.groups() == 0 {
		// no keys: one group, even over no rows
		if err := t.k.assign(nil, 1, 0, nil, []int32{0}); err != nil {
			return nil, err
		}
		t.grow()
	}
	var keys keySource = t.k
	first := t.k.first
	if t.merged != nil {
		keys, first = t.merged, t.mfirst
	}
	order := firstOrder(first)
	nk := len(t.types)
	cols := make([]arrow.Array, nk+len(t.states))
	errs := make([]error, len(cols))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	// (a state whose finish shares its work decides by its own size)
	stateWorkers := workers
	if len(order) < 1<<16 {
		workers = 1
	}
	// int32 and int64 keys of packed keys: built together, each group's
	// key read once (in the order of first rows, a read that misses)
	var pk *packedKeys
	if t.merged == nil {
		pk, _ = t.k.packed()
	} else {
		pk = t.merged.pk
	}
	var ints []int
	if pk != nil {
		for c, typ := range t.types {
			if id := typ.ID(); id == arrow.INT64 || id == arrow.INT32 {
				ints = append(ints, c)
			}
		}
	}
	done := make([]bool, len(cols))
	for _, c := range ints {
		done[c] = true
	}
	// the aggregates' columns first, then the keys': the states can go
	// before the keys' columns are built, and for a large result a
	// collection between lets those reuse their memory
	var aggTasks, keyTasks []int
	if len(ints) > 0 {
		keyTasks = append(keyTasks, -1)
	}
	for i := range cols {
		switch {
		case done[i]:
		case i < nk:
			keyTasks = append(keyTasks, i)
		default:
			aggTasks = append(aggTasks, i)
		}
	}
	build := func(tasks []int) {
		parallel(workers, len(tasks), func(ti int) { t.resultColumn(mem, stateWorkers, tasks[ti], ints, pk, keys, order, cols, errs) })
	}
	build(aggTasks)
	if last {
		t.states = nil
		if len(order) >= deadGroups {
			runtime.GC()
		}
	}
	build(keyTasks)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	rec := arrowarray.NewRecord(t.n.schema, cols, int64(len(order)))
	return rec, nil
}

// resultColumn builds result column i (-1: the int keys of packed keys,
// ints, together) into cols[i], or its error into errs[i].
func (t *gtable) resultColumn(mem memory.Allocator, workers, i int, ints []int, pk *packedKeys, keys keySource, order []int32, cols []arrow.Array, errs []error) {
	nk := len(t.types)
	defer func() {
		if r := recover(); r != nil {
			if i < 0 {
				i = ints[0]
			}
			errs[i] = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	if i < 0 {
		intKeyColumns(mem, workers, pk, ints, t.types, order, cols)
		return
	}
	if i < nk {
		cols[i], errs[i] = t.keyColumn(mem, keys, i, t.types[i], order)
		return
	}
	a := i - nk
	var c arrow.Array
	var err error
	if f, ok := t.states[a].(workFinisher); ok {
		c, err = f.finishN(mem, order, workers)
	} else {
		c, err = t.states[a].finish(mem, order)
	}
	if err != nil {
		errs[i] = fmt.Errorf("frame.Agg %v: %w", t.n.aggs[a].Agg, err)
		return
	}
	if want := t.n.aggs[a].field.Type; !arrow.TypeEqual(c.DataType(), want) {
		r, err := retype(c, want)
		c.Release()
		if err != nil {
			errs[i] = fmt.Errorf("frame.Agg %v: %w", t.n.aggs[a].Agg, err)
			return
		}
		c = r
	}
	cols[i] = c
}

// firstOrder returns the groups in the order of their first rows (which
// are distinct): the identity when they already are, else placed by
// first row when those are dense enough, else a radix sort.
func firstOrder(first []int64) []int32 {
	n := len(first)
	order := make([]int32, n)
	sorted := true
	var top int64
	for i := range order {
		order[i] = int32(i)
		if i > 0 && first[i] < first[i-1] {
			sorted = false
		}
		top = max(top, first[i])
	}
	if sorted {
		return order
	}
	if top < int64(4*n)+4096 {
		// first rows dense enough: place each group at its first row
		at := make([]int32, top+1) // group + 1 by first row; 0: none
		for g, f := range first {
			at[f] = int32(g + 1)
		}
		i := 0
		for _, g := range at {
			if g != 0 {
				order[i] = g - 1
				i++
			}
		}
		if i == n {
			return order
		}
		for i := range order { // (first rows not distinct: sort)
			order[i] = int32(i)
		}
	}
	keys := make([]int64, n)
	copy(keys, first)
	tk, to := make([]int64, n), make([]int32, n)
	const digit = 11
	for shift := 0; shift < bits.Len64(uint64(top)); shift += digit {
		var cnt [1 << digit]int
		for _, f := range keys {
			cnt[(f>>shift)&(1<<digit-1)]++
		}
		sum := 0
		for d, c := range cnt {
			cnt[d] = sum
			sum += c
		}
		for i, f := range keys {
			d := (f >> shift) & (1<<digit - 1)
			tk[cnt[d]], to[cnt[d]] = f, order[i]
			cnt[d]++
		}
		keys, tk = tk, keys
		order, to = to, order
	}
	return order
}

// keyColumn builds key column c of the groups in order.
func (t *gtable) keyColumn(mem memory.Allocator, keys keySource, c int, typ arrow.DataType, order []int32) (arrow.Array, error) {
	b := arrowarray.NewBuilder(mem, typ)
	defer b.Release()
	b.Reserve(len(order))
	col := t.k.cols[c]
	if col.kind == keyStr || col.kind == keyDict {
		switch typ.ID() {
		case arrow.STRING, arrow.BINARY:
			return strKeyColumn[int32](mem, typ, keys, c, col.strs, order)
		case arrow.LARGE_STRING, arrow.LARGE_BINARY:
			return strKeyColumn[int64](mem, typ, keys, c, col.strs, order)
		}
	}
	switch bb := b.(type) {
	case *arrowarray.Int64Builder:
		appendRaw(bb, keys, c, order, func(u uint64) int64 { return int64(u) })
		return b.NewArray(), nil
	case *arrowarray.Int32Builder:
		appendRaw(bb, keys, c, order, func(u uint64) int32 { return int32(u) })
		return b.NewArray(), nil
	}
	for _, g := range order {
		u, ok := keys.raw(int(g), c)
		if !ok {
			b.AppendNull()
			continue
		}
		switch col.kind {
		case keyStr, keyDict:
			s := col.strs.get(int(u))
			switch bb := b.(type) {
			case *arrowarray.StringBuilder:
				bb.BinaryBuilder.Append(s)
			case *arrowarray.LargeStringBuilder:
				bb.BinaryBuilder.Append(s)
			case *arrowarray.BinaryBuilder:
				bb.Append(s)
			case *arrowarray.BinaryDictionaryBuilder:
				if err := bb.Append(s); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("frame: internal error: builder %T for a string key", b)
			}
		case keyBool:
			bb, ok := b.(*arrowarray.BooleanBuilder)
			if !ok {
				return nil, fmt.Errorf("frame: internal error: builder %T for a bool key", b)
			}
			bb.Append(u == 1)
		default:
			if err := appendBits(b, u); err != nil {
				return nil, err
			}
		}
	}
	return b.NewArray(), nil
}

// strKeyColumn builds string (or binary) key column c, of type typ with
// offsets O, of the groups in order, from their ids in strs: the sizes
// first, then the offsets and bytes written straight into buffers of
// those sizes (through a builder, 10^7 groups' appends and its buffers'
// growth were a sixth of q10's time with string keys).
func strKeyColumn[O int32 | int64](mem memory.Allocator, typ arrow.DataType, keys keySource, c int, strs *interner, order []int32) (arrow.Array, error) {
	n := len(order)
	const null = ^uint32(0)
	ids := make([]uint32, n)
	total, nulls := 0, 0
	for i, g := range order {
		u, ok := keys.raw(int(g), c)
		if !ok {
			ids[i] = null
			nulls++
			continue
		}
		ids[i] = uint32(u)
		total += strs.offs[u+1] - strs.offs[u]
	}
	var z O
	if limit := ^uint64(0) >> (65 - 8*unsafe.Sizeof(z)); uint64(total) > limit {
		return nil, fmt.Errorf("%w: the groups' %s keys hold %d bytes, past the %d of one %s column (cast the key to large_string)",
			ErrOverflow, typeName(typ), total, limit, typeName(typ))
	}
	ob := memory.NewResizableBuffer(mem)
	ob.Resize((n + 1) * int(unsafe.Sizeof(z)))
	db := memory.NewResizableBuffer(mem)
	db.Resize(total)
	var vb *memory.Buffer
	var bm []byte
	if nulls > 0 {
		vb, bm = newBitmap(mem, n, true)
	}
	offs := unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(ob.Bytes()))), n+1)
	data := db.Bytes()
	at := 0
	offs[0] = 0
	for i, id := range ids {
		if id != null {
			at += copy(data[at:], strs.data[strs.offs[id]:strs.offs[id+1]])
		} else {
			bitutil.ClearBit(bm, i)
		}
		offs[i+1] = O(at)
	}
	d := arrowarray.NewData(typ, n, []*memory.Buffer{vb, ob, db}, nil, nulls, 0)
	out := arrowarray.MakeFromData(d)
	d.Release()
	ob.Release()
	db.Release()
	if vb != nil {
		vb.Release()
	}
	return out, nil
}

// intKeyColumns sets cols[c] for the int32 and int64 key columns cs of
// packed keys pk, the groups in order: in blocks of rows shared among the
// workers, each block's keys gathered once and then unpacked a column at
// a time. A null key (code 0) is rare: the blocks count them, and only a
// column that has one gets a validity bitmap, in a second pass.
func intKeyColumns(mem memory.Allocator, workers int, pk *packedKeys, cs []int, types []arrow.DataType, order []int32, cols []arrow.Array) {
	n := len(order)
	type col struct {
		vals     *memory.Buffer
		v64      []int64
		v32      []int32
		sh       uint
		mask, lo uint64
	}
	os := make([]col, len(cs))
	for j, c := range cs {
		o := &os[j]
		o.sh, o.mask, o.lo = pk.shift[c], pk.mask[c], pk.lo[c]
		o.vals = memory.NewResizableBuffer(mem)
		if types[c].ID() == arrow.INT64 {
			o.vals.Resize(n * 8)
			o.v64 = unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(o.vals.Bytes()))), n)
		} else {
			o.vals.Resize(n * 4)
			o.v32 = unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(o.vals.Bytes()))), n)
		}
	}
	const block = 1 << 13
	blocks := (n + block - 1) / block
	if n < 1<<16 {
		workers = 1
	}
	nulls := make([]int, blocks*len(cs)) // per block and column
	keys := pk.keys
	parallel(workers, blocks, func(b int) {
		var qs [block]uint64
		lo, hi := b*block, min(n, (b+1)*block)
		q := qs[:hi-lo]
		for i, g := range order[lo:hi] {
			q[i] = keys[g]
		}
		for j := range os {
			o := &os[j]
			if o.v64 != nil {
				nulls[b*len(cs)+j] = unpackKeys(o.v64[lo:hi], q, o.sh, o.mask, o.lo-1)
			} else {
				nulls[b*len(cs)+j] = unpackKeys(o.v32[lo:hi], q, o.sh, o.mask, o.lo-1)
			}
		}
	})
	for j, c := range cs {
		o := &os[j]
		var valid *memory.Buffer
		nn := 0
		for b := 0; b < blocks; b++ {
			nn += nulls[b*len(cs)+j]
		}
		if nn > 0 {
			var bm []byte
			valid, bm = newBitmap(mem, n, true)
			for i, g := range order {
				if (keys[g]>>o.sh)&o.mask == 0 {
					bitutil.ClearBit(bm, i)
					if o.v64 != nil {
						o.v64[i] = 0
					} else {
						o.v32[i] = 0
					}
				}
			}
		}
		d := arrowarray.NewData(types[c], n, []*memory.Buffer{valid, o.vals}, nil, nn, 0)
		cols[c] = arrowarray.MakeFromData(d)
		d.Release()
		o.vals.Release()
		if valid != nil {
			valid.Release()
		}
	}
}

// newBitmap returns a validity bitmap of n bits, all set or all clear,
// and its bytes.
func newBitmap(mem memory.Allocator, n int, set bool) (*memory.Buffer, []byte) {
	b := memory.NewResizableBuffer(mem)
	b.Resize(int(bitutil.BytesForBits(int64(n))))
	bm := b.Bytes()
	fill := byte(0)
	if set {
		fill = 0xff
	}
	for i := range bm {
		bm[i] = fill
	}
	return b, bm
}

// unpackKeys sets v[i] to the value of the code at shift sh of packed key
// q[i] (code - 1 + lo, base being lo - 1), returning how many codes are 0
// (null keys, whose values the caller clears).
func unpackKeys[T int32 | int64](v []T, q []uint64, sh uint, mask, base uint64) int {
	v = v[:len(q)]
	zeros := 0
	for i, x := range q {
		code := (x >> sh) & mask
		v[i] = T(code + base)
		if code == 0 {
			zeros++
		}
	}
	return zeros
}

// appendRaw appends an integer key column's values in one call.
func appendRaw[T any, B interface{ AppendValues([]T, []bool) }](b B, k keySource, c int, order []int32, conv func(uint64) T) {
	vals := make([]T, len(order))
	var valid []bool
	for i, g := range order {
		u, ok := k.raw(int(g), c)
		if !ok {
			if valid == nil {
				valid = make([]bool, len(order))
				for j := range valid {
					valid[j] = true
				}
			}
			valid[i] = false
			continue
		}
		vals[i] = conv(u)
	}
	b.AppendValues(vals, valid)
}

// retype gives c's buffers the type want, which must have the same layout
// (a date or time over its integers).
func retype(c arrow.Array, want arrow.DataType) (arrow.Array, error) {
	if temporalStorage(want) == nil || !arrow.TypeEqual(temporalStorage(want), c.DataType()) {
		return nil, fmt.Errorf("frame: internal error: a %v result for a %v column", c.DataType(), want)
	}
	d := arrowarray.NewData(want, c.Len(), c.Data().Buffers(), nil, c.NullN(), c.Data().Offset())
	defer d.Release()
	return arrowarray.MakeFromData(d), nil
}

// newState makes the state of one aggregate.
func newState(p *aggPlan) aggState {
	if p.col < 0 {
		return &countState{rows: true}
	}
	switch {
	case p.op == aggCount:
		return &countState{}
	case p.op == aggCorr:
		return &corrState{}
	case p.op == aggDistinct:
		return &distinctState{}
	case p.str:
		return &strState{op: p.op, t: p.field.Type}
	}
	switch p.dt {
	case array.Int8:
		return stateOf[int8](p)
	case array.Int16:
		return stateOf[int16](p)
	case array.Int32:
		return stateOf[int32](p)
	case array.Int64:
		return stateOf[int64](p)
	case array.Uint8, array.Bool:
		return stateOf[uint8](p)
	case array.Uint16:
		return stateOf[uint16](p)
	case array.Uint32:
		return stateOf[uint32](p)
	case array.Uint64:
		return stateOf[uint64](p)
	case array.Float16, array.Float32:
		return stateOf[float32](p)
	}
	return stateOf[float64](p)
}

func stateOf[T number](p *aggPlan) aggState {
	o := out{dt: outDType(p.op, p.dt), shape: p.shape}
	w := p.width
	switch p.op {
	case aggSum:
		switch o.dt {
		case array.Int64:
			return &intSumState[T]{out: o, width: w}
		case array.Uint64:
			return &uintSumState[T]{out: o, width: w}
		}
		return &momentState[T]{op: p.op, out: o, width: w}
	case aggMean, aggVar, aggStd:
		return &momentState[T]{op: p.op, ddof: p.ddof, out: o, width: w}
	case aggMin, aggMax:
		return &extremeState[T]{out: o, width: w, max: p.op == aggMax}
	case aggFirst, aggLast:
		return &firstState[T]{out: o, width: w, last: p.op == aggLast}
	case aggAny, aggAll:
		return &boolState[T]{width: w, all: p.op == aggAll, shape: p.shape}
	}
	return &quantileState[T]{out: o, width: w, q: p.q}
}

// groupBatches runs a GroupBy step: workers fold batches into tables of
// their own, merged at the end.
type groupBatches struct {
	r    *runner
	n    *node
	in   batches
	done bool
}

func (b *groupBatches) next() (arrow.Record, error) {
	if b.done {
		return nil, io.EOF
	}
	b.done = true
	return b.run()
}

func (b *groupBatches) close() { b.in.close() }

type groupJob struct {
	rec arrow.Record
	pos int64
}

func (b *groupBatches) run() (arrow.Record, error) {
	workers := b.r.cfg.workers
	tables := make([]*gtable, workers)
	errs := make([]error, workers)
	// the first batch, read ahead: do its keys look nearly all distinct?
	// Then several workers own partitions of the keys, and a source that
	// knows its rows has the tables sized for the groups expected.
	var ahead arrow.Record
	owned := false
	groups := 0 // expected, when known
	sb, sized := b.in.(sizedBatches)
	if (workers > 1 || sized) && ownable(b.n) {
		rec, err := b.in.next()
		switch {
		case errors.Is(err, io.EOF):
		case err != nil:
			return nil, err
		default:
			ahead = rec
			many, keys, err := highCardinality(b.n, rec)
			if err != nil {
				rec.Release()
				return nil, err
			}
			owned = workers > 1 && (ownedForce || many && workers >= ownedMinWorkers)
			if many && !owned && workers > 1 {
				// one table, built by one worker while the reader
				// decodes; the others share the result's columns
				tables = tables[:1]
				singleRuns.Add(1)
			}
			if sized && many {
				groups = expectedGroups(sb.rowsLeft()+rec.NumRows(), keys)
			}
		}
	}
	// a batch per worker, and the next one read; with owned partitions,
	// every worker reads every batch
	jobs := make([]chan groupJob, 1)
	if owned {
		ownedRuns.Add(1)
		jobs = make([]chan groupJob, workers)
	}
	for i := range jobs {
		jobs[i] = make(chan groupJob)
	}
	for w := range tables {
		tables[w] = newTable(b.n)
	}
	if owned || len(tables) == 1 {
		reserveOwned(tables, groups)
	}
	var wg sync.WaitGroup
	for w := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !owned {
				for j := range jobs[0] {
					if errs[w] == nil {
						errs[w] = safeAdd(tables[w], j.rec, j.pos)
					}
					j.rec.Release()
				}
				return
			}
			var o ownScratch
			defer o.release()
			for j := range jobs[w] {
				if errs[w] == nil {
					errs[w] = safeAddOwned(b.r.cfg.mem, tables[w], j.rec, j.pos, w, workers, &o)
				}
				j.rec.Release()
			}
		}()
	}
	var pos int64
	var readErr error
	for {
		if err := b.r.ctx.Err(); err != nil {
			readErr = err
			break
		}
		rec, err := ahead, error(nil)
		if ahead != nil {
			ahead = nil
		} else {
			rec, err = b.in.next()
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			readErr = err
			break
		}
		for range jobs[1:] {
			rec.Retain() // (all before any worker can release it)
		}
		for _, ch := range jobs {
			ch <- groupJob{rec: rec, pos: pos}
		}
		pos += rec.NumRows()
	}
	if ahead != nil {
		ahead.Release()
	}
	for _, ch := range jobs {
		close(ch)
	}
	wg.Wait()
	if readErr != nil {
		return nil, readErr
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// the others merge into the largest table (the fewest groups to
	// insert); disjoint tables into table 0, sized for them all
	if !owned {
		slices.SortStableFunc(tables, func(a, b *gtable) int { return b.k.groups() - a.k.groups() })
	}
	t := tables[0]
	others := 0
	for _, o := range tables[1:] {
		others += o.k.groups()
	}
	if owned && others > 0 {
		if err := mergeDisjoint(tables, workers); err != nil {
			return nil, err
		}
		tables = nil
		collectDead(t)
		return t.resultN(b.r.cfg.mem, workers, true)
	}
	if len(tables) > 1 && len(b.n.keys) > 0 && others > 0 && others >= partMergeMin {
		if err := mergeParts(tables, workers); err != nil {
			return nil, err
		}
		tables = nil
		collectDead(t)
		return t.resultN(b.r.cfg.mem, workers, true)
	}
	for _, o := range tables[1:] {
		if err := t.merge(o); err != nil {
			return nil, err
		}
		*o = gtable{} // its states can go
	}
	tables = nil
	collectDead(t)
	return t.resultN(b.r.cfg.mem, workers, true)
}

// collectDead runs the garbage collector between the build of table t,
// of at least deadGroups groups, and its result, when what the build
// leaves (the workers' tables after a merge, the lookup slots) is
// hundreds of MiB: the result, about as large, then reuses that memory
// instead of growing the process by its size (db-benchmark q10 at two
// workers: a peak of 3.1 GiB became 2.2). A collection of a heap of
// arrays without pointers costs milliseconds; such a group-by, seconds.
func collectDead(t *gtable) {
	if t.k.groups() >= deadGroups {
		t.k.slots, t.k.dir, t.k.wslot = nil, nil, nil // (no more lookups)
		runtime.GC()
	}
}

// deadGroups is the fewest groups after which collectDead collects (a
// variable for tests).
var deadGroups = 1 << 22

func safeAddOwned(mem memory.Allocator, t *gtable, rec arrow.Record, pos int64, w, workers int, o *ownScratch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	return t.addOwned(mem, rec, pos, w, workers, o)
}

func safeAdd(t *gtable, rec arrow.Record, pos int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	return t.add(rec, pos)
}
