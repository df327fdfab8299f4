package frame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/parquetio"
)

// ScanParquet returns a Frame over Parquet files: path names one file, or
// is a glob pattern (filepath.Match's syntax: "data/*.parquet") whose
// files, in lexical order, must share one schema. Each run opens the files
// anew and reads only the columns the query uses (the others are not
// decoded). opts are parquetio's read options (limits, allocator, batch
// rows); WithColumns is the query's to decide and is ignored.
func ScanParquet(path string, opts ...parquetio.ReadOption) Frame {
	files, err := expand(path)
	if err != nil {
		return failed(fmt.Errorf("frame.ScanParquet: %w", err))
	}
	var schema *arrow.Schema
	for _, name := range files {
		s, err := parquetSchema(name, opts)
		if err != nil {
			return failed(fmt.Errorf("frame.ScanParquet %s: %w", name, err))
		}
		if schema == nil {
			schema = s
		} else if err := sameSchema(schema, s); err != nil {
			return failed(fmt.Errorf("frame.ScanParquet %s: %w (against %s)", name, err, files[0]))
		}
	}
	src := &parquetSource{files: files, opts: opts}
	return Frame{&node{kind: stepSource, schema: schema, src: src}}
}

// ScanParquetReaderAt returns a Frame over the Parquet file of size bytes
// that r reads (an in-memory file, an object in a store). r stays the
// caller's, and must outlive the Frame's runs.
func ScanParquetReaderAt(r io.ReaderAt, size int64, opts ...parquetio.ReadOption) Frame {
	if r == nil {
		return failed(fmt.Errorf("frame.ScanParquetReaderAt: %w: nil reader", ErrArgument))
	}
	info, err := parquetio.Info(io.NewSectionReader(r, 0, size), opts...)
	if err != nil {
		return failed(fmt.Errorf("frame.ScanParquetReaderAt: %w", err))
	}
	src := &parquetSource{at: r, size: size, opts: opts}
	return Frame{&node{kind: stepSource, schema: info.Schema, src: src}}
}

// expand resolves a path or a glob to files.
func expand(path string) ([]string, error) {
	if !strings.ContainsAny(path, "*?[") {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
		return []string{path}, nil
	}
	files, err := filepath.Glob(path)
	if err != nil {
		return nil, fmt.Errorf("%w: pattern %q: %v", ErrArgument, path, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no file matches %q", ErrSource, path)
	}
	sort.Strings(files)
	return files, nil
}

func parquetSchema(name string, opts []parquetio.ReadOption) (*arrow.Schema, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := parquetio.Info(f, opts...)
	if err != nil {
		return nil, err
	}
	return info.Schema, nil
}

// parquetSource reads Parquet files (or one io.ReaderAt).
type parquetSource struct {
	files []string
	at    io.ReaderAt
	size  int64
	opts  []parquetio.ReadOption
}

func (s *parquetSource) describe() string {
	if s.at != nil {
		return "a Parquet reader"
	}
	if len(s.files) == 1 {
		return "Parquet " + s.files[0]
	}
	return fmt.Sprintf("%d Parquet files", len(s.files))
}

func (s *parquetSource) open(ctx context.Context, mem memory.Allocator) (batches, error) {
	return nil, fmt.Errorf("frame: internal error: a Parquet source opened without its columns")
}

// openColumns opens the source reading the columns need marks.
// Row groups whose statistics refute one of conds are not read.
// With workers > 1, that many row groups are decoded at once, ahead of
// the batches read.
func (s *parquetSource) openColumns(ctx context.Context, mem memory.Allocator, schema *arrow.Schema, need []bool, conds []cond, stats *Stats, workers int) (batches, error) {
	var cols []string
	for i, f := range schema.Fields() {
		if need == nil || need[i] {
			cols = append(cols, f.Name)
		}
	}
	return &parquetBatches{s: s, ctx: ctx, mem: mem, schema: schema, need: need, cols: cols, conds: conds, stats: stats, workers: workers}, nil
}

type parquetBatches struct {
	s        *parquetSource
	ctx      context.Context
	mem      memory.Allocator
	schema   *arrow.Schema
	need     []bool
	cols     []string
	nextFile int // next file
	file     *os.File
	rr       arrowarray.RecordReader
	conds    []cond // what a row group must not refute
	stats    *Stats
	workers  int // row groups decoded at once
}

func (b *parquetBatches) openNext() error {
	for {
		skip, err := b.openFile()
		if err != nil || !skip {
			return err
		}
	}
}

// openFile opens the next file; skip says that its statistics left no row
// group to read.
func (b *parquetBatches) openFile() (skip bool, err error) {
	b.closeFile()
	var r parquet.ReaderAtSeeker
	if b.s.at != nil {
		if b.nextFile > 0 {
			return false, io.EOF
		}
		r = io.NewSectionReader(b.s.at, 0, b.s.size)
	} else {
		if b.nextFile >= len(b.s.files) {
			return false, io.EOF
		}
		f, err := os.Open(b.s.files[b.nextFile])
		if err != nil {
			return false, err
		}
		b.file, r = f, f
	}
	b.nextFile++
	opts := append(append([]parquetio.ReadOption{parquetio.WithAllocator(b.mem), parquetio.WithRowGroupWorkers(b.workers)}, b.s.opts...), parquetio.WithColumns(b.cols...))
	if len(b.cols) == 0 {
		// no column is read (count(*)): read the first, for the row counts
		opts = append(opts[:len(opts)-1], parquetio.WithColumns(b.schema.Field(0).Name))
	}
	if len(b.conds) > 0 || b.stats != nil {
		info, err := parquetio.Info(r, opts...)
		if err != nil {
			return false, err
		}
		var keep []int
		for g, rg := range info.RowGroups {
			refuted := false
			for _, c := range b.conds {
				if c.refutes(rg) {
					refuted = true
					break
				}
			}
			if !refuted {
				keep = append(keep, g)
			}
		}
		if b.stats != nil {
			b.stats.RowGroups.Add(int64(len(keep)))
			b.stats.RowGroupsSkipped.Add(int64(len(info.RowGroups) - len(keep)))
		}
		if len(keep) == 0 && len(info.RowGroups) > 0 {
			return true, nil
		}
		if len(keep) < len(info.RowGroups) {
			opts = append(opts, parquetio.WithRowGroups(keep...))
		}
	}
	rr, err := parquetio.Read(r, opts...)
	if err != nil {
		return false, err
	}
	b.rr = rr
	return false, nil
}

func (b *parquetBatches) next() (arrow.Record, error) {
	for {
		if err := b.ctx.Err(); err != nil {
			return nil, err
		}
		if b.rr == nil {
			if err := b.openNext(); err != nil {
				return nil, err
			}
		}
		if b.rr.Next() {
			return b.widen(b.rr.Record())
		}
		if err := b.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		b.rr.Release()
		b.rr = nil
	}
}

// widen gives a batch of the read columns the full schema, unread columns
// as nulls.
func (b *parquetBatches) widen(rec arrow.Record) (arrow.Record, error) {
	rows := rec.NumRows()
	cols := make([]arrow.Array, b.schema.NumFields())
	var made []arrow.Array
	defer func() {
		for _, c := range made {
			c.Release()
		}
	}()
	for i, f := range b.schema.Fields() {
		if idx := rec.Schema().FieldIndices(f.Name); len(idx) == 1 && (b.need == nil || b.need[i]) {
			cols[i] = rec.Column(idx[0])
			continue
		}
		c := arrowarray.MakeArrayOfNull(b.mem, f.Type, int(rows))
		made = append(made, c)
		cols[i] = c
	}
	return arrowarray.NewRecord(b.schema, cols, rows), nil
}

func (b *parquetBatches) closeFile() {
	if b.rr != nil {
		b.rr.Release()
		b.rr = nil
	}
	if b.file != nil {
		b.file.Close()
		b.file = nil
	}
}

func (b *parquetBatches) close() { b.closeFile() }

// ScanIPC returns a Frame over an Arrow IPC file (the file format, also
// called Feather v2), read anew by each run. opts are arrowio's read
// options.
func ScanIPC(path string, opts ...arrowio.ReadOption) Frame {
	f, err := os.Open(path)
	if err != nil {
		return failed(fmt.Errorf("frame.ScanIPC: %w", err))
	}
	defer f.Close()
	rr, err := arrowio.ReadFile(f, opts...)
	if err != nil {
		return failed(fmt.Errorf("frame.ScanIPC %s: %w", path, err))
	}
	s := rr.Schema()
	rr.Release()
	return Frame{&node{kind: stepSource, schema: s, src: &ipcSource{path: path, opts: opts}}}
}

type ipcSource struct {
	path string
	opts []arrowio.ReadOption
}

func (s *ipcSource) describe() string { return "IPC " + s.path }

func (s *ipcSource) open(_ context.Context, mem memory.Allocator) (batches, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, err
	}
	rr, err := arrowio.ReadFile(f, append([]arrowio.ReadOption{arrowio.WithAllocator(mem)}, s.opts...)...)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("frame.ScanIPC %s: %w", s.path, err)
	}
	return &ipcBatches{f: f, rr: rr}, nil
}

type ipcBatches struct {
	f  *os.File
	rr arrowarray.RecordReader
}

func (b *ipcBatches) next() (arrow.Record, error) {
	if b.rr.Next() {
		r := b.rr.Record()
		r.Retain()
		return r, nil
	}
	if err := b.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return nil, io.EOF
}

func (b *ipcBatches) close() {
	b.rr.Release()
	b.f.Close()
}

// WriteParquet runs f and writes its rows to w as a Parquet file (with
// parquetio.Write's options, given by WithParquetWrite; the column chunks
// of a row group are encoded by WithWorkers workers unless
// parquetio.WithWriteWorkers says otherwise). It does not close w.
func (f Frame) WriteParquet(ctx context.Context, w io.Writer, opts ...Option) error {
	rr, err := f.Reader(ctx, opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	cfg := makeConfig(opts)
	wopts := append([]parquetio.WriteOption{parquetio.WithWriteWorkers(cfg.workers)}, cfg.parquet...)
	if err := parquetio.Write(w, rr, wopts...); err != nil {
		return fmt.Errorf("frame.WriteParquet: %w", err)
	}
	return nil
}

// WriteIPC runs f and writes its rows to w as an Arrow IPC file (the
// file format, with its footer). It does not close w.
func (f Frame) WriteIPC(ctx context.Context, w io.Writer, opts ...Option) error {
	rr, err := f.Reader(ctx, opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	if _, err := arrowio.WriteFile(w, rr); err != nil {
		return fmt.Errorf("frame.WriteIPC: %w", err)
	}
	return nil
}

// WriteIPCStream runs f and writes its rows to w as an Arrow IPC stream.
func (f Frame) WriteIPCStream(ctx context.Context, w io.Writer, opts ...Option) error {
	rr, err := f.Reader(ctx, opts...)
	if err != nil {
		return err
	}
	defer rr.Release()
	if _, err := arrowio.WriteStream(w, rr); err != nil {
		return fmt.Errorf("frame.WriteIPCStream: %w", err)
	}
	return nil
}

// collectParquet is Collect of a Frame that is a Parquet source alone (one
// file or reader, every column, no statistics asked): the file is read
// whole by parquetio.ReadTable, each column decoded straight into one
// array, with no batches to concatenate. ok is false for any other Frame.
func collectParquet(ctx context.Context, f Frame, cfg runConfig) (t *Table, ok bool, err error) {
	if ctx != nil && ctx.Err() != nil {
		return nil, false, nil // the run's own error
	}
	n := f.node()
	s, isPq := n.src.(*parquetSource)
	if n.err != nil || n.kind != stepSource || !isPq || cfg.stats != nil || (s.at == nil && len(s.files) != 1) {
		return nil, false, nil
	}
	cols := make([]string, n.schema.NumFields())
	for i, fl := range n.schema.Fields() {
		cols[i] = fl.Name
	}
	if len(cols) == 0 {
		return nil, false, nil
	}
	opts := append(append([]parquetio.ReadOption{parquetio.WithAllocator(cfg.mem), parquetio.WithRowGroupWorkers(cfg.workers)}, s.opts...), parquetio.WithColumns(cols...))
	var r parquet.ReaderAtSeeker
	if s.at != nil {
		r = io.NewSectionReader(s.at, 0, s.size)
	} else {
		file, err := os.Open(s.files[0])
		if err != nil {
			return nil, true, err
		}
		defer file.Close()
		r = file
	}
	rec, err := parquetio.ReadTable(r, opts...)
	if err != nil {
		return nil, true, err
	}
	for i, fl := range n.schema.Fields() {
		if !arrow.TypeEqual(fl.Type, rec.Column(i).DataType()) {
			rec.Release()
			return nil, false, nil // (as the batches' widen would not give either)
		}
	}
	out := arrowarray.NewRecord(n.schema, rec.Columns(), rec.NumRows())
	rec.Release()
	return &Table{rec: out, mem: cfg.mem}, true, nil
}
