package expr

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/linalg"
	"github.com/stride0/stride0/view"
)

// structural evaluates a structural node. With asView (an operand that a
// pass hoists) the result may be a view of an operand; otherwise it is
// written into dst, or into a new contiguous array when dst is nil. The
// returned array is the caller's to release (dst excepted).
func (ev *evaluation) structural(r *rnode, dst *array.Array, asView bool) (*array.Array, error) {
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	if r.n.kind == kConcat {
		return ev.concat(r, dst)
	}
	xs := make([]*array.Array, len(r.args))
	for i, a := range r.args {
		x, err := ev.structOperand(a)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	if ev.describeStruct(r, xs) {
		return nil, nil
	}
	switch r.n.kind {
	case kView:
		return ev.viewNode(r, xs[0], dst, asView)
	case kMatmul:
		if dst != nil {
			// straight into dst when linalg can (no temporary and copy)
			ok, err := linalg.MatmulInto(dst, xs[0], xs[1], ev.o.workers)
			if err != nil {
				return nil, fmt.Errorf("expr.Matmul: %w", err)
			}
			if ok {
				return dst, nil
			}
		}
		out, err := linalg.MatmulWorkers(ev.o.mem, xs[0], xs[1], ev.o.workers)
		if err != nil {
			return nil, fmt.Errorf("expr.Matmul: %w", err)
		}
		return ev.structDeliver(out, dst)
	}
	x, err := ev.contiguous(xs[0])
	if err != nil {
		return nil, err
	}
	ax, _ := normAxis(r.n.st.axis, x.Rank())
	var out *array.Array
	if direct := writeDirect(dst, xs); direct {
		out = dst // written in place: no result to copy over
	} else if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
		return nil, err
	}
	switch r.n.kind {
	case kTake:
		var done bool
		if done, err = takeDirect(out, x, xs[1], ax); !done {
			var idx []int
			var valid []bool
			if idx, valid, err = indexValues(xs[1]); err == nil {
				err = gather(out, x, idx, valid, ax)
			}
		}
	case kSort:
		err = ev.sortInto(out, x, ax, r.n.st.arg)
	}
	if out == dst {
		if err != nil {
			return nil, err
		}
		return dst, nil
	}
	if err != nil {
		out.Release()
		return nil, err
	}
	return ev.structDeliver(out, dst)
}

// writeDirect reports whether a take or sort may write straight into dst:
// contiguous, without a validity mask, not sharing memory with an operand,
// and no operand with nulls (whose result would need a mask).
func writeDirect(dst *array.Array, xs []*array.Array) bool {
	if dst == nil || !dst.IsContiguous() || dst.Validity() != nil {
		return false
	}
	dlo, dhi := span(dst)
	for _, x := range xs {
		if x.HasNulls() {
			return false
		}
		if lo, hi := span(x); lo < dhi && dlo < hi {
			return false
		}
	}
	return true
}

// structOperand returns the array an operand of a structural node reads: a leaf
// as it is, a structural node as a view where it has one, anything else
// evaluated into a temporary. Arrays made here are released with the
// evaluation.
func (ev *evaluation) structOperand(a *rnode) (*array.Array, error) {
	if a.isLeaf() {
		return a.arr, nil
	}
	t, err := ev.temporary(a)
	if err != nil {
		return nil, err
	}
	return t.arr, nil
}

// contiguous returns x, or a contiguous copy of it (released with the
// evaluation).
func (ev *evaluation) contiguous(x *array.Array) (*array.Array, error) {
	if x.IsContiguous() {
		return x, nil
	}
	c, err := ev.copyInto(x, nil)
	if err != nil {
		return nil, err
	}
	ev.temps = append(ev.temps, c)
	return c, nil
}

// copyInto copies src into dst (any writable view of src's dtype and
// shape) with one pass of the fused evaluator, or into a new contiguous
// array when dst is nil.
func (ev *evaluation) copyInto(src, dst *array.Array) (*array.Array, error) {
	if ev.explain == nil && rowCopyable(src, outStrides(dst, src.Shape())) {
		switch {
		case dst == nil:
			out, err := ev.newOutput(src.DType(), src.Shape())
			if err != nil {
				return nil, err
			}
			if rowCopy(out, src, ev.o.workers, false) {
				return out, nil
			}
			out.Release()
		case !overlaps(dst, &rnode{arr: src}) && rowCopy(dst, src, ev.o.workers, true):
			return dst, nil
		}
	}
	if ev.explain == nil && transposable(src, outStrides(dst, src.Shape())) {
		switch {
		case dst == nil:
			out, err := ev.newOutput(src.DType(), src.Shape())
			if err != nil {
				return nil, err
			}
			if transposeCopy(out, src) {
				return out, nil
			}
			out.Release()
		case !overlaps(dst, &rnode{arr: src}) && transposeCopy(dst, src):
			return dst, nil
		}
	}
	n := &Node{kind: kLeaf, dtype: src.DType(), shape: broadcast.StaticShape(src.Shape()...), arr: src}
	leaf := &rnode{n: n, shape: src.Shape(), arr: src, dtype: src.DType(), ctype: src.DType()}
	ev.setRole(leaf, "copy of a view or result")
	return ev.elementwise(leaf, dst)
}

// structDeliver hands a freshly computed out to the caller: as it is when there
// is no dst, else copied into dst and released.
func (ev *evaluation) structDeliver(out, dst *array.Array) (*array.Array, error) {
	if dst == nil {
		return out, nil
	}
	defer out.Release()
	return ev.copyInto(out, dst)
}

// viewNode evaluates a view node: the view of x when one exists (copied
// into dst or a new array unless asView), else one copy pass from an
// expanded view of x into the result reshaped to the expanded shape.
func (ev *evaluation) viewNode(r *rnode, x, dst *array.Array, asView bool) (*array.Array, error) {
	s := r.n.st
	var v *array.Array
	var err error
	switch s.vop {
	case vTranspose:
		v, err = view.Transpose(x, s.ints...)
	case vReshape:
		v, err = view.Reshape(x, r.shape...)
	case vFlip:
		v, err = view.Flip(x, s.ints...)
	case vTile:
		v, err = view.Tile(x, s.ints...)
	case vRepeat:
		if s.ints != nil {
			return ev.repeatEach(r, x, dst)
		}
		if !asView && ev.explain == nil && x.IsContiguous() && !x.HasNulls() {
			return ev.repeatCopy(r, x, dst)
		}
		v, err = view.Repeat(x, s.count, s.axis)
	}
	if err == nil {
		if asView {
			return v, nil
		}
		defer v.Release()
		return ev.copyInto(v, dst)
	}
	if !errors.Is(err, view.ErrCopyRequired) {
		return nil, fmt.Errorf("expr.%s: %w", s.name, err)
	}
	// the expanded source, and the shape the result is filled through
	src := x
	switch s.vop {
	case vTile:
		src, err = view.TileExpanded(x, s.ints...)
	case vRepeat:
		src, err = view.RepeatExpanded(x, s.count, s.axis)
	default:
		src.Retain()
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("expr.%s: %w", s.name, err)
	}
	defer src.Release()
	out := dst
	if dst == nil || !dst.IsContiguous() || overlaps(dst, r) {
		if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	if src.HasNulls() {
		err = out.EnsureValidity() // on out's header: fill's would be its own
	}
	var fill *array.Array
	if err == nil {
		fill, err = out.Reshaped(src.Shape()...)
	}
	if err == nil {
		_, err = ev.copyInto(src, fill)
		fill.Release()
	}
	if err != nil {
		if out != dst {
			out.Release()
		}
		return nil, err
	}
	if dst == nil || out == dst {
		return out, nil
	}
	return ev.structDeliver(out, dst)
}

// repeatEach evaluates a repeat with a count per element: a gather of
// each slice along the axis as many times as its count (the index list is
// as long as the result's axis).
func (ev *evaluation) repeatEach(r *rnode, x, dst *array.Array) (*array.Array, error) {
	x, err := ev.contiguous(x)
	if err != nil {
		return nil, err
	}
	ax, _ := normAxis(r.n.st.axis, x.Rank())
	idx := make([]int, 0, r.shape[ax])
	for i, c := range r.n.st.ints {
		for range c {
			idx = append(idx, i)
		}
	}
	out, err := ev.newOutput(r.dtype, r.shape)
	if err != nil {
		return nil, err
	}
	if err := gather(out, x, idx, nil, ax); err != nil {
		out.Release()
		return nil, err
	}
	return ev.structDeliver(out, dst)
}

// repeatCopy evaluates a repeat with one count of a contiguous x without
// nulls by copying: each slice along the axis count times with one
// memmove, or, along the last axis, each element count times in a typed
// loop (the copy pass from a stride-0 view would run 2-element inner loops).
func (ev *evaluation) repeatCopy(r *rnode, x, dst *array.Array) (*array.Array, error) {
	out := dst
	if !writeDirect(dst, []*array.Array{x}) {
		var err error
		if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	ax, _ := normAxis(r.n.st.axis, x.Rank())
	xs := x.Shape()
	count, sz := r.n.st.count, x.DType().Size()
	src, dstb := contiguousBytes(x), contiguousBytes(out)
	if count > 0 && len(src) > 0 {
		block := size(xs[ax+1:]) * sz
		outer := len(src) / block
		switch {
		case block == 4:
			repeatEach4[uint32](dstb, src, count)
		case block == 8:
			repeatEach4[uint64](dstb, src, count)
		default:
			for o := range outer {
				b := src[o*block : (o+1)*block]
				for k := range count {
					copy(dstb[(o*count+k)*block:], b)
				}
			}
		}
	}
	if out == dst || dst == nil {
		return out, nil
	}
	return ev.structDeliver(out, dst)
}

// repeatEach4 writes each element of src (4- or 8-byte words) count times
// in a row into dst.
func repeatEach4[T uint32 | uint64](dst, src []byte, count int) {
	var z T
	sz := int(unsafe.Sizeof(z))
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(src))), len(src)/sz)
	d := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(dst))), len(s)*count)
	if count == 2 {
		d = d[:2*len(s)]
		for i, v := range s {
			d[2*i] = v
			d[2*i+1] = v
		}
		return
	}
	for i, v := range s {
		for k := range count {
			d[i*count+k] = v
		}
	}
}

// concat evaluates a concatenate or stack: each piece is evaluated (fused
// with whatever it computes) straight into its slice of the output.
func (ev *evaluation) concat(r *rnode, dst *array.Array) (*array.Array, error) {
	if ev.describeStruct(r, nil) {
		return nil, nil
	}
	out := dst
	var err error
	if dst == nil || overlaps(dst, r) {
		if out, err = ev.newOutput(r.dtype, r.shape); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*array.Array, error) {
		if out != dst {
			out.Release()
		}
		return nil, err
	}
	if hasNulls(r) {
		if err := out.EnsureValidity(); err != nil {
			return fail(err)
		}
	}
	ax, _ := normAxis(r.n.st.axis, len(r.shape)) // a stack's axis counts in the result too
	if interleaveCopy(out, r, ax) {
		if out == dst || dst == nil {
			return out, nil
		}
		return ev.structDeliver(out, dst)
	}
	ranges := make([]view.Range, ax+1)
	for i := range ranges {
		ranges[i] = view.All()
	}
	off := 0
	for i, p := range r.args {
		if r.n.st.stack {
			ranges[ax] = view.Index(i)
		} else {
			ranges[ax] = view.Span(off, off+p.shape[ax])
			off += p.shape[ax]
		}
		if size(p.shape) == 0 {
			continue
		}
		sl, err := view.Slice(out, ranges...)
		if err != nil {
			return fail(err)
		}
		if !p.isLeaf() || !blockCopy(sl, p.arr) {
			ev.setRole(p, fmt.Sprintf("piece %d, written into its slice of the %s", i, r.n.opName()))
			_, err = ev.eval(p, sl)
		}
		sl.Release()
		if err != nil {
			return fail(err)
		}
	}
	if out == dst || dst == nil {
		return out, nil
	}
	return ev.structDeliver(out, dst)
}

// setRole names the role of the pass over r in Explain.
func (ev *evaluation) setRole(r *rnode, role string) {
	if ev.explain == nil {
		return
	}
	if ev.roles == nil {
		ev.roles = map[*rnode]string{}
	}
	ev.roles[r] = role
}

// describeStruct writes a structural node's step to Explain and reports
// whether it is the root of a dry run (and so must not run).
func (ev *evaluation) describeStruct(r *rnode, xs []*array.Array) bool {
	if ev.explain == nil {
		return false
	}
	ev.passes++
	role := "root"
	if r != ev.root {
		role = "operand (evaluated first, then read as a leaf)"
	}
	b := ev.explain
	fmt.Fprintf(b, "pass %d (%s): %s %v -> %v %v\n", ev.passes, role, r.n.opName(), r.n, r.dtype, r.shape)
	switch r.n.kind {
	case kView:
		b.WriteString("  a view of the operand where its strides allow (no copy), else one copy pass\n")
	case kConcat:
		fmt.Fprintf(b, "  %d pieces, each evaluated into its slice of the output\n", len(r.args))
	case kTake:
		b.WriteString("  rows gathered at the indices\n")
	case kSort:
		b.WriteString("  each lane along the axis sorted (stable)\n")
	case kMatmul:
		b.WriteString("  linalg.Matmul of the operands\n")
	}
	for i, x := range xs {
		fmt.Fprintf(b, "  operand %d: %#v\n", i, x)
	}
	return ev.dry && r == ev.root
}

// interleaveCopy writes a concatenation (or stack) of contiguous arrays
// of out's dtype into the contiguous out row by row of the outer axes: for
// each outer index, each piece's block in turn, so that the output is
// written sequentially (per piece, the blocks would be strided by the
// output's row: measured 4x slower along axis 1 of [1024, 1024] pieces).
// It reports whether it applied: every piece an array as described, with
// blocks of at least minBlock bytes.
func interleaveCopy(out *array.Array, r *rnode, ax int) bool {
	if !out.IsContiguous() || ax == 0 || size(r.shape) == 0 {
		return false
	}
	dt := out.DType()
	sz := dt.Size()
	outer := size(r.shape[:ax])
	blocks := make([]int, len(r.args))
	for i, p := range r.args {
		if !p.isLeaf() || p.arr.DType() != dt || !p.arr.IsContiguous() || p.arr.HasNulls() && !out.HasNulls() {
			return false
		}
		blocks[i] = p.arr.Len() / outer
		if blocks[i]*sz < minBlock {
			return false
		}
	}
	db := contiguousBytes(out)
	dm := contiguousMask(out)
	// A large output is written around the cache (non-temporal stores),
	// as the copy of one large block is by Go's memmove: it saves reading
	// each output line before it is written.
	nt := len(db) >= ntThreshold && compute.Asm
	d := 0
	for o := range outer {
		for i, p := range r.args {
			n := blocks[i]
			src := contiguousBytes(p.arr)
			dd, ss := db[d*sz:(d+n)*sz], src[o*n*sz:(o+1)*n*sz]
			if nt {
				compute.CopyNT(unsafe.Pointer(unsafe.SliceData(dd)), unsafe.Pointer(unsafe.SliceData(ss)), len(dd))
			} else {
				copy(dd, ss)
			}
			if dm != nil {
				if sm := contiguousMask(p.arr); sm != nil {
					copy(dm[d:d+n], sm[o*n:(o+1)*n])
				} else {
					m := dm[d : d+n]
					for j := range m {
						m[j] = 1
					}
				}
			}
			d += n
		}
	}
	if nt {
		compute.Fence()
	}
	return true
}

// minBlock is the smallest run of bytes that blockCopy copies with one
// memmove; shorter runs go through the fused evaluator's copy pass.
const minBlock = 256

// blockCopy copies src into dst (same dtype and shape) with one memmove per
// run of elements that is contiguous in both, when such runs are at least
// minBlock bytes long, and reports whether it did. This is how the pieces
// of a concatenation that are arrays reach memcpy speed.
func blockCopy(dst, src *array.Array) bool {
	dt := src.DType()
	if dst.DType() != dt || dst.ReadOnly() {
		return false
	}
	shape := src.Shape()
	ss, ds := src.Strides(), dst.Strides()
	sz := dt.Size()
	block, k := 1, len(shape)
	for k > 0 {
		d := shape[k-1]
		if d != 1 && (ss[k-1] != block || ds[k-1] != block) {
			break
		}
		block *= d
		k--
	}
	if block*sz < minBlock {
		return false
	}
	srcMask, dstMask := src.Validity(), dst.Validity()
	if srcMask != nil && dstMask == nil {
		return false // the caller made the output's mask when a piece has nulls
	}
	sb, db := src.Data().Bytes(), dst.Data().Bytes()
	var sm, dm []byte
	if srcMask != nil {
		sm = srcMask.Bytes()
	}
	if dstMask != nil {
		dm = dstMask.Bytes()
	}
	outer := shape[:k]
	idx := make([]int, k)
	so, do := src.Offset(), dst.Offset()
	for {
		copy(db[do*sz:(do+block)*sz], sb[so*sz:(so+block)*sz])
		switch {
		case sm != nil:
			copy(dm[do:do+block], sm[so:so+block])
		case dm != nil:
			m := dm[do : do+block]
			for i := range m {
				m[i] = 1
			}
		}
		if !nextOuter(idx, outer, ss, ds, &so, &do) {
			return true
		}
	}
}
