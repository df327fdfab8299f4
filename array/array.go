package array

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Array is an N-dimensional array over an Arrow buffer. Create one with New,
// Empty, FromSlice, Wrap, Full, Arange or FromBuffer, and give it back with
// Release. The zero value is not usable; a nil *Array is accepted by every
// method and function (methods return zero values, functions return ErrNil).
//
// Release is the fast, deterministic way to give the memory back. An array
// that the program drops without Release is reclaimed once the garbage
// collector finds its header unreachable: its buffer references are
// released then (see the package documentation for what a slice from Values
// may outlive).
//
// An Array is safe for concurrent reads. Writes (Set, SetNull and evaluation
// into it) need the caller's synchronization, like a Go slice.
type Array struct {
	own     *owner          // the references this header holds: a separate object, so that a cleanup can release them once the header is unreachable
	cleanup runtime.Cleanup // stopped by the last Release
	dtype   DType
	shape   []int
	strides []int // in elements
	offset  int   // in elements
	data    *memory.Buffer
	valid   *memory.Buffer   // nil: every element is valid; else one byte per element, same layout as data
	mem     memory.Allocator // where buffers derived from this array (masks, copies) come from
	overlap bool             // two indices reach one element (see overlap.go): read-only
	// inline storage for the shape and strides of arrays of rank <= 4, so
	// that a header is one allocation
	dims [2 * inlineRank]int
}

const inlineRank = 4

// setLayout stores copies of shape and strides (strides nil: row-major) in
// the header, inline when the rank is small.
func (a *Array) setLayout(shape, strides []int) {
	r := len(shape)
	if r <= inlineRank {
		a.shape = append(a.dims[:0:inlineRank], shape...)
		a.strides = a.dims[inlineRank:inlineRank:(2 * inlineRank)]
	} else {
		a.shape = clone(shape)
		a.strides = make([]int, 0, r)
	}
	if strides != nil {
		a.strides = append(a.strides, strides...)
		a.overlap = selfOverlaps(a.shape, a.strides)
		return
	}
	a.strides = a.strides[:r]
	n := 1
	for i := r - 1; i >= 0; i-- {
		a.strides[i] = n
		if shape[i] > 0 {
			n *= shape[i]
		}
	}
}

// New returns a zero-filled, contiguous (row-major) array of the given dtype
// and shape, with its buffer from mem (DefaultAllocator when nil). A request
// too large for the allocation limit or the machine, or whose size
// overflows, returns an *AllocError (errors.Is ErrAlloc) naming the shape,
// dtype and bytes.
func New(mem memory.Allocator, dt DType, shape ...int) (*Array, error) {
	a, zero, err := empty("array.New", mem, dt, shape)
	if err != nil {
		return nil, err
	}
	if !zero {
		clear(a.data.Bytes())
	}
	return a, nil
}

// Empty is New without the zero fill: the contents are whatever the allocator
// returned. Use it for outputs that are about to be written in full.
func Empty(mem memory.Allocator, dt DType, shape ...int) (*Array, error) {
	a, _, err := empty("array.Empty", mem, dt, shape)
	return a, err
}

// EmptyTouched is Empty for an output that is about to be written in full
// by workers goroutines: when its buffer is fresh memory whose pages are not
// mapped yet, they are faulted in first, on workers goroutines at once, so
// that the kernel's page zeroing runs in parallel, and the writers can use
// streaming stores (which are slow on pages not yet mapped). Buffers that
// are reused, small (up to PageAllocatorThreshold) or from another
// allocator are left as they are.
func EmptyTouched(mem memory.Allocator, workers int, dt DType, shape ...int) (*Array, error) {
	a, zero, err := empty("array.Empty", mem, dt, shape)
	if err != nil {
		return nil, err
	}
	if b := a.data.Bytes(); zero && len(b) > PageAllocatorThreshold {
		touchPages(b, workers)
	}
	return a, nil
}

// empty allocates an array and reports whether its contents are zero.
func empty(op string, mem memory.Allocator, dt DType, shape []int) (*Array, bool, error) {
	if !dt.Valid() {
		return nil, false, fmt.Errorf("%s: %w: %v", op, ErrDType, dt)
	}
	n, err := checkRequest(op, dt, shape)
	if err != nil {
		return nil, false, err
	}
	if mem == nil {
		mem = DefaultAllocator
	}
	size := n * dt.Size()
	zero := true
	var a *Array
	if p, ok := mem.(*pageAllocator); ok {
		// no zero fill: the caller writes every element
		var b []byte
		b, zero = p.allocateUninit(size)
		if b == nil {
			return nil, false, fmt.Errorf("%s: %w", op, &AllocError{Shape: clone(shape), DType: dt, Bytes: int64(size), Reason: "the allocator refused"})
		}
		a = newPageHeader(dt, b, p, size <= PageAllocatorThreshold)
	} else {
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(size)
		a = newHeader(dt, buf, nil, mem)
	}
	a.setLayout(shape, nil)
	return a, zero, nil
}

// newHeader returns a header holding one reference to data and valid
// (already taken by the caller), released by Release or, if the program
// drops the header, by a cleanup after the garbage collector finds it
// unreachable.
func newHeader(dt DType, data, valid *memory.Buffer, mem memory.Allocator) *Array {
	return (&owner{data: data}).header(dt, valid, mem)
}

// header returns a header holding o (o.data set), with its cleanup.
func (o *owner) header(dt DType, valid *memory.Buffer, mem memory.Allocator) *Array {
	o.refs.Store(1)
	if valid != nil {
		o.valid.Store(valid)
	}
	a := &Array{own: o, dtype: dt, data: o.data, valid: valid, mem: mem}
	a.cleanup = runtime.AddCleanup(a, reclaim, o)
	if debugOn.Load() {
		o.site = track(o, o.data.Len())
	}
	return a
}

// setValid gives a the validity buffer v (a takes over the caller's
// reference).
func (a *Array) setValid(v *memory.Buffer) {
	a.valid = v
	a.own.valid.Store(v)
}

// newPageHeader returns a header over b, fresh from the page allocator p,
// holding the only reference to it. The buffer and the owner are one
// allocation with the header. A small buffer's header (small) gets no
// cleanup: if the program drops it, the garbage collector frees the
// buffer's memory like any Go memory, and the buffer's own cleanup
// (alignedBytes) takes it off the page allocators' books; nothing is ever
// reused while the program can reach it, since only Release gives it back.
// That saves the registration (and the removal at Release) that made most
// of the cost of a small result. Large buffers, and every header in debug
// mode, get the cleanup of newHeader: a dropped large result counts towards
// the next collection (collectSoon), and debug mode lists the dropped ones.
func newPageHeader(dt DType, b []byte, p *pageAllocator, small bool) *Array {
	if small && !debugOn.Load() {
		h := &pageHeader{}
		h.o.buf = *memory.NewBufferWithAllocator(b, p)
		h.o.data = &h.o.buf
		h.o.refs.Store(1)
		a := &h.a // fresh memory: only the fields that are not zero
		a.own, a.dtype, a.data, a.mem = &h.o, dt, h.o.data, p
		return a
	}
	o := &owner{}
	o.buf = *memory.NewBufferWithAllocator(b, p)
	o.data = &o.buf
	return o.header(dt, nil, p)
}

// pageHeader is a header and its owner in one allocation (newPageHeader).
type pageHeader struct {
	o owner // first: the buffer's reference count is 64-bit aligned
	a Array
}

// owner holds the buffer references of one header.
type owner struct {
	buf   memory.Buffer // data, when the owner was made with it (newPageHeader); first, so that its atomic count is 64-bit aligned
	refs  atomic.Int64
	data  *memory.Buffer
	valid atomic.Pointer[memory.Buffer]
	site  *site // where the array was made (debug mode)
}

// drop releases the buffer references. dropped: the header was reclaimed
// by the garbage collector, so slices from Values may still reach the
// memory, which must then not be reused.
func (o *owner) drop(dropped bool) {
	v := o.valid.Load()
	if dropped {
		live.taint(o.data.Bytes())
		if v != nil {
			live.taint(v.Bytes())
		}
	}
	if o.site != nil {
		untrack(o, dropped)
	}
	o.data.Release()
	if v != nil {
		v.Release()
	}
}

// reclaim is the cleanup of a header the program dropped without
// releasing it.
func reclaim(o *owner) {
	if o.refs.Swap(0) > 0 {
		n := o.data.Len()
		o.drop(true)
		collectSoon(n)
	}
}

// FromBuffer returns an array header over an existing buffer: element (i0,
// i1, ...) lives at element index offset + Σ ik*strides[k] of data, and of
// valid when valid is not nil (valid holds one byte per element, 1 = valid,
// addressed like data). FromBuffer Retains data and valid; the caller keeps its
// own references. It checks that every element the header can reach lies
// inside both buffers.
func FromBuffer(dt DType, shape, strides []int, offset int, data, valid *memory.Buffer) (*Array, error) {
	return FromBufferIn(nil, dt, shape, strides, offset, data, valid)
}

// FromBufferIn is FromBuffer for an array whose derived buffers (a
// validity mask added by SetNull or EnsureValidity, copies) come from mem
// (DefaultAllocator when nil).
func FromBufferIn(mem memory.Allocator, dt DType, shape, strides []int, offset int, data, valid *memory.Buffer) (*Array, error) {
	if mem == nil {
		mem = DefaultAllocator
	}
	if !dt.Valid() {
		return nil, fmt.Errorf("array.FromBuffer: %w: %v", ErrDType, dt)
	}
	if data == nil {
		return nil, fmt.Errorf("array.FromBuffer: %w: nil data buffer", ErrNil)
	}
	if len(strides) != len(shape) {
		return nil, fmt.Errorf("array.FromBuffer: %w: %d strides for shape %v", ErrShape, len(strides), shape)
	}
	if _, err := numel(shape); err != nil {
		return nil, fmt.Errorf("array.FromBuffer %v: %w", shape, err)
	}
	if err := checkBounds(shape, strides, offset, data.Len()/dt.Size()); err != nil {
		return nil, fmt.Errorf("array.FromBuffer %v strides %v offset %d: data %w", shape, strides, offset, err)
	}
	if valid != nil {
		if err := checkBounds(shape, strides, offset, valid.Len()); err != nil {
			return nil, fmt.Errorf("array.FromBuffer %v strides %v offset %d: validity %w", shape, strides, offset, err)
		}
		valid.Retain()
	}
	data.Retain()
	a := newHeader(dt, data, valid, mem)
	a.offset = offset
	a.setLayout(shape, strides)
	return a, nil
}

// View returns a new header over a's buffers (data and validity) with another
// shape, strides and offset, after checking that it stays inside them. It is
// the primitive that every zero-copy view in package view is built on. The
// new header holds its own references; release both.
func (a *Array) View(shape, strides []int, offset int) (*Array, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.View: %w", err)
	}
	return FromBufferIn(a.mem, a.dtype, shape, strides, offset, a.data, a.valid)
}

// Allocator returns the allocator that buffers derived from a come from.
func (a *Array) Allocator() memory.Allocator {
	if a == nil || a.mem == nil {
		return DefaultAllocator
	}
	return a.mem
}

// Retain adds a reference to a. Each Retain needs a matching Release.
// Retaining a released array does nothing: its buffers are gone, and it stays
// released.
func (a *Array) Retain() {
	if a == nil || a.own == nil {
		return
	}
	for {
		n := a.own.refs.Load()
		if n <= 0 || a.own.refs.CompareAndSwap(n, n+1) {
			return
		}
	}
}

// Release drops a reference; the last one releases the buffers. Releasing
// more often than retaining is a no-op, not a double free.
func (a *Array) Release() {
	if a == nil || a.own == nil {
		return
	}
	o := a.own
	for {
		n := o.refs.Load()
		if n <= 0 {
			return
		}
		if o.refs.CompareAndSwap(n, n-1) {
			if n == 1 {
				a.cleanup.Stop()
				o.drop(false)
			}
			return
		}
	}
}

// Live reports whether a holds its buffers (it has not been released).
func (a *Array) Live() bool { return a != nil && a.own != nil && a.own.refs.Load() > 0 }

// Check returns nil if a can be used: not nil and not released.
func Check(a *Array) error {
	if a == nil {
		return ErrNil
	}
	if !a.Live() {
		return ErrReleased
	}
	return nil
}

// DType returns the element type (Invalid for nil).
func (a *Array) DType() DType {
	if a == nil {
		return Invalid
	}
	return a.dtype
}

// Shape returns a copy of the shape ([] for a scalar, nil for a nil array).
func (a *Array) Shape() []int {
	if a == nil {
		return nil
	}
	return clone(a.shape)
}

// Strides returns a copy of the strides, in elements.
func (a *Array) Strides() []int {
	if a == nil {
		return nil
	}
	return clone(a.strides)
}

// Offset returns the element index of element (0, 0, ...) in the buffer.
func (a *Array) Offset() int {
	if a == nil {
		return 0
	}
	return a.offset
}

// Rank returns the number of dimensions (0 for a scalar or nil).
func (a *Array) Rank() int {
	if a == nil {
		return 0
	}
	return len(a.shape)
}

// Dim returns the size of axis i, or 0 if there is no such axis.
func (a *Array) Dim(i int) int {
	if a == nil || i < 0 || i >= len(a.shape) {
		return 0
	}
	return a.shape[i]
}

// Len returns the number of elements (1 for a scalar, 0 for nil).
func (a *Array) Len() int {
	if a == nil {
		return 0
	}
	n := 1
	for _, d := range a.shape {
		n *= d
	}
	return n
}

// Data returns the data buffer without retaining it.
func (a *Array) Data() *memory.Buffer {
	if a == nil {
		return nil
	}
	return a.data
}

// Validity returns the validity buffer (nil when every element is valid)
// without retaining it. It holds one byte per element, addressed like Data.
func (a *Array) Validity() *memory.Buffer {
	if a == nil {
		return nil
	}
	return a.valid
}

// HasNulls reports whether a carries a validity mask. (A mask may still mark
// every element valid.)
func (a *Array) HasNulls() bool { return a != nil && a.valid != nil }

// IsContiguous reports whether a is row-major contiguous: its elements are
// the buffer's elements offset .. offset+Len()-1 in order.
func (a *Array) IsContiguous() bool {
	if a == nil {
		return false
	}
	if a.Len() == 0 {
		return true // no element, whatever the strides
	}
	want := 1
	for i := len(a.shape) - 1; i >= 0; i-- {
		if a.shape[i] == 1 {
			continue
		}
		if a.shape[i] == 0 {
			return true
		}
		if a.strides[i] != want {
			return false
		}
		want *= a.shape[i]
	}
	return true
}

// ReadOnly reports whether writing through a would write an element more
// than once: two indices reach one element, as in a broadcast (an axis
// longer than 1 with stride 0) or a view whose strides fold onto
// themselves (View([]int{3, 3}, []int{1, 1}, 0)). The test is exact up to
// a span of 2^20 elements and conservative beyond (see overlap.go); views
// made by package view from a writable array are never marked by it.
func (a *Array) ReadOnly() bool {
	if a == nil {
		return true
	}
	return a.overlap
}

// ContiguousStrides returns the row-major strides, in elements, of shape.
func ContiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = n
		if shape[i] > 0 {
			n *= shape[i]
		}
	}
	return st
}

// numel is the element count of shape; it rejects negative dims and counts
// that overflow int.
func numel(shape []int) (int, error) {
	n := 1
	zero := false
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("%w: dim %d is %d", ErrShape, i, d)
		}
		if d == 0 {
			zero = true
		}
	}
	if zero {
		return 0, nil
	}
	for _, d := range shape {
		if n > math.MaxInt/d {
			return 0, fmt.Errorf("%w: element count overflows int", ErrShape)
		}
		n *= d
	}
	return n, nil
}

// checkBounds reports whether every element index reachable through
// (shape, strides, offset) is in [0, n).
func checkBounds(shape, strides []int, offset, n int) error {
	for _, d := range shape {
		if d == 0 {
			return nil
		}
	}
	lo, hi := offset, offset
	for i, d := range shape {
		s := strides[i]
		if d > 1 && (s > math.MaxInt/(d-1) || s < -math.MaxInt/(d-1)) {
			return fmt.Errorf("%w: stride %d overflows on axis %d", ErrBounds, s, i)
		}
		span := (d - 1) * s
		if span > 0 {
			if hi > math.MaxInt-span {
				return fmt.Errorf("%w: extent overflows on axis %d", ErrBounds, i)
			}
			hi += span
		} else {
			if lo < math.MinInt-span {
				return fmt.Errorf("%w: extent overflows on axis %d", ErrBounds, i)
			}
			lo += span
		}
	}
	if lo < 0 || hi >= n {
		return fmt.Errorf("%w: reaches elements %d..%d of a buffer of %d", ErrBounds, lo, hi, n)
	}
	return nil
}

func clone(s []int) []int {
	c := make([]int, len(s))
	copy(c, s)
	return c
}
