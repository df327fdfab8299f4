package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// runLocal is the single-process path the pipeline is measured against:
// the same two passes with package frame alone. Pass 1 aggregates column
// over every file matching input (frame's aggregates over the files one
// after another);
// pass 2 evaluates z = (column - mean) / std over each file and writes it as
// output-FFFFF.parquet, in batches of batchRows rows. It returns the number
// of rows standardized.
func runLocal(input, output, column string, batchRows int) (int64, error) {
	files, err := filepath.Glob(input)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("no file matches %q", input)
	}
	sort.Strings(files)
	if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
		return 0, err
	}
	mem := memory.DefaultAllocator
	cr := &chainReader{files: files, opts: []parquetio.ReadOption{parquetio.WithColumns(column), parquetio.WithBatchRows(batchRows)}}
	defer cr.Release()
	if err := cr.open(); err != nil {
		return 0, err
	}
	t, err := frame.FromReader(cr).GroupBy().Agg(frame.Mean(column).As("mean"), frame.Std(column, 0).As("std")).Collect(context.Background(), frame.WithAllocator(mem))
	if err != nil {
		return 0, err
	}
	defer t.Release()
	var mom [2]*array.Array // [1, element shape...]: broadcast along the rows
	for c := range mom {
		if mom[c], err = arrowio.FromArrow(mem, t.Record().Column(c)); err != nil {
			return 0, err
		}
		defer mom[c].Release()
	}
	for i, name := range files {
		if err := standardizeFile(mem, name, fmt.Sprintf("%s-%05d.parquet", output, i), column, batchRows, mom[0], mom[1]); err != nil {
			return 0, err
		}
	}
	return countRows(input)
}

// standardizeFile is pass 2 over one file.
func standardizeFile(mem memory.Allocator, in, out, column string, batchRows int, mean, std *array.Array) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	rr, err := parquetio.Read(f, parquetio.WithBatchRows(batchRows))
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	defer rr.Release()
	fr := frame.FromReader(rr)
	z, err := expr.Parse("(x - mean) / std", map[string]*expr.Node{"x": fr.Col(column), "mean": expr.Leaf(mean), "std": expr.Leaf(std)})
	if err != nil {
		return err
	}
	er, err := fr.WithColumns(frame.LetExpr("z", z)).Reader(context.Background(), frame.WithAllocator(mem), frame.WithWorkers(1))
	if err != nil {
		return err
	}
	defer er.Release()
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := parquetio.Write(w, er); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", out, err)
	}
	return w.Close()
}

// chainReader reads the Parquet files one after another as one stream (all
// of the first file's schema).
type chainReader struct {
	files []string
	opts  []parquetio.ReadOption
	i     int
	f     *os.File
	cur   arrowarray.RecordReader
	sch   *arrow.Schema
	err   error
}

func (c *chainReader) open() error {
	f, err := os.Open(c.files[c.i])
	if err != nil {
		return err
	}
	rr, err := parquetio.Read(f, c.opts...)
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", c.files[c.i], err)
	}
	if c.sch == nil {
		c.sch = rr.Schema()
	} else if !c.sch.Equal(rr.Schema()) {
		rr.Release()
		f.Close()
		return fmt.Errorf("%s: schema %v differs from the first file's %v", c.files[c.i], rr.Schema(), c.sch)
	}
	c.f, c.cur = f, rr
	return nil
}

func (c *chainReader) close() {
	if c.cur != nil {
		c.cur.Release()
		c.f.Close()
		c.cur, c.f = nil, nil
	}
}

func (c *chainReader) Retain()               {}
func (c *chainReader) Release()              { c.close() }
func (c *chainReader) Schema() *arrow.Schema { return c.sch }
func (c *chainReader) Err() error            { return c.err }

func (c *chainReader) Record() arrow.Record {
	if c.cur == nil {
		return nil
	}
	return c.cur.Record()
}

func (c *chainReader) Next() bool {
	for c.err == nil && c.cur != nil {
		if c.cur.Next() {
			return true
		}
		if c.err = c.cur.Err(); c.err != nil {
			return false
		}
		c.close()
		if c.i++; c.i == len(c.files) {
			return false
		}
		c.err = c.open()
	}
	return false
}
