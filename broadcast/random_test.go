package broadcast_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

const randomCases = 4000

// refMulti is NumPy's rule written out: pad every shape with leading 1s to
// the largest rank; on each axis all dims other than 1 must be one value.
func refMulti(shapes ...[]int) ([]int, bool) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	for j := range out {
		vals := map[int]bool{}
		for _, s := range shapes {
			padded := append(slices.Repeat([]int{1}, rank-len(s)), s...)
			if padded[j] != 1 {
				vals[padded[j]] = true
			}
		}
		switch len(vals) {
		case 0:
			out[j] = 1
		case 1:
			for v := range vals {
				out[j] = v
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// refNumpy: data broadcasts one way to target when target's rank is at
// least data's and broadcasting both gives target back.
func refNumpy(data, target []int) bool {
	if len(target) < len(data) {
		return false
	}
	out, ok := refMulti(data, target)
	return ok && slices.Equal(out, target)
}

func TestRandomMultidirectional(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		n := 1 + r.IntN(3)
		shapes := make([][]int, n)
		base := randShape(r, 6)
		for i := range shapes {
			if r.IntN(2) == 0 {
				s := mutate(r, base)
				shapes[i] = s[r.IntN(len(s)+1):]
			} else {
				shapes[i] = randShape(r, 6)
			}
		}
		want, ok := refMulti(shapes...)
		out, maps, err := broadcast.Multidirectional(shapes...)
		pout, perr := broadcast.InferMultidirectional(static(shapes...)...)
		requireAgree(t, out, err, pout, perr)
		if !ok {
			require.ErrorIs(t, err, broadcast.ErrIncompatible, "%v", shapes)
			requireRuleError(t, err, "multidirectional")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v", shapes)
		require.Equal(t, want, out)
		require.Len(t, maps, n)
		for i, s := range shapes {
			checkView(t, s, out, maps[i], rightAligned(s, len(out)))
		}
		if n == 2 {
			bout, bm, berr := broadcast.Bidirectional(shapes[0], shapes[1])
			require.NoError(t, berr)
			require.Equal(t, want, bout)
			require.Equal(t, maps[0], bm)
			pout, perr := broadcast.InferBidirectional(broadcast.StaticShape(shapes[0]...), broadcast.StaticShape(shapes[1]...))
			requireAgree(t, bout, berr, pout, perr)
		}
	}
}

func TestRandomBidirectionalFailures(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		d, tg := randShape(r, 6), randShape(r, 6)
		want, ok := refMulti(d, tg)
		out, m, err := broadcast.Bidirectional(d, tg)
		pout, perr := broadcast.InferBidirectional(broadcast.StaticShape(d...), broadcast.StaticShape(tg...))
		requireAgree(t, out, err, pout, perr)
		if !ok {
			require.ErrorIs(t, err, broadcast.ErrIncompatible)
			requireRuleError(t, err, "bidirectional")
			tl.bad++
			continue
		}
		require.NoError(t, err)
		require.Equal(t, want, out)
		checkView(t, d, out, m, rightAligned(d, len(out)))
		axes, known, err := broadcast.BidirectionalAxes(broadcast.StaticShape(d...), broadcast.StaticShape(tg...))
		require.NoError(t, err)
		require.True(t, known)
		adj, err := broadcast.Adjoint(d, out, m)
		require.NoError(t, err)
		// get_broadcast_axes lists axes whose size differs from data's; the
		// adjoint also sums a stretched 1 (none differ for valid input).
		require.Equal(t, adj, axes)
	}
}

func TestRandomNumpy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		target := randShape(r, 6)
		var data []int
		switch r.IntN(3) {
		case 0:
			data = randShape(r, 6)
		default:
			data = mutate(r, target[r.IntN(len(target)+1):])
		}
		out, m, err := broadcast.Numpy(data, target)
		pout, perr := broadcast.InferNumpy(broadcast.StaticShape(data...), broadcast.StaticShape(target...))
		requireAgree(t, out, err, pout, perr)
		if !refNumpy(data, target) {
			require.Error(t, err, "%v to %v", data, target)
			requireRuleError(t, err, "numpy")
			if len(target) < len(data) {
				require.ErrorIs(t, err, broadcast.ErrRank)
			} else {
				require.ErrorIs(t, err, broadcast.ErrIncompatible)
			}
			_, rerr := broadcast.ReduceTo(target, data)
			requireRuleError(t, rerr, "reduce to")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v to %v", data, target)
		require.Equal(t, target, out)
		checkView(t, data, out, m, rightAligned(data, len(out)))
		red, err := broadcast.ReduceTo(target, data)
		require.NoError(t, err)
		adj, err := broadcast.Adjoint(data, out, m)
		require.NoError(t, err)
		require.Equal(t, adj, red)
	}
}

// refExplicit: explicit broadcasting is reshaping data to target's rank,
// with data axis i at axes[i] and 1s elsewhere, then one-way numpy.
func refExplicit(data, target, axes []int) bool {
	rank := len(data)
	if rank == 0 && len(axes) > 0 {
		// OpenVINO: scalar data with a mapping counts as rank 1, and the
		// target dim it names must be 1 (it is not stretched).
		if len(axes) != 1 || axes[0] < 0 || axes[0] >= len(target) || target[axes[0]] != 1 {
			return false
		}
		rank = 1
		data = []int{1}
	}
	if len(axes) != rank {
		return false
	}
	e := slices.Repeat([]int{1}, len(target))
	for i, a := range axes {
		if a < 0 || a >= len(target) || i > 0 && a <= axes[i-1] {
			return false
		}
		e[a] = data[i]
	}
	return refNumpy(e, target)
}

func TestRandomExplicit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		target := randShape(r, 6)
		var axes []int
		for o := range target {
			if r.IntN(2) == 0 {
				axes = append(axes, o)
			}
		}
		data := make([]int, len(axes))
		for i, a := range axes {
			data[i] = target[a]
		}
		data = mutate(r, data)
		switch r.IntN(8) {
		case 0:
			axes = randShape(r, 4)
			for i := range axes {
				axes[i] = r.IntN(8) - 1
			}
		case 1:
			data = randShape(r, 6)
		case 2:
			data = nil
			if r.IntN(2) == 0 && len(target) > 0 {
				axes = []int{r.IntN(len(target))}
			}
		}
		out, m, err := broadcast.Explicit(data, target, axes)
		pout, perr := broadcast.InferExplicit(broadcast.StaticShape(data...), broadcast.StaticShape(target...), nonNil(axes))
		requireAgree(t, out, err, pout, perr)
		if !refExplicit(data, target, axes) {
			require.Error(t, err, "%v to %v axes %v", data, target, axes)
			requireRuleError(t, err, "explicit")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v to %v axes %v", data, target, axes)
		require.Equal(t, target, out)
		checkView(t, data, out, m, onAxes(data, axes))
	}
}

// nonNil turns a missing mapping into a known, empty one (nil would mean
// "value unknown" to InferExplicit).
func nonNil(a []int) []int {
	if a == nil {
		return []int{}
	}
	return a
}

// refPDPD: the dims before the start axis are target's; from there on the
// data and target dims broadcast both ways, and the ranks must line up.
func refPDPD(data, target []int, axis int) ([]int, bool) {
	start := axis
	if axis == -1 {
		start = len(target) - len(data)
	}
	if axis < -1 || start < 0 || start+len(data) != len(target) {
		return nil, false
	}
	tail, ok := refMulti(data, target[start:])
	if !ok {
		return nil, false
	}
	return append(slices.Clone(target[:start]), tail...), true
}

func TestRandomPDPD(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		target := randShape(r, 6)
		axis := r.IntN(len(target)+2) - 1
		var data []int
		switch {
		case r.IntN(4) == 0:
			data = randShape(r, 6)
		case axis == -1:
			data = mutate(r, target[r.IntN(len(target)+1):])
		default:
			data = mutate(r, target[min(axis, len(target)):])
		}
		if r.IntN(4) == 0 {
			target = mutate(r, target)
		}
		if r.IntN(20) == 0 {
			axis = -2 - r.IntN(3)
		}
		want, ok := refPDPD(data, target, axis)
		out, m, err := broadcast.PDPD(data, target, axis)
		pout, perr := broadcast.InferPDPD(broadcast.StaticShape(data...), broadcast.StaticShape(target...), axis)
		requireAgree(t, out, err, pout, perr)
		if !ok {
			require.Error(t, err, "%v to %v axis %d", data, target, axis)
			requireRuleError(t, err, "pdpd")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v to %v axis %d", data, target, axis)
		require.Equal(t, want, out)
		checkView(t, data, out, m, rightAligned(data, len(out)))
	}
}

// refPDPDElementwise follows OpenVINO: shape inference requires B to fit A
// at the axis (full rank of B) with no static B dim larger than its A dim;
// the reference evaluator then trims B's trailing 1s, pads B with 1s on both
// sides to A's rank, and broadcasts it one way onto A.
func refPDPDElementwise(a, b []int, axis int) (int, bool) {
	start := axis
	if axis == -1 {
		start = len(a) - len(b)
	}
	if axis < -1 || len(b) > len(a) || start+len(b) > len(a) {
		return 0, false
	}
	for j := range b {
		if b[j] > a[start+j] {
			return 0, false
		}
	}
	trimmed := b
	for len(trimmed) > 0 && trimmed[len(trimmed)-1] == 1 {
		trimmed = trimmed[:len(trimmed)-1]
	}
	padded := append(slices.Repeat([]int{1}, start), trimmed...)
	padded = append(padded, slices.Repeat([]int{1}, len(a)-len(padded))...)
	return start, refNumpy(padded, a)
}

func TestRandomPDPDElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		a := randShape(r, 6)
		axis := r.IntN(len(a)+2) - 1
		var b []int
		switch {
		case r.IntN(4) == 0:
			b = randShape(r, 6)
		case axis == -1:
			b = mutate(r, a[r.IntN(len(a)+1):])
		default:
			b = mutate(r, a[axis:min(len(a), axis+r.IntN(len(a)+1))])
		}
		if r.IntN(3) == 0 {
			b = append(b, slices.Repeat([]int{1}, r.IntN(3))...)
		}
		if r.IntN(20) == 0 {
			axis = -2 - r.IntN(3)
		}
		start, ok := refPDPDElementwise(a, b, axis)
		out, m, err := broadcast.PDPDElementwise(a, b, axis)
		pout, perr := broadcast.InferPDPDElementwise(broadcast.StaticShape(a...), broadcast.StaticShape(b...), axis)
		requireAgree(t, out, err, pout, perr)
		if !ok {
			require.Error(t, err, "%v onto %v axis %d", b, a, axis)
			requireRuleError(t, err, "pdpd elementwise")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v onto %v axis %d", b, a, axis)
		require.Equal(t, a, out)
		ref := func(c []int) []int {
			x := make([]int, len(b))
			for j, d := range b {
				if d != 1 {
					x[j] = c[start+j]
				}
			}
			return x
		}
		checkView(t, b, out, m, ref)
		for j := len(b) - 1; j >= 0 && b[j] == 1; j-- {
			require.Equal(t, -1, m[j], "trailing 1 of %v at %d", b, j)
		}
	}
}

func TestRandomNone(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		base := randShape(r, 6)
		shapes := [][]int{base}
		for range r.IntN(3) {
			if r.IntN(3) == 0 {
				shapes = append(shapes, mutate(r, base))
			} else {
				shapes = append(shapes, slices.Clone(base))
			}
		}
		ok := true
		for _, s := range shapes {
			ok = ok && slices.Equal(s, base)
		}
		out, maps, err := broadcast.None(shapes...)
		pout, perr := broadcast.InferNone(static(shapes...)...)
		requireAgree(t, out, err, pout, perr)
		if !ok {
			require.ErrorIs(t, err, broadcast.ErrIncompatible)
			requireRuleError(t, err, "none")
			tl.bad++
			continue
		}
		require.NoError(t, err)
		require.Equal(t, base, out)
		for i, s := range shapes {
			checkView(t, s, out, maps[i], func(c []int) []int { return slices.Clone(c) })
		}
	}
}

// refNGraph: the broadcast axes are a set of output axes; deleting them
// from shape must leave arg.
func refNGraph(arg, shape, axes []int) bool {
	set := map[int]bool{}
	for _, a := range axes {
		if a < 0 || a >= len(shape) || set[a] {
			return false
		}
		set[a] = true
	}
	var rest []int
	for o, d := range shape {
		if !set[o] {
			rest = append(rest, d)
		}
	}
	return slices.Equal(rest, arg)
}

func TestRandomNGraph(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var tl tally
	defer tl.check(t)
	for range randomCases {
		shape := randShape(r, 6)
		var axes, arg []int
		for o, d := range shape {
			if r.IntN(2) == 0 {
				axes = append(axes, o)
			} else {
				arg = append(arg, d)
			}
		}
		switch r.IntN(6) {
		case 0:
			arg = mutate(r, arg)
		case 1:
			r.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
		case 2:
			axes = append(axes, r.IntN(8)-1)
		case 3:
			arg = randShape(r, 6)
		}
		out, m, err := broadcast.NGraph(arg, shape, axes)
		pout, perr := broadcast.InferNGraph(broadcast.StaticShape(arg...), broadcast.StaticShape(shape...), axes)
		requireAgree(t, out, err, pout, perr)
		if !refNGraph(arg, shape, axes) {
			require.Error(t, err, "%v to %v axes %v", arg, shape, axes)
			requireRuleError(t, err, "ngraph")
			tl.bad++
			continue
		}
		require.NoError(t, err, "%v to %v axes %v", arg, shape, axes)
		require.Equal(t, shape, out)
		// p(C) removes the broadcast axes from C.
		ref := func(c []int) []int {
			var x []int
			for o, v := range c {
				if !slices.Contains(axes, o) {
					x = append(x, v)
				}
			}
			return x
		}
		checkView(t, arg, out, m, ref)
		adj, err := broadcast.Adjoint(arg, out, m)
		require.NoError(t, err)
		require.Equal(t, nonNil(slices.Sorted(slices.Values(axes))), adj)
	}
}

// tally makes sure a randomized test exercised both outcomes.
type tally struct{ bad int }

func (tl *tally) check(t *testing.T) {
	t.Helper()
	t.Logf("%d of %d cases fail", tl.bad, randomCases)
	require.Greater(t, tl.bad, randomCases/20, "too few failing cases")
	require.Less(t, tl.bad, randomCases*9/10, "too few passing cases")
}
