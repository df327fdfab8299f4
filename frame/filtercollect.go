package frame

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// collectFilter is Collect of a filter (and the projection right above
// it) over in-memory records whose kept columns a masked gather knows
// (selgather.go), without the batches the general path makes and
// concatenates: the workers first find each morsel's mask and counts (its
// kept rows, the bytes of its kept strings), then every output column is
// made once at its final size and the workers gather each morsel's kept
// rows straight into their place in it. ok is false for any other Frame.
func collectFilter(ctx context.Context, f Frame, cfg runConfig) (t *Table, ok bool, err error) {
	top := f.node()
	fn, pick := top, []int(nil)
	if top.kind == stepProject && top.err == nil && top.in != nil {
		fn, pick = top.in, top.pick
	}
	if fn.kind != stepFilter || fn.whole || fn.err != nil || fn.in == nil || fn.in.kind != stepSource || fn.in.err != nil {
		return nil, false, nil
	}
	src, isRec := fn.in.src.(recordSource)
	if !isRec || len(src.recs) == 0 || top.schema.NumFields() == 0 {
		return nil, false, nil
	}
	if pick == nil {
		pick = make([]int, fn.schema.NumFields())
		for i := range pick {
			pick[i] = i
		}
	}
	// every kept column gathered by a mask, a dictionary column with one
	// dictionary in every record
	nulls := make([]bool, len(pick))
	for k, ci := range pick {
		if kind, _ := gatherKindOf(top.schema.Field(k).Type); kind == kindNone {
			return nil, false, nil
		}
		d0 := src.recs[0].Column(ci).Data().Dictionary()
		for _, r := range src.recs {
			c := r.Column(ci)
			if c.Data().Dictionary() != d0 {
				return nil, false, nil
			}
			nulls[k] = nulls[k] || c.NullN() > 0
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, true, err
	}

	// the morsels, as the record source hands them on
	type morsel struct {
		rec    arrow.Record
		lo, hi int64
		word   int   // its mask's first word in masks
		kept   int   // rows kept
		pos    int   // its first kept row's place in the output
		bytes  []int // per kept column: its kept strings' bytes
		at     []int // per kept column: where they go
	}
	var ms []morsel
	words := 0
	for _, r := range src.recs {
		for lo := int64(0); lo < r.NumRows(); lo += morselRows {
			hi := min(r.NumRows(), lo+morselRows)
			ms = append(ms, morsel{rec: r, lo: lo, hi: hi, word: words, bytes: make([]int, len(pick)), at: make([]int, len(pick))})
			words += maskWords(int(hi - lo))
		}
	}
	masks := make([]uint64, words)
	maskOf := func(m *morsel) []uint64 { return masks[m.word : m.word+maskWords(int(m.hi-m.lo))] }

	// each morsel's mask and counts
	err = eachMorsel(ctx, cfg.workers, cfg.mem, len(ms), func(w *worker, i int) error {
		m := &ms[i]
		rec := m.rec.NewSlice(m.lo, m.hi)
		defer rec.Release()
		mask := maskOf(m)
		kept, err := fn.tree.keptMaskInto(w, rec, mask)
		if err != nil {
			return fmt.Errorf("frame.Filter %v: %w", fn.pred.node, err)
		}
		m.kept = kept
		for k, ci := range pick {
			switch c := rec.Column(ci).(type) {
			case interface{ ValueOffsets() []int32 }:
				m.bytes[k] = maskedBytes(c.ValueOffsets(), mask)
			case interface{ ValueOffsets() []int64 }:
				m.bytes[k] = maskedBytes(c.ValueOffsets(), mask)
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	rows := 0
	bytes := make([]int, len(pick))
	for i := range ms {
		m := &ms[i]
		m.pos = rows
		rows += m.kept
		for k := range pick {
			m.at[k] = bytes[k]
			bytes[k] += m.bytes[k]
		}
	}
	if rows == recordRows(src.recs) {
		// every row kept: the records' columns, as the general path gives
		recs := make([]arrow.Record, len(src.recs))
		for i, r := range src.recs {
			cols := make([]arrow.Array, len(pick))
			for k, ci := range pick {
				cols[k] = r.Column(ci)
			}
			recs[i] = arrowarray.NewRecord(top.schema, cols, r.NumRows())
		}
		defer func() {
			for _, r := range recs {
				r.Release()
			}
		}()
		rec, err := concatRecordsN(cfg.mem, top.schema, recs, cfg.workers)
		if err != nil {
			return nil, true, err
		}
		return &Table{rec: rec, mem: cfg.mem}, true, nil
	}

	// the output columns at their final size, filled morsel by morsel
	// (made on the workers: the allocator zeroes each buffer)
	outs := make([]*maskOut, len(pick))
	err = eachMorsel(context.Background(), cfg.workers, cfg.mem, len(pick), func(_ *worker, k int) error {
		outs[k] = newMaskOut(cfg.mem, src.recs[0].Column(pick[k]), rows, nulls[k], bytes[k])
		return nil
	})
	if err != nil {
		for _, o := range outs {
			if o != nil {
				o.release()
			}
		}
		return nil, true, err
	}
	err = eachMorsel(ctx, cfg.workers, cfg.mem, len(ms), func(_ *worker, i int) error {
		m := &ms[i]
		if m.kept == 0 {
			return nil
		}
		mask := maskOf(m)
		for k, ci := range pick {
			c := arrowarray.NewSlice(m.rec.Column(ci), m.lo, m.hi)
			outs[k].gather(c, mask, m.kept, m.pos, m.at[k], m.bytes[k])
			c.Release()
		}
		return nil
	})
	if err != nil {
		for _, o := range outs {
			o.release()
		}
		return nil, true, err
	}
	cols := make([]arrow.Array, len(pick))
	for k, o := range outs {
		cols[k] = o.finish()
	}
	rec := arrowarray.NewRecord(top.schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return &Table{rec: rec, mem: cfg.mem}, true, nil
}

func recordRows(recs []arrow.Record) int {
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
	}
	return n
}

// eachMorsel calls fn(w, i) for every i in [0, n) on up to workers
// goroutines, each with its own worker, taking the i in order one at a
// time; it stops at the first error (which it returns) or when ctx is
// done. A panic inside fn is returned as an error, as safeCall does.
func eachMorsel(ctx context.Context, workers int, mem memory.Allocator, n int, fn func(w *worker, i int) error) error {
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	var stop atomic.Bool
	run := func() {
		w := newWorker(mem, 1)
		for !stop.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			err := ctx.Err()
			if err == nil {
				err = safeMorsel(fn, w, i)
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				stop.Store(true)
				return
			}
		}
	}
	workers = min(workers, n)
	if workers <= 1 {
		run()
		return first
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for g := 0; g < workers; g++ {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	wg.Wait()
	return first
}

func safeMorsel(fn func(w *worker, i int) error, w *worker, i int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("frame: internal error in a step: %v", r)
		}
	}()
	return fn(w, i)
}
