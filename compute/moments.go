package compute

import (
	"math"
	"unsafe"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
)

// Moments is the mergeable partial of a variance: how many values were
// seen, their mean, and M2, the sum of their squared deviations from that
// mean. Partials of disjoint parts of the data combine with Merge in any
// order and grouping (up to rounding), which is how the blocks of one pass,
// the workers of an evaluation and the record batches of a stream combine.
// The zero Moments is the partial of no data.
type Moments struct {
	Count int64
	Mean  float64
	M2    float64

	// lo: Mean + lo is the mean to about twice float64's precision, which
	// MomentsOf32/64, LaneMoments and Merge keep, so that Chan's merge of
	// blocks whose means are large next to their spread stays as accurate
	// as a two-pass variance. Mean is that value rounded. m2lo is M2's
	// compensation: merges add M2s with TwoSum, so that the M2 of many
	// merged blocks is not a running sum's.
	lo, m2lo float64
}

// Merge returns the partial of the union of the data of m and o, by Chan,
// Golub and LeVeque's pairwise formulas:
//
//	n = na + nb, d = mean_b - mean_a
//	mean = mean_a + d*nb/n
//	M2 = M2_a + M2_b + d*d*na*nb/n
//
// which stay accurate when the means are far from zero (no sum of squares
// is ever subtracted from another).
func (m Moments) Merge(o Moments) Moments {
	switch {
	case o.Count <= 0:
		return m
	case m.Count <= 0:
		return o
	}
	n := m.Count + o.Count
	na, nb, nn := float64(m.Count), float64(o.Count), float64(n)
	d := (o.Mean - m.Mean) + (o.lo - m.lo)
	mean, lo := compSum(m.Mean, d*(nb/nn), m.lo)
	m2, m2lo := compSum(m.M2, o.M2+d*d*(na/nn*nb), m.m2lo+o.m2lo)
	return Moments{Count: n, Mean: mean, lo: lo, M2: m2, m2lo: m2lo}
}

// Push adds one value (Welford's update); on a nil *Moments it does
// nothing.
func (m *Moments) Push(x float64) {
	if m == nil {
		return
	}
	m.Count++
	d := x - m.Mean
	m.Mean += d / float64(m.Count)
	m.M2 += d * (x - m.Mean)
}

// Var is the variance with ddof delta degrees of freedom: M2 / max(Count -
// ddof, 0), NumPy's definition. With no degree of freedom left it is NaN
// when M2 is 0 (no data, or one value with ddof 1) and +Inf otherwise, as
// NumPy's division by zero gives.
func (m Moments) Var(ddof int) float64 {
	den := float64(m.Count) - float64(ddof)
	if den < 0 {
		den = 0
	}
	return m.M2 / den
}

// Std is the square root of Var.
func (m Moments) Std(ddof int) float64 { return math.Sqrt(m.Var(ddof)) }

// MomentsBlock is the largest run MomentsOf32 and MomentsOf64 take at once:
// a block that stays in the L1 cache between its passes.
const MomentsBlock = 4096

// MomentsOf32 returns the moments of x (at most MomentsBlock values) by the
// corrected two-pass algorithm: c = sum(x)/n, then with d = x - c,
// mean = c + sum(d)/n and M2 = sum(d*d) - sum(d)^2/n, the sums in float32
// (as NumPy computes float32 data) and the corrections in float64. tmp
// holds at least len(x) values.
func MomentsOf32(x, tmp []float32) Moments {
	n := len(x)
	if n == 0 {
		return Moments{}
	}
	if n == 1 {
		return Moments{Count: 1, Mean: float64(x[0]), M2: 0 * float64(x[0])} // 0*Inf = NaN, as NumPy
	}
	c := vek32.Sum(x) / float32(n)
	if c-c != 0 { // the sum overflowed, or some value is not finite
		if m, ok := momentsScaled(n, func(i int) float64 { return float64(x[i]) }); ok {
			return m
		}
	}
	d := tmp[:n]
	vek32.SubNumber_Into(d, x, c) // (a pointer to c for a kernel would move c to the heap)
	s, ss := float64(vek32.Sum(d)), float64(vek32.Dot(d, d))
	return correct(n, float64(c), s, ss)
}

// MomentsOf64 is MomentsOf32 for float64 values.
func MomentsOf64(x, tmp []float64) Moments {
	n := len(x)
	if n == 0 {
		return Moments{}
	}
	if n == 1 {
		return Moments{Count: 1, Mean: x[0], M2: 0 * x[0]}
	}
	c := vek.Sum(x) / float64(n)
	if c-c != 0 { // the sum overflowed, or some value is not finite
		if m, ok := momentsScaled(n, func(i int) float64 { return x[i] }); ok {
			return m
		}
	}
	d := tmp[:n]
	vek.SubNumber_Into(d, x, c)
	return correct(n, c, vek.Sum(d), vek.Dot(d, d))
}

// momentsScaled returns the moments of n finite values (at(i) is value i)
// computed on the values times 2^-k, k the exponent of the largest
// magnitude, for blocks whose plain sums overflow: values near the top of
// the range give a sum of ±Inf, so a mean of ±Inf and an M2 of NaN, where
// the mean is finite and M2 finite or +Inf (NumPy's variance of such data
// is +Inf). ok is false when some value is NaN or infinite: the plain
// sums' NaN is then the answer. A slow path: it runs only after an
// overflow.
func momentsScaled(n int, at func(i int) float64) (m Moments, ok bool) {
	big := 0.0
	for i := 0; i < n; i++ {
		v := math.Abs(at(i))
		if v-v != 0 {
			return Moments{}, false
		}
		big = max(big, v)
	}
	_, k := math.Frexp(big)
	var sum float64
	for i := 0; i < n; i++ {
		sum += math.Ldexp(at(i), -k) // |x·2^-k| < 1: no overflow, exact scaling
	}
	c := sum / float64(n)
	var s, ss float64
	for i := 0; i < n; i++ {
		d := math.Ldexp(at(i), -k) - c
		s += d
		ss += d * d
	}
	sm := correct(n, c, s, ss)
	m = Moments{Count: sm.Count, Mean: math.Ldexp(sm.Mean, k), lo: math.Ldexp(sm.lo, k), M2: math.Ldexp(sm.M2, 2*k)}
	if m.M2-m.M2 != 0 {
		m.lo = 0
	}
	return m, true
}

// correct finishes the corrected two-pass algorithm.
func correct(n int, c, s, ss float64) Moments {
	fn := float64(n)
	m2 := ss - s*s/fn
	if m2 < 0 { // rounding; NaN stays NaN
		m2 = 0
	}
	if ss > math.MaxFloat64 { // s²/n <= ss: an overflowed ss is M2's +Inf, not Inf - Inf
		m2 = ss
	}
	mean, lo := finiteSum(c, s/fn)
	return Moments{Count: int64(n), Mean: mean, lo: lo, M2: m2}
}

// Lane returns the partial of lane i: the zero Moments (no data) for a
// nil l or an i outside the lanes.
func (l *LaneMoments) Lane(i int) Moments {
	if l == nil || i < 0 || i >= len(l.Mean) || i >= len(l.M2) {
		return Moments{}
	}
	m := Moments{Count: l.Count, Mean: l.Mean[i], M2: l.M2[i]}
	if i < len(l.lo) && l.Count > 0 {
		m.lo, m.m2lo = l.lo[i], l.m2lo[i]
	}
	return m
}

// LaneMoments holds the partials of many lanes (the columns of a reduction
// along an outer axis) that have all seen the same number of values:
// Mean[i] and M2[i] for lane i, Count shared. MergeRows32/64 add blocks of
// rows to it.
type LaneMoments struct {
	Count int64
	Mean  []float64
	M2    []float64

	lo, m2lo  []float64 // per lane: the compensations of Mean and M2 (mergeLanesExact)
	sum, comp []float64 // the block sums, in float64 with compensation (scratch)
}

// MergeRows32 adds a block of rows to the lanes: each row is len(l.Mean)
// contiguous float32 values. The block's moments are computed per lane in
// two passes over the rows (sum and mean, then squared deviations from that
// mean; the block stays in cache between them) and merged into the lanes by
// Chan's formulas. bsum and bm2 are scratch of one row each, tmp of one
// row. On a nil l it does nothing.
func (l *LaneMoments) MergeRows32(rows []unsafe.Pointer, bsum, bm2, tmp []float32) {
	mergeRows(l, rows, bsum, bm2, tmp)
}

// MergeRows64 is MergeRows32 for float64 rows.
func (l *LaneMoments) MergeRows64(rows []unsafe.Pointer, bsum, bm2, tmp []float64) {
	mergeRows(l, rows, bsum, bm2, tmp)
}

// mergeRows is MergeRows32 and MergeRows64. The block sums are taken
// with LookupSum's kernels (float64 with compensation), so that each
// block's mean is known as a centre c (the mean rounded to T, which the
// second pass subtracts) plus the small correction Σ(x-c)/nb, nearly
// exactly; the lanes keep their means as two float64s (mergeLanesExact).
// Chan's merge then sees the difference of two means accurate to its own
// size, not to the means' (with rounded means, data of mean 1000 and
// deviation 1 lost 10^-5 of the variance in float32 and 2·10^-14 in
// float64, where NumPy's two-pass algorithm loses 10^-7 and 10^-15).
func mergeRows[T float32 | float64](l *LaneMoments, rows []unsafe.Pointer, bsum, bm2, tmp []T) {
	if l == nil {
		return
	}
	nl, nb := len(l.Mean), len(rows)
	if nb == 0 || nl == 0 {
		return
	}
	all := rows // sqDevRows below leaves rows the rows it did not take
	t, is64 := Float32, false
	if unsafe.Sizeof(T(0)) == 8 {
		t, is64 = Float64, true
	}
	clear(bm2[:nl])
	ps := unsafe.Pointer(unsafe.SliceData(bsum))
	// the block sums (s, comp) in float64; the centres in bsum
	s, comp := l.blockSums(rows, nl, t)
	fb := float64(nb)
	for i, v := range s {
		bsum[i] = T((v + comp[i]) / fb)
	}
	sub := binTable[Sub][t][VV]
	pt, pm := unsafe.Pointer(unsafe.SliceData(tmp)), unsafe.Pointer(unsafe.SliceData(bm2))
	chain, fused := LookupChain(Mul, Add, t, false, false, false)
	if k, width := sqDev4(is64); k != nil {
		rows = sqDevRows(k, width, rows, pm, ps, bsum[:nl], bm2[:nl])
	}
	for _, r := range rows {
		sub(pt, r, ps, nl)
		if fused {
			chain(pm, pt, pt, pm, nl)
		} else {
			dev, m := tmp[:nl], bm2[:nl]
			for i, d := range dev {
				m[i] += d * d
			}
		}
	}
	// Σ(x-c) = (s - nb·c) + comp, nb·c split exactly by an FMA
	for i, v := range s {
		if c := float64(bsum[i]); c-c != 0 { // an overflowed sum, or a value not finite
			if m, ok := momentsScaled(nb, func(r int) float64 { return float64(*(*T)(unsafe.Add(all[r], i*int(unsafe.Sizeof(T(0)))))) }); ok {
				// the lane's block as a centre (its mean), no deviation
				// sum, and M2 (which may be +Inf)
				bsum[i], s[i], bm2[i] = T(m.Mean), 0, T(m.M2)
				continue
			}
		}
		c := float64(bsum[i])
		p := fb * c
		pe := math.FMA(fb, c, -p)
		s[i] = (v - p) + (comp[i] - pe)
	}
	mergeLanesExact(l, nb, bsum[:nl], s, bm2[:nl])
}

// blockSums returns the sums of the lanes of rows of type t, in float64
// with their compensations (scratch the lanes keep).
func (l *LaneMoments) blockSums(rows []unsafe.Pointer, nl int, t Type) (s, c []float64) {
	if len(l.sum) < nl {
		l.sum, l.comp = make([]float64, nl), make([]float64, nl)
	}
	s, c = l.sum[:nl], l.comp[:nl]
	clear(s)
	clear(c)
	ps, pc := unsafe.Pointer(unsafe.SliceData(s)), unsafe.Pointer(unsafe.SliceData(c))
	k := sumTable[t]
	sz := uintptr(t.Size())
	if len(rows) > 1 {
		d := uintptr(rows[1]) - uintptr(rows[0])
		even := uintptr(rows[1]) > uintptr(rows[0]) && d%sz == 0
		for i := 2; even && i < len(rows); i++ {
			even = uintptr(rows[i])-uintptr(rows[i-1]) == d
		}
		if even {
			k.Rows(ps, pc, rows[0], nl, len(rows), int(d/sz))
			return s, c
		}
	}
	for _, r := range rows {
		k.Accum(ps, pc, r, nl)
	}
	return s, c
}

// mergeLanesExact folds a block of nb rows into the lanes: lane i of the
// block has the centre centre[i], the sum of deviations from it dsum[i]
// and their squares' sum bm2[i]. Its mean is centre + dsum/nb and its M2
// bm2 - dsum²/nb (the corrected two-pass algorithm). A lane's mean is
// Mean[i] + lo[i], Mean[i] being that rounded: the difference d of the
// means is then exact to its own size, and Chan's d²·na·nb/n with it.
func mergeLanesExact[T float32 | float64](l *LaneMoments, nb int, centre []T, dsum []float64, bm2 []T) {
	mean, m2 := l.Mean[:len(centre)], l.M2[:len(centre)]
	if len(l.lo) < len(mean) {
		l.lo, l.m2lo = make([]float64, len(mean)), make([]float64, len(mean))
	}
	lo, m2lo := l.lo[:len(mean)], l.m2lo[:len(mean)]
	fb := float64(nb)
	if l.Count == 0 {
		for i, c := range centre {
			mean[i], lo[i] = finiteSum(float64(c), dsum[i]/fb)
			m2[i] = blockM2(float64(bm2[i]), dsum[i], fb)
			m2lo[i] = 0
		}
		l.Count = int64(nb)
		return
	}
	na := float64(l.Count)
	n := na + fb
	f, fab := fb/n, na/n*fb
	for i, c := range centre {
		bm := blockM2(float64(bm2[i]), dsum[i], fb)
		d := (float64(c) - mean[i]) + (dsum[i]/fb - lo[i])
		m2[i], m2lo[i] = compSum(m2[i], bm+d*d*fab, m2lo[i])
		mean[i], lo[i] = compSum(mean[i], d*f, lo[i])
	}
	l.Count += int64(nb)
}

// blockM2 is a block's M2 by the corrected two-pass algorithm, ss - s²/n
// (ss the squared deviations from the centre, s their sum), at least 0. As
// s²/n <= ss, an ss that overflowed to +Inf gives +Inf (not Inf - Inf).
func blockM2(ss, s, n float64) float64 {
	if ss > math.MaxFloat64 {
		return ss
	}
	return max(ss-s*s/n, 0)
}

// compSum adds b to a value held as a + lo (lo its compensation) and
// returns the sum the same way. A sum that is not finite (an overflow to
// +Inf, a NaN) is returned alone with no compensation: the error terms of
// infinities are NaN.
func compSum(a, b, lo float64) (float64, float64) {
	h, e := twoSum(a, b)
	if h-h != 0 {
		return a + b, 0
	}
	return finiteSum(h, lo+e)
}

// finiteSum is twoSum that leaves a non-finite sum as it is (NaN or an
// infinity, as a plain sum gives) with no error term.
func finiteSum(a, b float64) (float64, float64) {
	s, e := twoSum(a, b)
	if e-e != 0 {
		return a + b, 0
	}
	return s, e
}

// addRows adds rows (each n elements of type t) into acc: with the
// multi-row kernel when they are evenly spaced upwards, one at a time
// otherwise.
func addRows(acc unsafe.Pointer, rows []unsafe.Pointer, n int, t Type) {
	if k := rowsTable[t]; k != nil && len(rows) > 1 {
		d := uintptr(rows[1]) - uintptr(rows[0])
		even := uintptr(rows[1]) > uintptr(rows[0]) && int(d)%t.Size() == 0
		for i := 2; even && i < len(rows); i++ {
			even = uintptr(rows[i])-uintptr(rows[i-1]) == d
		}
		if even {
			k(acc, rows[0], n, len(rows), int(d)/t.Size())
			return
		}
	}
	add := accTable[Add][t]
	for _, r := range rows {
		add(acc, r, n)
	}
}

// sqDevRows adds the squared deviations of rows from mean to m2 four rows
// at a time with kernel k (whole vectors of width elements; the rest of the
// lanes in Go) while the rows are evenly spaced upwards, and returns the
// rows it left.
func sqDevRows[T float32 | float64](k func(acc, x, m unsafe.Pointer, n, stride int), width int, rows []unsafe.Pointer, pm, ps unsafe.Pointer, mean, m2 []T) []unsafe.Pointer {
	n := len(mean)
	nv := n / width * width
	var z T
	size := unsafe.Sizeof(z)
	for len(rows) >= 4 {
		d := uintptr(rows[1]) - uintptr(rows[0])
		if uintptr(rows[1]) <= uintptr(rows[0]) || uintptr(rows[2])-uintptr(rows[1]) != d || uintptr(rows[3])-uintptr(rows[2]) != d {
			break
		}
		if nv > 0 {
			k(pm, rows[0], ps, nv, int(d))
		}
		for r := 0; r < 4; r++ {
			x := unsafe.Slice((*T)(unsafe.Add(rows[r], uintptr(nv)*size)), n-nv)
			for i, v := range x {
				e := v - mean[nv+i]
				m2[nv+i] += e * e
			}
		}
		rows = rows[4:]
	}
	return rows
}

// mergeLanes folds a block of nb rows, whose lane i has mean bmean[i] and
// M2 bm2[i], into the lanes.
func mergeLanes[T float32 | float64](l *LaneMoments, nb int, bmean, bm2 []T) {
	mean, m2 := l.Mean[:len(bmean)], l.M2[:len(bmean)]
	bm2 = bm2[:len(bmean)]
	if l.Count == 0 {
		for i, v := range bmean {
			mean[i], m2[i] = float64(v), float64(bm2[i])
		}
		l.Count = int64(nb)
		return
	}
	na := float64(l.Count)
	n := na + float64(nb)
	fb, fab := float64(nb)/n, na/n*float64(nb)
	for i, v := range bmean {
		d := float64(v) - mean[i]
		mean[i] += d * fb
		m2[i] += float64(bm2[i]) + d*d*fab
	}
	l.Count += int64(nb)
}
