package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stride0/stride0/expr"
)

// The structural functions of kind numpy: concatenate, stack, take,
// compress, sort, argsort, flip, tile, repeat, matmul, transpose and
// reshape, each mapped to its expr function. axis null means the
// flattened array where NumPy says so (concatenate, take, compress, sort,
// argsort, repeat) and every axis for flip. compress is eager
// (expr.Compress): its result is checked as a leaf (see compressCase).

// structuralOps are the structural functions and the keyword arguments
// each accepts.
var structuralOps = map[string][]string{
	"concatenate": {"axis"}, "stack": {"axis"}, "take": {"axis"}, "compress": {"axis"},
	"sort": {"axis", "stable", "kind"}, "argsort": {"axis", "stable", "kind"}, "flip": {"axis"},
	"tile": {"reps"}, "repeat": {"repeats", "axis"}, "matmul": {}, "transpose": {"axes"},
	"reshape": {"shape"},
}

// structuralOp maps a structural case to its builder and arity (-1: any
// number of inputs); ok is false for other ops.
func structuralOp(c Case, name string) (b numpyBuilder, arity int, why string, ok bool) {
	allowed, ok := structuralOps[name]
	if !ok {
		return nil, 0, "", false
	}
	for k := range c.Args {
		found := false
		for _, a := range allowed {
			found = found || a == k
		}
		if !found {
			return nil, 0, fmt.Sprintf("%s with argument %q is not supported", name, k), true
		}
	}
	axis, none, err := axisArg(c)
	if err != nil {
		return nil, 0, "malformed: " + err.Error(), true
	}
	switch name {
	case "concatenate":
		return func(xs []*expr.Node) (*expr.Node, error) {
			if none {
				for i := range xs {
					xs[i] = expr.Reshape(xs[i], -1)
				}
			}
			return expr.Concatenate(xs, axis), nil
		}, -1, "", true
	case "stack":
		if none {
			return nil, 0, "malformed: stack needs an integer axis", true
		}
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Stack(xs, axis), nil }, -1, "", true
	case "take":
		return func(xs []*expr.Node) (*expr.Node, error) {
			if none {
				return expr.TakeFlat(xs[0], xs[1]), nil
			}
			return expr.Take(xs[0], xs[1], axis), nil
		}, 2, "", true
	case "compress":
		// evaluated eagerly by compressCase
		return func([]*expr.Node) (*expr.Node, error) {
			return nil, fmt.Errorf("compress is eager")
		}, 2, "", true
	case "sort", "argsort":
		if raw, ok := c.Args["kind"]; ok && !isNull(raw) {
			var k string
			if json.Unmarshal(raw, &k) != nil || k != "stable" && k != "mergesort" {
				if name == "argsort" {
					return nil, 0, fmt.Sprintf("argsort kind %s: the order of equal elements is NumPy's implementation (stride0 sorts stably)", raw), true
				}
			}
		}
		if raw, ok := c.Args["stable"]; ok && !isNull(raw) {
			var s bool
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, 0, "malformed: stable: " + err.Error(), true
			}
			if !s && name == "argsort" {
				return nil, 0, "argsort with stable=False: the order of equal elements is NumPy's implementation (stride0 sorts stably)", true
			}
		}
		if _, given := c.Args["axis"]; !given {
			axis = -1 // NumPy's default
		}
		return func(xs []*expr.Node) (*expr.Node, error) {
			switch {
			case none && name == "sort":
				return expr.SortFlat(xs[0]), nil
			case none:
				return expr.ArgsortFlat(xs[0]), nil
			case name == "sort":
				return expr.Sort(xs[0], axis), nil
			}
			return expr.Argsort(xs[0], axis), nil
		}, 1, "", true
	case "flip":
		axes, err := axesArg(c)
		if err != nil {
			return nil, 0, "malformed: " + err.Error(), true
		}
		return func(xs []*expr.Node) (*expr.Node, error) {
			if axes != nil && len(axes) == 0 {
				return xs[0], nil // flip over no axis
			}
			return expr.Flip(xs[0], axes...), nil
		}, 1, "", true
	case "tile":
		reps, err := intsArg(c, "reps")
		if err != nil {
			return nil, 0, "malformed: " + err.Error(), true
		}
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Tile(xs[0], reps...), nil }, 1, "", true
	case "repeat":
		reps, err := intsArg(c, "repeats")
		if err != nil {
			return nil, 0, "malformed: " + err.Error(), true
		}
		return func(xs []*expr.Node) (*expr.Node, error) {
			if none {
				if len(reps) != 1 {
					return expr.Repeat(expr.Reshape(xs[0], -1), reps, 0), nil
				}
				return expr.RepeatFlat(xs[0], reps[0]), nil
			}
			return expr.Repeat(xs[0], reps, axis), nil
		}, 1, "", true
	case "matmul":
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Matmul(xs[0], xs[1]), nil }, 2, "", true
	case "transpose":
		var perm []int
		if raw, ok := c.Args["axes"]; ok && !isNull(raw) {
			if perm, err = parseInts(raw); err != nil {
				return nil, 0, "malformed: axes: " + err.Error(), true
			}
		}
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Transpose(xs[0], perm...), nil }, 1, "", true
	case "reshape":
		shape, err := intsArg(c, "shape")
		if err != nil {
			return nil, 0, "malformed: " + err.Error(), true
		}
		return func(xs []*expr.Node) (*expr.Node, error) { return expr.Reshape(xs[0], shape...), nil }, 1, "", true
	}
	return nil, 0, "", false
}

// axisArg reads a single axis: absent gives 0 (NumPy's default for the
// functions that have one but sort), null gives none.
func axisArg(c Case) (axis int, none bool, err error) {
	raw, ok := c.Args["axis"]
	if !ok {
		return 0, false, nil
	}
	if isNull(raw) {
		return 0, true, nil
	}
	if strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
		return 0, false, nil // a list (flip): read by axesArg
	}
	axis, err = parseInt(raw)
	if err != nil {
		return 0, false, fmt.Errorf("args.axis: %w", err)
	}
	return axis, false, nil
}

// intsArg reads an int or a list of ints.
func intsArg(c Case, key string) ([]int, error) {
	raw, ok := c.Args[key]
	if !ok || isNull(raw) {
		return nil, fmt.Errorf("args.%s is required", key)
	}
	if n, err := parseInt(raw); err == nil {
		return []int{n}, nil
	}
	v, err := parseInts(raw)
	if err != nil {
		return nil, fmt.Errorf("args.%s: %w", key, err)
	}
	return v, nil
}

// compressCase runs compress, which is eager: expr.Compress computes the
// result from the inputs as given and from their reversed views, and each
// result is then checked through every evaluation path as a leaf.
func (l *Library) compressCase(c Case, inputs [][]*expr.Node) Result {
	axis, none, err := axisArg(c)
	if err != nil {
		return malformed("%v", err)
	}
	var paths []path
	for k, xs := range inputs {
		label := []string{"expr.Compress", "expr.Compress of reversed inputs"}[k]
		var p path
		p.label = label
		if none {
			p.out, p.err = expr.CompressFlat(xs[0], xs[1], expr.WithAllocator(l.mem()))
		} else {
			p.out, p.err = expr.Compress(xs[0], xs[1], axis, expr.WithAllocator(l.mem()))
		}
		paths = append(paths, p)
		if p.err == nil {
			more := l.eval(label+" read as a leaf", expr.Leaf(p.out))
			paths = append(paths, more...)
		}
	}
	return judge(c, variant{label: "as given"}, c.Expected.DType, paths)
}
