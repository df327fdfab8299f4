// Command npdiff computes stride0's results for the cases of a NumPy
// comparison (bench/npdiff): the inputs and case lists that npdiff.py
// wrote into the current directory go in, raw results and a manifest
// (dtype and shape of each result, or the error) come out, and npdiff.py
// compares them with NumPy's. Results, not times: every dtype through the
// elementwise ops and reductions (ops), mixed-dtype pairs (mixed), random
// reductions (reduce) and random structural ops (structural).
//
//	npdiff ops|mixed|reduce|structural
//
// Run by bench/npdiff/run.sh; see its README for what it found.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: npdiff ops|mixed|reduce|structural (in the directory npdiff.py gen wrote)")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "ops":
		err = runOps()
	case "mixed":
		err = runMixed()
	case "reduce":
		err = runReduce()
	case "structural":
		err = runStructural()
	default:
		err = fmt.Errorf("unknown suite %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "npdiff:", err)
		os.Exit(1)
	}
}
