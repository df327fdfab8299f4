package arrowio

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/readlimit"
)

// fromFixedSizeList converts a FixedSizeList column (extension or storage
// data d) whose rows are tensors of type tt into an Array [N, logical...].
func fromFixedSizeList(mem memory.Allocator, d arrow.ArrayData, tt *FixedShapeTensorType) (*array.Array, error) {
	n, o, l := d.Len(), d.Offset(), tt.ListSize()
	if fsl, ok := storageOf(d.DataType()).(*arrow.FixedSizeListType); !ok || int(fsl.Len()) != l {
		return nil, fmt.Errorf("arrowio.FromArrow: %w: %s over storage %v", ErrInvalid, tt, d.DataType())
	}
	kids := d.Children()
	if n < 0 || o < 0 || l < 0 || len(kids) != 1 || kids[0] == nil {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w: length %d, offset %d, %d children", tt, ErrInvalid, n, o, len(kids))
	}
	child := kids[0]
	dt, err := array.FromArrowType(child.DataType())
	if err != nil || !arrow.TypeEqual(child.DataType(), dt.ArrowType()) {
		return nil, fmt.Errorf("arrowio.FromArrow: %w: tensor value type %v", ErrUnsupported, child.DataType())
	}
	// Row r's elements are child elements (o+r)*l ... (o+r+1)*l-1.
	if o > math.MaxInt-n || (l > 0 && o+n > math.MaxInt/l) {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w: %d rows at offset %d overflow", tt, ErrInvalid, n, o)
	}
	co, cn := child.Offset(), child.Len()
	if co < 0 || cn < (o+n)*l || co > math.MaxInt-(o+n)*l {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w: child of length %d (offset %d) for %d rows of %d at offset %d", tt, ErrInvalid, cn, co, n, l, o)
	}
	cbufs := child.Buffers()
	bufs := d.Buffers()
	if len(cbufs) < 2 || len(bufs) < 1 {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w: missing buffers", tt, ErrInvalid)
	}
	total, base := n*l, co+o*l
	mask, err := tensorMask(mem, bufs[0], o, n, cbufs[0], base, l)
	if err != nil {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w", tt, err)
	}
	if mask != nil {
		defer mask.Release()
	}
	data, dbase, err := valuesBuffer(mem, dt, cbufs[1], base, total, mask != nil)
	if err != nil {
		return nil, fmt.Errorf("arrowio.FromArrow %s: %w", tt, err)
	}
	defer data.Release()

	phys := tt.Shape()
	pst := array.ContiguousStrides(append([]int{n}, phys...))
	shape := make([]int, 1+len(phys))
	strides := make([]int, 1+len(phys))
	shape[0], strides[0] = n, pst[0]
	for i := range phys {
		p := tt.physDim(i)
		shape[1+i], strides[1+i] = phys[p], pst[1+p]
	}
	return array.FromBufferIn(mem, dt, shape, strides, dbase, data, mask)
}

func storageOf(t arrow.DataType) arrow.DataType {
	if e, ok := t.(arrow.ExtensionType); ok {
		return e.StorageType()
	}
	return t
}

// tensorMask builds the n*l byte mask of a tensor column: element (r, ...) is
// valid iff row r is valid (bit o+r of rows) and the element is valid (bit
// base+r*l+... of elems). It returns nil when every element is valid.
func tensorMask(mem memory.Allocator, rows *memory.Buffer, o, n int, elems *memory.Buffer, base, l int) (*memory.Buffer, error) {
	rowMask, err := validityMask(mem, rows, o, n)
	if err != nil {
		return nil, fmt.Errorf("rows: %w", err)
	}
	if rowMask != nil {
		defer rowMask.Release()
	}
	mask, err := validityMask(mem, elems, base, n*l)
	if err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	if rowMask == nil || l == 0 {
		return mask, nil
	}
	if mask == nil {
		mask = newBuffer(mem, n*l)
		m := mask.Bytes()
		for i := range m {
			m[i] = 1
		}
	}
	m := mask.Bytes()
	for r, v := range rowMask.Bytes() {
		if v == 0 {
			clear(m[r*l : (r+1)*l])
		}
	}
	return mask, nil
}

// TensorOption configures ToTensorColumn.
type TensorOption func(*tensorConfig)

type tensorConfig struct {
	dimNames []string
}

// WithDimNames names the tensor dimensions (axes 1.. of the Array, in
// logical order); they are written as dim_names in physical order.
func WithDimNames(names ...string) TensorOption {
	return func(c *tensorConfig) { c.dimNames = append([]string{}, names...) }
}

// ToTensorColumn returns an Array of shape [N, d1, ..., dk] as an
// arrow.fixed_shape_tensor column (*FixedShapeTensorArray) of N rows, each a
// tensor of logical shape [d1, ..., dk]; a 1-D Array gives rank-0 tensors.
//
// No values are copied when the Array's N rows are consecutive blocks of
// d1*...*dk elements (row stride = block size) and each block is row-major
// for some order of the axes: a contiguous array, a row slice of one, or a
// transposition of the tensor axes of one whose permutation is its own
// inverse (any 2-D transpose; swaps of pairs of axes). Such a layout is
// written as the physical shape with a permutation (see
// FixedShapeTensorType), sharing the buffer. Any other view (a broadcast, a
// reversed or strided slice, a transposition that moves axis 0, or a cyclic
// one such as (1,2,0)) is materialized with array.Copy first and written
// row-major: Arrow C++ (pyarrow) reads permutations that are not their own
// inverse differently from the specification, so ToTensorColumn never
// writes one.
//
// Tensors without elements (a tensor dim of 0) return ErrUnsupported:
// arrow-go v15 cannot make a FixedSizeList of size 0. Zero rows are fine.
//
// Nulls: an element's validity is written to the validity bitmap of the list
// values, so element-level nulls survive exactly; and a row is null in the
// FixedSizeList exactly when it has at least one element and all of its
// elements are null. Reading (FromArrow) makes every element of a null row
// null, so Array -> Arrow -> Array keeps the mask unchanged. Bitmaps (and the
// packed bits of a bool array) come from mem (memory.DefaultAllocator when
// nil).
func ToTensorColumn(mem memory.Allocator, a *array.Array, opts ...TensorOption) (*FixedShapeTensorArray, error) {
	if err := array.Check(a); err != nil {
		return nil, fmt.Errorf("arrowio.ToTensorColumn: %w", err)
	}
	if a.Rank() < 1 {
		return nil, fmt.Errorf("arrowio.ToTensorColumn: %w: a scalar has no row axis", array.ErrShape)
	}
	var cfg tensorConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.dimNames != nil && len(cfg.dimNames) != a.Rank()-1 {
		return nil, fmt.Errorf("arrowio.ToTensorColumn: %w: %d dim names for tensors of shape %v", array.ErrShape, len(cfg.dimNames), a.Shape()[1:])
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	perm, phys, ok := tensorLayout(a.Shape(), a.Strides())
	if ok && !involution(perm) {
		ok = false // readers that follow Arrow C++ would misread it: copy
	}
	if !ok {
		c, err := array.Copy(mem, a)
		if err != nil {
			return nil, fmt.Errorf("arrowio.ToTensorColumn: %w", err)
		}
		defer c.Release()
		a = c
		perm, phys, _ = tensorLayout(a.Shape(), a.Strides())
	}
	var names []string
	if cfg.dimNames != nil {
		names = make([]string, len(cfg.dimNames))
		for i, nm := range cfg.dimNames {
			names[perm[i]] = nm
		}
	}
	tt, err := NewFixedShapeTensorType(a.DType().ArrowType(), phys, names, perm)
	if err != nil {
		return nil, fmt.Errorf("arrowio.ToTensorColumn: %w", err)
	}
	n, l := a.Dim(0), tt.ListSize()
	base := a.Offset()
	child := contiguousData(mem, a.DType(), a.DType().ArrowType(), a, base, n*l)
	defer child.Release()
	var rowBM *memory.Buffer
	rowNulls := 0
	if child.NullN() > 0 && l > 0 {
		rowBM, rowNulls = rowValidity(mem, a.Validity().Bytes()[base:base+n*l], n, l)
		if rowBM != nil {
			defer rowBM.Release()
		}
	}
	ext := arrowarray.NewData(tt, n, []*memory.Buffer{rowBM}, []arrow.ArrayData{child}, rowNulls, 0)
	defer ext.Release()
	return arrowarray.NewExtensionData(ext).(*FixedShapeTensorArray), nil
}

// rowValidity returns the bitmap of the n rows of l mask bytes each: a row is
// valid unless every one of its bytes is 0. It returns nil, 0 if no row is
// null.
func rowValidity(mem memory.Allocator, mask []byte, n, l int) (*memory.Buffer, int) {
	rows := make([]byte, n)
	for r := range rows {
		for _, v := range mask[r*l : (r+1)*l] {
			if v != 0 {
				rows[r] = 1
				break
			}
		}
	}
	bm := newBuffer(mem, readlimit.BitmapBytes(n))
	nulls := packBits(bm.Bytes(), rows)
	if nulls == 0 {
		bm.Release()
		return nil, 0
	}
	return bm, nulls
}

// involution reports whether p is its own inverse (p[p[i]] == i), the only
// permutations ToTensorColumn writes: Arrow C++ (pyarrow) reads those as
// the specification says, and others differently (see FixedShapeTensorType).
func involution(p []int) bool {
	for i, j := range p {
		if p[j] != i {
			return false
		}
	}
	return true
}

// tensorLayout reports whether an array of shape [N, S...] with these
// strides is N consecutive blocks (row stride = prod(S)) each row-major for
// some order of the S axes, and if so returns perm (logical axis i is
// physical axis perm[i]) and the physical shape. An array with no rows is
// laid out as its strides say if they describe a permutation, else as the
// identity.
func tensorLayout(shape, strides []int) (perm, phys []int, ok bool) {
	inner, st := shape[1:], strides[1:]
	k := len(inner)
	perm = make([]int, k)
	for i := range perm {
		perm[i] = i
	}
	for _, d := range inner {
		if d == 0 {
			return perm, append([]int{}, inner...), true
		}
	}
	if shape[0] == 0 {
		// No data: any layout is exact. Keep the permutation the strides
		// describe, so that an empty batch gets the same type as full ones.
		if p, ph, ok := tensorLayout(append([]int{1}, inner...), strides); ok {
			return p, ph, true
		}
		return perm, append([]int{}, inner...), true
	}
	// Sort axes by decreasing stride. An axis of size 1 has no meaningful
	// stride: it sorts as if it sat just before the next axis, so that it
	// stays where it is relative to its neighbours.
	key := make([]int, k)
	for i := k - 1; i >= 0; i-- {
		switch {
		case inner[i] != 1:
			key[i] = st[i]
		case i+1 < k:
			key[i] = key[i+1] * inner[i+1]
		default:
			key[i] = 1
		}
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return key[order[x]] > key[order[y]] })
	phys = make([]int, k)
	for j, i := range order {
		phys[j] = inner[i]
		perm[i] = j
	}
	pst := array.ContiguousStrides(phys)
	for i := range inner {
		if inner[i] != 1 && st[i] != pst[perm[i]] {
			return nil, nil, false
		}
	}
	l := 1
	for _, d := range inner {
		l *= d
	}
	if shape[0] > 1 && strides[0] != l {
		return nil, nil, false
	}
	return perm, phys, true
}
