package array

// PromoteTypes is NumPy's promotion table (numpy.promote_types) for two
// array dtypes, without value-based casting.
//
//   - bool with any type gives that type;
//   - two integers of the same signedness give the wider one;
//   - a signed and an unsigned integer give the narrowest signed type that
//     holds both (int8+uint8 = int16), and float64 for int64+uint64;
//   - an integer and a float give the wider of the float and the smallest
//     float that holds the integer (int8/uint8: float16, int16/uint16:
//     float32, wider: float64);
//   - two floats give the wider one.
func PromoteTypes(a, b DType) DType {
	switch {
	case a == b:
		return a
	case a == Bool:
		return b
	case b == Bool:
		return a
	case a.IsFloat() && b.IsFloat():
		return widerOf(a, b)
	case a.IsFloat():
		return widerOf(a, floatHolding(b))
	case b.IsFloat():
		return widerOf(b, floatHolding(a))
	case a.IsSigned() == b.IsSigned():
		return widerOf(a, b)
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
		return Int16
	case 2:
		return Int32
	case 4:
		return Int64
	}
	return Float64
}

// widerOf is the larger of two dtypes of one kind.
func widerOf(a, b DType) DType {
	if b.Size() > a.Size() {
		return b
	}
	return a
}

// floatHolding is the smallest float that holds every value of an integer
// type (int8/uint8: float16, int16/uint16: float32, wider: float64); a
// float is itself.
func floatHolding(d DType) DType {
	switch {
	case d.IsFloat():
		return d
	case d.Size() <= 1:
		return Float16
	case d.Size() == 2:
		return Float32
	}
	return Float64
}
