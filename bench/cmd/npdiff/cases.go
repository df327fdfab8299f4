package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// reduceCase is one line of cases.json for the reduce suite.
type reduceCase struct {
	ID   int
	Op   string
	Axes any // null (every axis), an axis, or a list of axes
	Keep bool
}

// runReduce: random reductions (cases.json; input in_<id>.npy) into
// got_<id>.bin, one manifest.txt line each.
func runReduce() error {
	return runCases(func(c reduceCase) int { return c.ID }, func(c reduceCase, X *expr.Node) (*expr.Node, *array.Array, error) {
		var axes []int
		switch v := c.Axes.(type) {
		case float64:
			axes = []int{int(v)}
		case []any:
			axes = []int{}
			for _, x := range v {
				axes = append(axes, int(x.(float64)))
			}
		}
		ops := map[string]func() *expr.Node{
			"sum":           func() *expr.Node { return expr.ReduceSum(X, axes, c.Keep) },
			"prod":          func() *expr.Node { return expr.ReduceProd(X, axes, c.Keep) },
			"max":           func() *expr.Node { return expr.ReduceMax(X, axes, c.Keep) },
			"min":           func() *expr.Node { return expr.ReduceMin(X, axes, c.Keep) },
			"mean":          func() *expr.Node { return expr.ReduceMean(X, axes, c.Keep) },
			"any":           func() *expr.Node { return expr.Any(X, axes, c.Keep) },
			"all":           func() *expr.Node { return expr.All(X, axes, c.Keep) },
			"argmax":        func() *expr.Node { return expr.Argmax(X, axes, c.Keep) },
			"argmin":        func() *expr.Node { return expr.Argmin(X, axes, c.Keep) },
			"var":           func() *expr.Node { return expr.ReduceVar(X, axes, 0, c.Keep) },
			"std":           func() *expr.Node { return expr.ReduceStd(X, axes, 0, c.Keep) },
			"nansum":        func() *expr.Node { return expr.Nansum(X, axes, c.Keep) },
			"nanmax":        func() *expr.Node { return expr.Nanmax(X, axes, c.Keep) },
			"nanmin":        func() *expr.Node { return expr.Nanmin(X, axes, c.Keep) },
			"nanmean":       func() *expr.Node { return expr.Nanmean(X, axes, c.Keep) },
			"count_nonzero": func() *expr.Node { return expr.CountNonzero(X, axes, c.Keep) },
			"cumsum":        func() *expr.Node { return expr.Cumsum(X, axes) },
			"cumprod":       func() *expr.Node { return expr.Cumprod(X, axes) },
		}
		f, ok := ops[c.Op]
		if !ok {
			return nil, nil, fmt.Errorf("case %d: unknown op %q", c.ID, c.Op)
		}
		return f(), nil, nil
	})
}

// structCase is one line of cases.json for the structural suite.
type structCase struct {
	ID       int
	Op       string
	Perm     []int
	Axes     []int
	Reps     []int
	Repeats  []int
	Axis     int
	R        int
	Others   []string
	Idx      any
	Newshape []int
	Cond     []bool
}

// runStructural: random structural ops (cases.json; inputs in_<id>.npy and
// in_<id>_<j>.npy) into got_<id>.bin, one manifest.txt line each.
func runStructural() error {
	return runCases(func(c structCase) int { return c.ID }, func(c structCase, X *expr.Node) (*expr.Node, *array.Array, error) {
		switch c.Op {
		case "transpose":
			return expr.Transpose(X, c.Perm...), nil, nil
		case "flip":
			return expr.Flip(X, c.Axes...), nil, nil
		case "tile":
			return expr.Tile(X, c.Reps...), nil, nil
		case "repeat":
			return expr.Repeat(X, c.Repeats, c.Axis), nil, nil
		case "repeatflat":
			return expr.RepeatFlat(X, c.R), nil, nil
		case "concat", "stack":
			xs := []*expr.Node{X}
			for j := range c.Others {
				b, err := readNpy(fmt.Sprintf("in_%d_%d.npy", c.ID, j))
				if err != nil {
					return nil, nil, err
				}
				xs = append(xs, expr.Leaf(b))
			}
			if c.Op == "concat" {
				return expr.Concatenate(xs, c.Axis), nil, nil
			}
			return expr.Stack(xs, c.Axis), nil, nil
		case "take":
			var flat []int64
			var shape []int
			var walk func(v any, d int)
			walk = func(v any, d int) {
				if l, ok := v.([]any); ok {
					if len(shape) <= d {
						shape = append(shape, len(l))
					}
					for _, x := range l {
						walk(x, d+1)
					}
					return
				}
				flat = append(flat, int64(v.(float64)))
			}
			walk(c.Idx, 0)
			ia, err := array.FromSlice(nil, flat, shape...)
			if err != nil {
				return nil, nil, err
			}
			return expr.Take(X, expr.Leaf(ia), c.Axis), nil, nil
		case "reshape":
			return expr.Reshape(X, c.Newshape...), nil, nil
		case "sort":
			return expr.Sort(X, c.Axis), nil, nil
		case "argsort":
			return expr.Argsort(X, c.Axis), nil, nil
		case "cumsum":
			return expr.Cumsum(X, []int{c.Axis}), nil, nil
		case "cumprod":
			return expr.Cumprod(X, []int{c.Axis}), nil, nil
		case "compress":
			ca, err := array.FromSlice(nil, c.Cond, len(c.Cond))
			if err != nil {
				return nil, nil, err
			}
			r, err := expr.Compress(expr.Leaf(ca), X, c.Axis)
			return nil, r, err
		}
		return nil, nil, fmt.Errorf("case %d: unknown op %q", c.ID, c.Op)
	})
}

// runCases reads cases.json and, for each case, its input in_<id>.npy;
// build makes its node (or computes its result, as Compress does), whose
// result goes to got_<id>.bin and a manifest.txt line: "id dtype [shape]"
// or "id ERR msg".
func runCases[C any](id func(C) int, build func(c C, x *expr.Node) (*expr.Node, *array.Array, error)) error {
	var cs []C
	if err := readJSON("cases.json", &cs); err != nil {
		return err
	}
	return withManifest("manifest.txt", func(w *bufio.Writer) error {
		for _, c := range cs {
			a, err := readNpy(fmt.Sprintf("in_%d.npy", id(c)))
			if err != nil {
				return err // the inputs npdiff.py wrote: not stride0's to report
			}
			e, r, err := build(c, expr.Leaf(a))
			file := fmt.Sprintf("got_%d.bin", id(c))
			var s string
			switch {
			case err != nil:
			case r != nil:
				s, err = writeOut(r, file)
				r.Release()
			default:
				s, err = evalOut(e, file)
			}
			if err != nil {
				fmt.Fprintf(w, "%d ERR %v\n", id(c), err)
				continue
			}
			fmt.Fprintf(w, "%d %s\n", id(c), s)
		}
		return nil
	})
}

func readJSON(name string, v any) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
