// Command workloads runs the shared performance workloads
// (../shared/perf/workloads.json) with stride0 and prints one JSON line per
// (variant, workload), the contract of ../shared/perf/README.md:
//
//	workloads -spec ../shared/perf/workloads.json -round 1 [-workloads W1,W3]
//
// Variants: alloc (the result is allocated by the evaluation), out (into an
// output allocated before timing, one goroutine), out_mt (the same with the
// default number of workers, GOMAXPROCS), alloc_mt (alloc with the default
// number of workers: what expr.Eval gives a user).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/bench"
)

func main() {
	spec := flag.String("spec", "../shared/perf/workloads.json", "workloads.json")
	round := flag.Int("round", 1, "round number (recorded in the output)")
	only := flag.String("workloads", "", "comma-separated workload ids (default all)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	s, err := bench.Load(*spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sel := map[string]bool{}
	for _, id := range strings.Split(*only, ",") {
		if id != "" {
			sel[id] = true
		}
	}
	mem := array.DefaultAllocator // what a user gets without naming an allocator
	failed := false
	for i := range s.Workloads {
		w := &s.Workloads[i]
		if len(sel) > 0 && !sel[w.ID] {
			continue
		}
		t0 := time.Now()
		if err := runOne(s, w, mem, *round); err != nil {
			fmt.Fprintf(os.Stderr, "[stride0] %s: %v\n", w.ID, err)
			failed = true
			continue
		}
		fmt.Fprintf(os.Stderr, "[stride0] %s done in %.1fs\n", w.ID, time.Since(t0).Seconds())
	}
	if failed {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func runOne(s *bench.Spec, w *bench.Workload, mem memory.Allocator, round int) error {
	c, err := bench.Prepare(s, w, mem)
	if err != nil {
		return err
	}
	defer c.Release()
	vs, free, err := c.Variants(s)
	if err != nil {
		return err
	}
	defer free()
	return s.Run(w, vs, round, os.Stdout)
}
