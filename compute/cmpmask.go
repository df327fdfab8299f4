package compute

import "math/bits"

// MaskOp is a comparison of CompareMask: x[i] OP lit.
type MaskOp uint8

// The comparisons of CompareMask (IEEE's: NaN is unordered, so only != is
// true of it).
const (
	MaskEq MaskOp = iota // ==
	MaskNe               // !=
	MaskLt               // <
	MaskLe               // <=
	MaskGt               // >
	MaskGe               // >=
)

// MaskOpOf returns the MaskOp of a comparison operator ("==", "!=", "<",
// "<=", ">", ">="); ok is false for any other string.
func MaskOpOf(op string) (m MaskOp, ok bool) {
	switch op {
	case "==":
		return MaskEq, true
	case "!=":
		return MaskNe, true
	case "<":
		return MaskLt, true
	case "<=":
		return MaskLe, true
	case ">":
		return MaskGt, true
	case ">=":
		return MaskGe, true
	}
	return 0, false
}

// MaskNumber is the element types CompareMask compares.
type MaskNumber interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// CompareMask sets bit i%64 of mask[i/64] to x[i] OP lit for every i <
// len(x) (the bits past len(x) of the last word are zero) and returns how
// many bits it set. mask must have at least (len(x)+63)/64 words; nothing
// past them is written. float32 and float64 are compared 8 and 4 at a time
// with AVX2 where the build has it (Asm), the rest by a Go loop.
func CompareMask[T MaskNumber](mask []uint64, x []T, op MaskOp, lit T) int {
	words := (len(x) + 63) / 64
	mask = mask[:words]
	done, kept := 0, 0
	if full := len(x) / 64; full > 0 {
		switch xs := any(x).(type) {
		case []float64:
			kept = cmpMaskF64(mask[:full], xs[:full*64], op, any(lit).(float64))
			done = full
		case []float32:
			kept = cmpMaskF32(mask[:full], xs[:full*64], op, any(lit).(float32))
			done = full
		}
	}
	return kept + compareMaskGo(mask[done:], x[done*64:], op, lit)
}

// compareMaskGo is CompareMask's Go loop: a switch per word, no branch per
// value.
func compareMaskGo[T MaskNumber](mask []uint64, x []T, op MaskOp, lit T) int {
	kept := 0
	for w := range mask {
		blk := x[w*64 : min(len(x), w*64+64)]
		var m uint64
		switch op {
		case MaskEq:
			for j, y := range blk {
				m |= uint64(b2u(y == lit)) << uint(j)
			}
		case MaskNe:
			for j, y := range blk {
				m |= uint64(b2u(y != lit)) << uint(j)
			}
		case MaskLt:
			for j, y := range blk {
				m |= uint64(b2u(y < lit)) << uint(j)
			}
		case MaskLe:
			for j, y := range blk {
				m |= uint64(b2u(y <= lit)) << uint(j)
			}
		case MaskGt:
			for j, y := range blk {
				m |= uint64(b2u(y > lit)) << uint(j)
			}
		case MaskGe:
			for j, y := range blk {
				m |= uint64(b2u(y >= lit)) << uint(j)
			}
		}
		mask[w] = m
		kept += bits.OnesCount64(m)
	}
	return kept
}
