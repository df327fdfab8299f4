package array

import (
	"github.com/stride0/stride0/internal/half"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"
)

// value is one element in a dtype-neutral form: exactly one of the fields is
// meaningful, chosen by kind.
type value struct {
	kind byte // 'i' signed, 'u' unsigned, 'f' float, 'b' bool; 0 = zero
	i    int64
	u    uint64
	f    float64
}

func fromFloat(f float64) value { return value{kind: 'f', f: f} }

func toValue[T Element](x T) value {
	switch v := any(x).(type) {
	case bool:
		if v {
			return value{kind: 'b', u: 1}
		}
		return value{kind: 'b'}
	case int8:
		return value{kind: 'i', i: int64(v)}
	case int16:
		return value{kind: 'i', i: int64(v)}
	case int32:
		return value{kind: 'i', i: int64(v)}
	case int64:
		return value{kind: 'i', i: v}
	case uint8:
		return value{kind: 'u', u: uint64(v)}
	case uint16:
		return value{kind: 'u', u: uint64(v)}
	case uint32:
		return value{kind: 'u', u: uint64(v)}
	case uint64:
		return value{kind: 'u', u: v}
	case float16.Num:
		return value{kind: 'f', f: half.ToFloat64(v.Uint16())}
	case float32:
		return value{kind: 'f', f: float64(v)}
	case float64:
		return value{kind: 'f', f: v}
	}
	return value{}
}

func (v value) asInt() int64 {
	switch v.kind {
	case 'i':
		return v.i
	case 'u', 'b':
		return int64(v.u)
	case 'f':
		return int64(v.f)
	}
	return 0
}

func (v value) asUint() uint64 {
	switch v.kind {
	case 'i':
		return uint64(v.i)
	case 'u', 'b':
		return v.u
	case 'f':
		if v.f < 0 {
			return uint64(int64(v.f))
		}
		return uint64(v.f)
	}
	return 0
}

func (v value) asFloat() float64 {
	switch v.kind {
	case 'i':
		return float64(v.i)
	case 'u', 'b':
		return float64(v.u)
	case 'f':
		return v.f
	}
	return 0
}

func (v value) asBool() bool {
	switch v.kind {
	case 'i':
		return v.i != 0
	case 'u', 'b':
		return v.u != 0
	case 'f':
		return v.f != 0
	}
	return false
}

// convert turns a value into T with Go's conversion rules.
func convert[T Element](v value) T {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = v.asBool()
	case *int8:
		*p = int8(v.asInt())
	case *int16:
		*p = int16(v.asInt())
	case *int32:
		*p = int32(v.asInt())
	case *int64:
		*p = v.asInt()
	case *uint8:
		*p = uint8(v.asUint())
	case *uint16:
		*p = uint16(v.asUint())
	case *uint32:
		*p = uint32(v.asUint())
	case *uint64:
		*p = v.asUint()
	case *float16.Num:
		*p = float16.FromBits(half.FromFloat64(v.asFloat()))
	case *float32:
		*p = float32(v.asFloat())
	case *float64:
		*p = v.asFloat()
	}
	return z
}

// load reads buffer element e of a.
func (a *Array) load(e int) value {
	p := unsafe.Pointer(&a.data.Bytes()[e*a.dtype.Size()])
	switch a.dtype {
	case Bool:
		return toValue(*(*bool)(p))
	case Int8:
		return toValue(*(*int8)(p))
	case Int16:
		return toValue(*(*int16)(p))
	case Int32:
		return toValue(*(*int32)(p))
	case Int64:
		return toValue(*(*int64)(p))
	case Uint8:
		return toValue(*(*uint8)(p))
	case Uint16:
		return toValue(*(*uint16)(p))
	case Uint32:
		return toValue(*(*uint32)(p))
	case Uint64:
		return toValue(*(*uint64)(p))
	case Float16:
		return toValue(*(*float16.Num)(p))
	case Float32:
		return toValue(*(*float32)(p))
	case Float64:
		return toValue(*(*float64)(p))
	}
	return value{}
}

// store writes v, converted to a's dtype, to buffer element e.
func (a *Array) store(e int, v value) {
	p := unsafe.Pointer(&a.data.Bytes()[e*a.dtype.Size()])
	switch a.dtype {
	case Bool:
		*(*bool)(p) = convert[bool](v)
	case Int8:
		*(*int8)(p) = convert[int8](v)
	case Int16:
		*(*int16)(p) = convert[int16](v)
	case Int32:
		*(*int32)(p) = convert[int32](v)
	case Int64:
		*(*int64)(p) = convert[int64](v)
	case Uint8:
		*(*uint8)(p) = convert[uint8](v)
	case Uint16:
		*(*uint16)(p) = convert[uint16](v)
	case Uint32:
		*(*uint32)(p) = convert[uint32](v)
	case Uint64:
		*(*uint64)(p) = convert[uint64](v)
	case Float16:
		*(*float16.Num)(p) = convert[float16.Num](v)
	case Float32:
		*(*float32)(p) = convert[float32](v)
	case Float64:
		*(*float64)(p) = convert[float64](v)
	}
}
