package compute_test

import (
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stride0/stride0/compute"
)

// threadCPU is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// TestVmathCPU prints the CPU time per element of the float64
// transcendental kernels (and of float32 tan, "tan32") on the vocab harness's input ranges (U uniform
// [-10, 10], P [0.01, 100], S [-1, 1]), in cache (4096 elements) and
// streaming (STRIDE0_VMATH_CPU_N elements, default 4096), with plain and
// non-temporal stores: the best of 15 trials of the thread's CPU time, so
// that it is comparable under load. Run with STRIDE0_VMATH_CPU=1 (and
// STRIDE0_VMATH_CPU_ONLY, a regexp over case names); build the test
// binaries of two commits and run them interleaved for an A/B.
func TestVmathCPU(t *testing.T) {
	if os.Getenv("STRIDE0_VMATH_CPU") == "" {
		t.Skip("STRIDE0_VMATH_CPU not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := 4096
	if s := os.Getenv("STRIDE0_VMATH_CPU_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	only := regexp.MustCompile(os.Getenv("STRIDE0_VMATH_CPU_ONLY"))
	rng := rand.New(rand.NewSource(1))
	in := map[byte][]float64{'U': make([]float64, n), 'V': make([]float64, n), 'P': make([]float64, n), 'S': make([]float64, n)}
	for i := 0; i < n; i++ {
		in['U'][i] = rng.Float64()*20 - 10
		in['V'][i] = rng.Float64()*20 - 10
		in['P'][i] = 0.01 + rng.Float64()*99.99
		in['S'][i] = rng.Float64()*2 - 1
	}
	d := make([]float64, n+4)
	dp := unsafe.Pointer(&d[0])
	if a := uintptr(dp) & 31; a != 0 {
		dp = unsafe.Add(dp, 32-a)
	}
	type kcase struct {
		name string
		f    func()
	}
	var cases []kcase
	for _, c := range []struct {
		name string
		op   compute.Op
		x    byte
	}{{"exp", compute.Exp, 'U'}, {"log", compute.Log, 'P'}, {"log1p", compute.Log1p, 'S'}, {"expm1", compute.Expm1, 'U'},
		{"sin", compute.Sin, 'U'}, {"cos", compute.Cos, 'U'}, {"tan", compute.Tan, 'U'}, {"tanh", compute.Tanh, 'U'},
		{"arctan", compute.Arctan, 'U'}, {"arcsin", compute.Arcsin, 'S'}} {
		x := unsafe.Pointer(&in[c.x][0])
		k, err := compute.LookupUnary(c.op, compute.Float64)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, kcase{c.name, func() { k(dp, x, n) }})
		if nt, ok := compute.LookupUnaryNT(c.op, compute.Float64); ok {
			cases = append(cases, kcase{c.name + "/nt", func() { nt(dp, x, n) }})
		}
	}
	// float32 kernels (tan32: the float32 tan of vmath32_amd64.s) on
	// the same inputs rounded to float32
	in32 := map[byte][]float32{}
	for key, v := range in {
		in32[key] = make([]float32, n)
		for i, f := range v {
			in32[key][i] = float32(f)
		}
	}
	for _, c := range []struct {
		name string
		op   compute.Op
		x    byte
	}{{"tan32", compute.Tan, 'U'}} {
		x := unsafe.Pointer(&in32[c.x][0])
		k, err := compute.LookupUnary(c.op, compute.Float32)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, kcase{c.name, func() { k(dp, x, n) }})
		if nt, ok := compute.LookupUnaryNT(c.op, compute.Float32); ok {
			cases = append(cases, kcase{c.name + "/nt", func() { nt(dp, x, n) }})
		}
	}
	for _, c := range []struct {
		name string
		op   compute.Op
		form compute.Form
		x, y unsafe.Pointer
	}{{"power_2.5", compute.Power, compute.VS, unsafe.Pointer(&in['P'][0]), unsafe.Pointer(&[]float64{2.5}[0])},
		{"arctan2", compute.Arctan2, compute.VV, unsafe.Pointer(&in['U'][0]), unsafe.Pointer(&in['V'][0])}} {
		k, err := compute.LookupBinary(c.op, compute.Float64, c.form)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, kcase{c.name, func() { k(dp, c.x, c.y, n) }})
		if nt, ok := compute.LookupBinaryNT(c.op, compute.Float64, c.form); ok {
			cases = append(cases, kcase{c.name + "/nt", func() { nt(dp, c.x, c.y, n) }})
		}
	}
	reps := max(1, (1<<22)/n)
	for _, c := range cases {
		if !only.MatchString(c.name) {
			continue
		}
		best := time.Duration(1 << 62)
		for trial := 0; trial < 15; trial++ {
			t0 := threadCPU()
			for r := 0; r < reps; r++ {
				c.f()
			}
			best = min(best, threadCPU()-t0)
		}
		compute.Fence()
		fmt.Printf("vmathcpu %-14s n=%-9d %.3f ns/elem\n", c.name, n, float64(best)/float64(reps*n))
	}
}
