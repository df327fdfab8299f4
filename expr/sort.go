package expr

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// Sort sorts x along axis (negative counts from the end), as
// numpy.sort(x, axis, stable=True): ascending, stable (equal elements keep
// their order), NaNs last as NumPy puts them, -0.0 and 0.0 equal (so they
// keep their order too), for every dtype (float16 compared by value, bool
// false before true). Nulls, which NumPy has not, go after the NaNs, in
// their original order, and stay null.
//
// Lazy: the shape is x's, so Sort is a node; its operand is evaluated
// first, then each lane along the axis is sorted.
func Sort(x *Node, axis int) *Node { return sortNode("Sort", x, axis, false) }

// SortFlat sorts x flattened in row-major order (numpy.sort with axis
// None): the result is 1-D.
func SortFlat(x *Node) *Node { return Sort(Reshape(x, -1), 0) }

// Argsort returns the int64 indices that sort x along axis (Sort's order:
// stable, NaNs then nulls last), as numpy.argsort(x, axis, stable=True).
// The result has no nulls. Lazy, like Sort.
//
// As in NumPy, a rank-0 x is sorted as a 1-D array of one element (axis 0
// or -1), while Sort of a rank-0 x is an axis error.
func Argsort(x *Node, axis int) *Node { return sortNode("Argsort", ravelScalar(x), axis, true) }

// ArgsortFlat is Argsort of x flattened (numpy.argsort with axis None):
// indices into the flattened array.
func ArgsortFlat(x *Node) *Node { return Argsort(Reshape(x, -1), 0) }

func sortNode(name string, x *Node, axis int, arg bool) *Node {
	n := structNode(kSort, name, &structInfo{axis: axis, arg: arg}, x)
	if n.err != nil {
		return n
	}
	n.dtype = x.dtype
	if arg {
		n.dtype = array.Int64
	}
	n.ctype = n.dtype
	return n.finish(sameRank)
}

func (n *Node) sortShape(in [][]int) ([]int, error) {
	x := in[0]
	if _, ok := normAxis(n.st.axis, len(x)); !ok {
		return nil, fmt.Errorf("expr.%s: axis %d out of range for shape %v: %w", n.st.name, n.st.axis, x, broadcast.ErrAxes)
	}
	return slices.Clone(x), nil
}

// sortOrder computes, for every lane of the contiguous x along axis ax,
// the stable sorting order, and calls emit(lane start, lane stride, order)
// with order[j] the lane position of the j-th smallest element.
//
// Each element becomes an unsigned key in the same order (integers with
// the sign bit flipped, floats by their bits with negatives inverted, -0
// as 0, every NaN the largest key): keys of 32 bits or less are packed
// above the element's position into one uint64, so that one sort of plain
// integers gives the stable order; 64-bit keys are sorted as (key,
// position) pairs. Nulls keep their order after everything else.
func sortOrder(x *array.Array, ax int, emit func(base, stride int, order []int)) {
	xs := x.Shape()
	n := xs[ax]
	outer, inner := size(xs[:ax]), size(xs[ax+1:])
	if n == 0 || outer == 0 || inner == 0 {
		return
	}
	mask := contiguousMask(x)
	p := unsafe.Pointer(unsafe.SliceData(contiguousBytes(x)))
	cnt := x.Len()
	var k32 func(e int) uint32
	var k64 func(e int) uint64
	switch x.DType() {
	case array.Bool:
		v := unsafe.Slice((*uint8)(p), cnt)
		k32 = func(e int) uint32 { return uint32(min(v[e], 1)) }
	case array.Uint8:
		v := unsafe.Slice((*uint8)(p), cnt)
		k32 = func(e int) uint32 { return uint32(v[e]) }
	case array.Uint16:
		v := unsafe.Slice((*uint16)(p), cnt)
		k32 = func(e int) uint32 { return uint32(v[e]) }
	case array.Uint32:
		v := unsafe.Slice((*uint32)(p), cnt)
		k32 = func(e int) uint32 { return v[e] }
	case array.Int8:
		v := unsafe.Slice((*int8)(p), cnt)
		k32 = func(e int) uint32 { return uint32(int32(v[e])) ^ 1<<31 }
	case array.Int16:
		v := unsafe.Slice((*int16)(p), cnt)
		k32 = func(e int) uint32 { return uint32(int32(v[e])) ^ 1<<31 }
	case array.Int32:
		v := unsafe.Slice((*int32)(p), cnt)
		k32 = func(e int) uint32 { return uint32(v[e]) ^ 1<<31 }
	case array.Float16:
		v := unsafe.Slice((*uint16)(p), cnt)
		k32 = func(e int) uint32 { return floatKey32(float16.FromBits(v[e]).Float32()) }
	case array.Float32:
		v := unsafe.Slice((*float32)(p), cnt)
		k32 = func(e int) uint32 { return floatKey32(v[e]) }
	case array.Int64:
		v := unsafe.Slice((*int64)(p), cnt)
		k64 = func(e int) uint64 { return uint64(v[e]) ^ 1<<63 }
	case array.Uint64:
		v := unsafe.Slice((*uint64)(p), cnt)
		k64 = func(e int) uint64 { return v[e] }
	case array.Float64:
		v := unsafe.Slice((*float64)(p), cnt)
		k64 = func(e int) uint64 { return floatKey64(v[e]) }
	default:
		return
	}
	if k32 != nil && uint64(n) > math.MaxUint32 {
		k64 = func(e int) uint64 { return uint64(k32(e)) }
	}
	order := make([]int, n)
	var nulls []int
	var packed []uint64
	type pair struct {
		k uint64
		j int
	}
	var pairs []pair
	for o := range outer {
		for in := range inner {
			base := o*n*inner + in
			nulls = nulls[:0]
			m := 0
			if k64 == nil {
				packed = packed[:0]
				for j := range n {
					e := base + j*inner
					if mask != nil && mask[e] == 0 {
						nulls = append(nulls, j)
						continue
					}
					packed = append(packed, uint64(k32(e))<<32|uint64(j))
				}
				slices.Sort(packed)
				for i, v := range packed {
					order[i] = int(uint32(v))
				}
				m = len(packed)
			} else {
				pairs = pairs[:0]
				for j := range n {
					e := base + j*inner
					if mask != nil && mask[e] == 0 {
						nulls = append(nulls, j)
						continue
					}
					pairs = append(pairs, pair{k64(e), j})
				}
				slices.SortFunc(pairs, func(a, b pair) int {
					if c := cmp.Compare(a.k, b.k); c != 0 {
						return c
					}
					return cmp.Compare(a.j, b.j)
				})
				for i, v := range pairs {
					order[i] = v.j
				}
				m = len(pairs)
			}
			copy(order[m:], nulls)
			emit(base, inner, order)
		}
	}
}

// floatKey32 maps a float32 to a uint32 in the same order: -0 as 0, every
// NaN last.
func floatKey32(f float32) uint32 {
	if f != f {
		return math.MaxUint32
	}
	if f == 0 {
		return 1 << 31
	}
	b := math.Float32bits(f)
	if b&(1<<31) != 0 {
		return ^b
	}
	return b | 1<<31
}

// floatKey64 is floatKey32 for float64.
func floatKey64(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	if f == 0 {
		return 1 << 63
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// sortInto writes x (contiguous) sorted along ax into out (contiguous, x's
// dtype and shape, not overlapping x), or the argsort indices into out
// (int64). Without nulls each lane goes through compute's radix sort (read
// in place when the axis is the last one, else copied out and back);
// scratch comes from ev's allocator.
func (ev *evaluation) sortInto(out, x *array.Array, ax int, arg bool) error {
	var kind compute.KeyKind
	switch dt := x.DType(); {
	case x.HasNulls():
		return sortMasked(out, x, ax, arg)
	case dt == array.Bool:
		kind = compute.KeyBool
	case dt.IsSigned():
		kind = compute.KeySigned
	case dt.IsUnsigned():
		kind = compute.KeyUnsigned
	case dt.IsFloat():
		kind = compute.KeyFloat
	default:
		return sortMasked(out, x, ax, arg)
	}
	xs := x.Shape()
	n := xs[ax]
	outer, inner := size(xs[:ax]), size(xs[ax+1:])
	if n == 0 || outer == 0 || inner == 0 {
		return nil
	}
	sz := x.DType().Size()
	// scratch, in 8-byte words: the sort's own, then a lane copied in and
	// its result when the lane is strided
	words := (n*sz + 7) / 8
	if arg {
		words = compute.ArgsortScratch(n, sz)
	}
	if inner > 1 {
		words += (n*sz+7)/8 + n
	}
	sc, err := ev.newOutput(array.Uint64, []int{words})
	if err != nil {
		return err
	}
	defer sc.Release()
	l := sortLanes{src: contiguousBytes(x), dst: contiguousBytes(out), scratch: contiguousBytes(sc), n: n, outer: outer, inner: inner, kind: kind, arg: arg}
	switch sz {
	case 1:
		sortLanesOf[uint8](l)
	case 2:
		sortLanesOf[uint16](l)
	case 4:
		sortLanesOf[uint32](l)
	default:
		sortLanesOf[uint64](l)
	}
	return nil
}

// sortLanes is one sort's lanes: the contiguous source and result bytes,
// the lane length n, the outer and inner sizes around the axis.
type sortLanes struct {
	src, dst, scratch []byte
	n, outer, inner   int
	kind              compute.KeyKind
	arg               bool
}

func sortLanesOf[K compute.SortKey](l sortLanes) {
	var z K
	sz := int(unsafe.Sizeof(z))
	n, inner := l.n, l.inner
	src := unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(l.src))), len(l.src)/sz)
	words := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(l.scratch))), len(l.scratch)/8)
	own := (n*sz + 7) / 8
	if l.arg {
		own = compute.ArgsortScratch(n, sz)
	}
	var laneIn []K
	var laneOut []uint64
	if inner > 1 {
		laneIn = unsafe.Slice((*K)(unsafe.Pointer(&words[own])), n)
		laneOut = words[own+(n*sz+7)/8:][:n]
	}
	sortScratch := unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(words))), n)
	var dstK []K
	var dstI []int64
	if l.arg {
		dstI = unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(l.dst))), len(l.dst)/8)
	} else {
		dstK = unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(l.dst))), len(l.dst)/sz)
	}
	for o := range l.outer {
		for in := range inner {
			base := o*n*inner + in
			lane := src[base : base+n]
			if inner > 1 {
				lane = laneIn
				for j := range n {
					lane[j] = src[base+j*inner]
				}
			}
			switch {
			case l.arg && inner == 1:
				compute.ArgsortBits(dstI[base:base+n], lane, l.kind, words[:own])
			case l.arg:
				idx := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(laneOut))), n)
				compute.ArgsortBits(idx, lane, l.kind, words[:own])
				for j, v := range idx {
					dstI[base+j*inner] = v
				}
			case inner == 1:
				compute.SortBits(dstK[base:base+n], lane, sortScratch, l.kind)
			default:
				res := unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(laneOut))), n)
				compute.SortBits(res, lane, sortScratch, l.kind)
				for j, v := range res {
					dstK[base+j*inner] = v
				}
			}
		}
	}
}

// sortMasked is sortInto for an x with nulls: each lane through
// sortOrder, element by element.
func sortMasked(out, x *array.Array, ax int, arg bool) error {
	sz := x.DType().Size()
	src, dst := contiguousBytes(x), contiguousBytes(out)
	srcMask := contiguousMask(x)
	var dstMask []byte
	if !arg && srcMask != nil {
		if err := out.EnsureValidity(); err != nil {
			return err
		}
		dstMask = contiguousMask(out)
	}
	var idx []int64
	if arg && len(dst) > 0 {
		idx = unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(dst))), out.Len())
	}
	sortOrder(x, ax, func(base, stride int, order []int) {
		for j, k := range order {
			d := base + j*stride
			if arg {
				idx[d] = int64(k)
				continue
			}
			s := base + k*stride
			copy(dst[d*sz:(d+1)*sz], src[s*sz:(s+1)*sz])
			if dstMask != nil {
				dstMask[d] = srcMask[s]
			}
		}
	})
	return nil
}
