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

// PromoteTypesN is NumPy's promotion of several array dtypes (numpy.result_type
// of arrays, which numpy.concatenate and numpy.stack use), which is not
// PromoteTypes folded left to right: NumPy first takes the "main" dtype, the
// one latest in its type numbering (bool, int8, uint8, int16, uint16, int32,
// uint32, int64, uint64, float32, float64, then float16), promotes each
// dtype with it, and promotes those results together. So a float absorbs
// the small integers a pairwise fold would first have widened: int8,
// uint16 and float32 give float32 (pairwise: int32, then float64), and
// uint8, int8 and float16 give float16. For one or two dtypes it is
// PromoteTypes; for none, Invalid.
func PromoteTypesN(dts ...DType) DType {
	if len(dts) == 0 {
		return Invalid
	}
	main := dts[0]
	for _, d := range dts[1:] {
		if numpyTypeNum(d) > numpyTypeNum(main) {
			main = d
		}
	}
	res := PromoteTypes(main, dts[0])
	for _, d := range dts[1:] {
		res = PromoteTypes(res, PromoteTypes(main, d))
	}
	return res
}

// numpyTypeNum orders the dtypes as NumPy's type numbers do (NPY_BOOL 0 ...
// NPY_DOUBLE 12, NPY_HALF 23), which decides PromoteTypesN's main dtype.
func numpyTypeNum(d DType) int {
	switch d {
	case Bool:
		return 0
	case Int8:
		return 1
	case Uint8:
		return 2
	case Int16:
		return 3
	case Uint16:
		return 4
	case Int32:
		return 5
	case Uint32:
		return 6
	case Int64:
		return 7
	case Uint64:
		return 8
	case Float32:
		return 11
	case Float64:
		return 12
	case Float16:
		return 23
	}
	return -1
}
