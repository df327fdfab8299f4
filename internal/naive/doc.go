// Package naive is stride0's reference evaluator: it materializes views,
// broadcasts and reductions straight from their mathematical definitions,
// one element at a time through array.At, with no stride arithmetic of its
// own and nothing taken from packages broadcast or view beyond the AxisMap
// type. It is slow on purpose and kept small enough to be read in one sitting:
// tests of every later layer (view, compute, expr, arrowio) compare their
// results with it.
//
// Every function returns a new, contiguous array that the caller must
// Release; none modifies its input or panics. Equal and Close compare two
// arrays and return an error describing the first difference (nil when they
// agree), so any test can use them with require.NoError.
package naive
