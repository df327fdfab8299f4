//go:build linux

package linalg

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// threadCPU is the calling thread's CPU time.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// The tools here measure thread CPU time (the machine is shared, wall time
// is not the kernel's): BenchmarkGemmKernel, and TestTuneKernel and
// TestTuneInterleaved, which run only when their environment variables
// are set (see each).

// BenchmarkGemmKernel: the micro-kernel alone on packed panels in L1
// (k = 256), thread CPU time per call and GFLOP/s.
func BenchmarkGemmKernel(b *testing.B) {
	for _, c := range []struct {
		name string
		s    *gemmShape
		esz  int
	}{{"f64", &gemmF64, 8}, {"f32", &gemmF32, 4}} {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			s := c.s
			const k = 256
			ap := make([]byte, s.mr*k*c.esz+64)
			bp := make([]byte, s.nr*k*c.esz+64)
			cc := make([]byte, s.mr*s.nr*8)
			t0 := threadCPU()
			for i := 0; i < b.N; i++ {
				s.kern(k, unsafe.Pointer(&ap[0]), c.esz, s.mr*c.esz, unsafe.Pointer(&bp[0]), s.nr*c.esz, unsafe.Pointer(&cc[0]), s.nr*c.esz, 0, nil, 0)
			}
			d := float64(threadCPU() - t0)
			b.ReportMetric(d/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(2*s.mr*s.nr*k)*float64(b.N)/d, "GFLOP/s")
		})
	}
}

// TestTuneInterleaved (GEMM_TUNE set): min and median thread CPU time of g.run over
// GEMM_REPS rounds for each variant of GEMM_VARIANTS ("kc=256,kb=0;mc=96"),
// variants interleaved in each round; GEMM_TUNE is "f32:1024,f64:2048".
func TestTuneInterleaved(t *testing.T) {
	spec := os.Getenv("GEMM_TUNE")
	if spec == "" {
		t.Skip("GEMM_TUNE not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reps := 9
	if v := os.Getenv("GEMM_REPS"); v != "" {
		reps, _ = strconv.Atoi(v)
	}
	variants := strings.Split(os.Getenv("GEMM_VARIANTS"), ";")
	for _, c := range strings.Split(spec, ",") {
		dt, ns, _ := strings.Cut(c, ":")
		n, _ := strconv.Atoi(ns)
		var runs []func() time.Duration
		for _, v := range variants {
			if dt == "f32" {
				runs = append(runs, tuneRun[float32](n, v))
			} else {
				runs = append(runs, tuneRun[float64](n, v))
			}
		}
		times := make([][]time.Duration, len(runs))
		for r := 0; r < reps; r++ {
			for i, f := range runs {
				times[i] = append(times[i], f())
			}
		}
		for i, v := range variants {
			ts := times[i]
			slices.Sort(ts)
			best, med := ts[0], ts[len(ts)/2]
			fmt.Printf("%s %5d %-30q min %9.3f ms %6.2f GFLOP/s, median %9.3f ms\n", dt, n, v, float64(best)/1e6, 2*float64(n)*float64(n)*float64(n)/float64(best), float64(med)/1e6)
		}
	}
}

// tuneOperands are shared by the variants (one allocation each for A, B
// and C, so that the variants do not differ by where their memory lies).
var tuneOperands = map[string]any{}

func tuneRun[T float32 | float64](n int, variant string) func() time.Duration {
	key := fmt.Sprintf("%T %d", T(0), n)
	if _, ok := tuneOperands[key]; !ok {
		a := make([]T, n*n)
		for i := range a {
			a[i] = T(i%7 - 3)
		}
		b := make([]T, n*n)
		for i := range b {
			b[i] = T(i%5 - 2)
		}
		tuneOperands[key] = [3][]T{a, b, make([]T, n*n)}
	}
	ops := tuneOperands[key].([3][]T)
	a, bv, c := ops[0], ops[1], ops[2]
	g := &gemmCtx[T]{s: getCtx[T]().s}
	g.tile = make([]T, g.s.mr*g.s.nr)
	g.tile64 = make([]float64, g.s.mr*g.s.nr)
	sh := *g.s
	bt := false
	for _, kv := range strings.Split(variant, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		x, _ := strconv.Atoi(v)
		switch k {
		case "kc":
			sh.kc = x
		case "mc":
			sh.mc = x
		case "nc":
			sh.nc = x
		case "kb":
			sh.kb = x
		case "direct":
			sh.direct = x
		case "round":
			sh.round = x != 0
		case "pf":
			sh.prefetch = x != 0
		case "pt": // pt=0: B's columns packed by the Go loop
			if x == 0 {
				sh.packTrans = nil
			}
		case "bt": // bt=1: B is column-major
			bt = x != 0
		}
	}
	g.s = &sh
	inner := max(1, int(2e8/(2*float64(n)*float64(n)*float64(n))))
	return func() time.Duration {
		t0 := threadCPU()
		for i := 0; i < inner; i++ {
			b := mat[T]{bv, 0, n, 1}
			if bt {
				b = mat[T]{bv, 0, 1, n}
			}
			g.run(n, n, n, mat[T]{a, 0, n, 1}, b, c, n)
		}
		return (threadCPU() - t0) / time.Duration(inner)
	}
}

// TestTuneKernel (GEMM_TUNEK set): min thread CPU time of 20000 calls of
// each kernel (k = 256, packed panels in L1, mode 0), as a share of the
// FMA peak at GEMM_GHZ (3.05).
func TestTuneKernel(t *testing.T) {
	if os.Getenv("GEMM_TUNEK") == "" {
		t.Skip("GEMM_TUNEK not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ghz := 3.05
	if v := os.Getenv("GEMM_GHZ"); v != "" {
		ghz, _ = strconv.ParseFloat(v, 64)
	}
	const k = 256
	ks := []struct {
		name string
		s    *gemmShape
		esz  int
	}{{"f64", &gemmF64, 8}, {"f32", &gemmF32, 4}}
	best := make([]time.Duration, len(ks))
	ap := make([]byte, 16*8*k+1024)
	bp := make([]byte, 64*k+1024)
	cc := make([]byte, 16*64*8)
	for r := 0; r < 15; r++ {
		for i, c := range ks {
			s := c.s
			t0 := threadCPU()
			for j := 0; j < 20000; j++ {
				s.kern(k, unsafe.Pointer(&ap[0]), c.esz, s.mr*c.esz, unsafe.Pointer(&bp[0]), s.nr*c.esz, unsafe.Pointer(&cc[0]), s.nr*c.esz, 0, nil, 0)
			}
			d := (threadCPU() - t0) / 20000
			if r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	for i, c := range ks {
		fma := float64(c.s.mr*c.s.nr*k) / float64(32/c.esz)
		fmt.Printf("%s %6.1f ns %5.1f%% of peak\n", c.name, float64(best[i]), 100*fma/2/(float64(best[i])*ghz))
	}
}

// TestTuneMacro (GEMM_TUNEM set, "f32:kc=512,mc=120,nc=64,kb=256,mode=3;...")
// times gemmCtx.macro alone on packed blocks that stay in cache: the
// share of the FMA peak (GEMM_GHZ) each blocking reaches.
func TestTuneMacro(t *testing.T) {
	spec := os.Getenv("GEMM_TUNEM")
	if spec == "" {
		t.Skip("GEMM_TUNEM not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ghz := 3.05
	if v := os.Getenv("GEMM_GHZ"); v != "" {
		ghz, _ = strconv.ParseFloat(v, 64)
	}
	variants := strings.Split(spec, ";")
	runs := make([]func() (time.Duration, float64), len(variants))
	for i, v := range variants {
		if strings.HasPrefix(v, "f32") {
			runs[i] = tuneMacro[float32](v)
		} else {
			runs[i] = tuneMacro[float64](v)
		}
	}
	best := make([]float64, len(runs))
	for r := 0; r < 9; r++ {
		for i, f := range runs {
			d, fmas := f()
			if eff := fmas / (float64(d) * ghz * 2); eff > best[i] {
				best[i] = eff
			}
		}
	}
	for i, v := range variants {
		fmt.Printf("%-50s %5.1f%% of peak\n", v, 100*best[i])
	}
}

func tuneMacro[T float32 | float64](variant string) func() (time.Duration, float64) {
	g := getCtx[T]()
	sh := *g.s
	mode, pad := 0, 0
	dt, rest, _ := strings.Cut(variant, ":")
	for _, kv := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(kv, "=")
		x, _ := strconv.Atoi(v)
		switch k {
		case "kc":
			sh.kc = x
		case "mc":
			sh.mc = x
		case "nc":
			sh.nc = x
		case "kb":
			sh.kb = x
		case "mode":
			mode = x
		case "pad":
			pad = x
		case "pf":
			sh.prefetch = x != 0
		}
	}
	g.s = &sh
	kc, mc, nc := sh.kc, sh.mc, sh.nc
	g.ap = aligned(g.ap, roundUp(mc, sh.mr)*kc)
	g.bp = aligned(g.bp, roundUp(nc, sh.nr)*kc)
	for i := range g.ap {
		g.ap[i] = T(i % 5)
	}
	for i := range g.bp {
		g.bp[i] = T(i % 3)
	}
	c := make([]float64, mc*(nc+pad)) // float64: room for the widened tiles too
	csz := 8
	if dt == "f32" && mode < 2 {
		csz = 4
	}
	lanes := 32 / int(unsafe.Sizeof(T(0)))
	fmas := float64(roundUp(mc, sh.mr)*roundUp(nc, sh.nr)*kc) / float64(lanes)
	inner := max(1, int(4e6/fmas))
	return func() (time.Duration, float64) {
		t0 := threadCPU()
		for i := 0; i < inner; i++ {
			g.macro(mat[T]{}, mat[T]{}, false, false, 0, 0, 0, mc, nc, kc, unsafe.Pointer(&c[0]), nc+pad, csz, mode, nil, 0)
		}
		return (threadCPU() - t0) / time.Duration(inner), fmas
	}
}
