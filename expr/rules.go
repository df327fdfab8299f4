package expr

import "fmt"

// Mode selects the rule of a Broadcast node (OpenVINO Broadcast-1/3 and
// nGraph Broadcast).
type Mode string

// The Broadcast modes.
const (
	ModeNumpy         Mode = "numpy"         // one-directional: data to exactly target
	ModeBidirectional Mode = "bidirectional" // numpy.array(data) * numpy.ones(target) (ONNX Expand)
	ModeExplicit      Mode = "explicit"      // axes_mapping says where each data axis goes
	ModePDPD          Mode = "pdpd"          // data aligned at a start axis of target
	ModeNGraph        Mode = "ngraph"        // nGraph v0: broadcast_axes are the new output axes
)

// Rule is the auto-broadcast rule of an elementwise op. The zero Rule is
// Numpy.
type Rule struct {
	kind ruleKind
	axis int
}

type ruleKind uint8

const (
	ruleNumpy ruleKind = iota
	ruleNone
	rulePDPD
	ruleUni
)

var (
	// Numpy is multidirectional broadcasting (NumPy, ONNX): right-aligned,
	// each dim equal or 1. It is the default.
	Numpy = Rule{}
	// NoBroadcast requires every operand to have the same shape.
	NoBroadcast = Rule{kind: ruleNone}
	// Unidirectional broadcasts the second operand onto the first, whose
	// shape is the result's (ONNX Gemm's C, PRelu's slope).
	Unidirectional = Rule{kind: ruleUni}
)

// PDPD is the PaddlePaddle rule: the second operand is broadcast onto the
// first starting at axis (-1: aligned to the right); trailing 1s of the
// second operand are ignored.
func PDPD(axis int) Rule { return Rule{kind: rulePDPD, axis: axis} }

// String names the rule: "numpy", "none", "pdpd(axis=N)" or
// "unidirectional".
func (r Rule) String() string {
	switch r.kind {
	case ruleNone:
		return "none"
	case rulePDPD:
		return fmt.Sprintf("pdpd(axis=%d)", r.axis)
	case ruleUni:
		return "unidirectional"
	}
	return "numpy"
}
