package compute

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// shiftRef is NumPy's shift of one element: a count below 0 or at least the
// width gives 0 (left, logical right) or the sign (arithmetic right).
func shiftRef(op Op, typ Type, x, y uint64) uint64 {
	bits := uint(8 * typ.Size())
	signed := typ == Int32 || typ == Int64
	mask := uint64(math.MaxUint64) >> (64 - bits)
	// the count as a signed or unsigned value of the type
	var neg bool
	cnt := y & mask
	if signed && cnt>>(bits-1) == 1 {
		neg = true
	}
	sx := int64(x<<(64-bits)) >> (64 - bits) // x sign-extended
	if neg || cnt >= uint64(bits) {
		if op == RightShift && signed && sx < 0 {
			return mask
		}
		return 0
	}
	if op == LeftShift {
		return (x << cnt) & mask
	}
	if signed {
		return uint64(sx>>cnt) & mask
	}
	return (x & mask) >> cnt
}

// shiftOperands fills n+8 elements of typ with values and counts: counts
// mostly in range, with 0, width-1, width, width+1, negative ones and huge
// ones; values with int min/max, 0, -1.
func shiftOperands(r *rand.Rand, typ Type, n int, counts bool) []byte {
	sz := typ.Size()
	bits := int64(8 * sz)
	b := make([]byte, (n+8)*sz+64)
	for i := 0; i < n+8; i++ {
		var v uint64
		if counts {
			switch r.IntN(10) {
			case 0:
				v = uint64([]int64{0, bits - 1, bits, bits + 1, -1, -bits, math.MinInt64, math.MaxInt64, 1 << 32, 100}[r.IntN(10)])
			default:
				v = uint64(r.Int64N(bits))
			}
		} else {
			switch r.IntN(8) {
			case 0:
				v = []uint64{0, math.MaxUint64, 1 << (bits - 1), 1<<(bits-1) - 1, 1}[r.IntN(5)]
			default:
				v = r.Uint64()
			}
		}
		p := unsafe.Pointer(&b[i*sz])
		if sz == 4 {
			*(*uint32)(p) = uint32(v)
		} else {
			*(*uint64)(p) = v
		}
	}
	return b
}

func loadU(b []byte, i, sz int) uint64 {
	if sz == 4 {
		return uint64(*(*uint32)(unsafe.Pointer(&b[i*sz])))
	}
	return *(*uint64)(unsafe.Pointer(&b[i*sz]))
}

// TestShiftKernelsMatchNumPyRule runs every shift kernel the build has (the
// Go loops, and the AVX2 ones plain and streaming, one-dimensional and
// row-looped) against shiftRef, every form, for n = 0..130 at unaligned
// offsets, and checks that nothing past n is written.
func TestShiftKernelsMatchNumPyRule(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, op := range []Op{LeftShift, RightShift} {
		for _, typ := range []Type{Int32, Int64, Uint32, Uint64} {
			sz := typ.Size()
			for form := VV; form < numForms; form++ {
				kernels := map[string]BinaryFunc{}
				if k, err := LookupBinary(op, typ, form); err == nil {
					kernels["plain"] = k
				} else {
					t.Fatalf("%v %v form %d: no kernel: %v", op, typ, form, err)
				}
				if k, ok := LookupBinaryNT(op, typ, form); ok {
					kernels["nt"] = k
				}
				kernels["go"] = goBinary(t, op, typ, form)
				for name, k := range kernels {
					for n := 0; n <= 130; n++ {
						off := n % 4
						x, y := shiftOperands(r, typ, n, false), shiftOperands(r, typ, n, true)
						got := make([]byte, (n+8)*sz+64)
						for i := range got {
							got[i] = 0xAB
						}
						k(unsafe.Pointer(&got[off*sz]), unsafe.Pointer(&x[off*sz]), unsafe.Pointer(&y[off*sz]), n)
						Fence()
						for i := 0; i < n; i++ {
							xi, yi := off+i, off+i
							switch form {
							case VS:
								yi = off
							case SV:
								xi = off
							}
							want := shiftRef(op, typ, loadU(x, xi, sz), loadU(y, yi, sz))
							if g := loadU(got, off+i, sz); g != want {
								t.Fatalf("%v %v form %d %s n=%d i=%d: %#x, %#x gives %#x, want %#x", op, typ, form, name, n, i, loadU(x, xi, sz), loadU(y, yi, sz), g, want)
							}
						}
						for i := (off + n) * sz; i < len(got); i++ {
							require.Equal(t, byte(0xAB), got[i], "%v %v form %d %s n=%d: wrote past the end", op, typ, form, name, n)
						}
						for i := 0; i < off*sz; i++ {
							require.Equal(t, byte(0xAB), got[i], "%v %v form %d %s n=%d: wrote before the start", op, typ, form, name, n)
						}
					}
				}
			}
		}
	}
}

// TestShift2DMatchesRows: the row-looped shift kernels against shiftRef.
func TestShift2DMatchesRows(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(23, 24))
	for _, op := range []Op{LeftShift, RightShift} {
		for _, typ := range []Type{Int32, Int64, Uint32, Uint64} {
			sz := typ.Size()
			for form := VV; form < numForms; form++ {
				for _, variant := range []string{"avx2", "nt", "avx512"} {
					k, ok := LookupBinary2D(op, typ, form, variant == "nt")
					if variant == "avx512" {
						k = table2DZ[op][typ][form]
						ok = hasAVX512 && k.Func != nil
					}
					if !ok {
						continue
					}
					for _, n := range []int{0, k.Lanes, 5 * k.Lanes, 13 * k.Lanes, 40 * k.Lanes} {
						for rows := 0; rows <= 4; rows++ {
							pad := n + 32/sz
							xs, ys := pad, pad
							if form == VS {
								ys = 1
							}
							if form == SV {
								xs = 1
							}
							x := shiftOperands(r, typ, rows*pad+n+8, false)
							y := shiftOperands(r, typ, rows*pad+n+8, true)
							got := make([]byte, (rows*pad+n+8)*sz+128)
							g := got[(32-int(uintptr(unsafe.Pointer(&got[0]))%32))%32:]
							for i := range g {
								g[i] = 0xCD
							}
							k.Func(unsafe.Pointer(&g[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n, rows, pad*sz, xs*sz, ys*sz)
							Fence()
							for row := 0; row < rows; row++ {
								for i := 0; i < n; i++ {
									xi, yi := row*xs+i, row*ys+i
									switch form {
									case VS:
										yi = row * ys
									case SV:
										xi = row * xs
									}
									want := shiftRef(op, typ, loadU(x, xi, sz), loadU(y, yi, sz))
									require.Equal(t, want, loadU(g, row*pad+i, sz), "%v %v form %d %s n=%d rows=%d row=%d i=%d", op, typ, form, variant, n, rows, row, i)
								}
								for i := n; i < pad && row < rows; i++ {
									require.Equal(t, uint64(0xCDCDCDCDCDCDCDCD)>>(64-8*sz), loadU(g, row*pad+i, sz), "padding written")
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestUnaryNTMatchesPlain: every streaming unary kernel gives, bit for bit,
// what the plain kernel gives (the Go loop checked against references in
// TestUnaryKernels), with special values, for n = 0..130 at offsets that
// reach every alignment of dst, and writes nothing outside [0, n).
func TestUnaryNTMatchesPlain(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(25, 26))
	found := 0
	for op := Op(0); op < numOps; op++ {
		for _, typ := range []Type{Float32, Float64} {
			k, ok := LookupUnaryNT(op, typ)
			if !ok {
				continue
			}
			found++
			ref, err := LookupUnary(op, typ)
			require.NoError(t, err)
			sz := typ.Size()
			for n := 0; n <= 130; n++ {
				off := n % 9
				x := make([]byte, (n+16)*sz)
				for i := 0; i < n+16; i++ {
					v := r.NormFloat64() * 40
					switch r.IntN(12) {
					case 0:
						v = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 0.5, -0.5, 1.5, 2.5, -2.5, 5e-324, -1e-310, 1e300}[r.IntN(13)]
					case 1:
						v = math.Floor(v) + 0.5
					}
					if sz == 4 {
						*(*float32)(unsafe.Pointer(&x[i*sz])) = float32(v)
						if r.IntN(40) == 0 {
							*(*uint32)(unsafe.Pointer(&x[i*sz])) = 1 // a float32 denormal
						}
					} else {
						*(*float64)(unsafe.Pointer(&x[i*sz])) = v
					}
				}
				want := make([]byte, len(x)+64)
				got := make([]byte, len(x)+64)
				for i := range got {
					got[i], want[i] = 0xAB, 0xAB
				}
				xp := unsafe.Pointer(&x[off*sz])
				ref(unsafe.Pointer(&want[off*sz]), xp, n)
				k(unsafe.Pointer(&got[off*sz]), xp, n)
				Fence()
				require.True(t, equalBits(want, got, typ, sz), "%v %v n=%d off=%d: streaming kernel differs", op, typ, n, off)
			}
		}
	}
	require.GreaterOrEqual(t, found, 16, "the streaming unary kernels are registered")
}

// TestDivKernelsSpecialValues: the float division kernels (plain and
// streaming, both forms) are IEEE division bit for bit, on zeros of both
// signs, infinities, NaN, denormals and ordinary values.
func TestDivKernelsSpecialValues(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 3, 0.1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -2.2250738585072014e-308, 1e-40, 3.4e38, 1e308, 7, -0.3}
	r := rand.New(rand.NewPCG(27, 28))
	for _, typ := range []Type{Float32, Float64} {
		sz := typ.Size()
		for form := VV; form <= VS; form++ {
			ks := []BinaryFunc{}
			k, err := LookupBinary(Div, typ, form)
			require.NoError(t, err)
			ks = append(ks, k)
			if k, ok := LookupBinaryNT(Div, typ, form); ok {
				ks = append(ks, k)
			}
			for ki, k := range ks {
				for n := 0; n <= 70; n++ {
					off := n % 8
					x, y := make([]float64, n+8), make([]float64, n+8)
					for i := range x {
						x[i], y[i] = special[r.IntN(len(special))], special[r.IntN(len(special))]
					}
					xb, yb := make([]byte, (n+8)*sz), make([]byte, (n+8)*sz)
					for i := range x {
						if sz == 4 {
							*(*float32)(unsafe.Pointer(&xb[i*4])) = float32(x[i])
							*(*float32)(unsafe.Pointer(&yb[i*4])) = float32(y[i])
						} else {
							*(*float64)(unsafe.Pointer(&xb[i*8])) = x[i]
							*(*float64)(unsafe.Pointer(&yb[i*8])) = y[i]
						}
					}
					got := make([]byte, (n+8)*sz)
					k(unsafe.Pointer(&got[off*sz]), unsafe.Pointer(&xb[off*sz]), unsafe.Pointer(&yb[off*sz]), n)
					Fence()
					for i := off; i < off+n; i++ {
						yi := i
						if form == VS {
							yi = off
						}
						var want, g uint64
						if sz == 4 {
							a, b := *(*float32)(unsafe.Pointer(&xb[i*4])), *(*float32)(unsafe.Pointer(&yb[yi*4]))
							q := a / b
							want, g = uint64(math.Float32bits(q)), uint64(*(*uint32)(unsafe.Pointer(&got[i*4])))
							if q != q && math.IsNaN(float64(*(*float32)(unsafe.Pointer(&got[i*4])))) {
								continue
							}
						} else {
							a, b := *(*float64)(unsafe.Pointer(&xb[i*8])), *(*float64)(unsafe.Pointer(&yb[yi*8]))
							q := a / b
							want, g = math.Float64bits(q), *(*uint64)(unsafe.Pointer(&got[i*8]))
							if q != q && math.IsNaN(math.Float64frombits(g)) {
								continue
							}
						}
						require.Equal(t, want, g, "%v form %d kernel %d n=%d i=%d", typ, form, ki, n, i)
					}
				}
			}
		}
	}
}
