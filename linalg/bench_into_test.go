//go:build linux

package linalg

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"

	"github.com/stride0/stride0/array"
)

// BenchmarkMatmulInto is the vocab harness's matmul cases: two views into
// one buffer (8<<20 elements apart), the product written by MatmulInto into
// a preallocated array on one worker. It reports thread CPU time per call
// (cpu-ns/op) besides wall time: the machine is shared.
func BenchmarkMatmulInto(b *testing.B) {
	shapes := []struct {
		name     string
		batch, n int
	}{{"64", 1, 64}, {"256", 1, 256}, {"1024", 1, 1024}, {"2048", 1, 2048}, {"batch512x64", 512, 64}}
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		for _, s := range shapes {
			b.Run(fmt.Sprintf("%v/%s", dt, s.name), func(b *testing.B) {
				src := benchSource(b, dt, 8<<20+s.batch*s.n*s.n)
				defer src.Release()
				shape := []int{s.n, s.n}
				if s.batch > 1 {
					shape = []int{s.batch, s.n, s.n}
				}
				x, err := src.View(shape, array.ContiguousStrides(shape), 0)
				if err != nil {
					b.Fatal(err)
				}
				defer x.Release()
				y, err := src.View(shape, array.ContiguousStrides(shape), 8<<20)
				if err != nil {
					b.Fatal(err)
				}
				defer y.Release()
				dst, err := array.New(nil, dt, shape...)
				if err != nil {
					b.Fatal(err)
				}
				defer dst.Release()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				b.ResetTimer()
				t0 := threadCPU()
				for i := 0; i < b.N; i++ {
					ok, err := MatmulInto(dst, x, y, 1)
					if err != nil || !ok {
						b.Fatal(ok, err)
					}
				}
				d := float64(threadCPU() - t0)
				b.ReportMetric(d/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(2*s.batch*s.n*s.n*s.n)*float64(b.N)/d, "GFLOP/s")
			})
		}
	}
}

// benchSource is a 1-D array of n normal values of dtype dt (float32 or
// float64).
func benchSource(b *testing.B, dt array.DType, n int) *array.Array {
	rng := rand.New(rand.NewSource(1))
	var src *array.Array
	var err error
	if dt == array.Float32 {
		vals := make([]float32, n)
		for i := range vals {
			vals[i] = float32(rng.NormFloat64())
		}
		src, err = array.FromSlice(nil, vals)
	} else {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = rng.NormFloat64()
		}
		src, err = array.FromSlice(nil, vals)
	}
	if err != nil {
		b.Fatal(err)
	}
	return src
}
