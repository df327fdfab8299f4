package frame

import (
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// corrState keeps, per group, the bivariate moments of Corr: the count of
// rows where both columns are valid, both means, both sums of squared
// deviations and the sum of co-deviations (Welford's update, Chan's merge).
// A group's moments lie together (48 bytes): an update reads one cache
// line, not six, from tables of 10^4 groups that fill the L2 cache.
type corrState struct {
	m []corrMoments
	// the batch being added (read sets them)
	a, b []float64
	ok   []bool
	all  bool // every row has both
}

// corrMoments are one group's moments.
type corrMoments struct {
	n                     int64
	ma, mb, m2a, m2b, cab float64
}

func (s *corrState) grow(n int) { s.m = growTo(s.m, n) }

func (s *corrState) reserve(n int) { s.m = reserveTo(s.m, n) }

// read takes a batch's two columns as float64, and which rows have both.
func (s *corrState) read(ca, cb arrow.Array) error {
	n := ca.Len()
	s.a, s.b, s.ok = growTo(s.a[:0], n), growTo(s.b[:0], n), growTo(s.ok[:0], n)
	da, err := readColumn(ca, 1)
	if err != nil {
		return err
	}
	db, err := readColumn(cb, 1)
	if err != nil {
		return err
	}
	if db.dense() && da.dense() {
		toFloats(s.a, da)
		toFloats(s.b, db)
		s.all = true
		return nil
	}
	s.all = false
	for i := 0; i < n; i++ {
		va, oka := floatAt(da, i)
		vb, okb := floatAt(db, i)
		s.a[i], s.b[i], s.ok[i] = va, vb, oka && okb
	}
	return nil
}

// toFloats converts a primitive numeric column's values to float64.
func toFloats(dst []float64, c *colData) {
	switch v := c.vals.(type) {
	case []int8:
		convert(dst, v[c.base:])
	case []int16:
		convert(dst, v[c.base:])
	case []int32:
		convert(dst, v[c.base:])
	case []int64:
		convert(dst, v[c.base:])
	case []uint8:
		convert(dst, v[c.base:])
	case []uint16:
		convert(dst, v[c.base:])
	case []uint32:
		convert(dst, v[c.base:])
	case []uint64:
		convert(dst, v[c.base:])
	case []float32:
		convert(dst, v[c.base:])
	case []float64:
		copy(dst, v[c.base:])
	}
}

func convert[T number](dst []float64, v []T) {
	v = v[:len(dst)]
	for i, x := range v {
		dst[i] = float64(x)
	}
}

// floatAt reads row i of a primitive numeric column as float64.
func floatAt(c *colData, i int) (float64, bool) {
	if !c.rowValid(i) || !c.elemValid(i) {
		return 0, false
	}
	switch v := c.vals.(type) {
	case []int8:
		return float64(v[c.base+i]), true
	case []int16:
		return float64(v[c.base+i]), true
	case []int32:
		return float64(v[c.base+i]), true
	case []int64:
		return float64(v[c.base+i]), true
	case []uint8:
		return float64(v[c.base+i]), true
	case []uint16:
		return float64(v[c.base+i]), true
	case []uint32:
		return float64(v[c.base+i]), true
	case []uint64:
		return float64(v[c.base+i]), true
	case []float32:
		return float64(v[c.base+i]), true
	case []float64:
		return v[c.base+i], true
	}
	return 0, false
}

func (s *corrState) update(gids []int32, _ *colData, _ int64) error {
	a, b := s.a[:len(gids)], s.b[:len(gids)]
	if s.all {
		for i, g := range gids {
			s.m[g].add(a[i], b[i])
		}
		return nil
	}
	ok := s.ok[:len(gids)]
	for i, g := range gids {
		if ok[i] {
			s.m[g].add(a[i], b[i])
		}
	}
	return nil
}

// add is Welford's update by the pair (a, b), with one division.
func (m *corrMoments) add(a, b float64) {
	m.n++
	inv := 1 / float64(m.n)
	da := a - m.ma
	m.ma += da * inv
	db := b - m.mb
	m.mb += db * inv
	db2 := b - m.mb
	m.m2a += da * (a - m.ma)
	m.m2b += db * db2
	m.cab += da * db2
}

func (s *corrState) merge(o aggState, m []int32) error {
	os := o.(*corrState)
	for g := range os.m {
		x := &os.m[g]
		nb := x.n
		if nb == 0 {
			continue
		}
		y := &s.m[m[g]]
		na := y.n
		n := float64(na + nb)
		w := float64(na) * float64(nb) / n
		da, db := x.ma-y.ma, x.mb-y.mb
		y.ma += da * float64(nb) / n
		y.mb += db * float64(nb) / n
		y.m2a += x.m2a + da*da*w
		y.m2b += x.m2b + db*db*w
		y.cab += x.cab + da*db*w
		y.n = na + nb
	}
	return nil
}

func (s *corrState) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	vals := make([]float64, len(order))
	valid := make([]bool, len(order))
	for k, g := range order {
		x := &s.m[g]
		if x.n < 2 {
			continue
		}
		valid[k] = true
		vals[k] = x.cab / math.Sqrt(x.m2a*x.m2b)
	}
	return out{dt: array.Float64}.column(mem, vals, nil, nil, valid, len(order))
}
