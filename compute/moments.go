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
	d := tmp[:n]
	vek.SubNumber_Into(d, x, c)
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
	mergeRows(l, rows, bsum, bm2, tmp)
}

// MergeRows64 is MergeRows32 for float64 rows.
func (l *LaneMoments) MergeRows64(rows []unsafe.Pointer, bsum, bm2, tmp []float64) {
	mergeRows(l, rows, bsum, bm2, tmp)
}

// mergeRows is MergeRows32 and MergeRows64.
func mergeRows[T float32 | float64](l *LaneMoments, rows []unsafe.Pointer, bsum, bm2, tmp []T) {
	nl, nb := len(l.Mean), len(rows)
	if nb == 0 || nl == 0 {
		return
	}
	t, is64 := Float32, false
	if unsafe.Sizeof(T(0)) == 8 {
		t, is64 = Float64, true
	}
	clear(bsum[:nl])
	clear(bm2[:nl])
	ps := unsafe.Pointer(unsafe.SliceData(bsum))
	addRows(ps, rows, nl, t)
	// the block means, as centres for the second pass (a product by 1/nb
	// is within an ulp of the quotient; the centre needs no more)
	inv := 1 / T(nb)
	for i := range bsum[:nl] {
		bsum[i] *= inv // in place: vek's kernels (noasm) forbid overlap
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
	mergeLanes(l, nb, bsum[:nl], bm2[:nl])
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
