// Command standardize standardizes a tensor column over a folder of Parquet
// files with a Beam pipeline: z = (x - mean) / std, element by element of
// the tensor, with the mean and the standard deviation over every row of
// every file. Pass 1 computes them with sbeam.Aggregate (frame.Aggregator accumulators merged
// across workers), pass 2 evaluates z with them as a side input
// (sbeam.Evaluate) and writes Parquet files (sbeam.WriteParquet).
//
//	go run ./examples/standardize --gen data --files 8 --rows 880000   # about 1 GB of test data
//	go run ./examples/standardize --input 'data/*.parquet' --output out/z
//	go run ./examples/standardize --local --input 'data/*.parquet' --output out/z
//
// It runs in-process on Beam's prism runner by default and on any runner by
// Beam's usual flags (--runner flink|spark|dataflow ...; the input and
// output must then be storage every worker sees). --local runs the same two
// passes in this process with package frame alone (the baseline the pipeline is
// measured against).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

func main() {
	input := flag.String("input", "", "glob of the Parquet files to read")
	output := flag.String("output", "", "prefix of the Parquet files to write")
	column := flag.String("column", "x", "the tensor (or numeric) column to standardize")
	local := flag.Bool("local", false, "run in this process with package frame alone, not as a Beam pipeline")
	gen := flag.String("gen", "", "generate test data into this folder instead")
	files := flag.Int("files", 8, "with --gen: number of files")
	rows := flag.Int("rows", 1<<20, "with --gen: rows per file")
	shape := flag.String("shape", "4,4", "with --gen: shape of a row of x")
	rowGroup := flag.Int("rowgroup", 256<<10, "with --gen: rows per row group")
	shards := flag.Int("shards", 0, "number of Parquet files the pipeline writes (0: one per bundle, nothing grouped)")
	batchRows := flag.Int("batch", 64<<10, "rows per record batch")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	beam.Init()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatalf("standardize: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatalf("standardize: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	switch {
	case *gen != "":
		sh, err := parseShape(*shape)
		if err != nil {
			log.Fatalf("standardize: --shape: %v", err)
		}
		if err := generate(*gen, *files, *rows, sh, *rowGroup, 1); err != nil {
			log.Fatalf("standardize: %v", err)
		}
		fmt.Printf("wrote %d files of %d rows in %v\n", *files, *rows, time.Since(start))
	case *input == "" || *output == "":
		fmt.Fprintln(os.Stderr, "standardize: --input and --output (or --gen) are required")
		flag.Usage()
		os.Exit(2)
	case *local:
		n, err := runLocal(*input, *output, *column, *batchRows)
		if err != nil {
			log.Fatalf("standardize: %v", err)
		}
		report(n, time.Since(start))
	default:
		if err := os.MkdirAll(filepath.Dir(*output), 0o755); err != nil {
			log.Fatalf("standardize: %v", err)
		}
		if err := runPipeline(context.Background(), *input, *output, *column, *shards, *batchRows); err != nil {
			log.Fatalf("standardize: %v", err)
		}
		d := time.Since(start)
		n, err := countRows(*input)
		if err != nil { // a remote glob: no count
			fmt.Printf("done in %v\n", d.Round(time.Millisecond))
			return
		}
		report(n, d)
	}
}

func report(rows int64, d time.Duration) {
	fmt.Printf("standardized %d rows in %v (%.0f rows/s)\n", rows, d.Round(time.Millisecond), float64(rows)/d.Seconds())
}

func parseShape(s string) ([]int, error) {
	var sh []int
	for _, p := range strings.Split(s, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || d < 1 {
			return nil, fmt.Errorf("%q: want positive integers separated by commas", s)
		}
		sh = append(sh, d)
	}
	return sh, nil
}
