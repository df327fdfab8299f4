// Command frame is package frame's driver for ../shared/perf/frame: it
// runs the db-benchmark groupby questions, the filter, the Parquet scan and
// write, and the tensor workloads, and prints JSON lines in the form of the
// harness's Node.js drivers (bench_duckdb.js), so that report.js puts frame
// beside Polars and DuckDB.
//
//	THREADS=2 frame groupby G1_1e7_1e2_0_0.parquet str 1
//	THREADS=2 frame tensor tensor_1e6_16.parquet tensor 1
//
// THREADS sets the workers (and GOMAXPROCS when that is unset); REPS (2)
// the runs of each query; QUERIES (a comma-separated list of names, such as
// "q8,filter,write_parquet") runs only those after the scan; MEMPROFILE
// names a file for the allocation profile written at the end; MEMTRACE
// (milliseconds) prints the heap and resident set at that interval; CPUPROFILE
// writes a pprof CPU profile of the whole run to that file. Each timing
// line has rss_mib, the resident set after the query, and peak_mib, the
// peak during it (VmHWM, reset before each query). q8 is frame's top two per group (a sort, then
// GroupBy.Head); q8b, the other engines' second form of it, is not run.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/frame"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: frame groupby|tensor FILE LABEL ROUND")
		os.Exit(2)
	}
	mode, file, label := os.Args[1], os.Args[2], os.Args[3]
	round, _ := strconv.Atoi(os.Args[4])
	threads := envInt("THREADS", runtime.NumCPU())
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(threads)
	}
	d := &driver{reps: envInt("REPS", 2), opts: []frame.Option{frame.WithWorkers(threads)},
		base: map[string]any{"engine": "frame", "threads": threads, "label": label, "round": round}}
	if q := os.Getenv("QUERIES"); q != "" {
		d.only = map[string]bool{}
		for _, name := range strings.Split(q, ",") {
			d.only[strings.TrimSpace(name)] = true
		}
	}
	if p := os.Getenv("CPUPROFILE"); p != "" {
		pf, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(pf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "frame:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if ms := envInt("MEMTRACE", 0); ms > 0 {
		stop := make(chan struct{})
		defer close(stop)
		go traceMemory(time.Duration(ms)*time.Millisecond, stop)
	}
	if p := os.Getenv("MEMPROFILE"); p != "" {
		defer func() {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	var err error
	switch mode {
	case "groupby":
		err = d.groupby(file)
	case "tensor":
		err = d.tensor(file)
	default:
		err = fmt.Errorf("mode %q: want groupby or tensor", mode)
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "frame:", err)
		os.Exit(1)
	}
	d.emit(map[string]any{"q": "end", "rss_mib": rssMiB()})
}

type driver struct {
	only map[string]bool // nil: every query
	reps int
	opts []frame.Option
	base map[string]any
}

// wanted reports whether QUERIES names query q (or is unset).
func (d *driver) wanted(q string) bool {
	return d.only == nil || d.only[q]
}

func (d *driver) emit(m map[string]any) {
	for k, v := range d.base {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
}

// time runs q REPS times, emitting each timing, then its check digest.
func (d *driver) time(name string, q func() (*frame.Table, error), check func(*frame.Table) []any) error {
	if d.only != nil && !d.only[name] {
		return nil
	}
	t, err := d.timeKeep(name, q, check)
	t.Release()
	return err
}

// timeKeep is time, returning the last run's table (the caller releases it).
func (d *driver) timeKeep(name string, q func() (*frame.Table, error), check func(*frame.Table) []any) (*frame.Table, error) {
	var last *frame.Table
	for rep := 1; rep <= d.reps; rep++ {
		if last != nil {
			last.Release()
			last = nil
		}
		runtime.GC()
		resetPeak()
		m, t, err := measure(q)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		last = t
		m["q"], m["rep"], m["rss_mib"], m["peak_mib"] = name, rep, rssMiB(), peakMiB()
		d.emit(m)
	}
	if last != nil && check != nil {
		d.emit(map[string]any{"q": name, "check": check(last)})
	}
	return last, nil
}

func (d *driver) groupby(file string) error {
	x, err := d.timeKeep("scan_parquet", func() (*frame.Table, error) {
		return frame.ScanParquet(file).Collect(context.Background(), d.opts...)
	}, nil)
	if err != nil {
		return err
	}
	defer x.Release()
	d.emit(map[string]any{"q": "loaded", "rows": x.NumRows(), "rss_mib": rssMiB()})
	f := x.Frame()
	qs := []struct {
		name string
		f    frame.Frame
		cols []string
	}{
		{"q1", f.GroupBy("id1").Agg(frame.Sum("v1")), []string{"v1"}},
		{"q2", f.GroupBy("id1", "id2").Agg(frame.Sum("v1")), []string{"v1"}},
		{"q3", f.GroupBy("id3").Agg(frame.Sum("v1"), frame.Mean("v3")), []string{"v1", "v3"}},
		{"q4", f.GroupBy("id4").Agg(frame.Mean("v1"), frame.Mean("v2"), frame.Mean("v3")), []string{"v1", "v2", "v3"}},
		{"q5", f.GroupBy("id6").Agg(frame.Sum("v1"), frame.Sum("v2"), frame.Sum("v3")), []string{"v1", "v2", "v3"}},
		{"q6", f.GroupBy("id4", "id5").Agg(frame.Median("v3").As("median_v3"), frame.Std("v3", 1).As("sd_v3")), []string{"median_v3", "sd_v3"}},
		{"q7", f.GroupBy("id3").Agg(frame.Max("v1").As("a"), frame.Min("v2").As("b")).
			WithColumns(frame.Let("range_v1_v2", "a - b")).Select("id3", "range_v1_v2"), []string{"range_v1_v2"}},
		{"q8", f.Filter("is_not_null(v3)").Sort(frame.Desc("v3")).GroupBy("id6").Head(2).
			Rename(map[string]string{"v3": "largest2_v3"}).Select("id6", "largest2_v3"), []string{"largest2_v3"}},
		{"q9", f.GroupBy("id2", "id4").Agg(frame.Corr("v1", "v2").As("r")).
			WithColumns(frame.Let("r2", "r ** 2")).Select("id2", "id4", "r2"), []string{"r2"}},
		{"q10", f.GroupBy("id1", "id2", "id3", "id4", "id5", "id6").Agg(frame.Sum("v3"), frame.Count().As("count")), []string{"v3", "count"}},
		{"filter", f.Filter("v3 > 50").Select("id1", "v1", "v3"), []string{"v1", "v3"}},
	}
	for _, q := range qs {
		if !d.wanted(q.name) {
			continue
		}
		cols := q.cols
		if err := d.time(q.name, func() (*frame.Table, error) { return q.f.Collect(context.Background(), d.opts...) },
			func(t *frame.Table) []any { return digest(t, cols) }); err != nil {
			return err
		}
	}
	if !d.wanted("write_parquet") {
		return nil
	}
	out := filepath.Join(os.TempDir(), fmt.Sprintf("frame_%d.parquet", os.Getpid()))
	defer os.Remove(out)
	err = d.time("write_parquet", func() (*frame.Table, error) {
		w, err := os.Create(out)
		if err != nil {
			return nil, err
		}
		defer w.Close()
		return nil, f.WriteParquet(context.Background(), w, d.opts...)
	}, nil)
	if err != nil {
		return err
	}
	if st, err := os.Stat(out); err == nil {
		d.emit(map[string]any{"q": "written", "bytes": st.Size()})
	}
	return nil
}

func (d *driver) tensor(file string) error {
	t, err := d.timeKeep("scan_parquet", func() (*frame.Table, error) {
		return frame.ScanParquet(file).AsTensor("x", 16).Collect(context.Background(), d.opts...)
	}, nil)
	if err != nil {
		return err
	}
	defer t.Release()
	d.emit(map[string]any{"q": "loaded", "rows": t.NumRows(), "rss_mib": rssMiB()})
	f := t.Frame()
	// one expression on the tensor column each (reported in the rows of
	// the other engines' per-position forms)
	za := f.WithColumns(frame.Let("z", "(x - mean(x, axis=0)) / std(x, axis=0, ddof=1)")).Select("k", "z")
	if err := d.time("a_zscore_cols", func() (*frame.Table, error) { return za.Collect(context.Background(), d.opts...) },
		func(t *frame.Table) []any { return tensorDigest(t, "z") }); err != nil {
		return err
	}
	kb := f.GroupBy("k").Agg(frame.Mean("x").As("m"))
	return d.time("b_keymean_cols", func() (*frame.Table, error) { return kb.Collect(context.Background(), d.opts...) },
		func(t *frame.Table) []any { return tensorDigest(t, "m") })
}

// digest is the harness's check: the row count and each column's sum (NaN
// counted as 0), to 12 significant digits.
func digest(t *frame.Table, cols []string) []any {
	out := []any{p12(float64(t.NumRows()))}
	for _, c := range cols {
		a, err := t.Arrow(c)
		if err != nil {
			out = append(out, nil)
			continue
		}
		var s float64
		for i := 0; i < a.Len(); i++ {
			if v, ok := num(a, i); ok && !math.IsNaN(v) {
				s += v
			}
		}
		out = append(out, p12(s))
	}
	return out
}

// tensorDigest: rows, the type, the mean and the mean square of every
// element.
func tensorDigest(t *frame.Table, col string) []any {
	a, err := t.Arrow(col)
	if err != nil {
		return nil
	}
	storage := a.(arrowarray.ExtensionArray).Storage().(*arrowarray.FixedSizeList)
	vals := storage.ListValues()
	var s, ss float64
	n := 0
	for i := 0; i < vals.Len(); i++ {
		if v, ok := num(vals, i); ok {
			s += v
			ss += v * v
			n++
		}
	}
	k := float64(t.NumRows() * 16)
	return []any{p12(float64(t.NumRows())), "FLOAT[16]", p12(s / k), p12(ss / k)}
}

func num(a arrow.Array, i int) (float64, bool) {
	if a.IsNull(i) {
		return 0, false
	}
	switch c := a.(type) {
	case *arrowarray.Float64:
		return c.Value(i), true
	case *arrowarray.Float32:
		return float64(c.Value(i)), true
	case *arrowarray.Int64:
		return float64(c.Value(i)), true
	case *arrowarray.Int32:
		return float64(c.Value(i)), true
	case *arrowarray.Uint64:
		return float64(c.Value(i)), true
	}
	return 0, false
}

func p12(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return f
}

// measure times q: wall seconds, this process's CPU seconds, and the cores
// other processes kept busy meanwhile (from /proc/stat), as lib.js does.
func measure(q func() (*frame.Table, error)) (map[string]any, *frame.Table, error) {
	l := load1()
	b0, c0, t0 := busy(), cpu(), time.Now()
	t, err := q()
	s := time.Since(t0).Seconds()
	c := cpu() - c0
	other := math.Max(0, (busy()-b0-c)/s)
	return map[string]any{"s": round(s, 4), "cpu_s": round(c, 3), "other": round(other, 2), "load1": l}, t, err
}

func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

func cpu() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func busy() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return math.NaN()
	}
	f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
	var s float64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		if i < len(f) {
			v, _ := strconv.ParseFloat(f[i], 64)
			s += v
		}
	}
	return s / 100
}

func load1() any {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	v, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return v
}

func rssMiB() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize()) >> 20
}

// resetPeak resets the process's peak resident set (VmHWM) to the current
// one (Linux: 5 written to /proc/self/clear_refs), so that peakMiB after a
// query is that query's peak.
func resetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakMiB is the process's peak resident set since start or resetPeak
// (VmHWM), in MiB.
func peakMiB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb >> 10
		}
	}
	return 0
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
