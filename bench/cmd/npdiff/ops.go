package main

import (
	"bufio"
	"fmt"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// runOps: each dtype's input x (in_<dtype>.bin, 4096 values as [64, 64])
// and y (x reversed) through the elementwise ops, reductions and casts;
// results go to go_<dtype>_<op>.bin, one manifest.txt line each.
func runOps() error {
	return withManifest("manifest.txt", func(w *bufio.Writer) error {
		for _, name := range dtypes {
			x, err := loadInput(name, false)
			if err != nil {
				return err
			}
			y, err := loadInput(name, true)
			if err != nil {
				return err
			}
			for op, e := range opsOf(name, expr.Leaf(x), expr.Leaf(y)) {
				if s, err := evalOut(e, "go_"+name+"_"+op+".bin"); err != nil {
					fmt.Fprintf(w, "%s %s ERR %v\n", name, op, err)
				} else {
					fmt.Fprintf(w, "%s %s %s\n", name, op, s)
				}
			}
			x.Release()
			y.Release()
		}
		return nil
	})
}

// opsOf is the op list of the ops suite (npdiff.py's cmp_ops knows each
// name's NumPy counterpart).
func opsOf(name string, X, Y *expr.Node) map[string]*expr.Node {
	c := func(v int) *expr.Node { return expr.Const(v) }
	ops := map[string]*expr.Node{
		"abs": expr.Abs(X), "neg": expr.Neg(X), "add": expr.Add(X, X), "mul": expr.Mul(X, X),
		"fdiv7": expr.FloorDiv(X, c(7)), "mod7": expr.Remainder(X, c(7)),
		"fdiv2": expr.FloorDiv(X, c(2)), "mod2": expr.Remainder(X, c(2)),
		"fdiv100": expr.FloorDiv(X, c(100)), "mod100": expr.Remainder(X, c(100)),
		"fdivm3": expr.FloorDiv(X, c(-3)), "modm3": expr.Remainder(X, c(-3)),
		"gt1": expr.Greater(X, c(1)), "eqx": expr.Equal(X, X),
		"max": expr.ReduceMax(X, nil, false), "min": expr.ReduceMin(X, nil, false),
		"max1": expr.ReduceMax(X, []int{1}, false), "min0": expr.ReduceMin(X, []int{0}, false),
		"argmax1": expr.Argmax(X, []int{1}, false), "sign": expr.Sign(X),
		"maxc": expr.Maximum(X, c(3)), "sq": expr.Square(X),
		"sum1": expr.ReduceSum(X, []int{1}, false), "prod0": expr.ReduceProd(X, []int{0}, false),
		"cumsum1": expr.Cumsum(X, []int{1}),
		"shl1":    expr.LeftShift(X, c(1)), "shr3": expr.RightShift(X, c(3)), "and5": expr.BitwiseAnd(X, c(5)),
		"round2": expr.Round(X, 2), "roundm1": expr.Round(X, -1), "clip": expr.Clip(X, c(-1), c(5)),
		"rint": expr.Rint(X), "floor": expr.Floor(X), "ceil": expr.Ceil(X), "trunc": expr.Trunc(X),
		"sqrt": expr.Sqrt(X), "cbrt": expr.Cbrt(X), "fmod3": expr.Fmod(X, c(3)), "copysign": expr.Copysign(X, Y),
		"heaviside": expr.Heaviside(X, expr.Const(0.5)), "nanmax1": expr.Nanmax(X, []int{1}, false),
		"nanmin0": expr.Nanmin(X, []int{0}, false), "nansum1": expr.Nansum(X, []int{1}, false),
		"nanmean0": expr.Nanmean(X, []int{0}, false), "argmin0": expr.Argmin(X, []int{0}, false),
		"argmax0": expr.Argmax(X, []int{0}, false), "sort1": expr.Sort(X, 1), "sort0": expr.Sort(X, 0),
		"argsort1": expr.Argsort(X, 1), "cumprod1": expr.Cumprod(X, []int{1}), "cumsum0": expr.Cumsum(X, []int{0}),
		"var1": expr.ReduceVar(X, []int{1}, 0, false), "std0": expr.ReduceStd(X, []int{0}, 1, false),
		"mean1": expr.ReduceMean(X, []int{1}, false), "any1": expr.Any(X, []int{1}, false), "all0": expr.All(X, []int{0}, false),
		"cnz1": expr.CountNonzero(X, []int{1}, false), "signbit": expr.Signbit(X), "isnan": expr.IsNaN(X),
		"isinf": expr.IsInf(X), "isfinite": expr.IsFinite(X), "invert": expr.Invert(X), "pow2": expr.Power(X, c(2)),
		"pow3": expr.Power(X, c(3)), "fmin": expr.Fmin(X, Y), "fmax": expr.Fmax(X, Y), "recip": expr.Reciprocal(X),
		"truediv": expr.Div(X, Y), "pos": expr.Positive(X), "lnot": expr.LogicalNot(X), "land": expr.LogicalAnd(X, Y),
		"lxor": expr.LogicalXor(X, Y), "bor": expr.BitwiseOr(X, Y), "bxor": expr.BitwiseXor(X, Y),
		"sqdiff": expr.SquaredDiff(X, Y), "exp": expr.Exp(X), "log": expr.Log(X), "sin": expr.Sin(X), "tanh": expr.Tanh(X),
		"vvfdiv": expr.FloorDiv(X, Y), "vvmod": expr.Remainder(X, Y), "vvmax": expr.Maximum(X, Y),
		"vvmin": expr.Minimum(X, Y), "vvlt": expr.Less(X, Y), "vvne": expr.NotEqual(X, Y), "vvsub": expr.Sub(X, Y),
		"where": expr.Where(expr.Greater(X, Y), X, Y),
	}
	for _, to := range dtypes {
		tdt, _ := array.ParseDType(to)
		ops["cast_"+to] = expr.Cast(X, tdt)
	}
	return ops
}

// runMixed: every ordered pair of distinct dtypes, x of the first and y
// (reversed) of the second, through a few binary ops: results in
// mx_<a>_<b>_<op>.bin, lines in manifest_mixed.txt.
func runMixed() error {
	return withManifest("manifest_mixed.txt", func(w *bufio.Writer) error {
		for _, a := range dtypes {
			for _, b := range dtypes {
				if a == b {
					continue
				}
				x, err := loadInput(a, false)
				if err != nil {
					return err
				}
				y, err := loadInput(b, true)
				if err != nil {
					return err
				}
				A, B := expr.Leaf(x), expr.Leaf(y)
				ops := map[string]*expr.Node{
					"add": expr.Add(A, B), "mul": expr.Mul(A, B), "max": expr.Maximum(A, B),
					"lt": expr.Less(A, B), "eq": expr.Equal(A, B), "fdiv": expr.FloorDiv(A, B),
					"where": expr.Where(expr.Greater(A, B), A, B),
				}
				for op, e := range ops {
					if s, err := evalOut(e, "mx_"+a+"_"+b+"_"+op+".bin"); err != nil {
						fmt.Fprintf(w, "%s %s %s ERR %v\n", a, b, op, err)
					} else {
						fmt.Fprintf(w, "%s %s %s %s\n", a, b, op, s)
					}
				}
				x.Release()
				y.Release()
			}
		}
		return nil
	})
}
