// Package compute holds stride0's elementwise and reduction kernels. A kernel
// sees only memory, a length and (for gathers) a stride: it knows nothing of
// arrays, shapes or broadcasting, exactly like a NumPy inner loop. The
// expression engine (package expr) plans the iteration, walks the output tile
// by tile and calls these kernels on L1-sized runs.
//
// Calling convention. Kernels take unsafe.Pointer arguments and a count n so
// that the engine can dispatch on the element type once per plan, not once
// per element or per tile. A kernel looked up for a form reads each operand
// either as a vector of n elements (V) or as one element repeated (S, the
// stride-0 inner axis of a broadcast). Every lookup happens once, when a plan
// is built; the returned function values are then called per tile.
//
// Preconditions the caller guarantees (the engine does, and tests check):
// the destination of a binary, unary or cast kernel does not overlap its
// inputs (vek's AVX2 kernels panic otherwise), every vector holds at least n
// elements, and pointers are aligned for their element type.
//
// float32 and float64 arithmetic goes through github.com/viterin/vek (AVX2
// when the CPU has it, vek's Go code otherwise). The integer kernels are
// generic Go, generated from one template per operator (gen.go) so that each
// type gets its own tight loop with no per-element call. float16 has no
// arithmetic kernels: the engine computes half-precision in float32 and
// rounds each result back, which for +, -, *, / and sqrt gives the correctly
// rounded half result.
//
// Float sums have kernels of their own (LookupSum, sum.go): float32 values
// are widened and added into float64 accumulators, float64 values by
// TwoSum into an accumulator and its compensation, so that a sum's
// rounding error does not grow with the number of values or depend on
// how the values were split; MergeSums and FinishSums combine and end
// them. The variance partials (Moments, LaneMoments) keep their means and
// M2 compensated in the same way.
package compute

//go:generate go run gen.go
//go:generate go run asmgen.go
//go:generate go run vmathgen.go
//go:generate go run vmath32gen.go
