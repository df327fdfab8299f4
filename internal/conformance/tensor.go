package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/half"
)

// tensor is a list of case values converted to one element type, held in
// the widest Go type of its kind.
type tensor struct {
	dt    array.DType
	shape []int
	b     []bool    // Bool
	i     []int64   // signed integers
	u     []uint64  // unsigned integers
	f     []float64 // floats: each value rounded to dt, as a float64
	// inexact is set when a float value had to be rounded to fit dt.
	inexact bool
}

func (t *tensor) len() int {
	switch {
	case t.dt == array.Bool:
		return len(t.b)
	case t.dt.IsSigned():
		return len(t.i)
	case t.dt.IsUnsigned():
		return len(t.u)
	}
	return len(t.f)
}

// errUnrepresentable marks a value that is a number but does not fit the
// element type (a fraction or an out-of-range value for an integer type).
var errUnrepresentable = errors.New("not representable")

// decodeTensor converts a values list to dt. A value that is not a number
// (or a boolean, or "nan"/"inf"/"-inf" for floats) is an error; a number
// that dt cannot hold is an error wrapping errUnrepresentable. Floats are
// rounded to the nearest value of dt (ties to even), as a C++ literal of
// the type would be, and inexact records whether any was not exact.
func decodeTensor(raw json.RawMessage, dt array.DType, shape []int) (tensor, error) {
	t := tensor{dt: dt, shape: shape}
	its, err := items(raw)
	if err != nil {
		return t, err
	}
	for k, it := range its {
		if err := t.add(it, dt); err != nil {
			return t, fmt.Errorf("values[%d]: %w", k, err)
		}
	}
	return t, nil
}

func (t *tensor) add(it any, dt array.DType) error {
	var (
		num   json.Number
		isNum bool
	)
	switch v := it.(type) {
	case bool:
		n := json.Number("0")
		if v {
			n = "1"
		}
		num, isNum = n, true
	case json.Number:
		num, isNum = v, true
	case string:
		if dt.IsFloat() {
			switch strings.ToLower(v) {
			case "nan":
				t.f = append(t.f, math.NaN())
				return nil
			case "inf", "+inf":
				t.f = append(t.f, math.Inf(1))
				return nil
			case "-inf":
				t.f = append(t.f, math.Inf(-1))
				return nil
			}
		}
	}
	if !isNum {
		return fmt.Errorf("%#v is not a number", it)
	}
	switch {
	case dt == array.Bool:
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			return err
		}
		t.b = append(t.b, f != 0)
	case dt.IsSigned():
		n, err := parseIntValue(num)
		if err != nil {
			return err
		}
		bits := uint(dt.Size() * 8)
		if lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1; bits < 64 && (n < lo || n > hi) {
			return fmt.Errorf("%s is out of the range of %s: %w", num, dt, errUnrepresentable)
		}
		t.i = append(t.i, n)
	case dt.IsUnsigned():
		n, err := parseUintValue(num)
		if err != nil {
			return err
		}
		if bits := uint(dt.Size() * 8); bits < 64 && n > uint64(1)<<bits-1 {
			return fmt.Errorf("%s is out of the range of %s: %w", num, dt, errUnrepresentable)
		}
		t.u = append(t.u, n)
	case dt.IsFloat():
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return err
		}
		r := roundFloat(f, dt)
		if r != f && !math.IsNaN(f) {
			t.inexact = true
		}
		t.f = append(t.f, r)
	default:
		return fmt.Errorf("element type %v: %w", dt, errUnrepresentable)
	}
	return nil
}

// parseIntValue reads an integer written as an integer or as an integral
// float ("2.0", "1e3").
func parseIntValue(num json.Number) (int64, error) {
	if n, err := strconv.ParseInt(string(num), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number", num)
	}
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, fmt.Errorf("%s is not an integer: %w", num, errUnrepresentable)
	}
	return int64(f), nil
}

func parseUintValue(num json.Number) (uint64, error) {
	if n, err := strconv.ParseUint(string(num), 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number", num)
	}
	if f != math.Trunc(f) || f < 0 || f >= 1<<64 {
		return 0, fmt.Errorf("%s is not an unsigned integer: %w", num, errUnrepresentable)
	}
	return uint64(f), nil
}

// roundFloat rounds f to the nearest value of the float type dt.
func roundFloat(f float64, dt array.DType) float64 {
	switch dt {
	case array.Float16:
		return half.ToFloat64(half.FromFloat64(f))
	case array.Float32:
		return float64(float32(f))
	}
	return f
}

// newArray builds a contiguous array holding t, with buffers from mem.
func newArray(mem memory.Allocator, t tensor) (*array.Array, error) {
	var (
		a   *array.Array
		err error
	)
	switch t.dt {
	case array.Bool:
		a, err = array.FromSlice(mem, t.b)
	case array.Int8:
		a, err = array.FromSlice(mem, convertSlice[int8](t.i))
	case array.Int16:
		a, err = array.FromSlice(mem, convertSlice[int16](t.i))
	case array.Int32:
		a, err = array.FromSlice(mem, convertSlice[int32](t.i))
	case array.Int64:
		a, err = array.FromSlice(mem, t.i)
	case array.Uint8:
		a, err = array.FromSlice(mem, convertSlice[uint8](t.u))
	case array.Uint16:
		a, err = array.FromSlice(mem, convertSlice[uint16](t.u))
	case array.Uint32:
		a, err = array.FromSlice(mem, convertSlice[uint32](t.u))
	case array.Uint64:
		a, err = array.FromSlice(mem, t.u)
	case array.Float16:
		h := make([]float16.Num, len(t.f))
		for k, f := range t.f {
			h[k] = float16.FromBits(half.FromFloat64(f))
		}
		a, err = array.FromSlice(mem, h)
	case array.Float32:
		a, err = array.FromSlice(mem, convertSlice[float32](t.f))
	case array.Float64:
		a, err = array.FromSlice(mem, t.f)
	default:
		return nil, fmt.Errorf("element type %v is not supported", t.dt)
	}
	if err != nil {
		return nil, err
	}
	if len(t.shape) == 1 {
		return a, nil
	}
	// FromSlice makes a 1-D array; give it the tensor's shape (a scalar
	// included).
	b, err := a.Reshaped(t.shape...)
	a.Release()
	return b, err
}

func convertSlice[T, S int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](s []S) []T {
	out := make([]T, len(s))
	for k, v := range s {
		out[k] = T(v)
	}
	return out
}

// readTensor copies an array's elements into a tensor.
func readTensor(a *array.Array) (tensor, error) {
	t := tensor{dt: a.DType(), shape: a.Shape()}
	var err error
	switch dt := a.DType(); {
	case dt == array.Bool:
		t.b, err = array.ToSlice[bool](a)
	case dt.IsSigned():
		t.i, err = array.ToSlice[int64](a)
	case dt.IsUnsigned():
		t.u, err = array.ToSlice[uint64](a)
	case dt.IsFloat():
		t.f, err = array.ToSlice[float64](a)
	default:
		err = fmt.Errorf("element type %v is not supported", dt)
	}
	return t, err
}

// hasZero reports whether an integer tensor holds a 0.
func (t *tensor) hasZero() bool {
	for _, v := range t.i {
		if v == 0 {
			return true
		}
	}
	for _, v := range t.u {
		if v == 0 {
			return true
		}
	}
	return false
}

// format renders element k.
func (t *tensor) format(k int) string {
	switch {
	case t.dt == array.Bool:
		return strconv.FormatBool(t.b[k])
	case t.dt.IsSigned():
		return strconv.FormatInt(t.i[k], 10)
	case t.dt.IsUnsigned():
		return strconv.FormatUint(t.u[k], 10)
	}
	return strconv.FormatFloat(t.f[k], 'g', -1, 64)
}

// String lists the values, eliding the middle of long lists.
func (t *tensor) String() string {
	n := t.len()
	var sb strings.Builder
	sb.WriteByte('[')
	for k := 0; k < n; k++ {
		if n > 24 && k == 10 {
			fmt.Fprintf(&sb, " ... (%d more)", n-20)
			k = n - 10
		}
		if k > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(t.format(k))
	}
	sb.WriteByte(']')
	return sb.String()
}

// diff compares got with want element by element: integers and booleans
// exactly, floats within ulps units in the last place of the element type
// (0: exactly; NaN equals NaN; +0 equals -0). It returns "" when they agree,
// else the first difference and both lists. worst is the largest difference
// in ulp among the float values accepted.
func diff(got, want tensor, ulps int) (msg string, worst uint64) {
	if got.len() != want.len() {
		return fmt.Sprintf("%d values, want %d", got.len(), want.len()), 0
	}
	bad, count := -1, 0
	for k := 0; k < got.len(); k++ {
		var same bool
		switch {
		case got.dt == array.Bool:
			same = got.b[k] == want.b[k]
		case got.dt.IsSigned():
			same = got.i[k] == want.i[k]
		case got.dt.IsUnsigned():
			same = got.u[k] == want.u[k]
		default:
			same = closeFloats(got.f[k], want.f[k], got.dt, ulps)
			if same && got.f[k] != want.f[k] && !math.IsNaN(got.f[k]) {
				worst = max(worst, ulpDistance(got.f[k], want.f[k], got.dt))
			}
		}
		if !same {
			if bad < 0 {
				bad = k
			}
			count++
		}
	}
	if bad < 0 {
		return "", worst
	}
	tol := ""
	if ulps > 0 && got.dt.IsFloat() {
		tol = fmt.Sprintf(" (tolerance %d ulp)", ulps)
	}
	return fmt.Sprintf("%d of %d values differ%s, first at [%d]: got %s, want %s; got %s, want %s",
		count, got.len(), tol, bad, got.format(bad), want.format(bad), got.String(), want.String()), worst
}

// closeFloats compares two values of the float type dt.
func closeFloats(a, b float64, dt array.DType, ulps int) bool {
	switch {
	case a == b:
		return true
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case ulps == 0 || math.IsInf(a, 0) || math.IsInf(b, 0):
		return false
	}
	return ulpDistance(a, b, dt) <= uint64(ulps)
}

// ulpDistance counts the values of dt between a and b (finite, not NaN).
func ulpDistance(a, b float64, dt array.DType) uint64 {
	var ia, ib int64
	switch dt {
	case array.Float16:
		ia, ib = ordered(uint64(half.FromFloat64(a)), 16), ordered(uint64(half.FromFloat64(b)), 16)
	case array.Float32:
		ia, ib = ordered(uint64(math.Float32bits(float32(a))), 32), ordered(uint64(math.Float32bits(float32(b))), 32)
	default:
		ia, ib = ordered(math.Float64bits(a), 64), ordered(math.Float64bits(b), 64)
	}
	if ia > ib {
		ia, ib = ib, ia
	}
	return uint64(ib - ia)
}

// ordered maps the bits of an IEEE float of the given width to an integer
// that orders like the float (-0 and +0 both map to 0).
func ordered(bits uint64, width uint) int64 {
	sign := uint64(1) << (width - 1)
	if bits&sign != 0 {
		return -int64(bits &^ sign)
	}
	return int64(bits)
}
