package broadcast_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/broadcast"
)

// This file holds an independent, deliberately naive model of broadcast
// views: coordinates are enumerated one by one, and an input element is
// found by an index function written from each rule's definition.

// forEach calls f with every coordinate of shape, in row-major order. The
// slice is reused between calls.
func forEach(shape []int, f func(c []int)) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	c := make([]int, len(shape))
	for {
		f(c)
		i := len(c) - 1
		for ; i >= 0; i-- {
			c[i]++
			if c[i] < shape[i] {
				break
			}
			c[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// flat is the row-major index of c in shape.
func flat(shape, c []int) int {
	n := 0
	for i := range shape {
		n = n*shape[i] + c[i]
	}
	return n
}

// contiguous is the row-major strides of shape, in elements.
func contiguous(shape []int) []int {
	st := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = n
		n *= shape[i]
	}
	return st
}

func count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// mapRef is the index function an AxisMap describes: input axis i reads
// output axis m[i], or 0 where the input dim is 1.
func mapRef(in []int, m broadcast.AxisMap) indexFunc {
	return func(c []int) []int {
		x := make([]int, len(in))
		for i, o := range m {
			if o >= 0 && in[i] != 1 {
				x[i] = c[o]
			}
		}
		return x
	}
}

// indexFunc maps an output coordinate to the input coordinate it reads.
type indexFunc func(c []int) []int

// rightAligned is the numpy index function: input axis i reads output axis
// off+i, or 0 where the input dim is 1.
func rightAligned(in []int, outRank int) indexFunc {
	off := outRank - len(in)
	return func(c []int) []int {
		x := make([]int, len(in))
		for i, d := range in {
			if d != 1 {
				x[i] = c[off+i]
			}
		}
		return x
	}
}

// onAxes reads input axis i from output axis axes[i] (0 where the dim is 1).
func onAxes(in, axes []int) indexFunc {
	return func(c []int) []int {
		x := make([]int, len(in))
		for i, d := range in {
			if d != 1 {
				x[i] = c[axes[i]]
			}
		}
		return x
	}
}

// checkView checks that the strides of the view that (in, out, m) describe
// read, at every output coordinate, the input element ref names, and that
// summing over Adjoint's axes is the adjoint of that read.
func checkView(t *testing.T, in, out []int, m broadcast.AxisMap, ref indexFunc) {
	t.Helper()
	if n, err := broadcast.Size(out); err != nil || n > 1024 {
		return
	}
	if n, err := broadcast.Size(in); err != nil || n > 1024 {
		return // possible when out has a 0 dim
	}
	st, err := broadcast.Strides(in, contiguous(in), out, m)
	require.NoError(t, err)
	require.Len(t, st, len(out))
	forEach(out, func(c []int) {
		off := 0
		for i := range c {
			off += c[i] * st[i]
		}
		if want := flat(in, ref(c)); off != want {
			require.Failf(t, "wrong element", "in %v out %v map %v: at %v read %d, want %d", in, out, m, c, off, want)
		}
	})

	axes, err := broadcast.Adjoint(in, out, m)
	require.NoError(t, err)
	require.True(t, slices.IsSorted(axes))
	// The true adjoint: every input element collects the gradient of every
	// output element that read it.
	want := make([]int, count(in))
	g := func(c []int) int { return flat(out, c)*7 + 3 }
	forEach(out, func(c []int) { want[flat(in, ref(c))] += g(c) })
	// Summing over the axes without keepdims, then reshaping to in.
	var reduced []int
	for o, d := range out {
		if !slices.Contains(axes, o) {
			reduced = append(reduced, d)
		}
	}
	require.Equal(t, count(in), count(reduced), "in %v out %v axes %v", in, out, axes)
	got := make([]int, count(reduced))
	forEach(out, func(c []int) {
		var r []int
		for o := range c {
			if !slices.Contains(axes, o) {
				r = append(r, c[o])
			}
		}
		got[flat(reduced, r)] += g(c)
	})
	require.Equal(t, want, got, "in %v out %v map %v adjoint axes %v", in, out, m, axes)
}

// randDim is 0..4, biased to 1.
func randDim(r *rand.Rand) int {
	if r.IntN(3) == 0 {
		return 1
	}
	return r.IntN(5)
}

func randShape(r *rand.Rand, maxRank int) []int {
	s := make([]int, r.IntN(maxRank+1))
	for i := range s {
		s[i] = randDim(r)
	}
	return s
}

// mutate returns a copy of s with some dims set to 1 or to a random dim.
func mutate(r *rand.Rand, s []int) []int {
	c := slices.Clone(s)
	for i := range c {
		switch r.IntN(6) {
		case 0, 1:
			c[i] = 1
		case 2:
			c[i] = randDim(r)
		}
	}
	return c
}

// requireRuleError checks that err is a well-formed *Error of the rule.
func requireRuleError(t *testing.T, err error, rule string) {
	t.Helper()
	var be *broadcast.Error
	require.ErrorAs(t, err, &be)
	assert.Equal(t, rule, be.Rule)
	n := 0
	for _, s := range []error{broadcast.ErrIncompatible, broadcast.ErrRank, broadcast.ErrAxes, broadcast.ErrShape, broadcast.ErrOverflow} {
		if errors.Is(err, s) {
			n++
		}
	}
	assert.Equal(t, 1, n, "%v matches %d sentinels", err, n)
	assert.Contains(t, err.Error(), "broadcast "+rule+": ")
}

// static makes partial shapes of static ones.
func static(shapes ...[]int) []broadcast.Shape {
	out := make([]broadcast.Shape, len(shapes))
	for i, s := range shapes {
		out[i] = broadcast.StaticShape(s...)
	}
	return out
}

// requireAgree checks that a partial-shape inference on static shapes
// agrees with the static rule: same failure sentinel, or the same shape.
func requireAgree(t *testing.T, out []int, err error, pout broadcast.Shape, perr error) {
	t.Helper()
	if err != nil {
		require.Error(t, perr, "static rule failed (%v) but inference did not", err)
		var a, b *broadcast.Error
		require.ErrorAs(t, err, &a)
		require.ErrorAs(t, perr, &b)
		require.Equal(t, a.Err, b.Err, "static: %v; partial: %v", err, perr)
		if b.Shapes != nil { // nil when a dim is invalid, hence not static
			require.Equal(t, fmt.Sprint(a.Shapes), fmt.Sprint(b.Shapes))
		}
		return
	}
	require.NoError(t, perr)
	got, ok := pout.Static()
	require.True(t, ok, "inferred %v is not static", pout)
	require.Equal(t, out, got)
}
