package conformance

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// gemmCase checks ONNX Gemm, Y = alpha * A' B' + beta * C, whose C is
// broadcast unidirectionally onto [M N]. The library has no matrix product,
// so the checker computes alpha * A' B' itself with a reference loop (in
// float64, rounded once to the output type); the part the case is about,
// C broadcast onto the product, scaled by beta and added, is evaluated by
// the library (expr with the Unidirectional rule).
func (l *Library) gemmCase(c Case, v variant) Result {
	n := len(c.Inputs)
	if n != 2 && n != 3 {
		return malformed("gemm needs 2 or 3 inputs, has %d", n)
	}
	ts, r, ok := inputTensors(c, v, n)
	if !ok {
		return r
	}
	a, b := ts[0], ts[1]
	if len(a.shape) != 2 || len(b.shape) != 2 {
		return failure(fmt.Sprintf("gemm: A %v and B %v must be matrices", a.shape, b.shape))
	}
	dt := a.dt
	if !dt.IsFloat() && !dt.IsInteger() {
		return skipped(fmt.Sprintf("gemm on %v", dt))
	}
	ta, tb := attrInt(c, "transA") != 0, attrInt(c, "transB") != 0
	alpha, beta := attrFloat(c, "alpha", 1), attrFloat(c, "beta", 1)
	m, k := a.shape[0], a.shape[1]
	if ta {
		m, k = k, m
	}
	k2, nn := b.shape[0], b.shape[1]
	if tb {
		k2, nn = nn, k2
	}
	if k != k2 {
		if c.Expected.Error {
			return pass(fmt.Sprintf("gemm: inner dims %d and %d differ", k, k2))
		}
		return failure(fmt.Sprintf("gemm: inner dims %d and %d differ", k, k2))
	}
	av, bv := a.floats(), b.floats()
	at := func(i, j int) float64 {
		if ta {
			return av[j*a.shape[1]+i]
		}
		return av[i*a.shape[1]+j]
	}
	bt := func(i, j int) float64 {
		if tb {
			return bv[j*b.shape[1]+i]
		}
		return bv[i*b.shape[1]+j]
	}
	prod := make([]float64, m*nn)
	for i := 0; i < m; i++ {
		for j := 0; j < nn; j++ {
			s := 0.0
			for q := 0; q < k; q++ {
				s += at(i, q) * bt(q, j)
			}
			prod[i*nn+j] = alpha * s
		}
	}
	mem := l.mem()
	p64, err := array.FromSlice(mem, prod, m, nn)
	if err != nil {
		return failure("gemm: " + err.Error())
	}
	defer p64.Release()
	pa, err := expr.Eval(expr.Cast(expr.Leaf(p64), dt), expr.WithAllocator(mem))
	if err != nil {
		return failure("gemm: " + err.Error())
	}
	defer pa.Release()
	y := expr.Leaf(pa)
	if n == 3 {
		ca, err := newArray(mem, ts[2])
		if err != nil {
			return failure("gemm: building C: " + err.Error())
		}
		defer ca.Release()
		y = expr.Add(y, expr.Mul(expr.Leaf(ca), expr.Scalar(beta, dt)), expr.Unidirectional)
	}
	outDT := v.expectedDType
	if outDT == "" {
		outDT = v.inputs[0]
	}
	return judge(c, v, outDT, l.eval("expr(unidirectional): product + beta*C", y))
}

// floats returns a tensor's values as float64.
func (t *tensor) floats() []float64 {
	switch {
	case t.dt.IsFloat():
		return t.f
	case t.dt.IsSigned():
		out := make([]float64, len(t.i))
		for k, v := range t.i {
			out[k] = float64(v)
		}
		return out
	case t.dt.IsUnsigned():
		out := make([]float64, len(t.u))
		for k, v := range t.u {
			out[k] = float64(v)
		}
		return out
	}
	out := make([]float64, len(t.b))
	for k, v := range t.b {
		if v {
			out[k] = 1
		}
	}
	return out
}

// attrFloat reads a numeric attribute, def when it is absent or malformed.
func attrFloat(c Case, name string, def float64) float64 {
	raw, ok := c.Attributes[name]
	if !ok {
		return def
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f
	}
	if f, err := strconv.ParseFloat(strings.Trim(string(raw), `"`), 64); err == nil {
		return f
	}
	return def
}
