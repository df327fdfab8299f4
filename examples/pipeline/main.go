// Command pipeline normalizes a stream of feature rows with stride0 and
// flags outliers, reading and writing Arrow IPC streams.
//
// The input is an IPC stream whose column "features" holds one float32 (or
// float64) vector per row, as an arrow.fixed_shape_tensor column. The program
// makes two passes: the first computes each feature's mean and standard
// deviation over the whole stream with package frame's aggregates (per-batch
// moments merged by Chan's formulas), the second evaluates, batch by batch
// (frame's WithColumns),
//
//	z       = (features - mean) * inv_std   // mean, inv_std: [F], broadcast onto [rows, F]
//	outlier = z > threshold                  // bool [rows, F]
//
// and writes the input columns plus z and outlier as an IPC stream. Memory
// stays bounded by a batch or two whatever the stream's length.
//
// Usage:
//
//	go run ./examples/pipeline                     # generates its own input
//	go run ./examples/pipeline -in features.arrows -out normalized.arrows
//	go run ./examples/pipeline -rows 100000 -features 16 -threshold 2.5 -out result.arrows
//
// With -out the result can be read by any Arrow implementation, e.g. in Python:
//
//	import pyarrow as pa
//	t = pa.ipc.open_stream("normalized.arrows").read_all()
//	z = t.column("z").chunk(0).to_numpy_ndarray()   # shape (rows, F)
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/frame"
)

func main() {
	in := flag.String("in", "", "input IPC stream (default: generate one)")
	out := flag.String("out", "", "write the result IPC stream (input columns + z, outlier) to this file")
	rows := flag.Int("rows", 20000, "rows to generate when -in is not given")
	batch := flag.Int("batch", 1024, "rows per generated batch")
	features := flag.Int("features", 8, "features per row to generate")
	threshold := flag.Float64("threshold", 2, "flag features whose z-score exceeds this")
	column := flag.String("column", "features", "name of the feature column")
	flag.Parse()
	if err := run(os.Stdout, *in, *out, *column, *rows, *batch, *features, *threshold); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

// run is the whole program; it writes its summary to w.
func run(w io.Writer, in, out, column string, rows, batch, features int, threshold float64) error {
	mem := memory.DefaultAllocator
	// open returns a fresh reader over the input for each pass.
	var open func() (arrowarray.RecordReader, error)
	if in == "" {
		data, err := generate(mem, rows, batch, features)
		if err != nil {
			return err
		}
		open = func() (arrowarray.RecordReader, error) { return arrowio.ReadStream(bytes.NewReader(data)) }
		fmt.Fprintf(w, "generated %d rows x %d features in batches of %d\n", rows, features, batch)
	} else {
		open = func() (arrowarray.RecordReader, error) {
			f, err := os.Open(in)
			if err != nil {
				return nil, err
			}
			rr, err := arrowio.ReadStream(f)
			if err != nil {
				f.Close()
				return nil, err
			}
			return &closingReader{RecordReader: rr, f: f}, nil
		}
	}

	// Pass 1: per-feature mean, standard deviation and count over the whole
	// stream, one batch at a time (frame's aggregates of a tensor column
	// are per element; moments merge by Chan's formulas).
	ctx := context.Background()
	rr, err := open()
	if err != nil {
		return err
	}
	stats, err := frame.FromReader(rr).GroupBy().
		Agg(frame.Mean(column).As("mean"), frame.Std(column, 0).As("std"), frame.CountOf(column).As("count")).
		Collect(ctx, frame.WithAllocator(mem))
	rr.Release()
	if err != nil {
		return err
	}
	defer stats.Release()
	if stats.Record().Column(2).(*arrowarray.Int64).Value(0) == 0 {
		return errors.New("the input has no values")
	}
	row := func(c int) (*array.Array, error) { // the [1, F] result as [F]
		a, err := arrowio.FromArrow(mem, stats.Record().Column(c))
		if err != nil {
			return nil, err
		}
		defer a.Release()
		return a.Reshaped(a.Shape()[1:]...)
	}
	meanA, err := row(0)
	if err != nil {
		return err
	}
	defer meanA.Release()
	stdA, err := row(1)
	if err != nil {
		return err
	}
	defer stdA.Release()
	dt := meanA.DType() // the column's dtype
	mean, _ := array.ToSlice[float64](meanA)
	std, _ := array.ToSlice[float64](stdA)

	// Pass 2: normalize and compare, batch by batch.
	rr, err = open()
	if err != nil {
		return err
	}
	f := frame.FromReader(rr)
	x := f.Col(column)
	// 1/std, or 1 where a feature is constant
	sd := expr.Leaf(stdA)
	inv := expr.Where(expr.Greater(sd, expr.Const(0)), expr.Div(expr.Const(1), sd), expr.Const(1))
	z := expr.Mul(expr.Sub(x, expr.Leaf(meanA)), inv)
	outlier := expr.Greater(expr.Abs(z), expr.Scalar(threshold, dt))
	ev, err := f.WithColumns(frame.LetExpr("z", z), frame.LetExpr("outlier", outlier)).Reader(ctx, frame.WithAllocator(mem))
	if err != nil {
		rr.Release()
		return err
	}
	defer rr.Release()
	defer ev.Release()
	counter := &countingReader{RecordReader: ev, mem: mem}
	var dst io.Writer = io.Discard
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		dst = f
	}
	batches, err := arrowio.WriteStream(dst, counter)
	if err != nil {
		return err
	}
	if counter.err != nil {
		return counter.err
	}

	n := counter.rows
	fmt.Fprintf(w, "rows %d in %d batches, %d features (%v)\n", n, batches, len(mean), dt)
	show := min(len(mean), 4)
	fmt.Fprintf(w, "mean %.3f  std %.3f", mean[:show], std[:show])
	if show < len(mean) {
		fmt.Fprint(w, " ...")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "outliers |z| > %g: %d of %d values (%.2f%%)\n", threshold, counter.flagged, n*len(mean), 100*float64(counter.flagged)/float64(n*len(mean)))
	if out != "" {
		fmt.Fprintf(w, "wrote %s: columns %v\n", out, names(ev.Schema()))
	}
	return nil
}

// generate writes an IPC stream of rows feature vectors: feature j is
// normal with mean j and standard deviation 1+j/2, with a few planted
// outliers.
func generate(mem memory.Allocator, rows, batch, features int) ([]byte, error) {
	if rows < 1 || batch < 1 || features < 1 {
		return nil, fmt.Errorf("rows, batch and features must be positive")
	}
	rng := rand.New(rand.NewSource(1))
	var recs []arrow.Record
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	var schema *arrow.Schema
	for r0 := 0; r0 < rows; r0 += batch {
		n := min(batch, rows-r0)
		vals := make([]float32, n*features)
		ids := make([]int64, n)
		for r := 0; r < n; r++ {
			ids[r] = int64(r0 + r)
			for j := 0; j < features; j++ {
				v := float64(j) + (1+float64(j)/2)*rng.NormFloat64()
				if rng.Intn(500) == 0 {
					v += 10 * (1 + float64(j)/2)
				}
				vals[r*features+j] = float32(v)
			}
		}
		a, err := array.FromSlice(mem, vals, n, features)
		if err != nil {
			return nil, err
		}
		col, err := arrowio.ToTensorColumn(mem, a, arrowio.WithDimNames("feature"))
		a.Release()
		if err != nil {
			return nil, err
		}
		idA, err := array.FromSlice(mem, ids)
		if err != nil {
			col.Release()
			return nil, err
		}
		idCol, err := arrowio.ToArrow(mem, idA)
		idA.Release()
		if err != nil {
			col.Release()
			return nil, err
		}
		if schema == nil {
			schema = arrow.NewSchema([]arrow.Field{{Name: "id", Type: idCol.DataType()}, {Name: "features", Type: col.DataType()}}, nil)
		}
		recs = append(recs, arrowarray.NewRecord(schema, []arrow.Array{idCol, col}, int64(n)))
		idCol.Release()
		col.Release()
	}
	var buf bytes.Buffer
	if err := arrowio.WriteRecords(&buf, false, schema, recs); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// countingReader counts the rows and the outlier flags of each batch as it
// passes.
type countingReader struct {
	arrowarray.RecordReader
	mem     memory.Allocator
	rows    int
	flagged int
	err     error
}

func (c *countingReader) Next() bool {
	if !c.RecordReader.Next() {
		return false
	}
	rec := c.Record()
	c.rows += int(rec.NumRows())
	a, err := arrowio.FromArrow(c.mem, rec.Column(int(rec.NumCols())-1))
	if err != nil {
		c.err = err
		return false
	}
	flags, _ := array.ToSlice[bool](a)
	a.Release()
	for _, f := range flags {
		if f {
			c.flagged++
		}
	}
	return true
}

// closingReader closes the input file with the reader's last reference.
type closingReader struct {
	arrowarray.RecordReader
	f    *os.File
	refs int
}

func (c *closingReader) Retain() { c.refs++; c.RecordReader.Retain() }

func (c *closingReader) Release() {
	c.RecordReader.Release()
	if c.refs == 0 {
		c.f.Close()
		return
	}
	c.refs--
}

func names(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}
