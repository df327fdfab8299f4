package broadcast_test

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

// fuzzDims turns fuzz bytes into dims: mostly 0..4 (biased to 1), sometimes
// negative or huge.
var fuzzDims = [...]int{1, 0, 1, 2, 3, 1, 4, -1}

func fuzzShape(bs []byte) []int {
	if len(bs) == 0 {
		return nil
	}
	bs = bs[:min(len(bs), 7)]
	s := make([]int, len(bs))
	for i, b := range bs {
		switch b {
		case 0xFF:
			s[i] = math.MaxInt
		case 0xFE:
			s[i] = math.MinInt
		case 0xFD:
			s[i] = 1 << 40
		default:
			s[i] = fuzzDims[b%8]
		}
	}
	return s
}

// fuzzAxes turns fuzz bytes into axes: small signed values, and the extremes.
func fuzzAxes(bs []byte) []int {
	if len(bs) == 0 {
		return nil
	}
	bs = bs[:min(len(bs), 8)]
	a := make([]int, len(bs))
	for i, b := range bs {
		switch b {
		case 0x80:
			a[i] = math.MinInt
		case 0x7F:
			a[i] = math.MaxInt
		default:
			a[i] = int(int8(b)) % 9
		}
	}
	return a
}

func bs(v ...byte) []byte { return v }

// FuzzRules runs a rule chosen by mode on shapes and axes made from the
// fuzz input and checks that nothing panics, that a failure is a proper
// *Error, and that a success is consistent: valid maps, strides that read
// inside the input, an adjoint that sums exactly the broadcast elements, and
// partial-shape inference agreeing with the static rule.
func FuzzRules(f *testing.F) {
	// Seeds from the specification examples (byte 0 = dim 1, 3 = 2, 4 = 3,
	// 6 = 4; modes as in the switch below).
	f.Add(uint8(0), bs(4, 0, 0), bs(0, 4, 6, 6), bs(), 0)        // numpy
	f.Add(uint8(1), bs(3, 4, 6), bs(6), bs(), 0)                 // multidirectional
	f.Add(uint8(1), bs(4, 0, 6), bs(6, 6, 6), bs(0), 0)          // mismatch
	f.Add(uint8(2), bs(4, 0), bs(3, 0, 6), bs(), 0)              // bidirectional
	f.Add(uint8(3), bs(6), bs(0, 6, 3, 3), bs(1), 0)             // explicit
	f.Add(uint8(3), bs(3, 3), bs(0, 3, 3, 6), bs(1, 2), 0)       // explicit
	f.Add(uint8(3), bs(), bs(3, 0), bs(1), 0)                    // explicit, scalar
	f.Add(uint8(4), bs(4, 0), bs(3, 4, 6), bs(), 1)              // pdpd
	f.Add(uint8(5), bs(3, 4, 6, 3), bs(4, 0), bs(), 1)           // pdpd elementwise, trailing 1
	f.Add(uint8(5), bs(3, 4, 6, 3), bs(6, 3), bs(), -1)          // default axis
	f.Add(uint8(5), bs(3, 0, 6, 0), bs(6, 0, 3), bs(), 1)        // mismatch
	f.Add(uint8(6), bs(3, 4), bs(3, 4), bs(), 0)                 // none
	f.Add(uint8(7), bs(4), bs(3, 4), bs(0), 0)                   // ngraph
	f.Add(uint8(7), bs(3, 6, 4), bs(3, 4, 6, 4, 4), bs(1, 3), 0) // ngraph
	f.Add(uint8(8), bs(4, 0), bs(3, 4, 6), bs(1, 2), 0)          // adjoint
	f.Add(uint8(9), bs(0xFF, 3), bs(0xFF, 0), bs(), 0)           // size, reduce to
	f.Add(uint8(4), bs(4), bs(3, 4), bs(), math.MinInt)          // extreme axis
	f.Add(uint8(5), bs(4), bs(3, 4), bs(), math.MaxInt)          // extreme axis
	f.Add(uint8(3), bs(0xFE), bs(0xFD, 0xFF), bs(0x80, 0x7F), 0) // extreme dims and axes
	f.Fuzz(func(t *testing.T, mode uint8, ab, bb, cb []byte, axis int) {
		a, b, c, axes := fuzzShape(ab), fuzzShape(bb), fuzzShape(cb), fuzzAxes(cb)
		sa, sb := broadcast.StaticShape(a...), broadcast.StaticShape(b...)
		switch mode % 10 {
		case 0:
			out, m, err := broadcast.Numpy(a, b)
			pout, perr := broadcast.InferNumpy(sa, sb)
			checkRule(t, "numpy", out, err, pout, perr, [][]int{a}, []broadcast.AxisMap{m})
			if err == nil {
				require.Equal(t, b, nilIfEmpty(out))
			}
		case 1:
			out, ms, err := broadcast.Multidirectional(a, b, c)
			pout, perr := broadcast.InferMultidirectional(sa, sb, broadcast.StaticShape(c...))
			checkRule(t, "multidirectional", out, err, pout, perr, [][]int{a, b, c}, ms)
		case 2:
			out, m, err := broadcast.Bidirectional(a, b)
			pout, perr := broadcast.InferBidirectional(sa, sb)
			checkRule(t, "bidirectional", out, err, pout, perr, [][]int{a}, []broadcast.AxisMap{m})
		case 3:
			out, m, err := broadcast.Explicit(a, b, axes)
			pout, perr := broadcast.InferExplicit(sa, sb, nonNil(axes))
			checkRule(t, "explicit", out, err, pout, perr, [][]int{a}, []broadcast.AxisMap{m})
			if err == nil {
				require.Equal(t, b, nilIfEmpty(out))
			}
		case 4:
			out, m, err := broadcast.PDPD(a, b, axis)
			pout, perr := broadcast.InferPDPD(sa, sb, axis)
			checkRule(t, "pdpd", out, err, pout, perr, [][]int{a}, []broadcast.AxisMap{m})
		case 5:
			out, m, err := broadcast.PDPDElementwise(a, b, axis)
			pout, perr := broadcast.InferPDPDElementwise(sa, sb, axis)
			checkRule(t, "pdpd elementwise", out, err, pout, perr, [][]int{b}, []broadcast.AxisMap{m})
			if err == nil {
				require.Equal(t, a, nilIfEmpty(out))
			}
		case 6:
			out, ms, err := broadcast.None(a, b)
			pout, perr := broadcast.InferNone(sa, sb)
			checkRule(t, "none", out, err, pout, perr, [][]int{a, b}, ms)
		case 7:
			out, m, err := broadcast.NGraph(a, b, axes)
			pout, perr := broadcast.InferNGraph(sa, sb, axes)
			checkRule(t, "ngraph", out, err, pout, perr, [][]int{a}, []broadcast.AxisMap{m})
			if err == nil {
				require.Equal(t, b, nilIfEmpty(out))
			}
		case 8:
			m := broadcast.AxisMap(axes)
			sum, err := broadcast.Adjoint(a, b, m)
			st, serr := broadcast.Strides(a, make([]int, len(a)), b, m)
			if err != nil {
				requireRuleError(t, err, "adjoint")
				requireRuleError(t, serr, "strides")
				var e1, e2 *broadcast.Error
				require.ErrorAs(t, err, &e1)
				require.ErrorAs(t, serr, &e2)
				require.Equal(t, e1.Err, e2.Err)
				return
			}
			require.NoError(t, serr)
			require.Len(t, st, len(b))
			require.True(t, slices.IsSorted(sum))
			checkView(t, a, b, m, mapRef(a, m))
		case 9:
			n, err := broadcast.Size(a)
			p := big.NewInt(1)
			neg := false
			for _, d := range a {
				neg = neg || d < 0
				p.Mul(p, big.NewInt(int64(d)))
			}
			switch {
			case neg:
				require.ErrorIs(t, err, broadcast.ErrShape)
			case !p.IsInt64():
				require.ErrorIs(t, err, broadcast.ErrOverflow)
			default:
				require.NoError(t, err)
				require.Equal(t, p.Int64(), int64(n))
			}
			sum, err := broadcast.ReduceTo(a, b)
			_, m, nerr := broadcast.Numpy(b, a)
			require.Equal(t, nerr == nil, err == nil)
			if err == nil {
				adj, err := broadcast.Adjoint(b, a, m)
				require.NoError(t, err)
				require.Equal(t, adj, sum)
			} else {
				requireRuleError(t, err, "reduce to")
			}
		}
	})
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

// checkRule checks the outcome of a rule on fuzzed input.
func checkRule(t *testing.T, rule string, out []int, err error, pout broadcast.Shape, perr error, ins [][]int, maps []broadcast.AxisMap) {
	t.Helper()
	requireAgree(t, out, err, pout, perr)
	if err != nil {
		requireRuleError(t, err, rule)
		var be *broadcast.Error
		require.True(t, errors.As(err, &be))
		require.NotContains(t, err.Error(), "%!")
		return
	}
	require.NotNil(t, out)
	for _, d := range out {
		require.GreaterOrEqual(t, d, 0)
	}
	require.Len(t, maps, len(ins))
	for i, in := range ins {
		m := maps[i]
		require.Len(t, m, len(in))
		sum, err := broadcast.Adjoint(in, out, m)
		require.NoError(t, err)
		st, err := broadcast.Strides(in, contiguous(in), out, m)
		require.NoError(t, err)
		for _, o := range sum {
			require.Zero(t, st[o], "adjoint axis %d has stride %d", o, st[o])
		}
		checkView(t, in, out, m, mapRef(in, m))
	}
}
