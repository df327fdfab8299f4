package compute

import (
	"runtime"
	"slices"
	"unsafe"
)

// Sorting (sort.go): the stable sorts behind expr.Sort and expr.Argsort.
//
// Every element is read as its bit pattern (a uint8, uint16, uint32 or
// uint64 of the element's width) and mapped to an unsigned key in the same
// order (KeyKind): unsigned integers as they are, signed ones with the sign
// bit flipped, floats with the sign bit flipped when positive and every bit
// flipped when negative, -0 mapped to +0's key and every NaN (either sign,
// any payload) to the largest key, so that NaNs go last as NumPy puts them;
// bool as 0 or 1. The keys are sorted by a least-significant-digit radix
// sort (11-bit digits above 16 bits of key, 8-bit ones below; a digit that
// is the same in every key costs no pass), which is stable; short lanes go
// through pdqsort (slices.Sort) of the keys instead, stable too for the
// values (equal keys are equal values, but for the zeros and NaNs, which a
// final scan puts back in their input order) and for the argsort (each key
// carries its position).
//
// Measured on this project's 2-core Xeon (AVX-512, not used): see the
// benchmarks in sort_test.go and DESIGN.md.

// SortKey is the bit pattern of an element to sort.
type SortKey interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// KeyKind says how an element's bits map to its key.
type KeyKind uint8

const (
	KeyUnsigned KeyKind = iota // unsigned integers
	KeySigned                  // two's complement integers
	KeyFloat                   // IEEE floats (float16, float32, float64): NaNs last, -0 equal to +0
	KeyBool                    // bool bytes: 0 is false, anything else true
)

// smallSort is the lane length below which keys are sorted by pdqsort
// rather than by radix.
const smallSort = 192

// maxDigits is the largest number of radix digits (64 bits in 11-bit digits).
const maxDigits = 6

// radixPlan is the digit layout of a radix sort over bits [lo, lo+bits) of
// a key: nd digits of w bits (the last one may be narrower), with one count
// histogram per digit.
type radixPlan struct {
	lo, w uint
	nd    int
	hist  [maxDigits][2048]uint32
}

func (p *radixPlan) init(lo, bits uint) {
	p.lo = lo
	p.w = 11
	if bits <= 16 {
		p.w = 8
	}
	p.nd = int((bits + p.w - 1) / p.w)
	for d := range p.nd {
		clear(p.hist[d][:1<<p.w])
	}
}

func bitsOf[K SortKey]() uint { return uint(unsafe.Sizeof(K(0))) * 8 }

// floatTop is the bits of +Inf for a float of K's width: a float's bits
// with the sign cleared are a NaN above it.
func floatTop[K SortKey]() K {
	var v uint64
	switch bitsOf[K]() {
	case 16:
		v = 0x7c00
	case 32:
		v = 0x7f800000
	case 64:
		v = 0x7ff0000000000000
	default:
		return ^K(0)
	}
	return K(v)
}

// toKeys writes the keys of src into keys (which may be src when D is
// K) and counts the NaNs and negative zeros of a float src.
func toKeys[D, K SortKey](keys []D, src []K, kind KeyKind) (nan, negz int) {
	keys = keys[:len(src)]
	top := bitsOf[K]() - 1
	sign := K(1) << top
	switch kind {
	case KeyUnsigned:
		for i, b := range src {
			keys[i] = D(b)
		}
	case KeySigned:
		for i, b := range src {
			keys[i] = D(b ^ sign)
		}
	case KeyBool:
		for i, b := range src {
			keys[i] = D(min(b, 1))
		}
	case KeyFloat:
		inf := floatTop[K]()
		for i, b := range src {
			k := b ^ (-(b >> top) | sign)
			if a := b &^ sign; a-1 >= inf { // a zero or a NaN
				switch {
				case a != 0:
					k = ^K(0)
					nan++
				case b != 0:
					k = sign
					negz++
				}
			}
			keys[i] = D(k)
		}
	}
	return nan, negz
}

// fromKeys writes the elements of the keys into dst (which may be keys).
// Float zeros come out +0 and NaNs with every bit set but the sign: fixFloat
// puts the input's back.
func fromKeys[K SortKey](dst, keys []K, kind KeyKind) {
	dst = dst[:len(keys)]
	top := bitsOf[K]() - 1
	sign := K(1) << top
	switch kind {
	case KeyUnsigned, KeyBool:
		copy(dst, keys)
	case KeySigned:
		for i, k := range keys {
			dst[i] = k ^ sign
		}
	case KeyFloat:
		for i, k := range keys {
			dst[i] = k ^ (^(-(k >> top)) | sign)
		}
	}
}

// fixFloat writes src's zeros and NaNs, in their input order, over the
// sorted dst's (where fromKeys made them +0 and one NaN).
func fixFloat[K SortKey](dst, src []K, nan, negz int) {
	if nan == 0 && negz == 0 {
		return
	}
	n := len(dst)
	sign := K(1) << (bitsOf[K]() - 1)
	top := floatTop[K]()
	// the zeros start at the first element with the sign bit clear
	z, hi := 0, n-nan
	for z < hi {
		m := int(uint(z+hi) >> 1)
		if dst[m]&sign != 0 {
			z = m + 1
		} else {
			hi = m
		}
	}
	if negz == 0 {
		z = -1
	}
	j := n - nan
	for _, b := range src {
		a := b &^ sign
		switch {
		case a == 0 && z >= 0:
			dst[z] = b
			z++
		case a > top && nan > 0:
			dst[j] = b
			j++
		}
	}
}

func histogramOf[K SortKey](p *radixPlan, keys []K) {
	lo, w := p.lo, p.w
	m := K(1)<<w - 1
	h := &p.hist
	switch p.nd {
	case 1:
		h0 := &h[0]
		for _, k := range keys {
			h0[uint(k>>lo&m)&2047]++
		}
	case 2:
		h0, h1 := &h[0], &h[1]
		for _, k := range keys {
			h0[uint(k>>lo&m)&2047]++
			h1[uint(k>>(lo+w)&m)&2047]++
		}
	case 3:
		h0, h1, h2 := &h[0], &h[1], &h[2]
		for _, k := range keys {
			h0[uint(k>>lo&m)&2047]++
			h1[uint(k>>(lo+w)&m)&2047]++
			h2[uint(k>>(lo+2*w)&m)&2047]++
		}
	case 6:
		if w != 11 {
			break
		}
		h0, h1, h2, h3, h4, h5 := &h[0], &h[1], &h[2], &h[3], &h[4], &h[5]
		for _, k := range keys {
			u := uint64(k) >> lo
			h0[uint(u)&2047]++
			h1[uint(u>>11)&2047]++
			h2[uint(u>>22)&2047]++
			h3[uint(u>>33)&2047]++
			h4[uint(u>>44)&2047]++
			h5[uint(u>>55)&2047]++
		}
		return
	}
	if p.nd > 3 {
		for _, k := range keys {
			for d := range p.nd {
				h[d][uint(k>>(lo+uint(d)*w)&m)&2047]++
			}
		}
	}
}

// digitPasses turns each digit's counts into starting offsets and returns
// the digits that vary (a digit with one value in every key needs no pass).
func (p *radixPlan) digitPasses(n int, first uint64) []int {
	var ds []int
	for d := range p.nd {
		h := &p.hist[d]
		shift := p.lo + uint(d)*p.w
		if int(h[uint(first>>shift)&(1<<p.w-1)]) == n {
			continue
		}
		var sum uint32
		for i := range 1 << p.w {
			c := h[i]
			h[i] = sum
			sum += c
		}
		ds = append(ds, d)
	}
	return ds
}

// xform is the map applied to each element on its way through a scatter:
// before the digit is read, x ^ (((sar(x) ^ preX) & preM) | preC) (the
// key of an element: sar is the sign bit copied into every bit), and after,
// k ^ (((sar(k) ^ postX) & postM) | postC) (the element of a key). Zero is
// the identity.
type xform struct {
	preX, preM, preC, postX, postM, postC uint64
}

// keyXform maps elements to keys (pre) and back (post) for kind: floats
// by sign (NaNs and negative zeros aside: the caller has checked there
// are none), signed integers by flipping the sign bit. first and last say
// whether the scatter is the first of the sort (it reads elements) and the
// last (it writes them).
func keyXform(kind KeyKind, bits uint, first, last bool) xform {
	var t xform
	sign := uint64(1) << (bits - 1)
	switch kind {
	case KeyFloat:
		if first {
			t.preM, t.preC = ^uint64(0), sign
		}
		if last {
			t.postX, t.postM, t.postC = ^uint64(0), ^uint64(0), sign
		}
	case KeySigned:
		if first {
			t.preC = sign
		}
		if last {
			t.postC = sign
		}
	}
	return t
}

// scatterKeys moves each element of src (mapped by t) to its digit's next
// place in dst; off holds each digit's next place.
func scatterKeys[K SortKey](dst, src []K, off *[2048]uint32, shift uint, m K, t *xform) {
	if len(src) == 0 {
		return
	}
	if haveWC && len(src) >= wcMin && int64(len(src)) < 1<<31 {
		switch s := any(src).(type) {
		case []uint32:
			scatterWC(any(dst).([]uint32), s, off, uint64(shift), uint64(m), t, 16)
			return
		case []uint64:
			scatterWC(any(dst).([]uint64), s, off, uint64(shift), uint64(m), t, 8)
			return
		}
	}
	top := bitsOf[K]() - 1
	preX, preM, preC := K(t.preX), K(t.preM), K(t.preC)
	postX, postM, postC := K(t.postX), K(t.postM), K(t.postC)
	d := unsafe.Pointer(unsafe.SliceData(dst))
	sz := unsafe.Sizeof(K(0))
	if *t == (xform{}) {
		for _, k := range src {
			i := uint(k>>shift&m) & 2047
			o := off[i]
			*(*K)(unsafe.Add(d, uintptr(o)*sz)) = k
			off[i] = o + 1
		}
		return
	}
	for _, x := range src {
		k := x ^ ((-(x>>top)^preX)&preM | preC)
		i := uint(k>>shift&m) & 2047
		o := off[i]
		*(*K)(unsafe.Add(d, uintptr(o)*sz)) = k ^ ((-(k>>top)^postX)&postM | postC)
		off[i] = o + 1
	}
}

// wcMin is the shortest run the write-combining scatter takes: below, the
// lines it buffers cost more than they save.
const wcMin = 1 << 16

// wcArgs is the argument block of the assembly scatters (sort_amd64.s).
type wcArgs struct {
	dst, src   uintptr // dst: a virtual base, element 0 on a 64-byte boundary
	n          int
	off, start *uint32
	buf        uintptr
	shift      uint64
	mask       uint64
	t          xform
}

// scatterWC is scatterKeys through the write-combining assembly: each
// digit's elements are gathered in a 64-byte line buffer and written a
// whole line at a time with non-temporal stores, so that the scatter's
// thousands of destinations cost neither cache misses on the stores nor
// TLB misses on every element. per is the number of elements in a line.
func scatterWC[K uint32 | uint64](dst, src []K, off *[2048]uint32, shift, m uint64, t *xform, per int) {
	sz := int(unsafe.Sizeof(K(0)))
	base := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	phase := uint32(base/uintptr(sz)) & uint32(per-1)
	nb := int(m) + 1
	var start [2048]uint32
	for i := range nb {
		off[i] += phase
		start[i] = off[i]
	}
	bufw := make([]uint64, nb*8+8)
	buf := (uintptr(unsafe.Pointer(unsafe.SliceData(bufw))) + 63) &^ 63
	a := wcArgs{
		dst: base - uintptr(phase)*uintptr(sz), src: uintptr(unsafe.Pointer(unsafe.SliceData(src))), n: len(src),
		off: &off[0], start: &start[0], buf: buf, shift: shift, mask: m, t: *t,
	}
	if sz == 4 {
		scatterWC32(&a)
	} else {
		scatterWC64(&a)
	}
	// the lines left partly filled
	lines := unsafe.Slice((*K)(unsafe.Pointer(&bufw[(buf-uintptr(unsafe.Pointer(unsafe.SliceData(bufw))))/8])), nb*per)
	for i := range nb {
		o := off[i]
		for e := max(o&^uint32(per-1), start[i]); e < o; e++ {
			dst[e-phase] = lines[i*per+int(e)&(per-1)]
		}
		off[i] = o - phase
	}
	runtime.KeepAlive(bufw)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
}

// lsd sorts the keys in a by the digits of p, stably, with b (as long) as
// scratch, and returns the one that holds the result.
func lsd[K SortKey](p *radixPlan, a, b []K) []K {
	if len(a) == 0 {
		return a
	}
	m := K(1)<<p.w - 1
	var t xform
	for _, d := range p.digitPasses(len(a), uint64(a[0])) {
		scatterKeys(b[:len(a)], a, &p.hist[d], p.lo+uint(d)*p.w, m, &t)
		a, b = b[:len(a)], a
	}
	return a
}

// countKeys fills p's histograms with the keys of src, a block at a
// time, and counts the NaNs and negative zeros of a float src.
func countKeys[K SortKey](p *radixPlan, src []K, kind KeyKind) (nan, negz int) {
	if kind == KeyFloat && p.nd == 3 && p.lo == 0 {
		return countFloat3(p, src)
	}
	var block [512]K
	for i := 0; i < len(src); i += len(block) {
		c := src[i:min(i+len(block), len(src))]
		a, z := toKeys(block[:len(c)], c, kind)
		nan, negz = nan+a, negz+z
		histogramOf(p, block[:len(c)])
	}
	return nan, negz
}

// countFloat3 is countKeys for floats in three digits, with the keys
// computed inline.
func countFloat3[K SortKey](p *radixPlan, src []K) (nan, negz int) {
	top := bitsOf[K]() - 1
	sign := K(1) << top
	inf := floatTop[K]()
	w := p.w
	m := K(1)<<w - 1
	h0, h1, h2 := &p.hist[0], &p.hist[1], &p.hist[2]
	for _, b := range src {
		k := b ^ (-(b >> top) | sign)
		if a := b &^ sign; a-1 >= inf {
			switch {
			case a != 0:
				k = ^K(0)
				nan++
			case b != 0:
				k = sign
				negz++
			}
		}
		h0[uint(k&m)&2047]++
		h1[uint(k>>w&m)&2047]++
		h2[uint(k>>(2*w)&m)&2047]++
	}
	return nan, negz
}

// SortBits writes the elements of src (bit patterns, read as kind says)
// into dst sorted ascending, stably (NumPy's stable sort: NaNs last, zeros
// and NaNs in their input order). dst and tmp hold at least len(src)
// elements; none of the three may overlap. As copy does, a dst shorter
// than src takes the sorted first len(dst) elements of src (it sorts
// src[:len(dst)]); a tmp too short is replaced by a fresh one.
//
// A radix sort reads src twice for the keys' digit counts and its first
// pass, mapping elements to keys on the fly, and writes elements back in
// its last pass, which lands in dst: when src has no NaN and no -0
// (whose keys are not their bits') and is long enough. Otherwise the keys
// are written to dst first and mapped back after.
func SortBits[K SortKey](dst, src, tmp []K, kind KeyKind) {
	n := min(len(src), len(dst))
	src, dst = src[:n], dst[:n]
	if len(tmp) < n {
		tmp = make([]K, n)
	}
	bits := bitsOf[K]()
	if n < smallSort || uint64(n) > 1<<32-1 || kind == KeyBool {
		nan, negz := toKeys(dst, src, kind)
		res := dst
		if n < smallSort || uint64(n) > 1<<32-1 {
			slices.Sort(dst)
		} else {
			var p radixPlan
			p.init(0, 1)
			histogramOf(&p, dst)
			res = lsd(&p, dst, tmp[:n])
		}
		fromKeys(dst, res, kind)
		if kind == KeyFloat {
			fixFloat(dst, src, nan, negz)
		}
		return
	}
	var p radixPlan
	p.init(0, bits)
	nan, negz := countKeys(&p, src, kind)
	if nan > 0 || negz > 0 {
		toKeys(dst, src, kind)
		fromKeys(dst, lsd(&p, dst, tmp[:n]), kind)
		fixFloat(dst, src, nan, negz)
		return
	}
	var first [1]K
	toKeys(first[:], src[:1], kind)
	passes := p.digitPasses(n, uint64(first[0]))
	if len(passes) == 0 {
		copy(dst, src)
		return
	}
	m := K(1)<<p.w - 1
	cur, last := src, len(passes)-1
	for i, d := range passes {
		to := tmp[:n]
		if (last-i)%2 == 0 {
			to = dst
		}
		t := keyXform(kind, bits, i == 0, i == last)
		scatterKeys(to, cur, &p.hist[d], p.lo+uint(d)*p.w, m, &t)
		cur = to
	}
}

// ArgsortBits writes into idx the positions that sort src stably (Sort's
// order): idx[j] is the position of the j-th smallest element. scratch
// holds at least ArgsortScratch(len(src), width) words, where width is
// K's size in bytes; a shorter one is replaced by a fresh one. As copy
// does, an idx shorter than src takes the order of src[:len(idx)].
func ArgsortBits[K SortKey](idx []int64, src []K, kind KeyKind, scratch []uint64) {
	n := min(len(src), len(idx))
	src, idx = src[:n], idx[:n]
	if need := ArgsortScratch(n, int(bitsOf[K]()/8)); len(scratch) < need {
		scratch = make([]uint64, need)
	}
	if n == 0 {
		return
	}
	if bitsOf[K]() <= 32 && uint64(n) <= 1<<32 {
		argsortPacked(idx, src, kind, scratch)
		return
	}
	keys, tmp := scratch[:n], scratch[n:2*n]
	toKeys(keys, src, kind)
	if n < smallSort || uint64(n) > 1<<32-1 {
		for i := range idx {
			idx[i] = int64(i)
		}
		slices.SortFunc(idx, func(a, b int64) int {
			switch ka, kb := keys[a], keys[b]; {
			case ka < kb:
				return -1
			case ka > kb:
				return 1
			}
			return int(a - b)
		})
		return
	}
	pos := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(scratch[2*n:]))), 2*n)
	pa, pb := pos[:n], pos[n:2*n]
	var p radixPlan
	p.init(0, 64)
	histogramOf(&p, keys)
	passes := p.digitPasses(n, keys[0])
	if len(passes) == 0 {
		for i := range idx {
			idx[i] = int64(i)
		}
		return
	}
	m := uint64(1)<<p.w - 1
	for i, d := range passes {
		shift := p.lo + uint(d)*p.w
		if i == 0 {
			scatterFirst(tmp, pb, keys, &p.hist[d], shift, m)
		} else {
			scatterPairs(tmp, pb, keys, pa, &p.hist[d], shift, m)
		}
		keys, tmp = tmp, keys
		pa, pb = pb, pa
	}
	for i, j := range pa {
		idx[i] = int64(j)
	}
}

// ArgsortScratch is the number of uint64 words ArgsortBits needs for n
// elements of width bytes.
func ArgsortScratch(n, width int) int {
	if width <= 4 {
		return n
	}
	return 3 * n
}

// argsortPacked argsorts keys of 32 bits or less packed above their
// positions into one word each: one sort of the words gives the stable
// order. The packed words are built in idx and sorted with scratch.
func argsortPacked[K SortKey](idx []int64, src []K, kind KeyKind, scratch []uint64) {
	n := len(src)
	w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(idx))), n)
	packKeys(w, src, kind)
	res := w
	if n < smallSort {
		slices.Sort(w)
	} else {
		var p radixPlan
		bits := bitsOf[K]()
		if kind == KeyBool {
			bits = 1
		}
		p.init(32, bits)
		histogramOf(&p, w)
		res = lsd(&p, w, scratch[:n])
	}
	for i, v := range res {
		idx[i] = int64(uint32(v))
	}
}

// packKeys writes each element's key above its position.
func packKeys[K SortKey](w []uint64, src []K, kind KeyKind) {
	sign := K(1) << (bitsOf[K]() - 1)
	switch kind {
	case KeyUnsigned:
		for i, b := range src {
			w[i] = uint64(b)<<32 | uint64(i)
		}
	case KeySigned:
		for i, b := range src {
			w[i] = uint64(b^sign)<<32 | uint64(i)
		}
	case KeyBool:
		for i, b := range src {
			w[i] = uint64(min(b, 1))<<32 | uint64(i)
		}
	case KeyFloat:
		top := floatTop[K]()
		for i, b := range src {
			k := b ^ sign
			if b&sign != 0 {
				k = ^b
				if b == sign {
					k = sign
				}
			}
			if b&^sign > top {
				k = ^K(0)
			}
			w[i] = uint64(k)<<32 | uint64(i)
		}
	}
}

// scatterFirst is the first pass of a 64-bit argsort: keys with their
// positions 0, 1, ... moved to their digit's places.
func scatterFirst(dk []uint64, dp []uint32, keys []uint64, off *[2048]uint32, shift uint, m uint64) {
	dp = dp[:len(dk)]
	for i, k := range keys {
		j := uint(k>>shift&m) & 2047
		o := off[j]
		dk[o] = k
		dp[o] = uint32(i)
		off[j] = o + 1
	}
}

// scatterPairs moves keys and their positions together.
func scatterPairs(dk []uint64, dp []uint32, keys []uint64, pos []uint32, off *[2048]uint32, shift uint, m uint64) {
	pos = pos[:len(keys)]
	dp = dp[:len(dk)]
	for i, k := range keys {
		j := uint(k>>shift&m) & 2047
		o := off[j]
		dk[o] = k
		dp[o] = pos[i]
		off[j] = o + 1
	}
}
