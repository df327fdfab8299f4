package broadcast

import (
	"errors"
	"fmt"
	"strings"
)

// The sentinels every error of this package matches with errors.Is.
var (
	// ErrIncompatible: two dimensions are neither equal nor 1 (for partial
	// shapes: their intervals do not merge).
	ErrIncompatible = errors.New("incompatible dimensions")
	// ErrRank: the ranks cannot be combined under the rule.
	ErrRank = errors.New("incompatible ranks")
	// ErrAxes: an axes_mapping, broadcast_axes, axis map or start axis is out
	// of range, unsorted, duplicated or of the wrong length.
	ErrAxes = errors.New("invalid axes")
	// ErrShape: a negative dimension, an invalid interval, no shape where one
	// is required, strides that do not fit the shape.
	ErrShape = errors.New("invalid shape")
	// ErrOverflow: the element count of a shape does not fit in an int.
	ErrOverflow = errors.New("element count overflows int")
)

// Error is the error every function of the package returns. It names the
// rule, carries every shape involved, and matches one of the sentinels.
type Error struct {
	Rule   string  // "numpy", "multidirectional", "bidirectional", "explicit", "pdpd", "pdpd elementwise", "none", "ngraph", "adjoint", "reduce to", "strides", "size"
	Shapes [][]int // every static shape involved, in argument order (for Infer* only when all of them are static)
	// Partial holds the shapes given to an Infer* function, in argument
	// order; nil for the static rules.
	Partial []Shape
	Axes    []int  // axes_mapping, broadcast_axes or axis map when the rule has one, else nil
	Axis    int    // offending axis (an output axis, or the index named in Reason); -1 if none
	Reason  string // what is wrong, naming the axis
	Err     error  // one of the sentinels
}

// Error formats the error as
//
//	broadcast numpy: cannot broadcast [3 1 5] to [4 4 5]: dim 0 is 3, target is 4
func (e *Error) Error() string {
	if e == nil {
		return "broadcast: <nil error>"
	}
	var b strings.Builder
	b.WriteString("broadcast ")
	b.WriteString(e.Rule)
	b.WriteString(": ")
	b.WriteString(e.subject())
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	return b.String()
}

// Unwrap returns the sentinel (nil for a nil *Error).
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// shapeStrings formats the shapes the error carries.
func (e *Error) shapeStrings() []string {
	if e.Partial != nil {
		s := make([]string, len(e.Partial))
		for i, p := range e.Partial {
			s[i] = p.String()
		}
		return s
	}
	s := make([]string, len(e.Shapes))
	for i, p := range e.Shapes {
		s[i] = fmt.Sprint(p)
	}
	return s
}

// subject names the operation that failed and every shape involved.
func (e *Error) subject() string {
	s := e.shapeStrings()
	at := func(i int) string {
		if i < len(s) {
			return s[i]
		}
		return "?"
	}
	var subj string
	switch e.Rule {
	case "multidirectional", "bidirectional":
		subj = "cannot broadcast " + joinAnd(s)
	case "none":
		subj = "shapes " + joinAnd(s) + " must be equal"
	case "pdpd elementwise":
		subj = "cannot broadcast " + at(1) + " onto " + at(0)
	case "reduce to":
		subj = "cannot reduce " + at(0) + " to " + at(1)
	case "adjoint", "strides":
		subj = "invalid broadcast of " + at(0) + " to " + at(1)
	case "size":
		subj = "shape " + at(0)
	default: // numpy, explicit, pdpd, ngraph
		subj = "cannot broadcast " + at(0) + " to " + at(1)
	}
	if e.Axes != nil {
		switch e.Rule {
		case "explicit":
			subj += fmt.Sprintf(" with axes_mapping %v", e.Axes)
		case "ngraph":
			subj += fmt.Sprintf(" with broadcast_axes %v", e.Axes)
		default:
			subj += fmt.Sprintf(" through axis map %v", e.Axes)
		}
	}
	return subj
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return "no shapes"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// newError builds an *Error for a static rule, copying the shapes so that
// the caller's slices are not retained.
func newError(rule string, shapes [][]int, axes []int, axis int, sentinel error, format string, args ...any) *Error {
	var cs [][]int
	if shapes != nil {
		cs = make([][]int, len(shapes))
		for i, s := range shapes {
			cs[i] = cloneInts(s)
		}
	}
	var ca []int
	if axes != nil {
		ca = cloneInts(axes)
	}
	return &Error{
		Rule:   rule,
		Shapes: cs,
		Axes:   ca,
		Axis:   axis,
		Reason: fmt.Sprintf(format, args...),
		Err:    sentinel,
	}
}

// newPartialError builds an *Error for an Infer* function.
func newPartialError(rule string, shapes []Shape, axes []int, axis int, sentinel error, format string, args ...any) *Error {
	e := newError(rule, nil, axes, axis, sentinel, format, args...)
	e.Partial = make([]Shape, len(shapes))
	static := make([][]int, len(shapes))
	all := true
	for i, s := range shapes {
		e.Partial[i] = s.clone()
		st, ok := s.Static()
		all = all && ok
		static[i] = st
	}
	if all {
		e.Shapes = static
	}
	return e
}

func cloneInts(s []int) []int {
	if s == nil {
		return nil
	}
	c := make([]int, len(s))
	copy(c, s)
	return c
}

// checkDims reports the first negative dimension of the named shapes.
func checkDims(rule string, names []string, shapes [][]int, axes []int) error {
	for k, s := range shapes {
		for i, d := range s {
			if d < 0 {
				return newError(rule, shapes, axes, i, ErrShape, "%s dim %d is negative (%d)", names[k], i, d)
			}
		}
	}
	return nil
}
