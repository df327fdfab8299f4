package expr

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
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
func sortOrder(x *array.Array, ax int, emit func(base, stride int, order []int)) {
	xs := x.Shape()
	n := xs[ax]
	outer, inner := size(xs[:ax]), size(xs[ax+1:])
	if n == 0 || outer == 0 || inner == 0 {
		return
	}
	mask := contiguousMask(x)
	raw := contiguousBytes(x)
	p := unsafe.Pointer(unsafe.SliceData(raw))
	cnt := x.Len()
	var lane func(base, stride int, order []int)
	switch x.DType() {
	case array.Bool:
		lane = laneSorter(unsafe.Slice((*uint8)(p), cnt), func(a, b uint8) int { return cmp.Compare(min(a, 1), min(b, 1)) }, mask)
	case array.Int8:
		lane = laneSorter(unsafe.Slice((*int8)(p), cnt), cmp.Compare[int8], mask)
	case array.Int16:
		lane = laneSorter(unsafe.Slice((*int16)(p), cnt), cmp.Compare[int16], mask)
	case array.Int32:
		lane = laneSorter(unsafe.Slice((*int32)(p), cnt), cmp.Compare[int32], mask)
	case array.Int64:
		lane = laneSorter(unsafe.Slice((*int64)(p), cnt), cmp.Compare[int64], mask)
	case array.Uint8:
		lane = laneSorter(unsafe.Slice((*uint8)(p), cnt), cmp.Compare[uint8], mask)
	case array.Uint16:
		lane = laneSorter(unsafe.Slice((*uint16)(p), cnt), cmp.Compare[uint16], mask)
	case array.Uint32:
		lane = laneSorter(unsafe.Slice((*uint32)(p), cnt), cmp.Compare[uint32], mask)
	case array.Uint64:
		lane = laneSorter(unsafe.Slice((*uint64)(p), cnt), cmp.Compare[uint64], mask)
	case array.Float16:
		h := unsafe.Slice((*uint16)(p), cnt)
		f := make([]float32, cnt)
		for i, v := range h {
			f[i] = float16.FromBits(v).Float32()
		}
		lane = laneSorter(f, cmpNaNLast[float32], mask)
	case array.Float32:
		lane = laneSorter(unsafe.Slice((*float32)(p), cnt), cmpNaNLast[float32], mask)
	case array.Float64:
		lane = laneSorter(unsafe.Slice((*float64)(p), cnt), cmpNaNLast[float64], mask)
	default:
		return
	}
	order := make([]int, n)
	for o := range outer {
		for in := range inner {
			base := o*n*inner + in
			lane(base, inner, order)
			emit(base, inner, order)
		}
	}
}

// cmpNaNLast orders floats ascending with every NaN after every number;
// -0 and 0 are equal.
func cmpNaNLast[F float32 | float64](a, b F) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := a != a, b != b
	switch {
	case an == bn:
		return 0
	case an:
		return 1
	}
	return -1
}

// laneSorter returns a function that fills order with the stable sorting
// order of the lane vals[base], vals[base+stride], ... (len(order)
// elements), nulls (mask 0) last.
func laneSorter[T any](vals []T, c func(a, b T) int, mask []byte) func(base, stride int, order []int) {
	var keys []T
	return func(base, stride int, order []int) {
		n := len(order)
		keys = slices.Grow(keys[:0], n)[:n]
		valid := order[:0]
		var nulls []int
		for j := range n {
			e := base + j*stride
			if mask != nil && mask[e] == 0 {
				nulls = append(nulls, j)
				continue
			}
			keys[j] = vals[e]
			valid = append(valid, j)
		}
		// ties broken by position: the unstable sort gives the stable order
		slices.SortFunc(valid, func(i, j int) int {
			if r := c(keys[i], keys[j]); r != 0 {
				return r
			}
			return cmp.Compare(i, j)
		})
		copy(order[len(valid):], nulls)
	}
}

// sortInto writes x (contiguous) sorted along ax into out (contiguous, x's
// dtype and shape), or the argsort indices into out (int64).
func sortInto(out, x *array.Array, ax int, arg bool) error {
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
