package compute_test

import (
	"fmt"
	"math/rand"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stride0/stride0/compute"
)

// BenchmarkVocab32 times the float32 unary kernels of the vocab harness's
// cases (sin, cos, tan, tanh, arctan, arcsin, log1p, expm1, exp, log,
// isnan) on the harness's input distributions: n=16Ki in cache (the
// kernel's arithmetic) and n=16Mi from memory, plain stores and, where a
// kernel exists, streaming stores (the form EvalInto uses for outputs of
// 16 MiB or more). Compare runs with benchstat, -cpu 1.
func BenchmarkVocab32(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 24} {
		rng := rand.New(rand.NewSource(7))
		u, s := make([]float32, n), make([]float32, n)
		for i := range u {
			u[i], s[i] = float32(rng.Float64()*20-10), float32(rng.Float64()*2-1)
		}
		d := make([]float32, n+16)
		dp := unsafe.Pointer(&d[0])
		if a := uintptr(dp) & 31; a != 0 { // the harness's outputs are aligned
			dp = unsafe.Add(dp, 32-a)
		}
		for _, c := range []struct {
			op compute.Op
			x  []float32
		}{{compute.Sin, u}, {compute.Cos, u}, {compute.Tan, u}, {compute.Tanh, u}, {compute.Arctan, u},
			{compute.Arcsin, s}, {compute.Log1p, s}, {compute.Expm1, u}, {compute.Exp, u}, {compute.IsNaN, u}} {
			k, err := compute.LookupUnary(c.op, compute.Float32)
			if err != nil {
				b.Fatal(err)
			}
			ks := map[string]compute.UnaryFunc{"plain": k}
			if nt, ok := compute.LookupUnaryNT(c.op, compute.Float32); ok {
				ks["nt"] = nt
			}
			for _, kind := range []string{"plain", "nt"} {
				f := ks[kind]
				if f == nil {
					continue
				}
				b.Run(fmt.Sprintf("%v/%s/n=%d", c.op, kind, n), func(b *testing.B) {
					b.SetBytes(int64(8 * n))
					cpuLoop(b, func() { f(dp, unsafe.Pointer(&c.x[0]), n) })
					compute.Fence()
				})
			}
		}
	}
}

// cpuLoop runs f b.N times and reports its CPU time per call
// ("cpu-ns/op"), which a machine shared with other processes inflates less
// than the wall time.
func cpuLoop(b *testing.B, f func()) {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	t0, n := cpu(), 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpu()-t0)/float64(n), "cpu-ns/op")
}
