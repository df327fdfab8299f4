package frame

import "math/bits"

// The aggregates' typed loops over a batch whose elements are all valid
// (rows may be null: rowOK), for any width (a tensor column's row is
// width contiguous elements, row i of group g adding into the
// accumulators g*width ... g*width+width-1). They compute what eachValid's
// per-element closures compute, without a call per element.

// denseBlock is the most rows a block of plain float64 sums takes before
// they are folded into the compensated sums: a group's block sum of
// 8-, 16- or 32-bit integers stays below 2^48, so it is exact.
const denseBlock = 1 << 16

// narrow reports whether T's values are summed in plain float64 blocks
// (integers of 32 bits or less exactly, float32 values with an error of
// at most denseBlock·2^-53 of their magnitudes' sum, far below float32's
// own precision); float64 and 64-bit integers are added one by one into
// compensated sums.
func narrow[T number]() bool {
	var z T
	switch any(z).(type) {
	case float64, int64, uint64:
		return false
	}
	return true
}

// updateDense folds a batch of valid elements into the state.
func (s *momentState[T]) updateDense(gids []int32, v []T, rowOK []bool) {
	w := s.width
	v = v[:len(gids)*w]
	groups := len(s.n) / w
	if s.op == aggVar || s.op == aggStd {
		if w == 1 && rowOK == nil && groups*4 <= min(len(gids), denseBlock) {
			s.momentBlocks(gids, v)
			return
		}
		welfordRows(s.n, s.mean, s.m2, s.piv, gids, v, w, rowOK)
		return
	}
	if !narrow[T]() || groups*4 > len(gids) {
		sumRows(s.n, s.s, s.c, gids, v, w, rowOK)
		return
	}
	s.acc, s.rows = growTo(s.acc, groups*w), growTo(s.rows, groups) // zero between blocks
	for lo := 0; lo < len(gids); lo += denseBlock {
		hi := min(lo+denseBlock, len(gids))
		var ok []bool
		if rowOK != nil {
			ok = rowOK[lo:hi]
		}
		blockRows(s.acc, s.rows, gids[lo:hi], v[lo*w:hi*w], w, ok)
		s.fold()
	}
}

// momentBlocks folds the moments of scalar values, all valid, of fewer
// groups than a quarter of a block's rows, in blocks of denseBlock rows: per
// block and group, the count and mean of the values minus the group's
// pivot, then the sum of their squared deviations from that mean (two
// passes: no division per value, and deviations from the block's own
// mean, as exact as Welford's or more), merged into the group's moments by
// Chan's formulas.
func (s *momentState[T]) momentBlocks(gids []int32, v []T) {
	groups := len(s.n)
	s.rows, s.acc = growTo(s.rows, groups), growTo(s.acc, groups) // zero between blocks
	s.bm2 = growTo(s.bm2, groups)
	cnt, mean, m2, piv := s.n, s.mean, s.m2, s.piv
	bn, bs, bm := s.rows, s.acc, s.bm2
	v = v[:len(gids)]
	for lo := 0; lo < len(gids); lo += denseBlock {
		hi := min(lo+denseBlock, len(gids))
		g, x := gids[lo:hi], v[lo:hi]
		x = x[:len(g)]
		for i, k := range g {
			y := float64(x[i])
			if bn[k] == 0 && cnt[k] == 0 {
				piv[k] = y // the group's first value
			}
			bn[k]++
			bs[k] += y - piv[k]
		}
		for k, c := range bn {
			if c > 0 {
				bs[k] /= float64(c) // the block's mean
			}
		}
		for i, k := range g {
			d := (float64(x[i]) - piv[k]) - bs[k]
			bm[k] += d * d
		}
		for k, nb := range bn {
			if nb == 0 {
				continue
			}
			na := cnt[k]
			n := na + nb
			if na == 0 {
				mean[k], m2[k] = bs[k], bm[k]
			} else {
				d := bs[k] - mean[k]
				mean[k] += d * float64(nb) / float64(n)
				m2[k] += bm[k] + d*d*float64(na)*float64(nb)/float64(n)
			}
			cnt[k] = n
			bn[k], bs[k], bm[k] = 0, 0, 0
		}
	}
}

// fold adds the block sums into the compensated sums and clears them.
func (s *momentState[T]) fold() {
	w := s.width
	cnt, sum, comp, acc := s.n, s.s, s.c, s.acc
	for g, r := range s.rows {
		if r == 0 {
			continue
		}
		s.rows[g] = 0
		for k := g * w; k < (g+1)*w; k++ {
			cnt[k] += r
			neumaier(&sum[k], &comp[k], acc[k])
			acc[k] = 0
		}
	}
}

// blockRows adds each valid row's elements into acc and counts the rows
// per group.
func blockRows[T number](acc []float64, rows []int64, gids []int32, v []T, w int, rowOK []bool) {
	if w == 1 && rowOK == nil {
		v = v[:len(gids)]
		for i, g := range gids {
			acc[g] += float64(v[i])
			rows[g]++
		}
		return
	}
	done := blockRowsWide(acc, rows, gids, v, w, rowOK)
	for i, g := range gids[done:] {
		i += done
		if rowOK != nil && !rowOK[i] {
			continue
		}
		a := acc[int(g)*w : int(g)*w+w]
		x := v[i*w : i*w+w]
		x = x[:len(a)]
		for j := range a {
			a[j] += float64(x[j])
		}
		rows[g]++
	}
}

// sumRows adds each valid element into its compensated sum.
func sumRows[T number](cnt []int64, sum, comp []float64, gids []int32, v []T, w int, rowOK []bool) {
	if w == 1 && rowOK == nil {
		v = v[:len(gids)]
		for i, g := range gids {
			cnt[g]++
			neumaier(&sum[g], &comp[g], float64(v[i]))
		}
		return
	}
	for i, g := range gids {
		if rowOK != nil && !rowOK[i] {
			continue
		}
		k := int(g) * w
		x := v[i*w : i*w+w]
		for j, xj := range x {
			cnt[k+j]++
			neumaier(&sum[k+j], &comp[k+j], float64(xj))
		}
	}
}

// welfordRows is Welford's update of each valid element's moments
// (shifted by its accumulator's first value, piv).
func welfordRows[T number](cnt []int64, mean, m2, piv []float64, gids []int32, v []T, w int, rowOK []bool) {
	for i, g := range gids {
		if rowOK != nil && !rowOK[i] {
			continue
		}
		k := int(g) * w
		x := v[i*w : i*w+w]
		for j, xj := range x {
			k := k + j
			y := float64(xj)
			if cnt[k] == 0 {
				piv[k] = y
			}
			y -= piv[k]
			cnt[k]++
			d := y - mean[k]
			mean[k] += d / float64(cnt[k])
			m2[k] += d * (y - mean[k])
		}
	}
}

// intSumRows adds each valid element into its int64 sum, reporting an
// overflow.
func intSumRows[T number](sum []int64, has []bool, gids []int32, v []T, w int, rowOK []bool) bool {
	var over int64
	for i, g := range gids {
		if rowOK != nil && !rowOK[i] {
			continue
		}
		k := int(g) * w
		x := v[i*w : i*w+w]
		a, h := sum[k:k+w], has[k:k+w]
		x = x[:len(a)]
		h = h[:len(a)]
		for j := range a {
			y := int64(x[j])
			old := a[j]
			r := old + y
			a[j] = r
			h[j] = true
			over |= (old ^ r) & (y ^ r) // negative: the signs of old and y agree, r's differs
		}
	}
	return over < 0
}

// uintSumRows adds each valid element into its uint64 sum and returns the
// carries (nonzero: an overflow).
func uintSumRows[T number](sum []uint64, has []bool, gids []int32, v []T, w int, rowOK []bool) uint64 {
	var carry uint64
	for i, g := range gids {
		if rowOK != nil && !rowOK[i] {
			continue
		}
		k := int(g) * w
		x := v[i*w : i*w+w]
		a, h := sum[k:k+w], has[k:k+w]
		x = x[:len(a)]
		h = h[:len(a)]
		for j := range a {
			var cy uint64
			a[j], cy = addCarry(a[j], uint64(x[j]))
			h[j] = true
			carry |= cy
		}
	}
	return carry
}

// extremeRows keeps each accumulator's least (or greatest) valid element,
// NaN above every number.
func extremeRows[T number](vals []T, has []bool, gids []int32, v []T, w int, isMax bool, rowOK []bool) {
	for i, g := range gids {
		if rowOK != nil && !rowOK[i] {
			continue
		}
		k := int(g) * w
		x := v[i*w : i*w+w]
		a, h := vals[k:k+w], has[k:k+w]
		x = x[:len(a)]
		h = h[:len(a)]
		for j := range a {
			if !h[j] || better(x[j], a[j], isMax) {
				a[j] = x[j]
				h[j] = true
			}
		}
	}
}

func addCarry(a, b uint64) (uint64, uint64) { return bits.Add64(a, b, 0) }
