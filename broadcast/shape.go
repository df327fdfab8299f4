package broadcast

import "strings"

// Shape is a partial shape: a list of possibly unknown dims, or, when
// RankKnown is false, a shape of unknown rank (Dims is then ignored). A known
// rank with no dims is a scalar.
type Shape struct {
	Dims      []Dim
	RankKnown bool
}

// StaticShape is the shape with the given (non-negative) dims.
func StaticShape(dims ...int) Shape {
	d := make([]Dim, len(dims))
	for i, n := range dims {
		d[i] = StaticDim(n)
	}
	return Shape{Dims: d, RankKnown: true}
}

// Partial is the shorthand for a shape of known rank whose dims are known
// sizes or, written -1 (any negative), unknown: Partial(-1, 16) is [? 16],
// the shape of a batch of 16-feature rows whose count is not known yet.
// Intervals are written with IntervalDim in a Shape literal.
func Partial(dims ...int) Shape {
	d := make([]Dim, len(dims))
	for i, n := range dims {
		if n < 0 {
			d[i] = UnknownDim()
		} else {
			d[i] = StaticDim(n)
		}
	}
	return Shape{Dims: d, RankKnown: true}
}

// DynamicShape is the shape of unknown rank.
func DynamicShape() Shape { return Shape{} }

// String formats s as "[2 ? 3..5]", or "[...]" when the rank is unknown.
func (s Shape) String() string {
	if !s.RankKnown {
		return "[...]"
	}
	parts := make([]string, len(s.Dims))
	for i, d := range s.Dims {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Static returns the dims of s when its rank and every dim are known.
func (s Shape) Static() ([]int, bool) {
	if !s.RankKnown {
		return nil, false
	}
	out := make([]int, len(s.Dims))
	for i, d := range s.Dims {
		if !d.IsStatic() {
			return nil, false
		}
		out[i] = d.Lo
	}
	return out, true
}

func (s Shape) clone() Shape {
	if !s.RankKnown {
		return Shape{}
	}
	d := make([]Dim, len(s.Dims))
	copy(d, s.Dims)
	return Shape{Dims: d, RankKnown: true}
}

// valueUnknown reports whether s, given as a target shape, stands for a
// target whose value is unknown but whose length is known: a known, non-zero
// number of fully unknown dims.
func (s Shape) valueUnknown() bool {
	if !s.RankKnown || len(s.Dims) == 0 {
		return false
	}
	for _, d := range s.Dims {
		if !d.unknown() {
			return false
		}
	}
	return true
}

// unknownShape is n fully unknown dims.
func unknownShape(n int) Shape {
	d := make([]Dim, n)
	for i := range d {
		d[i] = UnknownDim()
	}
	return Shape{Dims: d, RankKnown: true}
}

// checkPartial reports the first invalid dim of the named shapes.
func checkPartial(rule string, names []string, shapes []Shape, axes []int) error {
	for k, s := range shapes {
		if !s.RankKnown {
			continue
		}
		for i, d := range s.Dims {
			if !d.valid() {
				return newPartialError(rule, shapes, axes, i, ErrShape, "%s dim %d is invalid (%d..%d)", names[k], i, d.Lo, d.Hi)
			}
		}
	}
	return nil
}
