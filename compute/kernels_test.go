package compute_test

// Every kernel is compared with the scalar references of ref_test.go for
// n = 0 ... 130 elements, with operands and destination starting at elements
// 1 ... 3 of their slices (so vector code meets every alignment and every
// tail length), and with guard elements around the destination (NaN for
// floats, 0xA5 bytes otherwise) that must come back unchanged (gonum's
// internal/asm tests do the same).

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

const (
	maxN  = 130
	bigN  = 1031 // one long run, for the vector loops of the assembly kernels
	guard = 4
	// slack is how many elements every test slice has beyond maxN: an
	// offset of up to 3 in front, guards around.
	slack = 2*guard + 4
)

// maxOff is the largest destination offset tried (1 under the race
// detector).
func maxOff() int {
	if raceOn {
		return 1
	}
	return 3
}

// testSizes are the lengths every binary kernel is run with.
var testSizes = func() []int {
	s := make([]int, 0, maxN+2)
	for n := 0; n <= maxN; n++ {
		s = append(s, n)
	}
	return append(s, bigN)
}()

var allTypes = []compute.Type{compute.Bool, compute.Int8, compute.Int16, compute.Int32, compute.Int64,
	compute.Uint8, compute.Uint16, compute.Uint32, compute.Uint64, compute.Float16, compute.Float32, compute.Float64}

// binaryOps and unaryOps are every op of the table; the unary ones with a
// bool result (isnan, isinf, isfinite, signbit) are tested by
// unaryBoolType, within TestUnaryKernels.
var binaryOps, unaryOps = func() (b, u []compute.Op) {
	for _, op := range compute.Ops() {
		switch {
		case !op.IsUnary():
			b = append(b, op)
		case op.Info().Result != compute.BoolOut || op.IsLogical():
			u = append(u, op)
		}
	}
	return b, u
}()

var forms = []compute.Form{compute.VV, compute.VS, compute.SV}

func formName(f compute.Form) string { return [...]string{"vv", "vs", "sv"}[f] }

// kernelExists says which (op, type) pairs have kernels, from the op
// table: every loop type of the op but float16 (computed in float32);
// logical ops only on bool (their operands are converted to bool first);
// true division only on floats (integers are computed in float64).
func kernelExists(op compute.Op, t compute.Type) bool {
	info := op.Info()
	switch {
	case t == compute.Float16 || t == compute.Invalid || t > compute.Float64:
		return false
	case info.BoolIn:
		return t == compute.Bool
	case info.Result == compute.IntsToF64:
		return isFloat(t)
	}
	return info.Loops.Has(t)
}

func binaryExists(op compute.Op, t compute.Type) bool { return kernelExists(op, t) }

// unaryExists: float16 has its absolute value and negation (halfbits.go).
func unaryExists(op compute.Op, t compute.Type) bool {
	if t == compute.Float16 {
		return op == compute.Abs || op == compute.Neg
	}
	return kernelExists(op, t)
}

// genValues returns n values of type t mixing special values (zeros, ones,
// extremes, NaN, infinities, subnormals), small values and random ones.
// exponent asks for values suited to a power's exponent.
func genValues[T elem](rng *rand.Rand, t compute.Type, n int, exponent bool) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = genValue[T](rng, t, exponent)
	}
	return out
}

func genValue[T elem](rng *rand.Rand, t compute.Type, exponent bool) T {
	p := rng.IntN(10)
	switch {
	case t == compute.Bool:
		return T(rng.IntN(2))
	case isInt(t):
		lo, hi := intRange(t)
		if exponent && p < 7 {
			v := rng.IntN(80) - 5
			if isUnsigned(t) && v < 0 {
				v = -v
			}
			return T(int64(v))
		}
		switch {
		case p < 3:
			sp := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), lo, hi,
				new(big.Int).Add(lo, bigOne), new(big.Int).Sub(hi, bigOne)}
			if isSigned(t) {
				sp = append(sp, big.NewInt(-1), big.NewInt(-2))
			}
			return fromBits[T](t, wrap(sp[rng.IntN(len(sp))], bits(t), isSigned(t)))
		case p < 6:
			v := int64(rng.IntN(21) - 10)
			if isUnsigned(t) && v < 0 {
				v = -v
			}
			return T(v)
		}
		return fromBits[T](t, rng.Uint64()) // wraps to the type's width
	}
	// floats
	if exponent && p < 6 {
		return T(float64(rng.IntN(13)-6) / 2)
	}
	switch {
	case p < 2:
		sp := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.NaN(), math.Inf(1), math.Inf(-1),
			math.SmallestNonzeroFloat64, 1e-40, -1e-42, math.MaxFloat32, -math.MaxFloat32, 1e300, 3, -7}
		return T(sp[rng.IntN(len(sp))])
	case p < 6:
		return T(float64(rng.IntN(257)-128) / 8)
	}
	return T(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4)))
}

// fillGuard sets every element of s to the guard pattern of t.
func fillGuard[T elem](t compute.Type, s []T) {
	for i := range s {
		s[i] = guardOf[T](t)
	}
}

func guardOf[T elem](t compute.Type) T {
	var g T
	p := unsafe.Pointer(&g)
	switch t {
	case compute.Float32:
		*(*uint32)(p) = 0x7fc0dead
	case compute.Float64:
		*(*uint64)(p) = 0x7ff8deadbeef0001
	default:
		b := unsafe.Slice((*byte)(p), unsafe.Sizeof(g))
		for i := range b {
			b[i] = 0xa5
		}
	}
	return g
}

// same compares two elements of type t bit for bit; any two NaNs are the
// same, and with zeroEq so are +0 and -0.
// nearFloat reports whether a and b are finite floats of type t within 2
// ulp (float64) or 1 (float32, float16: computed in float64 and rounded
// once): for power with a fractional exponent, whose reference is
// correctly rounded (refPow), the float64 polynomial kernels, and float32
// arctan2 (computed in float32 by vmath32_amd64.s; within 1 ulp of
// math.Atan2 in TestArctan2F32).
func nearFloat(t compute.Type, a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.Signbit(a) != math.Signbit(b) {
		return false
	}
	switch t {
	case compute.Float64:
		return ulps64(a, b) <= 2
	case compute.Float32:
		return ulps32(float32(a), float32(b)) <= 1
	}
	return math.Abs(a-b) <= math.Abs(b)*0x1p-10 // float16: 1 ulp
}

func same[T elem](t compute.Type, a, b T, zeroEq bool) bool {
	if isFloat(t) {
		fa, fb := float64(a), float64(b)
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return math.IsNaN(fa) && math.IsNaN(fb)
		}
		if zeroEq && fa == 0 && fb == 0 {
			return true
		}
		return fa == fb && math.Signbit(fa) == math.Signbit(fb)
	}
	return a == b
}

// checkGuards reports the first guard element of d (every index outside
// [lo, lo+n)) that changed.
func checkGuards[T elem](t *testing.T, typ compute.Type, d []T, lo, n int, what string) {
	t.Helper()
	g := guardOf[T](typ)
	for i := range d {
		if i >= lo && i < lo+n {
			continue
		}
		if !sameBits(d[i], g) {
			t.Fatalf("%s: guard element %d (output is %d..%d) overwritten: %v", what, i, lo, lo+n-1, d[i])
		}
	}
}

func sameBits[T any](a, b T) bool {
	sz := unsafe.Sizeof(a)
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&a)), sz)) == string(unsafe.Slice((*byte)(unsafe.Pointer(&b)), sz))
}

func ptr[T any](s []T, i int) unsafe.Pointer { return unsafe.Pointer(&s[i]) }

func TestTypeNumberingMatchesDType(t *testing.T) {
	require.Len(t, array.DTypes, len(allTypes))
	for i, dt := range array.DTypes {
		ct := compute.Type(dt)
		require.Equal(t, allTypes[i], ct, "position %d", i)
		require.Equal(t, dt.String(), ct.String(), "dtype %v", dt)
		require.Equal(t, dt.Size(), ct.Size(), "dtype %v", dt)
	}
	require.Equal(t, compute.Invalid, compute.Type(array.Invalid))
	require.Equal(t, 0, compute.Type(array.Invalid).Size())
	require.Equal(t, "Type(200)", compute.Type(200).String())
	require.Equal(t, 0, compute.Type(200).Size())
}

func TestOpNamesAndClasses(t *testing.T) {
	for _, op := range binaryOps {
		require.False(t, op.IsUnary(), op.String())
		require.NotContains(t, op.String(), "Op(")
	}
	for _, op := range unaryOps {
		require.True(t, op.IsUnary(), op.String())
	}
	require.True(t, compute.LogicalNot.IsLogical())
	require.True(t, compute.LogicalXor.IsLogical())
	require.False(t, compute.Add.IsLogical())
	require.True(t, compute.LessEqual.IsComparison())
	require.False(t, compute.LogicalAnd.IsComparison())
	require.Equal(t, "Op(250)", compute.Op(250).String())
}

// TestLookupErrors: combinations without a kernel return errors, never
// panics or nil functions.
func TestLookupErrors(t *testing.T) {
	for _, op := range append(append([]compute.Op{compute.OpInvalid}, binaryOps...), unaryOps...) {
		for _, typ := range append([]compute.Type{compute.Invalid, compute.Type(99)}, allTypes...) {
			for _, form := range append(forms, compute.Form(7)) {
				f, err := compute.LookupBinary(op, typ, form)
				if !op.IsUnary() && binaryExists(op, typ) && form < 3 && op != compute.OpInvalid {
					require.NoError(t, err, "%v %v %v", op, typ, form)
					require.NotNil(t, f)
				} else {
					require.Error(t, err, "%v %v %v", op, typ, form)
					require.Nil(t, f)
					require.Contains(t, err.Error(), "compute:")
				}
			}
			f, err := compute.LookupUnary(op, typ)
			if op.IsUnary() && unaryExists(op, typ) {
				require.NoError(t, err, "%v %v", op, typ)
				require.NotNil(t, f)
			} else {
				require.Error(t, err, "%v %v", op, typ)
				require.Nil(t, f)
			}
		}
	}
	_, err := compute.LookupBinary(compute.Op(200), compute.Float32, compute.VV)
	require.Error(t, err)
	_, err = compute.LookupUnary(compute.Op(200), compute.Float32)
	require.Error(t, err)
	for _, size := range []int{-1, 0, 3, 5, 16} {
		_, err := compute.Gather(size)
		require.Error(t, err, "gather %d", size)
		_, err = compute.Scatter(size)
		require.Error(t, err, "scatter %d", size)
		_, err = compute.LookupWhere(size)
		require.Error(t, err, "where %d", size)
	}
	for _, from := range []compute.Type{compute.Invalid, compute.Type(99)} {
		_, err := compute.LookupCast(from, compute.Float32)
		require.Error(t, err)
		_, err = compute.LookupCast(compute.Float32, from)
		require.Error(t, err)
	}
	for _, op := range []compute.Op{compute.Sub, compute.Div, compute.Equal, compute.LogicalAnd, compute.Op(200)} {
		_, err := compute.LookupAccumulate(op, compute.Float32)
		require.Error(t, err, "%v", op)
		_, err = compute.LookupFold(op, compute.Float32)
		require.Error(t, err, "%v", op)
	}
	for _, op := range reduceOps {
		_, err := compute.LookupAccumulate(op, compute.Float16)
		require.Error(t, err)
		_, err = compute.LookupFold(op, compute.Type(99))
		require.Error(t, err)
	}
}

func TestBinaryKernels(t *testing.T) {
	for _, typ := range allTypes {
		if typ == compute.Float16 {
			continue
		}
		t.Run(typ.String(), func(t *testing.T) {
			switch typ {
			case compute.Bool, compute.Uint8:
				binaryType[uint8](t, typ)
			case compute.Int8:
				binaryType[int8](t, typ)
			case compute.Int16:
				binaryType[int16](t, typ)
			case compute.Int32:
				binaryType[int32](t, typ)
			case compute.Int64:
				binaryType[int64](t, typ)
			case compute.Uint16:
				binaryType[uint16](t, typ)
			case compute.Uint32:
				binaryType[uint32](t, typ)
			case compute.Uint64:
				binaryType[uint64](t, typ)
			case compute.Float32:
				binaryType[float32](t, typ)
			case compute.Float64:
				binaryType[float64](t, typ)
			}
		})
	}
}

func binaryType[T elem](t *testing.T, typ compute.Type) {
	rng := rand.New(rand.NewPCG(uint64(typ), 1))
	for _, op := range binaryOps {
		if !binaryExists(op, typ) {
			continue
		}
		const L = bigN + slack
		x := genValues[T](rng, typ, L, false)
		y := genValues[T](rng, typ, L, op == compute.Power)
		zeroEq := op == compute.Maximum || op == compute.Minimum
		for _, form := range forms {
			f, err := compute.LookupBinary(op, typ, form)
			require.NoError(t, err)
			name := fmt.Sprintf("%v %v %s", op, typ, formName(form))
			kernels := []compute.BinaryFunc{f}
			if nt, ok := compute.LookupBinaryNT(op, typ, form); ok {
				// the streaming-store variant, fenced after each call
				kernels = append(kernels, func(d, x, y unsafe.Pointer, n int) { nt(d, x, y, n); compute.Fence() })
			}
			// expected values for every pair of input offsets
			type key struct{ xo, yo int }
			want := map[key][]T{}
			wantB := map[key][]bool{}
			for xo := 1; xo <= 3; xo++ {
				for yo := 1; yo <= 3; yo++ {
					k := key{xo, yo}
					m := maxN
					if xo == 1 && yo == 1 {
						m = bigN
					}
					w, wb := make([]T, m), make([]bool, m)
					for i := range m {
						xi, yi := x[xo+i], y[yo+i]
						if form == compute.SV {
							xi = x[xo]
						}
						if form == compute.VS {
							yi = y[yo]
						}
						w[i], wb[i] = refBinary(typ, op, xi, yi)
					}
					want[k], wantB[k] = w, wb
				}
			}
			for kn, f := range kernels {
				if kn == 1 {
					name += " (non-temporal)"
				}
				for _, n := range testSizes {
					xo, yo := 1+n%3, 1+(n/3)%3
					if n > maxN {
						xo, yo = 1, 1
					}
					for doff := 1; doff <= maxOff(); doff++ {
						lo := guard + doff
						if op.IsComparison() {
							d := make([]uint8, n+slack)
							for i := range d {
								d[i] = 0xa5
							}
							f(ptr(d, lo), ptr(x, xo), ptr(y, yo), n)
							for i := 0; i < n; i++ {
								wb := uint8(0)
								if wantB[key{xo, yo}][i] {
									wb = 1
								}
								if d[lo+i] != wb {
									t.Fatalf("%s n=%d: element %d of (%v, %v): got %d; want %d", name, n, i, x[xo+i], y[yo+i], d[lo+i], wb)
								}
							}
							checkGuards(t, compute.Uint8, d, lo, n, name)
							continue
						}
						d := make([]T, n+slack)
						fillGuard(typ, d)
						f(ptr(d, lo), ptr(x, xo), ptr(y, yo), n)
						for i := 0; i < n; i++ {
							w := want[key{xo, yo}][i]
							// arctan2 within 2 ulp (vmath_amd64.s, TestArctan2F64 against 160 bits; vmath32_amd64.s, TestArctan2F32)
							near := (op == compute.Power || op == compute.FloatPower || op == compute.Arctan2 || op == compute.Logaddexp || op == compute.Logaddexp2) && nearFloat(typ, float64(d[lo+i]), float64(w))
							if !same(typ, d[lo+i], w, zeroEq) && !near {
								xi, yi := x[xo+i], y[yo+i]
								if form == compute.SV {
									xi = x[xo]
								}
								if form == compute.VS {
									yi = y[yo]
								}
								t.Fatalf("%s n=%d offsets x%d y%d d%d: element %d: %v op %v: got %v; want %v", name, n, xo, yo, doff, i, xi, yi, d[lo+i], w)
							}
						}
						checkGuards(t, typ, d, lo, n, name)
					}
				}
			}
		}
	}
}

// TestIntegerDivisionEdges: x/0, x%0 give 0 and MinInt/-1 wraps, in every
// form, never panicking.
func TestIntegerDivisionEdges(t *testing.T) {
	ops := []compute.Op{compute.FloorDiv, compute.TruncDiv, compute.Remainder, compute.Fmod}
	check := func(typ compute.Type, op compute.Op, x, y int64, want int64) {
		t.Helper()
		for _, form := range forms {
			f, err := compute.LookupBinary(op, typ, form)
			require.NoError(t, err)
			xs := make([]byte, 8*4)
			ys := make([]byte, 8*4)
			ds := make([]byte, 8*4)
			sz := typ.Size()
			put := func(b []byte, i int, v int64) {
				for k := 0; k < sz; k++ {
					b[i*sz+k] = byte(uint64(v) >> (8 * k))
				}
			}
			get := func(b []byte, i int) int64 {
				var u uint64
				for k := 0; k < sz; k++ {
					u |= uint64(b[i*sz+k]) << (8 * k)
				}
				if isSigned(typ) && sz < 8 {
					sh := 64 - 8*sz
					return int64(u<<sh) >> sh
				}
				return int64(u)
			}
			for i := 0; i < 3; i++ {
				put(xs, i, x)
				put(ys, i, y)
			}
			require.NotPanics(t, func() { f(ptr(ds, 0), ptr(xs, 0), ptr(ys, 0), 3) })
			for i := 0; i < 3; i++ {
				require.Equal(t, want, get(ds, i), "%v %v %s: %d op %d", op, typ, formName(form), x, y)
			}
		}
	}
	for _, typ := range []compute.Type{compute.Int8, compute.Int16, compute.Int32, compute.Int64} {
		minInt := int64(-1) << (bits(typ) - 1)
		for _, op := range ops {
			check(typ, op, 7, 0, 0)
			check(typ, op, -7, 0, 0)
			check(typ, op, 0, 0, 0)
			check(typ, op, minInt, 0, 0)
		}
		check(typ, compute.FloorDiv, minInt, -1, minInt)
		check(typ, compute.TruncDiv, minInt, -1, minInt)
		check(typ, compute.Remainder, minInt, -1, 0)
		check(typ, compute.Fmod, minInt, -1, 0)
		// floor vs truncation, sign of the remainder
		check(typ, compute.FloorDiv, -7, 2, -4)
		check(typ, compute.TruncDiv, -7, 2, -3)
		check(typ, compute.FloorDiv, 7, -2, -4)
		check(typ, compute.TruncDiv, 7, -2, -3)
		check(typ, compute.FloorDiv, -7, -2, 3)
		check(typ, compute.Remainder, -7, 2, 1)
		check(typ, compute.Fmod, -7, 2, -1)
		check(typ, compute.Remainder, 7, -2, -1)
		check(typ, compute.Fmod, 7, -2, 1)
		check(typ, compute.Remainder, -6, 3, 0)
	}
	for _, typ := range []compute.Type{compute.Uint8, compute.Uint16, compute.Uint32, compute.Uint64} {
		for _, op := range ops {
			check(typ, op, 7, 0, 0)
		}
		check(typ, compute.FloorDiv, 7, 2, 3)
		check(typ, compute.Remainder, 7, 2, 1)
	}
	// integer powers: negative exponents, 0^0, wrap-around
	check(compute.Int32, compute.Power, 2, -1, 0)
	check(compute.Int32, compute.Power, -1, -3, -1)
	check(compute.Int32, compute.Power, -1, -4, 1)
	check(compute.Int32, compute.Power, 1, -9, 1)
	check(compute.Int32, compute.Power, 0, -1, 0)
	check(compute.Int32, compute.Power, 0, 0, 1)
	check(compute.Int8, compute.Power, 3, 5, int64(int8(243-256)))
	check(compute.Int8, compute.Power, -2, 7, -128)
}

// TestMaxMinNaN: a NaN operand of maximum or minimum gives NaN, in both
// positions and every form, and in the fold and accumulate kernels.
func TestMaxMinNaN(t *testing.T) {
	nan := math.NaN()
	for _, op := range []compute.Op{compute.Maximum, compute.Minimum} {
		for _, form := range forms {
			f64, err := compute.LookupBinary(op, compute.Float64, form)
			require.NoError(t, err)
			f32, err := compute.LookupBinary(op, compute.Float32, form)
			require.NoError(t, err)
			for _, c := range [][2]float64{{nan, 1}, {1, nan}, {nan, nan}, {nan, math.Inf(1)}, {math.Inf(-1), nan}} {
				x64, y64, d64 := []float64{c[0], c[0]}, []float64{c[1], c[1]}, []float64{0, 0}
				f64(ptr(d64, 0), ptr(x64, 0), ptr(y64, 0), 2)
				require.True(t, math.IsNaN(d64[0]) && math.IsNaN(d64[1]), "%v float64 %s %v: %v", op, formName(form), c, d64)
				x32, y32, d32 := []float32{float32(c[0]), float32(c[0])}, []float32{float32(c[1]), float32(c[1])}, []float32{0, 0}
				f32(ptr(d32, 0), ptr(x32, 0), ptr(y32, 0), 2)
				require.True(t, d32[0] != d32[0] && d32[1] != d32[1], "%v float32 %s %v: %v", op, formName(form), c, d32)
			}
		}
		fold, err := compute.LookupFold(op, compute.Float64)
		require.NoError(t, err)
		for _, xs := range [][]float64{{1, nan, 2}, {nan}, {3, 4, nan}} {
			acc := []float64{0}
			fold(ptr(acc, 0), ptr(xs, 0), len(xs))
			require.True(t, math.IsNaN(acc[0]), "fold %v %v", op, xs)
		}
		acc := []float64{nan, 1}
		fold(ptr(acc, 0), ptr(acc, 1), 1)
		require.True(t, math.IsNaN(acc[0]), "fold %v from NaN", op)
		accum, err := compute.LookupAccumulate(op, compute.Float32)
		require.NoError(t, err)
		a := []float32{1, float32(nan), 3}
		x := []float32{float32(nan), 2, 3}
		accum(ptr(a, 0), ptr(x, 0), 3)
		require.True(t, a[0] != a[0] && a[1] != a[1] && a[2] == 3, "accumulate %v: %v", op, a)
	}
}

// unaryBoolType checks the unary ops with a bool result (isnan, isinf,
// isfinite, signbit) on type typ, one of their loop types or not,
// against predicates on the values, over special values and random ones
// (called by TestUnaryKernels for each type).
func unaryBoolType[T elem](t *testing.T, typ compute.Type) {
	rng := rand.New(rand.NewPCG(uint64(typ), 3))
	tested := 0
	for _, op := range compute.Ops() {
		if !op.IsUnary() || op.Info().Result != compute.BoolOut || op.IsLogical() || !unaryExists(op, typ) {
			continue
		}
		tested++
		f, err := compute.LookupUnary(op, typ)
		require.NoError(t, err)
		x := genValues[T](rng, typ, maxN+slack, false)
		if isFloat(typ) { // every special value once
			for i, v := range []float64{math.NaN(), -math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324} {
				x[i] = T(v)
			}
		}
		for n := 0; n <= maxN; n++ {
			d := make([]uint8, n+2)
			d[n], d[n+1] = 0xAA, 0xAA
			f(ptr(d, 0), ptr(x, 0), n)
			for i := 0; i < n; i++ {
				v := float64(x[i])
				var want bool
				switch op {
				case compute.IsNaN:
					want = math.IsNaN(v)
				case compute.IsInf:
					want = math.IsInf(v, 0)
				case compute.IsFinite:
					want = !math.IsNaN(v) && !math.IsInf(v, 0)
				case compute.Signbit:
					want = math.Signbit(v) // float32 NaN's sign survives the widening
				default:
					t.Fatalf("no predicate for %v", op)
				}
				if d[i] != map[bool]uint8{false: 0, true: 1}[want] {
					t.Fatalf("%v %v n=%d: element %d: %v(%v) = %d, want %v", op, typ, n, i, op, x[i], d[i], want)
				}
			}
			require.Equal(t, []uint8{0xAA, 0xAA}, d[n:], "%v %v n=%d wrote past its end", op, typ, n)
		}
	}
	require.NotZero(t, tested, "no bool unary op has a %v loop", typ)
}

func TestUnaryKernels(t *testing.T) {
	for _, typ := range allTypes {
		if typ == compute.Float16 {
			continue
		}
		t.Run(typ.String(), func(t *testing.T) {
			switch typ {
			case compute.Bool, compute.Uint8:
				unaryType[uint8](t, typ)
			case compute.Int8:
				unaryType[int8](t, typ)
			case compute.Int16:
				unaryType[int16](t, typ)
			case compute.Int32:
				unaryType[int32](t, typ)
			case compute.Int64:
				unaryType[int64](t, typ)
			case compute.Uint16:
				unaryType[uint16](t, typ)
			case compute.Uint32:
				unaryType[uint32](t, typ)
			case compute.Uint64:
				unaryType[uint64](t, typ)
			case compute.Float32:
				unaryType[float32](t, typ)
			case compute.Float64:
				unaryType[float64](t, typ)
			}
		})
	}
}

func unaryType[T elem](t *testing.T, typ compute.Type) {
	unaryBoolType[T](t, typ)
	rng := rand.New(rand.NewPCG(uint64(typ), 2))
	for _, op := range unaryOps {
		if !unaryExists(op, typ) {
			continue
		}
		f, err := compute.LookupUnary(op, typ)
		require.NoError(t, err)
		x := genValues[T](rng, typ, maxN+slack, false)
		for n := 0; n <= maxN; n++ {
			xo := 1 + n%3
			for doff := 1; doff <= maxOff(); doff++ {
				lo := guard + doff
				d := make([]T, n+slack)
				fillGuard(typ, d)
				f(ptr(d, lo), ptr(x, xo), n)
				for i := 0; i < n; i++ {
					w := refUnary(typ, op, x[xo+i])
					// float32 exp, log, tanh, sin and cos are AVX2 polynomials within 1 ulp
					// (TestExpLogFloat32 sweeps them), and so are float32 arctan, expm1, log1p and arcsin
					// (vmath32_amd64.s; TestVmathF32, and TestVmath32Sweep over all inputs),
					// and log2, log10 and arccos through the float64 AVX-512 kernels (viaF64)
					poly := typ == compute.Float32 && (op == compute.Exp || op == compute.Log || op == compute.Tanh || op == compute.Sin || op == compute.Cos ||
						op == compute.Arctan || op == compute.Expm1 || op == compute.Log1p || op == compute.Arcsin ||
						op == compute.Log2 || op == compute.Log10 || op == compute.Arccos) &&
						ulps32(float32(d[lo+i]), float32(w)) <= 1
					// and float64 exp within 2 (TestExpFloat64)
					if typ == compute.Float64 && op == compute.Exp {
						a, b := math.Float64bits(float64(d[lo+i])), math.Float64bits(float64(w))
						poly = max(a, b)-min(a, b) <= 2
					}
					// float64 sin, cos, tan, log, log1p, log2, log10, expm1,
					// tanh, arctan, arcsin and arccos (vmath_amd64.s; arcsin's Go loop
					// rounds 1 - x^2 once, Go's math.Asin twice) within 2
					// (TestVmathF64, TestLogEdges and TestInverseTrigEdges hold
					// them to 160 bits)
					if typ == compute.Float64 && (op == compute.Sin || op == compute.Cos || op == compute.Tan || op == compute.Log || op == compute.Log1p ||
						op == compute.Log2 || op == compute.Log10 || op == compute.Arctan || op == compute.Arcsin || op == compute.Arccos ||
						op == compute.Expm1 || op == compute.Tanh) {
						poly = poly || nearFloat(typ, float64(d[lo+i]), float64(w))
					}
					// arcsinh, arccosh, arctanh and cbrt (Go's math) against
					// other formulas (refInverseHyperbolic): within 2 float64
					// ulps, 1 float32 ulp
					if op == compute.Arcsinh || op == compute.Arccosh || op == compute.Arctanh || op == compute.Cbrt {
						poly = poly || nearFloat(typ, float64(d[lo+i]), float64(w))
					}
					if !same(typ, d[lo+i], w, false) && !poly {
						t.Fatalf("%v %v n=%d: element %d: %v(%v): got %v; want %v", op, typ, n, i, op, x[xo+i], d[lo+i], w)
					}
				}
				checkGuards(t, typ, d, lo, n, fmt.Sprintf("%v %v", op, typ))
			}
		}
	}
}

// castSource returns test values of type from as raw little-endian bytes
// (8 per element, only the first Size used) with their exact values.
type castInput struct {
	raw   []uint64 // bit pattern, zero-extended
	ival  []*big.Int
	fval  []float64
	float bool
}

func castInputs(rng *rand.Rand, from compute.Type, n int) castInput {
	in := castInput{raw: make([]uint64, n), ival: make([]*big.Int, n), fval: make([]float64, n),
		float: from == compute.Float16 || isFloat(from)}
	for i := range n {
		switch {
		case from == compute.Bool:
			v := uint64(rng.IntN(2))
			in.raw[i], in.ival[i] = v, new(big.Int).SetUint64(v)
		case isSigned(from):
			v := int64(wrap(big.NewInt(genValue[int64](rng, from, false)), bits(from), true))
			in.raw[i] = uint64(v) & (1<<bits(from) - 1)
			in.ival[i] = big.NewInt(v)
		case isUnsigned(from):
			v := wrap(new(big.Int).SetUint64(genValue[uint64](rng, from, false)), bits(from), false)
			in.raw[i], in.ival[i] = v, new(big.Int).SetUint64(v)
		case from == compute.Float16:
			var h uint16
			switch rng.IntN(4) {
			case 0:
				h = uint16(rng.IntN(1 << 16)) // any pattern: subnormals, NaNs, infinities
			case 1:
				h = uint16(rng.IntN(1024)) | uint16(rng.IntN(2))<<15 // subnormals and zeros
			default:
				h = float64ToF16(float64(rng.IntN(513)-256) / 4)
			}
			in.raw[i], in.fval[i] = uint64(h), f16ToFloat64(h)
		case from == compute.Float32:
			var v float32
			switch rng.IntN(5) {
			case 0:
				v = math.Float32frombits(rng.Uint32())
			case 1: // values that do not round exactly to float16, subnormal halves included
				v = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-28)))
			default:
				v = genValue[float32](rng, from, false)
			}
			in.raw[i], in.fval[i] = uint64(math.Float32bits(v)), float64(v)
		case from == compute.Float64:
			var v float64
			switch rng.IntN(5) {
			case 0:
				v = math.Float64frombits(rng.Uint64())
			case 1:
				v = rng.NormFloat64() * math.Pow(2, float64(rng.IntN(80)-40))
			default:
				v = genValue[float64](rng, from, false)
			}
			in.raw[i], in.fval[i] = math.Float64bits(v), v
		}
	}
	return in
}

// TestCastKernels checks every (from, to) pair, float16 included. Float to
// integer conversions of NaN, infinities and out-of-range values are
// unspecified in Go (compute promises only determinism and no panic): they
// are run but not compared.
func TestCastKernels(t *testing.T) {
	for _, from := range allTypes {
		for _, to := range allTypes {
			t.Run(from.String()+"->"+to.String(), func(t *testing.T) {
				if (from == compute.Float16) != (to == compute.Float16) && from != compute.Bool && to != compute.Bool {
				}
				f, err := compute.LookupCast(from, to)
				require.NoError(t, err)
				rng := rand.New(rand.NewPCG(uint64(from), uint64(to)))
				in := castInputs(rng, from, maxN+slack)
				fs, ts := from.Size(), to.Size()
				src := make([]byte, (maxN+slack)*fs)
				for i, r := range in.raw {
					for k := 0; k < fs; k++ {
						src[i*fs+k] = byte(r >> (8 * k))
					}
				}
				for n := 0; n <= maxN; n++ {
					xo := 1 + n%3
					doff := 1 + (n/3)%3
					lo := guard + doff
					dst := make([]uint64, n+slack) // 8-byte aligned backing
					db := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), len(dst)*8)
					for i := range db {
						db[i] = 0xa5
					}
					f(unsafe.Pointer(&db[lo*ts]), unsafe.Pointer(&src[xo*fs]), n)
					for i := range db {
						if (i < lo*ts || i >= (lo+n)*ts) && db[i] != 0xa5 {
							t.Fatalf("n=%d: byte %d outside the output (%d..%d) overwritten", n, i, lo*ts, (lo+n)*ts-1)
						}
					}
					for i := 0; i < n; i++ {
						var raw uint64
						for k := 0; k < ts; k++ {
							raw |= uint64(db[(lo+i)*ts+k]) << (8 * k)
						}
						want := refCast(in.ival[xo+i], in.fval[xo+i], in.float, to)
						if !want.ok {
							continue
						}
						if msg := castMismatch(to, raw, want); msg != "" {
							t.Fatalf("n=%d element %d: %v %#x (%v) -> %v: %s", n, i, from, in.raw[xo+i], srcString(in, xo+i), to, msg)
						}
					}
				}
				// the same input converts the same way twice (determinism of
				// the unspecified cases)
				d1, d2 := make([]uint64, maxN), make([]uint64, maxN)
				f(ptr(d1, 0), unsafe.Pointer(&src[0]), maxN)
				f(ptr(d2, 0), unsafe.Pointer(&src[0]), maxN)
				require.Equal(t, d1, d2)
			})
		}
	}
}

func srcString(in castInput, i int) string {
	if in.float {
		return fmt.Sprint(in.fval[i])
	}
	return in.ival[i].String()
}

// castMismatch compares a converted element (raw bits of type to) with the
// expected value and returns "" when they agree.
func castMismatch(to compute.Type, raw uint64, want castVal) string {
	switch {
	case to == compute.Bool:
		wb := uint64(0)
		if want.b {
			wb = 1
		}
		if raw != wb {
			return fmt.Sprintf("got %d; want %d", raw, wb)
		}
	case isInt(to):
		w := wrap(want.i, bits(to), isSigned(to)) & (1<<bits(to) - 1)
		if raw != w {
			return fmt.Sprintf("got %#x; want %#x (%v)", raw, w, want.i)
		}
	default:
		var got float64
		switch to {
		case compute.Float16:
			got = f16ToFloat64(uint16(raw))
		case compute.Float32:
			got = float64(math.Float32frombits(uint32(raw)))
		case compute.Float64:
			got = math.Float64frombits(raw)
		}
		if want.nan {
			if !math.IsNaN(got) {
				return fmt.Sprintf("got %v; want NaN", got)
			}
			return ""
		}
		if got != want.f || math.Signbit(got) != math.Signbit(want.f) {
			return fmt.Sprintf("got %v (bits %#x); want %v", got, raw, want.f)
		}
	}
	return ""
}

// TestCastFloat16Rounding pins the half-precision conversions down with
// values chosen by hand: round to nearest even (once, also from float64),
// subnormals kept in both directions, overflow to infinity from 65520 on.
func TestCastFloat16Rounding(t *testing.T) {
	to, err := compute.LookupCast(compute.Float32, compute.Float16)
	require.NoError(t, err)
	from, err := compute.LookupCast(compute.Float16, compute.Float32)
	require.NoError(t, err)
	cases := []struct {
		in   float32
		want uint16
	}{
		{1, 0x3c00},
		{1 + 1.0/2048, 0x3c00},                   // tie: to even
		{1 + 3.0/2048, 0x3c02},                   // tie: to even (up)
		{1 + 1.0/2048 + 1.0/65536, 0x3c01},       // above the tie: up
		{0.333333333, 0x3555},                    // 0x3555 is the nearest half
		{65504, 0x7bff},                          // largest finite
		{65519, 0x7bff},                          // below the rounding boundary
		{65520, 0x7c00},                          // rounds to infinity
		{float32(math.Ldexp(1, -24)), 0x0001},    // smallest subnormal
		{float32(math.Ldexp(3, -24)), 0x0003},    // subnormal
		{float32(math.Ldexp(1, -25)), 0x0000},    // tie to even: zero
		{float32(math.Ldexp(1.5, -25)), 0x0001},  // above the tie
		{float32(math.Ldexp(1023, -24)), 0x03ff}, // largest subnormal
		{float32(math.Ldexp(1, -14)), 0x0400},    // smallest normal
		{-float32(math.Ldexp(5, -24)), 0x8005},   // negative subnormal
		{float32(math.Inf(-1)), 0xfc00},
	}
	for _, c := range cases {
		src, dst := []float32{c.in}, []uint16{0}
		to(ptr(dst, 0), ptr(src, 0), 1)
		require.Equal(t, c.want, float64ToF16(float64(c.in)), "reference for %v", c.in) // the test's own reference
		if dst[0] != c.want {
			t.Errorf("cast float32 %v (%#x) -> float16: got %#04x; want %#04x", c.in, math.Float32bits(c.in), dst[0], c.want)
		}
	}
	// float64 rounds once: 1 + 2^-11 + 2^-40 is above the tie between 1 and
	// 1 + 2^-10, but through float32 it would become the tie and round to
	// even, down
	to64, err := compute.LookupCast(compute.Float64, compute.Float16)
	require.NoError(t, err)
	src64, dst64 := []float64{1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)}, []uint16{0}
	to64(ptr(dst64, 0), ptr(src64, 0), 1)
	require.Equal(t, uint16(0x3c01), float64ToF16(src64[0]))
	if dst64[0] != 0x3c01 {
		t.Errorf("cast float64 %v -> float16: got %#04x; want 0x3c01 (one rounding, as NumPy)", src64[0], dst64[0])
	}
	for _, h := range []uint16{0x0001, 0x0003, 0x03ff, 0x8200, 0x0400, 0x3c01} {
		src, dst := []uint16{h}, []float32{0}
		from(ptr(dst, 0), ptr(src, 0), 1)
		if float64(dst[0]) != f16ToFloat64(h) {
			t.Errorf("cast float16 %#04x -> float32: got %v; want %v", h, dst[0], f16ToFloat64(h))
		}
	}
}

func TestWhereKernels(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			f, err := compute.LookupWhere(size)
			require.NoError(t, err)
			switch size {
			case 1:
				whereSize[uint8](t, f)
			case 2:
				whereSize[uint16](t, f)
			case 4:
				whereSize[uint32](t, f)
			case 8:
				whereSize[uint64](t, f)
			}
		})
	}
}

func whereSize[T uint8 | uint16 | uint32 | uint64](t *testing.T, f compute.WhereFunc) {
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(T(0))), 3))
	const L = maxN + slack
	c := make([]uint8, L)
	x, y := make([]T, L), make([]T, L)
	for i := range c {
		c[i] = []uint8{0, 1, 0, 1, 2, 255}[rng.IntN(6)]
		x[i], y[i] = T(rng.Uint64()), T(rng.Uint64())
	}
	for mask := 0; mask < 8; mask++ {
		cs, xs, ys := mask>>2&1, mask>>1&1, mask&1
		for n := 0; n <= maxN; n++ {
			co, xo, yo := 1+n%3, 1+(n/3)%3, 1+(n/9)%3
			for doff := 1; doff <= maxOff(); doff++ {
				lo := guard + doff
				d := make([]T, n+slack)
				fillGuard(compute.Uint64, d)
				f(ptr(d, lo), ptr(c, co), ptr(x, xo), ptr(y, yo), n, cs, xs, ys)
				for i := 0; i < n; i++ {
					w := y[yo+i*ys]
					if c[co+i*cs] != 0 {
						w = x[xo+i*xs]
					}
					if d[lo+i] != w {
						t.Fatalf("steps %d%d%d n=%d element %d: got %#x; want %#x", cs, xs, ys, n, i, d[lo+i], w)
					}
				}
				checkGuards(t, compute.Uint64, d, lo, n, fmt.Sprintf("where steps %d%d%d", cs, xs, ys))
			}
		}
	}
}

func TestGatherScatter(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			g, err := compute.Gather(size)
			require.NoError(t, err)
			s, err := compute.Scatter(size)
			require.NoError(t, err)
			switch size {
			case 1:
				moveSize[uint8](t, g, s)
			case 2:
				moveSize[uint16](t, g, s)
			case 4:
				moveSize[uint32](t, g, s)
			case 8:
				moveSize[uint64](t, g, s)
			}
		})
	}
}

func moveSize[T uint8 | uint16 | uint32 | uint64](t *testing.T, gather, scatter compute.MoveFunc) {
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(T(0))), 4))
	const maxStride = 3
	L := maxN*maxStride + slack
	src := make([]T, 2*L)
	for i := range src {
		src[i] = T(rng.Uint64())
	}
	for stride := -maxStride; stride <= maxStride; stride++ {
		for n := 0; n <= maxN; n++ {
			off := 1 + n%3
			base := L + off // the first element read / written; room on both sides
			// gather: dst[i] = src[base + i*stride]
			for doff := 1; doff <= maxOff(); doff++ {
				lo := guard + doff
				d := make([]T, n+slack)
				fillGuard(compute.Uint64, d)
				gather(ptr(d, lo), ptr(src, base), n, stride)
				for i := 0; i < n; i++ {
					if w := src[base+i*stride]; d[lo+i] != w {
						t.Fatalf("gather stride %d n=%d element %d: got %#x; want %#x", stride, n, i, d[lo+i], w)
					}
				}
				checkGuards(t, compute.Uint64, d, lo, n, fmt.Sprintf("gather stride %d", stride))
			}
			// scatter: dst[base + i*stride] = in[i], in order (stride 0:
			// the last element wins); nothing else changes.
			in := src[off : off+n]
			d := make([]T, 2*L)
			fillGuard(compute.Uint64, d)
			want := make([]T, len(d))
			copy(want, d)
			for i := 0; i < n; i++ {
				want[base+i*stride] = in[i]
			}
			scatter(ptr(d, base), ptr(src, off), n, stride)
			for i := range d {
				if d[i] != want[i] {
					t.Fatalf("scatter stride %d n=%d: element %d of the buffer: got %#x; want %#x", stride, n, i-base, d[i], want[i])
				}
			}
		}
	}
}

var reduceOps = []compute.Op{compute.Add, compute.Mul, compute.Maximum, compute.Minimum}

// reduceExists: sums and products of integers and floats, maxima and
// minima of those and of bool.
func reduceExists(op compute.Op, t compute.Type) bool {
	switch {
	case t == compute.Float16:
		return false
	case t == compute.Bool:
		return op == compute.Maximum || op == compute.Minimum
	}
	return true
}

func TestAccumulateFold(t *testing.T) {
	for _, typ := range allTypes {
		t.Run(typ.String(), func(t *testing.T) {
			switch typ {
			case compute.Bool, compute.Uint8:
				reduceType[uint8](t, typ)
			case compute.Int8:
				reduceType[int8](t, typ)
			case compute.Int16:
				reduceType[int16](t, typ)
			case compute.Int32:
				reduceType[int32](t, typ)
			case compute.Int64:
				reduceType[int64](t, typ)
			case compute.Uint16:
				reduceType[uint16](t, typ)
			case compute.Uint32:
				reduceType[uint32](t, typ)
			case compute.Uint64:
				reduceType[uint64](t, typ)
			case compute.Float16:
				reduceType[uint16](t, typ)
			case compute.Float32:
				reduceType[float32](t, typ)
			case compute.Float64:
				reduceType[float64](t, typ)
			}
		})
	}
}

func reduceType[T elem](t *testing.T, typ compute.Type) {
	rng := rand.New(rand.NewPCG(uint64(typ), 5))
	for _, op := range reduceOps {
		acc, errA := compute.LookupAccumulate(op, typ)
		fold, errF := compute.LookupFold(op, typ)
		if !reduceExists(op, typ) {
			require.Error(t, errA, "%v %v", op, typ)
			require.Error(t, errF, "%v %v", op, typ)
			continue
		}
		require.NoError(t, errA, "%v %v", op, typ)
		require.NoError(t, errF, "%v %v", op, typ)
		x := genValues[T](rng, typ, maxN+slack, false)
		a0 := genValues[T](rng, typ, maxN+slack, false)
		for n := 0; n <= maxN; n++ {
			xo := 1 + n%3
			for doff := 1; doff <= maxOff(); doff++ {
				lo := guard + doff
				// accumulate: acc[i] = acc[i] op x[i]
				d := make([]T, n+slack)
				fillGuard(typ, d)
				copy(d[lo:lo+n], a0[:n])
				acc(ptr(d, lo), ptr(x, xo), n)
				for i := 0; i < n; i++ {
					w, _ := refBinary(typ, op, a0[i], x[xo+i])
					if !same(typ, d[lo+i], w, true) {
						t.Fatalf("accumulate %v %v n=%d element %d: %v op %v: got %v; want %v", op, typ, n, i, a0[i], x[xo+i], d[lo+i], w)
					}
				}
				checkGuards(t, typ, d, lo, n, fmt.Sprintf("accumulate %v", op))
			}
			// fold: *acc = *acc op x[0] op ... in order
			d := make([]T, slack)
			fillGuard(typ, d)
			lo := guard + 1 + n%3
			d[lo] = a0[n]
			fold(ptr(d, lo), ptr(x, xo), n)
			w := a0[n]
			for i := 0; i < n; i++ {
				w, _ = refBinary(typ, op, w, x[xo+i])
			}
			if !same(typ, d[lo], w, true) {
				t.Fatalf("fold %v %v n=%d: got %v; want %v", op, typ, n, d[lo], w)
			}
			checkGuards(t, typ, d, lo, 1, fmt.Sprintf("fold %v", op))
		}
	}
}

// TestWhereKernelsLong runs the select kernels over lengths past the
// chunk of negated conditions the scalar-x form uses (512), every
// combination of steps, against a plain loop.
func TestWhereKernelsLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{1, 2, 4, 8} {
		f, err := compute.LookupWhere(size)
		require.NoError(t, err)
		for _, n := range []int{511, 512, 1000, 1537, 4099} {
			c := make([]uint8, n)
			x, y, d := make([]byte, n*size), make([]byte, n*size), make([]byte, n*size)
			for i := range c {
				c[i] = []uint8{0, 1, 2, 255}[rng.IntN(4)]
			}
			for i := range x {
				x[i], y[i] = byte(rng.Uint32()), byte(rng.Uint32())
			}
			for mask := 0; mask < 8; mask++ {
				cs, xs, ys := mask>>2&1, mask>>1&1, mask&1
				f(unsafe.Pointer(&d[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n, cs, xs, ys)
				for i := 0; i < n; i++ {
					w := y[i*ys*size : i*ys*size+size]
					if c[i*cs] != 0 {
						w = x[i*xs*size : i*xs*size+size]
					}
					require.Equal(t, w, d[i*size:(i+1)*size], "size %d n %d steps %d%d%d element %d", size, n, cs, xs, ys, i)
				}
			}
		}
	}
}
