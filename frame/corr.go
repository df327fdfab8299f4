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
type corrState struct {
	n                     []int64
	ma, mb, m2a, m2b, cab []float64
	// the batch being added (read sets them)
	a, b []float64
	ok   []bool
}

func (s *corrState) grow(n int) {
	s.n = growTo(s.n, n)
	s.ma, s.mb, s.m2a, s.m2b, s.cab = growTo(s.ma, n), growTo(s.mb, n), growTo(s.m2a, n), growTo(s.m2b, n), growTo(s.cab, n)
}

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
		for i := range s.ok {
			s.ok[i] = true
		}
		return nil
	}
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
	for i, g := range gids {
		if !s.ok[i] {
			continue
		}
		a, b := s.a[i], s.b[i]
		s.n[g]++
		n := float64(s.n[g])
		da := a - s.ma[g]
		s.ma[g] += da / n
		db := b - s.mb[g]
		s.mb[g] += db / n
		s.m2a[g] += da * (a - s.ma[g])
		s.m2b[g] += db * (b - s.mb[g])
		s.cab[g] += da * (b - s.mb[g])
	}
	return nil
}

func (s *corrState) merge(o aggState, m []int32) error {
	os := o.(*corrState)
	for g, nb := range os.n {
		if nb == 0 {
			continue
		}
		d := m[g]
		na := s.n[d]
		n := float64(na + nb)
		w := float64(na) * float64(nb) / n
		da, db := os.ma[g]-s.ma[d], os.mb[g]-s.mb[d]
		s.ma[d] += da * float64(nb) / n
		s.mb[d] += db * float64(nb) / n
		s.m2a[d] += os.m2a[g] + da*da*w
		s.m2b[d] += os.m2b[g] + db*db*w
		s.cab[d] += os.cab[g] + da*db*w
		s.n[d] = na + nb
	}
	return nil
}

func (s *corrState) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	vals := make([]float64, len(order))
	valid := make([]bool, len(order))
	for k, g := range order {
		if s.n[g] < 2 {
			continue
		}
		valid[k] = true
		vals[k] = s.cab[g] / math.Sqrt(s.m2a[g]*s.m2b[g])
	}
	return out{dt: array.Float64}.column(mem, vals, nil, nil, valid, len(order))
}
