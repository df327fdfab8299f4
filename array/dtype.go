package array

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/float16"
)

// DType is the element type of an Array.
type DType uint8

// The element types. Invalid is the zero value and names no type.
const (
	Invalid DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
)

// DTypes lists every valid DType, in declaration order.
var DTypes = []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float16, Float32, Float64}

var dtypeInfo = [...]struct {
	name  string
	size  int
	arrow arrow.DataType
}{
	Invalid: {"invalid", 0, nil},
	Bool:    {"bool", 1, arrow.FixedWidthTypes.Boolean},
	Int8:    {"int8", 1, arrow.PrimitiveTypes.Int8},
	Int16:   {"int16", 2, arrow.PrimitiveTypes.Int16},
	Int32:   {"int32", 4, arrow.PrimitiveTypes.Int32},
	Int64:   {"int64", 8, arrow.PrimitiveTypes.Int64},
	Uint8:   {"uint8", 1, arrow.PrimitiveTypes.Uint8},
	Uint16:  {"uint16", 2, arrow.PrimitiveTypes.Uint16},
	Uint32:  {"uint32", 4, arrow.PrimitiveTypes.Uint32},
	Uint64:  {"uint64", 8, arrow.PrimitiveTypes.Uint64},
	Float16: {"float16", 2, arrow.FixedWidthTypes.Float16},
	Float32: {"float32", 4, arrow.PrimitiveTypes.Float32},
	Float64: {"float64", 8, arrow.PrimitiveTypes.Float64},
}

// Valid reports whether d names an element type.
func (d DType) Valid() bool { return d > Invalid && int(d) < len(dtypeInfo) }

// Size is the number of bytes one element takes (bool: 1). It is 0 for an
// invalid DType.
func (d DType) Size() int {
	if !d.Valid() {
		return 0
	}
	return dtypeInfo[d].size
}

// String returns the NumPy-style name: "bool", "int32", "float16", ...
func (d DType) String() string {
	if !d.Valid() {
		return fmt.Sprintf("DType(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// ArrowType is the Arrow data type with the same element type (nil for an
// invalid DType).
func (d DType) ArrowType() arrow.DataType {
	if !d.Valid() {
		return nil
	}
	return dtypeInfo[d].arrow
}

// IsFloat reports whether d is float16, float32 or float64.
func (d DType) IsFloat() bool { return d == Float16 || d == Float32 || d == Float64 }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d >= Int8 && d <= Int64 }

// IsUnsigned reports whether d is an unsigned integer type.
func (d DType) IsUnsigned() bool { return d >= Uint8 && d <= Uint64 }

// IsInteger reports whether d is a signed or unsigned integer type.
func (d DType) IsInteger() bool { return d.IsSigned() || d.IsUnsigned() }

// FromArrowType returns the DType of an Arrow primitive type.
func FromArrowType(t arrow.DataType) (DType, error) {
	if t == nil {
		return Invalid, fmt.Errorf("array: nil Arrow type: %w", ErrDType)
	}
	for _, d := range DTypes {
		if dtypeInfo[d].arrow.ID() == t.ID() {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("array: Arrow type %s has no dtype: %w", t, ErrDType)
}

// ParseDType accepts the names String returns and the short names of the
// conformance case files ("boolean", "i8" ... "u64", "f16", "f32", "f64").
func ParseDType(name string) (DType, error) {
	switch strings.ToLower(name) {
	case "boolean", "bool":
		return Bool, nil
	case "i8":
		return Int8, nil
	case "i16":
		return Int16, nil
	case "i32":
		return Int32, nil
	case "i64":
		return Int64, nil
	case "u8":
		return Uint8, nil
	case "u16":
		return Uint16, nil
	case "u32":
		return Uint32, nil
	case "u64":
		return Uint64, nil
	case "f16", "half":
		return Float16, nil
	case "f32":
		return Float32, nil
	case "f64":
		return Float64, nil
	}
	for _, d := range DTypes {
		if dtypeInfo[d].name == strings.ToLower(name) {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("array: unknown dtype %q: %w", name, ErrDType)
}

// Element is the set of Go types that hold one element of an Array.
// float16.Num is Arrow's half-precision float.
type Element interface {
	bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float16.Num | float32 | float64
}

// DTypeOf returns the DType whose elements are Go values of type T.
func DTypeOf[T Element]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float16.Num:
		return Float16
	case float32:
		return Float32
	case float64:
		return Float64
	}
	return Invalid
}
