package compute

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// goBinary is the portable kernel (the generated Go loop) for comparison.
func goBinary(t *testing.T, op Op, typ Type, form Form) BinaryFunc {
	// registerGenerated writes unTable too: restore both, or the unary
	// tests that run after this one would see the Go loops as the plain
	// kernels (TestUnaryNTMatchesPlain compares the streaming kernels
	// with them)
	saved, savedUn := binTable, unTable
	defer func() { binTable, unTable = saved, savedUn }()
	registerGenerated()
	f := binTable[op][typ][form]
	require.NotNil(t, f)
	return f
}

func randBytes(r *rand.Rand, typ Type, n int) []byte {
	b := make([]byte, n*8+64)
	for i := 0; i < n+8; i++ {
		p := unsafe.Pointer(&b[i*typ.Size()])
		v := r.NormFloat64() * 50
		switch typ {
		case Float32:
			*(*float32)(p) = float32(v)
			if i%17 == 3 {
				*(*float32)(p) = float32(math.NaN())
			}
		case Float64:
			*(*float64)(p) = v
			if i%19 == 5 {
				*(*float64)(p) = math.Inf(-1)
			}
		case Int32, Uint32:
			*(*int32)(p) = int32(r.Uint32())
		case Int64, Uint64:
			*(*int64)(p) = int64(r.Uint64())
		}
	}
	return b
}

// TestAsmKernelsMatchGo runs every assembly kernel (plain and streaming)
// against the Go loop for n = 0..130 at unaligned offsets, and checks that
// nothing past n is written.
func TestAsmKernelsMatchGo(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(3, 4))
	ops := []Op{Add, Sub, Mul, Div, Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual, BitwiseAnd, BitwiseOr, BitwiseXor}
	types := []Type{Float32, Float64, Int32, Int64, Uint32, Uint64}
	for _, op := range ops {
		for _, typ := range types {
			if op == Div && typ != Float32 && typ != Float64 {
				continue // integer division is computed in float64
			}
			if isBitwise(op) && (typ == Float32 || typ == Float64) {
				continue
			}
			for form := VV; form < numForms; form++ {
				ref := goBinary(t, op, typ, form)
				for _, nt := range []bool{false, true} {
					var k BinaryFunc
					if nt {
						var ok bool
						if k, ok = LookupBinaryNT(op, typ, form); !ok {
							continue
						}
					} else {
						var err error
						if k, err = LookupBinary(op, typ, form); err != nil {
							continue
						}
					}
					osz := typ.Size()
					if op.IsComparison() {
						osz = 1
					}
					for n := 0; n <= 130; n++ {
						off := n % 4
						x, y := randBytes(r, typ, n), randBytes(r, typ, n)
						want := make([]byte, (n+8)*osz+64)
						got := make([]byte, (n+8)*osz+64)
						for i := range got {
							got[i], want[i] = 0xAB, 0xAB
						}
						xp, yp := unsafe.Pointer(&x[off*typ.Size()]), unsafe.Pointer(&y[off*typ.Size()])
						ref(unsafe.Pointer(&want[off*osz]), xp, yp, n)
						k(unsafe.Pointer(&got[off*osz]), xp, yp, n)
						Fence()
						if !equalBits(want, got, typ, osz) {
							t.Fatalf("%v %v form %d nt=%v n=%d: assembly differs from Go", op, typ, form, nt, n)
						}
					}
				}
			}
		}
	}
}

// isBitwise reports whether op is an integer-only bitwise operator.
func isBitwise(op Op) bool { return op == BitwiseAnd || op == BitwiseOr || op == BitwiseXor }

// equalBits compares results bit for bit, treating any two NaNs as equal.
func equalBits(a, b []byte, typ Type, osz int) bool {
	if osz == 1 || !(typ == Float32 || typ == Float64) {
		return string(a) == string(b)
	}
	for i := 0; i+osz <= len(a); i += osz {
		if typ == Float32 {
			x, y := *(*float32)(unsafe.Pointer(&a[i])), *(*float32)(unsafe.Pointer(&b[i]))
			if math.Float32bits(x) != math.Float32bits(y) && !(x != x && y != y) {
				return false
			}
		} else {
			x, y := *(*float64)(unsafe.Pointer(&a[i])), *(*float64)(unsafe.Pointer(&b[i]))
			if math.Float64bits(x) != math.Float64bits(y) && !(x != x && y != y) {
				return false
			}
		}
	}
	return true
}

// TestAsmWhereMatchesGo: the select kernels (AVX2 where they apply, and
// where(c, s, y) through the scalar kernel on negated conditions, in
// chunks of 512) against a naive loop, for every step combination the
// wrappers switch on (y's step 2 included), conditions of any byte value
// (nonzero is true), and lengths across the vectors' and chunks' edges.
func TestAsmWhereMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lengths := []int{}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1024, 1031, 1500)
	for _, size := range []int{1, 2, 4, 8} {
		k, err := LookupWhere(size)
		require.NoError(t, err)
		for _, n := range lengths {
			for _, st := range [][3]int{{1, 1, 1}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {0, 0, 0}, {1, 1, 2}, {2, 0, 1}, {1, 2, 1}} {
				m := 2*n + 1
				c := make([]byte, m)
				for i := range c {
					switch r.IntN(4) {
					case 0, 1:
						c[i] = 0
					case 2:
						c[i] = 1
					default:
						c[i] = byte(2 + r.IntN(254))
					}
				}
				x, y := make([]byte, m*size), make([]byte, m*size)
				for i := range x {
					x[i], y[i] = byte(r.Uint32()), byte(r.Uint32())
				}
				want, got := make([]byte, (n+2)*size), make([]byte, (n+2)*size)
				for i := 0; i < n; i++ {
					src := y[i*st[2]*size:]
					if c[i*st[0]] != 0 {
						src = x[i*st[1]*size:]
					}
					copy(want[i*size:(i+1)*size], src[:size])
				}
				k(unsafe.Pointer(&got[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n, st[0], st[1], st[2])
				require.Equal(t, want, got, "size %d n %d steps %v", size, n, st)
			}
		}
	}
}

// TestCopyNT: every alignment of dst modulo 32 (the 4-byte aligned ones
// take the non-temporal head and tail), lengths below and above 256 and
// not multiples of 4, 32 or 128, and rows copied one after the other as a
// result's rows are.
func TestCopyNT(t *testing.T) {
	for _, n := range []int{0, 1, 100, 255, 256, 257, 262, 288, 1000, 4000, 4001, 4002, 4099, 4100} {
		for off := 0; off < 36; off++ {
			src := make([]byte, n+8)
			for i := range src {
				src[i] = byte(i * 7)
			}
			dst := aligned64(n + 48)
			CopyNT(unsafe.Pointer(&dst[off]), unsafe.Pointer(&src[0]), n)
			Fence()
			require.Equal(t, src[:n], dst[off:off+n])
			for i := off + n; i < len(dst); i++ {
				require.Zero(t, dst[i])
			}
		}
	}
}

// TestStreamPiece: every alignment of dst modulo 32 and every length up to
// 300 (the small pieces around a streamed run, and the lengths that go on
// to CopyNT), nothing written outside the piece.
func TestStreamPiece(t *testing.T) {
	src := make([]byte, 320)
	for i := range src {
		src[i] = byte(i*11 + 3)
	}
	for n := 0; n <= 300; n++ {
		for off := 0; off < 33; off++ {
			dst := aligned64(n + 80)
			StreamPiece(unsafe.Pointer(&dst[off]), unsafe.Pointer(&src[0]), n)
			Fence()
			require.Equal(t, src[:n], dst[off:off+n], "n %d off %d", n, off)
			require.Equal(t, make([]byte, off), dst[:off], "n %d off %d: before", n, off)
			require.Equal(t, make([]byte, len(dst)-off-n), dst[off+n:], "n %d off %d: after", n, off)
		}
	}
}

// aligned64 is n zero bytes starting on a 64-byte boundary.
func aligned64(n int) []byte {
	b := make([]byte, n+64)
	skip := (64 - int(uintptr(unsafe.Pointer(&b[0]))%64)) % 64
	return b[skip : skip+n]
}

func TestCopyNTRows(t *testing.T) {
	for _, row := range []int{1000, 4000, 4004, 1002, 264} {
		for off := 0; off < 8; off += 2 {
			const rows = 9
			src := make([]byte, row)
			for i := range src {
				src[i] = byte(i*13 + 1)
			}
			dst := aligned64(off + rows*row + 8)
			for r := 0; r < rows; r++ {
				CopyNT(unsafe.Pointer(&dst[off+r*row]), unsafe.Pointer(&src[0]), row)
			}
			Fence()
			for r := 0; r < rows; r++ {
				require.Equal(t, src, dst[off+r*row:off+(r+1)*row], "row %d of %d bytes at offset %d", r, row, off)
			}
			require.Equal(t, make([]byte, off), dst[:off], "before the rows")
			require.Equal(t, make([]byte, 8), dst[off+rows*row:], "after the rows")
		}
	}
}

func TestAccumulateRows(t *testing.T) {
	for _, typ := range []Type{Float32, Float64} {
		k, ok := LookupAccumulateRows(typ)
		if !ok {
			t.Skip("no multi-row kernel in this build")
		}
		r := rand.New(rand.NewPCG(7, 8))
		for n := 0; n <= 70; n++ {
			for rows := 0; rows <= 9; rows++ {
				stride := n + r.IntN(5)
				x := randBytes(r, typ, rows*stride+n+8)
				acc := randBytes(r, typ, n)
				want := append([]byte(nil), acc...)
				if typ == Float32 {
					accRowsGo[float32](unsafe.Pointer(&want[0]), unsafe.Pointer(&x[0]), n, rows, stride)
				} else {
					accRowsGo[float64](unsafe.Pointer(&want[0]), unsafe.Pointer(&x[0]), n, rows, stride)
				}
				k(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, rows, stride)
				require.True(t, equalBits(want, acc, typ, typ.Size()), "%v n=%d rows=%d", typ, n, rows)
			}
		}
	}
}

func TestSelectCompareMatchesGo(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, op := range []Op{Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual} {
		for _, typ := range []Type{Float32, Float64} {
			for _, bs := range []bool{false, true} {
				for _, ys := range []bool{false, true} {
					for _, nt := range []bool{false, true} {
						look := LookupSelectCompare
						if nt {
							look = LookupSelectCompareNT
						}
						k, ok := look(op, typ, bs, ys)
						require.True(t, ok)
						for n := 0; n <= 70; n++ {
							off := n % 3
							a, b := randBytes(r, typ, n), randBytes(r, typ, n)
							x, y := randBytes(r, typ, n), randBytes(r, typ, n)
							// equal elements now and then, for the equality predicates
							copy(b[:8*typ.Size()], a[:8*typ.Size()])
							sz := typ.Size()
							want, got := make([]byte, (n+8)*sz), make([]byte, (n+8)*sz)
							p := func(s []byte) unsafe.Pointer { return unsafe.Pointer(&s[off*sz]) }
							if typ == Float32 {
								selectGo[float32](op, p(want), p(a), p(b), p(x), p(y), n, bs, ys)
							} else {
								selectGo[float64](op, p(want), p(a), p(b), p(x), p(y), n, bs, ys)
							}
							k(p(got), p(a), p(b), p(x), p(y), n)
							Fence()
							require.True(t, equalBits(want, got, typ, sz), "%v %v bs=%v ys=%v nt=%v n=%d", op, typ, bs, ys, nt, n)
						}
					}
				}
			}
		}
	}
}

// TestBinary2DMatchesRows checks every row-looped kernel against the Go
// loop applied row by row, with rows that repeat (stride 0), advance, and
// for the scalar forms one element per row.
func TestBinary2DMatchesRows(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, op := range []Op{Add, Sub, Mul, BitwiseAnd, BitwiseOr, BitwiseXor} {
		for _, typ := range []Type{Float32, Float64, Int32, Int64, Uint32, Uint64} {
			for form := VV; form < numForms; form++ {
				if isBitwise(op) && (typ == Float32 || typ == Float64 || form == SV) {
					continue // no float loops; SV is VS swapped for these, not a kernel of its own
				}
				ref := goBinary(t, op, typ, form)
				for _, variant := range []string{"avx2", "nt", "avx512"} {
					nt := variant == "nt"
					k, ok := LookupBinary2D(op, typ, form, nt)
					if variant == "avx512" {
						k = table2DZ[op][typ][form]
						ok = hasAVX512 && k.Func != nil
					}
					if !ok {
						continue
					}
					sz := typ.Size()
					for _, n := range []int{0, k.Lanes, 4 * k.Lanes, 5 * k.Lanes, 8 * k.Lanes, 13 * k.Lanes, 17 * k.Lanes, 40 * k.Lanes} {
						for rows := 0; rows <= 5; rows++ {
							for _, rep := range []bool{false, true} {
								// row strides in elements, padded so rows stay 32-byte aligned
								pad := n + 32/sz
								xs, ys := pad, pad
								if rep {
									ys = 0
								}
								if form == VS || form == SV {
									ys = 1 // the scalar operand: one element per row
									if rep {
										ys = 0
									}
								}
								if form == SV {
									xs, ys = ys, xs
								}
								x := randBytes(r, typ, rows*pad+n+8)
								y := randBytes(r, typ, rows*pad+n+8)
								want := make([]byte, (rows*pad+n+8)*sz+64)
								got := make([]byte, len(want)+64)
								// align got to 32 bytes for the streaming stores
								g := got[(32-int(uintptr(unsafe.Pointer(&got[0]))%32))%32:]
								g = g[:len(want)]
								for i := range g {
									g[i], want[i] = 0xCD, 0xCD
								}
								for row := 0; row < rows; row++ {
									ref(unsafe.Pointer(&want[row*pad*sz]), unsafe.Pointer(&x[row*xs*sz]), unsafe.Pointer(&y[row*ys*sz]), n)
								}
								k.Func(unsafe.Pointer(&g[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), n, rows, pad*sz, xs*sz, ys*sz)
								Fence()
								require.True(t, equalBits(want, g, typ, sz), "%v %v form %d %s n=%d rows=%d repeat=%v", op, typ, form, variant, n, rows, rep)
							}
						}
					}
				}
			}
		}
	}
}

// TestChainMatchesTwoOps: the fused (a op1 b) op2 c kernels give, bit for
// bit, what the two separate Go loops give.
func TestChainMatchesTwoOps(t *testing.T) {
	if !Asm {
		t.Skip("no AVX2 assembly in this build")
	}
	r := rand.New(rand.NewPCG(13, 14))
	ops := []Op{Add, Sub, Mul}
	for _, op1 := range ops {
		for _, op2 := range ops {
			for _, typ := range []Type{Float32, Float64} {
				for _, bs := range []bool{false, true} {
					for _, cs := range []bool{false, true} {
						for _, nt := range []bool{false, true} {
							k, ok := LookupChain(op1, op2, typ, bs, cs, nt)
							require.True(t, ok)
							f1 := goBinary(t, op1, typ, map[bool]Form{false: VV, true: VS}[bs])
							f2 := goBinary(t, op2, typ, map[bool]Form{false: VV, true: VS}[cs])
							sz := typ.Size()
							for n := 0; n <= 70; n++ {
								off := n % 3
								a, b, c := randBytes(r, typ, n), randBytes(r, typ, n), randBytes(r, typ, n)
								p := func(s []byte) unsafe.Pointer { return unsafe.Pointer(&s[off*sz]) }
								tmp := make([]byte, (n+8)*sz)
								want, got := make([]byte, (n+8)*sz), make([]byte, (n+8)*sz)
								f1(p(tmp), p(a), p(b), n)
								f2(p(want), p(tmp), p(c), n)
								k(p(got), p(a), p(b), p(c), n)
								Fence()
								require.True(t, equalBits(want, got, typ, sz), "%v then %v %v bs=%v cs=%v nt=%v n=%d", op1, op2, typ, bs, cs, nt, n)
								// in place over a (the engine reuses a dying register)
								k(p(a), p(a), p(b), p(c), n)
								Fence()
								require.True(t, equalBits(want[off*sz:(off+n)*sz], a[off*sz:(off+n)*sz], typ, sz), "in place %v then %v n=%d", op1, op2, n)
							}
						}
					}
				}
			}
		}
	}
}
