package frame

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/compute"
)

// A filter's selection is a mask: bit i%64 of word i/64 is set when row i
// is kept. The bits past the batch's last row are zero.

// maskWords is the number of words of a mask of n rows.
func maskWords(n int) int { return (n + 63) / 64 }

// maskPool keeps masks between batches.
var maskPool sync.Pool

// getMask returns a mask of words words (their values undefined).
func getMask(words int) []uint64 {
	if p, ok := maskPool.Get().(*[]uint64); ok && cap(*p) >= words {
		return (*p)[:words]
	}
	return make([]uint64, words, max(words, maskWords(morselRows)))
}

// putMask hands m back to the pool once nothing reads it.
func putMask(m []uint64) {
	if cap(m) > 0 {
		maskPool.Put(&m)
	}
}

// keptMask returns the mask of the rows of rec where p is known and true,
// and how many they are; the caller hands the mask back with putMask.
func (p *pred) keptMask(w *worker, rec arrow.Record) ([]uint64, int, error) {
	mask := getMask(maskWords(int(rec.NumRows())))
	kept, err := p.keptMaskInto(w, rec, mask)
	if err != nil {
		putMask(mask)
		return nil, 0, err
	}
	return mask, kept, nil
}

// keptMaskInto is keptMask into mask, of maskWords(rec.NumRows()) words.
func (p *pred) keptMaskInto(w *worker, rec arrow.Record, mask []uint64) (int, error) {
	n := int(rec.NumRows())
	if kept, ok := p.compareMask(rec, mask); ok {
		return kept, nil
	}
	if kept, ok := p.nullTestMask(rec, mask); ok {
		return kept, nil
	}
	known, val, err := p.eval(w, rec)
	if err != nil {
		return 0, err
	}
	return boolsMask(mask, known[:n], val[:n]), nil
}

// boolsMask sets mask's bits where known and val are both true.
func boolsMask(mask []uint64, known, val []bool) int {
	kept := 0
	for w := range mask {
		var m uint64
		lo := w * 64
		hi := min(len(val), lo+64)
		for i := lo; i < hi; i++ {
			m |= uint64(b2u8(known[i] && val[i])) << uint(i-lo)
		}
		mask[w] = m
		kept += bits.OnesCount64(m)
	}
	return kept
}

// compareMask is keptMask of a predicate that compares a column of numbers
// with a number (v3 > 50), computed straight from the column's values
// (compute.CompareMask): ok is false for any other predicate, and for a
// number the column's type cannot hold exactly (expr decides those).
func (p *pred) compareMask(rec arrow.Record, mask []uint64) (int, bool) {
	if p.op != "" || p.leaf == nil || !p.leaf.rowWise {
		return 0, false
	}
	op, name, v, ok := p.leaf.node.Comparison()
	if !ok {
		return 0, false
	}
	mop, ok := compute.MaskOpOf(op)
	ci, isCol := p.leaf.vars[name]
	if !ok || !isCol || len(p.leaf.vars) != 1 || len(p.leaf.specials) != 0 {
		return 0, false
	}
	c := rec.Column(ci)
	var kept int
	switch a := c.(type) {
	case *arrowarray.Int8:
		kept, ok = compareIntsMask(mask, a.Int8Values(), mop, v, math.MinInt8, math.MaxInt8)
	case *arrowarray.Int16:
		kept, ok = compareIntsMask(mask, a.Int16Values(), mop, v, math.MinInt16, math.MaxInt16)
	case *arrowarray.Int32:
		kept, ok = compareIntsMask(mask, a.Int32Values(), mop, v, math.MinInt32, math.MaxInt32)
	case *arrowarray.Int64:
		kept, ok = compareIntsMask(mask, a.Int64Values(), mop, v, -1<<53, 1<<53)
	case *arrowarray.Uint8:
		kept, ok = compareIntsMask(mask, a.Uint8Values(), mop, v, 0, math.MaxUint8)
	case *arrowarray.Uint16:
		kept, ok = compareIntsMask(mask, a.Uint16Values(), mop, v, 0, math.MaxUint16)
	case *arrowarray.Uint32:
		kept, ok = compareIntsMask(mask, a.Uint32Values(), mop, v, 0, math.MaxUint32)
	case *arrowarray.Float32:
		if f := float32(v); float64(f) == v || math.IsNaN(v) {
			kept, ok = compute.CompareMask(mask, a.Float32Values(), mop, f), true
		} else {
			ok = false
		}
	case *arrowarray.Float64:
		kept, ok = compute.CompareMask(mask, a.Float64Values(), mop, v), true
	default:
		ok = false
	}
	if !ok {
		return 0, false
	}
	if c.NullN() > 0 { // null is not true: drop the kept rows that are null
		kept = andValidity(mask, c)
	}
	return kept, true
}

// compareIntsMask compares integers with v, which must be a whole number
// in [lo, hi] (so that the comparison in the column's type is exact).
func compareIntsMask[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](mask []uint64, x []T, op compute.MaskOp, v float64, lo, hi float64) (int, bool) {
	if v != math.Trunc(v) || v < lo || v > hi {
		return 0, false
	}
	return compute.CompareMask(mask, x, op, T(v)), true
}

// nullTestMask is keptMask of a predicate that is exactly is_null(c) or
// is_not_null(c), read from c's validity bitmap: ok is false for any
// other predicate.
func (p *pred) nullTestMask(rec arrow.Record, mask []uint64) (int, bool) {
	if p.op != "" || p.leaf == nil || len(p.leaf.vars) != 0 || len(p.leaf.specials) != 1 {
		return 0, false
	}
	sp := p.leaf.specials[p.leaf.node.VarName()]
	if sp == nil || (sp.op != "is_null" && sp.op != "is_not_null") {
		return 0, false
	}
	c := rec.Column(sp.col)
	n := c.Len()
	want := sp.op == "is_not_null" // the validity bit a kept row has
	if c.NullN() == 0 || c.DataType().ID() == arrow.NULL {
		all := want == (c.NullN() == 0)
		for w := range mask {
			mask[w] = 0
			if all {
				mask[w] = lowBits(n - w*64)
			}
		}
		if all {
			return n, true
		}
		return 0, true
	}
	vb, off := c.NullBitmapBytes(), c.Data().Offset()
	kept := 0
	for w := range mask {
		m := bitmapWord(vb, off+w*64)
		if !want {
			m = ^m
		}
		m &= lowBits(n - w*64)
		mask[w] = m
		kept += bits.OnesCount64(m)
	}
	return kept, true
}

// andValidity clears the bits of mask whose row of c is null, and returns
// the bits left.
func andValidity(mask []uint64, c arrow.Array) int {
	vb, off := c.NullBitmapBytes(), c.Data().Offset()
	kept := 0
	for w := range mask {
		mask[w] &= bitmapWord(vb, off+w*64)
		kept += bits.OnesCount64(mask[w])
	}
	return kept
}

// lowBits is a word of the n lowest bits set (all 64 for n >= 64, none for
// n <= 0).
func lowBits(n int) uint64 {
	switch {
	case n >= 64:
		return ^uint64(0)
	case n <= 0:
		return 0
	}
	return 1<<uint(n) - 1
}

// bitmapWord returns the 64 bits of the Arrow bitmap bm from bit at on
// (bit k of the result is bit at+k), bits past bm's end as zero.
func bitmapWord(bm []byte, at int) uint64 {
	b, s := at>>3, uint(at&7)
	if b+9 <= len(bm) {
		v := binary.LittleEndian.Uint64(bm[b:])
		if s != 0 {
			v = v>>s | uint64(bm[b+8])<<(64-s)
		}
		return v
	}
	var v uint64
	for i := 0; i <= 8 && b+i < len(bm); i++ {
		if sh := 8*i - int(s); sh < 0 {
			v |= uint64(bm[b+i]) >> uint(-sh)
		} else if sh < 64 {
			v |= uint64(bm[b+i]) << uint(sh)
		}
	}
	return v
}
