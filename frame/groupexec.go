package frame

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// gtable is a hash table of groups and their aggregates' states.
type gtable struct {
	n      *node
	index  map[string]int32
	keys   []string // each group's encoded key
	first  []int64  // position of each group's first row
	states []aggState
	buf    []byte
	gids   []int32
}

func newTable(n *node) *gtable {
	t := &gtable{n: n, index: map[string]int32{}}
	for _, p := range n.aggs {
		t.states = append(t.states, newState(p))
	}
	return t
}

// group returns the id of the group of key, adding it (first seen at pos).
func (t *gtable) group(key []byte, pos int64) int32 {
	if g, ok := t.index[string(key)]; ok {
		if pos < t.first[g] {
			t.first[g] = pos
		}
		return g
	}
	g := int32(len(t.keys))
	k := string(key)
	t.index[k] = g
	t.keys = append(t.keys, k)
	t.first = append(t.first, pos)
	return g
}

func (t *gtable) grow() {
	for _, s := range t.states {
		s.grow(len(t.keys))
	}
}

// add folds batch rec (whose row 0 is at position pos) in.
func (t *gtable) add(rec arrow.Record, pos int64) error {
	rows := int(rec.NumRows())
	t.gids = slices.Grow(t.gids[:0], rows)[:rows]
	for i := 0; i < rows; i++ {
		t.buf = t.buf[:0]
		for _, k := range t.n.keys {
			t.buf = appendKey(t.buf, rec.Column(k), i)
		}
		if len(t.gids) > 0 && len(t.keys) >= 1<<31-1 {
			return fmt.Errorf("frame.GroupBy: %w: more than 2^31-1 groups", ErrArgument)
		}
		t.gids[i] = t.group(t.buf, pos+int64(i))
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
	m := make([]int32, len(o.keys))
	for g, k := range o.keys {
		m[g] = t.group([]byte(k), o.first[g])
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
	if len(t.n.keys) == 0 && len(t.keys) == 0 {
		t.group(nil, 0) // no keys: one group, even over no rows
		t.grow()
	}
	order := make([]int32, len(t.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case t.first[a] < t.first[b]:
			return -1
		case t.first[a] > t.first[b]:
			return 1
		}
		return int(a - b)
	})
	var cols []arrow.Array
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	if len(t.n.keys) > 0 {
		bs := make([]arrowarray.Builder, len(t.n.keys))
		types := make([]arrow.DataType, len(t.n.keys))
		for k, i := range t.n.keys {
			types[k] = t.n.in.schema.Field(i).Type
			bs[k] = arrowarray.NewBuilder(mem, types[k])
		}
		defer func() {
			for _, b := range bs {
				b.Release()
			}
		}()
		for _, g := range order {
			if err := decodeKey([]byte(t.keys[g]), bs, types); err != nil {
				return nil, err
			}
		}
		for _, b := range bs {
			cols = append(cols, b.NewArray())
		}
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
	return arrowarray.NewRecord(t.n.schema, cols, int64(len(order))), nil
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
	jobs := make(chan groupJob, workers)
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
	t := tables[0]
	for _, o := range tables[1:] {
		if err := t.merge(o); err != nil {
			return nil, err
		}
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
