// Package conformance reads broadcasting case files (the format of the
// shared conformance README: schema conformance-case-file/1) and checks
// them against the library.
//
//	f, err := conformance.Load("testdata/spec_doc_shape_cases.json")
//	for _, c := range f.Cases {
//		r := conformance.Check(c, nil) // Pass, Fail (Detail: the difference) or Skip (Detail: why)
//	}
//
// Shape cases are checked with package broadcast's partial-shape inference,
// the way OpenVINO's shape inference treats each kind:
//
//   - broadcast_numpy/explicit/pdpd/bidirectional: Broadcast-1 and -3 (every
//     version in op_versions must give the expected result). v3 requires
//     axes_mapping in explicit mode and rejects it otherwise; v1 built
//     without it falls back to numpy. target_shape null stands for a
//     target whose value is unknown (its length comes from
//     target_shape_input_shape); a target or axes tensor of rank other than
//     1 and a non-integer target or axes type are errors.
//     expected.broadcast_axes is compared with get_broadcast_axes().
//   - ngraph_axes: nGraph v0 Broadcast with broadcast_axes.
//   - elementwise_none/numpy/pdpd: the auto-broadcast rules, folded over
//     the inputs in OpenVINO's order; Select takes cond, then, else. The
//     element-type rules of arithmetic, comparison, logical and Select ops
//     apply (not to ONNX cases).
//   - unidirectional and expand: ONNX (Gemm's C against [M, N]).
//   - numpy: a NumPy 2 function over arrays and Python scalars (weak
//     inputs), with args and an ulp tolerance; always evaluated by the
//     ValueChecker (see numpy.go for the functions it maps; those of issue
//     11, such as var, sort or matmul, skip with that reason).
//
// Cases that need evaluation (Case.NeedsEvaluation: expected values, or an
// expected error with input values) go to a ValueChecker; without one, a
// value case is skipped ("values: not evaluated (shape checks only)") and an
// error case is shape-checked. Library is the ValueChecker that computes
// them with stride0 (package view and package expr): see its doc for the
// op mapping, the integer semantics of each source and the float
// tolerances. A case whose element types are all outside the library's
// (u2, bf16, ...) is skipped; a case that cannot be read, or whose values
// are malformed (wrong count, not numbers), fails with "malformed case".
package conformance
