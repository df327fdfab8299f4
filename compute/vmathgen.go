//go:build ignore

// vmathgen.go writes vmath_amd64.s and vmath_kernels_amd64.go: AVX2+FMA
// float64 transcendental kernels (sin, cos, log) and the power of a vector
// to a scalar exponent (float32 and float64). Like asmgen.go's math
// routines, each works on whole vectors of arguments in its fast range and
// stops at the first vector with another argument, returning how many
// elements it did; the Go wrapper computes that vector with the Go loop.
// The float64 routines also come in an AVX-512 form of 8 lanes (Z8),
// translated from the AVX2 text line by line (z8Kernel, at the end of
// this file), so that both give the same bits; log and log1p instead
// have AVX-512 kernels of their own (logZKernel, after it).
// Run with `go generate ./compute`.
//
// The algorithms (all constants derived here, none taken from a library):
//
//   - sin, cos: k = round(x*2/pi) by adding 1.5*2^52, r = x - k*pi/2 with
//     pi/2 in three float64 parts (the first product is exact with FMA for
//     |x| < 2^22, the others carry the rounding), then the Taylor series of
//     sine (to r^17) or cosine (to r^16) on |r| <= pi/4, chosen and signed
//     by k mod 4. Beyond 2^22 in magnitude, NaN and infinities: the Go loop.
//   - log: x = 2^e * m with m in [sqrt(1/2), sqrt(2)), f = m - 1,
//     s = f/(2+f) (corrected for the rounding of the quotient and of 2+f),
//     log(m) = 2 atanh(s) by its series to s^21 (|s| < 0.1716: truncation
//     below 2^-60), plus e*ln2 in two parts. Normal positive finite x only.
//   - power x**y (y a float64 scalar, x positive normal): log(x) as above in
//     double-double, times y in double-double, exp of that by
//     x = k*ln2 + r, e^r by its Taylor series to r^13, scaled by 2^k
//     (|y log x| <= 708). float32 is computed in float64 and rounded once.
//     x**3 in float64: x*x in double-double times x, one rounding; in
//     float32: the product in float64, rounded once.
//   - tan (float64): the reduction of sin and cos, sin(r)/cos(r) or
//     -cos(r)/sin(r) for odd k.
//   - arctan, arcsin, arctan2 (float64): after their reductions, the
//     polynomials atanQ (degree 10 in u^2, |u| <= tan(pi/8)) and asinP
//     (degree 13 in w^2, w <= 1/2), interpolating the series at the
//     Chebyshev nodes (fits, in math/big; each checked within 2^-56 of
//     the series relative to u or w, float64 evaluation included). The
//     float32 routines keep their Taylor series.
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

func p(format string, args ...any) { fmt.Fprintf(cur, "\t"+format+"\n", args...) }

// cur is where p writes: asm, or a capture's buffer.
var cur = &asm

// capture returns the lines f writes with p.
func capture(f func()) []string {
	saved := cur
	var b bytes.Buffer
	cur = &b
	f()
	cur = saved
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

var lowRegs = regexp.MustCompile(`\b([XY])([0-7])\b`)

// second renames Y0-Y7 (and X0-X7) of a line to Y8-Y15.
func second(line string) string {
	return lowRegs.ReplaceAllStringFunc(line, func(r string) string { return fmt.Sprintf("%c%d", r[0], r[1]-'0'+8) })
}

// ntStore makes store emit non-temporal stores (the NT variants, whose
// dst the Go wrapper aligns to 32 bytes).
var ntStore bool

// store writes the float64 vector reg to dst at element R8.
func store(reg string) {
	if ntStore {
		p("VMOVNTPD %s, (DI)(R8*8)", reg)
		return
	}
	p("VMOVUPD %s, (DI)(R8*8)", reg)
}

// variants calls f for the plain kernel (suffix "") and the one with
// non-temporal stores (suffix "NT").
func variants(f func(nt string)) {
	f("")
	ntStore = true
	f("NT")
	ntStore = false
}
func label(l string) { fmt.Fprintf(&asm, "%s:\n", l) }

// f64 lane constants (4 lanes of 8 bytes) in vmd<>.
var consts []uint64

func kb(bits uint64) string {
	for i, c := range consts {
		if c == bits {
			return fmt.Sprintf("vmd<>+%d(SB)", 32*i)
		}
	}
	consts = append(consts, bits)
	return fmt.Sprintf("vmd<>+%d(SB)", 32*(len(consts)-1))
}

func k(v float64) string { return kb(math.Float64bits(v)) }

const prec = 400

func bf(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }

// atanhInv is atanh(1/m) = sum 1/((2k+1) m^(2k+1)).
func atanhInv(m int64) *big.Float {
	sum := new(big.Float).SetPrec(prec)
	pow := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(m)))
	m2 := bf(float64(m * m))
	for k := int64(0); k < 400; k++ {
		sum.Add(sum, new(big.Float).SetPrec(prec).Quo(pow, bf(float64(2*k+1))))
		pow.Quo(pow, m2)
	}
	return sum
}

// bigPi is pi by Machin's formula, 16 atan(1/5) - 4 atan(1/239).
func bigPi() *big.Float {
	atanInv := func(m int64) *big.Float {
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(m)))
		m2 := bf(float64(m * m))
		for k := int64(0); k < 400; k++ {
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

// split returns v as n float64 parts, each the rounding of the rest.
func split(v *big.Float, n int) []float64 {
	rest := new(big.Float).SetPrec(prec).Set(v)
	var out []float64
	for i := 0; i < n; i++ {
		f, _ := rest.Float64()
		out = append(out, f)
		rest.Sub(rest, bf(f))
	}
	return out
}

func fact(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}

func head(name, sig string, frame int) {
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(%s) int\n\n", name, sig)
	fmt.Fprintf(&asm, "// func %s(%s) int\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", name, sig, name, frame)
}

// input is an operand of a kernel: the register holding its pointer, the
// vector register it is loaded into, and the value the lanes past n take
// in the last, partial block (one inside the kernel's range).
type input struct {
	ptr, reg string
	benign   float64
}

var unaryArgs = []string{"MOVQ dst+0(FP), DI", "MOVQ x+8(FP), SI", "MOVQ n+16(FP), CX"}

// kernel emits a float64 routine over blocks of 4: the operands ins are
// loaded, check jumps to done unless every lane is in the routine's range,
// body leaves the result in out. The last n%4 elements are a block loaded
// and stored under a mask (its other lanes hold each input's benign value).
// It returns how many elements it did: n, or the start of the first block
// it left (the Go wrapper does that block element by element, each
// element by this routine with n = 1 where it is in range).
func kernel(name, sig string, frame int, args []string, ins []input, check, body func(), out string) {
	head(name, sig, frame)
	for _, a := range args {
		p("%s", a)
	}
	p("XORQ R8, R8")
	p("MOVQ CX, R9")
	p("ANDQ $-4, R9")
	label("loop")
	p("CMPQ R8, R9")
	p("JGE tail")
	for _, in := range ins {
		p("VMOVUPD (%s)(R8*8), %s", in.ptr, in.reg)
	}
	check()
	body()
	store(out)
	p("ADDQ $4, R8")
	p("JMP loop")
	label("tail")
	p("MOVQ CX, R10")
	p("SUBQ R8, R10")
	p("JE done")
	p("SHLQ $5, R10")
	p("LEAQ vmtail<>(SB), R11")
	for _, in := range ins {
		p("VMOVDQU (R11)(R10*1), Y1")
		p("VMASKMOVPD (%s)(R8*8), Y1, %s", in.ptr, in.reg)
		p("VMOVUPD %s, Y2", k(in.benign))
		p("VBLENDVPD Y1, %s, Y2, %s", in.reg, in.reg)
	}
	check()
	body()
	m := "Y1"
	if out == m {
		m = "Y2"
	}
	p("VMOVDQU (R11)(R10*1), %s", m)
	p("VMASKMOVPD %s, %s, (DI)(R8*8)", out, m)
	p("MOVQ CX, R8")
	label("done")
	p("MOVQ R8, ret+%d(FP)", frame-8)
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// kernel2 is kernel for a routine whose check (leaving its mask in the
// register it returns) and body use only Y0-Y6 and do not jump: it does
// two blocks at a time, their instructions interleaved (the second block's
// in Y8-Y14), so that the core overlaps two chains of dependent
// operations, and each constant is loaded once for both (into Y15); a pair
// with an argument out of range goes through the loop of one block, which
// stops at the block with it.
func kernel2(name, sig string, frame int, args []string, ins []input, check func() string, body func(), out string) {
	head(name, sig, frame)
	for _, a := range args {
		p("%s", a)
	}
	p("XORQ R8, R8")
	p("MOVQ CX, R9")
	p("ANDQ $-4, R9")
	var mask string
	a := capture(func() { mask = check() })
	bd := capture(body)
	label("pair")
	p("LEAQ 8(R8), R10")
	p("CMPQ R10, R9")
	p("JGT one")
	for _, in := range ins {
		p("VMOVUPD (%s)(R8*8), %s", in.ptr, in.reg)
		p("VMOVUPD 32(%s)(R8*8), %s", in.ptr, second(in.reg))
	}
	for _, l := range a {
		interleave(l)
	}
	p("VANDPD %s, %s, %s", second(mask), mask, mask)
	p("VMOVMSKPD %s, AX", mask)
	p("CMPL AX, $0xf")
	p("JNE one")
	for _, l := range bd {
		interleave(l)
	}
	store(out)
	p("ADDQ $4, R8")
	store(second(out))
	p("ADDQ $4, R8")
	p("JMP pair")
	label("one")
	p("CMPQ R8, R9")
	p("JGE tail")
	for _, in := range ins {
		p("VMOVUPD (%s)(R8*8), %s", in.ptr, in.reg)
	}
	jmpUnless(check())
	body()
	store(out)
	p("ADDQ $4, R8")
	p("JMP pair")
	label("tail")
	p("MOVQ CX, R10")
	p("SUBQ R8, R10")
	p("JE done")
	p("SHLQ $5, R10")
	p("LEAQ vmtail<>(SB), R11")
	for _, in := range ins {
		p("VMOVDQU (R11)(R10*1), Y8")
		p("VMASKMOVPD (%s)(R8*8), Y8, %s", in.ptr, in.reg)
		p("VMOVUPD %s, Y9", k(in.benign))
		p("VBLENDVPD Y8, %s, Y9, %s", in.reg, in.reg)
	}
	jmpUnless(check())
	body()
	p("VMOVDQU (R11)(R10*1), Y8")
	p("VMASKMOVPD %s, Y8, (DI)(R8*8)", out)
	p("MOVQ CX, R8")
	label("done")
	p("MOVQ R8, ret+%d(FP)", frame-8)
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

var constRef = regexp.MustCompile(`vmd<>\+[0-9]+\(SB\)`)

// interleave writes line l of the first block and its copy for the
// second; a constant operand is loaded into Y15 once for both.
func interleave(l string) {
	b := second(l)
	if c := constRef.FindString(l); c != "" {
		p("VMOVUPD %s, Y15", c)
		if strings.HasPrefix(strings.TrimSpace(l), "VMOVUPD "+c+",") || strings.HasPrefix(strings.TrimSpace(l), "VMOVDQU "+c+",") {
			l = strings.Replace(strings.Replace(l, "VMOVDQU", "VMOVAPD", 1), "VMOVUPD", "VMOVAPD", 1)
			b = strings.Replace(strings.Replace(b, "VMOVDQU", "VMOVAPD", 1), "VMOVUPD", "VMOVAPD", 1)
		}
		l, b = strings.Replace(l, c, "Y15", 1), strings.Replace(b, c, "Y15", 1)
	}
	if strings.Contains(l, "Y7") || strings.Contains(l, "X7") {
		log.Fatalf("kernel2 body uses Y7: %s", l)
	}
	asm.WriteString(l + "\n" + b + "\n")
}

// trig emits sin (quadrant 0) or cos (quadrant 1) of float64 for |x| <=
// 2^22 (and, for sin, |x| >= 2^-26: below, sin x rounds to x, which the
// Go loop returns, zeros' signs included).
func trig(name string, quadrant int) {
	kernel2(name, "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, func() string {
		p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
		p("VCMPPD $0x12, %s, Y1, Y2", k(1<<22))
		if quadrant == 0 {
			p("VCMPPD $0x1d, %s, Y1, Y1", k(0x1p-26))
			p("VANDPD Y1, Y2, Y2")
		}
		return "Y2"
	}, func() { trigBody(quadrant) }, "Y2")
}

// trigBody: Y0 = x (|x| <= 2^22) -> Y2 = sin x or cos x; uses Y0-Y6.
func trigBody(quadrant int) {
	hp := split(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(2)), 3)
	twoByPi, _ := new(big.Float).SetPrec(prec).Quo(bf(2), bigPi()).Float64()
	p("VMOVUPD %s, Y1", k(0x1.8p52))
	p("VFMADD231PD %s, Y0, Y1", k(twoByPi)) // Y1 = x*2/pi + 1.5*2^52: k in the low bits
	p("VSUBPD %s, Y1, Y3", k(0x1.8p52))     // k
	p("VFNMADD231PD %s, Y3, Y0", k(hp[0]))
	p("VFNMADD231PD %s, Y3, Y0", k(hp[1]))
	p("VFNMADD231PD %s, Y3, Y0", k(hp[2])) // Y0 = r
	if quadrant != 0 {
		p("VPADDQ %s, Y1, Y1", kb(1))
	}
	p("VMULPD Y0, Y0, Y5") // z
	sinCosPolysIn("Y6", "Y4", "Y3")
	// k odd: the cosine; k & 2: negated
	p("VPSLLQ $63, Y1, Y2")
	p("VBLENDVPD Y2, Y4, Y6, Y2")
	p("VPSRLQ $1, Y1, Y3")
	p("VPSLLQ $63, Y3, Y3")
	p("VXORPD Y3, Y2, Y2")
}

var ln2hi, ln2lo float64

func ln2Parts() {
	ln2 := new(big.Float).SetPrec(prec).Mul(bf(2), atanhInv(3))
	// ln2hi with its low 21 bits zero: k*ln2hi is exact for |k| < 2^21
	f, _ := ln2.Float64()
	ln2hi = math.Float64frombits(math.Float64bits(f) &^ (1<<21 - 1))
	ln2lo, _ = new(big.Float).SetPrec(prec).Sub(ln2, bf(ln2hi)).Float64()
}

// logBody: Y0 = x (positive normal) -> Y10 + Y11 = log(x) (Y10 the
// rounded sum, Y11 its low part when dd; else Y10 is log x rounded).
// Uses Y1-Y11.
// logDelta: log1p's log(u), u = 1 + x rounded, whose f falls short of the
// true m - 1 by c 2^-e (c = x - (u - 1) in Y15): s is corrected to first
// order (exact when f = 0).
var logDelta bool

func logBody(dd bool) {
	p("VPADDQ %s, Y0, Y1", kb(0x3ff0000000000000-0x3fe6a09e667f3bcd))
	p("VPSRLQ $52, Y1, Y2") // e + 1023
	if logDelta {           // Y15 = c*2^-e
		p("VMOVDQU %s, Y12", kb(2046))
		p("VPSUBQ Y2, Y12, Y12")
		p("VPSLLQ $52, Y12, Y12")
		p("VMULPD Y12, Y15, Y15")
	}
	p("VPSLLQ $52, Y2, Y3")
	p("VPSUBQ Y3, Y0, Y3")
	p("VPADDQ %s, Y3, Y3", kb(0x3ff0000000000000)) // m
	p("VPOR %s, Y2, Y2", kb(0x4330000000000000))
	p("VSUBPD %s, Y2, Y2", k(0x1p52+1023)) // e
	p("VSUBPD %s, Y3, Y4", k(1))           // f = m - 1, exact
	p("VADDPD %s, Y4, Y5", k(2))           // d = 2 + f, rounded
	p("VDIVPD Y5, Y4, Y6")                 // s = f/d
	// corr = -(s*d - f + s*dl)/d, dl = f - (d - 2); 1/d ~ 1/2 - f/4 + f^2/8
	p("VSUBPD %s, Y5, Y7", k(2))
	p("VSUBPD Y7, Y4, Y7") // dl
	p("VMULPD Y6, Y7, Y7") // s*dl
	p("VMOVAPD Y4, Y8")
	p("VFMSUB231PD Y6, Y5, Y8") // s*d - f (exact)
	p("VADDPD Y7, Y8, Y8")      // rho
	if logDelta {               // f is short of the true one by Y15: rho -= Y15 (1 - s)
		p("VSUBPD Y15, Y8, Y8")
		p("VFMADD231PD Y15, Y6, Y8")
	}
	p("VMOVUPD %s, Y9", k(0.125))
	p("VFMADD213PD %s, Y4, Y9", k(-0.25))
	p("VFMADD213PD %s, Y4, Y9", k(0.5))
	p("VMULPD Y9, Y8, Y8") // rho/d; corr = -Y8
	if dd {
		logTailDD()
		return
	}
	// 2s * z * P(z), P = sum_{i=1..10} z^(i-1)/(2i+1)
	p("VMULPD Y6, Y6, Y7") // z
	p("VMOVUPD %s, Y9", k(1.0/21))
	for i := 9; i >= 1; i-- {
		p("VFMADD213PD %s, Y7, Y9", k(1/float64(2*i+1)))
	}
	p("VADDPD Y6, Y6, Y6") // 2s
	p("VMULPD Y6, Y7, Y7") // 2s z
	p("VMULPD Y7, Y9, Y9") // 2s z P
	// small = 2szP - 2 corr + e*ln2lo
	p("VADDPD Y8, Y8, Y8")
	p("VSUBPD Y8, Y9, Y9")
	p("VFMADD231PD %s, Y2, Y9", k(ln2lo))
	p("VMULPD %s, Y2, Y2", k(ln2hi)) // e*ln2hi, exact
	p("VADDPD Y9, Y6, Y6")
	p("VADDPD Y6, Y2, Y10")
}

// logTailDD ends logBody in double-double (for power, where y log x can
// reach 709 and its error must stay near 2^-53 absolute): the leading
// term of the series, 2s^3/3, in double-double, and the sum e ln2hi + 2s
// + 2s^3/3 + rest by two Fast2Sums; Y6 = s, Y8 = corr (s - corr is
// f/(2+f)), Y2 = e. Result Y10 + Y11; uses Y1-Y14.
func logTailDD() {
	p("VMULPD Y6, Y6, Y7") // z
	p("VMOVAPD Y7, Y12")
	p("VFMSUB231PD Y6, Y6, Y12") // zl = s*s - z
	// P = 1/3 + z q2
	p("VMOVUPD %s, Y9", k(1.0/21))
	for i := 9; i >= 2; i-- {
		p("VFMADD213PD %s, Y7, Y9", k(1/float64(2*i+1)))
	}
	p("VADDPD Y6, Y6, Y6")  // 2s
	p("VMULPD Y6, Y7, Y13") // w = 2s z
	p("VMOVAPD Y13, Y14")
	p("VFMSUB231PD Y6, Y7, Y14")  // 2s z - w
	p("VFMADD231PD Y6, Y12, Y14") // wl: + 2s zl
	third := 1.0 / 3
	thirdLo := 0x1p-54 * third
	p("VMULPD %s, Y13, Y12", k(third)) // w3 = w/3
	p("VMOVAPD Y12, Y3")
	p("VFMSUB231PD %s, Y13, Y3", k(third))
	p("VFMADD231PD %s, Y13, Y3", k(thirdLo))
	p("VFMADD231PD %s, Y14, Y3", k(third)) // w3l
	// rest = 2s z^2 q2 + w3l - corr*(2 + 2z) + e ln2lo
	p("VMULPD Y7, Y13, Y4")
	p("VMULPD Y4, Y9, Y9")
	p("VADDPD Y3, Y9, Y9")
	p("VADDPD Y7, Y7, Y4")
	p("VADDPD %s, Y4, Y4", k(2))
	p("VFNMADD231PD Y4, Y8, Y9")
	p("VFMADD231PD %s, Y2, Y9", k(ln2lo))
	p("VMULPD %s, Y2, Y2", k(ln2hi)) // h = e*ln2hi, exact
	// a = h + 2s, b = a + w3 (Fast2Sums: |h| >= 0.69 > |2s| or h = 0; |a| > 0.34 > |w3| or e = 0)
	p("VADDPD Y6, Y2, Y10")
	p("VSUBPD Y2, Y10, Y11")
	p("VSUBPD Y11, Y6, Y11") // al
	p("VADDPD Y12, Y10, Y1")
	p("VSUBPD Y10, Y1, Y4")
	p("VSUBPD Y4, Y12, Y4") // bl
	p("VADDPD Y4, Y11, Y11")
	p("VADDPD Y9, Y11, Y11") // l
	p("VADDPD Y11, Y1, Y10")
	p("VSUBPD Y1, Y10, Y4")
	p("VSUBPD Y4, Y11, Y11")
}

func logKernel(nt string) {
	kernel("logF64"+nt+"AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 1}}, positiveNormal, func() { logBody(false) }, "Y10")
}

// positiveNormal jumps to done unless every lane of Y0 is a positive
// normal finite float64.
func positiveNormal() {
	p("VCMPPD $0x1d, %s, Y0, Y1", k(0x1p-1022))
	p("VCMPPD $0x12, %s, Y0, Y2", k(math.MaxFloat64))
	p("VANDPD Y2, Y1, Y1")
	jmpUnless("Y1")
}

// powBody: Y0 = x (positive normal), Y15 = y -> Y0 = x**y; jumps to done
// when |y log x| > 708.
func powBody() {
	logBody(true)
	// t = y*(Y10 + Y11) in double-double
	p("VMULPD Y15, Y10, Y1")
	p("VFMSUB213PD Y1, Y15, Y10")  // y*hi - th
	p("VFMADD231PD Y15, Y11, Y10") // + y*lo = tl
	p("VANDPD %s, Y1, Y2", kb(0x7fffffffffffffff))
	p("VCMPPD $0x12, %s, Y2, Y2", k(708))
	p("VMOVMSKPD Y2, AX")
	p("CMPL AX, $0xf")
	p("JNE done")
	expBody()
}

// expMinus1: expBody computes e^x - 1 (Y10 = 0).
var expMinus1 bool

// expBody: Y0 = e^(Y1 + Y10) for |Y1| <= 708 (Y10 small); uses Y1-Y8.
func expBody() {
	p("VMOVUPD %s, Y2", k(0x1.8p52))
	p("VFMADD231PD %s, Y1, Y2", k(math.Log2E))
	p("VSUBPD %s, Y2, Y3", k(0x1.8p52))
	p("VFNMADD231PD %s, Y3, Y1", k(ln2hi))  // th - k ln2hi, exact
	p("VFNMADD231PD %s, Y3, Y10", k(ln2lo)) // tl - k ln2lo
	// r = Y1 + Y10 by TwoSum: Y6 + Y7
	p("VADDPD Y10, Y1, Y6")
	p("VSUBPD Y1, Y6, Y7")
	p("VSUBPD Y7, Y6, Y8")
	p("VSUBPD Y8, Y1, Y8")
	p("VSUBPD Y7, Y10, Y7")
	p("VADDPD Y8, Y7, Y7")
	p("VMOVUPD %s, Y4", k(1/fact(13)))
	for i := 12; i >= 2; i-- {
		p("VFMADD213PD %s, Y6, Y4", k(1/fact(i)))
	}
	// e^r = s + ((1 - s) + rh + (rl + rh^2 Q)), s = 1 + rh
	p("VMULPD Y6, Y6, Y5")
	p("VFMADD213PD Y7, Y5, Y4")
	if expMinus1 { // 2^k (e^r - 1) + (2^k - 1), e^r - 1 = rh + (rl + rh^2 Q)
		p("VADDPD Y6, Y4, Y4")
		p("VPADDQ %s, Y2, Y2", kb(1023))
		p("VPSLLQ $52, Y2, Y2")
		p("VSUBPD %s, Y2, Y3", k(1))
		p("VFMADD213PD Y3, Y2, Y4")
		p("VMOVAPD Y4, Y0")
		return
	}
	p("VADDPD %s, Y6, Y5", k(1))
	p("VMOVUPD %s, Y8", k(1))
	p("VSUBPD Y5, Y8, Y8")
	p("VADDPD Y6, Y8, Y8")
	p("VADDPD Y8, Y4, Y4")
	p("VADDPD Y5, Y4, Y4")
	p("VPADDQ %s, Y2, Y2", kb(1023))
	p("VPSLLQ $52, Y2, Y2")
	p("VMULPD Y2, Y4, Y0")
}

// powBody32 is powBody for float32 results: log x and y log x in plain
// float64 (relative error near 2^-52, |y log x| < 710: e^t off by under
// 2^-42), exp as in powBody with no low part.
func powBody32() {
	logBody(false)
	p("VMULPD Y15, Y10, Y1")
	p("VANDPD %s, Y1, Y2", kb(0x7fffffffffffffff))
	p("VCMPPD $0x12, %s, Y2, Y2", k(708))
	p("VMOVMSKPD Y2, AX")
	p("CMPL AX, $0xf")
	p("JNE done")
	p("VXORPD Y10, Y10, Y10")
	expBody()
}

func powKernel(nt string) {
	kernel("powF64"+nt+"AVX2", "dst, x unsafe.Pointer, n int, y float64", 40, append(unaryArgs, "VBROADCASTSD y+24(FP), Y15"),
		[]input{{"SI", "Y0", 1}}, positiveNormal, powBody, "Y0")
}

func powKernels() {
	// float32: 4 at a time through float64; x > 0 and finite (every
	// float32 that is, denormals included, is a normal float64)
	head("powF32AVX2", "dst, x unsafe.Pointer, n int, y float64", 40)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("VBROADCASTSD y+24(FP), Y15")
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
	p("VCVTPS2PD (SI)(R8*4), Y0")
	p("VCMPPD $0x1d, %s, Y0, Y1", k(0x1p-1022))
	p("VCMPPD $0x12, %s, Y0, Y2", k(math.MaxFloat64))
	p("VANDPD Y2, Y1, Y1")
	p("VMOVMSKPD Y1, AX")
	p("CMPL AX, $0xf")
	p("JNE done")
	powBody32()
	p("VCVTPD2PSY Y0, X0")
	p("VMOVUPS X0, (DI)(R8*4)")
	p("ADDQ $4, R8")
	p("JMP loop")
	label("done")
	p("MOVQ R8, ret+32(FP)")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")

	// x**3, float64: x*x = h + l exactly (FMA), then h*x + l*x rounded once
	fmt.Fprintf(&decl, "//go:noescape\nfunc cubeF64AVX2(dst, x unsafe.Pointer, n int)\n\n")
	fmt.Fprintf(&asm, "// func cubeF64AVX2(dst, x unsafe.Pointer, n int)\nTEXT ·cubeF64AVX2(SB), NOSPLIT, $0-24\n")
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
	p("VMOVUPD (SI)(R8*8), Y0")
	p("VMULPD Y0, Y0, Y1")
	p("VMOVAPD Y1, Y2")
	p("VFMSUB231PD Y0, Y0, Y2") // x*x - h = l
	p("VMULPD Y0, Y2, Y2")      // l*x
	p("VFMADD231PD Y0, Y1, Y2") // h*x + l*x
	// where h*x is not finite (overflow, infinities, NaN): h*x
	p("VMULPD Y0, Y1, Y1")
	p("VANDPD %s, Y1, Y3", kb(0x7fffffffffffffff))
	p("VCMPPD $0x12, %s, Y3, Y3", k(math.MaxFloat64))
	p("VBLENDVPD Y3, Y2, Y1, Y2")
	store("Y2")
	p("ADDQ $4, R8")
	p("JMP loop")
	label("done")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")

	// x**3, float32: in float64 (x^2 exact, x^3 rounded once to 53 bits),
	// rounded to float32
	fmt.Fprintf(&decl, "//go:noescape\nfunc cubeF32AVX2(dst, x unsafe.Pointer, n int)\n\n")
	fmt.Fprintf(&asm, "// func cubeF32AVX2(dst, x unsafe.Pointer, n int)\nTEXT ·cubeF32AVX2(SB), NOSPLIT, $0-24\n")
	p("MOVQ dst+0(FP), DI")
	p("MOVQ x+8(FP), SI")
	p("MOVQ n+16(FP), CX")
	p("XORQ R8, R8")
	label("loop")
	p("CMPQ R8, CX")
	p("JGE done")
	p("VCVTPS2PD (SI)(R8*4), Y0")
	p("VCVTPS2PD 16(SI)(R8*4), Y3")
	p("VMULPD Y0, Y0, Y1")
	p("VMULPD Y3, Y3, Y4")
	p("VMULPD Y0, Y1, Y1")
	p("VMULPD Y3, Y4, Y4")
	p("VCVTPD2PSY Y1, X1")
	p("VCVTPD2PSY Y4, X4")
	p("VMOVUPS X1, (DI)(R8*4)")
	p("VMOVUPS X4, 16(DI)(R8*4)")
	p("ADDQ $8, R8")
	p("JMP loop")
	label("done")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// jmpUnless jumps to done unless every lane of mask register r is set.
func jmpUnless(r string) {
	p("VMOVMSKPD %s, AX", r)
	p("CMPL AX, $0xf")
	p("JNE done")
}

// tinyBlend replaces Y0 by v (a register computed from x in Y14) where
// |x| < lim.
func tinyBlend(lim float64, v string) {
	p("VANDPD %s, Y14, Y13", kb(0x7fffffffffffffff))
	p("VCMPPD $0x11, %s, Y13, Y13", k(lim))
	p("VBLENDVPD Y13, %s, Y0, Y0", v)
}

// f64direct emits a float64 routine, 4 lanes at a time: check (Y0 = x)
// jumps to done for a vector it does not handle; body leaves the result in Y0.
func f64direct(stem string, check, body func()) {
	variants(func(nt string) { f64direct1(stem+"F64"+nt+"AVX2", check, body) })
}

func f64direct1(name string, check, body func()) {
	kernel(name, "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, check, body, "Y0")
}

func f64Kernels() {
	// log1p: u = 1 + x rounded, c = x - (u - 1) (exact), log(u) with its f
	// corrected by c 2^-e; |x| < 2^-60 (zeros included): x
	f64direct("log1p", log1pCheck, log1pBody)
	// the forms of log and log1p that also take the arguments outside the
	// function's domain (logS, log1pS; plain stores only): the result of
	// each such lane is set after the body (domainFix). The wrappers switch
	// to them at the first vector the plain kernel leaves, so that data
	// with zeros, negatives or NaNs runs in the vector loop, not a call an
	// element (log of 16M float64, half negative: 400 ms so).
	kernel("logSF64AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 1}}, func() {
		p("VCMPPD $0x1d, %s, Y0, Y1", k(0x1p-1022)) // normal or +Inf
		p("VCMPPD $0x12, %s, Y0, Y2", k(0))         // zero or negative
		p("VORPD Y2, Y1, Y1")
		p("VCMPPD $0x03, Y0, Y0, Y2") // NaN
		p("VORPD Y2, Y1, Y1")
		jmpUnless("Y1") // a positive denormal
	}, func() {
		logBody(false)
		domainFix("Y0", "Y10", 0)
	}, "Y10")
	kernel("log1pSF64AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, func() {
		p("VCMPPD $0x1e, %s, Y0, Y1", k(-1))
		p("VCMPPD $0x11, %s, Y0, Y2", k(0x1p1023))
		p("VANDPD Y2, Y1, Y1") // in range
		p("VCMPPD $0x12, %s, Y0, Y2", k(-1))
		p("VORPD Y2, Y1, Y1")
		p("VCMPPD $0x03, Y0, Y0, Y2")
		p("VORPD Y2, Y1, Y1")
		p("VCMPPD $0x00, %s, Y0, Y2", k(math.Inf(1)))
		p("VORPD Y2, Y1, Y1")
		jmpUnless("Y1") // 2^1023 <= x < +Inf
	}, func() {
		log1pBody()
		domainFix("Y14", "Y0", -1)
	}, "Y0")
	// arcsinS: arcsin that also takes |x| > 1 (infinities included),
	// whose result is math.NaN as the Go loop's; NaN: the Go loop
	kernel("arcsinSF64AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, func() {
		p("VCMPPD $0x07, Y0, Y0, Y1") // not NaN
		jmpUnless("Y1")
	}, func() {
		asinBody(asinP, true)
		p("VANDPD %s, Y14, Y1", kb(0x7fffffffffffffff))
		p("VCMPPD $0x1e, %s, Y1, Y1", k(1))
		p("VMOVUPD %s, Y2", k(math.NaN()))
		p("VBLENDVPD Y1, Y2, Y0, Y0")
	}, "Y0")
	// x**1.5 and x**2.5 (power with those scalar exponents): x sqrt x and
	// x^2 sqrt x with no log or exp, for 2^-300 <= x <= 2^300
	// (halfPowBody); a finite negative x: NaN, math.Pow's bits
	for _, m := range []int{1, 2} {
		f64direct(fmt.Sprintf("pow%d5", m), func() {
			p("VCMPPD $0x1d, %s, Y0, Y1", k(0x1p-300)) // false for NaN
			p("VCMPPD $0x12, %s, Y0, Y2", k(0x1p300))
			p("VANDPD Y2, Y1, Y1")
			p("VCMPPD $0x11, %s, Y0, Y6", k(0))                // x < 0
			p("VCMPPD $0x1d, %s, Y0, Y2", k(-math.MaxFloat64)) // x finite
			p("VANDPD Y2, Y6, Y6")                             // Y6: the negative lanes, kept for the end
			p("VORPD Y6, Y1, Y1")
			jmpUnless("Y1")
		}, func() {
			halfPowBody(m)
			p("VANDNPD Y0, Y6, Y0") // (Go's operand order: Y0 = Y0 &^ Y6)
			p("VANDPD %s, Y6, Y6", kb(math.Float64bits(math.NaN())))
			p("VORPD Y6, Y0, Y0")
		})
	}
	// expm1: 2^k (e^r - 1) + (2^k - 1) for |x| <= 708; |x| < 2^-60: x
	f64direct("expm1", func() {
		p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
		p("VCMPPD $0x12, %s, Y1, Y1", k(708))
		jmpUnless("Y1")
	}, func() {
		p("VMOVAPD Y0, Y14")
		p("VMOVAPD Y0, Y1")
		p("VXORPD Y10, Y10, Y10")
		expMinus1 = true
		expBody()
		expMinus1 = false
		tinyBlend(0x1p-60, "Y14")
	})
	// tanh: m/(m + 2), m = expm1(2|x|), |x| clamped to 20 (tanh rounds
	// to 1 from 19.1); x's sign; |x| < 2^-30: x. NaN: the Go loop.
	f64direct("tanh", func() {
		p("VCMPPD $0x7, Y0, Y0, Y1")
		jmpUnless("Y1")
	}, func() {
		p("VMOVAPD Y0, Y14")
		p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
		p("VMINPD %s, Y1, Y1", k(20))
		p("VADDPD Y1, Y1, Y1")
		p("VXORPD Y10, Y10, Y10")
		expMinus1 = true
		expBody()
		expMinus1 = false
		p("VADDPD %s, Y0, Y1", k(2))
		p("VDIVPD Y1, Y0, Y0")
		p("VANDPD %s, Y14, Y1", kb(1<<63))
		p("VORPD Y1, Y0, Y0")
		tinyBlend(0x1p-30, "Y14")
	})
	// arcsin: as for float32, with asinP (a polynomial of degree 13 in
	// w^2, w <= 1/2, fitted in fits), pi/2 in two parts
	f64direct("arcsin", func() {
		p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
		p("VCMPPD $0x12, %s, Y1, Y1", k(1))
		jmpUnless("Y1")
	}, func() { asinBody(asinP, true) })
	// arctan: atan2Body's reduction for one argument, with atanQ (a
	// polynomial of degree 10 in u^2, fitted in fits), pi/4 and pi/2 in two
	// parts. Below 2^-26 (arctan x rounds to x) and NaN: the Go loop.
	variants(func(nt string) {
		kernel2("arctanF64"+nt+"AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, func() string {
			p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
			p("VCMPPD $0x1d, %s, Y1, Y1", k(0x1p-26)) // false for NaN
			return "Y1"
		}, atanBody2, "Y2")
	})
	// tan: the reduction of sin and cos (|x| <= 2^22), sin(r) and cos(r) by
	// sinCosPolys, then sin(r)/cos(r), or -cos(r)/sin(r) for odd k. Below
	// 2^-26 (where tan x rounds to x, zeros of either sign included), beyond
	// 2^22, NaN and infinities: the Go loop.
	variants(func(nt string) {
		kernel2("tanF64"+nt+"AVX2", "dst, x unsafe.Pointer, n int", 32, unaryArgs, []input{{"SI", "Y0", 0.5}}, func() string {
			p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff))
			p("VCMPPD $0x12, %s, Y1, Y2", k(1<<22))
			p("VCMPPD $0x1d, %s, Y1, Y1", k(0x1p-26))
			p("VANDPD Y1, Y2, Y2")
			return "Y2"
		}, tanBody, "Y2")
	})
}

// log1pCheck jumps to done unless every lane of Y0 is in log1p's range:
// -1 < x < 2^1023.
func log1pCheck() {
	p("VCMPPD $0x1e, %s, Y0, Y1", k(-1))
	p("VCMPPD $0x11, %s, Y0, Y2", k(0x1p1023)) // 2^e of log's reduction stays normal
	p("VANDPD Y2, Y1, Y1")
	jmpUnless("Y1")
}

// log1pBody: Y0 = x -> Y0 = log1p(x), x kept in Y14: u = 1 + x rounded,
// c = x - (u - 1) (exact), log(u) with its f corrected by c 2^-e; |x| <
// 2^-60 (zeros included): x.
func log1pBody() {
	p("VMOVAPD Y0, Y14")
	p("VADDPD %s, Y0, Y0", k(1))
	p("VSUBPD %s, Y0, Y15", k(1))
	p("VSUBPD Y15, Y14, Y15")
	logDelta = true
	logBody(false)
	logDelta = false
	p("VMOVAPD Y10, Y0")
	tinyBlend(0x1p-60, "Y14")
}

// domainFix sets the result (in res) of the lanes of x outside a
// logarithm's domain as the Go loop does, bit for bit. log (pole 0, Go's
// math.Log on amd64): a NaN or +Inf x gives x, any other x with its sign
// bit set (negatives, -Inf, a NaN with its sign bit) gives math.NaN, and
// +-0 gives -Inf. log1p (pole -1, math.Log1p): x < -1 (-Inf included)
// and NaN give math.NaN, -1 gives -Inf, +Inf gives +Inf. Uses Y1 and Y2.
func domainFix(x, res string, pole float64) {
	nanBits := k(math.NaN())
	if pole == 0 {
		p("VCMPPD $0x03, %s, %s, Y1", x, x)
		p("VCMPPD $0x00, %s, %s, Y2", k(math.Inf(1)), x)
		p("VORPD Y2, Y1, Y1")
		p("VBLENDVPD Y1, %s, %s, %s", x, res, res)
		p("VMOVUPD %s, Y2", nanBits)
		p("VBLENDVPD %s, Y2, %s, %s", x, res, res) // the sign bits of x
	} else {
		p("VCMPPD $0x11, %s, %s, Y1", k(pole), x)
		p("VCMPPD $0x03, %s, %s, Y2", x, x)
		p("VORPD Y2, Y1, Y1")
		p("VMOVUPD %s, Y2", nanBits)
		p("VBLENDVPD Y1, Y2, %s, %s", res, res)
		p("VCMPPD $0x00, %s, %s, Y1", k(math.Inf(1)), x)
		p("VBLENDVPD Y1, %s, %s, %s", x, res, res)
	}
	p("VCMPPD $0x00, %s, %s, Y1", k(pole), x)
	p("VMOVUPD %s, Y2", k(math.Inf(-1)))
	p("VBLENDVPD Y1, Y2, %s, %s", res, res)
}

// halfPowBody: Y0 = x (2^-300 <= x <= 2^300) -> Y0 = x**(m + 1/2), m 1
// or 2, rounded once from a value within 2^-100 relative of the true one.
// sqrt x = s + d with s = sqrt(x) rounded and d = e/(2s), e = x - s^2
// (exact by FMA); x^m = h + hl exact (h = x, hl = 0 for m = 1; x^2 and
// its FMA error for m = 2). Then x^m sqrt x = h s + (h d + hl s), and
// h d = h e/(2s) is x e s/2 (m = 2: x^2/s = x s to within e/s) or e s/2
// (m = 1), so no division: the result is FMA(h, s, s (hl + x e/2)) for
// m = 2 and FMA(x, s, s e/2) for m = 1. Uses Y1-Y5.
func halfPowBody(m int) {
	p("VSQRTPD Y0, Y3")
	p("VMOVAPD Y0, Y4")
	p("VFNMADD231PD Y3, Y3, Y4") // e = x - s^2, exact
	if m == 1 {
		p("VMULPD %s, Y3, Y5", k(0.5))
		p("VMULPD Y5, Y4, Y4")      // s e/2
		p("VFMADD231PD Y3, Y0, Y4") // x s + s e/2
		p("VMOVAPD Y4, Y0")
		return
	}
	p("VMULPD Y0, Y0, Y1") // h = x^2
	p("VMOVAPD Y1, Y2")
	p("VFMSUB231PD Y0, Y0, Y2") // hl = x^2 - h, exact
	p("VMULPD %s, Y0, Y5", k(0.5))
	p("VFMADD231PD Y5, Y4, Y2") // hl + x e/2
	p("VMULPD Y3, Y2, Y2")
	p("VFMADD231PD Y3, Y1, Y2") // h s + s (hl + x e/2)
	p("VMOVAPD Y2, Y0")
}

// tanBody: Y0 = x (2^-26 <= |x| <= 2^22) -> Y2 = tan x; uses Y0-Y6.
func tanBody() {
	hp := split(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(2)), 3)
	twoByPi, _ := new(big.Float).SetPrec(prec).Quo(bf(2), bigPi()).Float64()
	p("VMOVUPD %s, Y1", k(0x1.8p52))
	p("VFMADD231PD %s, Y0, Y1", k(twoByPi))
	p("VSUBPD %s, Y1, Y3", k(0x1.8p52))
	p("VFNMADD231PD %s, Y3, Y0", k(hp[0]))
	p("VFNMADD231PD %s, Y3, Y0", k(hp[1]))
	p("VFNMADD231PD %s, Y3, Y0", k(hp[2])) // r
	p("VMULPD Y0, Y0, Y5")
	sinCosPolysIn("Y6", "Y4", "Y3")
	p("VPSLLQ $63, Y1, Y1")       // k odd
	p("VBLENDVPD Y1, Y4, Y6, Y2") // numerator
	p("VBLENDVPD Y1, Y6, Y4, Y3") // denominator
	p("VDIVPD Y3, Y2, Y2")
	p("VXORPD Y1, Y2, Y2") // negated for odd k
}

// sinCosPolysIn: Y0 = r (|r| <= pi/4), Y5 = r^2 -> s = sin r = r + r z
// S(z), c = cos r = 1 + z (-1/2 + z C(z)), S and C the fitted sinS and
// cosQ; uses t.
func sinCosPolysIn(s, c, t string) {
	p("VMOVUPD %s, %s", k(sinS[len(sinS)-1]), s)
	p("VMOVUPD %s, %s", k(cosQ[len(cosQ)-1]), c)
	for i := len(sinS) - 2; i >= 0; i-- {
		p("VFMADD213PD %s, Y5, %s", k(sinS[i]), s)
		if i < len(cosQ)-1 {
			p("VFMADD213PD %s, Y5, %s", k(cosQ[i]), c)
		}
	}
	p("VMULPD Y0, Y5, %s", t)
	p("VFMADD213PD Y0, %s, %s", t, s) // sin r
	p("VFMADD213PD %s, Y5, %s", k(-0.5), c)
	p("VFMADD213PD %s, Y5, %s", k(1), c) // cos r
}

// atan2Kernel emits arctan2(y, x) of float64 vectors (y the first
// operand), for finite nonzero y and x of magnitudes up to 2^1022 (the Go
// loop does every vector with another operand: zeros, infinities, NaN).
// With a = |y|, b = |x|, n = min(a, b), m = max(a, b): u = n/m (n <=
// tan(pi/8) m) or (n - m)/(n + m) (beyond, arctan(n/m) = pi/4 +
// arctan(u)), |u| <= tan(pi/8); arctan(u) by atanPoly. The angle is then
// C + s arctan(u), C a multiple j of pi/4 (pi/4 in two parts, the first
// with its low bits zero so that j times it is exact) and s = +-1:
// arctan(n/m) for a <= b, pi/2 minus it for a > b, and pi minus that for
// x < 0; y's sign.
func atan2Kernel(nt string) {
	kernel("atan2F64"+nt+"AVX2", "dst, y, x unsafe.Pointer, n int", 40,
		[]string{"MOVQ dst+0(FP), DI", "MOVQ y+8(FP), SI", "MOVQ x+16(FP), DX", "MOVQ n+24(FP), CX"},
		[]input{{"SI", "Y14", 1}, {"DX", "Y15", 1}}, atan2Check, atan2Body, "Y0")
}

// atan2Check: Y14 = y, Y15 = x; jumps to done unless 0 < min(|y|, |x|)
// and max(|y|, |x|) <= 2^1022 (neither NaN) in every lane; leaves |y|,
// |x|, n and m in Y0-Y3.
func atan2Check() {
	p("VANDPD %s, Y14, Y0", kb(0x7fffffffffffffff)) // a
	p("VANDPD %s, Y15, Y1", kb(0x7fffffffffffffff)) // b
	p("VMINPD Y1, Y0, Y2")                          // n
	p("VMAXPD Y1, Y0, Y3")                          // m
	// 0 < n and m <= 2^1022
	p("VCMPPD $0x1e, %s, Y2, Y4", k(0))
	p("VCMPPD $0x12, %s, Y3, Y5", k(0x1p1022))
	p("VANDPD Y5, Y4, Y4")
	p("VCMPPD $0x7, Y14, Y15, Y5") // neither NaN
	p("VANDPD Y5, Y4, Y4")
	jmpUnless("Y4")
}

// atan2Body: after atan2Check -> Y0 = arctan2(y, x).
func atan2Body() {
	p("VCMPPD $0x1e, Y1, Y0, Y4") // swapped: a > b
	p("VMULPD %s, Y3, Y5", k(0.41421356237309503))
	p("VCMPPD $0x1e, Y5, Y2, Y5") // big: n > tan(pi/8) m
	p("VSUBPD Y3, Y2, Y6")
	p("VADDPD Y3, Y2, Y7")
	p("VBLENDVPD Y5, Y6, Y2, Y6")
	p("VBLENDVPD Y5, Y7, Y3, Y7")
	p("VDIVPD Y7, Y6, Y0") // u
	// s = -1 when swapped xor x < 0: the sign bit of Y4 xor x
	p("VXORPD Y15, Y4, Y8")
	p("VANDPD %s, Y8, Y8", kb(1<<63))
	p("VXORPD Y8, Y0, Y0") // s u
	// j = (swapped ? 2 : x < 0 ? 4 : 0) + s (big ? 1 : 0)
	p("VXORPD Y9, Y9, Y9")
	p("VCMPPD $0x11, Y9, Y15, Y9") // x < 0
	p("VANDPD %s, Y9, Y9", k(4))
	p("VMOVUPD %s, Y10", k(2))
	p("VBLENDVPD Y4, Y10, Y9, Y9")
	p("VANDPD %s, Y5, Y10", k(1))
	p("VXORPD Y8, Y10, Y10")
	p("VADDPD Y10, Y9, Y9") // j
	atanPoly(atanQ)         // Y11 = s u z Q, Y12 = s u
	q4 := split(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(4)), 1)[0]
	q4hi := math.Float64frombits(math.Float64bits(q4) &^ 7)
	q4lo, _ := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(4)), bf(q4hi)).Float64()
	p("VFMADD231PD %s, Y9, Y11", k(q4lo)) // + j pi/4 lo
	p("VADDPD Y12, Y11, Y11")             // + s u
	p("VMULPD %s, Y9, Y9", k(q4hi))       // j pi/4 hi, exact
	p("VADDPD Y11, Y9, Y0")
	p("VANDPD %s, Y14, Y1", kb(1<<63))
	p("VORPD Y1, Y0, Y0")
}

// atanPoly: Y0 = v (|v| <= tan(pi/8)) -> Y12 = v, Y11 = v z Q(z) with
// z = v^2 and arctan(v) = v + v z Q(z), Q the polynomial q; uses Y5-Y7.
func atanPoly(q []float64) {
	p("VMOVAPD Y0, Y12")
	p("VMULPD Y0, Y0, Y5")
	p("VMOVUPD %s, Y11", k(q[len(q)-1]))
	for i := len(q) - 2; i >= 0; i-- {
		p("VFMADD213PD %s, Y5, Y11", k(q[i]))
	}
	p("VMULPD Y0, Y5, Y5")
	p("VMULPD Y5, Y11, Y11")
}

// atanBody2: Y0 = x (|x| >= 2^-26, not NaN) -> Y2 = arctan(x); uses Y0-Y6.
// With a = |x|: u = a (a <= tan(pi/8)), (a - 1)/(a + 1) (up to
// tan(3pi/8); arctan a = pi/4 + arctan u) or -1/a (arctan a = pi/2 +
// arctan u); arctan u = u + u z Q(z), z = u^2, Q = atanQ; the base
// multiple of pi/4 in two parts; x's sign.
func atanBody2() {
	pi := bigPi()
	q4 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(4)), 2)
	q2 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(2)), 2)
	q := atanQ
	p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff)) // a
	p("VCMPPD $0x1e, %s, Y1, Y2", k(0.41421356237309503))
	p("VCMPPD $0x1e, %s, Y1, Y3", k(2.414213562373095))
	p("VSUBPD %s, Y1, Y4", k(1))
	p("VBLENDVPD Y2, Y4, Y1, Y4")
	p("VBLENDVPD Y3, %s, Y4, Y4", k(-1)) // numerator
	p("VADDPD %s, Y1, Y5", k(1))
	p("VMOVUPD %s, Y6", k(1))
	p("VBLENDVPD Y2, Y5, Y6, Y5")
	p("VBLENDVPD Y3, Y1, Y5, Y5") // denominator
	p("VDIVPD Y5, Y4, Y4")        // u
	p("VANDPD %s, Y2, Y6", k(q4[0]))
	p("VBLENDVPD Y3, %s, Y6, Y6", k(q2[0])) // base
	p("VANDPD %s, Y2, Y2", k(q4[1]))
	p("VBLENDVPD Y3, %s, Y2, Y2", k(q2[1])) // its low part
	p("VMULPD Y4, Y4, Y5")
	p("VMOVUPD %s, Y3", k(q[len(q)-1]))
	for i := len(q) - 2; i >= 0; i-- {
		p("VFMADD213PD %s, Y5, Y3", k(q[i]))
	}
	p("VMULPD Y4, Y5, Y5")
	p("VFMADD213PD Y2, Y5, Y3") // u z Q + base lo
	p("VADDPD Y4, Y3, Y3")
	p("VADDPD Y6, Y3, Y3")
	p("VANDPD %s, Y0, Y1", kb(1<<63))
	p("VORPD Y1, Y3, Y2")
}

// asinBody: Y0 = x (|x| <= 1) -> arcsin(x), asin(w) = w + w z P(z) with P
// the polynomial q (coefficients from z^0 up).
func asinBody(q []float64, lo bool) {
	p("VMOVAPD Y0, Y14")
	p("VANDPD %s, Y0, Y1", kb(0x7fffffffffffffff)) // a
	p("VCMPPD $0x1e, %s, Y1, Y2", k(0.5))
	p("VMOVUPD %s, Y3", k(1))
	p("VSUBPD Y1, Y3, Y3")
	p("VMULPD %s, Y3, Y3", k(0.5))
	p("VSQRTPD Y3, Y3")
	p("VBLENDVPD Y2, Y3, Y1, Y4") // w
	p("VMULPD Y4, Y4, Y5")
	p("VMOVUPD %s, Y7", k(q[len(q)-1]))
	for i := len(q) - 2; i >= 0; i-- {
		p("VFMADD213PD %s, Y5, Y7", k(q[i]))
	}
	p("VMULPD Y4, Y5, Y5")
	p("VFMADD213PD Y4, Y5, Y7") // asin w
	hp := split(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(2)), 2)
	if lo { // pi/2 - 2 asin w = hp0 + (hp1 - 2 asin w)
		p("VMOVUPD %s, Y6", k(hp[1]))
		p("VFNMADD231PD %s, Y7, Y6", k(2))
		p("VADDPD %s, Y6, Y6", k(hp[0]))
	} else {
		p("VMOVUPD %s, Y6", k(math.Pi/2))
		p("VFNMADD231PD %s, Y7, Y6", k(2))
	}
	p("VBLENDVPD Y2, Y6, Y7, Y0")
	p("VANDPD %s, Y14, Y1", kb(1<<63))
	p("VORPD Y1, Y0, Y0")
	tinyBlend(0x1p-26, "Y14")
}

// fitPoly is the polynomial of degree deg (coefficients from z^0 up,
// rounded to float64) interpolating the series sum_k c(k) z^k (c exact in
// prec bits, the series converging on [0, zmax]) at the Chebyshev nodes
// of [0, zmax]: within a few times the error of the best polynomial
// (the interpolation error is checked by checkFit). The Vandermonde system
// is solved in prec bits.
func fitPoly(c func(k int) *big.Float, zmax float64, deg int) []float64 {
	return fitPolyOn(c, 0, zmax, deg)
}

// fitPolyOn is fitPoly on [lo, hi] (lo may be negative: the error is then
// weighted by |z|).
func fitPolyOn(c func(k int) *big.Float, lo, hi float64, deg int) []float64 {
	series := func(z *big.Float) *big.Float {
		sum := new(big.Float).SetPrec(prec)
		pow := bf(1)
		for k := 0; k < 260; k++ {
			sum.Add(sum, new(big.Float).SetPrec(prec).Mul(c(k), pow))
			pow.Mul(pow, z)
		}
		return sum
	}
	n := deg + 1
	a := make([][]*big.Float, n)
	for i := range a {
		zf := lo + (hi-lo)/2*(1+math.Cos(float64(2*i+1)*math.Pi/float64(2*n)))
		z := bf(zf)
		a[i] = make([]*big.Float, n+1)
		pow := bf(1)
		for j := 0; j < n; j++ {
			a[i][j] = new(big.Float).SetPrec(prec).Set(pow)
			pow.Mul(pow, z)
		}
		a[i][n] = series(z)
	}
	for col := 0; col < n; col++ { // Gaussian elimination, partial pivoting
		piv := col
		for r := col + 1; r < n; r++ {
			if new(big.Float).Abs(a[r][col]).Cmp(new(big.Float).Abs(a[piv][col])) > 0 {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		for r := 0; r < n; r++ {
			if r == col {
				continue
			}
			f := new(big.Float).SetPrec(prec).Quo(a[r][col], a[col][col])
			for j := col; j <= n; j++ {
				a[r][j].Sub(a[r][j], new(big.Float).SetPrec(prec).Mul(f, a[col][j]))
			}
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i], _ = new(big.Float).SetPrec(prec).Quo(a[i][n], a[i][i]).Float64()
	}
	// the largest error of the rounded polynomial (Horner in float64 with
	// FMA) against the series times z (the error relative to v or w of
	// v + v z Q), at 500 points
	worst := 0.0
	for i := 0; i <= 500; i++ {
		zf := lo + (hi-lo)*float64(i)/500
		q := out[deg]
		for j := deg - 1; j >= 0; j-- {
			q = math.FMA(q, zf, out[j])
		}
		d, _ := new(big.Float).SetPrec(prec).Sub(bf(q), series(bf(zf))).Float64()
		worst = max(worst, math.Abs(d)*math.Abs(zf))
	}
	fitErr = worst
	return out
}

var fitErr float64

// atanQ is Q of arctan(v) = v + v z Q(z), z = v^2 <= tan(pi/8)^2: a fit
// of degree 10 to Q(z) = sum_{k>=1} (-1)^k z^(k-1)/(2k+1), its error
// times z (evaluation included) below 2^-56 (relative to v), against the 21
// terms of the series the float64 kernels took before.
var atanQ, asinP []float64

// sinS and cosQ are S and C of sinCosPolys: fits of degree 6 and 5 on z <=
// (pi/4)^2 to S(z) = sum_{k>=0} (-1)^(k+1) z^k/(2k+3)! and C(z) = sum_{k>=0}
// (-1)^k z^k/(2k+4)!, their error times z (evaluation included) below
// 2^-56 and 2^-55.5 (against 8 terms of each series before).
var sinS, cosQ []float64

func fits() {
	q4 := 0.7853981633974483 * (1 + 1e-9)
	invFact := func(n int) *big.Float {
		v := bf(1)
		for i := 2; i <= n; i++ {
			v.Quo(v, bf(float64(i)))
		}
		return v
	}
	sinS = fitPoly(func(k int) *big.Float {
		v := invFact(2*k + 3)
		if k%2 == 0 {
			v.Neg(v)
		}
		return v
	}, q4*q4, 6)
	if fitErr > math.Pow(2, -56) {
		log.Fatalf("sin fit: %g", fitErr)
	}
	cosQ = fitPoly(func(k int) *big.Float {
		v := invFact(2*k + 4)
		if k%2 == 1 {
			v.Neg(v)
		}
		return v
	}, q4*q4, 5)
	if fitErr > math.Pow(2, -55.5) {
		log.Fatalf("cos fit: %g", fitErr)
	}
	t8 := 0.41421356237309503 * (1 + 1e-12)
	atanQ = fitPoly(func(k int) *big.Float {
		v := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(2*k+3)))
		if k%2 == 0 {
			v.Neg(v)
		}
		return v
	}, t8*t8, 10)
	if fitErr > 0x1p-56 {
		log.Fatalf("atan fit: %g", fitErr)
	}
	// asin(w) = w + w z P(z), z = w^2 <= 1/4: P(z) = sum_{n>=1} c_n z^(n-1),
	// c_n = (2n)!/(4^n (n!)^2 (2n+1)); degree 13 (against 28 terms of the
	// series)
	asinP = fitPoly(func(k int) *big.Float {
		n := k + 1
		c := bf(1)
		for i := 1; i <= n; i++ {
			c.Mul(c, bf(float64(2*i-1)))
			c.Quo(c, bf(float64(2*i)))
		}
		return c.Quo(c, bf(float64(2*n+1)))
	}, 0.25, 13)
	if fitErr > 0x1p-56 {
		log.Fatalf("asin fit: %g", fitErr)
	}
}

func sinC(i int) float64 {
	v := 1 / fact(2*i+1)
	if i%2 == 1 {
		v = -v
	}
	return v
}

func cosC(i int) float64 {
	v := 1 / fact(2*i)
	if i%2 == 1 {
		v = -v
	}
	return v
}

func main() {
	ln2Parts()
	fits()
	asm.WriteString("// Code generated by vmathgen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\n#include \"textflag.h\"\n\n")
	variants(func(nt string) {
		trig("sinF64"+nt+"AVX2", 0)
		trig("cosF64"+nt+"AVX2", 1)
		logKernel(nt)
		powKernel(nt)
	})
	powKernels()
	f64Kernels()
	variants(atan2Kernel)
	// (log, log1p, arctan and arcsin have AVX-512 forms of their own:
	// logZKernel, atanZKernel, asinZKernel)
	for _, f := range []string{"sin", "cos", "expm1", "tanh", "tan", "atan2", "pow", "pow15", "pow25"} {
		z8Kernel(f+"F64AVX2", f+"F64Z8")
		z8Kernel(f+"F64NTAVX2", f+"F64NTZ8")
	}
	z8Asmgen("expF64AVX2", "expF64Z8")
	logZFit()
	logZKernel(false, "")
	logZKernel(true, "")
	logZKernel(false, "log2")
	logZKernel(false, "log10")
	atanZKernel()
	asinZKernel(false)
	asinZKernel(true)
	logZData()
	for i, c := range consts {
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&asm, "DATA vmd<>+%d(SB)/8, $0x%016x\n", 32*i+8*j, c)
		}
	}
	fmt.Fprintf(&asm, "GLOBL vmd<>(SB), RODATA|NOPTR, $%d\n", 32*len(consts))
	// vmtail<>+32r: the mask of the first r lanes
	for r := 0; r < 4; r++ {
		for j := 0; j < 4; j++ {
			v := uint64(0)
			if j < r {
				v = ^v
			}
			fmt.Fprintf(&asm, "DATA vmtail<>+%d(SB)/8, $0x%016x\n", 32*r+8*j, v)
		}
	}
	asm.WriteString("GLOBL vmtail<>(SB), RODATA|NOPTR, $128\n")
	if err := os.WriteFile("vmath_amd64.s", asm.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	var g bytes.Buffer
	g.WriteString("// Code generated by vmathgen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\npackage compute\n\nimport \"unsafe\"\n\n")
	g.Write(decl.Bytes())
	src, err := format.Source(g.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("vmath_kernels_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
	var c bytes.Buffer
	c.WriteString("// Code generated by vmathgen.go; DO NOT EDIT.\n\npackage compute\n\nimport \"math\"\n\n")
	c.WriteString("// atanQ is Q of arctan(v) = v + v z Q(z), z = v^2 <= tan(pi/8)^2, as in\n// the float64 arctan and arctan2 kernels (coefficients from z^0 up).\n")
	c.WriteString("var atanQ = [...]float64{\n")
	for _, v := range atanQ {
		fmt.Fprintf(&c, "\tmath.Float64frombits(0x%016x), // %g\n", math.Float64bits(v), v)
	}
	c.WriteString("}\n")
	for _, v := range []struct {
		name, doc string
		c         []float64
	}{{"sinS", "sinS is S of sin r = r + r z S(z), z = r^2 <= (pi/4)^2 (vmathgen.go's sinCosPolys).", sinS},
		{"cosQ", "cosQ is C of cos r = 1 + z (-1/2 + z C(z)), z = r^2 <= (pi/4)^2.", cosQ}} {
		fmt.Fprintf(&c, "\n// %s\nvar %s = [...]float64{\n", v.doc, v.name)
		for _, x := range v.c {
			fmt.Fprintf(&c, "\tmath.Float64frombits(0x%016x), // %g\n", math.Float64bits(x), x)
		}
		c.WriteString("}\n")
	}
	src, err = format.Source(c.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("vmath_coef.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// The AVX-512 forms (8 lanes, Z registers) of the float64 routines are
// translated from the AVX2 kernels' text, line by line (z8Kernel), so
// that both compute each lane with the same instructions and give the
// same bits: a Z8 kernel does whole vectors of 8 from the start and stops
// at the first vector with an argument outside its range (or fewer than 8
// left), returning how many it did; the Go wrapper (vmath_amd64.go) goes
// on with the AVX2 kernel from there.

var (
	yReg    = regexp.MustCompile(`\bY([0-9]+)\b`)
	xReg    = regexp.MustCompile(`\bX([0-9]+)\b`)
	z8Plain = map[string]string{"VPOR": "VPORQ", "VPAND": "VPANDQ", "VPXOR": "VPXORQ", "VPANDN": "VPANDNQ",
		"VMOVDQU": "VMOVDQU64", "VMOVDQA": "VMOVDQA64", "VCVTPD2PSY": "VCVTPD2PS"}
	// z8Ok lists the instructions that carry over as they are (registers
	// widened; a vmd<> constant as a broadcast operand where marked).
	z8Ok = map[string]bool{"VADDPD": true, "VSUBPD": true, "VMULPD": true, "VDIVPD": true, "VSQRTPD": true,
		"VMINPD": true, "VMAXPD": true, "VANDPD": true, "VORPD": true, "VXORPD": true, "VANDNPD": true,
		"VFMADD213PD": true, "VFMADD231PD": true, "VFMSUB213PD": true, "VFMSUB231PD": true,
		"VFNMADD213PD": true, "VFNMADD231PD": true, "VFNMSUB213PD": true, "VFNMSUB231PD": true,
		"VPADDQ": true, "VPSUBQ": true, "VPSLLQ": true, "VPSRLQ": true, "VPORQ": true, "VPANDQ": true, "VPXORQ": true,
		"VPANDNQ": true, "VMOVAPD": true, "VMOVUPD": true, "VMOVNTPD": true, "VCVTPS2PD": true, "VCVTPD2PS": true,
		"VMOVDQU64": true, "VMOVDQA64": true, "VMOVUPS": true, "VBROADCASTSD": true}
)

// z8Line translates one line of an AVX2 kernel's vector loop.
func z8Line(l string) []string {
	t := strings.TrimSpace(l)
	sp := strings.IndexByte(t, ' ')
	if sp < 0 {
		log.Fatalf("z8: %q", l)
	}
	op, args := t[:sp], t[sp+1:]
	switch op {
	case "CMPQ", "JGE", "JNE", "JE", "JMP", "ADDQ", "CMPL", "TESTL", "MOVQ":
		return []string{t}
	}
	args = xReg.ReplaceAllString(yReg.ReplaceAllString(args, "Z$1"), "Y$1")
	a := strings.Split(args, ", ")
	if m, ok := z8Plain[op]; ok {
		op = m
	}
	c := constRef.FindString(args)
	bc := ""
	if c != "" {
		bc = ".BCST"
	}
	switch op {
	case "VMOVUPD", "VMOVAPD", "VMOVDQU64", "VMOVDQA64", "VMOVUPS":
		if c != "" { // a constant: all lanes alike, broadcast
			return []string{"VBROADCASTSD " + args}
		}
		return []string{op + " " + args}
	case "VCMPPD": // vector mask, as in AVX2
		return []string{"VCMPPD" + bc + " " + strings.Join(a[:3], ", ") + ", K7", "VPMOVM2Q K7, " + a[3]}
	case "VBLENDVPD": // m, t, f, d: d = m ? t : f
		if strings.Contains(a[2], "(") {
			log.Fatalf("z8: blend with a memory false operand: %q", l)
		}
		return []string{"VPMOVQ2M " + a[0] + ", K7", "VBLENDMPD" + bc + " " + a[1] + ", " + a[2] + ", K7, " + a[3]}
	case "VROUNDPD": // the same immediate (scale 0)
		return []string{"VRNDSCALEPD " + args}
	case "VCVTPD2DQY":
		return []string{"VCVTPD2DQ " + args}
	case "VPMOVSXDQ":
		return []string{"VPMOVSXDQ " + args}
	case "VMOVMSKPD":
		return []string{"VPMOVQ2M " + a[0] + ", K7", "KMOVB K7, " + a[1]}
	}
	if !z8Ok[op] {
		log.Fatalf("z8: no AVX-512 form for %q", l)
	}
	return []string{op + bc + " " + args}
}

// z8Kernel appends to asm the AVX-512 form name of the AVX2 kernel src
// (its text in asm): the argument loads, then the single-vector loop
// (after "one:" where the kernel has a pair loop, else after "loop:") up
// to its step, translated, 8 lanes a step.
func z8Kernel(src, name string) { z8From(asm.String(), decl.String(), nil, src, name) }

var mathdRef = regexp.MustCompile(`mathd<>\+([0-9]+)\(SB\)`)

// z8Asmgen is z8Kernel for a kernel of asmgen.go's kernels_amd64.s
// (written before this generator runs): its constants (rows of four
// equal lanes in mathd<>) are copied by value into vmd<>.
func z8Asmgen(src, name string) {
	text, err := os.ReadFile("kernels_amd64.s")
	if err != nil {
		log.Fatal(err)
	}
	rows := map[int]uint64{}
	for _, m := range regexp.MustCompile(`DATA mathd<>\+([0-9]+)\(SB\)/8, \$0x([0-9a-f]+)`).FindAllStringSubmatch(string(text), -1) {
		var off int
		var v uint64
		fmt.Sscan(m[1], &off)
		fmt.Sscanf(m[2], "%x", &v)
		if r, ok := rows[off/32*32]; ok && r != v {
			log.Fatalf("z8: mathd<>+%d is not a row of equal lanes", off/32*32)
		}
		rows[off/32*32] = v
	}
	goDecl, err := os.ReadFile("kernels_amd64.go")
	if err != nil {
		log.Fatal(err)
	}
	z8From(string(text), string(goDecl), func(l string) string {
		return mathdRef.ReplaceAllStringFunc(l, func(c string) string {
			var off int
			fmt.Sscan(mathdRef.FindStringSubmatch(c)[1], &off)
			v, ok := rows[off]
			if !ok {
				log.Fatalf("z8: no constant %s", c)
			}
			return kb(v)
		})
	}, src, name)
}

// z8From translates kernel src of the assembly text (its Go declaration
// in goDecl), each line first through consts when not nil.
func z8From(text, goDecl string, consts func(string) string, src, name string) {
	i := strings.Index(text, "TEXT ·"+src+"(SB)")
	if i < 0 {
		log.Fatalf("z8: no kernel %s", src)
	}
	text = text[i:]
	text = text[:strings.Index(text, "\tRET\n")]
	lines := strings.Split(text, "\n")
	if consts != nil {
		for i := range lines {
			lines[i] = consts(lines[i])
		}
	}
	head := strings.Replace(lines[0], src, name, 1)
	sig := ""
	if d := strings.Index(goDecl, "func "+src+"("); d >= 0 {
		rest := goDecl[d+len("func "+src):]
		sig = rest[:strings.Index(rest, "\n")]
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s%s\n\n", name, sig)
	fmt.Fprintf(&asm, "// %s is %s 8 lanes a step (AVX-512, translated by z8Kernel).\n%s\n", name, src, head)
	k := 1
	for ; !strings.HasSuffix(lines[k], ":"); k++ {
		switch t := strings.TrimSpace(lines[k]); t {
		case "XORQ R8, R8", "MOVQ CX, R9", "ANDQ $-4, R9":
		default:
			for _, z := range z8Line(t) {
				p("%s", z)
			}
		}
	}
	p("XORQ R8, R8")
	p("MOVQ CX, R9")
	p("ANDQ $-8, R9")
	start := "loop:"
	if strings.Contains(text, "\none:\n") {
		start = "one:"
	}
	for ; lines[k] != start; k++ {
	}
	label("loop8")
	k++
	if b := strings.TrimSpace(lines[k]); b != "CMPQ R8, R9" && b != "CMPQ R8, CX" || !strings.HasPrefix(strings.TrimSpace(lines[k+1]), "JGE ") {
		log.Fatalf("z8: %s's loop does not start with its bound", src)
	}
	p("CMPQ R8, R9")
	p("JGE done")
	for k += 2; strings.TrimSpace(lines[k]) != "ADDQ $4, R8"; k++ {
		t := strings.TrimSpace(lines[k])
		if strings.HasSuffix(t, ":") {
			log.Fatalf("z8: a label in %s's loop", src)
		}
		for _, z := range z8Line(t) {
			if z == "CMPL AX, $0xf" {
				z = "CMPL AX, $0xff"
			}
			p("%s", z)
		}
	}
	p("ADDQ $8, R8")
	p("JMP loop8")
	label("done")
	frame := head[strings.LastIndex(head, "-")+1:]
	var fr int
	fmt.Sscan(frame, &fr)
	p("MOVQ R8, ret+%d(FP)", fr-8)
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}

// The AVX-512 logarithms (logF64Z, log1pF64Z, and log2F64Z and log10F64Z,
// the first times 1/ln2 or 1/ln10 in double-double) are written for AVX-512,
// not translated: they use what AVX2 lacks (VGETMANTPD and VGETEXPPD for
// the reduction, denormals included; VPERMI2PD for 16-entry tables held
// in registers; VFPCLASSPD and masks for the arguments outside the
// domain and the last, partial vector; VSCALEFPD), and so take about
// two thirds of the translated kernels' instructions. Their results are
// their own (within 0.52 ulp, like the AVX2 kernels', but not always the
// same bits). Each does all n elements, returning n:
//
//   - x = 2^e m, m in [1, 2); j = round(15 m) in 15..30, read from the low
//     bits of 15 m + 1.5*2^52, indexes tables of c = j/15: invc = 1/c
//     rounded (1 and 1/2 exactly at the ends), logc = -log(invc) in two
//     parts, the first on ln2hi's grid of 2^-32, so that hi = e ln2hi +
//     logc_hi is exact (and 0 for x just below 1: j = 30, e = -1).
//   - p = m invc and its FMA error pl, r = p - 1 (exact), |r| <= 1/30:
//     log x = hi + lo + log1p(r + pl), lo = e ln2lo + logc_lo, and
//     log1p(r + pl) = r + r^2 P(r) + pl (1 - r), P of degree 8 (2^-58.7
//     relative to r).
//   - t = hi + r rounded, its error by Fast2Sum (|hi| >= |r| or hi = 0),
//     and the result t + (r^2 P(r) + (lo + err + pl (1 - r))).
//   - log1p: u = 1 + x rounded, cc = x - (u - 1) (exact), log(u) as above
//     with cc 2^-e invc (1 - r) added to pl's term (log(u + cc) = log u +
//     cc/u to 2^-106).
//
// A vector with an argument outside the domain (zero, negative, NaN, an
// infinity; log1p: x <= -1) sets those lanes after, with the Go loop's
// bits (domainFix's rules; log1p of -0 is -0).

// logZP is P of log1p(r) = r + r^2 P(r) on |r| <= 1/30.
var logZP []float64

// logZTable is the 16 entries each of invc, logc_hi and logc_lo.
var logZTable [3][16]float64

// bigLogOf is log(y) for y > 0, 2 atanh((y-1)/(y+1)) by its series.
func bigLogOf(y float64) *big.Float {
	s := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sub(bf(y), bf(1)), new(big.Float).SetPrec(prec).Add(bf(y), bf(1)))
	s2 := new(big.Float).SetPrec(prec).Mul(s, s)
	sum := new(big.Float).SetPrec(prec)
	pow := new(big.Float).SetPrec(prec).Set(s)
	for k := 0; k < 400; k++ {
		sum.Add(sum, new(big.Float).SetPrec(prec).Quo(pow, bf(float64(2*k+1))))
		pow.Mul(pow, s2)
	}
	return sum.Mul(sum, bf(2))
}

// logZFit derives logZTable and logZP, checking the properties the
// kernels rely on.
func logZFit() {
	ln2 := new(big.Float).SetPrec(prec).Mul(bf(2), atanhInv(3))
	rmax := 0.0
	for j := 15; j <= 30; j++ {
		var invc float64
		switch j {
		case 15:
			invc = 1
		case 30:
			invc = 0.5
		default:
			invc, _ = new(big.Float).SetPrec(prec).Quo(bf(15), bf(float64(j))).Float64()
		}
		lc := bigLogOf(invc)
		lc.Neg(lc)
		f, _ := lc.Float64()
		hi := math.Round(f*0x1p32) * 0x1p-32
		if j == 30 {
			hi = ln2hi
			if d, _ := new(big.Float).SetPrec(prec).Sub(ln2, lc).Float64(); d != 0 {
				log.Fatal("logZ: logc of 1/2 is not ln2")
			}
		}
		lo, _ := new(big.Float).SetPrec(prec).Sub(lc, bf(hi)).Float64()
		if j == 30 && lo != ln2lo {
			log.Fatal("logZ: logc_lo of 1/2 is not ln2lo")
		}
		if hi*0x1p32 != math.Trunc(hi*0x1p32) || math.Abs(lo) > 0x1p-32 {
			log.Fatalf("logZ: logc_hi %v off the 2^-32 grid", hi)
		}
		logZTable[0][j&15], logZTable[1][j&15], logZTable[2][j&15] = invc, hi, lo
		// the m that round to j (15 m in [j - 1/2, j + 1/2], within [1, 2))
		// and the largest |r| there (the product p rounded: + 2^-52)
		mlo, mhi := max(1, (float64(j)-0.5)/15), min(2, (float64(j)+0.5)/15)
		r := max(math.Abs(mlo*invc-1), math.Abs(mhi*invc-1)) + 0x1p-52
		rmax = max(rmax, r)
		// Fast2Sum of hi + r: |hi| >= |r| wherever hi is not 0
		for e := -2; e <= 2; e++ {
			h := float64(e)*ln2hi + hi
			if h != 0 && math.Abs(h) < r {
				log.Fatalf("logZ: |hi| %v < |r| %v at j %d, e %d", h, r, j, e)
			}
		}
	}
	if rmax > 1.0/30+0x1p-50 {
		log.Fatalf("logZ: |r| up to %v", rmax)
	}
	// P(r) = sum_{k>=0} (-1)^(k+1) r^k/(k+2); its error times |r| is the
	// error of r^2 P relative to r
	logZP = fitPolyOn(func(k int) *big.Float {
		v := new(big.Float).SetPrec(prec).Quo(bf(1), bf(float64(k+2)))
		if k%2 == 0 {
			v.Neg(v)
		}
		return v
	}, -rmax, rmax, 8)
	if fitErr > 0x1.6ap-59 { // 2^-58.5: 0.02 ulp of the result
		log.Fatalf("logZ fit: 2^%.1f", math.Log2(fitErr))
	}
}

// logZKernel writes logF64Z (log1p: log1pF64Z; scale: log2F64Z or
// log10F64Z, the logarithm times 1/ln2 or 1/ln10 in double-double).
func logZKernel(log1p bool, scale string) {
	name := "logF64Z"
	if log1p {
		name = "log1pF64Z"
	}
	if scale != "" {
		name = scale + "F64Z"
	}
	head(name, "dst, x unsafe.Pointer, n int", 32)
	for _, a := range unaryArgs {
		p("%s", a)
	}
	for t := 0; t < 3; t++ { // the tables into Z16-Z21, 32 bytes a load
		for h := 0; h < 2; h++ {
			off := 128*t + 64*h
			z := fmt.Sprintf("Z%d", 16+2*t+h)
			p("VBROADCASTF64X4 vmlogz<>+%d(SB), %s", off, z)
			p("VINSERTF64X4 $1, vmlogz<>+%d(SB), %s, %s", off+32, z, z)
		}
	}
	p("VBROADCASTSD %s, Z22", k(0x1.8p52))
	p("VBROADCASTSD %s, Z23", k(15))
	p("XORQ R8, R8")
	p("MOVQ CX, R9")
	p("ANDQ $-8, R9")
	label("loop")
	p("CMPQ R8, R9")
	p("JGE tail")
	p("VMOVUPD (SI)(R8*8), Z0")
	logZBody(log1p, scale)
	p("JNE fix")
	label("store")
	p("VMOVUPD Z10, (DI)(R8*8)")
	p("ADDQ $8, R8")
	p("JMP loop")
	label("tail")
	p("CMPQ R8, CX")
	p("JGE done")
	p("MOVQ CX, R10")
	p("SUBQ R8, R10")
	p("LEAQ vmlogzmask<>(SB), R11")
	p("MOVBLZX (R11)(R10*1), AX")
	p("KMOVB AX, K2") // the lanes left
	p("VBROADCASTSD %s, Z0", k(0.5))
	p("VMOVUPD (SI)(R8*8), K2, Z0")
	logZBody(log1p, scale)
	p("JNE tfix")
	label("tstore")
	p("VMOVUPD Z10, K2, (DI)(R8*8)")
	p("MOVQ CX, R8")
	label("done")
	p("MOVQ R8, ret+24(FP)")
	p("VZEROUPPER")
	p("RET")
	label("fix")
	logZFix(log1p, scale)
	p("JMP store")
	label("tfix")
	logZFix(log1p, scale)
	p("JMP tstore")
	asm.WriteString("\n")
}

// logZBody: Z0 = x -> Z10 = log x (log1p x; scale "log2", "log10": log x
// times 1/ln2 or 1/ln10), the flags set for JNE to jump when a lane is
// outside the domain. Uses Z1-Z13, K1, K3.
func logZBody(log1p bool, scale string) {
	if log1p {
		p("VFPCLASSPDZ $0x9d, Z0, K1") // NaN, infinities, -0
		p("VCMPPD.BCST $0x12, %s, Z0, K3", k(-1))
		p("KORB K3, K1, K1")
	} else {
		p("VFPCLASSPDZ $0xdf, Z0, K1") // NaN, zeros, infinities, negatives
	}
	u := "Z0"
	if log1p {
		u = "Z11"
		p("VADDPD.BCST %s, Z0, Z11", k(1)) // u
		p("VSUBPD.BCST %s, Z11, Z12", k(1))
		p("VSUBPD Z12, Z0, Z12") // cc = x - (u - 1)
	}
	p("VGETMANTPD $0, %s, Z1", u) // m in [1, 2)
	p("VGETEXPPD %s, Z2", u)      // e
	p("VMOVAPD Z22, Z3")
	p("VFMADD231PD Z23, Z1, Z3") // 15 m + 1.5*2^52: j in the low bits
	p("VMOVAPD Z3, Z4")
	p("VPERMI2PD Z17, Z16, Z4") // invc
	p("VMOVAPD Z3, Z5")
	p("VPERMI2PD Z19, Z18, Z5") // logc_hi
	p("VPERMI2PD Z21, Z20, Z3") // logc_lo
	p("VMULPD Z4, Z1, Z6")      // p
	p("VFMSUB213PD Z6, Z4, Z1") // pl = m invc - p
	if log1p {
		p("VXORPD.BCST %s, Z2, Z13", kb(1<<63))
		p("VSCALEFPD Z13, Z12, Z12") // cc 2^-e
		p("VMULPD Z4, Z12, Z12")
		p("VADDPD Z12, Z1, Z1") // pl + cc/u
	}
	p("VSUBPD.BCST %s, Z6, Z6", k(1)) // r
	p("VMULPD Z6, Z6, Z7")            // r^2
	d := len(logZP) - 1
	p("VBROADCASTSD %s, Z8", k(logZP[d]))
	for i := d - 1; i >= 0; i-- {
		p("VFMADD213PD.BCST %s, Z6, Z8", k(logZP[i]))
	}
	p("VFMADD231PD.BCST %s, Z2, Z5", k(ln2hi)) // hi, exact
	p("VFMADD231PD.BCST %s, Z2, Z3", k(ln2lo)) // lo
	p("VADDPD Z6, Z5, Z9")                     // t = hi + r
	p("VSUBPD Z9, Z5, Z5")
	p("VADDPD Z6, Z5, Z5")       // its error
	p("VFNMADD231PD Z6, Z1, Z1") // pl (1 - r)
	p("VADDPD Z5, Z3, Z3")
	p("VADDPD Z1, Z3, Z3")
	p("VFMADD213PD Z3, Z7, Z8") // r^2 P + the low parts
	if scale == "" {
		p("VADDPD Z8, Z9, Z10")
		p("KORTESTB K1, K1")
		return
	}
	// (t + q) C with C = ch + cl: t ch exactly as p + pe (FMA), then p +
	// (pe + t cl + q ch)
	ch, cl := logZScale(scale)
	p("VMULPD.BCST %s, Z9, Z10", k(ch)) // p
	p("VMOVAPD Z10, Z11")
	p("VFMSUB231PD.BCST %s, Z9, Z11", k(ch)) // pe
	p("VMULPD.BCST %s, Z9, Z12", k(cl))
	p("VFMADD231PD.BCST %s, Z8, Z12", k(ch))
	p("VADDPD Z11, Z12, Z12")
	p("VADDPD Z12, Z10, Z10")
	p("KORTESTB K1, K1")
}

// logZScale is 1/ln2 (scale "log2") or 1/ln10 ("log10") in two parts.
func logZScale(scale string) (hi, lo float64) {
	ln2 := new(big.Float).SetPrec(prec).Mul(bf(2), atanhInv(3))
	l := ln2
	if scale == "log10" {
		l = bigLogOf(10)
	}
	c := new(big.Float).SetPrec(prec).Quo(bf(1), l)
	hi, _ = c.Float64()
	lo, _ = new(big.Float).SetPrec(prec).Sub(c, bf(hi)).Float64()
	return hi, lo
}

// logZFix sets the lanes of Z10 whose x (Z0) is outside the domain, as
// domainFix does (scaled, a signaling NaN quieted). Uses K3, K4.
func logZFix(log1p bool, scale string) {
	if log1p {
		p("VCMPPD.BCST $0x11, %s, Z0, K3", k(-1))
		p("VFPCLASSPDZ $0x81, Z0, K4") // NaN
		p("KORB K4, K3, K3")
		p("VBROADCASTSD %s, K3, Z10", k(math.NaN()))
		p("VFPCLASSPDZ $0x0c, Z0, K3") // +Inf, -0: x
		p("VMOVAPD Z0, K3, Z10")
		p("VCMPPD.BCST $0x00, %s, Z0, K3", k(-1))
		p("VBROADCASTSD %s, K3, Z10", k(math.Inf(-1)))
		return
	}
	p("VFPCLASSPDZ $0x89, Z0, K3") // NaN, +Inf: x
	p("VMOVAPD Z0, K3, Z10")
	if scale != "" { // a signaling NaN quieted, as Go's log times its constant
		p("VFPCLASSPDZ $0x81, Z0, K3")
		p("VPORQ.BCST %s, Z0, K3, Z10", kb(1<<51))
	}
	p("VPMOVQ2M Z0, K3") // the sign bit: NaN
	p("VBROADCASTSD %s, K3, Z10", k(math.NaN()))
	p("VFPCLASSPDZ $0x06, Z0, K3") // zeros: -Inf
	p("VBROADCASTSD %s, K3, Z10", k(math.Inf(-1)))
}

// logZData writes the tables of logF64Z and log1pF64Z.
func logZData() {
	for t := range logZTable {
		for i, v := range logZTable[t] {
			fmt.Fprintf(&asm, "DATA vmlogz<>+%d(SB)/8, $0x%016x\n", 128*t+8*i, math.Float64bits(v))
		}
	}
	asm.WriteString("GLOBL vmlogz<>(SB), RODATA|NOPTR, $384\n")
	// vmlogzmask<>+r: the mask of the first r lanes (no BMI2 shift needed)
	for r := 0; r < 8; r++ {
		fmt.Fprintf(&asm, "DATA vmlogzmask<>+%d(SB)/1, $0x%02x\n", r, 1<<r-1)
	}
	asm.WriteString("GLOBL vmlogzmask<>(SB), RODATA|NOPTR, $8\n")
}

// atanZKernel emits arctanF64Z, float64 arctan written for AVX-512. It is
// atanBody2's reduction and polynomial (atanQ) without the division: the
// divider is one unit for the whole core (a VDIVPD of 8 lanes held the
// translated kernel to ~14 cycles a vector, and to ~20 whenever the
// core's other thread divided too). 1/den comes from VRCP14PD (relative
// error below 2^-14) and one Newton step (2^-28); the quotient q = num r
// is then corrected by its residual, u = q + r (num - den q) (exact by
// FMA), which squares the error again (2^-56: u is the rounded quotient
// but for the rarest ties). The denominator of the big arguments is
// capped at 2^1000 (arctan is pi/2 rounded from 2^54 up; infinity would
// make the Newton step 0 times infinity). Every lane is done in the
// kernel: tiny arguments and zeros give x through the polynomial (u = x,
// u^3 Q underflows or is below half an ulp), NaNs x quieted (Go's math
// on a NaN), so it never stops. The tail is a masked vector.
func atanZKernel() {
	head("arctanF64Z", "dst, x unsafe.Pointer, n int", 32)
	for _, a := range unaryArgs {
		p("%s", a)
	}
	pi := bigPi()
	q4 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(4)), 2)
	q2 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(2)), 2)
	for i, c := range []float64{q4[0], q4[1], q2[0], q2[1]} {
		p("VBROADCASTSD %s, Z%d", k(c), 10+i)
	}
	for i, c := range []uint64{math.Float64bits(-1), math.Float64bits(1), 0x7fffffffffffffff,
		math.Float64bits(0.41421356237309503), math.Float64bits(2.414213562373095), math.Float64bits(0x1p1000), 1 << 63} {
		p("VBROADCASTSD %s, Z%d", kb(c), []int{14, 15, 26, 27, 28, 29, 30}[i])
	}
	p("VXORPD Z31, Z31, Z31")
	zLoops(8, fmt.Sprintf("VBROADCASTSD %s, Z0", k(0.5)), atanZBody, nil)
}

// atanZBody: Z(b) = x -> Z(b+8) = arctan x for each base b of bases (the
// second 0: one vector), their instructions interleaved; uses Z(b)-Z(b+9)
// and the masks ks.
func atanZBody(bases [2]int, ks [2][3]string) {
	pi := bigPi()
	q4 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(4)), 2)
	q2 := split(new(big.Float).SetPrec(prec).Quo(pi, bf(2)), 2)
	e := zLanes(bases, ks)
	e("VANDPD Z26, Z@0, Z@1")        // a
	e("VCMPPD $0x1e, Z27, Z@1, $K3") // beyond tan(pi/8)
	e("VCMPPD $0x1e, Z28, Z@1, $K4") // beyond tan(3pi/8)
	e("VSUBPD Z15, Z@1, Z@2")        // a - 1
	e("VMOVAPD Z14, $K4, Z@2")       // num (the small lanes: u = a below)
	e("VADDPD Z15, Z@1, Z@3")        // a + 1
	e("VMINPD Z29, Z@1, $K4, Z@3")   // den
	e("VRCP14PD Z@3, Z@4")           // r0
	e("VMOVAPD Z@4, Z@5")
	e("VFNMADD213PD Z15, Z@3, Z@5") // e = 1 - den r0
	e("VFMADD213PD Z@4, Z@5, Z@4")  // r = r0 + r0 e
	e("VMULPD Z@4, Z@2, Z@5")       // q
	// the middle lanes' num = a - 1 and den = a + 1 are rounded: their
	// errors (exact: num + 1 and den - 1 are, and a minus them) go into
	// the residual, or u would be 1.6 ulp off near tan(pi/8)
	e("VADDPD Z15, Z@2, Z@6")
	e("VSUBPD Z@6, Z@1, Z@6") // a - (num + 1)
	e("VSUBPD Z15, Z@3, Z@7")
	e("VSUBPD Z@7, Z@1, Z@7")       // a - (den - 1)
	e("VFNMADD231PD Z@7, Z@5, Z@6") // their share of the residual
	e("VMOVAPD Z31, $K4, Z@6")      // none in the big lanes
	e("VFNMADD213PD Z@2, Z@5, Z@3") // num - den q
	e("VADDPD Z@6, Z@3, Z@3")
	e("VFMADD213PD Z@5, Z@4, Z@3") // u
	e("VMOVAPD Z@1, Z@6")
	e("VMOVAPD Z@3, $K3, Z@6") // u (a itself up to tan(pi/8))
	e("VMULPD Z@6, Z@6, Z@7")  // z
	q := atanQ
	d := len(q) - 1
	e("VBROADCASTSD %s, Z@8", k(q[d]))
	for i := d - 1; i >= 0; i-- {
		e("VFMADD213PD.BCST %s, Z@7, Z@8", k(q[i]))
	}
	e("VMULPD Z@6, Z@7, Z@7") // u z
	e("VXORPD Z@9, Z@9, Z@9") // base lo
	e("VXORPD Z@1, Z@1, Z@1") // base
	_, _ = q4, q2
	e("VMOVAPD Z11, $K3, Z@9")
	e("VMOVAPD Z10, $K3, Z@1")
	e("VMOVAPD Z13, $K4, Z@9")
	e("VMOVAPD Z12, $K4, Z@1")
	e("VFMADD213PD Z@9, Z@7, Z@8") // u z Q + base lo
	e("VADDPD Z@6, Z@8, Z@8")
	e("VADDPD Z@1, Z@8, Z@8")
	e("VPTERNLOGQ $0xf8, Z30, Z@0, Z@8") // | (x & sign)
}

// zLanes returns the emitter of a kernel body run on one or two vectors
// side by side: each line (a format and its arguments) is written once
// for each base of bases (the second 0: one vector), with Z@i the
// register i past the base and $K1, $K3, $K4 the base's masks of ks.
func zLanes(bases [2]int, ks [2][3]string) func(format string, args ...any) {
	nv := 1
	if bases[1] != 0 {
		nv = 2
	}
	return func(format string, args ...any) {
		for v := 0; v < nv; v++ {
			b := bases[v]
			r := strings.NewReplacer("$K1", ks[v][0], "$K3", ks[v][1], "$K4", ks[v][2])
			line := r.Replace(fmt.Sprintf(format, args...))
			for i := 15; i >= 0; i-- { // Z@11 before Z@1
				line = strings.ReplaceAll(line, fmt.Sprintf("Z@%d", i), fmt.Sprintf("Z%d", b+i))
			}
			p("%s", line)
		}
	}
}

// asinZKernel emits arcsinF64Z, float64 arcsin written for AVX-512 with
// asinBody's reduction and asinP but no square root instruction: the
// square root unit is the divider (one a core, shared by its threads), and
// VSQRTPD of 8 lanes bound the translated kernel to ~14 cycles a vector.
// With a = |x|: up to 1/2, arcsin a = w + w z P(z), w = a, z = a^2; beyond,
// z = (1 - a)/2 (exact) and w = sqrt z from VRSQRT14PD (2^-14) by
// Goldschmidt's step (g = z y, h = y/2, r = 1/2 - g h, g += g r, h += h r:
// 2^-28) and the residual (g += (z - g^2) h: 2^-56), and arcsin a =
// pi/2 - 2 arcsin w, summed as t = hi - 2w (Fast2Sum's error kept) plus
// (lo + err - 2 w z P): max 1.6 -> ~1 ulp. The reciprocal square root
// is taken of z kept above 2^-1000 (a = 1: w = 0 y = 0). Lanes beyond 1 and NaNs are
// set to Go's bits (NaN(), x quieted) by masks; the tail is a masked
// vector; the kernel does every element.
//
// With acos, arccosF64Z: the same w, z and w z P, and arccos x = C + m (w
// + w z P), C and m: pi/2 and -sign(x) up to 1/2, 0 and 2 beyond, pi and
// -2 below -1/2 (C in two parts, the sum by Fast2Sum as above).
func asinZKernel(acos bool) {
	hp := split(new(big.Float).SetPrec(prec).Quo(bigPi(), bf(2)), 2)
	name := "arcsinF64Z"
	if acos {
		name = "arccosF64Z"
	}
	head(name, "dst, x unsafe.Pointer, n int", 32)
	for _, a := range unaryArgs {
		p("%s", a)
	}
	for i, c := range []uint64{0x7fffffffffffffff, math.Float64bits(0.5), math.Float64bits(1), math.Float64bits(0x1p-1000),
		math.Float64bits(hp[0]), math.Float64bits(hp[1]), math.Float64bits(2), math.Float64bits(asinP[len(asinP)-1])} {
		p("VBROADCASTSD %s, Z%d", kb(c), []int{12, 13, 14, 15, 28, 29, 30, 31}[i])
	}
	zLoops(11, "VMOVAPD Z13, Z0", func(bases [2]int, ks [2][3]string) { asinZBody(bases, ks, acos) },
		func(id string, b int, ks [3]string) { asinZFix(id, b, ks[0], ks[1]) })
}

// asinZBody: Z@0 = x -> Z@11 = arcsin x, or arccos x (lanes beyond 1 and
// NaNs: see asinZFix, $K1 set to them); uses Z@1-Z@10, $K1, $K3, $K4 and
// the constants asinZKernel holds in Z12-Z15 and Z28-Z31.
func asinZBody(bases [2]int, ks [2][3]string, acos bool) {
	e := zLanes(bases, ks)
	e("VANDPD Z12, Z@0, Z@1")        // a
	e("VCMPPD $0x1e, Z13, Z@1, $K3") // a > 1/2
	e("VCMPPD $0x06, Z14, Z@1, $K1") // not a <= 1: outside the domain, NaN
	e("VMOVAPD Z13, Z@2")
	e("VFNMADD231PD Z13, Z@1, Z@2") // (1 - a)/2, exact beyond 1/2
	e("VMULPD Z@1, Z@1, Z@3")
	e("VMOVAPD Z@2, $K3, Z@3") // z
	e("VMAXPD Z15, Z@2, Z@4")  // zc
	e("VRSQRT14PD Z@4, Z@5")   // y
	e("VMULPD Z@5, Z@2, Z@6")  // g = z y (z, not zc: 0 at a = 1, where arccos is 0)
	e("VMULPD Z13, Z@5, Z@5")  // h = y/2
	e("VMOVAPD Z13, Z@7")
	e("VFNMADD231PD Z@5, Z@6, Z@7") // r = 1/2 - g h
	e("VFMADD231PD Z@7, Z@6, Z@6")  // g += g r
	e("VFMADD231PD Z@7, Z@5, Z@5")  // h += h r
	e("VMOVAPD Z@2, Z@7")
	e("VFNMADD231PD Z@6, Z@6, Z@7") // z - g^2
	e("VFMADD231PD Z@7, Z@5, Z@6")  // sqrt z
	e("VMOVAPD Z@1, Z@8")
	e("VMOVAPD Z@6, $K3, Z@8") // w
	e("VMOVAPD Z31, Z@9")
	for i := len(asinP) - 2; i >= 0; i-- {
		e("VFMADD213PD.BCST %s, Z@3, Z@9", k(asinP[i]))
	}
	e("VMULPD Z@3, Z@8, Z@10")
	e("VMULPD Z@9, Z@10, Z@10") // w z P
	if acos {
		pi := split(bigPi(), 2)
		e("VBROADCASTSD %s, Z@5", k(-1))
		e("VMOVAPD Z30, $K3, Z@5")
		e("VPTERNLOGQ $0x96, Z@1, Z@0, Z@5") // m: -1 or 2, times sign(x)
		e("VMULPD Z@5, Z@8, Z@8")            // v = m w
		e("VMULPD Z@5, Z@10, Z@10")          // m w z P
		e("VPMOVQ2M Z@0, $K4")
		e("KANDB $K3, $K4, $K4") // below -1/2
		e("VMOVAPD Z28, Z@6")
		e("VMOVAPD Z29, Z@7")
		e("VXORPD Z@6, Z@6, $K3, Z@6")
		e("VXORPD Z@7, Z@7, $K3, Z@7")
		e("VBROADCASTSD %s, $K4, Z@6", k(pi[0])) // C
		e("VBROADCASTSD %s, $K4, Z@7", k(pi[1])) // its low part
		e("VADDPD Z@8, Z@6, Z@11")               // t = C + v
		e("VSUBPD Z@6, Z@11, Z@6")
		e("VSUBPD Z@6, Z@8, Z@6") // its error
		e("VADDPD Z@7, Z@6, Z@6")
		e("VADDPD Z@10, Z@6, Z@6")
		e("VADDPD Z@6, Z@11, Z@11")
		return
	}
	e("VADDPD Z@10, Z@8, Z@11") // arcsin w
	e("VMOVAPD Z28, Z@4")
	e("VFNMADD231PD Z30, Z@8, Z@4") // t = hi - 2w
	e("VSUBPD Z28, Z@4, Z@5")
	e("VFNMSUB231PD Z30, Z@8, Z@5") // its error, -2w - (t - hi)
	e("VADDPD Z29, Z@5, Z@5")
	e("VFNMADD231PD Z30, Z@10, Z@5") // lo + err - 2 w z P
	e("VADDPD Z@5, Z@4, $K3, Z@11")
	e("VPTERNLOGQ $0xf6, Z@1, Z@0, Z@11") // | (x ^ a): x's sign
}

// asinZFix sets the lanes $K1 of the vector at base b (x in Z[b], the
// result in Z[b+11]) that are outside the domain: NaN() beyond 1, x
// quieted for a NaN (Go's math.Asin); id names its skip label. Uses
// the mask kt.
func asinZFix(id string, b int, k1, kt string) {
	p("KORTESTB %s, %s", k1, k1)
	p("JEQ asinok%s", id)
	p("VBROADCASTSD %s, %s, Z%d", kb(0x7ff8000000000001), k1, b+11)
	p("VFPCLASSPDZ $0x81, Z%d, %s", b, kt)
	p("VPORQ.BCST %s, Z%d, %s, Z%d", kb(1<<51), b, kt, b+11)
	label("asinok" + id)
}

// zLoops emits the loops of a float64 kernel written for AVX-512 whose
// body (on zLanes' registers) maps Z@0 = x to Z@out: two vectors a step
// (bases 0 and 16; masks K1, K3, K4 and K5, K6, K7), then one, then the
// last n%8 as a vector loaded under the mask of vmlogzmask<> over the
// value benign sets (one inside the domain), stored under it; fix, when
// not nil, runs after each body for each vector (an id for its labels, the
// base, the masks). The arguments are in DI, SI, CX (unaryArgs); it ends
// the function.
func zLoops(out int, benign string, body func(bases [2]int, ks [2][3]string), fix func(id string, b int, ks [3]string)) {
	two := [2][3]string{{"K1", "K3", "K4"}, {"K5", "K6", "K7"}}
	one := [2][3]string{{"K1", "K3", "K4"}}
	p("XORQ R8, R8")
	p("MOVQ CX, R9")
	p("ANDQ $-16, R9")
	label("loop2") // two vectors a step, for the long chains' sake
	p("CMPQ R8, R9")
	p("JGE one")
	p("VMOVUPD (SI)(R8*8), Z0")
	p("VMOVUPD 64(SI)(R8*8), Z16")
	body([2]int{0, 16}, two)
	if fix != nil {
		fix("a2", 0, two[0])
		fix("b2", 16, two[1])
	}
	p("VMOVUPD Z%d, (DI)(R8*8)", out)
	p("VMOVUPD Z%d, 64(DI)(R8*8)", 16+out)
	p("ADDQ $16, R8")
	p("JMP loop2")
	label("one")
	p("MOVQ CX, R9")
	p("ANDQ $-8, R9")
	p("CMPQ R8, R9")
	p("JGE tail")
	p("VMOVUPD (SI)(R8*8), Z0")
	body([2]int{0}, one)
	if fix != nil {
		fix("a1", 0, one[0])
	}
	p("VMOVUPD Z%d, (DI)(R8*8)", out)
	p("ADDQ $8, R8")
	label("tail")
	p("CMPQ R8, CX")
	p("JGE done")
	p("MOVQ CX, R10")
	p("SUBQ R8, R10")
	p("LEAQ vmlogzmask<>(SB), R11")
	p("MOVBLZX (R11)(R10*1), AX")
	p("KMOVB AX, K2") // the lanes left
	p("%s", benign)
	p("VMOVUPD (SI)(R8*8), K2, Z0")
	body([2]int{0}, one)
	if fix != nil {
		fix("t1", 0, one[0])
	}
	p("VMOVUPD Z%d, K2, (DI)(R8*8)", out)
	p("MOVQ CX, R8")
	label("done")
	p("MOVQ R8, ret+24(FP)")
	p("VZEROUPPER")
	p("RET")
	asm.WriteString("\n")
}
