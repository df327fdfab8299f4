// Command conformance checks the library against broadcasting case files in
// the format of the shared conformance README.
//
//	go run ./cmd/conformance FILE_OR_DIR...
//
// It prints a line for every failed case (its id, expected and got), for
// every skipped case (its id and why) and for every passed case that
// skipped some of its element types (which and why), then
//
//	N passed, N failed, N skipped
//
// A case listed in conformance.Errata (a published expectation that
// contradicts its reference) is checked against the reference's values and
// reported as skipped with the erratum when it passes those.
//
// Cases that expect values are computed with the library (package view
// and package expr; see conformance.Library) unless -shape-only is given,
// which skips them. It exits 1 when a case fails or the evaluations leak
// memory, and 2 when a file cannot be read.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/internal/conformance"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("q", false, "do not list skipped cases (nor the skipped element types of passed ones)")
	verbose := fs.Bool("v", false, "also list passed cases, with what the library computed")
	shapeOnly := fs.Bool("shape-only", false, "do not evaluate: skip the cases that expect values")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conformance [-q] [-v] [-shape-only] FILE_OR_DIR...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	paths, unreadable := expand(fs.Args(), stderr)
	// Value cases are computed by the library, from an allocator that
	// counts: whatever is left allocated at the end is a leak.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	var vc conformance.ValueChecker
	if !*shapeOnly {
		vc = conformance.NewLibrary(mem)
	}
	var passed, failed, skipped int
	for _, path := range paths {
		f, err := conformance.Load(path)
		if err != nil {
			fmt.Fprintf(stderr, "conformance: %v\n", err)
			unreadable = true
			continue
		}
		for _, c := range f.Cases {
			// A case whose file is known to be wrong is checked against
			// the reference's values and, when the library gives them,
			// counted as skipped with the erratum named.
			c, erratum, isErratum := conformance.ApplyErratum(c)
			r := conformance.Check(c, vc)
			if isErratum && r.Status == conformance.Pass {
				r = conformance.Result{ID: r.ID, Status: conformance.Skip, Detail: erratum.String() + "; the library gives the reference's values"}
			}
			switch r.Status {
			case conformance.Pass:
				passed++
				switch {
				case *verbose:
					fmt.Fprintf(stdout, "%v (got %s)\n", r, r.Got)
				case r.Detail != "" && !*quiet:
					// A pass with some element types skipped.
					fmt.Fprintln(stdout, r)
				}
			case conformance.Fail:
				failed++
				fmt.Fprintln(stdout, r)
			case conformance.Skip:
				skipped++
				if !*quiet {
					fmt.Fprintln(stdout, r)
				}
			}
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	leaked := mem.CurrentAlloc() != 0
	if leaked {
		fmt.Fprintf(stderr, "conformance: %d bytes still allocated after the last case (a leak)\n", mem.CurrentAlloc())
	}
	switch {
	case unreadable:
		return 2
	case failed > 0 || leaked:
		return 1
	}
	return 0
}

// expand replaces each directory by the .json files in it.
func expand(args []string, stderr io.Writer) ([]string, bool) {
	var paths []string
	bad := false
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			fmt.Fprintf(stderr, "conformance: %v\n", err)
			bad = true
			continue
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(a, "*.json"))
		sort.Strings(m)
		paths = append(paths, m...)
	}
	return paths, bad
}
