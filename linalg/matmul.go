package linalg

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// Matmul returns the matrix product of a and b with NumPy's matmul rules:
//
//   - Operands of rank 2 or more are stacks of matrices in their last two
//     axes; a has shape [..., n, k], b [..., k, m], the result [..., n, m].
//   - A 1-D a is a row [1, k] and a 1-D b a column [k, 1]; the added axis is
//     removed from the result (1-D @ 1-D gives a scalar, rank 0).
//   - The batch axes (all but the last two) broadcast by NumPy's rule. A
//     broadcast operand is read through stride 0, never copied.
//   - The result dtype is NumPy's promotion of the two dtypes, and each
//     operand is converted to it first (its stride-0 axes stay stride 0).
//     Integers wrap on overflow as NumPy's do; bool @ bool is bool, the
//     logical or of ands.
//   - A result element is null when any element it reads is null (a row of a
//     or a column of b with a null); its value is zero.
//
// A rank-0 operand, a k mismatch or batch axes that do not broadcast are
// errors wrapping array.ErrShape that name both shapes; a nil or released
// operand is array.ErrNil or array.ErrReleased. The result is a new
// contiguous array from mem (array.DefaultAllocator when nil).
func Matmul(mem memory.Allocator, a, b *array.Array) (*array.Array, error) {
	return MatmulWorkers(mem, a, b, 0)
}

// MatmulWorkers is Matmul computed by at most workers goroutines (fewer for
// a small product; workers < 1 means GOMAXPROCS). The result does not
// depend on it.
func MatmulWorkers(mem memory.Allocator, a, b *array.Array, workers int) (*array.Array, error) {
	out, _, err := matmul(mem, a, b, workers, nil)
	return out, err
}

// MatmulInto writes the product of a and b into dst when it can without a
// temporary: the product is one of two float32 or two float64 operands
// without nulls, with more than one row and one column (the packed
// kernels' products), and dst has its shape and dtype, is contiguous,
// carries no validity bitmap and shares no memory with a or b. It reports
// whether it did; when it did not, dst is untouched and the caller computes
// the product otherwise (Matmul and a copy). The errors are Matmul's.
func MatmulInto(dst, a, b *array.Array, workers int) (bool, error) {
	if err := array.Check(dst); err != nil {
		return false, fmt.Errorf("linalg.MatmulInto: output: %w", err)
	}
	out, ok, err := matmul(nil, a, b, workers, dst)
	if out != nil {
		out.Release()
	}
	return ok, err
}

// intoOK reports whether matmul can write into dst (see MatmulInto).
func intoOK(dst, a, b *array.Array, dt array.DType, shape []int, n, m, k int) bool {
	if dt != array.Float32 && dt != array.Float64 || a.DType() != dt || b.DType() != dt || a.HasNulls() || b.HasNulls() {
		return false
	}
	if n <= 1 || m <= 1 || k == 0 || dst.DType() != dt || dst.HasNulls() || dst.ReadOnly() || !dst.IsContiguous() || !slices.Equal(dst.Shape(), shape) {
		return false
	}
	span := func(x *array.Array) (lo, hi uintptr) {
		buf := x.Data().Bytes()
		lo = uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
		return lo, lo + uintptr(len(buf))
	}
	dlo, dhi := span(dst)
	for _, x := range []*array.Array{a, b} {
		if lo, hi := span(x); lo < dhi && dlo < hi {
			return false
		}
	}
	return true
}

// matmul is Matmul, into dst when dst is not nil and intoOK (then it
// returns dst retained and true; nil and false when not intoOK).
func matmul(mem memory.Allocator, a, b *array.Array, workers int, dst *array.Array) (*array.Array, bool, error) {
	if err := array.Check(a); err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: first operand: %w", err)
	}
	if err := array.Check(b); err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: second operand: %w", err)
	}
	if mem == nil {
		mem = array.DefaultAllocator
	}
	ash, bsh := a.Shape(), b.Shape()
	if len(ash) == 0 || len(bsh) == 0 {
		return nil, false, fmt.Errorf("linalg.Matmul: %w: shapes %v and %v: an operand is a scalar (rank 0); matmul needs rank 1 or more", array.ErrShape, ash, bsh)
	}
	la, lb := coreOf(a, true), coreOf(b, false)
	if la.cols != lb.rows {
		axis := "second-to-last axis"
		if len(bsh) == 1 {
			axis = "only axis"
		}
		return nil, false, fmt.Errorf("linalg.Matmul: %w: shapes %v and %v do not align: the first's last axis has %d, the second's %s has %d",
			array.ErrShape, ash, bsh, la.cols, axis, lb.rows)
	}
	batch, err := broadcastBatch(la.batch, lb.batch)
	if err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: %w: shapes %v and %v: %v", array.ErrShape, ash, bsh, err)
	}
	outShape := append([]int(nil), batch...)
	if len(ash) > 1 {
		outShape = append(outShape, la.rows)
	}
	if len(bsh) > 1 {
		outShape = append(outShape, lb.cols)
	}
	nb := 1
	for _, d := range batch {
		nb *= d
	}
	n, k, m := la.rows, la.cols, lb.cols
	if m != 0 && n > math.MaxInt/m || n*m != 0 && nb > math.MaxInt/(n*m) {
		return nil, false, fmt.Errorf("linalg.Matmul: %w: shapes %v and %v: the result's element count overflows int", array.ErrShape, ash, bsh)
	}

	dt := array.PromoteTypes(a.DType(), b.DType())
	if dst != nil && !intoOK(dst, a, b, dt, outShape, n, m, k) {
		return nil, false, nil
	}
	cdt := dt // the dtype the kernel computes in
	if dt == array.Float16 {
		cdt = array.Float32
	}
	ac, err := castTo(mem, a, cdt)
	if err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: first operand: %w", err)
	}
	defer ac.Release()
	bc, err := castTo(mem, b, cdt)
	if err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: second operand: %w", err)
	}
	defer bc.Release()
	newOut := array.New
	if (cdt == array.Float32 || cdt == array.Float64) && n > 1 && m > 1 && k > 0 {
		newOut = array.Empty // the packed kernels write every element (see useGemm)
	}
	var out *array.Array
	if dst != nil {
		dst.Retain()
		out = dst
	} else if out, err = newOut(mem, cdt, outShape...); err != nil {
		return nil, false, fmt.Errorf("linalg.Matmul: %w", err)
	}
	p := product{
		n: n, k: k, m: m, batch: batch,
		a: coreOf(ac, true).on(batch), b: coreOf(bc, false).on(batch),
		maxWorkers: workers,
	}
	if n*m*nb > 0 && k > 0 {
		p.run(ac, bc, out)
	}
	if cdt != dt {
		h, err := castTo(mem, out, dt)
		out.Release()
		if err != nil {
			return nil, false, fmt.Errorf("linalg.Matmul: %w", err)
		}
		out = h
	}
	if a.HasNulls() || b.HasNulls() {
		nulls := product{n: n, k: k, m: m, batch: batch, a: coreOf(a, true).on(batch), b: coreOf(b, false).on(batch)}
		if err := nulls.applyNulls(a, b, out); err != nil {
			out.Release()
			return nil, false, fmt.Errorf("linalg.Matmul: %w", err)
		}
	}
	return out, true, nil
}

// core is the matrix layout of one operand: element (batch index t, i, j) is
// at off + Σ t_d*bstr[d] + i*rs + j*cs of its buffer.
type core struct {
	rows, cols int
	rs, cs     int
	off        int
	batch      []int // the operand's batch shape
	bstrides   []int // its batch strides, then (after on) per output batch axis
}

// coreOf reads x as the first (a 1-D row) or second (a 1-D column) operand.
// It allocates only for a batch (rank above 2): a small product's call
// costs no copies of the shape and strides.
func coreOf(x *array.Array, first bool) core {
	r := x.Rank()
	c := core{off: x.Offset()}
	switch {
	case r == 1 && first:
		c.rows, c.cols, c.cs = 1, x.Dim(0), x.Stride(0)
	case r == 1:
		c.rows, c.cols, c.rs = x.Dim(0), 1, x.Stride(0)
	default:
		c.rows, c.cols, c.rs, c.cs = x.Dim(r-2), x.Dim(r-1), x.Stride(r-2), x.Stride(r-1)
		if r > 2 {
			c.batch, c.bstrides = x.Shape()[:r-2], x.Strides()[:r-2]
		}
	}
	return c
}

// on aligns the batch strides to the output batch shape (right-aligned, 0
// where the operand is broadcast).
func (c core) on(batch []int) core {
	bs := make([]int, len(batch))
	lead := len(batch) - len(c.batch)
	for i := range c.batch {
		if c.batch[i] != 1 {
			bs[lead+i] = c.bstrides[i]
		}
	}
	c.bstrides = bs
	return c
}

// broadcastBatch is NumPy's broadcast of two batch shapes.
func broadcastBatch(x, y []int) ([]int, error) {
	n := max(len(x), len(y))
	out := make([]int, n)
	for i := 1; i <= n; i++ {
		dx, dy := 1, 1
		if i <= len(x) {
			dx = x[len(x)-i]
		}
		if i <= len(y) {
			dy = y[len(y)-i]
		}
		switch {
		case dx == dy || dy == 1:
			out[n-i] = dx
		case dx == 1:
			out[n-i] = dy
		default:
			return nil, fmt.Errorf("batch axes %v and %v do not broadcast (%d against %d)", x, y, dx, dy)
		}
	}
	return out, nil
}

// product is one batched matmul: a [batch, n, k] times b [batch, k, m].
type product struct {
	n, k, m int
	batch   []int
	a, b    core
	// maxWorkers bounds workers(); < 1 means GOMAXPROCS
	maxWorkers int
}

// batches is the number of matrices in the batch.
func (p *product) batches() int {
	nb := 1
	for _, d := range p.batch {
		nb *= d
	}
	return nb
}

// each calls f with the flat batch index and both operands' offsets, for
// every batch index in row-major order.
func (p *product) each(f func(t, aoff, boff int)) { p.eachIn(0, p.batches(), f) }

// eachIn is each for the flat batch indices lo..hi-1.
func (p *product) eachIn(lo, hi int, f func(t, aoff, boff int)) {
	idx := make([]int, len(p.batch))
	aoff, boff := p.a.off, p.b.off
	rem := lo
	for d := len(idx) - 1; d >= 0; d-- {
		idx[d] = rem % p.batch[d]
		rem /= p.batch[d]
		aoff += idx[d] * p.a.bstrides[d]
		boff += idx[d] * p.b.bstrides[d]
	}
	for t := lo; t < hi; t++ {
		f(t, aoff, boff)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			aoff += p.a.bstrides[d]
			boff += p.b.bstrides[d]
			if idx[d] < p.batch[d] {
				break
			}
			aoff -= idx[d] * p.a.bstrides[d]
			boff -= idx[d] * p.b.bstrides[d]
			idx[d] = 0
		}
	}
}

// parallelWork is the multiply-add count from which a product is split
// between goroutines.
const parallelWork = 1 << 17

// workers is how many goroutines a product of this size uses (at most
// GOMAXPROCS, 1 for small products).
func (p *product) workers() int {
	work := float64(p.batches()) * float64(p.n) * float64(p.m) * float64(p.k)
	if work < parallelWork {
		return 1
	}
	if p.maxWorkers >= 1 {
		return p.maxWorkers
	}
	return runtime.GOMAXPROCS(0)
}

// parallel calls f on a split of 0..units-1 into at most workers ranges,
// each on its own goroutine, and waits for all.
func parallel(units, workers int, f func(lo, hi int)) {
	workers = min(workers, units)
	if workers <= 1 {
		f(0, units)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := units*w/workers, units*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// run computes out (zero-filled, contiguous, the compute dtype) from the
// operands ac and bc, both already in that dtype.
func (p *product) run(ac, bc, out *array.Array) {
	switch out.DType() {
	case array.Float64:
		if useGemm(p) {
			runGemm[float64](p, ac, bc, out, p.workers())
			return
		}
		runFloat(p, ac, bc, out, dgemm)
	case array.Float32:
		if useGemm(p) {
			runGemm[float32](p, ac, bc, out, p.workers())
			return
		}
		runFloat(p, ac, bc, out, sgemm)
	case array.Bool:
		runInt[uint8](p, ac, bc, out, true)
	case array.Int8:
		runInt[int8](p, ac, bc, out, false)
	case array.Int16:
		runInt[int16](p, ac, bc, out, false)
	case array.Int32:
		runInt[int32](p, ac, bc, out, false)
	case array.Int64:
		runInt[int64](p, ac, bc, out, false)
	case array.Uint8:
		runInt[uint8](p, ac, bc, out, false)
	case array.Uint16:
		runInt[uint16](p, ac, bc, out, false)
	case array.Uint32:
		runInt[uint32](p, ac, bc, out, false)
	case array.Uint64:
		runInt[uint64](p, ac, bc, out, false)
	}
}

// applyNulls marks null every element of out that reads a null of a or b
// (p holds a's and b's own layouts) and zeroes it.
func (p *product) applyNulls(a, b, out *array.Array) error {
	am, bm := maskOf(a), maskOf(b)
	rowNull := make([]bool, p.n)
	colNull := make([]bool, p.m)
	sz := out.DType().Size()
	var om, od []byte
	p.each(func(t, aoff, boff int) {
		anyNull := false
		for i := range rowNull {
			rowNull[i] = false
			for q := 0; am != nil && q < p.k; q++ {
				if am[aoff+i*p.a.rs+q*p.a.cs] == 0 {
					rowNull[i], anyNull = true, true
					break
				}
			}
		}
		for j := range colNull {
			colNull[j] = false
			for q := 0; bm != nil && q < p.k; q++ {
				if bm[boff+q*p.b.rs+j*p.b.cs] == 0 {
					colNull[j], anyNull = true, true
					break
				}
			}
		}
		if !anyNull {
			return
		}
		if om == nil {
			if err := out.EnsureValidity(); err != nil {
				return // out is live and writable: cannot happen
			}
			om, od = out.Validity().Bytes(), out.Data().Bytes()
		}
		for i := 0; i < p.n; i++ {
			for j := 0; j < p.m; j++ {
				if rowNull[i] || colNull[j] {
					e := t*p.n*p.m + i*p.m + j
					om[e] = 0
					clear(od[e*sz : (e+1)*sz])
				}
			}
		}
	})
	return nil
}

func maskOf(x *array.Array) []byte {
	if v := x.Validity(); v != nil {
		return v.Bytes()
	}
	return nil
}

// castTo returns x converted to dt: x itself (retained) when it already has
// dt, else a copy whose stride-0 axes stay stride 0 (the repeated element
// is converted once).
func castTo(mem memory.Allocator, x *array.Array, dt array.DType) (*array.Array, error) {
	if x.DType() == dt {
		x.Retain()
		return x, nil
	}
	shape, strides := x.Shape(), x.Strides()
	sq := append([]int(nil), shape...)
	for i, s := range strides {
		if s == 0 && sq[i] > 1 {
			sq[i] = 1
		}
	}
	v, err := x.View(sq, strides, x.Offset())
	if err != nil {
		return nil, err
	}
	defer v.Release()
	c, err := convertCopy(mem, v, dt)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	st := array.ContiguousStrides(sq)
	for i := range st {
		if sq[i] != shape[i] {
			st[i] = 0
		}
	}
	return c.View(shape, st, 0)
}

// convertCopy copies x, converted to dt, into a new contiguous array.
func convertCopy(mem memory.Allocator, x *array.Array, dt array.DType) (*array.Array, error) {
	switch dt {
	case array.Bool:
		return convertAs[bool](mem, x)
	case array.Int8:
		return convertAs[int8](mem, x)
	case array.Int16:
		return convertAs[int16](mem, x)
	case array.Int32:
		return convertAs[int32](mem, x)
	case array.Int64:
		return convertAs[int64](mem, x)
	case array.Uint8:
		return convertAs[uint8](mem, x)
	case array.Uint16:
		return convertAs[uint16](mem, x)
	case array.Uint32:
		return convertAs[uint32](mem, x)
	case array.Uint64:
		return convertAs[uint64](mem, x)
	case array.Float16:
		return convertAs[float16.Num](mem, x)
	case array.Float32:
		return convertAs[float32](mem, x)
	}
	return convertAs[float64](mem, x)
}

func convertAs[T array.Element](mem memory.Allocator, x *array.Array) (*array.Array, error) {
	vals, err := array.ToSlice[T](x)
	if err != nil {
		return nil, err
	}
	return array.FromSlice(mem, vals, x.Shape()...)
}
