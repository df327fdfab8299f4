package frame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// Collect runs f and returns its rows as an in-memory Table (one batch: the
// pieces are concatenated once, so that every column hands a contiguous
// array to stride0 without copying). The context cancels the run; on any
// error nothing is kept.
func (f Frame) Collect(ctx context.Context, opts ...Option) (*Table, error) {
	if t, ok, err := collectParquet(ctx, f, makeConfig(opts)); ok {
		return t, err
	}
	if t, ok, err := collectFilter(ctx, f, makeConfig(opts)); ok {
		return t, err
	}
	rr, err := f.Reader(ctx, opts...)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	var recs []arrow.Record
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for rr.Next() {
		r := rr.Record()
		r.Retain()
		recs = append(recs, r)
	}
	if err := rr.Err(); err != nil {
		return nil, err
	}
	cfg := makeConfig(opts)
	rec, err := concatRecordsN(cfg.mem, rr.Schema(), recs, cfg.workers)
	if err != nil {
		return nil, err
	}
	return &Table{rec: rec, mem: cfg.mem}, nil
}

// Reader runs f and returns its batches as a RecordReader, for streaming
// onward (to arrowio.WriteStream, a Parquet writer, another Frame). The run
// goes on as the reader is read; Release ends it (early if not read to
// the end). A batch handed out by Record is valid until the next call of
// Next (Retain it to keep it), as arrow-go's readers do.
func (f Frame) Reader(ctx context.Context, opts ...Option) (arrowarray.RecordReader, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	n := f.node()
	if n.err != nil {
		return nil, n.err
	}
	r := &runner{ctx: ctx, cfg: makeConfig(opts), need: needs(n), prune: prunes(n)}
	b, err := r.stream(n)
	if err != nil {
		return nil, err
	}
	rr := &reader{schema: n.schema, b: b}
	rr.refs.Store(1)
	return rr, nil
}

// reader is the RecordReader of a run.
type reader struct {
	refs   atomic.Int64
	schema *arrow.Schema
	b      batches
	cur    arrow.Record
	err    error
	done   bool
}

func (r *reader) Retain()               { r.refs.Add(1) }
func (r *reader) Schema() *arrow.Schema { return r.schema }
func (r *reader) Record() arrow.Record  { return r.cur }
func (r *reader) Err() error            { return r.err }

func (r *reader) Release() {
	if r.refs.Add(-1) == 0 {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		if r.b != nil {
			r.b.close()
			r.b = nil
		}
	}
}

func (r *reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done || r.b == nil {
		return false
	}
	rec, err := r.b.next()
	if err != nil {
		r.done = true
		if !errors.Is(err, io.EOF) {
			r.err = err
		}
		return false
	}
	if !arrow.TypeEqual(arrow.StructOf(rec.Schema().Fields()...), arrow.StructOf(r.schema.Fields()...)) {
		rec.Release()
		r.done = true
		r.err = fmt.Errorf("frame: internal error: a batch of schema %v for the plan's %v", rec.Schema(), r.schema)
		return false
	}
	r.cur = rec
	return true
}
