package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/stride0/stride0/expr"
)

// reductionOp builds a NumPy reduction or scan case: args axis (an int, a
// list, or null/absent for every axis or the flattened array), keepdims
// and, for var and std, ddof.
func reductionOp(c Case, name string) (numpyBuilder, int, string) {
	axes, err := axesArg(c)
	if err != nil {
		return nil, 0, "malformed: " + err.Error()
	}
	keep := false
	if raw, ok := c.Args["keepdims"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &keep); err != nil {
			return nil, 0, "malformed: keepdims: " + err.Error()
		}
	}
	ddof, err := intArg(c, "ddof", 0)
	if err != nil {
		return nil, 0, "malformed: " + err.Error()
	}
	for k := range c.Args {
		switch {
		case k == "axis":
		case k == "keepdims" && name != "cumsum" && name != "cumprod":
		case k == "ddof" && (name == "var" || name == "std"):
		default:
			return nil, 0, fmt.Sprintf("%s with argument %q is not supported", name, k)
		}
	}
	type red func(*expr.Node, []int, bool) *expr.Node
	var f red
	switch name {
	case "var":
		f = func(x *expr.Node, a []int, k bool) *expr.Node { return expr.ReduceVar(x, a, ddof, k) }
	case "std":
		f = func(x *expr.Node, a []int, k bool) *expr.Node { return expr.ReduceStd(x, a, ddof, k) }
	case "cumsum":
		f = func(x *expr.Node, a []int, _ bool) *expr.Node { return expr.Cumsum(x, a) }
	case "cumprod":
		f = func(x *expr.Node, a []int, _ bool) *expr.Node { return expr.Cumprod(x, a) }
	default:
		f = map[string]red{"sum": expr.ReduceSum, "prod": expr.ReduceProd, "mean": expr.ReduceMean,
			"min": expr.ReduceMin, "max": expr.ReduceMax, "argmin": expr.Argmin, "argmax": expr.Argmax,
			"any": expr.Any, "all": expr.All, "count_nonzero": expr.CountNonzero, "nansum": expr.Nansum,
			"nanmean": expr.Nanmean, "nanmin": expr.Nanmin, "nanmax": expr.Nanmax}[name]
	}
	return func(xs []*expr.Node) (*expr.Node, error) {
		n := f(xs[0], axes, keep)
		return n, n.Err()
	}, 1, ""
}
