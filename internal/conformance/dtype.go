package conformance

import (
	"fmt"
	"slices"
	"strings"
)

// supportedDTypes are the element types stride0 has (package array), in the
// case files' names; "dynamic" is a shape-only test's undefined type.
var supportedDTypes = map[string]bool{
	"boolean": true, "i8": true, "i16": true, "i32": true, "i64": true,
	"u8": true, "u16": true, "u32": true, "u64": true,
	"f16": true, "f32": true, "f64": true, "dynamic": true,
}

// SupportedDType reports whether the library has the element type a case
// file names (boolean, i8..i64, u8..u64, f16, f32, f64; not u2 or bf16).
func SupportedDType(name string) bool { return name == "" || supportedDTypes[name] }

// integral reports whether a target_shape or axes_mapping element type is
// an integer type, as OpenVINO requires ("" = not given).
func integral(dt string) bool {
	return dt == "" || dt == "dynamic" || strings.HasPrefix(dt, "i") || strings.HasPrefix(dt, "u")
}

// variant is a case instantiated for one element type.
type variant struct {
	label         string
	inputs        []string // input element types
	expectedDType string
}

// variants lists the element-type instantiations of a case the library can
// run, or the reason it can run none.
func variants(c Case) ([]variant, string) {
	base := variant{label: "as given", expectedDType: c.Expected.DType}
	for _, in := range c.Inputs {
		base.inputs = append(base.inputs, in.DType)
	}
	if len(base.inputs) == 0 {
		base.inputs = []string{""}
	}
	// A case whose non-boolean inputs differ in type (an element-type
	// mismatch test) runs as given.
	first := ""
	for _, dt := range base.inputs {
		if dt != "boolean" && dt != "dynamic" {
			if first == "" {
				first = dt
			} else if dt != first {
				c.DTypes = nil
			}
		}
	}
	if len(c.DTypes) == 0 {
		for _, dt := range base.inputs {
			if !SupportedDType(dt) {
				return nil, fmt.Sprintf("dtype %s: not supported by the library", dt)
			}
		}
		return []variant{base}, ""
	}
	var out []variant
	for _, dt := range c.DTypes {
		if !SupportedDType(dt) {
			continue
		}
		v := variant{label: dt, expectedDType: base.expectedDType}
		for _, in := range base.inputs {
			if in != "boolean" && in != "dynamic" {
				in = dt
			}
			v.inputs = append(v.inputs, in)
		}
		if v.expectedDType != "" && v.expectedDType != "boolean" {
			v.expectedDType = dt
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("dtypes %v: none supported by the library", c.DTypes)
	}
	return out, ""
}

var (
	arithmeticOps = []string{"add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
		"squared_difference", "floor_mod", "mod", "sub", "mul", "div", "pow", "arithmetic"}
	comparisonOps = []string{"equal", "not_equal", "greater", "greater_equal", "less", "less_equal"}
	logicalOps    = []string{"logical_and", "logical_or", "logical_xor", "and", "or", "xor"}
)

// mergeDType merges element types as OpenVINO does: dynamic (or unset)
// merges with anything.
func mergeDType(a, b string) (string, bool) {
	switch {
	case a == "" || a == "dynamic":
		return b, true
	case b == "" || b == "dynamic" || a == b:
		return a, true
	}
	return "", false
}

func isBool(dt string) bool { return dt == "" || dt == "dynamic" || dt == "boolean" }

// elementwiseDType is the output element type of an element-wise op, or the
// element-type error OpenVINO reports. ONNX cases are not held to
// OpenVINO's element-type rules.
func elementwiseDType(c Case, v variant) (string, error) {
	onnx := c.ONNXOpType != "" || strings.HasPrefix(c.ID, "onnx/")
	dts := v.inputs
	merged, ok := "", true
	for _, dt := range dts {
		if merged, ok = mergeDType(merged, dt); !ok {
			break
		}
	}
	switch op := c.Op; {
	case isSelect(c):
		if len(dts) != 3 {
			return "", nil
		}
		if !isBool(dts[0]) {
			return "", fmt.Errorf("argument 0 must have boolean element type (element type: %s)", dts[0])
		}
		m, ok := mergeDType(dts[1], dts[2])
		if !ok {
			return "", fmt.Errorf("argument 1 and 2 element types must match")
		}
		return m, nil
	case slices.Contains(arithmeticOps, op):
		switch {
		case onnx:
			return dts[0], nil
		case !ok:
			return "", fmt.Errorf("arguments do not have the same element type: %v", dts)
		case merged == "boolean":
			return "", fmt.Errorf("arguments cannot have boolean element type")
		}
		return merged, nil
	case slices.Contains(comparisonOps, op):
		if !ok && !onnx {
			return "", fmt.Errorf("arguments do not have the same element type: %v", dts)
		}
		return "boolean", nil
	case slices.Contains(logicalOps, op):
		if !onnx {
			for _, dt := range dts {
				if !isBool(dt) {
					return "", fmt.Errorf("operands for logical operators must have boolean element type but have element type %s", dt)
				}
			}
		}
		return "boolean", nil
	}
	if !ok {
		return "", nil
	}
	return merged, nil
}
