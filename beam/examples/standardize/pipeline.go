package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	sbeam "github.com/stride0/stride0/beam"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// runPipeline is the Beam pipeline: pass 1 reads only column from the files
// matching input (split by row group) and reduces it to its mean and
// (population) standard deviation with sbeam.Aggregate, a CombineFn whose
// accumulators are merged across workers; pass 2 reads the files again,
// evaluates z = (column - mean) / std with the one-row result of pass 1 as
// a side input, and writes Parquet files: one per bundle as the batches
// arrive (shards 0: nothing is grouped, so memory stays bounded), or shards
// files named output-SSSSS-of-NNNNN.parquet (grouped by shard: on prism the
// whole output is then held in memory). It runs on the runner --runner names
// (prism by default).
func runPipeline(ctx context.Context, input, output, column string, shards, batchRows int) error {
	p, s := beam.NewPipelineWithRoot()
	read := func(opts ...sbeam.ParquetReadOption) beam.PCollection {
		return sbeam.ReadParquet(s, input, append(opts, sbeam.WithBatchRows(batchRows))...)
	}
	stats := sbeam.Aggregate(s, read(sbeam.WithColumns(column)), frame.Mean(column).As("mean"), frame.Std(column, 0).As("std"))
	z := sbeam.Evaluate(s, read(), []sbeam.Output{{Name: "z", Expr: fmt.Sprintf("(%s - mean) / std", column)}}, stats)
	if shards > 0 {
		sbeam.WriteParquet(s, output, shards, z)
	} else {
		sbeam.WriteParquet(s, output, 0, z, sbeam.WithFilePerBundle())
	}
	return beamx.Run(ctx, p)
}

// countRows sums the rows of the local files matching input from their
// footers (for the rows per second the command reports).
func countRows(input string) (int64, error) {
	files, err := filepath.Glob(input)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return 0, err
		}
		info, err := parquetio.Info(f)
		f.Close()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		n += info.NumRows
	}
	return n, nil
}
