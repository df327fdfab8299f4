package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/stride0/stride0/array"
)

// gemm is C = A·B in BLAS terms (row-major, gonum's convention): op(A) is
// m×k, op(B) k×n, C m×n with leading dimension ldc; alpha 1, beta 0.
type gemm[T float32 | float64] func(tA, tB blas.Transpose, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int)

func dgemm(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}

// sgemm is C = A·B for float32 with the accuracy of a blocked BLAS. gonum's
// Sgemm splits a C of at least 4 blocks of 64×64 between goroutines and
// sums each block's k in blocks of 64 added into C in float32, as OpenBLAS
// does with its blocks of k; a smaller C goes to its serial kernel, which
// accumulates the whole of k in float32 (a [1, 2^25] by [2^25, 1] product
// of ones stopped at 2^24). There k is cut into blocks of sgemmBlock, each
// block's product computed by Sgemm in float32 and the blocks summed in
// float64, rounded once: the error of a float32 sum of sgemmBlock terms,
// no more than OpenBLAS's.
func sgemm(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return // nothing to write (and A or B may hold no element to slice)
	}
	if k <= sgemmBlock || blocks64(m)*blocks64(n) >= 4 {
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		return
	}
	acc := make([]float64, m*n)
	tmp := make([]float32, m*n)
	for k0 := 0; k0 < k; k0 += sgemmBlock {
		kc := min(sgemmBlock, k-k0)
		// the block's columns of op(A) and rows of op(B)
		ao, bo := k0, k0*ldb
		if tA == blas.Trans {
			ao = k0 * lda
		}
		if tB == blas.Trans {
			bo = k0
		}
		as, bs := a[ao:], b[bo:]
		gonum.Implementation{}.Sgemm(tA, tB, m, n, kc, 1, as, lda, bs, ldb, 0, tmp, max(n, 1))
		for i, v := range tmp {
			acc[i] += float64(v)
		}
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			row[j] = float32(acc[i*n+j])
		}
	}
}

// sgemmBlock is the length of the blocks of k that sgemm sums in float32
// (OpenBLAS's float32 kernels block k by a few hundred too).
const sgemmBlock = 256

// blocks64 is the number of 64-long blocks gonum cuts a dimension of C
// into (its blockSize); with 4 blocks of C or more gonum goes parallel,
// blocking k.
func blocks64(d int) int { return (d + 63) / 64 }

// blasForm reports how BLAS can read a rows×cols matrix with strides rs, cs
// in place: row-major (trans false) or column-major, i.e. the transpose of a
// row-major matrix (trans true), with leading dimension ld. The stride of an
// axis of length 1 is never used, so it is taken as whatever fits.
func blasForm(rows, cols, rs, cs int) (trans bool, ld int, ok bool) {
	r, c := rs, cs
	if cols == 1 {
		c = 1
	}
	if rows == 1 {
		r = max(cols, 1)
	}
	if c == 1 && r >= max(cols, 1) {
		return false, r, true
	}
	r, c = rs, cs
	if rows == 1 {
		r = 1
	}
	if cols == 1 {
		c = max(rows, 1)
	}
	if r == 1 && c >= max(rows, 1) {
		return true, c, true
	}
	return false, 0, false
}

// operandForm is one operand as BLAS reads it for one batch element: its
// storage, transposition and leading dimension. Operands BLAS cannot read in
// place are packed row-major into scratch, once per distinct offset (a
// broadcast operand is packed once).
type operandForm[T float32 | float64] struct {
	buf     []T
	c       core
	inPlace bool
	trans   bool
	ld      int
	scratch []T
	packed  int // offset of the matrix in scratch, -1 for none
}

func newForm[T float32 | float64](buf []T, c core) *operandForm[T] {
	f := &operandForm[T]{buf: buf, c: c, packed: -1}
	f.trans, f.ld, f.inPlace = blasForm(c.rows, c.cols, c.rs, c.cs)
	if !f.inPlace {
		f.scratch = make([]T, c.rows*c.cols)
		f.ld = max(c.cols, 1)
	}
	return f
}

// at returns the storage and transposition of the matrix at off.
func (f *operandForm[T]) at(off int) ([]T, blas.Transpose) {
	if f.inPlace {
		if f.trans {
			return f.buf[off:], blas.Trans
		}
		return f.buf[off:], blas.NoTrans
	}
	if f.packed != off {
		c := f.c
		for i := 0; i < c.rows; i++ {
			row := f.scratch[i*c.cols : (i+1)*c.cols]
			e := off + i*c.rs
			for j := range row {
				row[j] = f.buf[e+j*c.cs]
			}
		}
		f.packed = off
	}
	return f.scratch, blas.NoTrans
}

// runFloat computes every batch element with one BLAS gemm call. The
// batch is split between goroutines when it is large; one big matrix is
// left to gonum, which splits it itself.
func runFloat[T float32 | float64](p *product, ac, bc, out *array.Array, g gemm[T]) {
	abuf, _ := array.Values[T](ac)
	bbuf, _ := array.Values[T](bc)
	cbuf, _ := array.Values[T](out)
	nm := p.n * p.m
	parallel(p.batches(), p.workers(), func(lo, hi int) {
		fa, fb := newForm(abuf, p.a), newForm(bbuf, p.b) // scratch per goroutine
		p.eachIn(lo, hi, func(t, aoff, boff int) {
			c := cbuf[t*nm : (t+1)*nm]
			if !finite(abuf, p.a, aoff) || !finite(bbuf, p.b, boff) {
				loopFloat(abuf, bbuf, c, p.a, p.b, aoff, boff, p.n, p.k, p.m)
				return
			}
			a, ta := fa.at(aoff)
			b, tb := fb.at(boff)
			g(ta, tb, p.n, p.m, p.k, a, fa.ld, b, fb.ld, c, max(p.m, 1))
		})
	})
}

// finite reports whether every element of the matrix c at off is finite.
// gonum's gemm skips the terms whose A element is zero, which is exact for
// finite B but loses NaN (0 * NaN, 0 * Inf): a product with a non-finite
// operand goes through loopFloat instead, which gives NumPy's NaN.
func finite[T float32 | float64](buf []T, c core, off int) bool {
	for i := 0; i < c.rows; i++ {
		e := off + i*c.rs
		for j := 0; j < c.cols; j++ {
			v := float64(buf[e+j*c.cs])
			if v-v != 0 { // NaN or an infinity
				return false
			}
		}
	}
	return true
}

// loopFloat is C = A·B by the definition, every term included, for the
// products gemm would get wrong (see finite), accumulated in float64 (for
// float32, as accurate as sgemm's blocks). C is zero on entry.
func loopFloat[T float32 | float64](abuf, bbuf, cbuf []T, ca, cb core, aoff, boff, n, k, m int) {
	acc := make([]float64, m)
	for i := 0; i < n; i++ {
		clear(acc)
		for q := 0; q < k; q++ {
			av := float64(abuf[aoff+i*ca.rs+q*ca.cs])
			e := boff + q*cb.rs
			for j := range acc {
				acc[j] += av * float64(bbuf[e+j*cb.cs])
			}
		}
		crow := cbuf[i*m : (i+1)*m]
		for j, v := range acc {
			crow[j] = T(v)
		}
	}
}

// integer is the element types of the loop kernel (bool is uint8 there).
type integer interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

// runInt is the loop kernel: C[i, :] += A[i, q] * B[q, :] in C's type
// (which wraps on overflow as NumPy's integers do), or C[i, :] |= B[q, :]
// where A[i, q] is true for bool.
func runInt[T integer](p *product, ac, bc, out *array.Array, boolean bool) {
	abuf := elems[T](ac)
	bbuf := elems[T](bc)
	cbuf := elems[T](out)
	n, k, m := p.n, p.k, p.m
	ars, acs, brs, bcs := p.a.rs, p.a.cs, p.b.rs, p.b.cs
	rows := func(t, aoff, boff, ilo, ihi int) {
		for i := ilo; i < ihi; i++ {
			crow := cbuf[(t*n+i)*m : (t*n+i+1)*m]
			for q := 0; q < k; q++ {
				av := abuf[aoff+i*ars+q*acs]
				if av == 0 {
					continue
				}
				bo := boff + q*brs
				switch {
				case boolean:
					for j := range crow {
						crow[j] |= bbuf[bo+j*bcs]
					}
				case bcs == 1:
					brow := bbuf[bo : bo+m]
					for j, bv := range brow {
						crow[j] += av * bv
					}
				default:
					for j := range crow {
						crow[j] += av * bbuf[bo+j*bcs]
					}
				}
			}
		}
	}
	w := p.workers()
	if nb := p.batches(); nb >= w {
		// split the batch
		parallel(nb, w, func(lo, hi int) {
			p.eachIn(lo, hi, func(t, aoff, boff int) { rows(t, aoff, boff, 0, n) })
		})
		return
	}
	// split the rows of every matrix
	parallel(n, w, func(lo, hi int) {
		p.each(func(t, aoff, boff int) { rows(t, aoff, boff, lo, hi) })
	})
}

// elems is x's buffer as []T, reinterpreting bool as uint8.
func elems[T integer](x *array.Array) []T {
	if x.DType() == array.Bool {
		b := x.Data().Bytes()
		return any(b).([]T)
	}
	v, _ := array.Values[T](x)
	return v
}
