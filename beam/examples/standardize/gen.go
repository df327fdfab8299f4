package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/parquetio"
)

// genBatchRows is the number of rows generate makes at a time.
const genBatchRows = 64 << 10

// generate writes files Parquet files of rows rows each into dir, named
// part-FFFFF.parquet: an int64 column "id" and a float64 tensor column
// "x" of shape shape whose element j is normal with mean j and standard
// deviation j+1 (so every element standardizes differently), in row groups
// of rowGroup rows. The data is a function of seed.
func generate(dir string, files, rows int, shape []int, rowGroup int, seed uint64) error {
	if files < 1 || rows < 1 {
		return fmt.Errorf("generate: %d files of %d rows: want at least one of each", files, rows)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for f := 0; f < files; f++ {
		name := filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", f))
		if err := genFile(name, f, rows, shape, rowGroup, seed); err != nil {
			return err
		}
	}
	return nil
}

func genFile(name string, f, rows int, shape []int, rowGroup int, seed uint64) (err error) {
	rng := rand.New(rand.NewPCG(seed, uint64(f)))
	k := 1
	for _, d := range shape {
		k *= d
	}
	var recs []arrow.Record
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for off := 0; off < rows; off += genBatchRows {
		n := min(genBatchRows, rows-off)
		rec, err := genBatch(rng, int64(f)*int64(rows)+int64(off), n, k, shape)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
	}
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		return err
	}
	defer rr.Release()
	w, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := parquetio.Write(w, rr, parquetio.WithRowGroupRows(rowGroup)); err != nil {
		w.Close()
		return fmt.Errorf("generate %s: %w", name, err)
	}
	return w.Close()
}

// genBatch makes n rows starting at id first.
func genBatch(rng *rand.Rand, first int64, n, k int, shape []int) (arrow.Record, error) {
	mem := memory.DefaultAllocator
	ids := make([]int64, n)
	xs := make([]float64, n*k)
	for i := range ids {
		ids[i] = first + int64(i)
		for j := 0; j < k; j++ {
			xs[i*k+j] = float64(j) + float64(j+1)*rng.NormFloat64()
		}
	}
	x, err := array.FromSlice(mem, xs, append([]int{n}, shape...)...)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	xcol, err := arrowio.ToTensorColumn(mem, x)
	if err != nil {
		return nil, err
	}
	defer xcol.Release()
	ib := arrowarray.NewInt64Builder(mem)
	defer ib.Release()
	ib.AppendValues(ids, nil)
	idcol := ib.NewArray()
	defer idcol.Release()
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: xcol.DataType()},
	}, nil)
	return arrowarray.NewRecord(s, []arrow.Array{idcol, xcol}, int64(n)), nil
}
