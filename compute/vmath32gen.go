//go:build ignore

// vmath32gen.go writes vmath32_amd64.s and vmath32_kernels_amd64.go:
// float32 transcendental kernels computed in float32 arithmetic, each in
// two widths from one body: AVX2+FMA (8 lanes, Y registers, vector masks)
// and AVX-512 F+DQ (16 lanes, Z registers, K masks). Every kernel handles
// every input in its vector loop (special values by blends), so the
// wrappers in vmath32_amd64.go call it on whole vectors and on a padded
// copy of the tail. Run with `go generate ./compute`.
//
// The algorithms (constants and polynomials derived here, none taken from
// a library):
//
//   - arctan2(y, x) and arctan(x) = arctan2(x, 1): t = min(|x|,|y|) /
//     max(|x|,|y|) in [0, 1] (0/0 -> 0, inf/inf -> 1), atan(t) = t + t z
//     P(z), z = t^2, P of degree atanDeg fitted by Chebyshev interpolation
//     (see fit) to (atan(sqrt z)/sqrt z - 1)/z on [0, 1]; the result is
//     B + s atan(t) with B in {0, pi/2, pi} (pi/2 when |y| > |x|, pi - . when
//     x has its sign bit) and s = -1 for one of the two, summed as
//     Fast2Sum(Bhi, s t) + (Blo + s t z P); y's sign; NaN in either: x + y.
//     arctan adds the rounding error of t = 1/|x| back (e = 1 - t|x| by
//     FMA, atan moves by t e/(1 + t^2) ~ t e (1 - z/2)).
//   - expm1: k = round(x/ln2), r = x - k ln2 (ln2 in two parts, k ln2hi
//     exact), e^r - 1 = r + r^2/2 + r^3 Q(r) (Q fitted like P on |r| <=
//     ln2/2), then 2^k p + (2^k - 1) by one FMA (k <= 24) or 2^(k-1) (2p +
//     2) (k > 24, where 2^k - 1 rounds to 2^k); x > 88.72: +Inf, x < -17.5:
//     -1, NaN: NaN, |x| < 2^-25 (zeros, denormals): x.
//   - log1p: u = 1 + x rounded, c = x - (u - 1), u = 2^e m with m in
//     [sqrt(1/2), sqrt(2)), f = m - 1 (exact), d = c 2^-e (1 + x = 2^e
//     (m + d)); log(1+f) = f + f^2 (-1/2 + f P(f)) (P fitted on the range
//     of f), plus d (1 - f) and e ln2 (ln2hi of 16 bits, e ln2hi exact),
//     e ln2hi + f by Fast2Sum; x = -1: -Inf, x < -1: NaN.
//   - arcsin: a = |x|; a <= 1/2: w = a, z = a^2; else z = (1 - a)/2
//     (exact), w = sqrt z with its rounding error wl = (z - w^2)/(2w);
//     asin(w) = w + w z P(z) (P fitted on [0, 1/4]); a > 1/2: pi/2 -
//     2 asin(w) by Fast2Sum(pi/2hi, -2w); x's sign; |x| > 1: NaN.
//   - x**2.5 (power with the scalar exponent 2.5): x^2 sqrt x, both in two
//     parts (x^2 + x2l by FMA, sqrt x + (x - s^2)/(2s)), one final FMA;
//     +-0: +0, -Inf: +Inf, x < 0: NaN.
//   - tanh (written, not installed: no faster than asmgen's): |x| < 0.625
//     x + x z T(z); else 1 - 2/(expm1(2|x|) + 2).
//   - tan, in float64 arithmetic (tanHalf): x = k pi/2 + r (k = round(x
//     2/pi), pi/2 in two parts), tan r = N/D with N = r + r z P(z), D = 1 +
//     z Q(z), z = r^2, P and Q of degrees 1 and 2 fitted by Remez's
//     exchange (fitRat) to the least relative error on |r| <= pi/4
//     (2^-45.1); tan x = N/D for even k, -D/N for odd k, rounded to
//     float32 (within 1 ulp of every float32 |x| < 2^20, all but 86 of
//     those 2.47e9 correctly rounded: TestTanF32Accuracy); |x| < 2^-12:
//     x; |x| > 2^20, inf, NaN: the Go loop.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"math"
	"math/big"
	"os"
	"regexp"
	"strings"
)

var (
	asm  bytes.Buffer
	decl bytes.Buffer
)

// W is the lane count of the kernel being written: 8 (AVX2) or 16 (AVX-512).
var W int

// cur receives the instructions: asm, or a buffer of one half of an
// interleaved pair (dual).
var cur = &asm

func p(format string, args ...any) { fmt.Fprintf(cur, "\t"+bcst(fmt.Sprintf(format, args...))+"\n") }

// bcstOK lists the instructions whose v32<> operand the 16-lane forms
// read as a broadcast of its first lane.
var bcstOK = map[string]bool{"VADDPS": true, "VSUBPS": true, "VMULPS": true, "VANDPS": true, "VMAXPS": true,
	"VMINPS": true, "VCMPPS": true, "VBLENDMPS": true, "VFMADD213PS": true, "VFMADD231PS": true,
	"VFNMADD231PS": true, "VPADDD": true, "VPSUBD": true, "VPMINSD": true}

// bcst turns a 16-lane instruction's v32<> operand into a broadcast of
// the constant's first lane (VMOVUPS into VBROADCASTSS, others with the
// .BCST suffix): a 64-byte load from v32<> would straddle two cache lines
// whenever the linker places the table off a 64-byte boundary (it aligns
// data to 32 bytes at most), and a layout change elsewhere in the package
// once made float32 arctan of 16M elements twice as slow (7.9 -> 15.6 ms).
// An instruction with no broadcast form stops the generator.
func bcst(line string) string {
	if !strings.Contains(line, "v32<>") || !zReg.MatchString(line) {
		return line
	}
	op, rest, _ := strings.Cut(line, " ")
	switch {
	case op == "VMOVUPS":
		return "VBROADCASTSS " + rest
	case bcstOK[op]:
		return op + ".BCST " + rest
	}
	log.Fatalf("no broadcast form for %q", line)
	return ""
}

var zReg = regexp.MustCompile(`\bZ[0-9]+\b`)

func label(l string) { fmt.Fprintf(cur, "%s:\n", l) }

// dual emits the instructions of a and b, two independent computations on
// disjoint registers, alternately one by one, so that the core finds two
// dependency chains side by side instead of one long one.
func dual(a, b func()) { interleave(a, b) }

// interleave is dual for any number of computations: one instruction of
// each in turn.
func interleave(fs ...func()) {
	grab := func(f func()) []string {
		var buf bytes.Buffer
		cur = &buf
		f()
		cur = &asm
		return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	}
	ls, n := make([][]string, len(fs)), 0
	for i, f := range fs {
		ls[i] = grab(f)
		n = max(n, len(ls[i]))
	}
	for i := 0; i < n; i++ {
		for _, l := range ls {
			if i < len(l) {
				asm.WriteString(l[i] + "\n")
			}
		}
	}
}

// R is vector register i; M is mask i (1..4): Y11..Y14 with AVX2, K1..K4
// with AVX-512. Bodies use R(0)..R(10).
func R(i int) string {
	if W == 16 {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("Y%d", i)
}

func M(i int) string {
	if W == 16 {
		return fmt.Sprintf("K%d", i)
	}
	return fmt.Sprintf("Y%d", 10+i)
}

// float32 constants, each a row of 16 lanes (64 bytes) in v32<>.
var consts []uint32

func kb(bits uint32) string {
	for i, c := range consts {
		if c == bits {
			return fmt.Sprintf("v32<>+%d(SB)", 64*i)
		}
	}
	consts = append(consts, bits)
	return fmt.Sprintf("v32<>+%d(SB)", 64*(len(consts)-1))
}

func k(v float32) string { return kb(math.Float32bits(v)) }

// float64 constants, each a row of 4 lanes (32 bytes) in v64<>.
var consts64 []uint64

func kd(v float64) string {
	bits := math.Float64bits(v)
	for i, c := range consts64 {
		if c == bits {
			return fmt.Sprintf("v64<>+%d(SB)", 32*i)
		}
	}
	consts64 = append(consts64, bits)
	return fmt.Sprintf("v64<>+%d(SB)", 32*(len(consts64)-1))
}

// Instructions, d = destination; b may be a constant (memory operand).
func op(mn, d, a, b string) { p("%s %s, %s, %s", mn, b, a, d) }
func add(d, a, b string)    { op("VADDPS", d, a, b) }
func sub(d, a, b string)    { op("VSUBPS", d, a, b) } // d = a - b
func mul(d, a, b string)    { op("VMULPS", d, a, b) }
func div(d, a, b string)    { op("VDIVPS", d, a, b) } // d = a / b
func and(d, a, b string)    { op("VANDPS", d, a, b) }
func or(d, a, b string)     { op("VORPS", d, a, b) }
func xor(d, a, b string)    { op("VXORPS", d, a, b) }
func mov(d, a string)       { p("VMOVUPS %s, %s", a, d) }

// fma: a = a*b + c; fma231: acc += a*b; fnma231: acc -= a*b.
func fma(a, b, c string)       { p("VFMADD213PS %s, %s, %s", c, b, a) }
func fma231(acc, a, b string)  { p("VFMADD231PS %s, %s, %s", b, a, acc) }
func fnma231(acc, a, b string) { p("VFNMADD231PS %s, %s, %s", b, a, acc) }
func fms231(acc, a, b string)  { p("VFMSUB231PS %s, %s, %s", b, a, acc) } // acc = a*b - acc

// Comparison predicates.
const (
	cmpEQ    = 0x00
	cmpLT    = 0x01
	cmpLE    = 0x02
	cmpUNORD = 0x03
	cmpGT    = 0x0e
)

// cmp: mask m = a pred b.
func cmp(pred int, m, a, b string) { p("VCMPPS $0x%02x, %s, %s, %s", pred, b, a, m) }

// blend: d = m ? t : f (t may be a constant).
func blend(d, m, t, f string) {
	if W == 16 {
		p("VBLENDMPS %s, %s, %s, %s", t, f, m, d)
	} else {
		p("VBLENDVPS %s, %s, %s, %s", m, t, f, d)
	}
}

// signMask: mask m = the sign bits of a.
func signMask(m, a string) {
	if W == 16 {
		p("VPMOVD2M %s, %s", a, m)
	} else {
		mov(m, a) // VBLENDVPS reads the sign bit
	}
}

// horner: d = c[n] z^n + ... + c[0], z in register z.
func horner(d, z string, c []float64) {
	mov(d, k(float32(c[len(c)-1])))
	for i := len(c) - 2; i >= 0; i-- {
		fma(d, z, k(float32(c[i])))
	}
}

const absBits = 0x7fffffff
const signBits = 0x80000000

// fit is the polynomial of degree n (coefficients from z^0) interpolating
// f at the n+1 Chebyshev nodes of [a, b]: within a small factor of the
// minimax polynomial for the smooth functions fitted here. The
// coefficients are rounded to float32; the kernels' tests measure the
// final error.
func fit(f func(float64) float64, a, b float64, n int) []float64 {
	N := n + 1
	// Chebyshev coefficients on s in [-1, 1], z = (a+b)/2 + (b-a)/2 s
	cs := make([]float64, N)
	for j := 0; j < N; j++ {
		th := math.Pi * (float64(j) + 0.5) / float64(N)
		fv := f((a+b)/2 + (b-a)/2*math.Cos(th))
		for i := 0; i < N; i++ {
			cs[i] += 2 / float64(N) * fv * math.Cos(float64(i)*th)
		}
	}
	cs[0] /= 2
	// sum cs[i] T_i(s) as a polynomial in s (exact rational arithmetic
	// would be overkill at these degrees: big.Float at 200 bits)
	bigs := func(v float64) *big.Float { return new(big.Float).SetPrec(200).SetFloat64(v) }
	poly := make([]*big.Float, N) // in s
	for i := range poly {
		poly[i] = bigs(0)
	}
	tPrev := []*big.Float{bigs(1)}         // T_0
	tCur := []*big.Float{bigs(0), bigs(1)} // T_1
	addT := func(t []*big.Float, c float64) {
		for i, v := range t {
			poly[i].Add(poly[i], new(big.Float).SetPrec(200).Mul(v, bigs(c)))
		}
	}
	addT(tPrev, cs[0])
	if N > 1 {
		addT(tCur, cs[1])
	}
	for i := 2; i < N; i++ {
		next := make([]*big.Float, i+1)
		for j := range next {
			next[j] = bigs(0)
		}
		for j, v := range tCur {
			next[j+1].Add(next[j+1], new(big.Float).SetPrec(200).Mul(v, bigs(2)))
		}
		for j, v := range tPrev {
			next[j].Sub(next[j], v)
		}
		tPrev, tCur = tCur, next
		addT(tCur, cs[i])
	}
	// s = (z - m)/h: expand sum poly[i] ((z - m)/h)^i
	m, h := (a+b)/2, (b-a)/2
	out := make([]*big.Float, N)
	for i := range out {
		out[i] = bigs(0)
	}
	pw := []*big.Float{bigs(1)} // ((z-m)/h)^i
	for i := 0; i < N; i++ {
		for j, v := range pw {
			out[j].Add(out[j], new(big.Float).SetPrec(200).Mul(v, poly[i]))
		}
		np := make([]*big.Float, len(pw)+1)
		for j := range np {
			np[j] = bigs(0)
		}
		for j, v := range pw {
			np[j+1].Add(np[j+1], new(big.Float).SetPrec(200).Quo(v, bigs(h)))
			np[j].Sub(np[j], new(big.Float).SetPrec(200).Quo(new(big.Float).SetPrec(200).Mul(v, bigs(m)), bigs(h)))
		}
		pw = np
	}
	res := make([]float64, N)
	for i, v := range out {
		res[i], _ = v.Float64()
	}
	return res
}

func eval(c []float64, z float64) float64 {
	v := 0.0
	for i := len(c) - 1; i >= 0; i-- {
		v = v*z + float64(float32(c[i]))
	}
	return v
}

// atanP is (atan(sqrt z)/sqrt z - 1)/z, by its series where that cancels.
func atanP(z float64) float64 {
	if z < 0.25 {
		s, pw := 0.0, 1.0
		for k := 1; k < 60; k++ {
			t := pw / float64(2*k+1)
			if k%2 == 1 {
				t = -t
			}
			s += t
			pw *= z
		}
		return s
	}
	r := math.Sqrt(z)
	return (math.Atan(r)/r - 1) / z
}

// expQ is (e^r - 1 - r - r^2/2)/r^3.
func expQ(r float64) float64 {
	s, pw, f := 0.0, 1.0, 6.0
	for k := 3; k < 30; k++ {
		s += pw / f
		pw *= r
		f *= float64(k + 1)
	}
	return s
}

const atanDeg = 9
const expDeg = 4

var atanC, expC []float64

func bigPi() *big.Float {
	const prec = 200
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	atanInv := func(m int64) *big.Float {
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(m)))
		m2 := bf(float64(m * m))
		for k := int64(0); k < 200; k++ {
			t := new(big.Float).SetPrec(prec).Quo(pow, bf(float64(2*k+1)))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			pow.Quo(pow, m2)
		}
		return sum
	}
	a := new(big.Float).SetPrec(prec).Mul(bf(16), atanInv(5))
	return a.Sub(a, new(big.Float).SetPrec(prec).Mul(bf(4), atanInv(239)))
}

// atanhInv3 is atanh(1/3) = ln2/2.
func atanhInv3() *big.Float {
	sum := new(big.Float).SetPrec(200)
	pow := new(big.Float).SetPrec(200).Quo(new(big.Float).SetFloat64(1), new(big.Float).SetFloat64(3))
	for k := 0; k < 200; k++ {
		sum.Add(sum, new(big.Float).SetPrec(200).Quo(pow, new(big.Float).SetFloat64(float64(2*k+1))))
		pow.Quo(pow, new(big.Float).SetFloat64(9))
	}
	return sum
}

// split32 is v as float32 hi + lo.
func split32(v *big.Float) (float32, float32) {
	hi, _ := v.Float32()
	r := new(big.Float).SetPrec(200).Sub(v, new(big.Float).SetPrec(200).SetFloat64(float64(hi)))
	lo, _ := r.Float32()
	return hi, lo
}

// head writes the header of a kernel: dst, x[, y] pointers and n, a
// multiple of W; SI = x, DX = y, DI = dst, CX = n, R8 = index.
func head(name string, binary bool) {
	sig := "dst, x unsafe.Pointer, n int"
	frame := 24
	if binary {
		sig = "dst, x, y unsafe.Pointer, n int"
		frame = 32
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(%s)\n\n", name, sig)
	fmt.Fprintf(&asm, "// func %s(%s)\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", name, sig, name, frame)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	if binary {
		p("MOVQ y+16(FP), DX")
		p("MOVQ n+24(FP), CX")
	} else {
		p("MOVQ n+16(FP), CX")
	}
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
}

func tail() {
	p("ADDQ $%d, R8", W)
	p("JMP loop")
	label("done")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

var piHi, piLo, pi2Hi, pi2Lo float32

// atanBody: R0 = y, R1 = x (unary: x = 1, R1 unused) -> R0 = atan2(y, x).
func atanBody(unary bool) {
	one := k(1)
	x := R(1)
	if unary {
		x = one
	}
	and(R(2), R(0), kb(absBits)) // ay
	if unary {
		mov(R(3), one)
	} else {
		and(R(3), x, kb(absBits)) // ax
	}
	p("VMAXPS %s, %s, %s", R(3), R(2), R(4)) // mx
	p("VMINPS %s, %s, %s", R(3), R(2), R(5)) // mn
	if unary {                               // 1/inf would leave e = 1 - 0*inf NaN; atan(1e-30) is nothing beside pi/2
		p("VMINPS %s, %s, %s", k(1e30), R(4), R(4))
	}
	div(R(6), R(5), R(4)) // t
	if !unary {
		cmp(cmpEQ, M(1), R(4), k(0))
		blend(R(6), M(1), k(0), R(6))
		cmp(cmpEQ, M(1), R(5), k(float32(math.Inf(1))))
		blend(R(6), M(1), one, R(6))
	}
	cmp(cmpGT, M(2), R(2), R(3)) // swap: |y| > |x|
	mul(R(7), R(6), R(6))        // z
	if unary {                   // e = mn - t mx (exact); the correction t e (1 - z/2), R5
		fnma231(R(5), R(6), R(4))
		mul(R(5), R(5), R(6))
		mov(R(9), one)
		fnma231(R(9), R(7), k(0.5))
		mul(R(5), R(5), R(9))
	}
	horner(R(8), R(7), atanC)
	mul(R(8), R(8), R(7)) // q = z P
	// B and the sign of t
	xor(R(9), R(9), R(9))
	blend(R(3), M(2), k(pi2Hi), R(9))      // Bhi for x >= 0
	blend(R(4), M(2), k(pi2Lo), R(9))      // Blo for x >= 0
	blend(R(10), M(2), kb(signBits), R(9)) // sign of t for x >= 0
	if !unary {
		signMask(M(3), x)
		mov(R(9), k(piHi))
		blend(R(9), M(2), k(pi2Hi), R(9))
		blend(R(3), M(3), R(9), R(3))
		mov(R(9), k(piLo))
		blend(R(9), M(2), k(pi2Lo), R(9))
		blend(R(4), M(3), R(9), R(4))
		and(R(9), x, kb(signBits))
		xor(R(10), R(10), R(9))
	}
	xor(R(6), R(6), R(10)) // T = s t
	if unary {
		xor(R(5), R(5), R(10))
	}
	// H = Bhi + T, Hl = (Bhi - H) + T, res = H + (Hl + Blo + T q)
	add(R(9), R(3), R(6))
	sub(R(3), R(3), R(9))
	add(R(3), R(3), R(6))
	add(R(3), R(3), R(4))
	fma231(R(3), R(6), R(8))
	if unary {
		add(R(3), R(3), R(5))
	}
	add(R(9), R(9), R(3))
	and(R(2), R(0), kb(signBits))
	or(R(9), R(9), R(2))
	if unary {
		cmp(cmpUNORD, M(1), R(0), R(0))
		blend(R(0), M(1), R(0), R(9))
	} else {
		cmp(cmpUNORD, M(1), R(0), x)
		add(R(2), R(0), x)
		blend(R(0), M(1), R(2), R(9))
	}
}

var ln2Hi, ln2Lo float32

// expm1Body: R0 = x -> R0 = e^x - 1.
func expm1Body() {
	const shifter = 0x1.8p23
	p("VMAXPS %s, %s, %s", k(-18), R(0), R(1))
	p("VMINPS %s, %s, %s", k(89), R(1), R(1)) // xc
	mov(R(3), R(1))
	mov(R(1), k(shifter))
	fma231(R(1), R(3), k(float32(math.Log2E))) // shifter + k
	sub(R(2), R(1), k(shifter))                // k
	fnma231(R(3), R(2), k(ln2Hi))              // exact
	fnma231(R(3), R(2), k(ln2Lo))              // r
	mul(R(4), R(3), R(3))                      // r^2
	horner(R(5), R(3), expC)                   // Q
	fma(R(5), R(3), k(0.5))                    // 1/2 + r Q
	fma(R(5), R(4), R(3))                      // p = e^r - 1
	p("VPSLLD $23, %s, %s", R(1), R(1))
	p("VPADDD %s, %s, %s", kb(127<<23), R(1), R(6)) // 2^k
	p("VPADDD %s, %s, %s", kb(126<<23), R(1), R(7)) // 2^(k-1)
	sub(R(8), R(6), k(1))
	fma231(R(8), R(6), R(5)) // k <= 24: 2^k p + (2^k - 1)
	mov(R(9), R(7))
	fma231(R(9), R(7), R(5))
	add(R(9), R(9), R(9)) // k > 24: 2 (2^(k-1) p + 2^(k-1))
	cmp(cmpGT, M(1), R(2), k(24.5))
	blend(R(8), M(1), R(9), R(8))
	and(R(10), R(0), kb(absBits))
	cmp(cmpLT, M(1), R(10), k(0x1p-25))
	blend(R(8), M(1), R(0), R(8))
	cmp(cmpUNORD, M(1), R(0), R(0))
	blend(R(0), M(1), R(0), R(8))
}

var ln2Hi16, ln2Lo16 float32

// log1pBody: R0 = x -> R0 = log(1 + x).
func log1pBody() {
	one := k(1)
	add(R(1), R(0), one)                     // u
	sub(R(5), R(1), one)                     //
	sub(R(5), R(0), R(5))                    // c = x - (u - 1)
	op("VPSUBD", R(2), R(1), kb(0x3f3504f3)) // u - bits(sqrt(1/2))
	p("VPSRAD $23, %s, %s", R(2), R(2))      // e
	p("VPSLLD $23, %s, %s", R(2), R(10))     //
	op("VPSUBD", R(3), R(1), R(10))          // m in [sqrt(1/2), sqrt(2))
	sub(R(3), R(3), one)                     // f, exact
	p("VCVTDQ2PS %s, %s", R(2), R(4))        // e
	op("VPMINSD", R(10), R(2), kb(126))      //
	p("VPSLLD $23, %s, %s", R(10), R(10))    //
	mov(R(6), kb(127<<23))                   //
	op("VPSUBD", R(10), R(6), R(10))         // 2^-e
	mul(R(5), R(5), R(10))                   // d = c 2^-e: 1 + x = 2^e (m + d)
	mov(R(10), one)                          //
	sub(R(10), R(10), R(3))                  //
	mul(R(5), R(5), R(10))                   // d (1 - f) ~ d/(1 + f)
	fma231(R(5), R(4), k(ln2Lo16))           // + e ln2lo
	mul(R(6), R(3), R(3))                    // f^2
	horner(R(7), R(3), logC)                 //
	fma(R(7), R(3), k(-0.5))                 // q = -1/2 + f P
	fma231(R(5), R(6), R(7))                 // + f^2 q
	mul(R(8), R(4), k(ln2Hi16))              // A = e ln2hi, exact
	add(R(9), R(8), R(3))                    // H = A + f
	sub(R(8), R(8), R(9))                    //
	add(R(8), R(8), R(3))                    // Hl (Fast2Sum: |A| > |f| or A = 0)
	add(R(5), R(5), R(8))                    //
	add(R(9), R(9), R(5))                    //
	and(R(10), R(0), kb(absBits))
	cmp(cmpLT, M(1), R(10), k(0x1p-25))
	blend(R(9), M(1), R(0), R(9)) // x (zeros of either sign)
	cmp(cmpEQ, M(1), R(0), k(-1))
	blend(R(9), M(1), k(float32(math.Inf(-1))), R(9))
	cmp(cmpLT, M(1), R(0), k(-1))
	blend(R(9), M(1), kb(0x7fc00000), R(9))
	cmp(cmpEQ, M(1), R(0), k(float32(math.Inf(1))))
	blend(R(9), M(1), R(0), R(9))
	cmp(cmpUNORD, M(1), R(0), R(0))
	blend(R(0), M(1), R(0), R(9))
}

// logP is (log(1+f) - f + f^2/2)/f^3 by its series (|f| <= 0.42).
func logP(f float64) float64 {
	s, pw := 0.0, 1.0
	for k := 3; k < 300; k++ {
		t := pw / float64(k)
		if k%2 == 0 {
			t = -t
		}
		s += t
		pw *= f
	}
	return s
}

const logDeg = 8

var logC []float64

// asinBody: R0 = x -> R0 = arcsin(x).
func asinBody() {
	one := k(1)
	and(R(1), R(0), kb(absBits)) // a
	cmp(cmpGT, M(1), R(1), k(0.5))
	mov(R(2), one)
	sub(R(2), R(2), R(1))
	mul(R(2), R(2), k(0.5)) // (1 - a)/2, exact for a > 1/2
	mul(R(3), R(1), R(1))
	blend(R(3), M(1), R(2), R(3)) // z
	if W == 16 {
		// no square root or division (the divider is shared by the
		// core's threads): y = 1/sqrt zc by VRSQRT14PS (2^-14; zc = z
		// but at least 2^-100, a = 1 giving pi/2 all the same), w = zc y
		// and h = y/2 by Goldschmidt's step (2^-28), wl = (zc - w^2) h
		p("VMAXPS %s, %s, %s", k(0x1p-100), R(2), R(2)) // zc
		p("VRSQRT14PS %s, %s", R(2), R(6))
		mul(R(4), R(2), R(6))
		mul(R(6), R(6), k(0.5))
		mov(R(5), k(0.5))
		fnma231(R(5), R(4), R(6)) // r = 1/2 - w h
		fma231(R(4), R(4), R(5))
		fma231(R(6), R(6), R(5))
		mov(R(5), R(2))
		fnma231(R(5), R(4), R(4))     // zc - w^2, exact
		mul(R(5), R(5), R(6))         // wl: sqrt zc = w + wl
		blend(R(4), M(1), R(4), R(1)) // w
		xor(R(7), R(7), R(7))
		blend(R(5), M(1), R(5), R(7)) // a <= 1/2: 0
	} else {
		p("VSQRTPS %s, %s", R(2), R(4))
		blend(R(4), M(1), R(4), R(1)) // w
		mov(R(5), R(3))
		fnma231(R(5), R(4), R(4)) // z - w^2, exact
		add(R(6), R(4), R(4))
		div(R(5), R(5), R(6)) // wl: sqrt z = w + wl
		xor(R(7), R(7), R(7))
		cmp(cmpEQ, M(2), R(6), R(7))
		blend(R(5), M(2), R(7), R(5)) // a = 1: 0 (not 0/0)
		blend(R(5), M(1), R(5), R(7)) // a <= 1/2: 0
	}
	horner(R(8), R(3), asinC)
	mul(R(8), R(8), R(3))
	mul(R(8), R(8), R(4))
	add(R(8), R(8), R(5)) // asin(sqrt z) - w
	mov(R(9), one)
	blend(R(9), M(1), k(-2), R(9)) // s
	mul(R(8), R(8), R(9))
	mul(R(6), R(4), R(9)) // T = s w
	blend(R(10), M(1), k(pi2Hi), R(7))
	blend(R(2), M(1), k(pi2Lo), R(7))
	add(R(8), R(8), R(2))
	add(R(9), R(10), R(6)) // H
	sub(R(10), R(10), R(9))
	add(R(10), R(10), R(6)) // Hl
	add(R(8), R(8), R(10))
	add(R(9), R(9), R(8))
	and(R(2), R(0), kb(signBits))
	or(R(9), R(9), R(2))
	cmp(cmpGT, M(1), R(1), one)
	blend(R(9), M(1), kb(0x7fc00000), R(9))
	cmp(cmpUNORD, M(1), R(0), R(0))
	blend(R(0), M(1), R(0), R(9))
}

// asinP is (asin(sqrt z)/sqrt z - 1)/z = sum c_n z^(n-1), c_n =
// (2n)!/(4^n (n!)^2 (2n+1)), z <= 1/4.
func asinP(z float64) float64 {
	s, pw, c := 0.0, 1.0, 1.0
	for n := 1; n < 80; n++ {
		c *= float64(2*n-1) / float64(2*n)
		s += c / float64(2*n+1) * pw
		pw *= z
	}
	return s
}

const asinDeg = 5

var asinC []float64

// pow25Body: R0 = x -> R0 = x**2.5 = x^2 sqrt(x): sqrt x = s + sl and
// x^2 = x2 + x2l exactly (sl to first order), summed by FMAs, one rounding
// of note.
func pow25Body() {
	p("VSQRTPS %s, %s", R(0), R(1)) // s
	mov(R(2), R(0))
	fnma231(R(2), R(1), R(1)) // x - s^2, exact
	add(R(3), R(1), R(1))
	div(R(2), R(2), R(3)) // sl
	mul(R(4), R(0), R(0)) // x2
	mov(R(5), R(4))
	fms231(R(5), R(0), R(0)) // x2l = x*x - x2
	mul(R(6), R(4), R(2))
	fma231(R(6), R(5), R(1))
	fma231(R(6), R(4), R(1))
	inf := k(float32(math.Inf(1)))
	xor(R(7), R(7), R(7))
	cmp(cmpEQ, M(1), R(0), R(7))
	blend(R(6), M(1), R(7), R(6)) // +-0: +0
	cmp(cmpGT, M(1), R(0), k(0x1p52))
	blend(R(6), M(1), inf, R(6)) // overflow, +inf
	cmp(cmpEQ, M(1), R(0), k(float32(math.Inf(-1))))
	blend(R(0), M(1), inf, R(6)) // -inf: +inf; x < 0, NaN: NaN from sqrt
}

// tanhBody: R0 = x -> R0 = tanh(x): |x| < 0.625: x + x z T(z), z = x^2
// (T fitted to (tanh(sqrt z)/sqrt z - 1)/z); beyond, 1 - 2/(m + 2) with
// m = expm1(2 min(|x|, 10)) by expm1Body; x's sign; |x| < 2^-13: x.
func tanhBody() {
	mov(R(15), R(0))
	and(R(0), R(0), kb(absBits))
	p("VMINPS %s, %s, %s", k(10), R(0), R(0))
	add(R(0), R(0), R(0))
	expm1Body()
	add(R(1), R(0), k(2))
	mov(R(2), k(2))
	div(R(2), R(2), R(1))
	mov(R(3), k(1))
	sub(R(3), R(3), R(2)) // tanh |x|
	and(R(2), R(15), kb(signBits))
	or(R(3), R(3), R(2))
	mul(R(4), R(15), R(15)) // z
	horner(R(5), R(4), tanhC)
	mul(R(6), R(15), R(4))
	fma(R(5), R(6), R(15)) // x + x z T
	and(R(7), R(15), kb(absBits))
	cmp(cmpLT, M(1), R(7), k(0.625))
	blend(R(3), M(1), R(5), R(3))
	cmp(cmpLT, M(1), R(7), k(0x1p-13))
	blend(R(3), M(1), R(15), R(3))
	cmp(cmpUNORD, M(1), R(15), R(15))
	blend(R(0), M(1), R(15), R(3))
}

// tanhT is (tanh(sqrt z)/sqrt z - 1)/z, by the series of tanh's
// continued fraction where that cancels.
func tanhT(z float64) float64 {
	if z < 1e-4 {
		return -1.0/3 + z*2/15 - z*z*17/315
	}
	r := math.Sqrt(z)
	return (math.Tanh(r)/r - 1) / z
}

const tanhDeg = 5

var tanhC []float64

// Degrees in z of the tan kernel's rational function: tan(r) = N/D on
// |r| <= pi/4 (a little beyond, for the rounding of k), N = r + r z P(z),
// P of degree tanNumDeg-1, D = 1 + z Q(z), Q of degree tanDenDeg-1,
// fitted (fitRat) to a relative error of 2^-45.1, so that N/D rounded to
// float32 is within 1 ulp of tan everywhere and the correctly rounded tan
// for all but 86 of the 2.47e9 float32 |x| < 2^20 (degrees 2 and 4 fit to
// 2^-54.6 and round every one of them correctly, for one FMA more per 8
// lanes: 16M into 7.5 against 6.7 ms, where NumPy's SVML tan took 6.1-6.9
// and is 3.6 ulp off at worst; the sine and cosine polynomials of degrees
// 5 and 6 this replaced took six more).
const tanNumDeg, tanDenDeg = 2, 3

var tanP, tanQ []float64 // P and Q, coefficients from z^0
var pio2Hi, pio2Lo float64

// tanHalf is the float64 tan of 4 float32 lanes at off(SI)(R8*4), on the
// seven registers Y[b]..Y[b+6]; the result, rounded to float32, is left
// in X[b]. x = k pi/2 + r (k = round(x 2/pi) by the 1.5*2^52 shifter, whose
// last mantissa bit is k's parity; pi/2 in two parts, x - k pio2Hi exact
// by FMA for |x| < 2^20), tan x = N/D for even k, -D/N for odd k (N/D
// the rational function of tanNumDeg and tanDenDeg).
// With wide (AVX-512), the same operations on 8 lanes: Z[b]..Z[b+6], the
// constants as broadcast operands, the parity's mask in K[m] (selecting
// the divisor and negating the dividend, the same bits as negating the
// quotient), the result in Y[b].
func tanHalf(b, off int, wide bool, m int) {
	reg, half, bc, cvt := "Y", "X", "", "VCVTPD2PSY"
	if wide {
		reg, half, bc, cvt = "Z", "Y", ".BCST", "VCVTPD2PS"
	}
	D := func(i int) string { return fmt.Sprintf("%s%d", reg, b+i) }
	load := func(c, d string) { // a constant into a register
		if wide {
			p("VBROADCASTSD %s, %s", c, d)
		} else {
			p("VMOVUPD %s, %s", c, d)
		}
	}
	const shifter = 0x1.8p52
	p("VCVTPS2PD %d(SI)(R8*4), %s", off, D(0))
	load(kd(shifter), D(1))
	p("VFMADD231PD%s %s, %s, %s", bc, kd(2/math.Pi), D(0), D(1)) // shifter + k
	p("VSUBPD%s %s, %s, %s", bc, kd(shifter), D(1), D(2))        // k
	p("VFNMADD231PD%s %s, %s, %s", bc, kd(pio2Hi), D(2), D(0))   // exact
	p("VFNMADD231PD%s %s, %s, %s", bc, kd(pio2Lo), D(2), D(0))   // r
	p("VMULPD %s, %s, %s", D(0), D(0), D(2))                     // z
	load(kd(tanP[len(tanP)-1]), D(3))
	load(kd(tanQ[len(tanQ)-1]), D(4))
	for i := len(tanQ) - 2; i >= 0; i-- {
		if i < len(tanP)-1 {
			p("VFMADD213PD%s %s, %s, %s", bc, kd(tanP[i]), D(2), D(3))
		}
		p("VFMADD213PD%s %s, %s, %s", bc, kd(tanQ[i]), D(2), D(4))
	}
	p("VFMADD213PD%s %s, %s, %s", bc, kd(1), D(2), D(4)) // D = 1 + z Q
	p("VMULPD %s, %s, %s", D(0), D(2), D(2))             // r z
	p("VFMADD213PD %s, %s, %s", D(0), D(2), D(3))        // N = r + r z P
	// odd k: dividend -D, divisor N
	if wide { // K[m]: the parity of shifter + k
		K := fmt.Sprintf("K%d", m)
		p("VPTESTMQ.BCST %s, %s, %s", kd(math.Float64frombits(1)), D(1), K)
		p("VBLENDMPD %s, %s, %s, %s", D(3), D(4), K, D(6))
		p("VXORPD.BCST %s, %s, %s, %s", kd(math.Copysign(0, -1)), D(4), K, D(3))
		p("VDIVPD %s, %s, %s", D(6), D(3), D(5))
	} else { // D(1): the parity as a sign bit, D/N, its sign flipped
		p("VPSLLQ $63, %s, %s", D(1), D(1))
		p("VBLENDVPD %s, %s, %s, %s", D(1), D(4), D(3), D(5))
		p("VBLENDVPD %s, %s, %s, %s", D(1), D(3), D(4), D(6))
		p("VDIVPD %s, %s, %s", D(6), D(5), D(5))
		p("VXORPD %s, %s, %s", D(1), D(5), D(5))
	}
	p("%s %s, %s%d", cvt, D(5), half, b)
}

// emitTan writes tanF32D8 (nt: tanF32D8NT, streaming stores to a 32-byte
// aligned dst): 8 float32 lanes a step as two interleaved halves of
// tanHalf; it returns the count done, stopping at the first vector with
// an |x| > 2^20, an infinity or a NaN, which the caller computes in Go.
// |x| < 2^-12 gives x (tan x - x < x^3/3 is below half an ulp; this keeps
// -0 and denormals).
func emitTan(nt bool) {
	name := "tanF32D8"
	if nt {
		name += "NT"
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(dst, x unsafe.Pointer, n int) int\n\n", name)
	fmt.Fprintf(&asm, "// func %s(dst, x unsafe.Pointer, n int) int\nTEXT ·%s(SB), NOSPLIT, $0-32\n", name, name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
	p("VMOVUPS (SI)(R8*4), Y14")
	p("VANDPS %s, Y14, Y15", kb(absBits))
	p("VCMPPS $0x%02x, %s, Y15, Y15", cmpLE, k(0x1p20))
	p("VMOVMSKPS Y15, AX")
	p("CMPL AX, $0xff")
	p("JNE done")
	dual(func() { tanHalf(0, 0, false, 0) }, func() { tanHalf(7, 16, false, 0) })
	p("VINSERTF128 $1, X7, Y0, Y0")
	p("VANDPS %s, Y14, Y15", kb(absBits))
	p("VCMPPS $0x%02x, %s, Y15, Y15", cmpLT, k(0x1p-12))
	p("VBLENDVPS Y15, Y14, Y0, Y0")
	if nt {
		p("VMOVNTPS Y0, (DI)(R8*4)")
	} else {
		p("VMOVUPS Y0, (DI)(R8*4)")
	}
	p("ADDQ $8, R8")
	p("JMP loop")
	label("done")
	p("MOVQ R8, ret+24(FP)")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// emitTan16 writes tanF32D16 (nt: tanF32D16NT, streaming stores to a
// 64-byte aligned dst): tanF32D8 with AVX-512, 32 lanes a step as four
// interleaved quarters of tanHalf (wide; 16 lanes a step, two quarters,
// for the last 16 and from a vector with an argument out of range on),
// the same bits; it does whole vectors of 16 and stops at the first with
// an argument tanF32D8 would stop at. The four chains side by side took
// 16Ki elements from 0.414 to 0.392 ns an element against two.
func emitTan16(nt bool) {
	name := "tanF32D16"
	if nt {
		name += "NT"
	}
	st := "VMOVUPS"
	if nt {
		st = "VMOVNTPS"
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(dst, x unsafe.Pointer, n int) int\n\n", name)
	fmt.Fprintf(&asm, "// func %s(dst, x unsafe.Pointer, n int) int\nTEXT ·%s(SB), NOSPLIT, $0-32\n", name, name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("ANDQ $-16, CX")
	p("XORQ R8, R8")
	// check loads the 16 arguments at off(SI)(R8*4) into Z[x] and their
	// absolute values into Z[x+1], jumps to out unless all are within
	// 2^20, and sets K[tiny] to those below 2^-12
	check := func(off, x, tiny int, out string) {
		p("VMOVUPS %d(SI)(R8*4), Z%d", off, x)
		p("VANDPS %s, Z%d, Z%d", kb(absBits), x, x+1)
		p("VCMPPS $0x%02x, %s, Z%d, K3", cmpLE, k(0x1p20), x+1)
		p("KMOVW K3, AX")
		p("CMPL AX, $0xffff")
		p("JNE %s", out)
		p("VCMPPS $0x%02x, %s, Z%d, K%d", cmpLT, k(0x1p-12), x+1, tiny)
	}
	// finish joins the halves in Y[b] and Y[b+7] into Z[b], puts back the
	// arguments below 2^-12 and stores the 16 results at off(DI)(R8*4)
	finish := func(off, b, x, tiny int) {
		p("VINSERTF64X4 $1, Y%d, Z%d, Z%d", b+7, b, b)
		p("VBLENDMPS Z%d, Z%d, K%d, Z%d", x, b, tiny, b)
		p("%s Z%d, %d(DI)(R8*4)", st, b, off)
	}
	label("loop32")
	p("LEAQ 32(R8), R9")
	p("CMPQ R9, CX")
	p("JGT loop16")
	check(0, 14, 4, "loop16")
	check(64, 30, 7, "loop16")
	interleave(func() { tanHalf(0, 0, true, 1) }, func() { tanHalf(7, 32, true, 2) },
		func() { tanHalf(16, 64, true, 5) }, func() { tanHalf(23, 96, true, 6) })
	finish(0, 0, 14, 4)
	finish(64, 16, 30, 7)
	p("ADDQ $32, R8")
	p("JMP loop32")
	label("loop16")
	p("CMPQ R8, CX")
	p("JGE done")
	check(0, 14, 4, "done")
	dual(func() { tanHalf(0, 0, true, 1) }, func() { tanHalf(7, 32, true, 2) })
	finish(0, 0, 14, 4)
	p("ADDQ $16, R8")
	p("JMP loop16")
	label("done")
	p("MOVQ R8, ret+24(FP)")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// tanRatF is tan(sqrt z)/sqrt z at prec bits (z >= 0), by the series of
// sin(sqrt z)/sqrt z and cos(sqrt z) in z.
func tanRatF(z *big.Float, prec uint) *big.Float {
	bf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	s, c := bf().SetInt64(1), bf().SetInt64(1)
	ts, tc := bf().SetInt64(1), bf().SetInt64(1)
	for i := int64(1); i < 60; i++ {
		ts.Mul(ts, z).Quo(ts, bf().SetInt64(-(2*i)*(2*i+1)))
		tc.Mul(tc, z).Quo(tc, bf().SetInt64(-(2*i-1)*(2*i)))
		s.Add(s, ts)
		c.Add(c, tc)
	}
	return s.Quo(s, c)
}

// solveBig solves the square system a x = y by Gaussian elimination with
// partial pivoting (a and y are overwritten).
func solveBig(a [][]*big.Float, y []*big.Float) []*big.Float {
	n := len(y)
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if new(big.Float).Abs(a[r][c]).Cmp(new(big.Float).Abs(a[piv][c])) > 0 {
				piv = r
			}
		}
		a[c], a[piv], y[c], y[piv] = a[piv], a[c], y[piv], y[c]
		for r := c + 1; r < n; r++ {
			f := new(big.Float).SetPrec(a[r][c].Prec()).Quo(a[r][c], a[c][c])
			for j := c; j < n; j++ {
				a[r][j].Sub(a[r][j], new(big.Float).SetPrec(f.Prec()).Mul(f, a[c][j]))
			}
			y[r].Sub(y[r], new(big.Float).SetPrec(f.Prec()).Mul(f, y[c]))
		}
	}
	x := make([]*big.Float, n)
	for r := n - 1; r >= 0; r-- {
		v := new(big.Float).SetPrec(y[r].Prec()).Set(y[r])
		for j := r + 1; j < n; j++ {
			v.Sub(v, new(big.Float).SetPrec(v.Prec()).Mul(a[r][j], x[j]))
		}
		x[r] = v.Quo(v, a[r][r])
	}
	return x
}

// fitRat is the rational function (1 + z P(z)) / (1 + z Q(z)), P of
// degree m-1 and Q of degree n-1, of least relative error to f on [0, zmax]
// by Remez's exchange: at m+n+1 nodes the relative error equioscillates
// with a level E (the system in P, Q and E made linear by taking the
// weight f D at E from the previous solution); the nodes move to the
// extrema of the error on a grid. It returns P, Q and the largest
// relative error on the grid.
func fitRat(f func(*big.Float) *big.Float, zmax float64, m, n int) (P, Q []float64, worst float64) {
	const prec, grid = 200, 3000
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	k := m + n + 1
	zs, fs := make([]float64, grid+1), make([]*big.Float, grid+1)
	for i := range zs {
		zs[i] = zmax * float64(i) / grid
		fs[i] = f(bf(zs[i]))
	}
	// nodes: grid indices, Chebyshev points of (0, zmax] to begin
	nodes := make([]int, k)
	for i := range nodes {
		nodes[i] = max(1, int(math.Round(grid*(1-math.Cos(math.Pi*(float64(i)+0.5)/float64(k)))/2)))
	}
	// P and Q (coefficients from z^0); horn(c, z) is 1 + z c(z)
	var a, b []*big.Float
	horn := func(c []*big.Float, z *big.Float) *big.Float {
		v := bf(0)
		for i := len(c) - 1; i >= 0; i-- {
			v.Mul(v, z).Add(v, c[i])
		}
		return v.Mul(v, z).Add(v, bf(1))
	}
	relErr := func(i int) float64 {
		z := bf(zs[i])
		r := new(big.Float).SetPrec(prec).Quo(horn(a, z), horn(b, z))
		r.Quo(r, fs[i]).Sub(r, bf(1))
		v, _ := r.Float64()
		return v
	}
	for it := 0; it < 12; it++ {
		dprev := make([]*big.Float, k)
		for i := range dprev {
			dprev[i] = bf(1)
		}
		for inner := 0; inner < 4; inner++ {
			// sum_j a_j z^(j+1) - f sum_j b_j z^(j+1) - s_i f Dprev E = f - 1
			mat, y := make([][]*big.Float, k), make([]*big.Float, k)
			for i, ni := range nodes {
				z, fz := bf(zs[ni]), fs[ni]
				row := make([]*big.Float, k)
				pw := bf(1)
				for j := 0; j < max(m, n); j++ {
					pw = new(big.Float).SetPrec(prec).Mul(pw, z)
					if j < m {
						row[j] = new(big.Float).SetPrec(prec).Set(pw)
					}
					if j < n {
						row[m+j] = new(big.Float).SetPrec(prec).Mul(pw, fz)
						row[m+j].Neg(row[m+j])
					}
				}
				row[k-1] = new(big.Float).SetPrec(prec).Mul(fz, dprev[i])
				if i%2 == 1 {
					row[k-1].Neg(row[k-1])
				}
				row[k-1].Neg(row[k-1])
				mat[i], y[i] = row, new(big.Float).SetPrec(prec).Sub(fz, bf(1))
			}
			x := solveBig(mat, y)
			a, b = x[:m], x[m:m+n]
			for i, ni := range nodes {
				dprev[i] = horn(b, bf(zs[ni]))
			}
		}
		// the extremum of each run of one sign of the error
		type run struct {
			at  int
			val float64
		}
		var runs []run
		worst = 0
		for i := 1; i <= grid; i++ {
			e := relErr(i)
			worst = max(worst, math.Abs(e))
			if len(runs) == 0 || (e > 0) != (runs[len(runs)-1].val > 0) {
				runs = append(runs, run{i, e})
			} else if math.Abs(e) > math.Abs(runs[len(runs)-1].val) {
				runs[len(runs)-1] = run{i, e}
			}
		}
		if len(runs) < k {
			log.Fatalf("fitRat: %d sign changes, want %d", len(runs), k)
		}
		best, from := -1.0, 0 // the k consecutive runs of the largest least extremum
		for st := 0; st+k <= len(runs); st++ {
			lo := math.Inf(1)
			for _, r := range runs[st : st+k] {
				lo = min(lo, math.Abs(r.val))
			}
			if lo > best {
				best, from = lo, st
			}
		}
		for i := range nodes {
			nodes[i] = runs[from+i].at
		}
	}
	P, Q = make([]float64, m), make([]float64, n)
	for i := range P {
		P[i], _ = a[i].Float64()
	}
	for i := range Q {
		Q[i], _ = b[i].Float64()
	}
	return P, Q, worst
}

// fitTan fits the tan kernel's rational function and checks it, with its
// float64 coefficients evaluated by FMA as the kernel does, against
// math.Tan.
func fitTan(pi *big.Float) {
	h := new(big.Float).SetPrec(200).Quo(pi, new(big.Float).SetFloat64(2))
	pio2Hi, _ = h.Float64()
	pio2Lo, _ = new(big.Float).SetPrec(200).Sub(h, new(big.Float).SetFloat64(pio2Hi)).Float64()
	zmax := math.Pow(math.Pi/4*1.001, 2)
	var fitErr float64
	tanP, tanQ, fitErr = fitRat(func(z *big.Float) *big.Float { return tanRatF(z, 200) }, zmax, tanNumDeg, tanDenDeg)
	ev := func(c []float64, z float64) float64 {
		v := 0.0
		for i := len(c) - 1; i >= 0; i-- {
			v = math.FMA(v, z, c[i])
		}
		return v
	}
	w := 0.0
	for i := 1; i <= 200000; i++ {
		r := math.Pi / 4 * 1.001 * float64(i) / 200000
		z := r * r
		num := math.FMA(r*z, ev(tanP, z), r)
		den := math.FMA(z, ev(tanQ, z), 1)
		w = max(w, math.Abs(num/den-math.Tan(r))/math.Tan(r))
	}
	log.Printf("tan: rational of degrees %d/%d in z, error 2^%.1f (fit), 2^%.1f (float64 against math.Tan)", tanNumDeg, tanDenDeg, math.Log2(fitErr), math.Log2(w))
	if w > 0x1p-44 {
		log.Fatal("tan: rational function not accurate enough")
	}
}

// expD are the coefficients of e^r on |r| <= ln2/2 (degree expDegT, for
// the tanh kernel).
const expDegT = 6

var expCT []float64

// tanh2Body is tanh of the 8 lanes at off(SI)(R8*4) on the eight registers
// Y[b]..Y[b+7], result in Y[b+4]: a = |x|; a < 0.625: a + a z T(z), z =
// a^2; else 1 - 2/(e^(2a) + 1) with e^(2a) = 2^k p(r), 2a = k ln2 + r
// (a clamped to 9, where tanh rounds to 1); x's sign ORed on; NaN: x.
func tanh2Body(b int, off string) {
	Y := func(i int) string { return fmt.Sprintf("Y%d", b+i) }
	p("VMOVUPS %s, %s", off, Y(0))
	p("VANDPS %s, %s, %s", kb(absBits), Y(0), Y(1)) // a
	p("VMINPS %s, %s, %s", k(9), Y(1), Y(2))
	p("VADDPS %s, %s, %s", Y(2), Y(2), Y(2)) // 2a
	p("VMULPS %s, %s, %s", k(float32(math.Log2E)), Y(2), Y(3))
	p("VROUNDPS $8, %s, %s", Y(3), Y(3))               // k
	p("VFNMADD231PS %s, %s, %s", k(ln2Hi), Y(3), Y(2)) // exact
	p("VFNMADD231PS %s, %s, %s", k(ln2Lo), Y(3), Y(2)) // r
	p("VMOVUPS %s, %s", k(float32(expCT[len(expCT)-1])), Y(4))
	p("VMULPS %s, %s, %s", Y(1), Y(1), Y(5)) // z
	p("VMOVUPS %s, %s", k(float32(tanhC[len(tanhC)-1])), Y(6))
	for i := len(expCT) - 2; i >= 0; i-- {
		p("VFMADD213PS %s, %s, %s", k(float32(expCT[i])), Y(2), Y(4))
		if j := i - (len(expCT) - len(tanhC)); j >= 0 {
			p("VFMADD213PS %s, %s, %s", k(float32(tanhC[j])), Y(5), Y(6))
		}
	}
	p("VCVTPS2DQ %s, %s", Y(3), Y(3))
	p("VPSLLD $23, %s, %s", Y(3), Y(3))
	p("VPADDD %s, %s, %s", Y(3), Y(4), Y(4)) // e^(2a)
	p("VADDPS %s, %s, %s", k(1), Y(4), Y(4))
	p("VMOVUPS %s, %s", k(2), Y(7))
	p("VDIVPS %s, %s, %s", Y(4), Y(7), Y(4)) // 2/(e^(2a) + 1)
	p("VMOVUPS %s, %s", k(1), Y(7))
	p("VSUBPS %s, %s, %s", Y(4), Y(7), Y(4)) // large a
	p("VMULPS %s, %s, %s", Y(5), Y(6), Y(6))
	p("VFMADD213PS %s, %s, %s", Y(1), Y(1), Y(6)) // small a
	p("VCMPPS $0x%02x, %s, %s, %s", cmpLT, k(0.625), Y(1), Y(7))
	p("VBLENDVPS %s, %s, %s, %s", Y(7), Y(6), Y(4), Y(4))
	p("VCMPPS $0x%02x, %s, %s, %s", cmpUNORD, Y(0), Y(0), Y(7))
	p("VANDPS %s, %s, %s", kb(signBits), Y(0), Y(0))
	p("VORPS %s, %s, %s", Y(0), Y(4), Y(4))
	p("VBLENDVPS %s, %s, %s, %s", Y(7), off, Y(4), Y(4)) // NaN: x
}

// emitTanh writes tanhF32T8 (nt: tanhF32T8NT, streaming stores to a
// 32-byte aligned dst) for n a multiple of 8: 16 lanes a step as two
// interleaved tanh2Body, then 8.
func emitTanh(nt bool) {
	name := "tanhF32T8"
	st := "VMOVUPS"
	if nt {
		name += "NT"
		st = "VMOVNTPS"
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(dst, x unsafe.Pointer, n int)\n\n", name)
	fmt.Fprintf(&asm, "// func %s(dst, x unsafe.Pointer, n int)\nTEXT ·%s(SB), NOSPLIT, $0-24\n", name, name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("XORQ R8, R8")
	label("loop2")
	p("LEAQ 16(R8), AX")
	p("CMPQ AX, CX")
	p("JGT loop1")
	dual(func() { tanh2Body(0, "(SI)(R8*4)") }, func() { tanh2Body(8, "32(SI)(R8*4)") })
	p("%s Y4, (DI)(R8*4)", st)
	p("%s Y12, 32(DI)(R8*4)", st)
	p("ADDQ $16, R8")
	p("JMP loop2")
	label("loop1")
	p("CMPQ R8, CX")
	p("JGE done")
	tanh2Body(0, "(SI)(R8*4)")
	p("%s Y4, (DI)(R8*4)", st)
	p("ADDQ $8, R8")
	p("JMP loop1")
	label("done")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// hypotHalf is sqrt(x^2 + y^2) in float64 of the 4 lanes at off(SI) and
// off(DX) (x^2 and y^2 exact, one rounding in the sum and one in the
// root, then one to float32), on Y[b], Y[b+1]; the result in X[b].
func hypotHalf(b, off int) {
	p("VCVTPS2PD %d(SI)(R8*4), Y%d", off, b)
	p("VCVTPS2PD %d(DX)(R8*4), Y%d", off, b+1)
	p("VMULPD Y%d, Y%d, Y%d", b, b, b)
	p("VFMADD231PD Y%d, Y%d, Y%d", b+1, b+1, b)
	p("VSQRTPD Y%d, Y%d", b, b)
	p("VCVTPD2PSY Y%d, X%d", b, b)
}

// emitHypot writes hypotF32D8 (nt: hypotF32D8NT) for n a multiple of 8:
// two interleaved hypotHalf, and +Inf where either operand is infinite
// (also beside a NaN, as C99 and NumPy have it).
func emitHypot(nt bool) {
	name := "hypotF32D8"
	st := "VMOVUPS"
	if nt {
		name += "NT"
		st = "VMOVNTPS"
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(dst, x, y unsafe.Pointer, n int)\n\n", name)
	fmt.Fprintf(&asm, "// func %s(dst, x, y unsafe.Pointer, n int)\nTEXT ·%s(SB), NOSPLIT, $0-32\n", name, name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ y+16(FP), DX")
	p("MOVQ n+24(FP), CX")
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
	dual(func() { hypotHalf(0, 0) }, func() { hypotHalf(2, 16) })
	p("VINSERTF128 $1, X2, Y0, Y0")
	inf := k(float32(math.Inf(1)))
	p("VMOVUPS (SI)(R8*4), Y4")
	p("VMOVUPS (DX)(R8*4), Y5")
	p("VANDPS %s, Y4, Y4", kb(absBits))
	p("VANDPS %s, Y5, Y5", kb(absBits))
	p("VCMPPS $0x%02x, %s, Y4, Y4", cmpEQ, inf)
	p("VCMPPS $0x%02x, %s, Y5, Y5", cmpEQ, inf)
	p("VORPS Y5, Y4, Y4")
	p("VBLENDVPS Y4, %s, Y0, Y0", inf)
	p("%s Y0, (DI)(R8*4)", st)
	p("ADDQ $8, R8")
	p("JMP loop")
	label("done")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

func main() {
	pi := bigPi()
	piHi, piLo = split32(pi)
	fitTan(pi)
	pi2Hi, pi2Lo = split32(new(big.Float).SetPrec(200).Quo(pi, new(big.Float).SetFloat64(2)))
	atanC = fit(atanP, 0, 1, atanDeg)
	worst := 0.0
	for i := 0; i <= 100000; i++ {
		t := float64(i) / 100000
		z := t * t
		got := t + t*z*eval(atanC, z)
		if t > 0 {
			worst = max(worst, math.Abs(got-math.Atan(t))/math.Atan(t))
		}
	}
	log.Printf("atan: degree %d in z, max relative error %.3g (2^%.1f)", atanDeg, worst, math.Log2(worst))

	ln2 := new(big.Float).SetPrec(200).Mul(new(big.Float).SetFloat64(2), atanhInv3())
	ln2Hi, ln2Lo = split32(ln2)
	expC = fit(expQ, -0.35, 0.35, expDeg)
	worst = 0
	for i := -100000; i <= 100000; i++ {
		r := 0.35 * float64(i) / 100000
		got := r + r*r*(0.5+r*eval(expC, r))
		if r != 0 {
			worst = max(worst, math.Abs(got-math.Expm1(r))/math.Abs(math.Expm1(r)))
		}
	}
	{
		l2, _ := ln2.Float64()
		hi := math.Float64frombits(math.Float64bits(l2) &^ (1<<(52-15) - 1)) // 16 bits
		ln2Hi16 = float32(hi)
		lo, _ := new(big.Float).SetPrec(200).Sub(ln2, new(big.Float).SetFloat64(hi)).Float32()
		ln2Lo16 = lo
	}
	logC = fit(logP, math.Sqrt(0.5)-1, math.Sqrt2-1, logDeg)
	worstL := 0.0
	for i := 0; i <= 100000; i++ {
		f := math.Sqrt(0.5) - 1 + (math.Sqrt2-math.Sqrt(0.5))*float64(i)/100000
		got := f + f*f*(-0.5+f*eval(logC, f))
		if f != 0 {
			worstL = max(worstL, math.Abs(got-math.Log1p(f))/math.Abs(math.Log1p(f)))
		}
	}
	log.Printf("log1p: degree %d, max relative error %.3g (2^%.1f)", logDeg, worstL, math.Log2(worstL))
	asinC = fit(asinP, 0, 0.25, asinDeg)
	worstA := 0.0
	for i := 1; i <= 100000; i++ {
		z := 0.25 * float64(i) / 100000
		w := math.Sqrt(z)
		got := w + w*z*eval(asinC, z)
		worstA = max(worstA, math.Abs(got-math.Asin(w))/math.Asin(w))
	}
	log.Printf("arcsin: degree %d, max relative error %.3g (2^%.1f)", asinDeg, worstA, math.Log2(worstA))
	tanhC = fit(tanhT, 0, 0.625*0.625, tanhDeg)
	worstT := 0.0
	for i := 1; i <= 100000; i++ {
		x := 0.625 * float64(i) / 100000
		z := x * x
		got := x + x*z*eval(tanhC, z)
		worstT = max(worstT, math.Abs(got-math.Tanh(x))/math.Tanh(x))
	}
	log.Printf("tanh: degree %d, max relative error %.3g (2^%.1f)", tanhDeg, worstT, math.Log2(worstT))
	expCT = fit(math.Exp, -math.Ln2/2, math.Ln2/2, expDegT)
	worstE := 0.0
	for i := -100000; i <= 100000; i++ {
		r := math.Ln2 / 2 * float64(i) / 100000
		worstE = max(worstE, math.Abs(eval(expCT, r)-math.Exp(r))/math.Exp(r))
	}
	log.Printf("tanh's exp: degree %d, max relative error %.3g (2^%.1f)", expDegT, worstE, math.Log2(worstE))
	log.Printf("expm1: degree %d, max relative error %.3g (2^%.1f)", expDeg, worst, math.Log2(worst))

	asm.WriteString("// Code generated by vmath32gen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\n#include \"textflag.h\"\n\n")
	unary := []struct {
		name string
		body func()
	}{
		{"expm1F32", expm1Body}, {"log1pF32", log1pBody}, {"asinF32", asinBody}, {"pow25F32", pow25Body},
		{"tanhF32", tanhBody}, {"atanF32", func() { atanBody(true) }},
	}
	for _, w := range []int{8, 16} {
		W = w
		suf := "V8"
		if w == 16 {
			suf = "V16"
		}
		// the streaming forms (VMOVNTPS to a dst aligned to the vector,
		// 32 or 64 bytes) serve outputs far larger than the cache; in
		// AVX-512 the arithmetic, not the memory, sets their speed (16Mi
		// arctan on Zen 5: 12.1 ms with 8 lanes, NumPy's 5.0)
		for _, nt := range []bool{false, true} {
			sfx, store := suf, func() { mov("(DI)(R8*4)", R(0)) }
			if nt {
				sfx, store = suf+"NT", func() { p("VMOVNTPS %s, (DI)(R8*4)", R(0)) }
			}
			head("atan2F32"+sfx, true)
			mov(R(0), "(SI)(R8*4)")
			mov(R(1), "(DX)(R8*4)")
			atanBody(false)
			store()
			tail()
			for _, u := range unary {
				head(u.name+sfx, false)
				mov(R(0), "(SI)(R8*4)")
				u.body()
				store()
				tail()
			}
		}
	}
	emitTan(false)
	emitTan(true)
	emitTan16(false)
	emitTan16(true)
	emitTanh(false)
	emitTanh(true)
	emitHypot(false)
	emitHypot(true)
	for i, c := range consts {
		for j := 0; j < 16; j++ {
			fmt.Fprintf(&asm, "DATA v32<>+%d(SB)/4, $0x%08x\n", 64*i+4*j, c)
		}
	}
	fmt.Fprintf(&asm, "GLOBL v32<>(SB), RODATA|NOPTR, $%d\n", 64*len(consts))
	for i, c := range consts64 {
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&asm, "DATA v64<>+%d(SB)/8, $0x%016x\n", 32*i+8*j, c)
		}
	}
	fmt.Fprintf(&asm, "GLOBL v64<>(SB), RODATA|NOPTR, $%d\n", 32*len(consts64))
	if err := os.WriteFile("vmath32_amd64.s", asm.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	var g bytes.Buffer
	g.WriteString("// Code generated by vmath32gen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\npackage compute\n\nimport \"unsafe\"\n\n")
	g.Write(decl.Bytes())
	src, err := format.Source(g.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("vmath32_kernels_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
