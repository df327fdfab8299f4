package linalg_test

import (
	"fmt"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/linalg"
)

// benchShapes are the sizes: square n×n, and a batch of 512 64×64.
var benchShapes = []struct {
	name         string
	batch, n     int
	dtypes       []array.DType
	skipIntLarge bool
}{
	{"64x64", 1, 64, nil, false},
	{"256x256", 1, 256, nil, false},
	{"1024x1024", 1, 1024, nil, true},
	{"512x64x64", 512, 64, nil, false},
}

func benchOperand(b *testing.B, dt array.DType, batch, n int) *array.Array {
	rng := rand.New(rand.NewSource(1))
	vals := make([]float64, batch*n*n)
	for i := range vals {
		vals[i] = float64(rng.Intn(7) - 3)
	}
	f, err := array.FromSlice(nil, vals, batch, n, n)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Release()
	out, err := array.New(nil, dt, batch, n, n)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < batch*n*n; i++ {
		if err := array.Set(out, vals[i], i/(n*n), i/n%n, i%n); err != nil {
			b.Fatal(err)
		}
	}
	if batch == 1 {
		sq, _ := out.Reshaped(n, n)
		out.Release()
		return sq
	}
	return out
}

func report(b *testing.B, batch, n, size int) {
	b.SetBytes(int64(3 * batch * n * n * size))
	b.ReportAllocs()
	b.ReportMetric(float64(2*batch*n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkMatmul(b *testing.B) {
	for _, s := range benchShapes {
		for _, dt := range []array.DType{array.Float64, array.Float32, array.Float16, array.Int32} {
			if dt.IsInteger() && s.n > 256 || dt == array.Float16 && s.n > 256 {
				continue // the simple loops are for correctness, not speed
			}
			b.Run(fmt.Sprintf("%s/%v", s.name, dt), func(b *testing.B) {
				x := benchOperand(b, dt, s.batch, s.n)
				defer x.Release()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c, err := linalg.Matmul(nil, x, x)
					if err != nil {
						b.Fatal(err)
					}
					c.Release()
				}
				report(b, s.batch, s.n, dt.Size())
			})
		}
	}
}

// BenchmarkGonum is the same products straight through gonum's Dgemm and
// Sgemm on Go slices: the floor Matmul's float paths can reach.
func BenchmarkGonum(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(s.name+"/float64", func(b *testing.B) {
			n, nn := s.n, s.n*s.n
			x := make([]float64, s.batch*nn)
			c := make([]float64, s.batch*nn)
			for i := range x {
				x[i] = float64(i%7 - 3)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for t := 0; t < s.batch; t++ {
					gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, x[t*nn:], n, x[t*nn:], n, 0, c[t*nn:], n)
				}
			}
			report(b, s.batch, n, 8)
		})
		b.Run(s.name+"/float32", func(b *testing.B) {
			n, nn := s.n, s.n*s.n
			x := make([]float32, s.batch*nn)
			c := make([]float32, s.batch*nn)
			for i := range x {
				x[i] = float32(i%7 - 3)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for t := 0; t < s.batch; t++ {
					gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, x[t*nn:], n, x[t*nn:], n, 0, c[t*nn:], n)
				}
			}
			report(b, s.batch, n, 4)
		})
	}
}

// BenchmarkMatmulLongK: a batch of float32 products with k past a run of
// 256 terms, each small enough that the batch's next operands are fetched
// while one is computed (its tiles one kernel call at a time), one worker.
func BenchmarkMatmulLongK(b *testing.B) {
	const batch, m, k, n = 64, 32, 768, 32
	rng := rand.New(rand.NewSource(5))
	av := make([]float32, batch*m*k)
	for i := range av {
		av[i] = rng.Float32()
	}
	bv := make([]float32, batch*k*n)
	for i := range bv {
		bv[i] = rng.Float32()
	}
	x, err := array.FromSlice(nil, av, batch, m, k)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	y, err := array.FromSlice(nil, bv, batch, k, n)
	if err != nil {
		b.Fatal(err)
	}
	defer y.Release()
	b.SetBytes(int64(4 * batch * (m*k + k*n + m*n)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := linalg.MatmulWorkers(nil, x, y, 1)
		if err != nil {
			b.Fatal(err)
		}
		c.Release()
	}
	b.ReportMetric(float64(2*batch*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
