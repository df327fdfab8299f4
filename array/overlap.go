package array

import "math"

// Self-overlap: a layout in which two distinct indices reach one element of
// the buffer. Writing through such a header would write that element more
// than once (the last write wins, in an order nobody promised), so it is
// read-only, like a broadcast.
//
// The decision is exact for every layout whose reachable span is at most
// maxOverlapSpan elements, and conservative beyond: a layout that the
// sufficient test below cannot clear and whose span is larger is treated as
// overlapping. Layouts made by slicing (with any step, negative ones
// included), transposing, reshaping, expanding or squeezing a
// non-overlapping array always pass the sufficient test, whatever their
// size, so only hand-made strides can meet the conservative answer.

// maxOverlapSpan bounds the exact search: a bitset of this many bits (128
// KiB) over the offsets the layout reaches.
const maxOverlapSpan = 1 << 20

// selfOverlaps reports whether two distinct indices of (shape, strides) reach
// one element. A zero-size layout has no element and does not overlap.
func selfOverlaps(shape, strides []int) bool {
	var buf [8]ovAxis
	axes := buf[:0]
	for _, d := range shape {
		if d == 0 {
			return false
		}
	}
	for i, d := range shape {
		if d == 1 {
			continue
		}
		s := strides[i]
		if s == 0 {
			return true
		}
		if s == math.MinInt {
			return true // cannot be valid in any buffer; never writable
		}
		if s < 0 {
			s = -s // reversing an axis does not change which offsets collide
		}
		axes = append(axes, ovAxis{s, d})
	}
	// sort by stride (insertion sort: ranks are small)
	for i := 1; i < len(axes); i++ {
		for j := i; j > 0 && axes[j].s < axes[j-1].s; j-- {
			axes[j], axes[j-1] = axes[j-1], axes[j]
		}
	}
	// Sufficient test: each stride exceeds the span of all smaller ones, so
	// each axis steps over whole blocks of the ones below it. Find the
	// longest prefix that passes, and the span of every axis.
	spans := make([]int, len(axes)+1) // spans[k]: span of axes[:k]
	for k, a := range axes {
		if a.s > (math.MaxInt-spans[k])/(a.d-1) {
			return true // no buffer is this large: never writable
		}
		spans[k+1] = spans[k] + a.s*(a.d-1)
	}
	// Peel from the top: an axis whose stride exceeds the span of all the
	// smaller ones separates its blocks, so it cannot create a collision.
	top := len(axes)
	for top > 0 && axes[top-1].s > spans[top-1] {
		top--
	}
	if top == 0 {
		return false
	}
	axes = axes[:top]
	span := spans[top]
	for k := 1; k < len(axes); k++ {
		if axes[k].s == axes[k-1].s {
			return true // x_k = 1, x_{k-1} = -1
		}
	}
	// more indices than offsets: two must collide (pigeonhole)
	n := 1
	for _, a := range axes {
		if n > (span+1)/a.d {
			return true
		}
		n *= a.d
	}
	if span >= maxOverlapSpan {
		return true // conservative
	}
	return collide(axes, span)
}

// ovAxis is an axis longer than 1: its stride's magnitude and its extent.
type ovAxis struct{ s, d int }

// collide enumerates the offsets Σ i_k*s_k (0 <= i_k < d_k) in a bitset of
// span+1 bits and reports whether one is reached twice.
func collide(axes []ovAxis, span int) bool {
	seen := make([]uint64, span/64+1)
	idx := make([]int, len(axes))
	off := 0
	for {
		w, b := off/64, uint(off%64)
		if seen[w]&(1<<b) != 0 {
			return true
		}
		seen[w] |= 1 << b
		k := 0
		for ; k < len(axes); k++ {
			idx[k]++
			off += axes[k].s
			if idx[k] < axes[k].d {
				break
			}
			off -= idx[k] * axes[k].s
			idx[k] = 0
		}
		if k == len(axes) {
			return false
		}
	}
}
