package expr_test

import (
	"fmt"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkConcatenate materializes the concatenation of four float32
// [1024, 1024] arrays (16 MiB in, 16 MiB out) into a preallocated output,
// along axis 0 (each piece one contiguous block of the output) and axis 1
// (each piece a strided column block), against copy() of the same bytes
// at once and row by row: the memcpy speed the evaluation should reach.
// Bytes are read plus written.
// Run: go test -run '^$' -bench Concatenate -benchtime 20x ./expr/
func BenchmarkConcatenate(b *testing.B) {
	const R, C, K = 1024, 1024, 4
	pieces := make([]*expr.Node, K)
	for i := range pieces {
		a, _ := array.Full(nil, float32(i), R, C)
		defer a.Release()
		pieces[i] = expr.Leaf(a)
	}
	bytes := int64(2 * K * R * C * 4)
	// the copy pass of one [4096, 1024] array: what each piece runs
	whole, _ := array.Full(nil, float32(1), K*R, C)
	defer whole.Release()
	wout, _ := array.Empty(nil, array.Float32, K*R, C)
	defer wout.Release()
	wp, _ := expr.Compile(expr.Leaf(whole), expr.WithWorkers(1))
	b.Run("copy_pass", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := wp.EvalInto(wout, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, axis := range []int{0, 1} {
		e := expr.Concatenate(pieces, axis)
		s, _ := e.StaticShape()
		out, _ := array.Empty(nil, array.Float32, s...)
		p, err := expr.Compile(e, expr.WithWorkers(1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("axis%d", axis), func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := p.EvalInto(out, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		out.Release()
	}
	src := make([]byte, K*R*C*4)
	dst := make([]byte, K*R*C*4)
	for i := range src {
		src[i], dst[i] = byte(i), byte(i>>8)
	}
	b.Run("memcpy", func(b *testing.B) {
		b.SetBytes(bytes)
		for i := 0; i < b.N; i++ {
			copy(dst, src)
		}
	})
	// axis 1's copies: one copy() per row of each piece, in output order
	b.Run("memcpy_rows", func(b *testing.B) {
		b.SetBytes(bytes)
		row := C * 4
		for i := 0; i < b.N; i++ {
			d := 0
			for o := range R {
				for k := range K {
					s := (k*R + o) * row
					copy(dst[d:d+row], src[s:s+row])
					d += row
				}
			}
		}
	})
}

// BenchmarkStructural measures the other structural nodes on a float32
// [1024, 1024] array (4 MiB): a copy pass through a view (transpose,
// flip, a tile that needs a copy), a gather of rows, a sort of rows (of
// scrambled values), and
// a matmul of [256, 256]. Bytes are the input read plus the output written.
func BenchmarkStructural(b *testing.B) {
	const R, C = 1024, 1024
	a, _ := array.Arange(nil, array.Float32, 0, R*C, 1)
	defer a.Release()
	x2, _ := a.Reshaped(R, C)
	defer x2.Release()
	x := expr.Leaf(x2)
	idx := make([]int64, R)
	for i := range idx {
		idx[i] = int64((i * 7919) % R)
	}
	ia, _ := array.FromSlice(nil, idx)
	defer ia.Release()
	sv := make([]float32, R*C)
	for i := range sv {
		sv[i] = float32((i * 7919) % 1000003)
	}
	shuffled, _ := array.FromSlice(nil, sv, R, C)
	defer shuffled.Release()
	m, _ := array.Full(nil, float32(0.5), 256, 256)
	defer m.Release()
	for _, c := range []struct {
		name string
		e    *expr.Node
	}{
		{"transpose", expr.Transpose(x)},
		{"flip", expr.Flip(x)},
		{"tile", expr.Tile(expr.Reshape(x, R/2, 2*C), 2, 1)},
		{"take_rows", expr.Take(x, expr.Leaf(ia), 0)},
		{"sort_rows", expr.Sort(expr.Leaf(shuffled), 1)},
		{"matmul256", expr.Matmul(expr.Leaf(m), expr.Leaf(m))},
	} {
		s, _ := c.e.StaticShape()
		out, _ := array.Empty(nil, array.Float32, s...)
		p, err := expr.Compile(c.e, expr.WithWorkers(1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(2 * out.Len() * 4))
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
