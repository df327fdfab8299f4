//go:build linux

package linalg

import (
	"fmt"
	"os"
	"runtime"
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
				s.kern(k, unsafe.Pointer(&ap[0]), c.esz, s.mr*c.esz, unsafe.Pointer(&bp[0]), s.nr*c.esz, unsafe.Pointer(&cc[0]), s.nr*c.esz, 0)
			}
			d := float64(threadCPU() - t0)
			b.ReportMetric(d/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(2*s.mr*s.nr*k)*float64(b.N)/d, "GFLOP/s")
		})
	}
}

// TestTuneInterleaved (GEMM_TUNE set): min thread CPU time of g.run over
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
		best := make([]time.Duration, len(runs))
		for r := 0; r < reps; r++ {
			for i, f := range runs {
				d := f()
				if r == 0 || d < best[i] {
					best[i] = d
				}
			}
		}
		for i, v := range variants {
			fmt.Printf("%s %5d %-30q %9.3f ms %6.2f GFLOP/s\n", dt, n, v, float64(best[i])/1e6, 2*float64(n)*float64(n)*float64(n)/float64(best[i]))
		}
	}
}

func tuneRun[T float32 | float64](n int, variant string) func() time.Duration {
	a := make([]T, n*n)
	for i := range a {
		a[i] = T(i%7 - 3)
	}
	c := make([]T, n*n)
	g := getCtx[T]()
	sh := *g.s
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
		}
	}
	g.s = &sh
	inner := max(1, int(2e8/(2*float64(n)*float64(n)*float64(n))))
	return func() time.Duration {
		t0 := threadCPU()
		for i := 0; i < inner; i++ {
			g.run(n, n, n, mat[T]{a, 0, n, 1}, mat[T]{a, 0, n, 1}, c, n)
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
				s.kern(k, unsafe.Pointer(&ap[0]), c.esz, s.mr*c.esz, unsafe.Pointer(&bp[0]), s.nr*c.esz, unsafe.Pointer(&cc[0]), s.nr*c.esz, 0)
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
