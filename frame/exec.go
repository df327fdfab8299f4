package frame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stride0/stride0/parquetio"
)

// Option configures a run of a Frame (a sink).
type Option func(*runConfig)

type runConfig struct {
	workers int
	mem     memory.Allocator
	parquet []parquetio.WriteOption
	stats   *Stats
}

// WithParquetWrite passes options to parquetio.Write (WriteParquet).
func WithParquetWrite(opts ...parquetio.WriteOption) Option {
	return func(c *runConfig) { c.parquet = append(c.parquet, opts...) }
}

// WithWorkers sets how many batches are processed at once (default
// runtime.GOMAXPROCS(0)); values below 1 mean 1. Results do not depend on
// it: batches come out in the source's order.
func WithWorkers(n int) Option {
	return func(c *runConfig) { c.workers = max(1, min(n, 1024)) }
}

// WithAllocator sets the allocator of every buffer the run makes (default
// memory.DefaultAllocator). Tests pass a memory.CheckedAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *runConfig) {
		if mem != nil {
			c.mem = mem
		}
	}
}

func makeConfig(opts []Option) runConfig {
	c := runConfig{workers: runtime.GOMAXPROCS(0), mem: memory.DefaultAllocator}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// runner turns a plan into a stream of batches.
type runner struct {
	ctx   context.Context
	cfg   runConfig
	need  map[*node][]bool // columns each source must read (needs)
	prune map[*node][]cond // conditions a Parquet source's row groups must not refute (prunes)
}

// batchFn is one per-batch step: it returns the step's output for rec
// (which stays the caller's; the result is the callee's to release).
type batchFn func(w *worker, rec arrow.Record) (arrow.Record, error)

// stream returns the batches of n.
func (r *runner) stream(n *node) (batches, error) {
	if n.err != nil {
		return nil, n.err
	}
	switch {
	case n.kind == stepSource:
		if p, ok := n.src.(*parquetSource); ok {
			return p.openColumns(r.ctx, r.cfg.mem, n.schema, r.need[n], r.prune[n], r.cfg.stats, r.cfg.workers)
		}
		return n.src.open(r.ctx, r.cfg.mem)
	case n.kind == stepLimit:
		in, err := r.stream(n.in)
		if err != nil {
			return nil, err
		}
		return &limitBatches{in: in, left: n.limit}, nil
	case n.kind == stepSort:
		in, err := r.stream(n.in)
		if err != nil {
			return nil, err
		}
		return &sortBatches{r: r, n: n, in: in}, nil
	case n.kind == stepConcat:
		return &concatBatches{r: r, parts: n.parts}, nil
	case n.kind == stepHead && n.in.kind == stepSort && n.in.limit < 0 && n.limit <= topKMax && n.in.err == nil:
		// Sort then GroupBy.Head: each group's top rows, without sorting
		// the rest
		in, err := r.stream(n.in.in)
		if err != nil {
			return nil, err
		}
		return &sortBatches{r: r, n: n.in, head: n, in: in}, nil
	case n.kind == stepHead:
		in, err := r.stream(n.in)
		if err != nil {
			return nil, err
		}
		return &headBatches{r: r, n: n, in: in}, nil
	case n.kind == stepGroup:
		in, err := r.stream(n.in)
		if err != nil {
			return nil, err
		}
		return &groupBatches{r: r, n: n, in: in}, nil
	case n.whole:
		in, err := r.stream(n.in)
		if err != nil {
			return nil, err
		}
		return &wholeBatches{r: r, n: n, in: in}, nil
	}
	// a chain of per-batch steps, run together on each batch
	var fns []batchFn
	var joins []*joinTable
	m := n
	for ; m.kind != stepSource && m.kind != stepLimit && m.kind != stepGroup && m.kind != stepSort && m.kind != stepConcat && m.kind != stepHead && !m.whole && m.err == nil; m = m.in {
		if m.kind == stepJoin {
			jt, err := r.buildJoin(m)
			if err != nil {
				for _, j := range joins {
					j.release()
				}
				return nil, err
			}
			joins = append(joins, jt)
			fns = append(fns, jt.probe)
			continue
		}
		if m.kind == stepProject && m.in.kind == stepFilter && !m.in.whole && m.in.err == nil {
			// a projection right above a filter: the filter gathers only
			// the columns it keeps
			proj := m
			m = m.in
			fns = append(fns, m.filterFn(proj.pick, proj.schema))
			continue
		}
		if m.kind == stepFilter {
			fns = append(fns, m.filterFn(nil, nil))
			continue
		}
		fns = append(fns, m.batchFn())
	}
	in, err := r.stream(m)
	if err != nil {
		for _, j := range joins {
			j.release()
		}
		return nil, err
	}
	if len(joins) > 0 {
		in = &withCleanup{batches: in, cleanup: func() {
			for _, j := range joins {
				j.release()
			}
		}}
	}
	chain := func(w *worker, rec arrow.Record) (arrow.Record, error) {
		rec.Retain()
		for i := len(fns) - 1; i >= 0; i-- {
			out, err := fns[i](w, rec)
			rec.Release()
			if err != nil {
				return nil, err
			}
			rec = out
		}
		return rec, nil
	}
	if r.cfg.workers <= 1 {
		return &serialMap{ctx: r.ctx, in: in, fn: chain, w: newWorker(r.cfg.mem, 1)}, nil
	}
	return startParallelMap(r.ctx, in, chain, r.cfg), nil
}

// serialMap applies fn to each batch of in, in the caller's goroutine.
type serialMap struct {
	ctx context.Context
	in  batches
	fn  batchFn
	w   *worker
}

func (s *serialMap) next() (arrow.Record, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	rec, err := s.in.next()
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return s.fn(s.w, rec)
}

func (s *serialMap) close() { s.in.close() }

// parallelMap applies fn to the batches of in on several workers and hands
// the results on in the input's order. A feeder reads in (alone, so a source
// is read sequentially) and queues each batch's result slot in order; at
// most one result slot per worker is queued, so a batch per worker (and
// the one being read) is in flight.
type parallelMap struct {
	ctx   context.Context
	in    batches
	order chan chan result
	done  chan struct{}
	stop  sync.Once
	wg    sync.WaitGroup
	err   error
	// pending is the slot next left on cancellation, its result still to
	// come: close releases it
	pending chan result
}

type result struct {
	rec arrow.Record
	err error
}

type job struct {
	rec arrow.Record
	out chan result
}

func startParallelMap(ctx context.Context, in batches, fn batchFn, cfg runConfig) *parallelMap {
	p := &parallelMap{ctx: ctx, in: in, order: make(chan chan result, cfg.workers), done: make(chan struct{})}
	jobs := make(chan job)
	p.wg.Add(1 + cfg.workers)
	go p.feed(jobs)
	for i := 0; i < cfg.workers; i++ {
		go func() {
			defer p.wg.Done()
			w := newWorker(cfg.mem, 1)
			for j := range jobs {
				select {
				case <-p.done:
					j.rec.Release()
					j.out <- result{err: context.Canceled}
					continue
				default:
				}
				out, err := safeCall(fn, w, j.rec)
				j.rec.Release()
				j.out <- result{rec: out, err: err}
			}
		}()
	}
	return p
}

// safeCall runs fn, turning a panic inside a step into an error, so that a
// defect reaches the caller as an error instead of killing the process
// from a worker goroutine.
func safeCall(fn batchFn, w *worker, rec arrow.Record) (out arrow.Record, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("frame: internal error in a step: %v", r)
		}
	}()
	return fn(w, rec)
}

func (p *parallelMap) feed(jobs chan<- job) {
	defer p.wg.Done()
	defer close(p.order)
	defer close(jobs)
	for {
		if p.ctx.Err() != nil {
			return
		}
		ch := make(chan result, 1)
		select {
		case p.order <- ch:
		case <-p.done:
			return
		}
		rec, err := p.in.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				ch <- result{err: io.EOF}
			} else {
				ch <- result{err: err}
			}
			return
		}
		select {
		case jobs <- job{rec: rec, out: ch}:
		case <-p.done:
			rec.Release()
			ch <- result{err: context.Canceled}
			return
		}
	}
}

func (p *parallelMap) next() (arrow.Record, error) {
	if p.err != nil {
		return nil, p.err
	}
	var ch chan result
	var ok bool
	select {
	case ch, ok = <-p.order:
	case <-p.ctx.Done():
		p.err = p.ctx.Err()
		return nil, p.err
	}
	if !ok { // the feeder stopped on cancellation
		p.err = p.ctx.Err()
		if p.err == nil {
			p.err = io.EOF
		}
		return nil, p.err
	}
	select {
	case res := <-ch:
		if res.err != nil {
			p.err = res.err
			return nil, res.err
		}
		return res.rec, nil
	case <-p.ctx.Done():
		p.err = p.ctx.Err()
		// the slot's result arrives later; close drains it once the
		// workers are done (a goroutine draining it could release it
		// after close returned, past the caller's allocator checks)
		p.pending = ch
		return nil, p.err
	}
}

func (p *parallelMap) close() {
	p.stop.Do(func() {
		close(p.done)
		// drain the queued slots while the workers finish theirs
		for ch := range p.order {
			if res := <-ch; res.rec != nil {
				res.rec.Release()
			}
		}
		p.wg.Wait()
		if p.pending != nil {
			// every queued slot gets its result before the feeder and
			// the workers finish
			if res := <-p.pending; res.rec != nil {
				res.rec.Release()
			}
			p.pending = nil
		}
		p.in.close()
	})
}

// limitBatches passes on the first left rows of in.
type limitBatches struct {
	in   batches
	left int64
}

func (l *limitBatches) next() (arrow.Record, error) {
	if l.left <= 0 {
		return nil, io.EOF
	}
	rec, err := l.in.next()
	if err != nil {
		return nil, err
	}
	if n := rec.NumRows(); n > l.left {
		s := rec.NewSlice(0, l.left)
		rec.Release()
		rec = s
	}
	l.left -= rec.NumRows()
	return rec, nil
}

func (l *limitBatches) close() { l.in.close() }

// withCleanup runs cleanup after closing its batches (a join's built side
// lives as long as the stream that probes it).
type withCleanup struct {
	batches
	cleanup func()
}

func (w *withCleanup) close() {
	w.batches.close()
	w.cleanup()
}

// contextOf is the context for arrow-go's compute calls inside a step:
// cancellation is checked between batches, so a step's calls run to their
// end.
func contextOf(*worker) context.Context { return context.Background() }
