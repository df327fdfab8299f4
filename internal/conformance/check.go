package conformance

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stride0/stride0/broadcast"
)

// Status is the outcome of checking a case.
type Status int

// The outcomes.
const (
	Pass Status = iota
	Fail
	Skip
)

// String returns "pass", "fail" or "skip".
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Skip:
		return "skip"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one case. Detail is the difference for a
// failure and the reason for a skip.
type Result struct {
	ID     string
	Status Status
	Detail string
	// Got is what the library computed for a checked shape case: the shape,
	// or "error: ..." (the last variant's, when a case has several).
	Got string
}

// String formats the result as one line: "PASS id", "FAIL id: detail" or
// "SKIP id: detail".
func (r Result) String() string {
	s := strings.ToUpper(r.Status.String()) + " " + r.ID
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// ValueChecker checks the cases that need evaluation (Case.NeedsEvaluation:
// those that expect element values, and those that expect an error and give
// input values). It reports false for a case it does not handle; an error
// case it declines is then shape-checked.
type ValueChecker interface {
	CheckValues(c Case) (Result, bool)
}

// Check checks one case: shape cases with package broadcast, value cases
// with vc (skipped when vc is nil or does not handle them).
func Check(c Case, vc ValueChecker) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{ID: c.ID, Status: Fail, Detail: fmt.Sprintf("panic: %v", p)}
		}
	}()
	if c.Err != nil {
		return Result{ID: c.ID, Status: Fail, Detail: "malformed case: " + c.Err.Error()}
	}
	if c.NeedsEvaluation() {
		if vc != nil {
			if r, ok := vc.CheckValues(c); ok {
				r.ID = c.ID
				return r
			}
		}
		if c.IsValueCase() {
			return Result{ID: c.ID, Status: Skip, Detail: "values: not evaluated (shape checks only)"}
		}
		// An expected error with input values and no evaluator: the
		// shape check below is all that can be done.
	}
	vars, reason := variants(c)
	if reason != "" {
		return Result{ID: c.ID, Status: Skip, Detail: reason}
	}
	got := ""
	for _, v := range vars {
		outs := evaluate(c, v)
		for _, o := range outs {
			label := ""
			if len(vars) > 1 {
				label += "dtype " + v.label + ": "
			}
			if len(outs) > 1 {
				label += o.label + ": "
			}
			switch {
			case o.bad != "":
				return Result{ID: c.ID, Status: Fail, Detail: "malformed case: " + o.bad}
			case o.skip != "":
				return Result{ID: c.ID, Status: Skip, Detail: label + o.skip}
			}
			got = o.String()
			if diff := compare(c.Expected, v, o); diff != "" {
				return Result{ID: c.ID, Status: Fail, Detail: label + diff, Got: got}
			}
		}
	}
	return Result{ID: c.ID, Status: Pass, Got: got}
}

// outcome is what the library computes for a case.
type outcome struct {
	label     string // the op version, when a case covers several
	shape     broadcast.Shape
	dtype     string
	axes      []int // get_broadcast_axes()
	axesKnown bool
	err       error
	skip      string // why the case cannot be checked
	bad       string // why the case is malformed
}

func (o outcome) String() string {
	if o.err != nil {
		// An error names the target as the package saw it (see targetShape).
		msg := markedUnknown.ReplaceAllString(o.err.Error(), "?")
		return "error: " + markedBound.ReplaceAllString(msg, "..?")
	}
	return o.shape.String()
}

var (
	markedUnknown = regexp.MustCompile(`\b0\.\.` + strconv.Itoa(markedHi) + `\b`)
	markedBound   = regexp.MustCompile(`\.\.` + strconv.Itoa(markedHi) + `\b`)
)

func failed(err error) outcome { return outcome{err: err} }

func compare(exp Expected, v variant, o outcome) string {
	if exp.Error {
		if o.err != nil {
			return ""
		}
		reason := exp.Reason
		if reason == "" {
			reason = exp.MessageSubstring
		}
		return fmt.Sprintf("expected error (%s), got shape %v", reason, o.shape)
	}
	if o.err != nil {
		return fmt.Sprintf("expected shape %v, got %s", exp.Shape.Shape, o)
	}
	if exp.Shape.Present && !sameShape(exp.Shape.Shape, o.shape) {
		return fmt.Sprintf("expected shape %v, got %v", exp.Shape.Shape, o.shape)
	}
	if want := v.expectedDType; want != "" && want != "dynamic" && o.dtype != "" && o.dtype != "dynamic" && want != o.dtype {
		return fmt.Sprintf("expected dtype %s, got %s", want, o.dtype)
	}
	if ea := exp.BroadcastAxes; ea.Present {
		switch {
		case ea.Null && o.axesKnown:
			return fmt.Sprintf("expected unknown broadcast axes, got %v", o.axes)
		case !ea.Null && !o.axesKnown:
			return fmt.Sprintf("expected broadcast axes %v, got unknown", ea.Values)
		case !ea.Null && !slices.Equal(sortedSet(ea.Values), sortedSet(o.axes)):
			return fmt.Sprintf("expected broadcast axes %v, got %v", ea.Values, o.axes)
		}
	}
	return ""
}

func sameShape(a, b broadcast.Shape) bool {
	if a.RankKnown != b.RankKnown {
		return false
	}
	return !a.RankKnown || slices.Equal(a.Dims, b.Dims)
}

func sortedSet(s []int) []int {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}

// evaluate computes the outcomes of a shape case, one per op version.
func evaluate(c Case, v variant) []outcome {
	switch k := c.Kind; {
	case strings.HasPrefix(k, "broadcast_"):
		versions := c.OpVersions
		if len(versions) == 0 {
			versions = []int{3}
		}
		outs := make([]outcome, len(versions))
		for i, ver := range versions {
			outs[i] = broadcastOp(c, v, ver)
			outs[i].shape = fromMarked(outs[i].shape)
			outs[i].label = fmt.Sprintf("v%d", ver)
		}
		return outs
	case k == "ngraph_axes":
		o := ngraphOp(c, v)
		o.shape = fromMarked(o.shape)
		return []outcome{o}
	case strings.HasPrefix(k, "elementwise_"):
		return []outcome{elementwise(c, v)}
	case k == "unidirectional":
		return []outcome{unidirectional(c, v)}
	case k == "expand":
		o := expand(c, v)
		o.shape = fromMarked(o.shape)
		return []outcome{o}
	}
	return []outcome{{skip: fmt.Sprintf("kind %q is not supported", c.Kind)}}
}

func unknownValue(n int) broadcast.Shape {
	d := make([]broadcast.Dim, n)
	for i := range d {
		d[i] = broadcast.UnknownDim()
	}
	return broadcast.Shape{Dims: d, RankKnown: true}
}

// targetShape is the target_shape input: its value when known; n unknown
// dims when only its length n is; unknown rank otherwise. tensorRank tells
// whether the rank of the target tensor itself is known.
//
// The broadcast package reads a target made only of unknown dims as "value
// unknown" (the Infer* convention). A case can also know the value to be all
// unknown dims (ShapeOf of a dynamic tensor), and OpenVINO then runs the
// checks that need the value; such a value is passed with 0..MaxInt dims,
// which the package does not read as unknown, and fromMarked turns them back
// into "?" in the result.
func targetShape(c Case) (target broadcast.Shape, tensorRank bool, err error) {
	in := c.TargetShapeInputShape
	if in.Present && in.Shape.RankKnown && len(in.Shape.Dims) != 1 {
		return broadcast.Shape{}, false, fmt.Errorf("broadcast shape rank must be 1, but has %d", len(in.Shape.Dims))
	}
	if c.TargetShape.Present && c.TargetShape.Shape.RankKnown {
		return toMarked(c.TargetShape.Shape), true, nil
	}
	if !in.Present || in.Null() {
		return broadcast.DynamicShape(), false, nil
	}
	if d := in.Shape.Dims[0]; d.IsStatic() {
		return unknownValue(d.Lo), true, nil
	}
	return broadcast.DynamicShape(), true, nil
}

// markedHi is the upper bound that stands for "unbounded" in a known target
// value (see targetShape).
const markedHi = math.MaxInt

func toMarked(s broadcast.Shape) broadcast.Shape {
	d := slices.Clone(s.Dims)
	for i := range d {
		if d[i].Hi == -1 {
			d[i].Hi = markedHi
		}
	}
	return broadcast.Shape{Dims: d, RankKnown: true}
}

func fromMarked(s broadcast.Shape) broadcast.Shape {
	if !s.RankKnown {
		return s
	}
	for i := range s.Dims {
		if s.Dims[i].Hi == markedHi {
			s.Dims[i].Hi = -1
		}
	}
	return s
}

// broadcastOp is an OpenVINO Broadcast-1 or Broadcast-3 op.
func broadcastOp(c Case, v variant, version int) outcome {
	if len(c.Inputs) < 1 {
		return outcome{bad: "a broadcast case needs the data input"}
	}
	mode, err, skip := broadcastMode(c, version)
	switch {
	case skip != "":
		return outcome{skip: skip}
	case err != nil:
		return failed(err)
	}
	data := c.Inputs[0].Shape
	target, tensorRank, err := targetShape(c)
	if err != nil {
		return failed(err)
	}
	o := outcome{dtype: v.inputs[0]}
	switch mode {
	case "numpy":
		o.shape, o.err = broadcast.InferNumpy(data, target)
		if o.err == nil {
			o.axes, o.axesKnown = staticAxes(data, o.shape, -1)
		}
	case "pdpd":
		axis := pdpdAxis(c)
		o.shape, o.err = broadcast.InferPDPD(data, target, axis)
		if o.err == nil {
			o.axes, o.axesKnown = staticAxes(data, o.shape, axis)
		}
	case "bidirectional":
		o.shape, o.err = broadcast.InferBidirectional(data, target)
		if o.err == nil {
			o.axes, o.axesKnown, o.err = broadcast.BidirectionalAxes(data, target)
		}
	case "explicit":
		return explicitOp(c, o, data, target, tensorRank)
	}
	return o
}

// broadcastMode is the mode a Broadcast-version op built from c runs in
// (numpy, pdpd, bidirectional or explicit), or the error OpenVINO's
// validation reports before it looks at shapes: the versions' input-count
// rules and a non-integral target_shape type. skip says why the case cannot
// be run at all.
func broadcastMode(c Case, version int) (mode string, err error, skip string) {
	mode = strings.ToLower(c.Mode)
	if mode == "" {
		mode = strings.TrimPrefix(c.Kind, "broadcast_")
	}
	if mode == "none" {
		mode = "explicit" // AutoBroadcastType::NONE is explicit
	}
	switch mode {
	case "numpy", "pdpd", "bidirectional", "explicit":
	default:
		return "", nil, fmt.Sprintf("broadcast mode %q is not supported", c.Mode)
	}
	var third bool // a third (axes_mapping) input is given
	if mode == "explicit" {
		third = !c.AxesMappingAbsent && (c.AxesMapping.Present || c.AxesMappingInputShape.Present)
	} else {
		third = !c.AxesMappingAbsent && (c.AxesMapping.Known() || c.AxesMappingInputShape.Present || c.AxesMappingDType != "")
	}
	switch version {
	case 3:
		if mode == "explicit" && !third {
			return "", fmt.Errorf("axes_mapping input should be provided if explicit mode is used"), ""
		}
		if mode != "explicit" && third {
			return "", fmt.Errorf("axes_mapping input should not be provided for mode other than explicit"), ""
		}
	case 1:
		if mode == "bidirectional" {
			return "", fmt.Errorf("Broadcast-1 has no bidirectional mode"), ""
		}
		if mode == "explicit" && !third {
			mode = "numpy" // v1 silently uses numpy with two inputs
		}
	default:
		return "", nil, fmt.Sprintf("Broadcast-%d is not a Broadcast op version (1 or 3)", version)
	}
	if dt := c.TargetShapeDType; !integral(dt) {
		return "", fmt.Errorf("broadcast shape must be an integral number, but is: %s", dt), ""
	}
	return mode, nil, ""
}

// pdpdAxis is the pdpd start axis of a Broadcast case (-1 when not given).
func pdpdAxis(c Case) int {
	if c.Axis != nil {
		return *c.Axis
	}
	if c.AutoBroadcast != nil && c.AutoBroadcast.Axis != nil {
		return *c.AutoBroadcast.Axis
	}
	return -1
}

// axesMappingCheck is OpenVINO's validation of the axes_mapping tensor
// itself: an integral type and rank 1.
func axesMappingCheck(c Case) error {
	if dt := c.AxesMappingDType; !integral(dt) {
		return fmt.Errorf("broadcast axes must be integral numbers, but are: %s", dt)
	}
	in := c.AxesMappingInputShape
	if in.Present && in.Shape.RankKnown && len(in.Shape.Dims) != 1 {
		return fmt.Errorf("broadcast axes rank must be 1, but has %d", len(in.Shape.Dims))
	}
	return nil
}

func explicitOp(c Case, o outcome, data, target broadcast.Shape, tensorRank bool) outcome {
	if err := axesMappingCheck(c); err != nil {
		return failed(err)
	}
	in := c.AxesMappingInputShape
	var axes []int // nil: value unknown
	length := -1   // -1: unknown
	if c.AxesMapping.Known() {
		axes = c.AxesMapping.Values
		if axes == nil {
			axes = []int{}
		}
		length = len(axes)
	} else if in.Present && !in.Null() && in.Shape.Dims[0].IsStatic() {
		length = in.Shape.Dims[0].Lo
	}
	if !tensorRank {
		// OpenVINO validates axes_mapping only when the rank of the
		// target tensor is known.
		axes, length = nil, -1
	}
	if axes == nil && length >= 0 && data.RankKnown {
		rank := len(data.Dims)
		if rank == 0 && length > 0 {
			rank = 1
		}
		if length != rank {
			return failed(fmt.Errorf("broadcast axes_mapping shape [%d] doesn't match rank of input tensor %d", length, rank))
		}
	}
	o.shape, o.err = broadcast.InferExplicit(data, target, axes)
	// get_broadcast_axes(): the output axes not in the mapping, known when
	// the target length and the mapping are.
	if o.err == nil && axes != nil && target.RankKnown {
		o.axesKnown = true
		o.axes = []int{}
		for i := range target.Dims {
			if !slices.Contains(axes, i) {
				o.axes = append(o.axes, i)
			}
		}
	}
	return o
}

// staticAxes is get_broadcast_axes() for numpy and pdpd: the output axes
// before the start axis or whose size differs from data's, known when both
// shapes are static.
func staticAxes(data, out broadcast.Shape, axis int) ([]int, bool) {
	d, ok := data.Static()
	o, ok2 := out.Static()
	if !ok || !ok2 {
		return nil, false
	}
	start := axis
	if start < 0 {
		start = len(o) - len(d)
	}
	axes := []int{}
	for i := range o {
		if i < start || i-start >= len(d) || o[i] != d[i-start] {
			axes = append(axes, i)
		}
	}
	return axes, true
}

// ngraphOp is nGraph's v0 Broadcast(arg, shape, broadcast_axes).
func ngraphOp(c Case, v variant) outcome {
	if len(c.Inputs) < 1 {
		return outcome{bad: "an ngraph case needs the arg input"}
	}
	if !c.BroadcastAxes.Known() {
		return outcome{bad: "an ngraph case needs broadcast_axes"}
	}
	shape, _, err := targetShape(c)
	if err != nil {
		return failed(err)
	}
	o := outcome{dtype: v.inputs[0]}
	o.shape, o.err = broadcast.InferNGraph(c.Inputs[0].Shape, shape, c.BroadcastAxes.Values)
	if o.err == nil {
		o.axes, o.axesKnown = sortedSet(c.BroadcastAxes.Values), true
	}
	return o
}

// elementwise is an element-wise op (Select included) with its
// auto-broadcast rule.
func elementwise(c Case, v variant) outcome {
	rule := strings.TrimPrefix(c.Kind, "elementwise_")
	axis := -1
	if ab := c.AutoBroadcast; ab != nil {
		if ab.Type != "" {
			rule = strings.ToLower(ab.Type)
		}
		if ab.Axis != nil {
			axis = *ab.Axis
		}
	}
	if rule == "explicit" {
		rule = "none"
	}
	shapes := make([]broadcast.Shape, len(c.Inputs))
	for i, in := range c.Inputs {
		shapes[i] = in.Shape
	}
	dtype, err := elementwiseDType(c, v)
	if err != nil {
		return failed(err)
	}
	o := outcome{dtype: dtype}
	if isSelect(c) {
		if len(shapes) != 3 {
			return outcome{bad: fmt.Sprintf("select needs 3 inputs, has %d", len(shapes))}
		}
		cond, then, els := shapes[0], shapes[1], shapes[2]
		switch rule {
		case "numpy":
			o.shape, o.err = broadcast.InferMultidirectional(els, then, cond)
		case "none":
			o.shape, o.err = broadcast.InferNone(els, then, cond)
		case "pdpd":
			if o.shape, o.err = broadcast.InferPDPDElementwise(then, els, axis); o.err == nil {
				o.shape, o.err = broadcast.InferPDPDElementwise(o.shape, cond, axis)
			}
		default:
			return outcome{skip: fmt.Sprintf("auto_broadcast %q is not supported", rule)}
		}
		return o
	}
	if len(shapes) == 0 {
		return outcome{bad: "an element-wise case needs inputs"}
	}
	switch rule {
	case "numpy":
		o.shape, o.err = broadcast.InferMultidirectional(shapes...)
	case "none":
		o.shape, o.err = broadcast.InferNone(shapes...)
	case "pdpd":
		if len(shapes) != 2 {
			return outcome{bad: fmt.Sprintf("pdpd needs 2 inputs, has %d", len(shapes))}
		}
		o.shape, o.err = broadcast.InferPDPDElementwise(shapes[0], shapes[1], axis)
	default:
		return outcome{skip: fmt.Sprintf("auto_broadcast %q is not supported", rule)}
	}
	return o
}

// unidirectional is ONNX unidirectional broadcasting: B (Gemm's C, PRelu's
// slope) broadcasts to A without changing it. A Gemm case with inputs A, B,
// C broadcasts C to the product's [M, N]; without C the result is [M, N].
func unidirectional(c Case, v variant) outcome {
	if isGemm(c) && (len(c.Inputs) == 2 || len(c.Inputs) == 3) {
		mn, err := gemmShape(c)
		if err != nil {
			return failed(err)
		}
		o := outcome{dtype: v.inputs[0], shape: mn}
		if len(c.Inputs) == 3 {
			o.shape, o.err = broadcast.InferNumpy(c.Inputs[2].Shape, mn)
		}
		return o
	}
	if len(c.Inputs) != 2 {
		return outcome{bad: fmt.Sprintf("unidirectional needs 2 inputs, has %d", len(c.Inputs))}
	}
	o := outcome{dtype: v.inputs[0]}
	o.shape, o.err = broadcast.InferNumpy(c.Inputs[1].Shape, c.Inputs[0].Shape)
	return o
}

func isGemm(c Case) bool {
	return c.Op == "gemm" || strings.EqualFold(c.ONNXOpType, "gemm")
}

// gemmShape is the [M, N] of Gemm(A, B) with transA and transB.
func gemmShape(c Case) (broadcast.Shape, error) {
	a, b := c.Inputs[0].Shape, c.Inputs[1].Shape
	if !a.RankKnown || !b.RankKnown {
		return broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.UnknownDim()}, RankKnown: true}, nil
	}
	if len(a.Dims) != 2 || len(b.Dims) != 2 {
		return broadcast.Shape{}, fmt.Errorf("gemm: A %v and B %v must be matrices", a, b)
	}
	m, ka := a.Dims[0], a.Dims[1]
	if attrInt(c, "transA") != 0 {
		m, ka = ka, m
	}
	kb, n := b.Dims[0], b.Dims[1]
	if attrInt(c, "transB") != 0 {
		kb, n = n, kb
	}
	if _, ok := broadcast.MergeDim(ka, kb); !ok {
		return broadcast.Shape{}, fmt.Errorf("gemm: inner dims %v and %v differ", ka, kb)
	}
	return broadcast.Shape{Dims: []broadcast.Dim{m, n}, RankKnown: true}, nil
}

func attrInt(c Case, name string) int {
	raw, ok := c.Attributes[name]
	if !ok {
		return 0
	}
	n, err := parseInt(raw)
	if err != nil {
		return 0
	}
	return n
}

// expand is ONNX Expand: bidirectional broadcasting of data and new_shape.
func expand(c Case, v variant) outcome {
	if len(c.Inputs) < 1 {
		return outcome{bad: "an expand case needs the data input"}
	}
	target, _, err := targetShape(c)
	if err != nil {
		return failed(err)
	}
	o := outcome{dtype: v.inputs[0]}
	o.shape, o.err = broadcast.InferBidirectional(c.Inputs[0].Shape, target)
	return o
}
