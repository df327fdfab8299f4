package expr

import (
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
)

// Take gathers x's elements along axis (negative counts from the end) at
// indices, as numpy.take(x, indices, axis): the result has shape
// x.shape[:axis] + indices.shape + x.shape[axis+1:] and x's dtype.
// indices is any integer array (or expression; bool reads as 0 and 1, as
// NumPy's safe cast to intp does); a negative index counts
// from the end of the axis (uint64 indices are an error, as NumPy cannot
// cast them safely to intp), and an index outside [-size, size) makes
// evaluation fail with an error wrapping array.ErrIndex that names the
// index, the axis and its size (NumPy's mode "raise"). A null index gives a null
// element, as does a null element of x.
//
// Lazy: the shape is known from the shapes, so Take is a node; its operands
// are evaluated first (an array operand is read in place), then the rows
// are copied (memmove of the trailing axes). As in NumPy, a rank-0 x is
// taken from as a 1-D array of one element (axis 0 or -1).
func Take(x, indices *Node, axis int) *Node {
	x = ravelScalar(x)
	n := structNode(kTake, "Take", &structInfo{axis: axis}, x, indices)
	if n.err != nil {
		return n
	}
	if !indices.dtype.IsInteger() && indices.dtype != array.Bool || indices.dtype == array.Uint64 {
		n.err = fmt.Errorf("expr.Take: %w: indices are %v; they must be integers that int64 holds safely (NumPy's cast to intp)", ErrDType, indices.dtype)
		return n
	}
	n.dtype, n.ctype = x.dtype, x.dtype
	return n.finish(func(r []int) int {
		if r[0] == 0 {
			return -1
		}
		return r[0] - 1 + r[1]
	})
}

// TakeFlat gathers from x flattened in row-major order: numpy.take with
// axis None. The result has the shape of indices.
func TakeFlat(x, indices *Node) *Node { return Take(Reshape(x, -1), indices, 0) }

func (n *Node) takeShape(in [][]int) ([]int, error) {
	x, idx := in[0], in[1]
	ax, ok := normAxis(n.st.axis, len(x))
	if !ok {
		return nil, fmt.Errorf("expr.Take: axis %d out of range for shape %v: %w", n.st.axis, x, broadcast.ErrAxes)
	}
	out := slices.Concat(x[:ax], idx, x[ax+1:])
	if len(idx) > 0 && size(idx) > 0 && x[ax] == 0 {
		return nil, fmt.Errorf("expr.Take: %w: cannot take %v indices from axis %d of size 0 (shape %v)", array.ErrIndex, idx, ax, x)
	}
	return out, nil
}

// ravelScalar returns x, or x as a 1-D array of one element when its rank
// is 0: NumPy's take, compress, repeat and argsort (PyArray_CheckAxis) read
// a rank-0 array so.
func ravelScalar(x *Node) *Node {
	if x != nil && x.err == nil && x.shape.RankKnown && len(x.shape.Dims) == 0 {
		return Reshape(x, 1)
	}
	return x
}

// indexValues reads an integer (or bool) array's values as ints in
// row-major order, and its validity when it has nulls. The ints are a new
// slice, the caller's to modify.
func indexValues(a *array.Array) ([]int, []bool, error) {
	out, ok := indexInts(a)
	if !ok {
		s, err := array.ToSlice[int64](a)
		if err != nil {
			return nil, nil, err
		}
		if strconv.IntSize == 64 {
			out = unsafe.Slice((*int)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
		} else {
			out = make([]int, len(s))
			for i, v := range s {
				out[i] = int(v)
			}
		}
	}
	if !a.HasNulls() {
		return out, nil, nil
	}
	valid, err := array.ValidSlice(a)
	return out, valid, err
}

// indexInts widens a contiguous integer array of up to 32 bits (or of 64
// signed bits) to ints in one typed pass; it reports false for any other
// array, which indexValues reads through array.ToSlice.
func indexInts(a *array.Array) ([]int, bool) {
	if !a.IsContiguous() || a.Len() == 0 || strconv.IntSize != 64 {
		return nil, false
	}
	b, m := contiguousBytes(a), a.Len()
	switch a.DType() {
	case array.Int64:
		return widenInts(asKeys[int64](b, m)), true
	case array.Int32:
		return widenInts(asKeys[int32](b, m)), true
	case array.Int16:
		return widenInts(asKeys[int16](b, m)), true
	case array.Int8:
		return widenInts(asKeys[int8](b, m)), true
	case array.Uint32:
		return widenInts(asKeys[uint32](b, m)), true
	case array.Uint16:
		return widenInts(asKeys[uint16](b, m)), true
	case array.Uint8:
		return widenInts(asKeys[uint8](b, m)), true
	}
	return nil, false
}

// widenInts converts s to a new []int.
func widenInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](s []T) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}

// gather fills the contiguous out with x (contiguous) taken at idx along
// axis ax.
func gather(out, x *array.Array, idx []int, valid []bool, ax int) error {
	xs := x.Shape()
	n := xs[ax]
	outer, inner := size(xs[:ax]), size(xs[ax+1:])
	for k, i := range idx {
		if valid != nil && !valid[k] {
			continue
		}
		if i < -n || i >= n {
			return fmt.Errorf("expr.Take: %w: index %d is out of bounds for axis %d with size %d", array.ErrIndex, i, ax, n)
		}
		if i < 0 {
			idx[k] = i + n
		}
	}
	sz := x.DType().Size()
	row := inner * sz
	src := contiguousBytes(x)
	dst := contiguousBytes(out)
	var srcMask, dstMask []byte
	if x.HasNulls() || valid != nil {
		if err := out.EnsureValidity(); err != nil {
			return err
		}
		dstMask = contiguousMask(out)
		srcMask = contiguousMask(x)
	}
	m := len(idx)
	if inner == 1 && valid == nil && srcMask == nil && dstMask == nil && strconv.IntSize == 64 && takeWidth(sz) {
		// one element per index: the gather kernel, on the indices
		// (checked and wrapped above) read as int64
		idx64 := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(idx))), m)
		for o := range outer {
			takeRow(dst[o*m*sz:(o+1)*m*sz], src[o*n*sz:(o+1)*n*sz], idx64, sz)
		}
		return nil
	}
	for o := range outer {
		for k, i := range idx {
			d := (o*m + k) * inner
			if valid != nil && !valid[k] {
				clear(dst[d*sz : d*sz+row])
				clear(dstMask[d : d+inner])
				continue
			}
			s := (o*n + i) * inner
			copy(dst[d*sz:d*sz+row], src[s*sz:s*sz+row])
			switch {
			case srcMask != nil:
				copy(dstMask[d:d+inner], srcMask[s:s+inner])
			case dstMask != nil:
				for j := range inner {
					dstMask[d+j] = 1
				}
			}
		}
	}
	return nil
}

// takeDirect is gather for the common case: x (contiguous) taken along its
// last axis at int64 indices in a contiguous array, no nulls on either
// side; it reads the indices in place and gathers each row's elements with
// compute.TakeBits. It reports whether it applied.
func takeDirect(out, x, ind *array.Array, ax int) (bool, error) {
	xs := x.Shape()
	if ax != len(xs)-1 || ind.DType() != array.Int64 || !ind.IsContiguous() || ind.HasNulls() || x.HasNulls() {
		return false, nil
	}
	n, m := xs[ax], ind.Len()
	outer := size(xs[:ax])
	if m == 0 || outer == 0 {
		return true, nil
	}
	idx := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(contiguousBytes(ind)))), m)
	src, dst := contiguousBytes(x), contiguousBytes(out)
	sz := x.DType().Size()
	bad := -1
	for o := 0; o < outer && bad < 0; o++ {
		bad = takeRow(dst[o*m*sz:(o+1)*m*sz], src[o*n*sz:(o+1)*n*sz], idx, sz)
	}
	if bad >= 0 {
		return true, fmt.Errorf("expr.Take: %w: index %d is out of bounds for axis %d with size %d", array.ErrIndex, idx[bad], ax, n)
	}
	return true, nil
}

// takeWidth reports whether takeRow handles elements of sz bytes.
func takeWidth(sz int) bool { return sz == 1 || sz == 2 || sz == 4 || sz == 8 }

// takeRow gathers the elements of s (sz bytes each) at idx into d with
// compute.TakeBits, whose result it returns: -1, or the position of the
// first index out of range.
func takeRow(d, s []byte, idx []int64, sz int) int {
	m, n := len(idx), len(s)/sz
	switch sz {
	case 1:
		return compute.TakeBits(d, s, idx)
	case 2:
		return compute.TakeBits(asKeys[uint16](d, m), asKeys[uint16](s, n), idx)
	case 4:
		return compute.TakeBits(asKeys[uint32](d, m), asKeys[uint32](s, n), idx)
	default:
		return compute.TakeBits(asKeys[uint64](d, m), asKeys[uint64](s, n), idx)
	}
}

// asKeys is the first n elements of b as K.
func asKeys[K any](b []byte, n int) []K {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// contiguousBytes is the data of a contiguous array, from its first
// element to its last.
func contiguousBytes(a *array.Array) []byte {
	sz := a.DType().Size()
	b := a.Data().Bytes()
	if a.Len() == 0 {
		return nil
	}
	return b[a.Offset()*sz : (a.Offset()+a.Len())*sz]
}

// contiguousMask is the validity of a contiguous array (nil without one).
func contiguousMask(a *array.Array) []byte {
	if !a.HasNulls() || a.Len() == 0 {
		return nil
	}
	return a.Validity().Bytes()[a.Offset() : a.Offset()+a.Len()]
}

// Compress selects the slices of x along axis (negative counts from the
// end) where cond is true, as numpy.compress(cond, x, axis): cond is a 1-D
// bool array (or any expression of one); entries past its length count as
// false, and a cond longer than the axis is an error (array.ErrIndex)
// unless the extra entries are false... as NumPy, any entry past the axis is
// an error.
// A null in cond counts as false.
//
// Compress is eager: the result's size depends on cond's values, so it
// cannot be planned before they exist. cond and x are evaluated (with
// opts) and the result is a new contiguous array that the caller releases;
// to use it in an expression, wrap it with Leaf.
func Compress(cond, x *Node, axis int, opts ...Option) (*array.Array, error) {
	if err := firstErr("Compress", cond, x); err != nil {
		return nil, err
	}
	if !cond.dtype.Valid() {
		return nil, fmt.Errorf("expr.Compress: %w: condition is %v", ErrDType, cond.dtype)
	}
	if cond.dtype != array.Bool {
		cond = Cast(cond, array.Bool)
	}
	if cond.shape.RankKnown && len(cond.shape.Dims) != 1 {
		return nil, fmt.Errorf("expr.Compress: %w: condition has shape %v; it must be 1-D", ErrArgument, cond.shape)
	}
	o := makeOptions(opts)
	ca, err := evalWith(cond, o)
	if err != nil {
		return nil, err
	}
	defer ca.Release()
	if ca.Rank() != 1 {
		return nil, fmt.Errorf("expr.Compress: %w: condition has shape %v; it must be 1-D", ErrArgument, ca.Shape())
	}
	xa, err := evalWith(x, o)
	if err != nil {
		return nil, err
	}
	defer xa.Release()
	xs := xa.Shape()
	if len(xs) == 0 {
		xs = []int{1} // NumPy ravels a rank-0 x
		v, err := xa.View(xs, []int{1}, xa.Offset())
		if err != nil {
			return nil, err
		}
		defer v.Release()
		xa = v
	}
	ax, ok := normAxis(axis, len(xs))
	if !ok {
		return nil, fmt.Errorf("expr.Compress: axis %d out of range for shape %v: %w", axis, xs, broadcast.ErrAxes)
	}
	c, err := array.ToSlice[bool](ca)
	if err != nil {
		return nil, err
	}
	valid, err := array.ValidSlice(ca)
	if err != nil {
		return nil, err
	}
	idx := []int{}
	for i, t := range c {
		if t && valid[i] {
			if i >= xs[ax] {
				return nil, fmt.Errorf("expr.Compress: %w: condition of length %d is true at %d, out of bounds for axis %d with size %d (shape %v)", array.ErrIndex, len(c), i, ax, xs[ax], xs)
			}
			idx = append(idx, i)
		}
	}
	shape := slices.Clone(xs)
	shape[ax] = len(idx)
	out, err := array.Empty(o.mem, xa.DType(), shape...)
	if err != nil {
		return nil, err
	}
	if err := gather(out, xa, idx, nil, ax); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// CompressFlat is Compress of x flattened in row-major order
// (numpy.compress with axis None).
func CompressFlat(cond, x *Node, opts ...Option) (*array.Array, error) {
	return Compress(cond, Reshape(x, -1), 0, opts...)
}

// evalWith evaluates e into a new contiguous array with the options o.
func evalWith(e *Node, o options) (*array.Array, error) {
	p, err := Compile(e)
	if err != nil {
		return nil, err
	}
	p.opts = o
	return p.run(nil, o.bind)
}
