// Command evaluate adds computed columns to a folder of Arrow IPC files
// with a Beam pipeline: it reads the files matching --input (split by
// file), evaluates each --expr (name=expression, expr.Parse's language) per
// record batch, and writes the batches with the new columns as --shards IPC
// files named --output-SSSSS-of-NNNNN.arrow.
//
// It runs in-process on Beam's prism runner by default, and on any runner
// by Beam's usual flags, for example:
//
//	go run ./examples/evaluate --input 'data/*.arrow' --output out/res --expr 'z=(x - 100) / 5'
//	go run ./examples/evaluate ... --runner flink --endpoint localhost:8099 --environment_type LOOPBACK
//	go run ./examples/evaluate ... --runner dataflow --project P --region R --staging_location gs://B/staging
//
// (On a cluster, --input and --output must name storage every worker sees,
// such as gs://.)
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	sbeam "github.com/stride0/stride0/beam"
)

type exprFlags []sbeam.Output

func (e *exprFlags) String() string { return fmt.Sprint(*e) }

func (e *exprFlags) Set(s string) error {
	name, src, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("--expr %q: want name=expression", s)
	}
	*e = append(*e, sbeam.Output{Name: strings.TrimSpace(name), Expr: src})
	return nil
}

func main() {
	input := flag.String("input", "", "glob of the Arrow IPC files to read (required)")
	output := flag.String("output", "", "prefix of the IPC files to write (required)")
	shards := flag.Int("shards", 1, "number of files to write")
	var exprs exprFlags
	flag.Var(&exprs, "expr", "a column to add, name=expression (repeatable)")
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" || len(exprs) == 0 {
		fmt.Fprintln(os.Stderr, "evaluate: --input, --output and at least one --expr are required")
		flag.Usage()
		os.Exit(2)
	}
	if err := run(context.Background(), *input, *output, *shards, exprs); err != nil {
		log.Fatalf("evaluate: %v", err)
	}
}

// run builds the pipeline and runs it on the runner --runner names.
func run(ctx context.Context, input, output string, shards int, exprs []sbeam.Output) error {
	p, s := beam.NewPipelineWithRoot()
	batches := sbeam.ReadIPC(s, input)
	sbeam.WriteIPC(s, output, shards, sbeam.Evaluate(s, batches, exprs))
	return beamx.Run(ctx, p)
}
