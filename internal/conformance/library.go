package conformance

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// Library is the ValueChecker that computes every case needing evaluation
// with stride0 itself.
//
// Broadcast ops (broadcast_numpy/explicit/pdpd/bidirectional, ngraph_axes,
// ONNX expand) are computed several ways, each compared with the expected
// shape, element type and values: the zero-copy view of package view
// materialized with array.Copy, the expr.Broadcast* node, and expr.Broadcast
// with target_shape (and axes) as 1-D arrays of the case's index element
// type; each from the contiguous input and from a view of it with negative
// strides. Every version in op_versions is run in the mode it resolves to
// (v1 explicit without axes_mapping is numpy).
//
// Element-wise ops map to package expr with the case's auto_broadcast rule
// (numpy, none, pdpd with axis; unidirectional for the ONNX kinds): the
// node over the inputs, over views of them with negative strides, and,
// under numpy and unidirectional rules, the op over broadcast views of the
// inputs.
//
// Every expression is evaluated with expr.Eval, again with 16-element tiles
// and 3 workers, and with expr.EvalInto a transposed view. Integer semantics follow the
// source: OpenVINO Divide floors integers (FloorDiv, with pythondivision,
// unless an attribute turns it off: TruncDiv), ONNX Div truncates them, and
// both divide floats (Div); OpenVINO Mod is Fmod (C fmod), FloorMod is
// Remainder; ONNX Mod is Remainder unless fmod=1. ONNX Pow takes the base's
// type.
//
// Integers and booleans compare exactly; floats compare exactly except
// where the source's own arithmetic is not correctly rounded, within a
// documented tolerance (see tolerance). A case listing dtypes runs for each
// listed type the library has; the values are converted to it (a value the
// type cannot hold skips that type, with the reason).
//
// A case expecting an error passes when OpenVINO's op validation rejects it
// (as the shape checker models it) or when every way of computing it with
// the library fails. Integer division by zero, an error in OpenVINO, is
// defined as 0 in stride0: such a case is skipped with that reason.
type Library struct {
	// Mem is where every array comes from (the Go allocator when nil).
	Mem memory.Allocator
}

// NewLibrary returns a Library allocating from mem (the Go allocator when
// nil).
func NewLibrary(mem memory.Allocator) *Library { return &Library{Mem: mem} }

func (l *Library) mem() memory.Allocator {
	if l == nil || l.Mem == nil {
		return memory.NewGoAllocator()
	}
	return l.Mem
}

// maxElements bounds what a case may make the library materialize (the
// format caps tensors at 4096 elements).
const maxElements = 1 << 16

// CheckValues checks a case that needs evaluation (Case.NeedsEvaluation).
func (l *Library) CheckValues(c Case) (Result, bool) {
	if !c.NeedsEvaluation() {
		return Result{}, false
	}
	r := Result{ID: c.ID}
	if c.Err != nil {
		r.Status, r.Detail = Fail, "malformed case: "+c.Err.Error()
		return r, true
	}
	if c.Kind == "numpy" {
		r = l.numpyCase(c)
		r.ID = c.ID
		return r, true
	}
	vars, reason := variants(c)
	if reason != "" {
		r.Status, r.Detail = Skip, reason
		return r, true
	}
	var skips, passes []string
	for _, dt := range c.DTypes {
		if !SupportedDType(dt) && len(vars) > 0 && vars[0].label != "as given" {
			skips = append(skips, "dtype "+dt+": not supported by the library")
		}
	}
	for _, v := range vars {
		label := ""
		if len(vars) > 1 {
			label = "dtype " + v.label + ": "
		}
		res := l.variant(c, v)
		switch res.Status {
		case Fail:
			r.Status, r.Detail, r.Got = Fail, label+res.Detail, res.Got
			return r, true
		case Skip:
			skips = append(skips, label+res.Detail)
		case Pass:
			passes = append(passes, label+res.Got)
		}
	}
	if len(passes) == 0 {
		r.Status, r.Detail = Skip, strings.Join(skips, "; ")
		return r, true
	}
	r.Status, r.Got = Pass, strings.Join(passes, "; ")
	if len(skips) > 0 {
		r.Detail = "skipped " + strings.Join(skips, "; ")
	}
	return r, true
}

// path is one way of computing a case with the library.
type path struct {
	label string
	out   *array.Array
	err   error
	// big is the shape of a result the library computed the shape of
	// but that is too large to materialize here (out and err are nil).
	big []int
}

// result of one variant.
func pass(got string) Result       { return Result{Status: Pass, Got: got} }
func skipped(reason string) Result { return Result{Status: Skip, Detail: reason} }
func failure(detail string) Result { return Result{Status: Fail, Detail: detail} }
func malformed(format string, a ...any) Result {
	return failure("malformed case: " + fmt.Sprintf(format, a...))
}

// variant checks a case for one instantiation of its element types.
func (l *Library) variant(c Case, v variant) Result {
	// The shape check first: shape inference must agree with a success.
	if !c.Expected.Error {
		for _, o := range evaluate(c, v) {
			label := ""
			if o.label != "" {
				label = o.label + ": "
			}
			if o.bad != "" {
				return malformed("%s", o.bad)
			}
			if o.skip != "" {
				continue // the evaluation below says what it can do
			}
			if o.err != nil {
				return failure(fmt.Sprintf("%sshape inference: expected %s, got %s", label, expectation(c), o))
			}
			if d := compare(c.Expected, v, o); d != "" {
				return failure(label + "shape inference: " + d)
			}
		}
	}
	switch k := c.Kind; {
	case strings.HasPrefix(k, "broadcast_"), k == "ngraph_axes", k == "expand", c.Op == "expand":
		return l.broadcastCase(c, v)
	case strings.HasPrefix(k, "elementwise_"), k == "unidirectional":
		return l.elementwiseCase(c, v)
	}
	return skipped(fmt.Sprintf("kind %q is not supported", c.Kind))
}

// inputTensors decodes the inputs of a case for a variant. A skip reason
// is returned for values the variant's types cannot hold when the types
// are not the case's own (a converted dtypes instantiation).
func inputTensors(c Case, v variant, n int) ([]tensor, Result, bool) {
	if len(c.Inputs) < n {
		return nil, malformed("%d inputs, want %d", len(c.Inputs), n), false
	}
	ts := make([]tensor, n)
	for k := range n {
		in := c.Inputs[k]
		name := fmt.Sprintf("inputs[%d]", k)
		if in.Name != "" {
			name += " (" + in.Name + ")"
		}
		if in.Values == nil || isNull(in.Values) {
			return nil, malformed("%s has no values", name), false
		}
		shape, ok := in.Shape.Static()
		if !ok {
			return nil, malformed("%s has values but its shape %v is not static", name, in.Shape), false
		}
		size, err := broadcast.Size(shape)
		if err != nil {
			return nil, malformed("%s: %v", name, err), false
		}
		dt, err := array.ParseDType(v.inputs[k])
		if err != nil {
			return nil, skipped(fmt.Sprintf("%s: dtype %q: not supported by the library", name, v.inputs[k])), false
		}
		t, err := decodeTensor(in.Values, dt, shape)
		converted := v.inputs[k] != in.DType
		switch {
		case err != nil && converted && errors.Is(err, errUnrepresentable):
			return nil, skipped(fmt.Sprintf("%s: %v", name, err)), false
		case err != nil:
			return nil, malformed("%s: %v", name, err), false
		case t.len() != size:
			return nil, malformed("%s: %d values for shape %v (%d elements)", name, t.len(), shape, size), false
		case t.inexact && converted:
			return nil, skipped(fmt.Sprintf("%s: values not exact in %s (the expected values assume exact inputs)", name, v.inputs[k])), false
		}
		ts[k] = t
	}
	return ts, Result{}, true
}

// expectedTensor decodes the expected values for the output type dt.
func expectedTensor(c Case, v variant, dt array.DType) (tensor, Result, bool) {
	shape, _ := c.Expected.Shape.Shape.Static()
	t, err := decodeTensor(c.Expected.Values, dt, shape)
	converted := v.label != "as given"
	switch {
	case err != nil && converted && errors.Is(err, errUnrepresentable):
		return t, skipped(fmt.Sprintf("expected values: %v", err)), false
	case err != nil:
		return t, malformed("expected values: %v", err), false
	}
	if c.Expected.Shape.Present {
		s, ok := c.Expected.Shape.Shape.Static()
		if !ok {
			return t, malformed("expected values with a shape %v that is not static", c.Expected.Shape.Shape), false
		}
		size, err := broadcast.Size(s)
		if err != nil {
			return t, malformed("expected shape: %v", err), false
		}
		if size != t.len() {
			return t, malformed("%d expected values for shape %v (%d elements)", t.len(), s, size), false
		}
	}
	return t, Result{}, true
}

// judge compares what every path computed with the case's expectation and
// releases the outputs. what names the operation for messages.
func judge(c Case, v variant, outDT string, paths []path) Result {
	defer func() {
		for _, p := range paths {
			if p.out != nil {
				p.out.Release()
			}
		}
	}()
	if len(paths) == 0 {
		return skipped("nothing to evaluate")
	}
	if c.Expected.Error {
		var ok []string
		for _, p := range paths {
			if p.big != nil {
				return failure(fmt.Sprintf("%s: expected error (%s), got shape %v", p.label, reason(c.Expected), p.big))
			}
			if p.err == nil {
				return failure(fmt.Sprintf("%s: expected error (%s), got shape %v", p.label, reason(c.Expected), p.out.Shape()))
			}
			ok = append(ok, p.label+": "+p.err.Error())
		}
		return pass("error: " + strings.Join(ok, "; "))
	}
	want, r, ok := tensor{}, Result{}, true
	var wantDT array.DType
	if c.Expected.Values != nil {
		dt, err := array.ParseDType(outDT)
		if err != nil {
			return skipped(fmt.Sprintf("output dtype %q: not supported by the library", outDT))
		}
		wantDT = dt
		if want, r, ok = expectedTensor(c, v, dt); !ok {
			return r
		}
	}
	got := ""
	for _, p := range paths {
		if p.big != nil {
			return failure(fmt.Sprintf("%s: expected %s, got shape %v (more than %d elements, not materialized)", p.label, expectation(c), p.big, maxElements))
		}
		if p.err != nil {
			return failure(fmt.Sprintf("%s: expected %s, got error: %v", p.label, expectation(c), p.err))
		}
		if c.Expected.Shape.Present {
			if s, ok := c.Expected.Shape.Shape.Static(); ok && !slices.Equal(s, p.out.Shape()) {
				return failure(fmt.Sprintf("%s: expected shape %v, got %v", p.label, s, p.out.Shape()))
			}
		}
		if wantDT != array.Invalid && p.out.DType() != wantDT {
			return failure(fmt.Sprintf("%s: expected dtype %s, got %s", p.label, outDT, p.out.DType()))
		}
		t, err := readTensor(p.out)
		if err != nil {
			return failure(fmt.Sprintf("%s: reading the result: %v", p.label, err))
		}
		within := ""
		if c.Expected.Values != nil {
			d, worst := diff(t, want, tolerance(c, wantDT))
			if d != "" {
				return failure(fmt.Sprintf("%s: %s", p.label, d))
			}
			if worst > 0 {
				within = fmt.Sprintf(" (%s: within %d ulp)", p.label, worst)
			}
		}
		got = fmt.Sprintf("%v %v %s%s", p.out.Shape(), p.out.DType(), t.String(), within)
	}
	return pass(got)
}

func reason(e Expected) string {
	if e.Reason != "" {
		return e.Reason
	}
	return e.MessageSubstring
}

func expectation(c Case) string {
	if c.Expected.Shape.Present {
		return "shape " + c.Expected.Shape.Shape.String()
	}
	return "values"
}

// tolerance is the number of units in the last place (of the output type)
// by which a float result may differ from the expected value. It is 0
// (exact; NaN matches NaN) except for:
//
//   - power, from any source: the expected values come from libm pow
//     (NumPy, std::pow), which is not correctly rounded, and stride0 rounds
//     a float64 pow once: 1 ulp.
//   - arithmetic (add, subtract, multiply, divide, squared_difference, mod,
//     floor_mod, power) in cases copied from OpenVINO and nGraph tests: their
//     expected values are decimal literals of the mathematical result
//     (5.1 floor_mod 3 = 2.1, 1.1 + 2.2 = 3.3), each rounded once to the
//     type, while the computation rounds the inputs first and the sources
//     compare with a tolerance of their own: 4 ulp.
//
// ONNX cases (NumPy computed the expected values in the type) and this
// project's derived cases (exact values) get no other tolerance; data
// movement (Broadcast, Select, maximum, minimum, PRelu, comparisons) is
// always exact.
func tolerance(c Case, dt array.DType) int {
	if !dt.IsFloat() {
		return 0
	}
	if c.Kind == "numpy" {
		return c.ULP // the case says
	}
	op := opName(c)
	ulps := 0
	switch op {
	case "power", "pow":
		ulps = 1
	case "gemm":
		// the product is the checker's float64 loop, rounded once, where
		// NumPy accumulates in the type
		ulps = 4
	}
	if isONNX(c) || strings.HasPrefix(c.ID, "stride0/") {
		return ulps
	}
	switch op {
	case "add", "subtract", "multiply", "divide", "squared_difference", "mod", "floor_mod", "power":
		ulps = 4
	}
	return ulps
}

func isONNX(c Case) bool { return c.ONNXOpType != "" || strings.HasPrefix(c.ID, "onnx/") }

// opName is the case's op, lower case; a typed suite listing a single op
// stands for it.
func opName(c Case) string {
	op := strings.ToLower(c.Op)
	if op == "arithmetic" && len(c.Ops) == 1 {
		op = strings.ToLower(c.Ops[0])
	}
	if op == "" && c.ONNXOpType != "" {
		op = strings.ToLower(c.ONNXOpType)
	}
	return op
}

// ---- Broadcast ops ----

func (l *Library) broadcastCase(c Case, v variant) Result {
	if len(c.Inputs) < 1 {
		return malformed("a broadcast case needs the data input")
	}
	ts, r, ok := inputTensors(c, v, 1)
	if !ok {
		return r
	}
	var target []int
	if c.TargetShape.Present && c.TargetShape.Shape.RankKnown {
		t, ok := c.TargetShape.Shape.Static()
		if !ok {
			return l.shapeOnly(c, v, fmt.Sprintf("target_shape %v is not a static value", c.TargetShape.Shape))
		}
		target = t
	} else {
		return l.shapeOnly(c, v, "target_shape value unknown")
	}
	outDT := v.expectedDType
	if outDT == "" {
		outDT = v.inputs[0]
	}
	type run struct {
		label string
		mode  expr.Mode
		axes  []int
		err   error // op validation
	}
	var runs []run
	switch {
	case c.Kind == "ngraph_axes":
		if !c.BroadcastAxes.Known() {
			return malformed("an ngraph case needs broadcast_axes")
		}
		runs = append(runs, run{label: "v0", mode: expr.ModeNGraph, axes: nonNil(c.BroadcastAxes.Values)})
	case c.Kind == "expand" || c.Op == "expand":
		runs = append(runs, run{mode: expr.ModeBidirectional})
	default:
		versions := c.OpVersions
		if len(versions) == 0 {
			versions = []int{3}
		}
		for _, ver := range versions {
			label := fmt.Sprintf("v%d", ver)
			mode, err, skip := broadcastMode(c, ver)
			if skip != "" {
				return skipped(label + ": " + skip)
			}
			if err == nil {
				_, _, err = targetShape(c)
			}
			rn := run{label: label, mode: expr.Mode(mode), err: err}
			if err == nil && mode == "explicit" {
				if rn.err = axesMappingCheck(c); rn.err == nil {
					if !c.AxesMapping.Known() {
						return l.shapeOnly(c, v, "axes_mapping value unknown")
					}
					rn.axes = nonNil(c.AxesMapping.Values)
				}
			}
			runs = append(runs, rn)
		}
	}
	mem := l.mem()
	in, err := newArray(mem, ts[0])
	if err != nil {
		return failure("building the input: " + err.Error())
	}
	defer in.Release()
	rev, err := reversed(mem, ts[0])
	if err != nil {
		return failure("building the reversed input: " + err.Error())
	}
	defer rev.Release()
	var gots []string
	for _, rn := range runs {
		label := ""
		if len(runs) > 1 {
			label = rn.label + ": "
		}
		if rn.err != nil {
			// Rejected by the op's validation before any library code.
			if c.Expected.Error {
				gots = append(gots, label+"op validation: "+rn.err.Error())
				continue
			}
			return failure(fmt.Sprintf("%sexpected %s, got error: %v", label, expectation(c), rn.err))
		}
		paths := l.broadcastPaths(c, in, rn.mode, target, rn.axes, "")
		paths = append(paths, l.broadcastPaths(c, rev, rn.mode, target, rn.axes, " of a reversed input")...)
		res := judge(c, v, outDT, paths)
		if res.Status != Pass {
			res.Detail = label + res.Detail
			return res
		}
		gots = append(gots, label+res.Got)
	}
	return pass(strings.Join(gots, "; "))
}

// shapeOnly handles a case whose values cannot be computed because an
// input value is unknown: an expected error is left to the shape check,
// expected values are skipped.
func (l *Library) shapeOnly(c Case, v variant, why string) Result {
	if !c.Expected.Error {
		return skipped(why + ": nothing to evaluate")
	}
	for _, o := range evaluate(c, v) {
		if o.bad != "" {
			return malformed("%s", o.bad)
		}
		if o.skip != "" {
			return skipped(o.skip)
		}
		if d := compare(c.Expected, v, o); d != "" {
			return failure(d)
		}
	}
	return pass("shape check: error (" + why + ")")
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// broadcastPaths computes a Broadcast op three ways.
func (l *Library) broadcastPaths(c Case, in *array.Array, mode expr.Mode, target, axes []int, suffix string) []path {
	mem := l.mem()
	axis := pdpdAxis(c)
	var (
		vw  *array.Array
		err error
	)
	switch mode {
	case expr.ModeNumpy:
		vw, err = view.Numpy(in, target)
	case expr.ModeBidirectional:
		vw, err = view.Bidirectional(in, target)
	case expr.ModeExplicit:
		vw, err = view.Explicit(in, target, axes)
	case expr.ModePDPD:
		vw, err = view.PDPD(in, target, axis)
	case expr.ModeNGraph:
		vw, err = view.NGraph(in, target, axes)
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	viewPath := path{label: "view" + suffix, err: err}
	if err == nil {
		if vw.Len() > maxElements {
			viewPath.big = vw.Shape()
		} else {
			viewPath.out, viewPath.err = array.Copy(mem, vw)
		}
		vw.Release()
	}

	leaf := expr.Leaf(in)
	var node *expr.Node
	switch mode {
	case expr.ModeNumpy:
		node = expr.BroadcastNumpy(leaf, target)
	case expr.ModeBidirectional:
		node = expr.BroadcastBidirectional(leaf, target)
	case expr.ModeExplicit:
		node = expr.BroadcastExplicit(leaf, target, axes)
	case expr.ModePDPD:
		node = expr.BroadcastPDPD(leaf, target, axis)
	case expr.ModeNGraph:
		node = expr.BroadcastNGraph(leaf, target, axes)
	}
	paths := append([]path{viewPath}, l.eval("expr"+suffix, node)...)

	// The op form: target_shape and axes_mapping as index tensors.
	tArr, err := indexArray(mem, target, c.TargetShapeDType)
	if err != nil {
		return append(paths, path{label: "expr.Broadcast" + suffix, err: err})
	}
	defer tArr.Release()
	var aArr *array.Array
	if mode == expr.ModeExplicit || mode == expr.ModeNGraph {
		dt := c.AxesMappingDType
		if mode == expr.ModeNGraph {
			dt = ""
		}
		if aArr, err = indexArray(mem, axes, dt); err != nil {
			return append(paths, path{label: "expr.Broadcast" + suffix, err: err})
		}
		defer aArr.Release()
	}
	return append(paths, l.eval("expr.Broadcast"+suffix, expr.Broadcast(leaf, mode, tArr, aArr, axis))...)
}

// indexArray is a 1-D index tensor (target_shape, axes_mapping) of the
// case's integer type (i64 when not given or when the values do not fit).
func indexArray(mem memory.Allocator, v []int, dtName string) (*array.Array, error) {
	dt, err := array.ParseDType(dtName)
	if err != nil || !dt.IsInteger() {
		dt = array.Int64
	}
	raw := make([]byte, 0, 4*len(v)+2)
	raw = append(raw, '[')
	for k, x := range v {
		if k > 0 {
			raw = append(raw, ',')
		}
		raw = strconv.AppendInt(raw, int64(x), 10)
	}
	raw = append(raw, ']')
	t, err := decodeTensor(raw, dt, []int{len(v)})
	if err != nil {
		dt = array.Int64
		if t, err = decodeTensor(raw, dt, []int{len(v)}); err != nil {
			return nil, err
		}
	}
	return newArray(mem, t)
}

// eval evaluates a node three ways, refusing to materialize a huge
// result: expr.Eval with the default options; with 16-element tiles and 3
// workers; and expr.EvalInto a caller's transposed (non-contiguous) view,
// which is then read.
func (l *Library) eval(label string, n *expr.Node) []path {
	p := path{label: label}
	if p.err = n.Err(); p.err != nil {
		return []path{p}
	}
	s, ok := n.StaticShape()
	if ok {
		if size, err := broadcast.Size(s); err != nil || size > maxElements {
			p.big = s
			return []path{p}
		}
	}
	mem := l.mem()
	p.out, p.err = expr.Eval(n, expr.WithAllocator(mem))
	paths := []path{p}
	if p.err != nil || !ok {
		return paths
	}
	q := path{label: label + " (tile 16, 3 workers)"}
	q.out, q.err = expr.Eval(n, expr.WithAllocator(mem), expr.WithTileSize(16), expr.WithWorkers(3))
	paths = append(paths, q)
	return append(paths, l.evalInto(label+" (EvalInto a transposed view)", n, s))
}

// evalInto evaluates n into a transposed view of a new array: its axes
// reversed, so that every stride differs from the contiguous ones.
func (l *Library) evalInto(label string, n *expr.Node, shape []int) path {
	p := path{label: label}
	rev := slices.Clone(shape)
	slices.Reverse(rev)
	base, err := array.New(l.mem(), n.DType(), rev...)
	if err != nil {
		p.err = fmt.Errorf("allocating the output: %w", err)
		return p
	}
	defer base.Release()
	dst, err := view.Transpose(base)
	if err != nil {
		p.err = fmt.Errorf("transposing the output: %w", err)
		return p
	}
	if p.err = expr.EvalInto(dst, n, expr.WithAllocator(l.mem())); p.err != nil {
		dst.Release()
		return p
	}
	p.out = dst
	return p
}

// reversed returns a view holding t's values whose strides are all
// negative: the values stored back to front, then every axis reversed.
func reversed(mem memory.Allocator, t tensor) (*array.Array, error) {
	r := t
	switch {
	case t.dt == array.Bool:
		r.b = slices.Clone(t.b)
		slices.Reverse(r.b)
	case t.dt.IsSigned():
		r.i = slices.Clone(t.i)
		slices.Reverse(r.i)
	case t.dt.IsUnsigned():
		r.u = slices.Clone(t.u)
		slices.Reverse(r.u)
	default:
		r.f = slices.Clone(t.f)
		slices.Reverse(r.f)
	}
	base, err := newArray(mem, r)
	if err != nil {
		return nil, err
	}
	defer base.Release()
	ranges := make([]view.Range, len(t.shape))
	for k := range ranges {
		ranges[k] = view.Reverse()
	}
	return view.Slice(base, ranges...)
}

// ---- Element-wise ops ----

// binaryOp is an expr constructor of a binary element-wise op.
type binaryOp func(a, b *expr.Node, rule ...expr.Rule) *expr.Node

// elementwiseOp maps a case's op to the library, or says why it cannot.
func elementwiseOp(c Case) (binaryOp, string) {
	onnx := isONNX(c)
	switch op := opName(c); op {
	case "add":
		return expr.Add, ""
	case "subtract", "sub":
		return expr.Sub, ""
	case "multiply", "mul":
		return expr.Mul, ""
	case "divide":
		if onnx {
			return divide(expr.TruncDiv), ""
		}
		if b, ok := attrBool(c, "pythondivision", "python_division", "m_pythondivision"); ok && !b {
			return divide(expr.TruncDiv), ""
		}
		return divide(expr.FloorDiv), ""
	case "div":
		return divide(expr.TruncDiv), "" // ONNX Div: C division
	case "power", "pow":
		// OpenVINO Power and ONNX Pow: an integer to a negative power is
		// the real power truncated (numpy.power, kind numpy, refuses it)
		return expr.PowerTruncating, ""
	case "maximum", "max":
		return expr.Maximum, ""
	case "minimum", "min":
		return expr.Minimum, ""
	case "squared_difference", "squareddifference":
		return expr.SquaredDiff, ""
	case "floor_mod", "floormod":
		return expr.Remainder, ""
	case "mod":
		if onnx && attrInt(c, "fmod") == 0 {
			return expr.Remainder, ""
		}
		return expr.Fmod, ""
	case "equal":
		return expr.Equal, ""
	case "not_equal", "notequal":
		return expr.NotEqual, ""
	case "greater":
		return expr.Greater, ""
	case "greater_equal", "greaterequal", "greaterorequal":
		return expr.GreaterEqual, ""
	case "less":
		return expr.Less, ""
	case "less_equal", "lessequal", "lessorequal":
		return expr.LessEqual, ""
	case "logical_and", "and":
		return expr.LogicalAnd, ""
	case "logical_or", "or":
		return expr.LogicalOr, ""
	case "logical_xor", "xor":
		return expr.LogicalXor, ""
	case "prelu":
		return func(a, b *expr.Node, _ ...expr.Rule) *expr.Node { return expr.PRelu(a, b) }, ""
	case "arithmetic":
		return nil, fmt.Sprintf("arithmetic: the values of a typed suite run for %v belong to no single op", c.Ops)
	case "":
		return nil, "no op"
	default:
		return nil, fmt.Sprintf("op %q is not supported", c.Op)
	}
}

// divide is the OpenVINO and ONNX Divide: true division of floats, and
// intDiv (floor or truncating) of integers, which keeps their type.
func divide(intDiv binaryOp) binaryOp {
	return func(a, b *expr.Node, r ...expr.Rule) *expr.Node {
		if a.DType().IsInteger() && b.DType().IsInteger() {
			return intDiv(a, b, r...)
		}
		return expr.Div(a, b, r...)
	}
}

// attrBool reads the first boolean (or 0/1) attribute of the given names.
func attrBool(c Case, names ...string) (bool, bool) {
	for _, name := range names {
		raw, ok := c.Attributes[name]
		if !ok {
			continue
		}
		switch strings.TrimSpace(string(raw)) {
		case "true", "1":
			return true, true
		case "false", "0":
			return false, true
		}
	}
	return false, false
}

// elementwiseRule is the case's auto-broadcast rule.
func elementwiseRule(c Case) (expr.Rule, string, string) {
	name := strings.TrimPrefix(c.Kind, "elementwise_")
	axis := -1
	if ab := c.AutoBroadcast; ab != nil {
		if ab.Type != "" {
			name = strings.ToLower(ab.Type)
		}
		if ab.Axis != nil {
			axis = *ab.Axis
		}
	}
	switch name {
	case "numpy":
		return expr.Numpy, name, ""
	case "none", "explicit":
		return expr.NoBroadcast, "none", ""
	case "pdpd":
		return expr.PDPD(axis), name, ""
	case "unidirectional":
		return expr.Unidirectional, name, ""
	}
	return expr.Rule{}, name, fmt.Sprintf("auto_broadcast %q is not supported", name)
}

func isSelect(c Case) bool {
	op := opName(c)
	return op == "select" || op == "where"
}

func (l *Library) elementwiseCase(c Case, v variant) Result {
	if isGemm(c) {
		return l.gemmCase(c, v)
	}
	rule, ruleName, why := elementwiseRule(c)
	if why != "" {
		return skipped(why)
	}
	var op binaryOp
	arity := 2
	if isSelect(c) {
		arity = 3
	} else if op, why = elementwiseOp(c); why != "" {
		return skipped(why)
	}
	if len(c.Inputs) != arity {
		return malformed("%s needs %d inputs, has %d", opName(c), arity, len(c.Inputs))
	}
	// OpenVINO's element-type validation (not applied to ONNX cases).
	outDT, dtErr := elementwiseDType(c, v)
	if dtErr != nil {
		if c.Expected.Error {
			return pass("op validation: " + dtErr.Error())
		}
		return failure(fmt.Sprintf("expected %s, got error: %v", expectation(c), dtErr))
	}
	if v.expectedDType != "" {
		outDT = v.expectedDType
	}
	ts, r, ok := inputTensors(c, v, arity)
	if !ok {
		return r
	}
	// Integer division by zero: OpenVINO throws, stride0 defines x/0 = 0.
	if op != nil && c.Expected.Error && ts[1].dt.IsInteger() && ts[1].hasZero() {
		switch opName(c) {
		case "divide", "div", "mod", "floor_mod", "floormod":
			return skipped("integer division by zero: an error in the source, 0 in stride0 (documented)")
		}
	}
	mem := l.mem()
	arrs := make([]*array.Array, 0, arity)
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	for _, t := range ts {
		a, err := newArray(mem, t)
		if err != nil {
			return failure("building an input: " + err.Error())
		}
		arrs = append(arrs, a)
	}
	build := func(xs []*expr.Node, rule expr.Rule) *expr.Node {
		if op == nil {
			return expr.Where(xs[0], xs[1], xs[2], rule)
		}
		n := op(xs[0], xs[1], rule)
		// ONNX Pow's result has the base's type (the exponent may differ).
		if p := opName(c); (p == "pow" || p == "power") && isONNX(c) && n.Err() == nil && n.DType() != arrs[0].DType() {
			n = expr.Cast(n, arrs[0].DType())
		}
		return n
	}
	leaves := make([]*expr.Node, len(arrs))
	for k, a := range arrs {
		leaves[k] = expr.Leaf(a)
	}
	paths := l.eval("expr("+ruleName+")", build(leaves, rule))

	// The same over inputs laid out back to front (negative strides).
	revLeaves := make([]*expr.Node, len(ts))
	for k, t := range ts {
		a, err := reversed(mem, t)
		if err != nil {
			return failure("building a reversed input: " + err.Error())
		}
		arrs = append(arrs, a)
		revLeaves[k] = expr.Leaf(a)
	}
	paths = append(paths, l.eval("expr("+ruleName+") of reversed inputs", build(revLeaves, rule))...)

	// The same op over broadcast views of the operands.
	var views []*array.Array
	var err error
	switch ruleName {
	case "numpy":
		views, err = view.Multidirectional(arrs[:arity]...)
	case "unidirectional":
		var b *array.Array
		if b, err = view.Numpy(arrs[1], arrs[0].Shape()); err == nil {
			arrs[0].Retain()
			views = []*array.Array{arrs[0], b}
		}
	}
	if views != nil || err != nil {
		if err != nil {
			paths = append(paths, path{label: "views", err: err})
		} else {
			vl := make([]*expr.Node, len(views))
			for k, a := range views {
				vl[k] = expr.Leaf(a)
			}
			rule := expr.NoBroadcast
			if ruleName == "unidirectional" {
				rule = expr.Unidirectional
			}
			paths = append(paths, l.eval("expr over views", build(vl, rule))...)
			for _, a := range views {
				a.Release()
			}
		}
	}
	return judge(c, v, outDT, paths)
}
