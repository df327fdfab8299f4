package view_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/internal/naive"
	"github.com/stride0/stride0/view"
)

// maybeMutate changes one dim of s at random now and then, so that some
// generated cases break the rule they were made for and exercise the
// error paths.
func maybeMutate(src source, s []int) []int {
	if len(s) > 0 && src.IntN(8) == 0 {
		s[src.IntN(len(s))] = genDim(src)
	}
	return s
}

// ones replaces some dims of s (a copy) by 1.
func ones(src source, s []int) []int {
	c := append([]int{}, s...)
	for i := range c {
		if src.IntN(3) == 0 {
			c[i] = 1
		}
	}
	return c
}

// suffix returns the last few dims of s (a copy).
func suffix(src source, s []int) []int {
	return append([]int{}, s[src.IntN(len(s)+1):]...)
}

// A ruleGen generates one broadcast case for a rule and checks the view
// against the rule and the naive evaluation. It releases what it makes.
type ruleGen func(t testing.TB, src source, mem memory.Allocator)

// checked counts the broadcast views checked against the naive evaluation,
// per rule, for the test log.
var checked = map[string]int{}

var ruleGens = map[string]ruleGen{
	"numpy": func(t testing.TB, src source, mem memory.Allocator) {
		data := genShape(src, 5)
		target := genShape(src, 5-len(data))
		for _, d := range data {
			if d == 1 && src.IntN(2) == 0 {
				d = genDim(src)
			}
			target = append(target, d)
		}
		target = maybeMutate(src, target)
		x := genArray(t, src, mem, data)
		defer x.Release()
		out, m, rerr := broadcast.Numpy(data, target)
		f := view.Numpy
		if src.IntN(2) == 0 {
			f = view.BroadcastTo
		}
		v, verr := f(x, target)
		checkBroadcastView(t, mem, x, out, m, rerr, v, verr)
	},
	"bidirectional": func(t testing.TB, src source, mem memory.Allocator) {
		common := genShape(src, 5)
		data := maybeMutate(src, ones(src, suffix(src, common)))
		target := ones(src, suffix(src, common))
		x := genArray(t, src, mem, data)
		defer x.Release()
		out, m, rerr := broadcast.Bidirectional(data, target)
		v, verr := view.Bidirectional(x, target)
		checkBroadcastView(t, mem, x, out, m, rerr, v, verr)
	},
	"explicit": func(t testing.TB, src source, mem memory.Allocator) {
		target := genShape(src, 5)
		var mapping, data []int
		for o, d := range target {
			if src.IntN(2) == 0 {
				mapping = append(mapping, o)
				if src.IntN(4) == 0 {
					d = 1
				}
				data = append(data, d)
			}
		}
		data = maybeMutate(src, data)
		if len(mapping) > 1 && src.IntN(10) == 0 {
			mapping[0], mapping[1] = mapping[1], mapping[0] // unsorted
		}
		if data == nil {
			data = []int{}
		}
		x := genArray(t, src, mem, data)
		defer x.Release()
		out, m, rerr := broadcast.Explicit(data, target, mapping)
		v, verr := view.Explicit(x, target, mapping)
		checkBroadcastView(t, mem, x, out, m, rerr, v, verr)
	},
	"pdpd": func(t testing.TB, src source, mem memory.Allocator) {
		target := genShape(src, 5)
		axis := src.IntN(len(target) + 1)
		data := ones(src, target[axis:])
		for i := axis; i < len(target); i++ {
			if src.IntN(5) == 0 {
				target[i] = 1 // a target 1 takes the data dim
			}
		}
		data = maybeMutate(src, data)
		if src.IntN(3) == 0 {
			axis = -1
		}
		x := genArray(t, src, mem, data)
		defer x.Release()
		out, m, rerr := broadcast.PDPD(data, target, axis)
		v, verr := view.PDPD(x, target, axis)
		checkBroadcastView(t, mem, x, out, m, rerr, v, verr)
	},
	"pdpd elementwise": func(t testing.TB, src source, mem memory.Allocator) {
		a := genShape(src, 5)
		axis := src.IntN(len(a) + 1)
		b := ones(src, a[axis:axis+src.IntN(len(a)-axis+1)])
		for n := src.IntN(3); n > 0; n-- {
			b = append(b, 1) // trailing 1s are ignored
		}
		b = maybeMutate(src, b)
		if src.IntN(3) == 0 {
			axis = -1
		}
		x := genArray(t, src, mem, b)
		defer x.Release()
		out, m, err := broadcast.PDPDElementwise(a, b, axis)
		if err != nil {
			return // no view function of its own: nothing to compare
		}
		v, err := view.Broadcast(x, out, m)
		require.NoError(t, err)
		defer v.Release()
		checkBroadcast(t, mem, x, out, m, v)
	},
	"ngraph": func(t testing.TB, src source, mem memory.Allocator) {
		shape := genShape(src, 5)
		var axes, arg []int
		for o, d := range shape {
			if src.IntN(2) == 0 {
				axes = append(axes, o)
			} else {
				arg = append(arg, d)
			}
		}
		shuffle(src, axes) // a set: any order
		if len(axes) > 0 && src.IntN(10) == 0 {
			axes = append(axes, axes[0]) // repeated
		}
		if arg == nil {
			arg = []int{}
		}
		arg = maybeMutate(src, arg)
		x := genArray(t, src, mem, arg)
		defer x.Release()
		out, m, rerr := broadcast.NGraph(arg, shape, axes)
		v, verr := view.NGraph(x, shape, axes)
		checkBroadcastView(t, mem, x, out, m, rerr, v, verr)
	},
	"multidirectional": func(t testing.TB, src source, mem memory.Allocator) {
		common := genShape(src, 5)
		n := 1 + src.IntN(3)
		shapes := make([][]int, n)
		xs := make([]*array.Array, n)
		for i := range shapes {
			shapes[i] = maybeMutate(src, ones(src, suffix(src, common)))
			xs[i] = genArray(t, src, mem, shapes[i])
			defer xs[i].Release()
		}
		out, maps, rerr := broadcast.Multidirectional(shapes...)
		if src.IntN(2) == 0 { // all at once
			vs, verr := view.Multidirectional(xs...)
			if rerr != nil {
				require.Error(t, verr)
				require.Nil(t, vs)
				var be *broadcast.Error
				require.True(t, errors.As(rerr, &be))
				require.ErrorIs(t, verr, be.Err)
				return
			}
			require.NoError(t, verr)
			for i, v := range vs {
				checkBroadcast(t, mem, xs[i], out, maps[i], v)
				v.Release()
			}
			return
		}
		if rerr != nil {
			return
		}
		for i, x := range xs { // one by one, through Broadcast
			v, err := view.Broadcast(x, out, maps[i])
			require.NoError(t, err)
			checkBroadcast(t, mem, x, out, maps[i], v)
			v.Release()
		}
	},
	"none": func(t testing.TB, src source, mem memory.Allocator) {
		s := genShape(src, 5)
		out, maps, err := broadcast.None(s, s)
		require.NoError(t, err)
		x := genArray(t, src, mem, s)
		defer x.Release()
		v, err := view.Broadcast(x, out, maps[0])
		require.NoError(t, err)
		defer v.Release()
		checkBroadcast(t, mem, x, out, maps[0], v)
		require.Equal(t, x.Strides(), v.Strides())
	},
	"any map": func(t testing.TB, src source, mem memory.Allocator) {
		in := genShape(src, 4)
		out := genShape(src, 5)
		m := make(broadcast.AxisMap, len(in))
		for i := range m {
			m[i] = src.IntN(len(out)+1) - 1
		}
		x := genArray(t, src, mem, in)
		defer x.Release()
		st, rerr := broadcast.Strides(in, x.Strides(), out, m)
		v, verr := view.Broadcast(x, out, m)
		if rerr != nil {
			require.Error(t, verr)
			require.Nil(t, v)
			return
		}
		require.NoError(t, verr)
		defer v.Release()
		require.Equal(t, st, v.Strides())
		checkBroadcast(t, mem, x, out, m, v)
	},
}

// TestRandomBroadcasts checks thousands of random broadcasts of every rule,
// of inputs of every dtype in every layout (transposed, sliced with negative
// steps, with and without nulls), against the naive evaluation.
func TestRandomBroadcasts(t *testing.T) {
	names := make([]string, 0, len(ruleGens))
	for name := range ruleGens {
		names = append(names, name)
	}
	sort.Strings(names) // map order is random: sort for a reproducible log
	n := 2000
	if testing.Short() {
		n = 150
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			mem := checkedMem(t)
			src := rngSource{rand.New(rand.NewPCG(1, uint64(len(name))))}
			for i := 0; i < n; i++ {
				before := mem.CurrentAlloc()
				ruleGens[name](t, src, mem)
				require.Equal(t, before, mem.CurrentAlloc(), "case %d leaks", i)
			}
			t.Logf("%d cases: %d views checked", n, checked[name])
		})
	}
}

// TestRandomPrograms applies thousands of random chains of views (and
// errors) to random arrays and checks every step against the naive
// evaluation of the same chain.
func TestRandomPrograms(t *testing.T) {
	mem := checkedMem(t)
	src := rngSource{rand.New(rand.NewPCG(2, 3))}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		runProgram(t, src, mem)
		require.Zero(t, mem.CurrentAlloc(), "program %d leaks", i)
	}
	t.Logf("%d programs: %d views made, %d invalid operations rejected", n, stats[true], stats[false])
}

// stats counts the operations of runProgram that made a view (true) and
// those that failed as they had to (false), for the test log.
var stats = map[bool]int{}

// runProgram builds a random array and applies up to 6 random view
// operations to it, keeping beside the view chain x a naive, materialized
// twin ref, and checks after each step that Copy(x) equals ref. Invalid
// operations must fail the same way in both (or as documented).
func runProgram(t testing.TB, src source, mem memory.Allocator) {
	t.Helper()
	x := genArray(t, src, mem, genShape(src, 5))
	ref, err := array.Copy(mem, x)
	require.NoError(t, err)
	defer func() { x.Release(); ref.Release() }()

	for step := src.IntN(7); step > 0; step-- {
		before := x.String()
		nx, nref, ok := applyOp(t, src, mem, x, ref)
		stats[ok]++
		if !ok {
			continue // the op failed as it had to; x and ref are unchanged
		}
		// The new view outlives the old one, and the naive twin agrees.
		x.Release()
		ref.Release()
		x, ref = nx, nref
		require.Equal(t, ref.Shape(), x.Shape(), "from %v", before)
		checkCopy(t, mem, x, func() (*array.Array, error) { return array.Copy(mem, ref) })
	}
}

// applyOp applies one random operation to x and the same operation,
// naively, to ref. ok is false when the operation failed (as it must have).
func applyOp(t testing.TB, src source, mem memory.Allocator, x, ref *array.Array) (nx, nref *array.Array, ok bool) {
	t.Helper()
	shape := x.Shape()
	r := len(shape)
	switch op := src.IntN(7); op {
	case 0: // transpose
		var perm []int
		valid := true
		switch src.IntN(6) {
		case 0: // none: reverse
		case 1: // wrong
			perm = make([]int, r+src.IntN(2))
			for k := range perm {
				perm[k] = src.IntN(2*r+3) - r - 1
			}
			valid = isPerm(perm, r)
		default:
			perm = identity(r)
			shuffle(src, perm)
			if r > 0 && src.IntN(3) == 0 {
				perm[src.IntN(r)] -= r // negative axis
			}
		}
		if len(perm) == 0 {
			valid = true // no perm: reverse
		}
		v, err := view.Transpose(x, perm...)
		if !valid {
			require.ErrorIs(t, err, view.ErrAxis, "Transpose %v by %v", shape, perm)
			require.Nil(t, v)
			return nil, nil, false
		}
		require.NoError(t, err, "Transpose %v by %v", shape, perm)
		p := make([]int, r)
		for k := range p {
			if len(perm) == 0 {
				p[k] = r - 1 - k
			} else {
				p[k] = (perm[k] + r) % r
			}
		}
		w, err := naive.Transpose(mem, ref, p)
		require.NoError(t, err)
		return v, w, true

	case 1: // slice
		nr := src.IntN(r + 1)
		if src.IntN(10) == 0 {
			nr = r + 1
		}
		ranges := make([]view.Range, nr)
		valid := nr <= r
		for k := range ranges {
			n := 0
			if k < r {
				n = shape[k]
			}
			bound := func() int {
				switch src.IntN(8) {
				case 0:
					return math.MinInt
				case 1:
					return math.MaxInt
				}
				return src.IntN(2*n+5) - n - 2
			}
			switch src.IntN(5) {
			case 0:
				i := src.IntN(2*n+3) - n - 1
				ranges[k] = view.Index(i)
				valid = valid && i >= -n && i < n
			default:
				step := []int{1, 1, 2, 3, -1, -1, -2, -3, 0, math.MaxInt, math.MinInt}[src.IntN(11)]
				ranges[k] = view.Range{Start: bound(), Stop: bound(), Step: step}
				if ranges[k].Step == 0 && !ranges[k].IsIndex() {
					valid = false
				}
				if ranges[k].IsIndex() {
					i := ranges[k].Start
					valid = valid && i >= -n && i < n
				}
			}
		}
		v, err := view.Slice(x, ranges...)
		if !valid {
			require.Error(t, err, "Slice %v by %v", shape, ranges)
			require.True(t, errors.Is(err, view.ErrRange) || errors.Is(err, view.ErrAxis), err.Error())
			require.Nil(t, v)
			return nil, nil, false
		}
		require.NoError(t, err, "Slice %v by %v", shape, ranges)
		w, err := naiveSlice(mem, ref, ranges)
		require.NoError(t, err)
		return v, w, true

	case 2: // reshape
		out := reshapeTarget(src, shape, x.Len())
		arg := append([]int{}, out...)
		if len(arg) > 0 && src.IntN(3) == 0 {
			k := src.IntN(len(arg))
			known := 1
			for i, d := range arg {
				if i != k {
					known *= d
				}
			}
			if known != 0 {
				arg[k] = -1
			}
		}
		if src.IntN(12) == 0 {
			arg = append(arg, 2) // usually the wrong element count
		}
		if src.IntN(20) == 0 && len(arg) > 0 {
			arg[0] = -1 - src.IntN(2) // -2 is never valid; -1 may be
		}
		v, err := view.Reshape(x, arg...)
		want, valid := inferReshape(arg, x.Len())
		switch {
		case !valid:
			require.ErrorIs(t, err, view.ErrShape, "Reshape %v to %v", shape, arg)
			require.Nil(t, v)
			return nil, nil, false
		case !affineStrides(x, want):
			require.ErrorIs(t, err, view.ErrCopyRequired, "Reshape %v (strides %v) to %v", shape, x.Strides(), want)
			require.Nil(t, v)
			return nil, nil, false
		}
		out = want
		require.NoError(t, err, "Reshape %v (strides %v) to %v", shape, x.Strides(), arg)
		w, err := naive.Reshape(mem, ref, out)
		require.NoError(t, err)
		return v, w, true

	case 3: // expand_dims
		axis := src.IntN(2*r+5) - r - 2
		v, err := view.ExpandDims(x, axis)
		if axis < -(r+1) || axis > r {
			require.ErrorIs(t, err, view.ErrAxis)
			return nil, nil, false
		}
		require.NoError(t, err)
		if axis < 0 {
			axis += r + 1
		}
		out := append(append(append([]int{}, shape[:axis]...), 1), shape[axis:]...)
		w, err := naive.Reshape(mem, ref, out)
		require.NoError(t, err)
		return v, w, true

	case 4: // squeeze
		var axes []int
		valid := true
		drop := make([]bool, r)
		if src.IntN(3) != 0 {
			for k := 0; k < r; k++ {
				if src.IntN(2) == 0 {
					axes = append(axes, k)
					drop[k] = true
					valid = valid && shape[k] == 1
				}
			}
		}
		if len(axes) == 0 { // no axes: every 1 goes
			for k, d := range shape {
				drop[k] = d == 1
			}
		}
		v, err := view.Squeeze(x, axes...)
		if !valid {
			require.ErrorIs(t, err, view.ErrAxis)
			return nil, nil, false
		}
		require.NoError(t, err)
		out := []int{}
		for k, d := range shape {
			if !drop[k] {
				out = append(out, d)
			}
		}
		w, err := naive.Reshape(mem, ref, out)
		require.NoError(t, err)
		return v, w, true

	case 5: // numpy broadcast to a target derived from the shape
		if r >= 6 || x.Len() > 1000 {
			return nil, nil, false
		}
		target := genShape(src, min(2, 6-r))
		for _, d := range shape {
			if d == 1 {
				d = genDim(src)
			}
			target = append(target, d)
		}
		target = maybeMutate(src, target)
		out, m, rerr := broadcast.Numpy(shape, target)
		v, err := view.Numpy(x, target)
		if rerr != nil {
			require.Error(t, err)
			return nil, nil, false
		}
		require.NoError(t, err)
		w, err := naive.Broadcast(mem, ref, out, m)
		require.NoError(t, err)
		return v, w, true

	default: // materialize
		c, err := array.Copy(mem, x)
		require.NoError(t, err)
		ref.Retain()
		return c, ref, true
	}
}

func isPerm(p []int, r int) bool {
	if len(p) != r {
		return false
	}
	seen := make([]bool, r)
	for _, a := range p {
		if a < -r || a >= r {
			return false
		}
		a = (a + r) % r
		if seen[a] {
			return false
		}
		seen[a] = true
	}
	return true
}

// inferReshape is the shape Reshape must produce for arg and n elements,
// and whether there is one: every dim >= 0 but at most one -1, which is
// inferred when the other dims hold a non-zero count dividing n.
func inferReshape(arg []int, n int) ([]int, bool) {
	out := append([]int{}, arg...)
	unknown, known := -1, 1
	for i, d := range out {
		switch {
		case d == -1 && unknown < 0:
			unknown = i
		case d < 0:
			return nil, false
		default:
			known *= d
		}
	}
	if unknown >= 0 {
		if known == 0 || n%known != 0 {
			return nil, false
		}
		out[unknown] = n / known
		known = n
	}
	return out, known == n
}

// reshapeTarget returns a random shape with n elements, usually near shape:
// axes merged, split or moved, 1s added or removed.
func reshapeTarget(src source, shape []int, n int) []int {
	if n == 0 {
		out := genShape(src, 4)
		if len(out) == 0 {
			return []int{0}
		}
		out[src.IntN(len(out))] = 0
		return out
	}
	out := []int{}
	for _, d := range shape {
		if d != 1 {
			out = append(out, d)
		}
	}
	for moves := src.IntN(4); moves > 0; moves-- {
		switch src.IntN(3) {
		case 0: // merge two neighbours
			if len(out) >= 2 {
				k := src.IntN(len(out) - 1)
				out = append(out[:k], append([]int{out[k] * out[k+1]}, out[k+2:]...)...)
			}
		case 1: // split a dim into two factors
			if len(out) > 0 {
				k := src.IntN(len(out))
				var fs []int
				for f := 2; f < out[k]; f++ {
					if out[k]%f == 0 {
						fs = append(fs, f)
					}
				}
				if len(fs) > 0 {
					f := fs[src.IntN(len(fs))]
					out = append(out[:k], append([]int{f, out[k] / f}, out[k+1:]...)...)
				}
			}
		case 2: // factor out of the whole count, a fresh layout
			out = []int{}
			rest := n
			for rest > 1 {
				f := 2
				for rest%f != 0 {
					f++
				}
				if src.IntN(2) == 0 && len(out) > 0 {
					out[len(out)-1] *= f
				} else {
					out = append(out, f)
				}
				rest /= f
			}
		}
	}
	for ones := src.IntN(3); ones > 0 && len(out) < 6; ones-- {
		k := src.IntN(len(out) + 1)
		out = append(out[:k], append([]int{1}, out[k:]...)...)
	}
	return out
}
