package view_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// checkedMem returns a checked allocator that must be empty again when the
// test ends.
func checkedMem(t testing.TB) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// arange returns 0, 1, 2, ... as a float64 array of the given shape, released
// when the test ends.
func arange(t testing.TB, mem memory.Allocator, shape ...int) *array.Array {
	t.Helper()
	if shape == nil {
		shape = []int{} // a scalar (FromSlice would make it 1-D)
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i)
	}
	a, err := array.FromSlice(mem, vals, shape...)
	require.NoError(t, err)
	t.Cleanup(a.Release)
	return a
}

func f64s(t testing.TB, a *array.Array) []float64 {
	t.Helper()
	v, err := array.ToSlice[float64](a)
	require.NoError(t, err)
	return v
}

// source is where generated test cases get their choices: a seeded PRNG
// for the randomized tests, the fuzzer's bytes for FuzzViews.
type source interface {
	IntN(n int) int // in [0, n); n > 0
}

type rngSource struct{ r *rand.Rand }

func (s rngSource) IntN(n int) int { return s.r.IntN(n) }

// byteSource reads choices from fuzz input; once the bytes run out every
// choice is 0.
type byteSource struct{ b []byte }

func (s *byteSource) IntN(n int) int {
	if n <= 1 || len(s.b) == 0 {
		return 0
	}
	v := int(s.b[0])
	s.b = s.b[1:]
	if n > 256 {
		if len(s.b) > 0 {
			v = v<<8 | int(s.b[0])
			s.b = s.b[1:]
		}
	}
	return v % n
}

// genDim returns a dim in 0..4, mostly 1.
func genDim(src source) int {
	switch r := src.IntN(20); {
	case r < 8:
		return 1
	case r < 9:
		return 0
	default:
		return 2 + src.IntN(3)
	}
}

func genShape(src source, maxRank int) []int {
	s := make([]int, src.IntN(maxRank+1))
	for i := range s {
		s[i] = genDim(src)
	}
	return s
}

// genValues fills a (new, contiguous) array with values of its dtype: small
// integers, and for floats also fractions, -0, infinities and NaN.
func genValues(t testing.TB, src source, a *array.Array) {
	t.Helper()
	naive.ForEach(a.Shape(), func(c []int) bool {
		v := float64(src.IntN(256) - 128)
		if a.DType().IsFloat() {
			switch src.IntN(16) {
			case 0:
				v = math.NaN()
			case 1:
				v = math.Copysign(0, -1)
			case 2:
				v = math.Inf(1 - 2*src.IntN(2))
			case 3:
				v /= 7
			}
		}
		require.NoError(t, array.Set(a, v, c...))
		return true
	})
}

// genArray returns an array of the given shape with random values of a
// random dtype, sometimes with a validity mask, and in a random layout:
// contiguous, offset, transposed, or a slice with negative steps of a larger
// array. The caller releases it.
func genArray(t testing.TB, src source, mem memory.Allocator, shape []int) *array.Array {
	t.Helper()
	dt := array.DTypes[src.IntN(len(array.DTypes))]
	r := len(shape)

	// Base shape: each axis padded and stepped, then permuted.
	steps := make([]int, r)
	pads := make([]int, r)
	sliced := src.IntN(3) == 0
	for k := range shape {
		steps[k] = 1
		if sliced {
			steps[k] = []int{1, 2, -1, -2, -3}[src.IntN(5)]
			pads[k] = src.IntN(3)
		}
	}
	perm := identity(r)
	if src.IntN(3) == 0 {
		shuffle(src, perm)
	}
	// Axis k of the sliced array is axis perm[k] of the base.
	baseShape := make([]int, r)
	for k, d := range shape {
		n := pads[k] + 1
		if d > 0 {
			n = (d-1)*abs(steps[k]) + 1 + pads[k]
		}
		baseShape[perm[k]] = n
	}
	base, err := array.New(mem, dt, baseShape...)
	require.NoError(t, err)
	defer base.Release()
	genValues(t, src, base)
	if src.IntN(10) < 3 { // a mask with some nulls (maybe none)
		naive.ForEach(baseShape, func(c []int) bool {
			if src.IntN(4) == 0 {
				require.NoError(t, base.SetNull(c...))
			}
			return true
		})
		if !base.HasNulls() && base.Len() > 0 {
			zero := make([]int, r)
			v := arraytest.At[float64](t, base, zero...)
			require.NoError(t, base.SetNull(zero...))
			require.NoError(t, array.Set(base, v, zero...)) // valid again, the mask stays
		}
	}

	x, err := view.Transpose(base, perm...) // axis k of x is axis perm[k] of base
	require.NoError(t, err)
	defer x.Release()
	ranges := make([]view.Range, r)
	for k, d := range shape {
		st := steps[k]
		n := x.Dim(k)
		if d == 0 {
			ranges[k] = view.Span(0, 0)
			continue
		}
		if st > 0 {
			start := src.IntN(n - (d-1)*st)
			ranges[k] = view.Range{Start: start, Stop: start + (d-1)*st + 1, Step: st}
		} else {
			start := n - 1 - src.IntN(n-(d-1)*-st)
			stop := start + (d-1)*st - 1
			if stop < 0 {
				stop = math.MinInt // Python's omitted stop
			}
			ranges[k] = view.Range{Start: start, Stop: stop, Step: st}
		}
	}
	s, err := view.Slice(x, ranges...)
	require.NoError(t, err)
	require.Equal(t, shape, s.Shape(), "genArray built the wrong shape from %v by %v", x.Shape(), ranges)
	if src.IntN(6) == 0 {
		// Axes of size 0 or 1 may have any stride at all.
		st := s.Strides()
		for k, d := range shape {
			if d <= 1 && src.IntN(2) == 0 {
				st[k] = []int{0, -1, 7, -1000, math.MaxInt, math.MinInt}[src.IntN(6)]
			}
		}
		odd, err := s.View(shape, st, s.Offset())
		require.NoError(t, err)
		s.Release()
		s = odd
	}
	return s
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func shuffle(src source, p []int) {
	for i := len(p) - 1; i > 0; i-- {
		j := src.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkBroadcastView compares a view that a rule built (v, verr) with what
// the rule says (out, m, rerr) and with the naive evaluation of x. It
// releases v.
func checkBroadcastView(t testing.TB, mem memory.Allocator, x *array.Array, out []int, m broadcast.AxisMap, rerr error, v *array.Array, verr error) {
	t.Helper()
	if rerr != nil {
		require.Error(t, verr, "the rule fails (%v) but the view was built", rerr)
		require.Nil(t, v)
		var be *broadcast.Error
		require.True(t, errors.As(rerr, &be))
		require.ErrorIs(t, verr, be.Err)
		var ve *broadcast.Error
		require.True(t, errors.As(verr, &ve), "the view error wraps *broadcast.Error: %v", verr)
		return
	}
	require.NoError(t, verr)
	defer v.Release()
	checkBroadcast(t, mem, x, out, m, v)
}

// checkBroadcast checks the broadcast view v of x to out through m.
func checkBroadcast(t testing.TB, mem memory.Allocator, x *array.Array, out []int, m broadcast.AxisMap, v *array.Array) {
	t.Helper()
	if n, ok := t.(interface{ Name() string }); ok {
		name := n.Name()
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		checked[strings.ReplaceAll(name, "_", " ")]++
	}
	require.Equal(t, out, v.Shape())
	require.Equal(t, x.DType(), v.DType())
	require.Equal(t, x.HasNulls(), v.HasNulls())
	require.Same(t, x.Data(), v.Data(), "a view shares the data buffer")
	require.Equal(t, x.Offset(), v.Offset())

	// Strides: kept on mapped axes, 0 on new and stretched ones.
	want := make([]int, len(out))
	in, inSt := x.Shape(), x.Strides()
	for i, o := range m {
		if o >= 0 && !(in[i] == 1 && out[o] != 1) {
			want[o] = inSt[i]
		}
	}
	require.Equal(t, want, v.Strides())
	readOnly := false
	if v.Len() > 0 {
		for k, s := range want {
			readOnly = readOnly || s == 0 && out[k] > 1
		}
	}
	require.Equal(t, readOnly, v.ReadOnly())

	checkCopy(t, mem, v, func() (*array.Array, error) { return naive.Broadcast(mem, x, out, m) })
}

// checkCopy checks that array.Copy(v) equals the naive evaluation.
func checkCopy(t testing.TB, mem memory.Allocator, v *array.Array, ref func() (*array.Array, error)) {
	t.Helper()
	want, err := ref()
	require.NoError(t, err)
	defer want.Release()
	got, err := array.Copy(mem, v)
	require.NoError(t, err)
	defer got.Release()
	require.NoError(t, naive.Equal(want, got), "view %v", v)
	require.Equal(t, want.HasNulls(), got.HasNulls())
}

// affineStrides reports whether the elements of x, read in row-major order
// and laid out in the shape out, sit at buffer positions that are an affine
// function of the coordinates in out, that is, whether some strided view of
// x's buffer has shape out and x's elements. It is the brute-force answer to
// "can Reshape do it without a copy?".
func affineStrides(x *array.Array, out []int) bool {
	in, st, off := x.Shape(), x.Strides(), x.Offset()
	pos := make([]int, 0, x.Len()) // buffer position of each element, row-major
	naive.ForEach(in, func(c []int) bool {
		p := off
		for k, i := range c {
			p += i * st[k]
		}
		pos = append(pos, p)
		return true
	})
	if len(pos) == 0 {
		return true
	}
	// Candidate strides from unit steps along each axis.
	cs := array.ContiguousStrides(out)
	strides := make([]int, len(out))
	for k, d := range out {
		if d > 1 {
			strides[k] = pos[cs[k]] - pos[0]
		}
	}
	ok := true
	i := 0
	naive.ForEach(out, func(c []int) bool {
		p := pos[0]
		for k, ci := range c {
			p += ci * strides[k]
		}
		ok = p == pos[i]
		i++
		return ok
	})
	return ok
}

// pySlice lists the indices range(n)[start:stop:step] selects, straight from
// the Python reference semantics.
func pySlice(n int, r view.Range) []int {
	start, stop, step := r.Start, r.Stop, r.Step
	norm := func(b, lo, hi int) int {
		if b < 0 {
			if b < -n {
				return lo
			}
			b += n
		}
		return min(b, hi)
	}
	idx := []int{}
	if step > 0 {
		hi := norm(stop, 0, n)
		for i := norm(start, 0, n); i < hi; i += step {
			idx = append(idx, i)
			if step >= hi-i { // the next index is past stop (i+step could overflow)
				break
			}
		}
	} else {
		lo := norm(stop, -1, n-1)
		for i := norm(start, -1, n-1); i > lo; i += step { // i >= 0 here: i+step cannot overflow
			idx = append(idx, i)
		}
	}
	return idx
}

// naiveSlice evaluates a slice of x from the definition: naive.Take with the
// indices pySlice lists, then a reshape that drops the indexed axes.
func naiveSlice(mem memory.Allocator, x *array.Array, ranges []view.Range) (*array.Array, error) {
	in := x.Shape()
	idx := make([][]int, len(in))
	var out []int
	for k, n := range in {
		switch {
		case k >= len(ranges):
			idx[k] = identity(n)
			out = append(out, n)
		case ranges[k].IsIndex():
			i := ranges[k].Start
			if i < 0 {
				i += n
			}
			idx[k] = []int{i}
		default:
			idx[k] = pySlice(n, ranges[k])
			out = append(out, len(idx[k]))
		}
	}
	taken, err := naive.Take(mem, x, idx)
	if err != nil {
		return nil, err
	}
	defer taken.Release()
	if out == nil {
		out = []int{}
	}
	return naive.Reshape(mem, taken, out)
}
