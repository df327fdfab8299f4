// Command analytics runs, with package frame, the 7-line pandas job of the
// README: read a Parquet file, keep the rows where y > 0, standardize a 4x4
// tensor column over the rows, take the mean and count of y and the mean
// standardized tensor per site, sort, keep the top 5, write Parquet.
//
//	go run ./examples/analytics                       # on generated data
//	go run ./examples/analytics -in data.parquet -out top.parquet
//
// The input needs a utf8 column site, a float column y and a
// fixed_shape_tensor column x of shape [4, 4] (any float dtype).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

func main() {
	in := flag.String("in", "", "input Parquet file (default: generate one)")
	out := flag.String("out", "", "output Parquet file (default: a temporary file)")
	rows := flag.Int("rows", 200_000, "rows to generate when -in is not given")
	flag.Parse()
	if err := run(os.Stdout, *in, *out, *rows); err != nil {
		log.Fatal(err)
	}
}

// job is the pandas job, in frame: the whole query is one expression.
func job(in string) frame.Frame {
	return frame.ScanParquet(in).
		Filter("y > 0").
		WithColumns(frame.Let("z", "(x - mean(x, axis=0)) / std(x, axis=0)")).
		GroupBy("site").Agg(frame.Mean("y"), frame.Count().As("n"), frame.Mean("z")).
		TopK(5, frame.Desc("y"))
}

func run(w io.Writer, in, out string, rows int) error {
	if in == "" {
		dir, err := os.MkdirTemp("", "stride0-analytics-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		in = filepath.Join(dir, "measurements.parquet")
		if err := generate(in, rows); err != nil {
			return err
		}
		if out == "" {
			out = filepath.Join(dir, "top.parquet")
		}
	}
	if out == "" {
		out = "top.parquet"
	}
	f := job(in)
	fmt.Fprintln(w, f.Explain())
	t, err := f.Collect(context.Background())
	if err != nil {
		return err
	}
	defer t.Release()
	fmt.Fprintln(w, t)
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := t.Frame().WriteParquet(context.Background(), o); err != nil {
		o.Close()
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", out)
	return nil
}

// generate writes rows measurements: site (20 sites), y ~ N(site/10, 1),
// x a 4x4 float32 tensor whose element (i, j) ~ N(i + j, 1 + i).
func generate(path string, rows int) error {
	xt, err := arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4, 4}, nil, nil)
	if err != nil {
		return err
	}
	s := arrow.NewSchema([]arrow.Field{
		{Name: "site", Type: arrow.BinaryTypes.String},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64},
		{Name: "x", Type: xt},
	}, nil)
	r := rand.New(rand.NewPCG(1, 2))
	var recs []arrow.Record
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	for at := 0; at < rows; at += 65536 {
		b := arrowarray.NewRecordBuilder(memory.DefaultAllocator, s)
		for i := at; i < min(rows, at+65536); i++ {
			site := r.IntN(20)
			b.Field(0).(*arrowarray.StringBuilder).Append(fmt.Sprintf("site-%02d", site))
			b.Field(1).(*arrowarray.Float64Builder).Append(r.NormFloat64() + float64(site)/10)
			xb := b.Field(2).(*arrowarray.ExtensionBuilder).Builder.(*arrowarray.FixedSizeListBuilder)
			xb.Append(true)
			for e := 0; e < 16; e++ {
				xb.ValueBuilder().(*arrowarray.Float32Builder).Append(float32(r.NormFloat64()*float64(1+e/4) + float64(e/4+e%4)))
			}
		}
		recs = append(recs, b.NewRecord())
		b.Release()
	}
	rr, err := arrowarray.NewRecordReader(s, recs)
	if err != nil {
		return err
	}
	defer rr.Release()
	var buf bytes.Buffer
	if err := parquetio.Write(&buf, rr); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
