// Package frame is the table layer of stride0: lazy queries over streams of
// Arrow record batches whose columns may be tensors.
//
// A Frame is a plan, not data. A source (in-memory records, a
// RecordReader, named stride0 arrays) starts it; each verb (Select, Drop,
// Rename, WithColumns, Filter, Limit) returns a new Frame with one more
// step; nothing is read until a sink runs it (Collect, Reader). Each verb
// checks its arguments against the schema it receives, at once, so a
// misspelled column is an error of the verb that named it, with the columns
// there are and the nearest one; a Frame that holds an error carries it
// to its sink (Err reports it early), as Polars' LazyFrame does.
//
//	f := frame.FromRecords(recs...).
//		Filter("y > 0").
//		WithColumns(frame.Let("z", "(x - mean(x, axis=0)) / std(x, axis=0)")).
//		Select("site", "y", "z")
//	t, err := f.Collect(ctx)
//
// # Expressions
//
// Computed columns and filters are stride0 expressions (package expr) over
// the columns' names: Let and Filter take expr.Parse's syntax, LetExpr and
// FilterExpr a *expr.Node built with Col, which stands for a column as an
// expression variable of shape [rows, element shape...]. A fixed_shape_tensor
// column is a variable of rank 1 + its tensor's rank, so expressions
// broadcast over its element axes exactly as they do in expr: "x * w" with x
// a [4,4] tensor column and w a [4] column multiplies each row's matrix by
// that row's vector, broadcast over the matrix's rows.
//
// An expression whose row i depends on row i only (elementwise ops, casts,
// where, reductions over element axes) is evaluated batch by batch. One that
// reduces over the rows (mean(x, axis=0)) needs the whole column: the step
// holds its input (all batches) and evaluates once; its memory is the
// input's columns.
//
// Columns the array engine does not compute on (strings, dates, timestamps,
// dictionaries, nested types) pass through every verb unchanged; naming one
// in an expression is an error that says which column and why.
//
// # Streams and aggregates
//
// A RecordReader with computed columns is FromReader(rr).WithColumns(...)
// .Reader(ctx): each batch binds to rr's schema by name (another column
// order is fine; a missing, extra or retyped column ends the run with an
// error naming it) and comes out with its computed columns, one batch per
// worker in memory. Constants are expr.Leaf arrays in a LetExpr, broadcast
// along the rows. GroupBy().Agg(...) reduces a whole stream to one row.
//
// Aggregator is that reduction as a state of its own, for aggregates
// computed in pieces: Add batches, Merge Aggregators built elsewhere (the
// same states and merges as GroupBy's workers), Result, and
// MarshalBinary/UnmarshalBinary to move the state between processes (Beam's
// combiners in the beam module use it). Agg values encode as JSON.
//
// # Nulls and arithmetic
//
// Nulls follow Arrow's and SQL's rules: an expression of a null is null
// (validity masks propagate through expr), and/or/not in a Filter use
// three-valued logic, and Filter keeps a row only where its predicate is
// true, not where it is false or null. Arithmetic on the values follows
// NumPy (package expr), where SQL engines differ: x / 0 is ±Inf or NaN,
// not NULL; integer overflow wraps, not an error; NaN compares false with
// every number in expressions (DuckDB's comparisons put NaN above every
// number, as frame's Sort and Min/Max do); a literal such as 0.2 is a
// float64, not an exact decimal. TestRandomAgainstDuckDB holds frame to
// DuckDB's answers over random queries outside those differences.
//
// # Execution
//
// A sink runs the plan as a pipeline of batches: the source is read one
// batch at a time and each batch goes through the per-batch steps (project,
// compute, filter) on one of runtime.GOMAXPROCS workers (WithWorkers sets
// another count); results come out in the source's order. Memory is bounded
// by a batch per worker plus what the caller keeps, except for a step that
// holds its input (a column-wide expression) and for Collect, which holds
// its result. The context passed to a sink cancels the run.
package frame
