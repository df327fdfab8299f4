// Command probe tries every hostile input of issue 9 against the public API
// and reports, per probe, whether the library answered with an error or
// with the right answer. Anything else (a wrong answer, a panic, a leak, an
// allocation far beyond what the input holds, a crash, a hang) is FAILED.
//
// Each probe runs in a child process of its own (the same binary with
// -run ID), so that a fault that kills the process (a SIGSEGV in C, the Go
// runtime's fatal out-of-memory error, a corrupted heap) is reported as
// that probe's failure instead of ending the run. Run it under a memory
// limit, as its test does:
//
//	go build -o /tmp/probe ./cmd/probe && sh -c 'ulimit -v 8388608; exec /tmp/probe'
//
// Output: one line per probe,
//
//	item 1a: right answer: sqrt(xs+xs), WithTileSize(1<<61), 200000 float32: 200000 values match
//
// and exit status 1 if any probe FAILED.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

// Verdicts: what a probe saw.
const (
	vError  = "error"        // a clear error, nothing else went wrong
	vRight  = "right answer" // a result, checked against an independent computation
	vFailed = "FAILED"       // anything else
	vSkip   = "skipped"      // the probe cannot run in this build (no cgo)
)

// probe is one hostile input: an ID ("1a"), a title, and the function that
// tries it and judges what it got.
type probe struct {
	id, title string
	run       func() (verdict, detail string)
}

// resultPrefix starts the one line a child prints for its probe.
const resultPrefix = "PROBE-RESULT "

func main() {
	only := flag.String("run", "", "run one probe `ID` in this process (what the parent does per child)")
	timeout := flag.Duration("timeout", 40*time.Second, "time limit of each probe's child process")
	list := flag.Bool("list", false, "list the probes")
	flag.Parse()
	if *list {
		for _, p := range probes {
			fmt.Printf("%s\t%s\n", p.id, p.title)
		}
		return
	}
	if *only != "" {
		os.Exit(child(*only))
	}
	failed := 0
	for _, p := range probes {
		v, d := parent(p, *timeout)
		if v == vFailed {
			failed++
		}
		fmt.Printf("item %s: %s: %s: %s\n", p.id, v, p.title, d)
	}
	if failed > 0 {
		fmt.Printf("%d of %d probes FAILED\n", failed, len(probes))
		os.Exit(1)
	}
	fmt.Printf("all %d probes ended in an error or a right answer\n", len(probes))
}

// child runs probe id and prints its result line.
func child(id string) int {
	for _, p := range probes {
		if p.id == id {
			v, d := guarded(p.run)
			fmt.Printf("%s%s\t%s\n", resultPrefix, v, strings.ReplaceAll(d, "\n", " "))
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "probe: no probe %q\n", id)
	return 2
}

// guarded runs f, turning a panic into a FAILED verdict.
func guarded(f func() (string, string)) (v, d string) {
	defer func() {
		if p := recover(); p != nil {
			v, d = vFailed, fmt.Sprintf("panic: %v\n%s", p, firstLines(string(debug.Stack()), 12))
		}
	}()
	return f()
}

// parent runs probe p in a child process and reads its verdict.
func parent(p probe, timeout time.Duration) (string, string) {
	self, err := os.Executable()
	if err != nil {
		return vFailed, fmt.Sprintf("cannot find the probe binary: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "-run", p.id)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), resultPrefix)
		if !ok {
			continue
		}
		v, d, _ := strings.Cut(line, "\t")
		return v, fmt.Sprintf("%s (%v)", d, took)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return vFailed, fmt.Sprintf("no answer within %v", timeout)
	}
	return vFailed, fmt.Sprintf("the process died (%v) after %v: %s", runErr, took, firstLines(stderr.String(), 4))
}

func firstLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, " | ")
}
