package expr_test

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkSumF32 measures ReduceSum of a [4096 4096] float32 matrix (16M
// elements, 64 MiB) at one worker along axis 0, axis 1 and both, into a
// preallocated result: the cost of the accurate (float64) accumulation.
// Bytes per op are the input read once.
// Run: go test -run '^$' -bench SumF32 -benchtime 20x ./expr/
func BenchmarkSumF32(b *testing.B) { benchSum(b, array.Float32) }

// BenchmarkSumF64 is BenchmarkSumF32 for float64 (128 MiB; TwoSum
// accumulation).
func BenchmarkSumF64(b *testing.B) { benchSum(b, array.Float64) }

func benchSum(b *testing.B, dt array.DType) {
	const R, C = 4096, 4096
	vals := make([]float64, R*C)
	for i := range vals {
		vals[i] = float64(i%997)*0.25 - 100
	}
	x64, err := array.FromSlice(nil, vals, R, C)
	if err != nil {
		b.Fatal(err)
	}
	defer x64.Release()
	x, err := expr.Eval(expr.Cast(expr.Leaf(x64), dt))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	for _, c := range []struct {
		name string
		axes []int
	}{{"axis0", []int{0}}, {"axis1", []int{1}}, {"all", nil}} {
		e := expr.ReduceSum(expr.Leaf(x), c.axes, false)
		p, err := expr.Compile(e, expr.WithWorkers(1))
		if err != nil {
			b.Fatal(err)
		}
		shape, _ := e.StaticShape()
		out, err := array.Empty(nil, dt, shape...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(R * C * dt.Size()))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := p.EvalInto(out, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		out.Release()
	}
}

// BenchmarkReduceVocab runs the reductions of the vocabulary harness
// (../shared/perf/vocab: [4096 4096] float32 and float64 values in [0, 1),
// one worker, EvalInto) and reports, beside the wall time, the process's
// CPU time per call ("cpu-ns/op"), which a machine shared with other
// sessions inflates less.
// Run: go test -run '^$' -bench ReduceVocab -benchtime 10x ./expr/
func BenchmarkReduceVocab(b *testing.B) {
	const R, C = 4096, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, R*C)
	for i := range vals {
		vals[i] = rng.Float64()
	}
	x64, err := array.FromSlice(nil, vals, R, C)
	if err != nil {
		b.Fatal(err)
	}
	defer x64.Release()
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		x, err := expr.Eval(expr.Cast(expr.Leaf(x64), dt))
		if err != nil {
			b.Fatal(err)
		}
		X := expr.Leaf(x)
		for _, c := range []struct {
			name string
			e    *expr.Node
		}{
			{"sum", expr.ReduceSum(X, nil, false)},
			{"sum_ax0", expr.ReduceSum(X, []int{0}, false)},
			{"sum_ax1", expr.ReduceSum(X, []int{1}, false)},
			{"mean", expr.ReduceMean(X, nil, false)},
			{"min", expr.ReduceMin(X, nil, false)},
			{"max", expr.ReduceMax(X, nil, false)},
			{"any_gt100_none", expr.Any(expr.Greater(X, expr.Const(100)), nil, false)},
		} {
			p, err := expr.Compile(c.e, expr.WithWorkers(1))
			if err != nil {
				b.Fatal(err)
			}
			shape, _ := c.e.StaticShape()
			out, err := array.Empty(nil, c.e.DType(), shape...)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%v", c.name, dt), func(b *testing.B) {
				b.SetBytes(int64(R * C * dt.Size()))
				b.ReportAllocs()
				var ru0, ru1 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
				n := 0
				for b.Loop() {
					if err := p.EvalInto(out, nil); err != nil {
						b.Fatal(err)
					}
					n++
				}
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
				b.ReportMetric(float64(cpu)/float64(n), "cpu-ns/op")
			})
			out.Release()
		}
		x.Release()
	}
}
