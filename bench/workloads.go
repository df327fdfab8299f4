package bench

import (
	"fmt"
	"runtime"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Case is one workload ready to run: its inputs and its expression, built
// with the public API as a user would write it.
type Case struct {
	W      *Workload
	DType  array.DType
	Inputs map[string]*array.Array
	Expr   *expr.Node
	mem    memory.Allocator
}

// Prepare generates a workload's inputs and builds its expression.
func Prepare(s *Spec, w *Workload, mem memory.Allocator) (*Case, error) {
	dt, err := array.ParseDType(w.DType)
	if err != nil {
		return nil, err
	}
	c := &Case{W: w, DType: dt, Inputs: map[string]*array.Array{}, mem: mem}
	for _, in := range w.Inputs {
		vals := s.Gen(in, dt.IsInteger())
		var a *array.Array
		switch dt {
		case array.Float32:
			a, err = array.FromSlice(mem, convert[float32](vals), in.Shape...)
		case array.Float64:
			a, err = array.FromSlice(mem, vals, in.Shape...)
		case array.Int32:
			a, err = array.FromSlice(mem, convert[int32](vals), in.Shape...)
		default:
			err = fmt.Errorf("bench: %s: dtype %v not supported", w.ID, dt)
		}
		if err != nil {
			c.Release()
			return nil, err
		}
		c.Inputs[in.Name] = a
	}
	if c.Expr, err = c.build(); err != nil {
		c.Release()
		return nil, err
	}
	return c, nil
}

func convert[T float32 | int32](v []float64) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

func (c *Case) leaf(name string) *expr.Node { return expr.Leaf(c.Inputs[name]) }

// build writes each workload as a user would with the public API.
func (c *Case) build() (*expr.Node, error) {
	w := c.W
	var e *expr.Node
	switch w.ID {
	case "W1": // np.broadcast_to(a, (16000, 1000)).copy()
		e = expr.BroadcastNumpy(c.leaf("a"), w.OutShape)
	case "W2", "W10": // a + b, x + b
		if w.ID == "W2" {
			e = expr.Add(c.leaf("a"), c.leaf("b"))
		} else {
			e = expr.Add(c.leaf("x"), c.leaf("b"))
		}
	case "W3": // x + bias
		e = expr.Add(c.leaf("x"), c.leaf("bias"))
	case "W4": // x + c broadcast with axes_mapping [1]
		e = expr.Add(c.leaf("x"), expr.BroadcastExplicit(c.leaf("c"), w.OutShape, w.AxesMapping["c"]))
	case "W5": // (x + bias) * scale - y
		e = expr.Sub(expr.Mul(expr.Add(c.leaf("x"), c.leaf("bias")), c.leaf("scale")), c.leaf("y"))
	case "W6": // int32 x + v[:, None]
		e = expr.Add(c.leaf("x"), c.leaf("v"))
	case "W7": // a * b, float64 3-D
		e = expr.Mul(c.leaf("a"), c.leaf("b"))
	case "W8": // where(x > t, x, 0)
		e = expr.Where(expr.Greater(c.leaf("x"), c.leaf("t")), c.leaf("x"), expr.Scalar(0, c.DType))
	case "W9": // g.sum(axis=0) as the adjoint: reduce g back to the broadcast input's shape
		e = expr.ReduceTo(c.leaf("g"), w.OutShape)
	default:
		return nil, fmt.Errorf("bench: unknown workload %s", w.ID)
	}
	return e, e.Err()
}

// Release frees the inputs.
func (c *Case) Release() {
	for _, a := range c.Inputs {
		a.Release()
	}
}

// checksum of an array's values in C order.
func checksum(s *Spec, a *array.Array) (Sum, error) {
	v, err := array.ToSlice[float64](a)
	if err != nil {
		return Sum{}, err
	}
	return s.Sum(v), nil
}

// Variants returns the alloc, out, out_mt and alloc_mt variants of the
// case, and a function that frees what they hold.
func (c *Case) Variants(s *Spec) ([]Variant, func(), error) {
	const impl = "stride0"
	seq, err := expr.Compile(c.Expr, expr.WithAllocator(c.mem), expr.WithWorkers(1))
	if err != nil {
		return nil, nil, err
	}
	workers := runtime.GOMAXPROCS(0)
	par, err := expr.Compile(c.Expr, expr.WithAllocator(c.mem), expr.WithWorkers(workers))
	if err != nil {
		return nil, nil, err
	}
	// The outputs of out and out_mt are allocated and touched before timing.
	newOut := func() (*array.Array, error) {
		shape, _ := c.Expr.StaticShape()
		o, err := array.Empty(c.mem, c.Expr.DType(), shape...)
		if err != nil {
			return nil, err
		}
		b := o.Data().Bytes()
		for i := range b {
			b[i] = 1
		}
		return o, nil
	}
	out1, err := newOut()
	if err != nil {
		return nil, nil, err
	}
	out2, err := newOut()
	if err != nil {
		out1.Release()
		return nil, nil, err
	}
	perCall := c.W.PerCall
	// alloc and alloc_mt: the evaluation allocates the result, as a user's
	// expr.Eval does (alloc with one worker, alloc_mt with the default).
	allocVariant := func(name string, p *expr.Plan, threads int, res **array.Array) Variant {
		return Variant{Impl: impl, Variant: name, Threads: threads,
			Call: func() error {
				if perCall && *res != nil { // a per-call workload frees the previous result in the timed loop
					(*res).Release()
					*res = nil
				}
				r, err := p.Eval(nil)
				*res = r
				return err
			},
			Release: func() {
				if !perCall && *res != nil {
					(*res).Release()
					*res = nil
				}
			},
			Check: func() (Sum, error) { return checksum(s, *res) },
		}
	}
	var res, resMT *array.Array
	alloc := allocVariant("alloc", seq, 1, &res)
	allocMT := allocVariant("alloc_mt", par, workers, &resMT)
	out := Variant{Impl: impl, Variant: "out", Threads: 1,
		Call:  func() error { return seq.EvalInto(out1, nil) },
		Check: func() (Sum, error) { return checksum(s, out1) }}
	outMT := Variant{Impl: impl, Variant: "out_mt", Threads: workers,
		Call:  func() error { return par.EvalInto(out2, nil) },
		Check: func() (Sum, error) { return checksum(s, out2) }}
	free := func() {
		res.Release()
		resMT.Release()
		out1.Release()
		out2.Release()
	}
	return []Variant{alloc, out, outMT, allocMT}, free, nil
}
