//go:build ignore

// asmgen.go writes kernels_amd64.s and kernels_amd64.go: AVX2 loops for the
// hottest elementwise kernels. Each assembly routine handles whole vectors
// only (n a multiple of the lane count); the generated Go wrapper runs the
// rest with the portable Go loop. Variants ending in NT store with
// non-temporal (streaming) stores to a 32-byte aligned destination; their
// wrappers align the head in Go. Run with `go generate ./compute`.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"math"
	"math/big"
	"os"
	"strings"
)

type typ struct {
	name    string // Go type
	konst   string // Type constant
	size    int
	load    string // vector load
	store   string // vector store
	storeNT string
	bcast   string
	float   bool
}

var (
	f32 = typ{"float32", "Float32", 4, "VMOVUPS", "VMOVUPS", "VMOVNTPS", "VBROADCASTSS", true}
	f64 = typ{"float64", "Float64", 8, "VMOVUPD", "VMOVUPD", "VMOVNTPD", "VBROADCASTSD", true}
	i32 = typ{"int32", "Int32", 4, "VMOVDQU", "VMOVDQU", "VMOVNTDQ", "VPBROADCASTD", false}
	i64 = typ{"int64", "Int64", 8, "VMOVDQU", "VMOVDQU", "VMOVNTDQ", "VPBROADCASTQ", false}
	u32 = typ{"uint32", "Uint32", 4, "VMOVDQU", "VMOVDQU", "VMOVNTDQ", "VPBROADCASTD", false}
	u64 = typ{"uint64", "Uint64", 8, "VMOVDQU", "VMOVDQU", "VMOVNTDQ", "VPBROADCASTQ", false}
)

type arith struct {
	op    string // Op constant
	stem  string // generated Go loop stem (kernels_gen.go)
	insts map[string]string
}

var ariths = []arith{
	{"Add", "add", map[string]string{"float32": "VADDPS", "float64": "VADDPD", "int32": "VPADDD", "int64": "VPADDQ", "uint32": "VPADDD", "uint64": "VPADDQ"}},
	{"Sub", "sub", map[string]string{"float32": "VSUBPS", "float64": "VSUBPD", "int32": "VPSUBD", "int64": "VPSUBQ", "uint32": "VPSUBD", "uint64": "VPSUBQ"}},
	{"Mul", "mul", map[string]string{"float32": "VMULPS", "float64": "VMULPD", "int32": "VPMULLD", "uint32": "VPMULLD", "int64": mul64, "uint64": mul64}},
}

// mul64 stands for the 64-bit multiply, which AVX2 lacks (VPMULLQ is
// AVX-512): the low 64 bits of x*y are xl*yl + ((xh*yl + xl*yh) << 32)
// from three VPMULUDQ (32x32 -> 64 bits), the same for either sign.
const mul64 = "mul64"

// mul64Seq is r = r * y for mul64: y a vector or memory operand (loaded
// into t0), or a repeated element broadcast in y with its high half in yh
// (yh != ""); t0..t2 are scratch registers.
func mul64Seq(r, y, yh, t0, t1, t2 string) string {
	s := ""
	if yh == "" {
		if !strings.HasPrefix(y, "Y") {
			s += fmt.Sprintf("\tVMOVDQU %s, %s\n", y, t0)
			y = t0
		}
		s += fmt.Sprintf("\tVPSRLQ $32, %s, %s\n", y, t2)
		yh = t2
	}
	s += fmt.Sprintf("\tVPSRLQ $32, %s, %s\n\tVPMULUDQ %s, %s, %s\n", r, t1, y, t1, t1)     // xh*yl
	s += fmt.Sprintf("\tVPMULUDQ %s, %s, %s\n\tVPADDQ %s, %s, %s\n", r, yh, t2, t2, t1, t1) // + xl*yh
	s += fmt.Sprintf("\tVPSLLQ $32, %s, %s\n\tVPMULUDQ %s, %s, %s\n\tVPADDQ %s, %s, %s\n", t1, t1, y, r, r, t1, r, r)
	return s
}

var asm, decl, reg bytes.Buffer

func cat(t typ) string {
	switch {
	case t.float:
		return "f"
	case strings.HasPrefix(t.name, "u"):
		return "u"
	}
	return "s"
}

func lanes(t typ) int { return 32 / t.size }

// emitArith writes dst = x op y for whole vectors. form: vv, vs, sv.
func emitArith(a arith, t typ, form string, nt bool) string {
	inst := a.insts[t.name]
	name := fmt.Sprintf("%s%s%s", a.stem, strings.ToUpper(form), t.konst)
	if nt {
		name += "NT"
	}
	st := storeFor(t, nt)
	L := lanes(t)
	w := &asm
	prologue(name, "dst, x, y unsafe.Pointer, n int", "DI", "SI", "DX", "CX")
	switch form {
	case "vs":
		fmt.Fprintf(w, "\t%s (DX), Y4\n", t.bcast)
	case "sv":
		fmt.Fprintf(w, "\t%s (SI), Y4\n", t.bcast)
	}
	if inst == mul64 && form != "vv" {
		fmt.Fprintf(w, "\tVPSRLQ $32, Y4, Y8\n")
	}
	one := func(r, off string) string { return vectorOp(t, inst, form, r, off) }
	adv := func(bytes int) string { return advance(form, bytes) }
	fmt.Fprintf(w, "loop4:\n\tCMPQ CX, $%d\n\tJLT loop1\n", 4*L)
	regs := []string{"Y0", "Y1", "Y2", "Y3"}
	for i, r := range regs {
		fmt.Fprint(w, one(r, fmt.Sprint(i*32)))
	}
	for i, r := range regs {
		fmt.Fprintf(w, "\t%s %s, %d(DI)\n", st, r, i*32)
	}
	fmt.Fprint(w, adv(128))
	fmt.Fprintf(w, "\tSUBQ $%d, CX\n\tJMP loop4\n", 4*L)
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprint(w, one("Y0", "0"))
	fmt.Fprintf(w, "\t%s Y0, (DI)\n", st)
	fmt.Fprint(w, adv(32))
	fmt.Fprintf(w, "\tSUBQ $%d, CX\n\tJMP loop1\n", L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")

	// Go wrapper
	goForm := strings.ToUpper(form)
	loop := fmt.Sprintf("%s_%s_%s[%s]", a.stem, cat(t), goForm, t.name)
	wrap := fmt.Sprintf("wrap%s(%s)", goForm, loop)
	if nt {
		fmt.Fprintf(&reg, "\tntTable[%s][%s][%s] = asmBinaryNT(%sAVX2, %s, %d, %d, %q)\n", a.op, t.konst, goForm, name, wrap, t.size, L, form)
	} else {
		fmt.Fprintf(&reg, "\tbinTable[%s][%s][%s] = asmBinary(%sAVX2, %s, %d, %d, %q)\n", a.op, t.konst, goForm, name, wrap, t.size, L, form)
	}
	return name
}

// emitArith2D writes the row-looped form of a binary kernel: rows rows of
// n elements (n a multiple of the AVX2 lanes), each operand advancing by its
// own byte stride per row (0: the same row, or for a scalar form the same
// element, every time). It is NumPy's two-dimensional inner loop: a pass
// whose program is one kernel runs a whole block of rows in one call. The
// loop keeps everything in registers and indexes the three rows with one
// offset; zmm uses 512-bit vectors in the main loop (AVX-512F, for data in
// cache) and 256-bit ones for the rest of a row.
func emitArith2D(a arith, t typ, form string, nt, zmm bool) {
	inst := a.insts[t.name]
	name := fmt.Sprintf("%s%s%s2D", a.stem, strings.ToUpper(form), t.konst)
	if nt {
		name += "NT"
	}
	if zmm {
		name += "Z"
	}
	st := storeFor(t, nt)
	L := lanes(t)
	V, W := "Y", 32 // main-loop register class and width
	if zmm {
		V, W = "Z", 64
	}
	unroll := 256 / W
	load, zst := t.load, st // the main loop's moves
	if zmm && !t.float {
		load = fmt.Sprintf("VMOVDQU%d", t.size*8)
		zst = load
	}
	w := &asm
	prologue(name, "dst, x, y unsafe.Pointer, n, rows, ds, xs, ys int", "R10", "R11", "R12", "R9", "R13", "R14", "R15", "BX")
	fmt.Fprintf(w, "\tTESTQ R13, R13\n\tJZ done\n\tIMULQ $%d, R9\n", t.size)
	fmt.Fprintf(w, "row:\n")
	switch form {
	case "vs":
		fmt.Fprintf(w, "\t%s (R12), %s15\n", t.bcast, V)
	case "sv":
		fmt.Fprintf(w, "\t%s (R11), %s15\n", t.bcast, V)
	}
	if inst == mul64 && form != "vv" {
		fmt.Fprintf(w, "\tVPSRLQ $32, Y15, Y14\n")
	}
	// one vector of register class c at byte offset off from the row index AX
	one := func(c, r string, off int) string {
		reg := fmt.Sprintf("%s%s", c, r)
		ld := t.load
		if c == "Z" {
			ld = load
		}
		if inst == mul64 { // Y only (no zmm form); scratch Y8-Y10, the repeated element's high half in Y14
			switch form {
			case "vv":
				return fmt.Sprintf("\t%s %d(R11)(AX*1), %s\n", ld, off, reg) + mul64Seq(reg, fmt.Sprintf("%d(R12)(AX*1)", off), "", "Y8", "Y9", "Y10")
			case "vs":
				return fmt.Sprintf("\t%s %d(R11)(AX*1), %s\n", ld, off, reg) + mul64Seq(reg, "Y15", "Y14", "Y8", "Y9", "Y10")
			default:
				return fmt.Sprintf("\t%s %d(R12)(AX*1), %s\n", ld, off, reg) + mul64Seq(reg, "Y15", "Y14", "Y8", "Y9", "Y10")
			}
		}
		switch form {
		case "vv":
			return fmt.Sprintf("\t%s %d(R11)(AX*1), %s\n\t%s %d(R12)(AX*1), %s, %s\n", ld, off, reg, inst, off, reg, reg)
		case "vs":
			return fmt.Sprintf("\t%s %d(R11)(AX*1), %s\n\t%s %s15, %s, %s\n", ld, off, reg, inst, c, reg, reg)
		default: // sv: r = x - y[i]
			return fmt.Sprintf("\t%s %d(R12)(AX*1), %s\n\t%s %s, %s15, %s\n", ld, off, reg, inst, reg, c, reg)
		}
	}
	fmt.Fprintf(w, "\tXORQ AX, AX\n\tCMPQ R9, $256\n\tJLT tail\n")
	fmt.Fprintf(w, "main:\n")
	for k := 0; k < unroll; k++ {
		fmt.Fprint(w, one(V, fmt.Sprint(k), k*W))
	}
	for k := 0; k < unroll; k++ {
		fmt.Fprintf(w, "\t%s %s%d, %d(R10)(AX*1)\n", zst, V, k, k*W)
	}
	fmt.Fprintf(w, "\tADDQ $256, AX\n\tLEAQ 256(AX), CX\n\tCMPQ CX, R9\n\tJLE main\n")
	fmt.Fprintf(w, "tail:\n\tCMPQ AX, R9\n\tJGE next\n")
	fmt.Fprint(w, one("Y", "0", 0))
	fmt.Fprintf(w, "\t%s Y0, (R10)(AX*1)\n\tADDQ $32, AX\n\tJMP tail\n", st)
	fmt.Fprintf(w, "next:\n\tADDQ R14, R10\n\tADDQ R15, R11\n\tADDQ BX, R12\n\tDECQ R13\n\tJNZ row\n")
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	tbl := "table2D"
	switch {
	case nt:
		tbl = "table2DNT"
	case zmm:
		tbl = "table2DZ"
	}
	fmt.Fprintf(&reg, "\t%s[%s][%s][%s] = Binary2D{Func: %sAVX2, Lanes: %d}\n", tbl, a.op, t.konst, strings.ToUpper(form), name, L)
}

// emitChain writes dst = (a op1 b) op2 c for floats in one pass, rounding
// after each op as the two kernels would: a is a vector, b and c vectors or
// one repeated element (bs, cs). Whole vectors only.
func emitChain(a1, a2 arith, t typ, bs, cs string, nt bool) {
	i1, i2 := a1.insts[t.name], a2.insts[t.name]
	name := fmt.Sprintf("%s%s%s%s%s", a1.stem, strings.ToUpper(a2.stem[:1])+a2.stem[1:], strings.ToUpper(bs), strings.ToUpper(cs), t.konst)
	if nt {
		name += "NT"
	}
	st := storeFor(t, nt)
	L := lanes(t)
	w := &asm
	prologue(name, "dst, a, b, c unsafe.Pointer, n int", "DI", "SI", "DX", "R8", "CX")
	if bs == "s" {
		fmt.Fprintf(w, "\t%s (DX), Y14\n", t.bcast)
	}
	if cs == "s" {
		fmt.Fprintf(w, "\t%s (R8), Y15\n", t.bcast)
	}
	one := func(r string, off int) string {
		s := fmt.Sprintf("\t%s %d(SI), %s\n", t.load, off, r)
		if bs == "s" {
			s += fmt.Sprintf("\t%s Y14, %s, %s\n", i1, r, r)
		} else {
			s += fmt.Sprintf("\t%s %d(DX), %s, %s\n", i1, off, r, r)
		}
		if cs == "s" {
			s += fmt.Sprintf("\t%s Y15, %s, %s\n", i2, r, r)
		} else {
			s += fmt.Sprintf("\t%s %d(R8), %s, %s\n", i2, off, r, r)
		}
		return s
	}
	adv := func(bytes int) string {
		s := fmt.Sprintf("\tADDQ $%d, SI\n", bytes)
		if bs != "s" {
			s += fmt.Sprintf("\tADDQ $%d, DX\n", bytes)
		}
		if cs != "s" {
			s += fmt.Sprintf("\tADDQ $%d, R8\n", bytes)
		}
		return s + fmt.Sprintf("\tADDQ $%d, DI\n", bytes)
	}
	fmt.Fprintf(w, "loop4:\n\tCMPQ CX, $%d\n\tJLT loop1\n", 4*L)
	for k := 0; k < 4; k++ {
		fmt.Fprint(w, one(fmt.Sprintf("Y%d", k), k*32))
	}
	for k := 0; k < 4; k++ {
		fmt.Fprintf(w, "\t%s Y%d, %d(DI)\n", st, k, k*32)
	}
	fmt.Fprint(w, adv(128))
	fmt.Fprintf(w, "\tSUBQ $%d, CX\n\tJMP loop4\n", 4*L)
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprint(w, one("Y0", 0))
	fmt.Fprintf(w, "\t%s Y0, (DI)\n", st)
	fmt.Fprint(w, adv(32))
	fmt.Fprintf(w, "\tSUBQ $%d, CX\n\tJMP loop1\n", L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	fmt.Fprintf(&reg, "\tsetChain(%s, %s, %s, %v, %v, %v, asmChain[%s](%sAVX2, %s, %s, %d, %v, %v, %v))\n",
		a1.op, a2.op, t.konst, bs == "s", cs == "s", nt, t.name, name, a1.op, a2.op, L, bs == "s", cs == "s", nt)
}

// comparisons of floats, writing bool bytes: 8 (or 4) results per vector.
var cmps = []struct {
	op, stem string
	pred     int
}{
	{"Equal", "eq", 0x00}, {"NotEqual", "ne", 0x04}, {"Greater", "gt", 0x1e}, {"GreaterEqual", "ge", 0x1d}, {"Less", "lt", 0x11}, {"LessEqual", "le", 0x12},
}

func emitCmp(c struct {
	op, stem string
	pred     int
}, t typ, form string) {
	name := fmt.Sprintf("%s%s%s", c.stem, strings.ToUpper(form), t.konst)
	cmp := "VCMPPS"
	if t.size == 8 {
		cmp = "VCMPPD"
	}
	L := lanes(t)
	w := &asm
	prologue(name, "dst, x, y unsafe.Pointer, n int", "DI", "SI", "DX", "CX")
	fmt.Fprintf(w, "\tMOVQ $0x0101010101010101, AX\n\tVMOVQ AX, X5\n")
	fmt.Fprintf(w, "\tVPBROADCASTQ X5, Y5\n\tLEAQ ·cmp32Order(SB), AX\n\tVMOVDQU (AX), Y6\n")
	if t.size == 8 {
		fmt.Fprintf(w, "\tLEAQ ·evenBytes(SB), AX\n\tVMOVDQU (AX), Y7\n")
	}
	if form == "vs" {
		fmt.Fprintf(w, "\t%s (DX), Y4\n", t.bcast)
	}
	// four vectors a step, the masks packed to bytes
	fmt.Fprintf(w, "loop4:\n\tCMPQ CX, $%d\n\tJLT loop1\n", 4*L)
	for v := 0; v < 4; v++ {
		fmt.Fprintf(w, "\t%s %d(SI), Y%d\n", t.load, 32*v, v)
		if form == "vs" {
			fmt.Fprintf(w, "\t%s $%d, Y4, Y%d, Y%d\n", cmp, c.pred, v, v)
		} else {
			fmt.Fprintf(w, "\t%s $%d, %d(DX), Y%d, Y%d\n", cmp, c.pred, 32*v, v, v)
		}
	}
	if t.size == 4 {
		// the four masks packed to 32 bytes of 0 or -1 (saturating),
		// put back in order by cmp32Order (cmpint_amd64.s), then 0 or 1
		fmt.Fprintf(w, "\tVPACKSSDW Y1, Y0, Y0\n\tVPACKSSDW Y3, Y2, Y2\n\tVPACKSSWB Y2, Y0, Y0\n")
		fmt.Fprintf(w, "\tVPERMD Y0, Y6, Y0\n\tVPAND Y5, Y0, Y0\n\tVMOVDQU Y0, (DI)\n")
	} else {
		// the same packs leave each of the 16 results twice, in
		// cmp32Order's order: put in order (VPERMD), one byte of each
		// pair to the low half of each lane (VPSHUFB), the two halves
		// together (VPERMQ)
		fmt.Fprintf(w, "\tVPACKSSDW Y1, Y0, Y0\n\tVPACKSSDW Y3, Y2, Y2\n\tVPACKSSWB Y2, Y0, Y0\n")
		fmt.Fprintf(w, "\tVPERMD Y0, Y6, Y0\n\tVPSHUFB Y7, Y0, Y0\n\tVPERMQ $0x08, Y0, Y0\n")
		fmt.Fprintf(w, "\tVPAND X5, X0, X0\n\tVMOVDQU X0, (DI)\n")
	}
	fmt.Fprintf(w, "\tADDQ $128, SI\n")
	if form == "vv" {
		fmt.Fprintf(w, "\tADDQ $128, DX\n")
	}
	fmt.Fprintf(w, "\tADDQ $%d, DI\n\tSUBQ $%d, CX\n\tJMP loop4\n", 4*L, 4*L)
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprintf(w, "\t%s (SI), Y0\n", t.load)
	if form == "vs" {
		fmt.Fprintf(w, "\t%s $%d, Y4, Y0, Y0\n", cmp, c.pred)
	} else {
		fmt.Fprintf(w, "\t%s $%d, (DX), Y0, Y0\n", cmp, c.pred)
	}
	fmt.Fprintf(w, "\tVEXTRACTI128 $1, Y0, X1\n")
	if t.size == 4 {
		// 8 dword masks -> 8 bytes
		fmt.Fprintf(w, "\tVPACKSSDW X1, X0, X0\n\tVPACKSSWB X0, X0, X0\n\tVPAND X5, X0, X0\n\tMOVQ X0, (DI)\n")
		fmt.Fprintf(w, "\tADDQ $8, DI\n")
	} else {
		// 4 qword masks -> 4 bytes
		fmt.Fprintf(w, "\tVPACKSSDW X1, X0, X0\n\tVPACKSSDW X0, X0, X0\n\tVPACKSSWB X0, X0, X0\n\tVPAND X5, X0, X0\n\tMOVL X0, (DI)\n")
		fmt.Fprintf(w, "\tADDQ $4, DI\n")
	}
	fmt.Fprintf(w, "\tADDQ $32, SI\n")
	if form == "vv" {
		fmt.Fprintf(w, "\tADDQ $32, DX\n")
	}
	fmt.Fprintf(w, "\tSUBQ $%d, CX\n\tJMP loop1\n", L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	goForm := strings.ToUpper(form)
	loop := fmt.Sprintf("%s_f_%s[%s]", c.stem, goForm, t.name)
	fmt.Fprintf(&reg, "\tbinTable[%s][%s][%s] = asmCompare(%sAVX2, wrap%s(%s), %d, %d, %q)\n", c.op, t.konst, goForm, name, goForm, loop, t.size, L, form)
}

// where: dst[i] = c[i] != 0 ? x[i] : y[i] for 1-, 2-, 4- and 8-byte
// elements, with x a vector and y a vector or one repeated element: the
// conditions widened to the element's width and compared with zero give
// the blend's mask.
func emitWhere(size int, ys string) {
	name := fmt.Sprintf("where%d%s", size, strings.ToUpper(ys))
	L := 32 / size
	w := &asm
	prologue(name, "dst, c, x, y unsafe.Pointer, n int", "DI", "AX", "SI", "DX", "CX")
	fmt.Fprintf(w, "\tVPXOR Y6, Y6, Y6\n")
	var load, ext, eq, bc string
	switch size {
	case 1:
		load, eq, bc = "VMOVDQU (AX), Y1", "VPCMPEQB", "VPBROADCASTB"
	case 2:
		load, ext, eq, bc = "VMOVDQU (AX), X1", "VPMOVZXBW", "VPCMPEQW", "VPBROADCASTW"
	case 4:
		load, ext, eq, bc = "VMOVQ (AX), X1", "VPMOVZXBD", "VPCMPEQD", "VPBROADCASTD"
	default:
		load, ext, eq, bc = "VMOVD (AX), X1", "VPMOVZXBQ", "VPCMPEQQ", "VPBROADCASTQ"
	}
	if ys == "s" {
		fmt.Fprintf(w, "\t%s (DX), Y3\n", bc)
	}
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprintf(w, "\t%s\n", load)
	if ext != "" {
		fmt.Fprintf(w, "\t%s X1, Y1\n", ext)
	}
	fmt.Fprintf(w, "\t%s Y6, Y1, Y1\n", eq)
	fmt.Fprintf(w, "\tVMOVDQU (SI), Y2\n")
	if ys == "v" {
		fmt.Fprintf(w, "\tVMOVDQU (DX), Y3\n\tADDQ $32, DX\n")
	}
	// Y1 = (c == 0): take y there, x elsewhere
	fmt.Fprintf(w, "\tVPBLENDVB Y1, Y3, Y2, Y0\n\tVMOVDQU Y0, (DI)\n")
	fmt.Fprintf(w, "\tADDQ $%d, AX\n\tADDQ $32, SI\n\tADDQ $32, DI\n\tSUBQ $%d, CX\n\tJMP loop1\n", L, L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	fmt.Fprintf(&reg, "\twhereAsm[%d][%d] = %sAVX2\n", size, b2i(ys == "s"), name)
}

// emitSelCmp writes dst = (a op b) ? x : y for floats, a and x vectors, b
// and y vectors or one repeated element: a fused select by comparison.
func emitSelCmp(c struct {
	op, stem string
	pred     int
}, t typ, bs, ys string, nt bool) {
	name := fmt.Sprintf("sel%s%s%s%s", strings.ToUpper(c.stem[:1])+c.stem[1:], strings.ToUpper(bs), strings.ToUpper(ys), t.konst)
	if nt {
		name += "NT"
	}
	cmp, blend := "VCMPPS", "VBLENDVPS"
	if t.size == 8 {
		cmp, blend = "VCMPPD", "VBLENDVPD"
	}
	st := storeFor(t, nt)
	L := lanes(t)
	w := &asm
	prologue(name, "dst, a, b, x, y unsafe.Pointer, n int", "DI", "SI", "DX", "R8", "R9", "CX")
	if bs == "s" {
		fmt.Fprintf(w, "\t%s (DX), Y4\n", t.bcast)
	}
	if ys == "s" {
		fmt.Fprintf(w, "\t%s (R9), Y5\n", t.bcast)
	}
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprintf(w, "\t%s (SI), Y0\n", t.load)
	if bs == "s" {
		fmt.Fprintf(w, "\t%s $%d, Y4, Y0, Y1\n", cmp, c.pred)
	} else {
		fmt.Fprintf(w, "\t%s $%d, (DX), Y0, Y1\n\tADDQ $32, DX\n", cmp, c.pred)
	}
	fmt.Fprintf(w, "\t%s (R8), Y2\n", t.load)
	yr := "Y5"
	if ys == "v" {
		fmt.Fprintf(w, "\t%s (R9), Y3\n\tADDQ $32, R9\n", t.load)
		yr = "Y3"
	}
	// mask Y1: take x (Y2) where set, y elsewhere
	fmt.Fprintf(w, "\t%s Y1, Y2, %s, Y0\n\t%s Y0, (DI)\n", blend, yr, st)
	fmt.Fprintf(w, "\tADDQ $32, SI\n\tADDQ $32, R8\n\tADDQ $32, DI\n\tSUBQ $%d, CX\n\tJMP loop1\n", L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	tbl := "selTable"
	if nt {
		tbl = "selNTTable"
	}
	fmt.Fprintf(&reg, "\t%s[%s][%s][%d][%d] = asmSelect[%s](%sAVX2, %s, %d, %v, %v, %v)\n", tbl, c.op, t.konst, b2i(bs == "s"), b2i(ys == "s"), t.name, name, c.op, L, bs == "s", ys == "s", nt)
}

// vectorOp is one vector of dst = x op y into register r, at byte offset
// off: x at SI, y at DX, a repeated operand broadcast in Y4.
func vectorOp(t typ, inst, form, r, off string) string {
	if inst == mul64 { // scratch Y5-Y7, the repeated element's high half in Y8
		switch form {
		case "vv":
			return fmt.Sprintf("\t%s %s(SI), %s\n", t.load, off, r) + mul64Seq(r, off+"(DX)", "", "Y5", "Y6", "Y7")
		case "vs":
			return fmt.Sprintf("\t%s %s(SI), %s\n", t.load, off, r) + mul64Seq(r, "Y4", "Y8", "Y5", "Y6", "Y7")
		default:
			return fmt.Sprintf("\t%s %s(DX), %s\n", t.load, off, r) + mul64Seq(r, "Y4", "Y8", "Y5", "Y6", "Y7")
		}
	}
	switch form {
	case "vv":
		return fmt.Sprintf("\t%s %s(SI), %s\n\t%s %s(DX), %s, %s\n", t.load, off, r, inst, off, r, r)
	case "vs":
		return fmt.Sprintf("\t%s %s(SI), %s\n\t%s Y4, %s, %s\n", t.load, off, r, inst, r, r)
	default: // sv: r = x - y[i]
		return fmt.Sprintf("\t%s %s(DX), %s\n\t%s %s, Y4, %s\n", t.load, off, r, inst, r, r)
	}
}

// advance moves the vector operands' pointers and DI on by bytes.
func advance(form string, bytes int) string {
	s := ""
	if form != "sv" {
		s += fmt.Sprintf("\tADDQ $%d, SI\n", bytes)
	}
	if form != "vs" {
		s += fmt.Sprintf("\tADDQ $%d, DX\n", bytes)
	}
	return s + fmt.Sprintf("\tADDQ $%d, DI\n", bytes)
}

// prologue declares routine name to Go with the parameter list sig and
// opens its text: the frame holds one 8-byte word per parameter, and
// parameter i is loaded into regs[i].
func prologue(name, sig string, regs ...string) {
	params := strings.Split(sig, ",")
	fmt.Fprintf(&decl, "//go:noescape\nfunc %sAVX2(%s)\n\n", name, sig)
	fmt.Fprintf(&asm, "// func %sAVX2(%s)\n", name, sig)
	fmt.Fprintf(&asm, "TEXT ·%sAVX2(SB), NOSPLIT, $0-%d\n", name, 8*len(params))
	for i, p := range params {
		fmt.Fprintf(&asm, "\tMOVQ %s+%d(FP), %s\n", strings.Fields(p)[0], 8*i, regs[i])
	}
}

// storeFor is the vector store of t: streaming (non-temporal) or plain.
func storeFor(t typ, nt bool) string {
	if nt {
		return t.storeNT
	}
	return t.store
}

// A mapped kernel: one vector of dst = f(x) or f(x, y) per iteration, the
// body given as instructions over X in Y0 (and Y in Y1), writing Y2, with
// Y8 free for a constant set up by pre. For floats only.
type mapOp struct {
	op, stem string // Op constant, generated Go loop stem
	arity    int
	pre      func(t typ) string // constants
	body     func(t typ) string
}

func sfx(t typ) string {
	if t.size == 8 {
		return "PD"
	}
	return "PS"
}

// bcastConst loads a 32- or 64-bit constant into every lane of r.
func bcastConst(t typ, bits uint64, r string) string {
	if t.size == 8 {
		return fmt.Sprintf("\tMOVQ $0x%x, AX\n\tMOVQ AX, X15\n\tVPBROADCASTQ X15, %s\n", bits, r)
	}
	return fmt.Sprintf("\tMOVL $0x%x, AX\n\tMOVQ AX, X15\n\tVPBROADCASTD X15, %s\n", bits, r)
}

func signBit(t typ) uint64 {
	if t.size == 8 {
		return 1 << 63
	}
	return 1 << 31
}

func signConst(t typ) string { return bcastConst(t, signBit(t), "Y8") }

var maps = []mapOp{
	// NaN-propagating: MAXPS gives y when either is NaN; an unordered
	// pair takes x + y (a NaN) instead.
	{"Maximum", "maximum", 2, nil, func(t typ) string {
		p := sfx(t)
		return fmt.Sprintf("\tVMAX%s Y1, Y0, Y2\n\tVCMP%s $3, Y1, Y0, Y3\n\tVADD%s Y1, Y0, Y4\n\tVBLENDV%s Y3, Y4, Y2, Y2\n", p, p, p, p)
	}},
	{"Minimum", "minimum", 2, nil, func(t typ) string {
		p := sfx(t)
		return fmt.Sprintf("\tVMIN%s Y1, Y0, Y2\n\tVCMP%s $3, Y1, Y0, Y3\n\tVADD%s Y1, Y0, Y4\n\tVBLENDV%s Y3, Y4, Y2, Y2\n", p, p, p, p)
	}},
	// NaN-ignoring: MAXPS gives y when either is NaN; where y is NaN, x.
	{"Fmax", "fmax", 2, nil, func(t typ) string {
		p := sfx(t)
		return fmt.Sprintf("\tVMAX%s Y1, Y0, Y2\n\tVCMP%s $3, Y1, Y1, Y3\n\tVBLENDV%s Y3, Y0, Y2, Y2\n", p, p, p)
	}},
	{"Fmin", "fmin", 2, nil, func(t typ) string {
		p := sfx(t)
		return fmt.Sprintf("\tVMIN%s Y1, Y0, Y2\n\tVCMP%s $3, Y1, Y1, Y3\n\tVBLENDV%s Y3, Y0, Y2, Y2\n", p, p, p)
	}},
	// |x| with y's sign bit
	{"Copysign", "copysign", 2, signConst, func(t typ) string {
		p := sfx(t)
		return fmt.Sprintf("\tVANDN%s Y0, Y8, Y2\n\tVAND%s Y8, Y1, Y3\n\tVOR%s Y3, Y2, Y2\n", p, p, p)
	}},
	{"Abs", "abs", 1, signConst, func(t typ) string { return fmt.Sprintf("\tVANDN%s Y0, Y8, Y2\n", sfx(t)) }},
	{"Neg", "neg", 1, signConst, func(t typ) string { return fmt.Sprintf("\tVXOR%s Y8, Y0, Y2\n", sfx(t)) }},
	// IEEE division, correctly rounded like the Go loop (unlike vek's
	// reciprocal estimate, see DESIGN.md)
	{"Div", "div", 2, nil, func(t typ) string { return fmt.Sprintf("\tVDIV%s Y1, Y0, Y2\n", sfx(t)) }},
	{"Square", "square", 1, nil, func(t typ) string { return fmt.Sprintf("\tVMUL%s Y0, Y0, Y2\n", sfx(t)) }},
	{"Sqrt", "sqrt", 1, nil, func(t typ) string { return fmt.Sprintf("\tVSQRT%s Y0, Y2\n", sfx(t)) }},
	// ROUNDPS modes (with 8: no inexact exception): nearest-even, down, up, toward zero
	{"Rint", "rint", 1, nil, func(t typ) string { return fmt.Sprintf("\tVROUND%s $8, Y0, Y2\n", sfx(t)) }},
	{"Floor", "floor", 1, nil, func(t typ) string { return fmt.Sprintf("\tVROUND%s $9, Y0, Y2\n", sfx(t)) }},
	{"Ceil", "ceil", 1, nil, func(t typ) string { return fmt.Sprintf("\tVROUND%s $10, Y0, Y2\n", sfx(t)) }},
	{"Trunc", "trunc", 1, nil, func(t typ) string { return fmt.Sprintf("\tVROUND%s $11, Y0, Y2\n", sfx(t)) }},
}

// emitMap writes a mapped kernel for whole vectors; binary ones in the vv
// and vs forms (y one repeated element, broadcast once), and with
// streaming stores (nt) for results far larger than the cache.
func emitMap(m mapOp, t typ, form string, nt bool) {
	name := fmt.Sprintf("%s%s%s", m.stem, strings.ToUpper(form), t.konst)
	if nt {
		name += "NT"
	}
	L := lanes(t)
	w := &asm
	if m.arity == 1 {
		prologue(name, "dst, x unsafe.Pointer, n int", "DI", "SI", "CX")
	} else {
		prologue(name, "dst, x, y unsafe.Pointer, n int", "DI", "SI", "DX", "CX")
	}
	if m.pre != nil {
		fmt.Fprint(w, m.pre(t))
	}
	if form == "vs" {
		fmt.Fprintf(w, "\t%s (DX), Y1\n", t.bcast)
	}
	fmt.Fprintf(w, "loop1:\n\tCMPQ CX, $%d\n\tJLT done\n", L)
	fmt.Fprintf(w, "\t%s (SI), Y0\n", t.load)
	if form == "vv" {
		fmt.Fprintf(w, "\t%s (DX), Y1\n\tADDQ $32, DX\n", t.load)
	}
	fmt.Fprint(w, m.body(t))
	fmt.Fprintf(w, "\t%s Y2, (DI)\n", storeFor(t, nt))
	fmt.Fprintf(w, "\tADDQ $32, SI\n\tADDQ $32, DI\n\tSUBQ $%d, CX\n\tJMP loop1\n", L)
	fmt.Fprintf(w, "done:\n\tVZEROUPPER\n\tRET\n\n")
	if m.arity == 1 {
		if nt {
			fmt.Fprintf(&reg, "\tunNTTable[%s][%s] = asmUnaryNT(%sAVX2, wrapUnary(%s_f[%s]), %d, %d)\n", m.op, t.konst, name, m.stem, t.name, t.size, L)
			return
		}
		fmt.Fprintf(&reg, "\tunTable[%s][%s] = asmUnary(%sAVX2, wrapUnary(%s_f[%s]), %d, %d)\n", m.op, t.konst, name, m.stem, t.name, t.size, L)
		return
	}
	goForm := strings.ToUpper(form)
	if nt {
		fmt.Fprintf(&reg, "\tntTable[%s][%s][%s] = asmBinaryNT(%sAVX2, wrap%s(%s_f_%s[%s]), %d, %d, %q)\n", m.op, t.konst, goForm, name, goForm, m.stem, goForm, t.name, t.size, L, form)
		return
	}
	fmt.Fprintf(&reg, "\tbinTable[%s][%s][%s] = asmBinary(%sAVX2, wrap%s(%s_f_%s[%s]), %d, %d, %q)\n", m.op, t.konst, goForm, name, goForm, m.stem, goForm, t.name, t.size, L, form)
}

// shifts of 4- and 8-byte integers by per-lane counts (VPSLLV/VPSRLV/
// VPSRAV): a count of the width or more, read unsigned (so a negative one
// too), gives 0, or the sign for an arithmetic right shift: NumPy's and
// the Go loop's rule. int64 >> has no AVX2 instruction (VPSRAVQ is
// AVX-512) and keeps the Go loop.
var shifts = []arith{
	{"LeftShift", "lshift", map[string]string{"int32": "VPSLLVD", "int64": "VPSLLVQ", "uint32": "VPSLLVD", "uint64": "VPSLLVQ"}},
	{"RightShift", "rshift", map[string]string{"int32": "VPSRAVD", "uint32": "VPSRLVD", "uint64": "VPSRLVQ"}},
}

// bitwise ops of 4- and 8-byte integers.
var bitwise = []arith{
	{"BitwiseAnd", "bitAnd", map[string]string{"int32": "VPAND", "int64": "VPAND", "uint32": "VPAND", "uint64": "VPAND"}},
	{"BitwiseOr", "bitOr", map[string]string{"int32": "VPOR", "int64": "VPOR", "uint32": "VPOR", "uint64": "VPOR"}},
	{"BitwiseXor", "bitXor", map[string]string{"int32": "VPXOR", "int64": "VPXOR", "uint32": "VPXOR", "uint64": "VPXOR"}},
}

// float32 exp, log, tanh, sin and cos in AVX2 with FMA, Cephes' reductions and
// polynomials (about 1 ulp). The routines handle blocks of 8 lanes whose
// every argument is in the range where the polynomial is exact enough and
// the result normal (exp: [-87, 88]; log: normal positive finite floats);
// they stop at the first other block and return how many elements they
// did, and the Go wrapper computes that block with the Go loop.

// f32consts are 8-lane float32 constants, by name, in a DATA table.
var f32consts = []struct {
	name string
	bits uint32
}{}

func constF32(name string, bits uint32) string {
	for i, c := range f32consts {
		if c.name == name {
			return fmt.Sprintf("mathc<>+%d(SB)", 32*i)
		}
	}
	f32consts = append(f32consts, struct {
		name string
		bits uint32
	}{name, bits})
	return fmt.Sprintf("mathc<>+%d(SB)", 32*(len(f32consts)-1))
}

func cf(name string, v float32) string { return constF32(name, math.Float32bits(v)) }

func emitExpF32() {
	w := &asm
	fmt.Fprintf(&decl, "//go:noescape\nfunc expF32AVX2(dst, x unsafe.Pointer, n int) int\n\n")
	fmt.Fprintf(w, "// func expF32AVX2(dst, x unsafe.Pointer, n int) int\nTEXT ·expF32AVX2(SB), NOSPLIT, $0-32\n")
	fmt.Fprintf(w, "\tMOVQ dst+0(FP), DI\n\tMOVQ x+8(FP), SI\n\tMOVQ n+16(FP), CX\n\tXORQ R8, R8\n")
	fmt.Fprintf(w, "loop:\n\tCMPQ R8, CX\n\tJGE done\n")
	fmt.Fprintf(w, "\tVMOVUPS (SI)(R8*4), Y0\n")
	fmt.Fprintf(w, "\tVCMPPS $0x1d, %s, Y0, Y1\n", cf("explo", -87))
	fmt.Fprintf(w, "\tVCMPPS $0x12, %s, Y0, Y2\n", cf("exphi", 88))
	fmt.Fprintf(w, "\tVANDPS Y2, Y1, Y1\n\tVMOVMSKPS Y1, AX\n\tCMPL AX, $0xff\n\tJNE done\n")
	fmt.Fprintf(w, "\tVMULPS %s, Y0, Y1\n", cf("log2e", float32(math.Log2E)))
	fmt.Fprintf(w, "\tVROUNDPS $8, Y1, Y1\n")
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y1, Y0\n", cf("ln2hi", 0.693359375))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y1, Y0\n", cf("ln2lo", -2.12194440e-4))
	fmt.Fprintf(w, "\tVMOVUPS %s, Y2\n", cf("e0", 1.9875691500e-4))
	for i, c := range []float32{1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1} {
		fmt.Fprintf(w, "\tVFMADD213PS %s, Y0, Y2\n", cf(fmt.Sprintf("e%d", i+1), c))
	}
	fmt.Fprintf(w, "\tVMULPS Y0, Y0, Y3\n\tVFMADD213PS Y0, Y3, Y2\n\tVADDPS %s, Y2, Y2\n", cf("one", 1))
	fmt.Fprintf(w, "\tVCVTPS2DQ Y1, Y1\n\tVPADDD %s, Y1, Y1\n\tVPSLLD $23, Y1, Y1\n\tVMULPS Y1, Y2, Y2\n", constF32("i127", 127))
	fmt.Fprintf(w, "\tVMOVUPS Y2, (DI)(R8*4)\n\tADDQ $8, R8\n\tJMP loop\n")
	fmt.Fprintf(w, "done:\n\tMOVQ R8, ret+24(FP)\n\tVZEROUPPER\n\tRET\n\n")
}

// emitLogF32 writes logF32AVX2 (positive normal arguments) and, with
// domain, logSF32AVX2, which also takes zeros, negatives, NaNs and
// infinities (each such lane set to the Go loop's bits at the end): the
// Go wrapper switches to it at the first block logF32AVX2 leaves, so
// data without such values keeps the shorter loop.
func emitLogF32(domain bool) {
	w := &asm
	name := "logF32AVX2"
	if domain {
		name = "logSF32AVX2"
	}
	fmt.Fprintf(&decl, "//go:noescape\nfunc %s(dst, x unsafe.Pointer, n int) int\n\n", name)
	fmt.Fprintf(w, "// func %s(dst, x unsafe.Pointer, n int) int\nTEXT ·%s(SB), NOSPLIT, $0-32\n", name, name)
	fmt.Fprintf(w, "\tMOVQ dst+0(FP), DI\n\tMOVQ x+8(FP), SI\n\tMOVQ n+16(FP), CX\n\tXORQ R8, R8\n")
	fmt.Fprintf(w, "loop:\n\tCMPQ R8, CX\n\tJGE done\n")
	fmt.Fprintf(w, "\tVMOVUPS (SI)(R8*4), Y0\n")
	if domain {
		// every x but a positive denormal (the Go loop's): x >= min normal
		// (+Inf included), x <= 0 (zeros, -Inf) or NaN; the lanes outside
		// the domain are set at the end (x kept in Y8)
		fmt.Fprintf(w, "\tVMOVAPS Y0, Y8\n")
		fmt.Fprintf(w, "\tVCMPPS $0x1d, %s, Y0, Y1\n", constF32("minnorm", 0x00800000))
		fmt.Fprintf(w, "\tVXORPS Y3, Y3, Y3\n\tVCMPPS $0x12, Y3, Y0, Y2\n\tVORPS Y2, Y1, Y1\n")
		fmt.Fprintf(w, "\tVCMPPS $0x03, Y0, Y0, Y2\n\tVORPS Y2, Y1, Y1\n")
	} else { // normal positive finite: min normal <= x <= max float
		fmt.Fprintf(w, "\tVCMPPS $0x1d, %s, Y0, Y1\n", constF32("minnorm", 0x00800000))
		fmt.Fprintf(w, "\tVCMPPS $0x12, %s, Y0, Y2\n", constF32("maxf", 0x7f7fffff))
		fmt.Fprintf(w, "\tVANDPS Y2, Y1, Y1\n")
	}
	fmt.Fprintf(w, "\tVMOVMSKPS Y1, AX\n\tCMPL AX, $0xff\n\tJNE done\n")
	// e = exponent - 126 (as float), m = mantissa in [0.5, 1)
	fmt.Fprintf(w, "\tVPSRLD $23, Y0, Y1\n\tVPSUBD %s, Y1, Y1\n\tVCVTDQ2PS Y1, Y1\n", constF32("i126", 126))
	fmt.Fprintf(w, "\tVPAND %s, Y0, Y0\n\tVPOR %s, Y0, Y0\n", constF32("mantmask", 0x007fffff), constF32("half", math.Float32bits(0.5)))
	// m < sqrt(1/2): e -= 1, m = 2m - 1; else m = m - 1
	fmt.Fprintf(w, "\tVCMPPS $0x11, %s, Y0, Y2\n", cf("sqrthf", 0.707106781186547524))
	fmt.Fprintf(w, "\tVANDPS %s, Y2, Y3\n\tVSUBPS Y3, Y1, Y1\n", cf("one", 1))
	fmt.Fprintf(w, "\tVANDPS Y0, Y2, Y3\n\tVSUBPS %s, Y0, Y0\n\tVADDPS Y3, Y0, Y0\n", cf("one", 1))
	// y = m*z*P(m), z = m*m
	fmt.Fprintf(w, "\tVMOVUPS %s, Y2\n", cf("l0", 7.0376836292e-2))
	for i, c := range []float32{-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1} {
		fmt.Fprintf(w, "\tVFMADD213PS %s, Y0, Y2\n", cf(fmt.Sprintf("l%d", i+1), c))
	}
	fmt.Fprintf(w, "\tVMULPS Y0, Y0, Y3\n\tVMULPS Y0, Y2, Y2\n\tVMULPS Y3, Y2, Y2\n")
	// y += e*ln2lo; y -= z/2; x = m + y + e*ln2hi
	fmt.Fprintf(w, "\tVFMADD231PS %s, Y1, Y2\n", cf("ln2lo", -2.12194440e-4))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y3, Y2\n", cf("halff", 0.5))
	fmt.Fprintf(w, "\tVADDPS Y2, Y0, Y0\n\tVFMADD231PS %s, Y1, Y0\n", cf("ln2hi", 0.693359375))
	if domain {
		logF32Domain(w)
	}
	fmt.Fprintf(w, "\tVMOVUPS Y0, (DI)(R8*4)\n\tADDQ $8, R8\n\tJMP loop\n")
	fmt.Fprintf(w, "done:\n\tMOVQ R8, ret+24(FP)\n\tVZEROUPPER\n\tRET\n\n")
}

// logF32Domain sets Y0, float32 log of Y8, where x is outside the domain,
// as the Go loop (float32(math.Log(float64(x)))).
func logF32Domain(w *bytes.Buffer) {
	// NaN or +Inf: x (quieted, x + x); any other x with its sign bit set
	// (negatives, -Inf, a NaN with its sign bit): math.NaN() as a float32;
	// +-0: -Inf
	fmt.Fprintf(w, "\tVCMPPS $0x03, Y8, Y8, Y1\n\tVCMPPS $0x00, %s, Y8, Y2\n\tVORPS Y2, Y1, Y1\n", constF32("inf", 0x7f800000))
	fmt.Fprintf(w, "\tVADDPS Y8, Y8, Y2\n\tVBLENDVPS Y1, Y2, Y0, Y0\n")
	fmt.Fprintf(w, "\tVMOVUPS %s, Y2\n\tVBLENDVPS Y8, Y2, Y0, Y0\n", constF32("gonan", 0x7fc00000))
	fmt.Fprintf(w, "\tVXORPS Y3, Y3, Y3\n\tVCMPPS $0x00, Y3, Y8, Y1\n")
	fmt.Fprintf(w, "\tVMOVUPS %s, Y2\n\tVBLENDVPS Y1, Y2, Y0, Y0\n", constF32("ninf", 0xff800000))
}

// emitTanhF32: Cephes' odd polynomial below 0.625, 1 - 2/(exp(2|x|)+1)
// with the sign of x above (exp as in emitExpF32); both are computed and
// blended, |x| clamped to 10 first. NaN goes to the Go loop.
func emitTanhF32() {
	w := &asm
	fmt.Fprintf(&decl, "//go:noescape\nfunc tanhF32AVX2(dst, x unsafe.Pointer, n int) int\n\n")
	fmt.Fprintf(w, "// func tanhF32AVX2(dst, x unsafe.Pointer, n int) int\nTEXT ·tanhF32AVX2(SB), NOSPLIT, $0-32\n")
	fmt.Fprintf(w, "\tMOVQ dst+0(FP), DI\n\tMOVQ x+8(FP), SI\n\tMOVQ n+16(FP), CX\n\tXORQ R8, R8\n")
	fmt.Fprintf(w, "loop:\n\tCMPQ R8, CX\n\tJGE done\n")
	fmt.Fprintf(w, "\tVMOVUPS (SI)(R8*4), Y0\n")
	sign := constF32("sign", 0x80000000)
	fmt.Fprintf(w, "\tVMOVUPS %s, Y9\n\tVANDNPS Y0, Y9, Y1\n\tVANDPS Y0, Y9, Y9\n", sign)
	// NaN to the Go loop; |x| clamped to 10, whose tanh rounds to 1 (as
	// every larger one's)
	fmt.Fprintf(w, "\tVCMPPS $0x7, Y0, Y0, Y2\n\tVMOVMSKPS Y2, AX\n\tCMPL AX, $0xff\n\tJNE done\n")
	fmt.Fprintf(w, "\tVMINPS %s, Y1, Y1\n", cf("tanhmax", 10))
	// small: x + x*z*P(z)
	fmt.Fprintf(w, "\tVMULPS Y0, Y0, Y2\n\tVMOVUPS %s, Y3\n", cf("t0", -5.70498872745e-3))
	for i, c := range []float32{2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1} {
		fmt.Fprintf(w, "\tVFMADD213PS %s, Y2, Y3\n", cf(fmt.Sprintf("t%d", i+1), c))
	}
	fmt.Fprintf(w, "\tVMULPS Y2, Y3, Y3\n\tVFMADD213PS Y0, Y0, Y3\n")
	// large: z = exp(2|x|)
	fmt.Fprintf(w, "\tVADDPS Y1, Y1, Y4\n\tVMULPS %s, Y4, Y5\n\tVROUNDPS $8, Y5, Y5\n", cf("log2e", float32(math.Log2E)))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y5, Y4\n", cf("ln2hi", 0.693359375))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y5, Y4\n", cf("ln2lo", -2.12194440e-4))
	fmt.Fprintf(w, "\tVMOVUPS %s, Y6\n", cf("e0", 1.9875691500e-4))
	for i, c := range []float32{1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1} {
		fmt.Fprintf(w, "\tVFMADD213PS %s, Y4, Y6\n", cf(fmt.Sprintf("e%d", i+1), c))
	}
	fmt.Fprintf(w, "\tVMULPS Y4, Y4, Y7\n\tVFMADD213PS Y4, Y7, Y6\n\tVADDPS %s, Y6, Y6\n", cf("one", 1))
	fmt.Fprintf(w, "\tVCVTPS2DQ Y5, Y5\n\tVPADDD %s, Y5, Y5\n\tVPSLLD $23, Y5, Y5\n\tVMULPS Y5, Y6, Y6\n", constF32("i127", 127))
	// 1 - 2/(z+1), with x's sign
	fmt.Fprintf(w, "\tVADDPS %s, Y6, Y6\n\tVMOVUPS %s, Y8\n\tVDIVPS Y6, Y8, Y7\n", cf("one", 1), cf("two", 2))
	fmt.Fprintf(w, "\tVMOVUPS %s, Y6\n\tVSUBPS Y7, Y6, Y6\n\tVORPS Y9, Y6, Y6\n", cf("one", 1))
	fmt.Fprintf(w, "\tVCMPPS $0x11, %s, Y1, Y10\n\tVBLENDVPS Y10, Y3, Y6, Y2\n", cf("tanhsmall", 0.625))
	fmt.Fprintf(w, "\tVMOVUPS Y2, (DI)(R8*4)\n\tADDQ $8, R8\n\tJMP loop\n")
	fmt.Fprintf(w, "done:\n\tMOVQ R8, ret+24(FP)\n\tVZEROUPPER\n\tRET\n\n")
}

// emitSinCosF32: x = k*pi/2 + r with k = round(x*2/pi) and pi/2 in three
// float32 parts (each product exact by FMA), then Cephes' sine or cosine
// polynomial on |r| <= pi/4 by the quadrant (k, plus 1 for cos). Arguments
// beyond 1000 in magnitude, and NaN and infinities, go to the Go loop.
func emitSinCosF32(name string, quadrant int) {
	w := &asm
	fmt.Fprintf(&decl, "//go:noescape\nfunc %sF32AVX2(dst, x unsafe.Pointer, n int) int\n\n", name)
	fmt.Fprintf(w, "// func %sF32AVX2(dst, x unsafe.Pointer, n int) int\nTEXT ·%sF32AVX2(SB), NOSPLIT, $0-32\n", name, name)
	fmt.Fprintf(w, "\tMOVQ dst+0(FP), DI\n\tMOVQ x+8(FP), SI\n\tMOVQ n+16(FP), CX\n\tXORQ R8, R8\n")
	fmt.Fprintf(w, "loop:\n\tCMPQ R8, CX\n\tJGE done\n")
	fmt.Fprintf(w, "\tVMOVUPS (SI)(R8*4), Y0\n")
	fmt.Fprintf(w, "\tVMOVUPS %s, Y9\n\tVANDNPS Y0, Y9, Y1\n", constF32("sign", 0x80000000))
	fmt.Fprintf(w, "\tVCMPPS $0x12, %s, Y1, Y2\n\tVMOVMSKPS Y2, AX\n\tCMPL AX, $0xff\n\tJNE done\n", cf("trigmax", 1000))
	c1, c2, c3 := halfPiParts()
	fmt.Fprintf(w, "\tVMULPS %s, Y0, Y1\n\tVROUNDPS $8, Y1, Y1\n", cf("twobypi", float32(2/math.Pi)))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y1, Y0\n", cf("pio2a", c1))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y1, Y0\n", cf("pio2b", c2))
	fmt.Fprintf(w, "\tVFNMADD231PS %s, Y1, Y0\n", cf("pio2c", c3))
	// quadrant j = k (+1 for cos)
	fmt.Fprintf(w, "\tVCVTPS2DQ Y1, Y1\n")
	if quadrant != 0 {
		fmt.Fprintf(w, "\tVPADDD %s, Y1, Y1\n", constF32("i1", 1))
	}
	// z = r*r; sine and cosine polynomials
	fmt.Fprintf(w, "\tVMULPS Y0, Y0, Y2\n")
	fmt.Fprintf(w, "\tVMOVUPS %s, Y3\n", cf("s0", -1.9515295891e-4))
	fmt.Fprintf(w, "\tVFMADD213PS %s, Y2, Y3\n\tVFMADD213PS %s, Y2, Y3\n", cf("s1", 8.3321608736e-3), cf("s2", -1.6666654611e-1))
	fmt.Fprintf(w, "\tVMULPS Y2, Y3, Y3\n\tVFMADD213PS Y0, Y0, Y3\n")
	fmt.Fprintf(w, "\tVMOVUPS %s, Y4\n", cf("c0", 2.443315711809948e-5))
	fmt.Fprintf(w, "\tVFMADD213PS %s, Y2, Y4\n\tVFMADD213PS %s, Y2, Y4\n", cf("c1", -1.388731625493765e-3), cf("c2", 4.166664568298827e-2))
	fmt.Fprintf(w, "\tVMULPS Y2, Y4, Y4\n\tVSUBPS %s, Y4, Y4\n", cf("halff", 0.5))
	fmt.Fprintf(w, "\tVMULPS Y2, Y4, Y4\n")
	// cos = 1 - z/2 + z*z*P: Y4 holds z*(z*P - 1/2); add 1
	fmt.Fprintf(w, "\tVADDPS %s, Y4, Y4\n", cf("one", 1))
	// j odd: the cosine; j & 2: negate
	fmt.Fprintf(w, "\tVPSLLD $31, Y1, Y5\n\tVBLENDVPS Y5, Y4, Y3, Y3\n")
	fmt.Fprintf(w, "\tVPSRLD $1, Y1, Y5\n\tVPSLLD $31, Y5, Y5\n\tVXORPS Y5, Y3, Y3\n")
	fmt.Fprintf(w, "\tVMOVUPS Y3, (DI)(R8*4)\n\tADDQ $8, R8\n\tJMP loop\n")
	fmt.Fprintf(w, "done:\n\tMOVQ R8, ret+24(FP)\n\tVZEROUPPER\n\tRET\n\n")
}

// halfPiParts splits pi/2 into three float32s whose sum is pi/2 to about
// 72 bits (a float64 pi would leave the third part wrong past bit 53, 22
// ulp of sin near 161*pi): pi from Machin's formula in math/big.
func halfPiParts() (float32, float32, float32) {
	const prec = 256
	atanInv := func(m int64) *big.Float {
		sum := new(big.Float).SetPrec(prec)
		pow := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetInt64(m))
		m2 := new(big.Float).SetPrec(prec).SetInt64(m * m)
		for k := int64(0); k < 200; k++ {
			term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, term)
			} else {
				sum.Sub(sum, term)
			}
			pow.Quo(pow, m2)
		}
		return sum
	}
	a := new(big.Float).SetPrec(prec).Mul(big.NewFloat(16), atanInv(5))
	b := new(big.Float).SetPrec(prec).Mul(big.NewFloat(4), atanInv(239))
	rest := a.Sub(a, b)
	rest.Quo(rest, big.NewFloat(2))
	var parts [3]float32
	for i := range parts {
		f, _ := rest.Float32()
		parts[i] = f
		rest.Sub(rest, new(big.Float).SetPrec(prec).SetFloat64(float64(f)))
	}
	return parts[0], parts[1], parts[2]
}

// f64consts are 4-lane float64 constants in a second DATA table.
var f64consts []uint64

func cd(v float64) string { return constF64(math.Float64bits(v)) }

func constF64(bits uint64) string {
	for i, c := range f64consts {
		if c == bits {
			return fmt.Sprintf("mathd<>+%d(SB)", 32*i)
		}
	}
	f64consts = append(f64consts, bits)
	return fmt.Sprintf("mathd<>+%d(SB)", 32*(len(f64consts)-1))
}

// emitExpF64: x = n*ln2 + r (ln2 in fdlibm's two parts, the first with
// trailing zeros so that n*ln2hi is exact), e^r by its Taylor series to
// r^13 (|r| <= ln2/2: truncation below 2e-16) with FMA, the 1 added last,
// times 2^n built in
// the exponent field. |x| <= 708 (normal results); the rest, NaN included,
// by the Go loop.
func emitExpF64() {
	w := &asm
	fmt.Fprintf(&decl, "//go:noescape\nfunc expF64AVX2(dst, x unsafe.Pointer, n int) int\n\n")
	fmt.Fprintf(w, "// func expF64AVX2(dst, x unsafe.Pointer, n int) int\nTEXT ·expF64AVX2(SB), NOSPLIT, $0-32\n")
	fmt.Fprintf(w, "\tMOVQ dst+0(FP), DI\n\tMOVQ x+8(FP), SI\n\tMOVQ n+16(FP), CX\n\tXORQ R8, R8\n")
	fmt.Fprintf(w, "loop:\n\tCMPQ R8, CX\n\tJGE done\n")
	fmt.Fprintf(w, "\tVMOVUPD (SI)(R8*8), Y0\n")
	fmt.Fprintf(w, "\tVCMPPD $0x1d, %s, Y0, Y1\n", cd(-708))
	fmt.Fprintf(w, "\tVCMPPD $0x12, %s, Y0, Y2\n", cd(708))
	fmt.Fprintf(w, "\tVANDPD Y2, Y1, Y1\n\tVMOVMSKPD Y1, AX\n\tCMPL AX, $0xf\n\tJNE done\n")
	fmt.Fprintf(w, "\tVMULPD %s, Y0, Y1\n\tVROUNDPD $8, Y1, Y1\n", cd(math.Log2E))
	fmt.Fprintf(w, "\tVFNMADD231PD %s, Y1, Y0\n", constF64(0x3fe62e42fee00000))
	fmt.Fprintf(w, "\tVFNMADD231PD %s, Y1, Y0\n", cd(1.90821492927058770002e-10))
	// Horner: 1/13!, 1/12!, ..., 1/1!, 1
	fact := func(k int) float64 {
		f := 1.0
		for i := 2; i <= k; i++ {
			f *= float64(i)
		}
		return f
	}
	// e^r = 1 + (r + r^2*Q(r)), Q = 1/2! + r/3! + ...: the last
	// addition rounds once, the rest is scaled by |r| < 0.35
	fmt.Fprintf(w, "\tVMOVUPD %s, Y2\n", cd(1/fact(13)))
	for k := 12; k >= 2; k-- {
		fmt.Fprintf(w, "\tVFMADD213PD %s, Y0, Y2\n", cd(1/fact(k)))
	}
	fmt.Fprintf(w, "\tVMULPD Y0, Y0, Y3\n\tVFMADD213PD Y0, Y3, Y2\n\tVADDPD %s, Y2, Y2\n", cd(1))
	// 2^n: n to int32 lanes, widened to int64, + 1023, << 52
	fmt.Fprintf(w, "\tVCVTPD2DQY Y1, X1\n\tVPMOVSXDQ X1, Y1\n\tVPADDQ %s, Y1, Y1\n\tVPSLLQ $52, Y1, Y1\n\tVMULPD Y1, Y2, Y2\n", constF64(1023))
	fmt.Fprintf(w, "\tVMOVUPD Y2, (DI)(R8*8)\n\tADDQ $4, R8\n\tJMP loop\n")
	fmt.Fprintf(w, "done:\n\tMOVQ R8, ret+24(FP)\n\tVZEROUPPER\n\tRET\n\n")
}

// emitConsts writes the DATA table of f32consts.
func emitConsts() {
	w := &asm
	for i, c := range f32consts {
		for k := 0; k < 8; k++ {
			fmt.Fprintf(w, "DATA mathc<>+%d(SB)/4, $0x%08x\n", 32*i+4*k, c.bits)
		}
	}
	fmt.Fprintf(w, "GLOBL mathc<>(SB), RODATA|NOPTR, $%d\n", 32*len(f32consts))
	for i, c := range f64consts {
		for k := 0; k < 4; k++ {
			fmt.Fprintf(w, "DATA mathd<>+%d(SB)/8, $0x%016x\n", 32*i+8*k, c)
		}
	}
	fmt.Fprintf(w, "GLOBL mathd<>(SB), RODATA|NOPTR, $%d\n", 32*len(f64consts))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func main() {
	asm.WriteString("// Code generated by asmgen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\n#include \"textflag.h\"\n\n")
	for _, a := range ariths {
		for _, t := range []typ{f32, f64, i32, i64, u32, u64} {
			if a.insts[t.name] == "" {
				continue
			}
			forms := []string{"vv", "vs"}
			if a.op == "Sub" {
				forms = append(forms, "sv")
			}
			for _, f := range forms {
				emitArith(a, t, f, false)
				emitArith(a, t, f, true)
				emitArith2D(a, t, f, false, false)
				emitArith2D(a, t, f, true, false)
				if a.insts[t.name] != mul64 { // a 512-bit form would be VPMULLQ (AVX-512DQ)
					emitArith2D(a, t, f, false, true)
				}
			}
		}
	}
	for _, c := range cmps {
		for _, t := range []typ{f32, f64} {
			emitCmp(c, t, "vv")
			emitCmp(c, t, "vs")
		}
	}
	for _, a1 := range ariths {
		for _, a2 := range ariths {
			for _, t := range []typ{f32, f64} {
				for _, bs := range []string{"v", "s"} {
					for _, cs := range []string{"v", "s"} {
						emitChain(a1, a2, t, bs, cs, false)
						emitChain(a1, a2, t, bs, cs, true)
					}
				}
			}
		}
	}
	for _, c := range cmps {
		for _, t := range []typ{f32, f64} {
			for _, bs := range []string{"v", "s"} {
				for _, ys := range []string{"v", "s"} {
					emitSelCmp(c, t, bs, ys, false)
					emitSelCmp(c, t, bs, ys, true)
				}
			}
		}
	}
	for _, size := range []int{1, 2, 4, 8} {
		emitWhere(size, "v")
		emitWhere(size, "s")
	}
	for _, m := range maps {
		for _, t := range []typ{f32, f64} {
			if m.arity == 1 {
				emitMap(m, t, "", false)
				emitMap(m, t, "", true)
				continue
			}
			for _, nt := range []bool{false, true} {
				emitMap(m, t, "vv", nt)
				emitMap(m, t, "vs", nt)
			}
		}
	}
	for _, a := range bitwise {
		for _, t := range []typ{i32, i64, u32, u64} {
			for _, f := range []string{"vv", "vs"} {
				emitArith(a, t, f, false)
				emitArith(a, t, f, true)
				emitArith2D(a, t, f, false, false)
				emitArith2D(a, t, f, true, false) // no 512-bit form: VPAND has none (VPANDD)
			}
		}
	}
	for _, a := range shifts {
		for _, t := range []typ{i32, i64, u32, u64} {
			if a.insts[t.name] == "" {
				continue
			}
			for _, f := range []string{"vv", "vs", "sv"} {
				emitArith(a, t, f, false)
				emitArith(a, t, f, true)
				emitArith2D(a, t, f, false, false)
				emitArith2D(a, t, f, true, false)
				emitArith2D(a, t, f, false, true)
			}
		}
	}
	emitExpF32()
	emitLogF32(false)
	emitLogF32(true)
	emitTanhF32()
	emitSinCosF32("sin", 0)
	emitSinCosF32("cos", 1)
	emitExpF64()
	emitConsts()
	if err := os.WriteFile("kernels_amd64.s", asm.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	var g bytes.Buffer
	g.WriteString("// Code generated by asmgen.go; DO NOT EDIT.\n\n//go:build amd64 && !noasm\n\npackage compute\n\nimport \"unsafe\"\n\n")
	g.Write(decl.Bytes())
	g.WriteString("func registerAsmKernels() {\n")
	g.Write(reg.Bytes())
	g.WriteString("}\n")
	src, err := format.Source(g.Bytes())
	if err != nil {
		os.WriteFile("kernels_amd64.go", g.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile("kernels_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
