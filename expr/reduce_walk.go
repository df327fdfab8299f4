package expr

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// walk is an array seen as kept axes by reduced axes, for the reductions
// that run their own pass instead of the fused group's fold (Var, Std,
// Argmin, Argmax): each keeps a state per output element that is not one
// value of the array's dtype. Neighbouring axes that step uniformly are
// merged (C order is kept, so flat indices into the reduced axes are
// preserved) and size-1 axes dropped.
type walk struct {
	a      *array.Array
	base   unsafe.Pointer // the data buffer
	mask   unsafe.Pointer // the validity buffer, nil without nulls
	size   int            // element size in bytes
	off    int            // element offset of index (0, ...)
	kShape []int          // kept axes, C order
	kStr   []int
	rShape []int // reduced axes, C order
	rStr   []int
	nOut   int // elements of the result
	nRed   int // elements reduced into each
}

func newWalk(a *array.Array, axes []int) *walk {
	w := &walk{a: a, base: a.DataPointer(), mask: a.ValidityPointer(), size: a.DType().Size(), off: a.Offset(), nOut: 1, nRed: 1}
	if !a.HasNulls() {
		w.mask = nil
	}
	shape, str := a.Shape(), a.Strides()
	red := make([]bool, len(shape))
	for _, ax := range axes {
		red[ax] = true
	}
	for i, d := range shape {
		if red[i] {
			w.nRed *= d
			w.rShape, w.rStr = pushAxis(w.rShape, w.rStr, d, str[i])
		} else {
			w.nOut *= d
			w.kShape, w.kStr = pushAxis(w.kShape, w.kStr, d, str[i])
		}
	}
	if w.nOut == 0 || w.nRed == 0 { // nothing to walk
		w.kShape, w.kStr, w.rShape, w.rStr = nil, nil, nil, nil
	}
	return w
}

// pushAxis appends an axis of size d and stride s, merged into the last one
// when that steps uniformly onto it.
func pushAxis(shape, str []int, d, s int) ([]int, []int) {
	if d == 1 {
		return shape, str
	}
	if k := len(shape) - 1; k >= 0 && str[k] == s*d {
		shape[k] *= d
		str[k] = s
		return shape, str
	}
	return append(shape, d), append(str, s)
}

// odometer steps through the C-order positions of shape, keeping the
// element offset that strides give them.
type odometer struct {
	shape, str, idx []int
	off             int
}

func newOdometer(shape, str []int, start int) *odometer {
	o := &odometer{shape: shape, str: str, idx: make([]int, len(shape))}
	o.seek(start)
	return o
}

// seek moves to flat position p.
func (o *odometer) seek(p int) {
	o.off = 0
	for j := len(o.shape) - 1; j >= 0; j-- {
		o.idx[j] = p % o.shape[j]
		p /= o.shape[j]
		o.off += o.idx[j] * o.str[j]
	}
}

// next moves one position on (from the last position it wraps to 0).
func (o *odometer) next() {
	for j := len(o.shape) - 1; j >= 0; j-- {
		o.idx[j]++
		o.off += o.str[j]
		if o.idx[j] < o.shape[j] {
			return
		}
		o.off -= o.idx[j] * o.str[j]
		o.idx[j] = 0
	}
}

// nextOuter moves the outer index idx (over the extents outer, last axis
// fastest) one position on, and the element offsets so and do of two
// arrays by their strides ss and ds along those axes. It reports false
// after the last position (idx and the offsets are then back at the
// start). The row copies (transposeCopy, rowCopy, the concatenation's
// blocks) walk their rows with it.
func nextOuter(idx, outer, ss, ds []int, so, do *int) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		*so += ss[i]
		*do += ds[i]
		if idx[i] < outer[i] {
			return true
		}
		*so -= ss[i] * outer[i]
		*do -= ds[i] * outer[i]
		idx[i] = 0
	}
	return false
}

// columns reports whether the walk should run by lanes: the innermost kept
// axis steps more tightly through memory than the innermost reduced one, so
// that rows of the kept axis are read along it (a reduction over an outer
// axis), and is long enough to fill vectors.
func (w *walk) columns() bool {
	k := len(w.kShape) - 1
	if k < 0 || w.kShape[k] < 8 {
		return false
	}
	if len(w.rShape) == 0 {
		return true
	}
	return abs(w.kStr[k]) < abs(w.rStr[len(w.rStr)-1])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// loader reads runs of the array into contiguous memory of the work type,
// converting the dtype, and their validity bytes.
type loader struct {
	w      *walk
	direct bool // the array is of the work type: unit-stride runs are read in place
	gather compute.MoveFunc
	cast   compute.UnaryFunc // nil when the dtypes agree
	raw    []byte            // gathered, before the cast
	buf    []byte            // the run in the work type
	mbuf   []byte
	wsize  int
	max    int // elements per run
	slots  int
}

// loader returns a loader of runs of up to max elements into slots
// buffers (a block of rows is loaded before it is used).
func (w *walk) loader(work array.DType, max, slots int) (*loader, error) {
	l := &loader{w: w, wsize: work.Size(), direct: w.a.DType() == work, max: max}
	var err error
	if l.gather, err = compute.Gather(w.size); err != nil {
		return nil, err
	}
	if !l.direct {
		if l.cast, err = compute.LookupCast(compute.Type(w.a.DType()), compute.Type(work)); err != nil {
			return nil, err
		}
		l.raw = alignedBytes(max * w.size)
	}
	l.slots = slots // the buffers are made at the first run that needs them
	if w.mask != nil {
		l.mbuf = make([]byte, max)
	}
	return l, nil
}

// alloc makes the run buffers if they are not made yet.
func (l *loader) alloc() {
	if l.buf == nil {
		l.buf = alignedBytes(l.max * l.slots * l.wsize)
	}
}

// alignedBytes returns n bytes starting on a 64-byte boundary.
func alignedBytes(n int) []byte {
	b := make([]byte, n+64)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	k := int((64 - p%64) % 64)
	return b[k : k+n : k+n]
}

// load returns a pointer to n work-type values of the run at element offset
// off (relative to the array's origin) with stride s, and to their validity
// bytes (nil without nulls), using buffer slot. n is at most the loader's
// max; the validity is valid until the next load.
func (l *loader) load(off, n, s, slot int) (unsafe.Pointer, unsafe.Pointer) {
	w := l.w
	src := unsafe.Add(w.base, (w.off+off)*w.size)
	var p unsafe.Pointer
	switch {
	case l.direct && s == 1:
		p = src
	case l.direct:
		l.alloc()
		p = unsafe.Pointer(&l.buf[slot*l.max*l.wsize])
		l.gather(p, src, n, s)
	default:
		raw := unsafe.Pointer(unsafe.SliceData(l.raw))
		if s == 1 {
			raw = src
		} else {
			l.gather(raw, src, n, s)
		}
		l.alloc()
		p = unsafe.Pointer(&l.buf[slot*l.max*l.wsize])
		l.cast(p, raw, n)
	}
	if w.mask == nil {
		return p, nil
	}
	m := unsafe.Pointer(unsafe.SliceData(l.mbuf))
	gather1(m, unsafe.Add(w.mask, w.off+off), n, s)
	return p, m
}

// split runs f over [0, n) in up to workers contiguous ranges, one
// goroutine each (the last on the caller's), when the work (n units of
// cost each) is large enough to share.
func split(n, cost, workers int, f func(lo, hi int)) {
	if workers < 2 || n < 2 || n*cost < minParallel {
		f(0, n)
		return
	}
	workers = min(workers, n)
	var wg sync.WaitGroup
	for i := 0; i < workers-1; i++ {
		wg.Add(1)
		go func(lo, hi int) { defer wg.Done(); f(lo, hi) }(n*i/workers, n*(i+1)/workers)
	}
	f(n*(workers-1)/workers, n)
	wg.Wait()
}

// operand returns a dedicated pass's argument as an array: the leaf itself,
// or the argument's fused elementwise pass evaluated into a temporary,
// which done releases.
func (ev *evaluation) operand(arg *rnode) (a *array.Array, done func(), err error) {
	if arg.isLeaf() {
		return arg.arr, func() {}, nil
	}
	// as for any pass: broadcast subexpressions are evaluated once, ahead
	if err := ev.hoist(arg, false); err != nil {
		return nil, nil, err
	}
	if a, err = ev.elementwise(arg, nil); err != nil {
		return nil, nil, err
	}
	return a, a.Release, nil
}

// deliver turns res, a new contiguous array of r's shape, into the result:
// res itself when it has the result's dtype and there is no output array,
// else converted (or copied) into dst or a new array. res is consumed.
func (ev *evaluation) deliver(r *rnode, res *array.Array, dst *array.Array) (*array.Array, error) {
	if dst == nil && res.DType() == r.dtype {
		return res, nil
	}
	defer res.Release()
	cp := &rnode{n: &Node{kind: kCast, dtype: r.dtype, ctype: r.dtype, args: []*Node{r.n}}, shape: r.shape, dtype: r.dtype, ctype: r.dtype,
		args: []*rnode{{n: r.n, shape: r.shape, arr: res, dtype: res.DType(), ctype: res.DType()}},
		maps: []broadcast.AxisMap{identityMap(len(r.shape))}}
	return ev.elementwise(cp, dst)
}

// walkPass starts a reduction that walks its operand (argmin and argmax,
// var and std): it checks dst, evaluates the operand x, describes the pass
// as what, and allocates the result out of dtype dt. Under Explain out is
// nil (and nothing is held). Otherwise the caller runs done once it has
// read x.
func (ev *evaluation) walkPass(r *rnode, dst *array.Array, what string, dt array.DType) (x, out *array.Array, done func(), err error) {
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, nil, nil, err
		}
	}
	x, done, err = ev.operand(r.args[0])
	if err != nil {
		return nil, nil, nil, err
	}
	if ev.describePass(r, what, dst) {
		done()
		return nil, nil, nil, nil
	}
	if out, err = ev.newOutput(dt, r.shape); err != nil {
		done()
		return nil, nil, nil, err
	}
	return x, out, done, nil
}

// describePass writes a dedicated pass to the Explain output and reports
// whether it is the root of a dry run (and so must not run).
func (ev *evaluation) describePass(r *rnode, what string, dst *array.Array) bool {
	if ev.explain == nil {
		return false
	}
	ev.passes++
	role := "root"
	if r != ev.root {
		role = "hoisted (evaluated once, then read as a leaf)"
	}
	out := "new array"
	if dst != nil {
		out = fmt.Sprintf("output strides %v", dst.Strides())
	}
	fmt.Fprintf(ev.explain, "pass %d (%s): %v\n  %s\n  result: %s\n", ev.passes, role, r.n, what, out)
	return ev.dry && r == ev.root
}

// firstError keeps the first error that workers report.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}
