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
	d := o.Mean - m.Mean
	return Moments{Count: n, Mean: m.Mean + d*(nb/nn), M2: m.M2 + o.M2 + d*d*(na/nn*nb)}
}

// Push adds one value (Welford's update).
func (m *Moments) Push(x float64) {
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
	d := tmp[:n]
	binTable[Sub][Float32][VS](unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(&c), n)
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
	d := tmp[:n]
	binTable[Sub][Float64][VS](unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(&c), n)
	return correct(n, c, vek.Sum(d), vek.Dot(d, d))
}

// correct finishes the corrected two-pass algorithm.
func correct(n int, c, s, ss float64) Moments {
	fn := float64(n)
	m2 := ss - s*s/fn
	if m2 < 0 { // rounding; NaN stays NaN
		m2 = 0
	}
	return Moments{Count: int64(n), Mean: c + s/fn, M2: m2}
}

// LaneMoments holds the partials of many lanes (the columns of a reduction
// along an outer axis) that have all seen the same number of values:
// Mean[i] and M2[i] for lane i, Count shared. MergeRows32/64 add blocks of
// rows to it.
type LaneMoments struct {
	Count int64
	Mean  []float64
	M2    []float64
}

// MergeRows32 adds a block of rows to the lanes: each row is len(l.Mean)
// contiguous float32 values. The block's moments are computed per lane in
// two passes over the rows (sum and mean, then squared deviations from that
// mean; the block stays in cache between them) and merged into the lanes by
// Chan's formulas. bsum and bm2 are scratch of one row each, tmp of one
// row.
func (l *LaneMoments) MergeRows32(rows []unsafe.Pointer, bsum, bm2, tmp []float32) {
	nl, nb := len(l.Mean), len(rows)
	if nb == 0 || nl == 0 {
		return
	}
	clear(bsum[:nl])
	clear(bm2[:nl])
	add := accTable[Add][Float32]
	ps := unsafe.Pointer(unsafe.SliceData(bsum))
	for _, r := range rows {
		add(ps, r, nl)
	}
	inv := float32(nb)
	binTable[Div][Float32][VS](ps, ps, unsafe.Pointer(&inv), nl) // block means
	sub := binTable[Sub][Float32][VV]
	pt, pm := unsafe.Pointer(unsafe.SliceData(tmp)), unsafe.Pointer(unsafe.SliceData(bm2))
	chain, fused := LookupChain(Mul, Add, Float32, false, false, false)
	for _, r := range rows {
		sub(pt, r, ps, nl)
		if fused {
			chain(pm, pt, pt, pm, nl)
		} else {
			t, m := tmp[:nl], bm2[:nl]
			for i, d := range t {
				m[i] += d * d
			}
		}
	}
	l.merge(nb, func(i int) (float64, float64) { return float64(bsum[i]), float64(bm2[i]) })
}

// MergeRows64 is MergeRows32 for float64 rows.
func (l *LaneMoments) MergeRows64(rows []unsafe.Pointer, bsum, bm2, tmp []float64) {
	nl, nb := len(l.Mean), len(rows)
	if nb == 0 || nl == 0 {
		return
	}
	clear(bsum[:nl])
	clear(bm2[:nl])
	add := accTable[Add][Float64]
	ps := unsafe.Pointer(unsafe.SliceData(bsum))
	for _, r := range rows {
		add(ps, r, nl)
	}
	inv := float64(nb)
	binTable[Div][Float64][VS](ps, ps, unsafe.Pointer(&inv), nl)
	sub := binTable[Sub][Float64][VV]
	pt, pm := unsafe.Pointer(unsafe.SliceData(tmp)), unsafe.Pointer(unsafe.SliceData(bm2))
	chain, fused := LookupChain(Mul, Add, Float64, false, false, false)
	for _, r := range rows {
		sub(pt, r, ps, nl)
		if fused {
			chain(pm, pt, pt, pm, nl)
		} else {
			t, m := tmp[:nl], bm2[:nl]
			for i, d := range t {
				m[i] += d * d
			}
		}
	}
	l.merge(nb, func(i int) (float64, float64) { return bsum[i], bm2[i] })
}

// merge folds a block of nb rows, whose lane i has mean and M2 block(i),
// into the lanes.
func (l *LaneMoments) merge(nb int, block func(i int) (float64, float64)) {
	if l.Count == 0 {
		for i := range l.Mean {
			l.Mean[i], l.M2[i] = block(i)
		}
		l.Count = int64(nb)
		return
	}
	na := float64(l.Count)
	n := na + float64(nb)
	fb, fab := float64(nb)/n, na/n*float64(nb)
	mean, m2 := l.Mean, l.M2[:len(l.Mean)]
	for i := range mean {
		bm, bq := block(i)
		d := bm - mean[i]
		mean[i] += d * fb
		m2[i] += bq + d*d*fab
	}
	l.Count += int64(nb)
}
