package linalg

import "github.com/stride0/stride0/array"

// promote is NumPy's promotion table (numpy.promote_types) for two array
// dtypes: bool yields to anything; integers of one signedness give the
// wider; a signed and an unsigned integer give the narrowest signed type
// holding both (float64 for int64 with uint64); an integer with a float
// gives the wider of the float and the smallest float holding the integer;
// two floats give the wider. It equals expr.Promote (a test checks),
// repeated here so that expr may import this package.
func promote(a, b array.DType) array.DType {
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

// floatFor is the smallest float holding every value of an integer type.
func floatFor(d array.DType) array.DType {
	switch {
	case d.Size() <= 1:
		return array.Float16
	case d.Size() == 2:
		return array.Float32
	}
	return array.Float64
}
