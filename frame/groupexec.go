package frame

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
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
	rows := int(rec.NumRows())
	t.gids = slices.Grow(t.gids[:0], rows)[:rows]
	if pos < t.lastPos {
		t.unordered = true
	}
	t.lastPos = pos
	for c, i := range t.n.keys {
		kv, err := t.k.cols[c].values(rec.Column(i))
		if err != nil {
			return fmt.Errorf("frame.GroupBy: %w", err)
		}
		t.kv[c] = kv
	}
	if err := t.k.assign(t.kv, rows, pos, nil, t.gids); err != nil {
		return err
	}
	if t.unordered {
		first := t.k.first
		for i, g := range t.gids {
			first[g] = min(first[g], pos+int64(i))
		}
	}
	t.grow()
	for a, p := range t.n.aggs {
		var c *colData
		switch {
		case p.col < 0:
		case p.str || p.op == aggCount || p.op == aggDistinct:
			c = &colData{col: rec.Column(p.col), elems: rec.Column(p.col)}
		case p.op == aggCorr:
			cs := t.states[a].(*corrState)
			if err := cs.read(rec.Column(p.col), rec.Column(p.col2)); err != nil {
				return fmt.Errorf("frame.Agg %v: %w", p.Agg, err)
			}
		default:
			var err error
			if c, err = readColumn(rec.Column(p.col), p.width); err != nil {
				return fmt.Errorf("frame.Agg %v: %w", p.Agg, err)
			}
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
	if len(t.n.keys) == 0 && t.k.groups() == 0 {
		// no keys: one group, even over no rows
		if err := t.k.assign(nil, 1, 0, nil, []int32{0}); err != nil {
			return nil, err
		}
		t.grow()
	}
	order := firstOrder(t.k.first)
	var cols []arrow.Array
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for c, typ := range t.types {
		a, err := t.keyColumn(mem, c, typ, order)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	for a, s := range t.states {
		c, err := s.finish(mem, order)
		if err != nil {
			return nil, fmt.Errorf("frame.Agg %v: %w", t.n.aggs[a].Agg, err)
		}
		if want := t.n.aggs[a].field.Type; !arrow.TypeEqual(c.DataType(), want) {
			r, err := retype(c, want)
			c.Release()
			if err != nil {
				return nil, fmt.Errorf("frame.Agg %v: %w", t.n.aggs[a].Agg, err)
			}
			c = r
		}
		cols = append(cols, c)
	}
	rec := arrowarray.NewRecord(t.n.schema, cols, int64(len(order)))
	return rec, nil
}

// firstOrder returns the groups in the order of their first rows (which
// are distinct): the identity when they already are, else a radix sort.
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
func (t *gtable) keyColumn(mem memory.Allocator, c int, typ arrow.DataType, order []int32) (arrow.Array, error) {
	b := arrowarray.NewBuilder(mem, typ)
	defer b.Release()
	b.Reserve(len(order))
	col := t.k.cols[c]
	switch bb := b.(type) {
	case *arrowarray.Int64Builder:
		appendRaw(bb, t.k, c, order, func(u uint64) int64 { return int64(u) })
		return b.NewArray(), nil
	case *arrowarray.Int32Builder:
		appendRaw(bb, t.k, c, order, func(u uint64) int32 { return int32(u) })
		return b.NewArray(), nil
	}
	for _, g := range order {
		u, ok := t.k.raw(int(g), c)
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

// appendRaw appends an integer key column's values in one call.
func appendRaw[T any, B interface{ AppendValues([]T, []bool) }](b B, k *keyer, c int, order []int32, conv func(uint64) T) {
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
	jobs := make(chan groupJob) // a batch per worker, and the next one read
	var wg sync.WaitGroup
	for w := range tables {
		tables[w] = newTable(b.n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if errs[w] == nil {
					errs[w] = safeAdd(tables[w], j.rec, j.pos)
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
		rec, err := b.in.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			readErr = err
			break
		}
		jobs <- groupJob{rec: rec, pos: pos}
		pos += rec.NumRows()
	}
	close(jobs)
	wg.Wait()
	if readErr != nil {
		return nil, readErr
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// the others merge into the largest table (the fewest groups to insert)
	slices.SortStableFunc(tables, func(a, b *gtable) int { return b.k.groups() - a.k.groups() })
	t := tables[0]
	for _, o := range tables[1:] {
		if err := t.merge(o); err != nil {
			return nil, err
		}
		*o = gtable{} // its states can go
	}
	return t.result(b.r.cfg.mem)
}

func safeAdd(t *gtable, rec arrow.Record, pos int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame.GroupBy: internal error: %v", r)
		}
	}()
	return t.add(rec, pos)
}
