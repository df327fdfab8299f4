package expr_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

// BenchmarkUfunc measures every op of the table on float32 and float64:
// x op y (binary) or op(x) (unary) over 4M contiguous elements (16 or 32
// MiB per operand: memory-bound for the cheap ops), one worker, into a
// preallocated output. Bytes are the inputs read plus the output written;
// compare each with add's figure of the same dtype.
//
//	go test -run '^$' -bench Ufunc -benchtime 20x ./expr/
func BenchmarkUfunc(b *testing.B) {
	const n = 1 << 22
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		x, y := benchInput(b, dt, n, 0.75), benchInput(b, dt, n, 1.25)
		for _, op := range compute.Ops() {
			if _, ok := op.LoopFor(compute.Type(dt)); !ok || op == compute.PRelu {
				continue
			}
			e, in := unaryCtors[op], 1
			var node *expr.Node
			if op.IsUnary() {
				node = e(expr.Leaf(x))
			} else {
				node, in = binaryCtors[op](expr.Leaf(x), expr.Leaf(y)), 2
			}
			benchEvalW(b, fmt.Sprintf("%v/%v", op, dt), node, n, in*dt.Size(), 1)
		}
		x.Release()
		y.Release()
	}
}

// BenchmarkTranscendental: exp, log, sin and tanh over 16M elements, the
// figures to compare with NumPy's (python3 -m timeit, same machine).
func BenchmarkTranscendental(b *testing.B) {
	const n = 1 << 24
	for _, dt := range []array.DType{array.Float32, array.Float64} {
		x := benchInput(b, dt, n, 0.5)
		for _, f := range []struct {
			name string
			f    func(*expr.Node) *expr.Node
		}{{"exp", expr.Exp}, {"log", expr.Log}, {"sin", expr.Sin}, {"tanh", expr.Tanh}} {
			for _, w := range []int{1, 0} {
				name := fmt.Sprintf("%s/%v/workers=%d", f.name, dt, w)
				if w == 0 {
					name = fmt.Sprintf("%s/%v/workers=default", f.name, dt)
				}
				benchEvalW(b, name, f.f(expr.Leaf(x)), n, dt.Size(), w)
			}
		}
		x.Release()
	}
}

func benchInput(b *testing.B, dt array.DType, n int, scale float64) *array.Array {
	a, err := array.Empty(nil, array.Float64, n)
	if err != nil {
		b.Fatal(err)
	}
	v, _ := array.ToSlice[float64](a)
	for i := range v {
		v[i] = scale * (1 + math.Mod(float64(i), 7)/8)
	}
	f, err := array.FromSlice(nil, v)
	a.Release()
	if err != nil {
		b.Fatal(err)
	}
	c, err := expr.Eval(expr.Cast(expr.Leaf(f), dt))
	f.Release()
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchEvalW benchmarks e over n elements whose inputs take in bytes per
// element, with the given workers (0: the default).
func benchEvalW(b *testing.B, name string, e *expr.Node, n, in, workers int) {
	var opts []expr.Option
	if workers > 0 {
		opts = append(opts, expr.WithWorkers(workers))
	}
	p, err := expr.Compile(e, opts...)
	if err != nil {
		b.Fatal(err)
	}
	out, err := array.Empty(nil, e.DType(), n)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Release()
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(n * (in + e.DType().Size())))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := p.EvalInto(out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
