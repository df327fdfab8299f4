package frame

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// worker is one goroutine's state: its allocator and its compiled plans
// (an expr.Plan caches the passes it built, so each worker keeps its own).
type worker struct {
	mem     memory.Allocator
	workers int // expr workers per evaluation
	plans   map[*binding]*expr.Plan
}

func newWorker(mem memory.Allocator, exprWorkers int) *worker {
	return &worker{mem: mem, workers: exprWorkers, plans: map[*binding]*expr.Plan{}}
}

// eval evaluates b over the columns of rec.
func (w *worker) eval(b *binding, rec arrow.Record) (*array.Array, error) {
	p := w.plans[b]
	if p == nil {
		var err error
		p, err = expr.Compile(b.node, expr.WithAllocator(w.mem), expr.WithWorkers(w.workers))
		if err != nil {
			return nil, err
		}
		w.plans[b] = p
	}
	bind := expr.Bindings{}
	defer func() {
		for _, a := range bind {
			a.Release()
		}
	}()
	for name, i := range b.vars {
		a, err := arrowio.FromArrow(w.mem, rec.Column(i))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", name, err)
		}
		bind[name] = a
	}
	for name, sp := range b.specials {
		a, err := sp.eval(w.mem, rec.Column(sp.col))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", sp.cn, err)
		}
		bind[name] = a
	}
	return p.Eval(bind)
}

// column evaluates b over rec and returns it as a column of rec's length,
// null on every row where an input column's row is null (as SQL's
// list_sum(NULL) is NULL: a reduction over a null tensor row's elements
// would otherwise give the identity). A rank-0 result (a column-wide
// step's scalar) is repeated on every row.
func (w *worker) column(b *binding, rec arrow.Record) (arrow.Array, error) {
	c, err := w.columnValues(b, rec)
	if err != nil || !b.rowWise {
		return c, err
	}
	return maskRows(w.mem, c, rec, b.vars)
}

// maskRows nulls the rows of c where a column vars names has a null row.
func maskRows(mem memory.Allocator, c arrow.Array, rec arrow.Record, vars map[string]int) (arrow.Array, error) {
	n := c.Len()
	var mask []byte // row validity, 1 = valid
	for _, i := range vars {
		in := rec.Column(i)
		if in.NullN() == 0 {
			continue
		}
		if mask == nil {
			mask = make([]byte, bitutil.BytesForBits(int64(n)))
			bitutil.SetBitsTo(mask, 0, int64(n), true)
		}
		for r := 0; r < n; r++ {
			if in.IsNull(r) {
				bitutil.ClearBit(mask, r)
			}
		}
	}
	if mask == nil {
		return c, nil
	}
	defer c.Release()
	d := c.Data()
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(mask))
	out := buf.Bytes()
	copy(out, mask)
	if old := d.Buffers()[0]; old != nil && d.NullN() > 0 {
		bitutil.BitmapAnd(mask, old.Bytes(), 0, int64(d.Offset()), out, 0, int64(n))
	}
	nulls := n - bitutil.CountSetBits(out, 0, n)
	bufs := append([]*memory.Buffer{buf}, d.Buffers()[1:]...)
	if d.Offset() != 0 {
		// keep it simple: the values of a fresh result start at 0
		return nil, fmt.Errorf("frame: internal error: a result with offset %d", d.Offset())
	}
	nd := arrowarray.NewData(d.DataType(), n, bufs, d.Children(), nulls, 0)
	buf.Release()
	defer nd.Release()
	return arrowarray.MakeFromData(nd), nil
}

func (w *worker) columnValues(b *binding, rec arrow.Record) (arrow.Array, error) {
	res, err := w.eval(b, rec)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	rows := int(rec.NumRows())
	if res.Rank() == 0 {
		v, err := view.BroadcastTo(res, []int{rows})
		if err != nil {
			return nil, err
		}
		defer v.Release()
		c, err := array.Copy(w.mem, v)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		return arrowio.ToArrow(w.mem, c)
	}
	if res.Dim(0) != rows {
		return nil, fmt.Errorf("%w: the result has %d rows (shape %v) for %d rows of input", array.ErrShape, res.Dim(0), res.Shape(), rows)
	}
	if res.Rank() == 1 {
		return arrowio.ToArrow(w.mem, res)
	}
	if b.dimNames != nil {
		return arrowio.ToTensorColumn(w.mem, res, arrowio.WithDimNames(b.dimNames...))
	}
	return arrowio.ToTensorColumn(w.mem, res)
}

// batchFn returns the per-batch function of a project, compute or filter
// step.
func (n *node) batchFn() batchFn {
	switch n.kind {
	case stepProject:
		return func(_ *worker, rec arrow.Record) (arrow.Record, error) {
			cols := make([]arrow.Array, len(n.pick))
			for k, i := range n.pick {
				cols[k] = rec.Column(i)
			}
			return arrowarray.NewRecord(n.schema, cols, rec.NumRows()), nil
		}
	case stepCompute:
		return func(w *worker, rec arrow.Record) (arrow.Record, error) { return n.compute(w, rec) }
	case stepFilter:
		return func(w *worker, rec arrow.Record) (arrow.Record, error) { return n.filter(w, rec) }
	}
	return func(*worker, arrow.Record) (arrow.Record, error) {
		return nil, fmt.Errorf("frame: internal error: step %d has no batch function", n.kind)
	}
}

// compute adds the step's columns to rec.
func (n *node) compute(w *worker, rec arrow.Record) (arrow.Record, error) {
	if n.cast != nil {
		return n.cast.toTensor(w.mem, rec, n.schema)
	}
	cols := append([]arrow.Array(nil), rec.Columns()...)
	var made []arrow.Array
	defer func() {
		for _, c := range made {
			c.Release()
		}
	}()
	for k := range n.defs {
		b := &n.defs[k]
		c, err := w.column(b, rec)
		if err != nil {
			return nil, fmt.Errorf("frame.WithColumns %q: %w", b.name, err)
		}
		made = append(made, c)
		if idx := n.schema.FieldIndices(b.name); len(idx) == 1 && idx[0] < len(cols) {
			cols[idx[0]] = c
		} else {
			cols = append(cols, c)
		}
	}
	return arrowarray.NewRecord(n.schema, cols, rec.NumRows()), nil
}

// filter keeps the rows of rec where the predicate is true.
func (n *node) filter(w *worker, rec arrow.Record) (arrow.Record, error) {
	return n.filterRows(w, rec, rec)
}

// wholeBatches runs a step whose expressions reduce over the rows: it
// reads its whole input, concatenates each column once, evaluates, and
// hands the result on in slices of the input's batch lengths.
type wholeBatches struct {
	r     *runner
	n     *node
	in    batches
	out   arrow.Record
	sizes []int64
	at    int64
	done  bool
}

func (b *wholeBatches) next() (arrow.Record, error) {
	if !b.done {
		b.done = true
		rec, err := b.run()
		if err != nil {
			return nil, err
		}
		b.out = rec
	}
	if b.out == nil || len(b.sizes) == 0 {
		return nil, io.EOF
	}
	// the step may drop rows (a filter): slice the output in pieces of the
	// input's batch lengths, as far as it reaches
	size := b.sizes[0]
	b.sizes = b.sizes[1:]
	left := b.out.NumRows() - b.at
	if left <= 0 {
		return nil, io.EOF
	}
	size = min(max(size, 1), left)
	s := b.out.NewSlice(b.at, b.at+size)
	b.at += size
	return s, nil
}

// run reads the input and evaluates the step over it.
func (b *wholeBatches) run() (arrow.Record, error) {
	var recs []arrow.Record
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for {
		if err := b.r.ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := b.in.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
		b.sizes = append(b.sizes, rec.NumRows())
	}
	all, err := concatRecords(b.r.cfg.mem, b.n.in.schema, recs)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	w := newWorker(b.r.cfg.mem, b.r.cfg.workers)
	return b.n.batchFn()(w, all)
}

func (b *wholeBatches) close() {
	if b.out != nil {
		b.out.Release()
		b.out = nil
	}
	b.in.close()
}

// concatRecords makes one record of recs (which keep their references).
func concatRecords(mem memory.Allocator, s *arrow.Schema, recs []arrow.Record) (arrow.Record, error) {
	return concatRecordsN(mem, s, recs, 1)
}

// concatRecordsN is concatRecords with up to workers columns concatenated
// at once.
func concatRecordsN(mem memory.Allocator, s *arrow.Schema, recs []arrow.Record, workers int) (arrow.Record, error) {
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	cols := make([]arrow.Array, s.NumFields())
	errs := make([]error, len(cols))
	rows := int64(0)
	for _, r := range recs {
		rows += r.NumRows()
	}
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	one := func(i int) {
		if len(recs) == 0 {
			cols[i] = arrowarray.MakeArrayOfNull(mem, s.Field(i).Type, 0)
			return
		}
		// empty parts add nothing (and arrow-go v15 fails to concatenate
		// an empty dictionary array with others of another dictionary)
		parts := make([]arrow.Array, 0, len(recs))
		for _, r := range recs {
			if r.NumRows() > 0 {
				parts = append(parts, r.Column(i))
			}
		}
		if len(parts) <= 1 {
			if len(parts) == 0 {
				parts = append(parts, recs[0].Column(i))
			}
			parts[0].Retain()
			cols[i] = parts[0]
			return
		}
		if c := rejoin(parts); c != nil {
			cols[i] = c
			return
		}
		if s.Field(i).Type.ID() == arrow.DICTIONARY {
			c, ok, err := concatDictionaries(mem, parts)
			if err != nil {
				errs[i] = fmt.Errorf("frame: concatenating column %q: %w", s.Field(i).Name, err)
				return
			}
			if ok {
				cols[i] = c
				return
			}
		}
		c, err := arrowarray.Concatenate(parts, mem)
		if err != nil {
			errs[i] = fmt.Errorf("frame: concatenating column %q: %w", s.Field(i).Name, err)
			return
		}
		cols[i] = c
	}
	if workers <= 1 || len(cols) < 2 {
		for i := range cols {
			if one(i); errs[i] != nil {
				return nil, errs[i]
			}
		}
	} else {
		next := make(chan int, len(cols))
		for i := range cols {
			next <- i
		}
		close(next)
		var wg sync.WaitGroup
		for w := 0; w < min(workers, len(cols)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					one(i)
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return arrowarray.NewRecord(s, cols, rows), nil
}

// rejoin returns the one array that parts are consecutive slices of (the
// morsels of an in-memory record, passed through), without copying, or nil
// when they are not: the same type, the same buffers, children and
// dictionary, each part starting where the previous ends.
func rejoin(parts []arrow.Array) arrow.Array {
	if ext, ok := parts[0].(arrowarray.ExtensionArray); ok {
		storage := make([]arrow.Array, len(parts))
		for k, p := range parts {
			e, ok := p.(arrowarray.ExtensionArray)
			if !ok {
				return nil
			}
			storage[k] = e.Storage()
		}
		s := rejoin(storage)
		if s == nil {
			return nil
		}
		defer s.Release()
		return arrowarray.NewExtensionArrayWithStorage(ext.ExtensionType(), s)
	}
	first := parts[0].Data()
	end, nulls := first.Offset(), 0
	for _, p := range parts {
		d := p.Data()
		if d.Offset() != end || !arrow.TypeEqual(d.DataType(), first.DataType()) || d.Dictionary() != first.Dictionary() ||
			len(d.Buffers()) != len(first.Buffers()) || len(d.Children()) != len(first.Children()) {
			return nil
		}
		for b, buf := range d.Buffers() {
			if buf != first.Buffers()[b] {
				return nil
			}
		}
		for c, ch := range d.Children() {
			if ch != first.Children()[c] {
				return nil
			}
		}
		end += d.Len()
		nulls += d.NullN()
	}
	var d arrow.ArrayData
	if first.DataType().ID() == arrow.DICTIONARY {
		d = arrowarray.NewDataWithDictionary(first.DataType(), end-first.Offset(), first.Buffers(), nulls, first.Offset(), first.Dictionary().(*arrowarray.Data))
	} else {
		d = arrowarray.NewData(first.DataType(), end-first.Offset(), first.Buffers(), first.Children(), nulls, first.Offset())
	}
	defer d.Release()
	return arrowarray.MakeFromData(d)
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
