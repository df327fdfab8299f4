package broadcast

import "fmt"

// Dim is a dimension that may be only partly known: the interval [Lo, Hi].
// Hi == -1 means unbounded. A Dim is static when Lo == Hi, and fully unknown
// ("?") when it is {0, -1}. A valid Dim has 0 <= Lo and Hi == -1 or Lo <= Hi;
// the Infer* functions reject any other with ErrShape.
type Dim struct{ Lo, Hi int }

// StaticDim is the dimension n (n must not be negative).
func StaticDim(n int) Dim { return Dim{n, n} }

// UnknownDim is the fully unknown dimension "?", {0, -1}.
func UnknownDim() Dim { return Dim{0, -1} }

// IntervalDim is the dimension lo..hi. As in OpenVINO, a negative lo means 0
// and a negative hi means unbounded: IntervalDim(-1, 6) is 0..6,
// IntervalDim(6, -1) is 6..?. IntervalDim(5, 2) is empty, hence invalid.
func IntervalDim(lo, hi int) Dim {
	if lo < 0 {
		lo = 0
	}
	if hi < 0 {
		hi = -1
	}
	return Dim{lo, hi}
}

// IsStatic reports whether d is one known size.
func (d Dim) IsStatic() bool { return d.Lo == d.Hi && d.Lo >= 0 }

// Contains reports whether the size n is in d (false for an invalid d).
func (d Dim) Contains(n int) bool {
	return d.valid() && n >= d.Lo && (d.Hi == -1 || n <= d.Hi)
}

// String formats d as "5", "?", "2..7" or "6..?" (an invalid Dim as
// "invalid(lo..hi)").
func (d Dim) String() string {
	switch {
	case !d.valid():
		return fmt.Sprintf("invalid(%d..%d)", d.Lo, d.Hi)
	case d.IsStatic():
		return fmt.Sprint(d.Lo)
	case d.Hi == -1 && d.Lo == 0:
		return "?"
	case d.Hi == -1:
		return fmt.Sprintf("%d..?", d.Lo)
	}
	return fmt.Sprintf("%d..%d", d.Lo, d.Hi)
}

func (d Dim) valid() bool { return d.Lo >= 0 && (d.Hi == -1 || d.Hi >= d.Lo) }

func (d Dim) unknown() bool { return d.Lo == 0 && d.Hi == -1 }

// BroadcastMerge is OpenVINO's Dimension::broadcast_merge: if both a and b
// contain 1 the result is their hull [min lo, max hi]; if only one contains 1
// the result is the other; otherwise it is their intersection, and an empty
// intersection is a failure. So ? x 5 = 5, ? x ? = ?, 1..3 x 2..7 = 2..7,
// 1..6 x 1 = 1..6, 1 x 0 = 0, 3 x 4 fails. Invalid dims fail.
func BroadcastMerge(a, b Dim) (Dim, bool) {
	if !a.valid() || !b.valid() {
		return Dim{}, false
	}
	a1, b1 := a.Contains(1), b.Contains(1)
	switch {
	case a1 && b1:
		hi := -1
		if a.Hi != -1 && b.Hi != -1 {
			hi = max(a.Hi, b.Hi)
		}
		return Dim{min(a.Lo, b.Lo), hi}, true
	case a1:
		return b, true
	case b1:
		return a, true
	}
	return MergeDim(a, b)
}

// MergeDim is OpenVINO's Dimension::merge: the intersection of a and b,
// failing when it is empty (or a dim is invalid). The "none" rule merges
// dims this way.
func MergeDim(a, b Dim) (Dim, bool) {
	if !a.valid() || !b.valid() {
		return Dim{}, false
	}
	lo := max(a.Lo, b.Lo)
	hi := a.Hi
	if hi == -1 || b.Hi != -1 && b.Hi < hi {
		hi = b.Hi
	}
	if hi != -1 && hi < lo {
		return Dim{}, false
	}
	return Dim{lo, hi}, true
}

// compatible is OpenVINO's Dimension::compatible: the intervals intersect.
func compatible(a, b Dim) bool {
	_, ok := MergeDim(a, b)
	return ok
}
