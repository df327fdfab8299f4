package compute

import (
	"fmt"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs f b.N times and reports its CPU time per call ("cpu-ns/op"),
// which a machine shared with other processes inflates less than the wall
// time.
func loopCPU(b *testing.B, f func()) {
	t0 := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpuTime()-t0)/float64(n), "cpu-ns/op")
}

// BenchmarkSumKernels measures the accurate sum kernels on [rows cols]
// arrays (Fold over each row, Rows over blocks of up to 64 rows) beside the
// plain Add fold of the same type: "mem" is a [4096 4096] array (the speed
// of memory), "l2" a [32 2048] one that stays in cache (the kernels' own
// cost).
func BenchmarkSumKernels(b *testing.B) {
	for _, sz := range []struct {
		name       string
		rows, cols int
	}{{"l2", 32, 2048}, {"mem", 4096, 4096}} {
		for _, typ := range []Type{Float32, Float64} {
			k, _ := LookupSum(typ)
			rows, cols := sz.rows, sz.cols
			x := make([]byte, rows*cols*typ.Size())
			for i := 0; i < len(x); i += typ.Size() { // every page written
				if typ == Float32 {
					*(*float32)(unsafe.Pointer(&x[i])) = float32(i%1000) / 7
				} else {
					*(*float64)(unsafe.Pointer(&x[i])) = float64(i%1000) / 7
				}
			}
			p := unsafe.Pointer(&x[0])
			acc := make([]float64, max(rows, cols))
			comp := make([]float64, max(rows, cols))
			ap, cp := unsafe.Pointer(&acc[0]), unsafe.Pointer(&comp[0])
			b.Run(fmt.Sprintf("%s/%v/fold", sz.name, typ), func(b *testing.B) {
				b.SetBytes(int64(len(x)))
				b.ReportAllocs()
				loopCPU(b, func() {
					for r := 0; r < rows; r++ {
						k.Fold(unsafe.Add(ap, r*8), unsafe.Add(cp, r*8), unsafe.Add(p, r*cols*typ.Size()), cols)
					}
				})
			})
			b.Run(fmt.Sprintf("%s/%v/rows", sz.name, typ), func(b *testing.B) {
				b.SetBytes(int64(len(x)))
				b.ReportAllocs()
				loopCPU(b, func() {
					for r := 0; r < rows; r += 64 {
						k.Rows(ap, cp, unsafe.Add(p, r*cols*typ.Size()), cols, min(64, rows-r), cols)
					}
				})
			})
		}
	}
}
