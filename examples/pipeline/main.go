// Command pipeline normalizes a stream of feature rows with stride0 and
// flags outliers, reading and writing Arrow IPC streams.
//
// The input is an IPC stream whose column "features" holds one float32 (or
// float64) vector per row, as an arrow.fixed_shape_tensor column. The program
// makes two passes: the first computes each feature's mean and standard
// deviation (a sum over the rows of every batch), the second evaluates, batch
// by batch,
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
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/expr"
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

	// Pass 1: per-feature mean and standard deviation.
	rr, err := open()
	if err != nil {
		return err
	}
	x, err := arrowio.SchemaVar(rr.Schema(), column)
	if err != nil {
		rr.Release()
		return err
	}
	mean, std, n, err := moments(mem, rr, x)
	rr.Release()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("the input has no rows")
	}
	dt := x.DType()
	meanA, err := array.FromSlice(mem, mean)
	if err != nil {
		return err
	}
	defer meanA.Release()
	inv := make([]float64, len(std))
	for i, s := range std {
		inv[i] = 1
		if s > 0 {
			inv[i] = 1 / s
		}
	}
	invA, err := array.FromSlice(mem, inv)
	if err != nil {
		return err
	}
	defer invA.Release()

	// Pass 2: normalize and compare, batch by batch.
	z := expr.Mul(expr.Sub(x, expr.Cast(expr.Leaf(meanA), dt)), expr.Cast(expr.Leaf(invA), dt))
	outlier := expr.Greater(expr.Abs(z), expr.Scalar(threshold, dt))
	rr, err = open()
	if err != nil {
		return err
	}
	ev, err := arrowio.Evaluate(mem, rr, arrowio.Output{Name: "z", Expr: z}, arrowio.Output{Name: "outlier", Expr: outlier})
	rr.Release()
	if err != nil {
		return err
	}
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

// moments returns the per-feature mean and standard deviation of the
// column x stands for, using one plan for Σx and Σx² per batch.
func moments(mem memory.Allocator, rr arrowarray.RecordReader, x *expr.Node) (mean, std []float64, rows int, err error) {
	xf := expr.Cast(x, array.Float64)
	sum, err := expr.Compile(expr.ReduceSum(xf, []int{0}, false), expr.WithAllocator(mem))
	if err != nil {
		return nil, nil, 0, err
	}
	sumSq, err := expr.Compile(expr.ReduceSum(expr.Mul(xf, xf), []int{0}, false), expr.WithAllocator(mem))
	if err != nil {
		return nil, nil, 0, err
	}
	var s, s2 []float64
	col := rr.Schema().FieldIndices(x.Vars()[0])[0]
	for rr.Next() {
		a, err := arrowio.FromArrow(mem, rr.Record().Column(col))
		if err != nil {
			return nil, nil, 0, err
		}
		b := expr.Bindings{x.Vars()[0]: a}
		r1, err := sum.Eval(b)
		if err != nil {
			a.Release()
			return nil, nil, 0, err
		}
		r2, err := sumSq.Eval(b)
		a.Release()
		if err != nil {
			r1.Release()
			return nil, nil, 0, err
		}
		v1, _ := array.ToSlice[float64](r1)
		v2, _ := array.ToSlice[float64](r2)
		r1.Release()
		r2.Release()
		if s == nil {
			s, s2 = make([]float64, len(v1)), make([]float64, len(v1))
		}
		for i := range v1 {
			s[i] += v1[i]
			s2[i] += v2[i]
		}
		rows += int(rr.Record().NumRows())
	}
	if err := rr.Err(); err != nil {
		return nil, nil, 0, err
	}
	mean, std = make([]float64, len(s)), make([]float64, len(s))
	for i := range s {
		mean[i] = s[i] / float64(rows)
		std[i] = math.Sqrt(math.Max(s2[i]/float64(rows)-mean[i]*mean[i], 0))
	}
	return mean, std, rows, nil
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

// countingReader counts the outlier flags of each batch as it passes.
type countingReader struct {
	arrowarray.RecordReader
	mem     memory.Allocator
	flagged int
	err     error
}

func (c *countingReader) Next() bool {
	if !c.RecordReader.Next() {
		return false
	}
	rec := c.Record()
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
