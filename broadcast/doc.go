// Package broadcast is the shape algebra of stride0: the broadcasting rules
// of the OpenVINO, ONNX and nGraph specifications, on shapes only (no data,
// no Arrow, only the standard library).
//
// # The idea
//
// A rule takes the input shapes (and its parameters: axes_mapping, axis,
// broadcast_axes) and yields the output shape plus, for every input, an
// AxisMap: AxisMap[i] is the output axis input axis i lands on. Everything a
// zero-copy view needs follows from the map. A mapped axis keeps its stride
// unless its dim is 1 and the output's is not, an output axis no input axis
// lands on gets stride 0 (Strides); and the gradient of the broadcast sums
// over exactly those stride-0 axes (Adjoint).
//
//	out, m, _ := broadcast.Numpy([]int{3, 1}, []int{2, 3, 4}) // [2 3 4], m = [1 2]
//	st, _ := broadcast.Strides([]int{3, 1}, []int{1, 1}, out, m) // [0 1 0]
//	sum, _ := broadcast.Adjoint([]int{3, 1}, out, m)             // [0 2]
//
// # The rules
//
//	Numpy             one-directional: Broadcast-1/3 "numpy", ONNX unidirectional
//	Multidirectional  ONNX multidirectional, elementwise "numpy", any number of shapes
//	Bidirectional     Broadcast-3 "bidirectional", ONNX Expand
//	Explicit          Broadcast-1/3 "explicit" with axes_mapping
//	PDPD              Broadcast-1/3 "pdpd" with a start axis
//	PDPDElementwise   elementwise "pdpd": B onto A
//	None              elementwise "none": equal shapes
//	NGraph            nGraph v0 Broadcast(arg, shape, broadcast_axes)
//
// Shapes are []int. A nil (or empty) shape is a scalar, of rank 0. Shapes
// passed in are never modified or retained; returned shapes and maps are
// fresh slices. No function panics, whatever its input.
//
// # Partial shapes
//
// To plan before the data exists (for example against an Arrow schema, with
// the row count unknown), the Infer* functions apply the same rules to
// partial shapes: a Dim is an interval (static, "?" or lo..hi) and a Shape
// may have unknown rank. They follow OpenVINO's shape inference, dim merges
// included (BroadcastMerge, MergeDim): a check runs only when every piece it
// needs is known, so inference may accept what evaluation later rejects,
// and on static shapes every Infer* function agrees with its static rule.
// (Like OpenVINO, InferPDPD stretches only a static 1: data 1..3 against a
// target dim of 5..7 is rejected although data 1 would do.) BidirectionalAxes reports what Broadcast-3's
// get_broadcast_axes() does.
//
// A target shape whose value is unknown but whose length n is known is
// passed as n UnknownDims, one of unknown length as DynamicShape(). A target
// made only of UnknownDims is therefore read as "value unknown", and the
// checks that need its value are skipped, as OpenVINO skips them when the
// target input is not a constant.
//
// # Errors
//
// Every error is an *Error naming the rule, every shape (Error.Partial holds
// the partial shapes of an Infer* function), the offending axis and the
// reason, and matches one of ErrIncompatible, ErrRank, ErrAxes,
// ErrShape or ErrOverflow with errors.Is:
//
//	broadcast numpy: cannot broadcast [3 1 5] to [4 4 5]: dim 0 is 3, target is 4
//
// # Where the documents disagree or are silent
//
// The specification pages leave details open; the OpenVINO implementation
// (as recorded in the conformance README) settles most of them. Where this
// package decides differently, it is stricter, never looser, and says why:
//
//   - Explicit: OpenVINO checks that axes_mapping is sorted with
//     std::is_sorted, which admits duplicates; two data axes on one output
//     axis are meaningless, so the mapping must be strictly increasing.
//   - Explicit: a data dim of 1 may land on any target dim (current
//     OpenVINO; the 2020 nGraph tests rejected it).
//   - PDPD (Broadcast op): OpenVINO does not check rank(data) ==
//     rank(target) - axis and its reference code reads past the data shape
//     when it is shorter; here any other rank is ErrRank.
//   - PDPDElementwise: the spec says trailing 1s of B are ignored. OpenVINO
//     resolves axis -1 with B's full rank and its shape inference checks the
//     fit (rank(B)+axis <= rank(A)) with the full rank too, before the
//     evaluator trims the 1s; both are kept here, the trimmed 1s getting
//     AxisMap entries of -1. A static B dim larger than its A dim is rejected
//     as in OpenVINO, which rules out a 1 onto a 0; a B dim of 0 onto an A
//     dim of 1 (which OpenVINO's merge would let shrink A) is rejected as
//     well, because the output is A.
//   - NGraph: broadcast_axes is a set: any order, but a repeated axis is
//     ErrAxes rather than silently merged.
//   - Infer*: a target of n unknown dims means "value unknown", and the checks
//     that need the value (ranks for numpy, order/range/dims for explicit)
//     are skipped, as OpenVINO does when the target input is not constant.
package broadcast
