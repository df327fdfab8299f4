package array

import (
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

var float16Type = reflect.TypeOf(float16.Num{})

// FromNested returns a new contiguous array holding a copy of a nested Go
// slice: []T gives a 1-D array, [][]T a 2-D one, and so on; a bare T gives
// a scalar (rank 0). Go arrays ([3]T, [][2]T, ...) are accepted like slices.
//
// T is any GoElement type (int and uint give int64 and uint64) or a named
// type whose underlying type is one of them; the dtype follows from T alone
// (DTypeOf), never from the values.
//
// The rank is the nesting depth of v's type, and axis k's size is the length
// of the first slice at depth k, so an empty slice gives a zero-size axis and
// zeros below it ([][]float64{} has shape [0 0]). Every slice at depth k must
// have that length: ragged input is an error wrapping ErrShape that names the
// first offending slice and both lengths, as in "v[1][2] has length 3, v[0][0]
// has 4". A nil v is an error wrapping ErrNil; an element type that is not
// a bool or a number (interfaces, strings, pointers, maps) one wrapping
// ErrDType.
func FromNested(mem memory.Allocator, v any) (*Array, error) {
	if v == nil {
		return nil, fmt.Errorf("array.FromNested: %w: nil value", ErrNil)
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	rank := 0
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
		rank++
	}
	dt := goDType(t)
	if dt == Invalid {
		return nil, fmt.Errorf("array.FromNested: %w: %v holds %v, not a bool or number type", ErrDType, rv.Type(), t)
	}
	// the shape: the lengths along the first element at each depth
	shape := make([]int, rank)
	cur := rv
	for k := range shape {
		shape[k] = cur.Len()
		if shape[k] == 0 {
			break
		}
		cur = cur.Index(0)
	}
	if err := checkRagged(rv, shape, "v", 0); err != nil {
		return nil, fmt.Errorf("array.FromNested: %w", err)
	}
	a, err := New(mem, dt, shape...)
	if err != nil {
		return nil, err
	}
	if a.Len() == 0 {
		return a, nil
	}
	dst := a.data.Bytes()
	fillNested(rv, rank, dt, t, dst)
	return a, nil
}

// checkRagged reports the first slice under v (at depth k, named path)
// whose length differs from shape.
func checkRagged(v reflect.Value, shape []int, path string, k int) error {
	if k == len(shape) {
		return nil
	}
	if v.Len() != shape[k] {
		first := "v" + strings0(k)
		return fmt.Errorf("%w: ragged input: %s has length %d, %s has %d", ErrShape, path, v.Len(), first, shape[k])
	}
	if k+1 == len(shape) {
		return nil
	}
	for i := 0; i < v.Len(); i++ {
		if err := checkRagged(v.Index(i), shape, path+"["+strconv.Itoa(i)+"]", k+1); err != nil {
			return err
		}
	}
	return nil
}

// strings0 is "[0]" repeated k times: the path of the first slice at depth k.
func strings0(k int) string {
	s := ""
	for range k {
		s += "[0]"
	}
	return s
}

// fillNested writes v's elements in row-major order to dst, returning the
// rest of dst.
func fillNested(v reflect.Value, rank int, dt DType, elem reflect.Type, dst []byte) []byte {
	sz := dt.Size()
	if rank == 0 {
		storeReflect(v, dt, dst[:sz])
		return dst[sz:]
	}
	n := v.Len()
	if rank == 1 && v.Kind() == reflect.Slice && int(elem.Size()) == sz && n > 0 {
		// same layout (int and uint are 64 bits here): one copy per row
		copy(dst, unsafe.Slice((*byte)(v.UnsafePointer()), n*sz))
		return dst[n*sz:]
	}
	for i := 0; i < n; i++ {
		dst = fillNested(v.Index(i), rank-1, dt, elem, dst)
	}
	return dst
}

// storeReflect writes one element, of a kind goDType accepted, to b.
func storeReflect(v reflect.Value, dt DType, b []byte) {
	p := unsafe.Pointer(&b[0])
	switch dt {
	case Bool:
		*(*bool)(p) = v.Bool()
	case Int8:
		*(*int8)(p) = int8(v.Int())
	case Int16:
		*(*int16)(p) = int16(v.Int())
	case Int32:
		*(*int32)(p) = int32(v.Int())
	case Int64:
		*(*int64)(p) = v.Int()
	case Uint8:
		*(*uint8)(p) = uint8(v.Uint())
	case Uint16:
		*(*uint16)(p) = uint16(v.Uint())
	case Uint32:
		*(*uint32)(p) = uint32(v.Uint())
	case Uint64:
		*(*uint64)(p) = v.Uint()
	case Float16:
		*(*float16.Num)(p) = v.Interface().(float16.Num)
	case Float32:
		*(*float32)(p) = float32(v.Float())
	case Float64:
		*(*float64)(p) = v.Float()
	}
}

// goDType maps a Go element type to its dtype (Invalid if none).
func goDType(t reflect.Type) DType {
	if t == float16Type {
		return Float16
	}
	switch t.Kind() {
	case reflect.Bool:
		return Bool
	case reflect.Int8:
		return Int8
	case reflect.Int16:
		return Int16
	case reflect.Int32:
		return Int32
	case reflect.Int64, reflect.Int:
		return Int64
	case reflect.Uint8:
		return Uint8
	case reflect.Uint16:
		return Uint16
	case reflect.Uint32:
		return Uint32
	case reflect.Uint64, reflect.Uint:
		return Uint64
	case reflect.Float32:
		return Float32
	case reflect.Float64:
		return Float64
	}
	return Invalid
}

// ToNested copies a into nested Go slices of T, one level per axis: a rank-0
// array gives a T, a 1-D one a []T, a 2-D one a [][]T, and so on (type-assert
// the result: v.([][]float64)). Elements convert to T as ToSlice converts
// them, int and uint through int64 and uint64; nulls read as zero. The rows
// of the innermost level share one backing array (each row's capacity ends
// at its length, so appending to one does not overwrite the next). A
// zero-size axis gives empty, non-nil slices.
func ToNested[T GoElement](a *Array) (any, error) {
	if err := Check(a); err != nil {
		return nil, fmt.Errorf("array.ToNested: %w", err)
	}
	flat, err := toGoSlice[T](a)
	if err != nil {
		return nil, err
	}
	if len(a.shape) == 0 {
		return flat[0], nil
	}
	types := make([]reflect.Type, len(a.shape)+1) // types[k]: the type at depth k
	types[len(a.shape)] = reflect.TypeOf(flat).Elem()
	for k := len(a.shape) - 1; k >= 0; k-- {
		types[k] = reflect.SliceOf(types[k+1])
	}
	rest := flat
	var build func(k int) reflect.Value
	build = func(k int) reflect.Value {
		n := a.shape[k]
		if k == len(a.shape)-1 {
			row := rest[:n:n]
			rest = rest[n:]
			return reflect.ValueOf(row)
		}
		s := reflect.MakeSlice(types[k], n, n)
		for i := 0; i < n; i++ {
			s.Index(i).Set(build(k + 1))
		}
		return s
	}
	return build(0).Interface(), nil
}

// toGoSlice is ToSlice extended to int and uint.
func toGoSlice[T GoElement](a *Array) ([]T, error) {
	var out any
	var err error
	var z T
	switch any(z).(type) {
	case int:
		var v []int64
		v, err = ToSlice[int64](a)
		out = narrow[int64, int](v)
	case uint:
		var v []uint64
		v, err = ToSlice[uint64](a)
		out = narrow[uint64, uint](v)
	case bool:
		out, err = ToSlice[bool](a)
	case int8:
		out, err = ToSlice[int8](a)
	case int16:
		out, err = ToSlice[int16](a)
	case int32:
		out, err = ToSlice[int32](a)
	case int64:
		out, err = ToSlice[int64](a)
	case uint8:
		out, err = ToSlice[uint8](a)
	case uint16:
		out, err = ToSlice[uint16](a)
	case uint32:
		out, err = ToSlice[uint32](a)
	case uint64:
		out, err = ToSlice[uint64](a)
	case float16.Num:
		out, err = ToSlice[float16.Num](a)
	case float32:
		out, err = ToSlice[float32](a)
	default:
		out, err = ToSlice[float64](a)
	}
	if err != nil {
		return nil, err
	}
	return out.([]T), nil
}

// narrow converts int64 or uint64 values to int or uint (a Go conversion).
func narrow[S int64 | uint64, D int | uint](v []S) []D {
	out := make([]D, len(v))
	for i, x := range v {
		out[i] = D(x)
	}
	return out
}
