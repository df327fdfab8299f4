package expr

import "github.com/stride0/stride0/array"

// Promote returns the dtype two operands of an elementwise op are computed
// in: NumPy's promotion table (numpy.promote_types), without value-based
// casting, so a scalar constant promotes like an array of its dtype.
//
//   - bool with any type gives that type;
//   - two integers of the same signedness give the wider one;
//   - a signed and an unsigned integer give the narrowest signed type that
//     holds both (int8+uint8 = int16), and float64 for int64+uint64;
//   - an integer and a float give the wider of the float and the smallest
//     float that holds the integer (int8/uint8: float16, int16/uint16:
//     float32, wider: float64);
//   - two floats give the wider one.
func Promote(a, b array.DType) array.DType {
	switch {
	case a == b:
		return a
	case a == array.Bool:
		return b
	case b == array.Bool:
		return a
	case a.IsFloat() && b.IsFloat():
		return wider(a, b)
	case a.IsFloat():
		return wider(a, floatFor(b))
	case b.IsFloat():
		return wider(b, floatFor(a))
	case a.IsSigned() == b.IsSigned():
		return wider(a, b)
	}
	s, u := a, b
	if u.IsSigned() {
		s, u = u, s
	}
	if u.Size() < s.Size() {
		return s
	}
	switch u.Size() {
	case 1:
		return array.Int16
	case 2:
		return array.Int32
	case 4:
		return array.Int64
	}
	return array.Float64
}

func wider(a, b array.DType) array.DType {
	if b.Size() > a.Size() {
		return b
	}
	return a
}

// floatFor is the smallest float that holds every value of an integer (or
// bool) type, as NumPy uses for sqrt(int8) -> float16.
func floatFor(d array.DType) array.DType {
	switch {
	case d.IsFloat():
		return d
	case d.Size() <= 1:
		return array.Float16
	case d.Size() == 2:
		return array.Float32
	}
	return array.Float64
}
