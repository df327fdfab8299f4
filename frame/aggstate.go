package frame

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/compute"
)

// aggState holds one aggregate's partial results for every group of a
// table, width elements a group.
type aggState interface {
	// grow makes room for n groups.
	grow(n int)
	// update folds a batch in: row i belongs to group gids[i]; pos is the
	// position of row 0 in the whole input (for First and Last; or each
	// row's, c.at).
	update(gids []int32, c *colData, pos int64) error
	// merge folds o (a state of the same kind) in: o's group g is m[g].
	merge(o aggState, m []int32) error
	// finish returns the results of the groups in order, as a column.
	finish(mem memory.Allocator, order []int32) (arrow.Array, error)
}

// out is what a numeric state knows to build its column: the element
// dtype and shape (nil for a primitive column).
type out struct {
	dt    array.DType
	shape []int
}

// column builds the output column from values (groups × width, in order)
// and their validity.
func (o out) column(mem memory.Allocator, vals []float64, ints []int64, uints []uint64, valid []bool, groups int) (arrow.Array, error) {
	shape := append([]int{groups}, o.shape...)
	var a *array.Array
	var err error
	switch {
	case ints != nil:
		a, err = array.FromSliceValid(mem, ints, valid, shape...)
	case uints != nil:
		a, err = array.FromSliceValid(mem, uints, valid, shape...)
	default:
		a, err = array.FromSliceValid(mem, vals, valid, shape...)
	}
	if err != nil {
		return nil, err
	}
	defer a.Release()
	if a.DType() != o.dt {
		c, err := castArray(mem, a, o.dt)
		if err != nil {
			return nil, err
		}
		defer c.Release()
		a = c
	}
	if len(o.shape) == 0 {
		return arrowio.ToArrow(mem, a)
	}
	return arrowio.ToTensorColumn(mem, a)
}

// castArray converts a to dtype dt (NumPy's cast, rounding to nearest).
func castArray(mem memory.Allocator, a *array.Array, dt array.DType) (*array.Array, error) {
	c, err := array.Empty(mem, dt, a.Shape()...)
	if err != nil {
		return nil, err
	}
	f, err := compute.LookupCast(compute.Type(a.DType()), compute.Type(dt))
	if err != nil {
		c.Release()
		return nil, err
	}
	if a.Len() > 0 {
		f(c.DataPointer(), a.DataPointer(), a.Len())
	}
	if a.HasNulls() {
		if err := c.EnsureValidity(); err != nil {
			c.Release()
			return nil, err
		}
		copy(c.Validity().Bytes(), a.Validity().Bytes()[:a.Len()])
	}
	return c, nil
}

// eachValid calls f(k, j) for every valid element of the batch: k is its
// accumulator index (group × width + element), j its index in the batch's
// values. A null row skips its elements.
func eachValid(gids []int32, c *colData, w int, f func(k, j int)) {
	for i, g := range gids {
		if !c.rowValid(i) {
			continue
		}
		for e := 0; e < w; e++ {
			if c.elemValid(i*w + e) {
				f(int(g)*w+e, i*w+e)
			}
		}
	}
}

// eachMerged calls f(dst, src) for every accumulator of a state of groups
// groups that merges into another: src's group g is m[g] there.
func eachMerged(groups, w int, m []int32, f func(dst, src int)) {
	for g := 0; g < groups; g++ {
		for e := 0; e < w; e++ {
			f(int(m[g])*w+e, g*w+e)
		}
	}
}

// ---- count ----

type countState struct {
	n    []int64
	rows bool // count rows, not valid values
}

func (s *countState) grow(n int) { s.n = growTo(s.n, n) }

func (s *countState) update(gids []int32, c *colData, _ int64) error {
	if s.rows || c.col.NullN() == 0 {
		n := s.n
		for _, g := range gids {
			n[g]++
		}
		return nil
	}
	for i, g := range gids {
		if s.rows || c.rowValid(i) {
			s.n[g]++
		}
	}
	return nil
}

func (s *countState) merge(o aggState, m []int32) error {
	for g, v := range o.(*countState).n {
		s.n[m[g]] += v
	}
	return nil
}

func (s *countState) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	return directGather(mem, arrow.PrimitiveTypes.Int64, s.n, nil, order), nil
}

// workFinisher is a state whose finish can share its work among workers.
type workFinisher interface {
	finishN(mem memory.Allocator, order []int32, workers int) (arrow.Array, error)
}

// reserver is a state that can make room for exactly n groups (a merge,
// knowing how many there are, grows the largest table's states once).
type reserver interface {
	reserve(n int)
}

// reserveTo gives s a capacity of at least n elements, exactly n when it
// has to grow.
func reserveTo[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s
	}
	t := make([]T, len(s), n)
	copy(t, s)
	return t
}

func (s *countState) reserve(n int) { s.n = reserveTo(s.n, n) }

func (s *intSumState[T]) reserve(n int) {
	s.s, s.has = reserveTo(s.s, n*s.width), reserveTo(s.has, n*s.width)
}

func (s *uintSumState[T]) reserve(n int) {
	s.s, s.has = reserveTo(s.s, n*s.width), reserveTo(s.has, n*s.width)
}

func (s *momentState[T]) reserve(n int) {
	k := n * s.width
	s.n = reserveTo(s.n, k)
	if s.op == aggVar || s.op == aggStd {
		s.mean, s.m2, s.piv = reserveTo(s.mean, k), reserveTo(s.m2, k), reserveTo(s.piv, k)
	} else {
		s.s, s.c = reserveTo(s.s, k), reserveTo(s.c, k)
	}
}

func (s *extremeState[T]) reserve(n int) {
	s.v, s.has = reserveTo(s.v, n*s.width), reserveTo(s.has, n*s.width)
}

// growTo extends s to n elements (zero), doubling its capacity when short.
func growTo[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n > cap(s) {
		t := make([]T, len(s), max(n, 2*cap(s)))
		copy(t, s)
		s = t
	}
	old := len(s)
	s = s[:n]
	clear(s[old:])
	return s
}

// ---- exact integer sums ----

type intSumState[T number] struct {
	out   out
	width int
	s     []int64
	has   []bool
	err   error
}

func (s *intSumState[T]) grow(n int) {
	s.s = growTo(s.s, n*s.width)
	s.has = growTo(s.has, n*s.width)
}

func (s *intSumState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	if c.dense() {
		v = v[:len(gids)]
		sum, has := s.s, s.has
		var over int64
		for i, g := range gids {
			x := int64(v[i])
			old := sum[g]
			r := old + x
			sum[g] = r
			has[g] = true
			over |= (old ^ r) & (x ^ r) // negative: the signs of old and x agree, r's differs
		}
		return s.overflow(over < 0)
	}
	if c.elemsDense() {
		return s.overflow(intSumRows(s.s, s.has, gids, v, s.width, c.rowMask()))
	}
	over := false
	eachValid(gids, c, s.width, func(k, j int) { over = s.add(k, int64(v[j]), true) || over })
	return s.overflow(over)
}

// add adds x to accumulator k, reporting an overflow (the sum is then
// wrong, and the run fails).
func (s *intSumState[T]) add(k int, x int64, has bool) bool {
	old := s.s[k]
	r := old + x
	s.s[k] = r
	s.has[k] = s.has[k] || has
	return (x > 0 && r < old) || (x < 0 && r > old)
}

func (s *intSumState[T]) overflow(over bool) error {
	if over {
		return fmt.Errorf("%w: the sum overflows int64", ErrOverflow)
	}
	return nil
}

func (s *intSumState[T]) merge(o aggState, m []int32) error {
	os := o.(*intSumState[T])
	over := false
	eachMerged(len(os.s)/s.width, s.width, m, func(d, k int) { over = s.add(d, os.s[k], os.has[k]) || over })
	return s.overflow(over)
}

func (s *intSumState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	if s.width == 1 && len(s.out.shape) == 0 && s.out.dt == array.Int64 {
		return directGather(mem, arrow.PrimitiveTypes.Int64, s.s, s.has, order), nil
	}
	v, valid := gather(s.s, s.has, order, s.width)
	return s.out.column(mem, nil, v, nil, valid, len(order))
}

type uintSumState[T number] struct {
	out   out
	width int
	s     []uint64
	has   []bool
}

func (s *uintSumState[T]) grow(n int) {
	s.s = growTo(s.s, n*s.width)
	s.has = growTo(s.has, n*s.width)
}

func (s *uintSumState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	var carry uint64
	if c.dense() {
		v = v[:len(gids)]
		sum, has := s.s, s.has
		for i, g := range gids {
			var cy uint64
			sum[g], cy = bits.Add64(sum[g], uint64(v[i]), 0)
			has[g] = true
			carry |= cy
		}
		return s.overflow(carry)
	}
	if c.elemsDense() {
		return s.overflow(uintSumRows(s.s, s.has, gids, v, s.width, c.rowMask()))
	}
	eachValid(gids, c, s.width, func(k, j int) { carry |= s.add(k, uint64(v[j]), true) })
	return s.overflow(carry)
}

// add adds x to accumulator k and returns the carry (an overflow).
func (s *uintSumState[T]) add(k int, x uint64, has bool) uint64 {
	r, carry := bits.Add64(s.s[k], x, 0)
	s.s[k] = r
	s.has[k] = s.has[k] || has
	return carry
}

func (s *uintSumState[T]) overflow(carry uint64) error {
	if carry != 0 {
		return fmt.Errorf("%w: the sum overflows uint64", ErrOverflow)
	}
	return nil
}

func (s *uintSumState[T]) merge(o aggState, m []int32) error {
	os := o.(*uintSumState[T])
	var carry uint64
	eachMerged(len(os.s)/s.width, s.width, m, func(d, k int) { carry |= s.add(d, os.s[k], os.has[k]) })
	return s.overflow(carry)
}

func (s *uintSumState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	if s.width == 1 && len(s.out.shape) == 0 && s.out.dt == array.Uint64 {
		return directGather(mem, arrow.PrimitiveTypes.Uint64, s.s, s.has, order), nil
	}
	v, valid := gather(s.s, s.has, order, s.width)
	return s.out.column(mem, nil, nil, v, valid, len(order))
}

// gather picks the groups of order from per-group values.
func gather[T any](v []T, has []bool, order []int32, w int) ([]T, []bool) {
	ov := make([]T, 0, len(order)*w)
	valid := make([]bool, 0, len(order)*w)
	for _, g := range order {
		ov = append(ov, v[int(g)*w:int(g+1)*w]...)
		valid = append(valid, has[int(g)*w:int(g+1)*w]...)
	}
	return ov, valid
}

// ---- float sums, means and moments ----

// momentState keeps, per element, the count, the compensated sum (Sum,
// Mean) or the mean and squared deviations (Var, Std: Welford's update,
// Chan's merge).
type momentState[T number] struct {
	op    aggOp
	ddof  int
	out   out
	width int
	n     []int64
	s, c  []float64 // sum and Neumaier compensation (Sum, Mean)
	// Var, Std: Welford's mean and M2 of the values minus piv, the
	// element's first value, so that values far from zero relative to
	// their spread (4e9 + small integers) keep their digits: the mean
	// of the whole is piv + mean
	mean []float64
	m2   []float64
	piv  []float64
	// Sum, Mean of narrow types: a block's plain float64 sums and rows
	// per group (updateDense), folded into s, c after the block; Var,
	// Std: a block's rows, sums then means, and M2 (momentBlocks)
	acc  []float64
	rows []int64
	bm2  []float64
}

func (s *momentState[T]) grow(n int) {
	k := n * s.width
	s.n = growTo(s.n, k)
	if s.op == aggVar || s.op == aggStd {
		s.mean, s.m2, s.piv = growTo(s.mean, k), growTo(s.m2, k), growTo(s.piv, k)
	} else {
		s.s, s.c = growTo(s.s, k), growTo(s.c, k)
	}
}

// neumaier adds x to the compensated sum (s, c): c gathers the exact
// rounding error of each addition, found without a branch by Knuth's
// TwoSum (the same error as Neumaier's |s| >= |x| test picks, bit for
// bit, but no mispredicted branch on values of random magnitude). A
// non-finite s makes c NaN: finish and merge then read s alone.
func neumaier(s, c *float64, x float64) {
	t := *s + x
	z := t - *s
	*c += (*s - (t - z)) + (x - z)
	*s = t
}

// compensated returns the sum s + c, or s when s is not finite (c is NaN
// then: an infinity or NaN among the values).
func compensated(s, c float64) float64 {
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	return s + c
}

func (s *momentState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	if c.elemsDense() {
		s.updateDense(gids, v, c.rowMask())
		return nil
	}
	if s.op == aggVar || s.op == aggStd {
		eachValid(gids, c, s.width, func(k, j int) {
			x := float64(v[j])
			if s.n[k] == 0 {
				s.piv[k] = x
			}
			x -= s.piv[k]
			s.n[k]++
			d := x - s.mean[k]
			s.mean[k] += d / float64(s.n[k])
			s.m2[k] += d * (x - s.mean[k])
		})
		return nil
	}
	eachValid(gids, c, s.width, func(k, j int) {
		s.n[k]++
		neumaier(&s.s[k], &s.c[k], float64(v[j]))
	})
	return nil
}

func (s *momentState[T]) merge(o aggState, m []int32) error {
	os := o.(*momentState[T])
	moments := s.op == aggVar || s.op == aggStd
	eachMerged(len(os.n)/s.width, s.width, m, func(k, ok int) {
		nb := os.n[ok]
		if nb == 0 {
			return
		}
		na := s.n[k]
		n := na + nb
		if moments {
			if na == 0 {
				s.piv[k], s.mean[k], s.m2[k] = os.piv[ok], os.mean[ok], os.m2[ok]
				s.n[k] = nb
				return
			}
			// the difference of the means, pivots apart: close values
			// subtract exactly
			d := (os.piv[ok] - s.piv[k]) + (os.mean[ok] - s.mean[k])
			s.mean[k] += d * float64(nb) / float64(n)
			s.m2[k] += os.m2[ok] + d*d*float64(na)*float64(nb)/float64(n)
		} else {
			neumaier(&s.s[k], &s.c[k], os.s[ok])
			if oc := os.c[ok]; !math.IsNaN(oc) && !math.IsInf(oc, 0) {
				neumaier(&s.s[k], &s.c[k], oc)
			}
		}
		s.n[k] = n
	})
	return nil
}

func (s *momentState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	w := s.width
	if w == 1 && len(s.out.shape) == 0 && s.out.dt == array.Float64 {
		return directColumn(mem, arrow.PrimitiveTypes.Float64, len(order), func(vals []float64, valid []byte) int {
			nulls := 0
			for i, g := range order {
				v, ok := s.value(int(g))
				vals[i] = v
				if !ok {
					bitutil.ClearBit(valid, i)
					nulls++
				}
			}
			return nulls
		}), nil
	}
	vals := make([]float64, 0, len(order)*w)
	valid := make([]bool, 0, len(order)*w)
	for _, g := range order {
		for e := 0; e < w; e++ {
			v, ok := s.value(int(g)*w + e)
			vals = append(vals, v)
			valid = append(valid, ok)
		}
	}
	return s.out.column(mem, vals, nil, nil, valid, len(order))
}

// value is accumulator k's result (0, false: null).
func (s *momentState[T]) value(k int) (float64, bool) {
	n := s.n[k]
	if n == 0 {
		return 0, false
	}
	switch s.op {
	case aggSum:
		return compensated(s.s[k], s.c[k]), true
	case aggMean:
		return compensated(s.s[k], s.c[k]) / float64(n), true
	case aggVar, aggStd:
		if n <= int64(s.ddof) {
			return 0, false
		}
		v := max(s.m2[k], 0) / float64(n-int64(s.ddof))
		if s.op == aggStd {
			v = math.Sqrt(v)
		}
		return v, true
	}
	return 0, false
}

// ---- min and max ----

type extremeState[T number] struct {
	out   out
	width int
	max   bool
	v     []T
	has   []bool
}

func (s *extremeState[T]) grow(n int) {
	s.v = growTo(s.v, n*s.width)
	s.has = growTo(s.has, n*s.width)
}

// better reports whether x replaces the current extreme b: NaN is above
// every number.
func better[T number](x, b T, isMax bool) bool {
	xn, bn := x != x, b != b
	if isMax {
		return (xn && !bn) || (!bn && x > b)
	}
	return (bn && !xn) || (!xn && x < b)
}

func (s *extremeState[T]) put(k int, x T) {
	if !s.has[k] || better(x, s.v[k], s.max) {
		s.v[k] = x
		s.has[k] = true
	}
}

func (s *extremeState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	if c.dense() {
		v = v[:len(gids)]
		vals, has := s.v, s.has
		for i, g := range gids {
			x := v[i]
			if !has[g] || better(x, vals[g], s.max) {
				vals[g] = x
				has[g] = true
			}
		}
		return nil
	}
	if c.elemsDense() {
		extremeRows(s.v, s.has, gids, v, s.width, s.max, c.rowMask())
		return nil
	}
	eachValid(gids, c, s.width, func(k, j int) { s.put(k, v[j]) })
	return nil
}

func (s *extremeState[T]) merge(o aggState, m []int32) error {
	os := o.(*extremeState[T])
	eachMerged(len(os.v)/s.width, s.width, m, func(d, k int) {
		if os.has[k] {
			s.put(d, os.v[k])
		}
	})
	return nil
}

func (s *extremeState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	v, valid := gather(s.v, s.has, order, s.width)
	return typedColumn(mem, s.out, v, valid, len(order))
}

// typedColumn builds an output column from values of the element type
// (widened to int64, uint64 or float64 exactly, then cast back).
func typedColumn[T number](mem memory.Allocator, o out, v []T, valid []bool, groups int) (arrow.Array, error) {
	switch o.dt {
	case array.Int8, array.Int16, array.Int32, array.Int64:
		w := make([]int64, len(v))
		for i, x := range v {
			w[i] = int64(x)
		}
		return o.column(mem, nil, w, nil, valid, groups)
	case array.Uint8, array.Uint16, array.Uint32, array.Uint64, array.Bool:
		w := make([]uint64, len(v))
		for i, x := range v {
			w[i] = uint64(x)
		}
		return o.column(mem, nil, nil, w, valid, groups)
	}
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = float64(x)
	}
	return o.column(mem, w, nil, nil, valid, groups)
}

// ---- first and last ----

type firstState[T number] struct {
	out   out
	width int
	last  bool
	pos   []int64 // -1: no row yet
	v     []T
	ok    []bool // element validity of the chosen row
}

func (s *firstState[T]) grow(n int) {
	old := len(s.pos)
	s.pos = growTo(s.pos, n)
	for i := old; i < n; i++ {
		s.pos[i] = -1
	}
	s.v = growTo(s.v, n*s.width)
	s.ok = growTo(s.ok, n*s.width)
}

func (s *firstState[T]) takes(g int, p int64) bool {
	return s.pos[g] < 0 || (s.last && p > s.pos[g]) || (!s.last && p < s.pos[g])
}

func (s *firstState[T]) update(gids []int32, c *colData, pos int64) error {
	v := typed[T](c)
	w := s.width
	for i, g := range gids {
		p := c.posOf(pos, i)
		if !s.takes(int(g), p) {
			continue
		}
		s.pos[g] = p
		rv := c.rowValid(i)
		for e := 0; e < w; e++ {
			k := int(g)*w + e
			s.ok[k] = rv && c.elemValid(i*w+e)
			s.v[k] = v[i*w+e]
		}
	}
	return nil
}

func (s *firstState[T]) merge(o aggState, m []int32) error {
	os := o.(*firstState[T])
	w := s.width
	for g, p := range os.pos {
		if p < 0 || !s.takes(int(m[g]), p) {
			continue
		}
		d := int(m[g])
		s.pos[d] = p
		copy(s.v[d*w:(d+1)*w], os.v[g*w:(g+1)*w])
		copy(s.ok[d*w:(d+1)*w], os.ok[g*w:(g+1)*w])
	}
	return nil
}

func (s *firstState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	v, valid := gather(s.v, s.ok, order, s.width)
	return typedColumn(mem, s.out, v, valid, len(order))
}

// ---- any and all ----

type boolState[T number] struct {
	width int
	shape []int
	all   bool
	v     []bool
	has   []bool
}

func (s *boolState[T]) grow(n int) {
	s.v = growTo(s.v, n*s.width)
	s.has = growTo(s.has, n*s.width)
}

func (s *boolState[T]) put(k int, x bool) {
	if !s.has[k] {
		s.v[k], s.has[k] = x, true
	} else if s.all {
		s.v[k] = s.v[k] && x
	} else {
		s.v[k] = s.v[k] || x
	}
}

func (s *boolState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	eachValid(gids, c, s.width, func(k, j int) { s.put(k, v[j] != 0) })
	return nil
}

func (s *boolState[T]) merge(o aggState, m []int32) error {
	os := o.(*boolState[T])
	eachMerged(len(os.v)/s.width, s.width, m, func(d, k int) {
		if os.has[k] {
			s.put(d, os.v[k])
		}
	})
	return nil
}

func (s *boolState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	v, valid := gather(s.v, s.has, order, s.width)
	u := make([]uint8, len(v))
	for i, x := range v {
		if x {
			u[i] = 1
		}
	}
	return typedColumn(mem, out{dt: array.Bool, shape: s.shape}, u, valid, len(order))
}

// ---- quantiles (held in memory) ----

type quantileState[T number] struct {
	out   out
	width int
	q     float64
	v     [][]float64 // per group and element
}

func (s *quantileState[T]) grow(n int) { s.v = growTo(s.v, n*s.width) }

func (s *quantileState[T]) update(gids []int32, c *colData, _ int64) error {
	v := typed[T](c)
	if c.dense() {
		v = v[:len(gids)]
		for i, g := range gids {
			s.v[g] = append(s.v[g], float64(v[i]))
		}
		return nil
	}
	eachValid(gids, c, s.width, func(k, j int) { s.v[k] = append(s.v[k], float64(v[j])) })
	return nil
}

func (s *quantileState[T]) merge(o aggState, m []int32) error {
	os := o.(*quantileState[T])
	eachMerged(len(os.v)/s.width, s.width, m, func(d, k int) { s.v[d] = append(s.v[d], os.v[k]...) })
	return nil
}

func (s *quantileState[T]) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	return s.finishN(mem, order, 1)
}

// finishN is finish with the groups shared among workers (a
// workFinisher): each group's selection is its own.
func (s *quantileState[T]) finishN(mem memory.Allocator, order []int32, workers int) (arrow.Array, error) {
	w := s.width
	vals := make([]float64, len(order)*w)
	valid := make([]bool, len(order)*w)
	const chunk = 256 // groups a task
	if len(order)*w < 4*chunk {
		workers = 1
	}
	parallel(workers, (len(order)+chunk-1)/chunk, func(t int) {
		for i := t * chunk; i < min(len(order), (t+1)*chunk); i++ {
			g := int(order[i])
			for e := 0; e < w; e++ {
				if x := s.v[g*w+e]; len(x) > 0 {
					vals[i*w+e], valid[i*w+e] = quantileOf(x, s.q), true
				}
			}
		}
	})
	return s.out.column(mem, vals, nil, nil, valid, len(order))
}

// quantileOf interpolates linearly at q among x's values ordered with NaN
// last, as numpy.quantile's default method (position q*(n-1)); it
// reorders x, selecting the two values it needs rather than sorting.
func quantileOf(x []float64, q float64) float64 {
	j := 0 // x[:j]: the numbers, x[j:]: the NaNs
	for i, v := range x {
		if v == v {
			x[j], x[i] = x[i], x[j]
			j++
		}
	}
	p := q * float64(len(x)-1)
	lo := int(math.Floor(p))
	hi := min(lo+1, len(x)-1)
	f := p - float64(lo)
	xlo, xhi := math.NaN(), math.NaN()
	if lo < j {
		selectK(x[:j], lo)
		xlo = x[lo]
		if hi < j {
			xhi = x[lo] // hi == lo, or the least value after lo
			if hi > lo {
				xhi = slices.Min(x[lo+1 : j])
			}
		}
	}
	if f == 0 || xlo == xhi {
		return xlo
	}
	return xlo + (xhi-xlo)*f
}

// selectK reorders x (no NaNs) so that x[k] is the value a sort would put
// there, no value before it greater and none after it less. Each round
// partitions around a median of three without a branch on the data (a
// swap every element, the boundary moved by the comparison), which
// random values would mispredict half the time; a second pass splits the
// values equal to the pivot off when k falls at or past it, so that
// repeated values still shrink the range.
func selectK(x []float64, k int) {
	lo, hi := 0, len(x)
	for rounds := 0; hi-lo > 24; rounds++ {
		if rounds > 64 {
			slices.Sort(x[lo:hi]) // pathological pivots
			return
		}
		a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi-1]
		p := max(min(a, b), min(max(a, b), c)) // median of three
		lt := partitionLess(x[lo:hi], p) + lo  // [lo,lt) < p
		if k < lt {
			hi = lt
			continue
		}
		le := partitionNotGreater(x[lt:hi], p) + lt // [lt,le) == p
		if k < le {
			return
		}
		lo = le
	}
	for i := lo + 1; i < hi; i++ { // insertion sort
		for j := i; j > lo && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

// partitionLess moves x's values less than p to its front, returning how
// many there are.
func partitionLess(x []float64, p float64) int {
	i := 0
	for j, v := range x {
		x[j] = x[i]
		x[i] = v
		d := 0
		if v < p {
			d = 1
		}
		i += d
	}
	return i
}

// partitionNotGreater moves x's values not greater than p to its front,
// returning how many there are: those less than the next float after p
// (x has no NaN).
func partitionNotGreater(x []float64, p float64) int {
	if math.IsInf(p, 1) {
		return len(x)
	}
	return partitionLess(x, math.Nextafter(p, math.Inf(1)))
}

// ---- distinct values and string extremes (any key-able type) ----

// distinctState counts distinct valid values by their key encoding.
type distinctState struct {
	sets []map[string]struct{}
	buf  []byte
}

func (s *distinctState) grow(n int) { s.sets = growTo(s.sets, n) }

func (s *distinctState) update(gids []int32, c *colData, _ int64) error {
	for i, g := range gids {
		if !c.col.IsValid(i) {
			continue
		}
		s.buf = appendKey(s.buf[:0], c.col, i)
		if s.sets[g] == nil {
			s.sets[g] = map[string]struct{}{}
		}
		s.sets[g][string(s.buf)] = struct{}{}
	}
	return nil
}

func (s *distinctState) merge(o aggState, m []int32) error {
	for g, set := range o.(*distinctState).sets {
		d := m[g]
		if s.sets[d] == nil && len(set) > 0 {
			s.sets[d] = map[string]struct{}{}
		}
		for k := range set {
			s.sets[d][k] = struct{}{}
		}
	}
	return nil
}

func (s *distinctState) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	b := arrowarray.NewInt64Builder(mem)
	defer b.Release()
	for _, g := range order {
		b.Append(int64(len(s.sets[g])))
	}
	return b.NewArray(), nil
}

// strState is Min, Max, First or Last of a string column.
type strState struct {
	op   aggOp
	t    arrow.DataType
	v    []string
	has  []bool // a value (Min, Max) or a row (First, Last) was seen
	null []bool // First, Last: the chosen row's value is null
	pos  []int64
}

func (s *strState) grow(n int) {
	s.v, s.has, s.null, s.pos = growTo(s.v, n), growTo(s.has, n), growTo(s.null, n), growTo(s.pos, n)
}

func (s *strState) put(g int, v string, null bool, p int64) {
	switch s.op {
	case aggMin, aggMax:
		if null {
			return
		}
		if !s.has[g] || (s.op == aggMin && v < s.v[g]) || (s.op == aggMax && v > s.v[g]) {
			s.v[g], s.has[g] = v, true
		}
	case aggFirst, aggLast:
		if !s.has[g] || (s.op == aggFirst && p < s.pos[g]) || (s.op == aggLast && p > s.pos[g]) {
			s.v[g], s.has[g], s.null[g], s.pos[g] = v, true, null, p
		}
	}
}

func (s *strState) update(gids []int32, c *colData, pos int64) error {
	for i, g := range gids {
		null := c.col.IsNull(i)
		v := ""
		if !null {
			v = strValue(c.col, i)
		}
		s.put(int(g), v, null, c.posOf(pos, i))
	}
	return nil
}

func strValue(c arrow.Array, i int) string {
	switch a := c.(type) {
	case *arrowarray.String:
		return a.Value(i)
	case *arrowarray.LargeString:
		return a.Value(i)
	case *arrowarray.Binary:
		return string(a.Value(i))
	case *arrowarray.LargeBinary:
		return string(a.Value(i))
	case *arrowarray.Dictionary:
		return strValue(a.Dictionary(), a.GetValueIndex(i))
	}
	return ""
}

func (s *strState) merge(o aggState, m []int32) error {
	os := o.(*strState)
	for g := range os.v {
		if os.has[g] {
			s.put(int(m[g]), os.v[g], os.null[g], os.pos[g])
		}
	}
	return nil
}

func (s *strState) finish(mem memory.Allocator, order []int32) (arrow.Array, error) {
	b := arrowarray.NewBuilder(mem, s.t)
	defer b.Release()
	for _, g := range order {
		if !s.has[g] || s.null[g] {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *arrowarray.StringBuilder:
			bb.Append(s.v[g])
		case *arrowarray.LargeStringBuilder:
			bb.Append(s.v[g])
		case *arrowarray.BinaryBuilder:
			bb.Append([]byte(s.v[g]))
		case *arrowarray.BinaryDictionaryBuilder:
			if err := bb.AppendString(s.v[g]); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("frame: internal error: builder %T for a string aggregate", b)
		}
	}
	return b.NewArray(), nil
}
