package arrowio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// ExtensionName is the name of Arrow's canonical tensor extension type, as
// written under the field metadata key ARROW:extension:name.
const ExtensionName = "arrow.fixed_shape_tensor"

// MaxTensorRank bounds the rank Deserialize accepts, so that hostile metadata
// cannot make a reader build huge shape slices. NumPy's limit is 64.
const MaxTensorRank = 1024

// FixedShapeTensorType is the canonical extension type
// arrow.fixed_shape_tensor: every row of the column is one tensor of a fixed
// shape, stored as FixedSizeList<value_type>[prod(shape)], with metadata
//
//	{"shape":[...], "dim_names":[...], "permutation":[...]}
//
// (dim_names and permutation optional).
//
// Shape is the physical shape: each row's list holds the tensor's elements in
// row-major (C) order of that shape. Permutation maps logical dimensions to
// physical ones, as the Arrow specification defines it: logical dimension i
// is physical dimension permutation[i]. So the logical shape is
// shape[permutation[i]] for i = 0..N-1, and logical dimension i steps through
// the row with the row-major stride of physical dimension permutation[i].
// Example (the specification's): shape [100, 200, 500] with permutation
// [2, 0, 1] has logical shape [500, 100, 200]. An absent permutation is the
// identity; this package never writes the identity.
//
// Arrow C++ (and so pyarrow, checked with pyarrow 25) applies a permutation
// the other way round: it agrees with the specification exactly when the
// permutation is its own inverse (any 2-D transpose, swaps of pairs of
// dimensions), and otherwise a pyarrow user sees other tensors (for
// [2, 0, 1], to_numpy_ndarray visits some elements twice and others never;
// its own from_numpy_ndarray(view).to_numpy_ndarray() round trip of a
// (0,2,3,1) view fails). This package reads every permutation as the
// specification says, and writes only permutations that are their own
// inverse (ToTensorColumn copies other transpositions), so a pyarrow user
// reading what it writes sees the same tensors. A column with another
// permutation, written elsewhere or built with NewFixedShapeTensorType by
// hand, is read by this package per the specification and by pyarrow
// differently. DimNames name the
// physical dimensions (the specification's choice); LogicalDimNames returns
// them in logical order.
//
// The type is registered with arrow.RegisterExtensionType when the package is
// initialized (see Register), so IPC readers, and this package's C Data
// Interface importers, return arrays of it (*FixedShapeTensorArray).
type FixedShapeTensorType struct {
	arrow.ExtensionBase
	shape    []int
	dimNames []string
	perm     []int // nil for the identity
	meta     string
}

// NewFixedShapeTensorType returns the extension type for tensors of the given
// physical shape with elements of type value. dimNames (physical order) and
// permutation may be nil; an identity permutation is dropped. The arguments
// are checked as Deserialize checks metadata.
func NewFixedShapeTensorType(value arrow.DataType, shape []int, dimNames []string, permutation []int) (*FixedShapeTensorType, error) {
	if value == nil {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: nil value type", ErrMetadata)
	}
	n, err := checkTensorMeta(shape, dimNames, permutation)
	if err != nil {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w", err)
	}
	if n == 0 {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: shape %v has no elements, and arrow-go v15 has no FixedSizeList of size 0", ErrUnsupported, shape)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: %d elements per tensor overflow the list size", ErrMetadata, n)
	}
	return newTensorType(arrow.FixedSizeListOf(int32(n), value), shape, dimNames, permutation), nil
}

func newTensorType(storage arrow.DataType, shape []int, dimNames []string, perm []int) *FixedShapeTensorType {
	t := &FixedShapeTensorType{ExtensionBase: arrow.ExtensionBase{Storage: storage}, shape: append([]int{}, shape...)}
	if dimNames != nil {
		t.dimNames = append([]string{}, dimNames...)
	}
	if perm != nil && !isIdentity(perm) {
		t.perm = append([]int{}, perm...)
	}
	t.meta = t.serialize()
	return t
}

// checkTensorMeta validates shape, dim names and permutation and returns the
// element count of shape.
func checkTensorMeta(shape []int, dimNames []string, perm []int) (int, error) {
	if len(shape) > MaxTensorRank {
		return 0, fmt.Errorf("%w: rank %d exceeds %d", ErrMetadata, len(shape), MaxTensorRank)
	}
	n := 1
	zero := false
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("%w: shape %v: dim %d is negative", ErrMetadata, shape, i)
		}
		if d == 0 {
			zero = true
		}
	}
	if zero {
		n = 0
	} else {
		for _, d := range shape {
			if n > math.MaxInt32/d {
				return 0, fmt.Errorf("%w: shape %v: element count overflows int32", ErrMetadata, shape)
			}
			n *= d
		}
	}
	if dimNames != nil && len(dimNames) != len(shape) {
		return 0, fmt.Errorf("%w: %d dim_names for shape %v", ErrMetadata, len(dimNames), shape)
	}
	if perm != nil {
		if len(perm) != len(shape) {
			return 0, fmt.Errorf("%w: permutation %v for shape %v", ErrMetadata, perm, shape)
		}
		seen := make([]bool, len(perm))
		for _, p := range perm {
			if p < 0 || p >= len(perm) || seen[p] {
				return 0, fmt.Errorf("%w: permutation %v is not a permutation of 0..%d", ErrMetadata, perm, len(perm)-1)
			}
			seen[p] = true
		}
	}
	return n, nil
}

func isIdentity(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}

// ArrayType returns the type of FixedShapeTensorArray (arrow.ExtensionType).
func (*FixedShapeTensorType) ArrayType() reflect.Type { return reflect.TypeOf(FixedShapeTensorArray{}) }

// ExtensionName returns "arrow.fixed_shape_tensor".
func (*FixedShapeTensorType) ExtensionName() string { return ExtensionName }

// String describes the type: fixed_shape_tensor<float32, shape=[2 3], ...>.
func (t *FixedShapeTensorType) String() string {
	if t == nil {
		return "extension<" + ExtensionName + "(nil)>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "extension<%s[value=%s, shape=%v", ExtensionName, t.ValueType(), t.shape)
	if t.dimNames != nil {
		fmt.Fprintf(&b, ", dim_names=%q", t.dimNames)
	}
	if t.perm != nil {
		fmt.Fprintf(&b, ", permutation=%v", t.perm)
	}
	b.WriteString("]>")
	return b.String()
}

// Fingerprint identifies the type including its metadata (ExtensionBase's
// would not tell two shapes of equal size apart); "" for a nil type.
func (t *FixedShapeTensorType) Fingerprint() string {
	if t == nil || t.Storage == nil {
		return ""
	}
	return t.ExtensionBase.Fingerprint() + t.meta
}

// Serialize returns the JSON metadata: "shape" always, "dim_names" when set,
// "permutation" when not the identity ("" for a nil type).
func (t *FixedShapeTensorType) Serialize() string {
	if t == nil {
		return ""
	}
	return t.meta
}

// StorageType is the FixedSizeList storage type (nil for a nil type).
func (t *FixedShapeTensorType) StorageType() arrow.DataType {
	if t == nil {
		return nil
	}
	return t.Storage
}

func (t *FixedShapeTensorType) serialize() string {
	var b bytes.Buffer
	b.WriteString(`{"shape":`)
	writeInts(&b, t.shape)
	if t.dimNames != nil {
		b.WriteString(`,"dim_names":`)
		names, _ := json.Marshal(t.dimNames) // []string always marshals
		b.Write(names)
	}
	if t.perm != nil {
		b.WriteString(`,"permutation":`)
		writeInts(&b, t.perm)
	}
	b.WriteByte('}')
	return b.String()
}

func writeInts(b *bytes.Buffer, s []int) {
	b.WriteByte('[')
	for i, v := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(b, v)
	}
	b.WriteByte(']')
}

// tensorMeta is the JSON form of the metadata.
type tensorMeta struct {
	Shape       *[]int   `json:"shape"`
	DimNames    []string `json:"dim_names"`
	Permutation []int    `json:"permutation"`
}

// ParseTensorMetadata decodes and checks fixed_shape_tensor metadata on its
// own: shape, dim_names (nil when absent) and permutation (nil when absent or
// the identity). Unknown keys are ignored, as the specification allows later
// versions to add some.
func ParseTensorMetadata(data string) (shape []int, dimNames []string, permutation []int, err error) {
	var m tensorMeta
	dec := json.NewDecoder(strings.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrMetadata, err)
	}
	if dec.More() {
		return nil, nil, nil, fmt.Errorf("%w: trailing data after the JSON object", ErrMetadata)
	}
	if _, err := dec.Token(); err == nil {
		return nil, nil, nil, fmt.Errorf("%w: trailing data after the JSON object", ErrMetadata)
	}
	if m.Shape == nil || *m.Shape == nil {
		return nil, nil, nil, fmt.Errorf("%w: no \"shape\" in %q", ErrMetadata, truncate(data))
	}
	if _, err := checkTensorMeta(*m.Shape, m.DimNames, m.Permutation); err != nil {
		return nil, nil, nil, err
	}
	if m.Permutation != nil && isIdentity(m.Permutation) {
		m.Permutation = nil
	}
	return *m.Shape, m.DimNames, m.Permutation, nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// Deserialize builds the type from its storage type and metadata, checking
// that the storage is a FixedSizeList, the JSON is well formed, shape is
// present with no negative dim, the element count of shape equals the list
// size, permutation (if present) is a permutation of 0..N-1, and dim_names
// (if present) has one name per dim. It returns an error wrapping ErrMetadata
// otherwise, never panics. The value type is not restricted here (any Arrow
// type may be a tensor's element); FromArrow reports value types without a
// dtype.
func (*FixedShapeTensorType) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	fsl, ok := storage.(*arrow.FixedSizeListType)
	if !ok || fsl == nil {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: storage %v is not a FixedSizeList", ErrMetadata, storage)
	}
	if fsl.Elem() == nil {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: FixedSizeList without a value type", ErrMetadata)
	}
	shape, names, perm, err := ParseTensorMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w", err)
	}
	n, _ := checkTensorMeta(shape, nil, nil)
	if n != int(fsl.Len()) {
		return nil, fmt.Errorf("arrowio: fixed_shape_tensor: %w: shape %v holds %d elements, list size is %d", ErrMetadata, shape, n, fsl.Len())
	}
	return newTensorType(storage, shape, names, perm), nil
}

// ExtensionEquals reports whether other is a fixed_shape_tensor type with the
// same storage type, shape, dim names and permutation.
func (t *FixedShapeTensorType) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*FixedShapeTensorType)
	return ok && t != nil && o != nil && arrow.TypeEqual(t.Storage, o.Storage) && t.meta == o.meta
}

// ValueType is the type of the tensors' elements (nil for a nil type).
func (t *FixedShapeTensorType) ValueType() arrow.DataType {
	if t == nil {
		return nil
	}
	if fsl, ok := t.Storage.(*arrow.FixedSizeListType); ok {
		return fsl.Elem()
	}
	return nil
}

// ListSize is the number of elements of one tensor, prod(Shape()) (0 for
// a nil type).
func (t *FixedShapeTensorType) ListSize() int {
	if t == nil {
		return 0
	}
	if fsl, ok := t.Storage.(*arrow.FixedSizeListType); ok {
		return int(fsl.Len())
	}
	return 0
}

// Shape returns a copy of the physical shape ([] for rank-0 tensors, nil for
// a nil type).
func (t *FixedShapeTensorType) Shape() []int {
	if t == nil {
		return nil
	}
	return append([]int{}, t.shape...)
}

// DimNames returns a copy of the physical dimension names (nil when unset).
func (t *FixedShapeTensorType) DimNames() []string {
	if t == nil || t.dimNames == nil {
		return nil
	}
	return append([]string{}, t.dimNames...)
}

// Permutation returns a copy of the permutation, nil for the identity.
func (t *FixedShapeTensorType) Permutation() []int {
	if t == nil || t.perm == nil {
		return nil
	}
	return append([]int{}, t.perm...)
}

// physDim is the physical dimension of logical dimension i.
func (t *FixedShapeTensorType) physDim(i int) int {
	if t.perm == nil {
		return i
	}
	return t.perm[i]
}

// LogicalShape is the shape as a consumer sees it: dim i is
// Shape()[Permutation()[i]] (nil for a nil type).
func (t *FixedShapeTensorType) LogicalShape() []int {
	if t == nil {
		return nil
	}
	s := make([]int, len(t.shape))
	for i := range s {
		s[i] = t.shape[t.physDim(i)]
	}
	return s
}

// LogicalDimNames returns the dim names in logical order (nil when unset).
func (t *FixedShapeTensorType) LogicalDimNames() []string {
	if t == nil || t.dimNames == nil {
		return nil
	}
	s := make([]string, len(t.shape))
	for i := range s {
		s[i] = t.dimNames[t.physDim(i)]
	}
	return s
}

// FixedShapeTensorArray is the array type of FixedShapeTensorType: a column
// whose rows are tensors. Convert it with FromArrow.
//
// It implements array.ListLike by delegating to its storage. That is what
// lets arrow-go v15's C Data Interface export (cdata.ExportArrowArray and
// friends) write the storage's child array: v15 exports the children of list
// arrays only when the array itself is ListLike, and exports none for other
// extension arrays, which a consumer then cannot import.
type FixedShapeTensorArray struct {
	arrowarray.ExtensionArrayBase
}

// storage returns the FixedSizeList storage, nil for a nil or zero array.
func (a *FixedShapeTensorArray) storage() *arrowarray.FixedSizeList {
	if a == nil {
		return nil
	}
	fsl, _ := a.Storage().(*arrowarray.FixedSizeList)
	return fsl
}

// TensorType returns the array's type (nil for a nil or zero array).
func (a *FixedShapeTensorArray) TensorType() *FixedShapeTensorType {
	if a.storage() == nil {
		return nil
	}
	tt, _ := a.DataType().(*FixedShapeTensorType)
	return tt
}

// ValueStr returns row i as text: its elements in storage order as
// [e0,e1,...] (each as the value array's ValueStr writes it, so NaN and
// infinities print, where arrow-go's FixedSizeList.ValueStr panics), "(null)"
// for a null row, "" for a nil or zero array.
func (a *FixedShapeTensorArray) ValueStr(i int) string {
	s := a.storage()
	if s == nil {
		return ""
	}
	if s.IsNull(i) {
		return arrowarray.NullValueStr
	}
	start, end := s.ValueOffsets(i)
	vals := s.ListValues()
	var b strings.Builder
	b.WriteByte('[')
	for j := start; j < end; j++ {
		if j > start {
			b.WriteByte(',')
		}
		b.WriteString(vals.ValueStr(int(j)))
	}
	b.WriteByte(']')
	return b.String()
}

// ListValues returns the storage's child array (all rows' elements; nil for
// a nil or zero array).
func (a *FixedShapeTensorArray) ListValues() arrow.Array {
	s := a.storage()
	if s == nil {
		return nil
	}
	return s.ListValues()
}

// ValueOffsets returns the child-array range of row i (0, 0 for a nil or
// zero array).
func (a *FixedShapeTensorArray) ValueOffsets(i int) (start, end int64) {
	s := a.storage()
	if s == nil {
		return 0, 0
	}
	return s.ValueOffsets(i)
}

var (
	_ arrow.ExtensionType       = (*FixedShapeTensorType)(nil)
	_ arrowarray.ExtensionArray = (*FixedShapeTensorArray)(nil)
	_ arrowarray.ListLike       = (*FixedShapeTensorArray)(nil)
)

var (
	registerOnce sync.Once
	registerErr  error
)

// Register registers FixedShapeTensorType under ExtensionName with
// arrow.RegisterExtensionType, once; later calls return the first result. The
// package's init calls it, so importing arrowio is enough for IPC readers to
// return *FixedShapeTensorArray columns; call it yourself to see the error,
// which is non-nil only if another implementation took the name first (then
// readers return that type's arrays, which FromArrow still accepts: it
// re-reads their serialized metadata).
func Register() error {
	registerOnce.Do(func() {
		proto := newTensorType(arrow.FixedSizeListOf(1, arrow.PrimitiveTypes.Float64), []int{1}, nil, nil)
		if err := arrow.RegisterExtensionType(proto); err != nil {
			if _, ours := arrow.GetExtensionType(ExtensionName).(*FixedShapeTensorType); !ours {
				registerErr = fmt.Errorf("arrowio.Register: %w", err)
			}
		}
	})
	return registerErr
}

func init() { _ = Register() }

// asTensorType returns t as a *FixedShapeTensorType, re-reading the metadata
// of a foreign implementation of the same extension name.
func asTensorType(t arrow.ExtensionType) (*FixedShapeTensorType, error) {
	if tt, ok := t.(*FixedShapeTensorType); ok {
		return tt, nil
	}
	et, err := (*FixedShapeTensorType)(nil).Deserialize(t.StorageType(), t.Serialize())
	if err != nil {
		return nil, err
	}
	return et.(*FixedShapeTensorType), nil
}
