package compute

import "unsafe"

// registerPowInt gives integer powers by a scalar exponent of 0, 1 and 2
// their direct forms (ones, a copy, x*x with the multiply kernel); other
// exponents keep the Go loop's repeated squaring. NumPy's integer power
// wraps like repeated multiplication, so x*x is the same value.
func registerPowInt() {
	for _, t := range []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
		size := t.Size()
		tail, mul := binTable[Power][t][VS], binTable[Mul][t][VV]
		if tail == nil || mul == nil {
			continue
		}
		one := scalarBytes(t, 1)
		fill, _ := Gather(size)
		binTable[Power][t][VS] = func(d, x, y unsafe.Pointer, n int) {
			switch expOf(y, t) {
			case 0:
				fill(d, unsafe.Pointer(&one[0]), n, 0)
			case 1:
				copy(unsafe.Slice((*byte)(d), n*size), unsafe.Slice((*byte)(x), n*size))
			case 2:
				mul(d, x, x, n)
			default:
				tail(d, x, y, n)
			}
		}
	}
}

// expOf reads the integer exponent at p of type t as an int64 (-1 for a
// uint64 beyond int64: not one of the direct cases).
func expOf(p unsafe.Pointer, t Type) int64 {
	switch t {
	case Int8:
		return int64(*(*int8)(p))
	case Int16:
		return int64(*(*int16)(p))
	case Int32:
		return int64(*(*int32)(p))
	case Int64:
		return *(*int64)(p)
	case Uint8:
		return int64(*(*uint8)(p))
	case Uint16:
		return int64(*(*uint16)(p))
	case Uint32:
		return int64(*(*uint32)(p))
	}
	v := *(*uint64)(p)
	if v > 1<<62 {
		return -1
	}
	return int64(v)
}

// scalarBytes is v in type t's bytes (integers only).
func scalarBytes(t Type, v int64) [8]byte {
	var b [8]byte
	*(*int64)(unsafe.Pointer(&b[0])) = v // little endian: the low bytes are v in every width
	return b
}
