// Package beam runs stride0's Arrow expressions as Apache Beam pipelines
// (Beam's Go SDK), so that the same pipeline runs in-process on Beam's local
// runner prism and, unchanged, on Dataflow, Flink or Spark through Beam's
// portable runners.
//
// It lives in its own Go module (github.com/stride0/stride0/beam) so that
// users of the core module never download Beam. Import it beside Beam's own
// package, for example as
//
//	import (
//		"github.com/apache/beam/sdks/v2/go/pkg/beam"
//		sbeam "github.com/stride0/stride0/beam"
//	)
//
// # Batches between steps
//
// A PCollection of Batch holds record batches, each encoded as one Arrow
// IPC stream (schema and one batch). Its coder writes the bytes as they are
// and keeps the bytes it decodes, so an element is copied once when Beam
// moves it between workers and not again by the coder. NewBatch encodes an
// arrow.Record; Batch.Reader decodes it with arrowio.ReadStream (hardened
// against malformed bytes).
//
// # Sources and sinks
//
// ReadIPC expands a glob (through Beam's filesystem registry: local paths,
// and gs:// and others where their packages are imported) into file names
// inside the pipeline, redistributes them, and reads each IPC file in a
// DoFn, one Batch per record batch: a pipeline is split by file, and no
// data is embedded in the pipeline graph. WriteIPC writes a PCollection of
// Batch as IPC files, one per shard.
//
// ReadParquet does the same for Parquet files (parquetio.Read, so
// arrow.fixed_shape_tensor columns arrive intact), split by file and row
// group: each local file's footer is read inside the pipeline
// (parquetio.Info) to cut it into work items of a few row groups,
// which are redistributed and read in a DoFn; WithColumns reads only some
// columns. Files of filesystems without random access (gs://, s3://) are
// one work item each, read whole into memory. WriteParquet writes a
// PCollection of Batch as Parquet files, one per shard (grouped by shard),
// or with WithFilePerBundle one per bundle as the batches arrive
// (parquetio.Writer; nothing grouped, so memory stays bounded on
// runners such as prism that hold grouped data in memory).
//
// # Expressions
//
// Evaluate adds columns computed from expression strings (expr.Parse's
// language, the wire form of an expression), as frame's WithColumns adds
// them in one process (it runs each batch through it): each worker rebuilds
// the tree from the string and the batch's schema, so nothing but text is
// serialized. An expression must compute row i from row i alone. Constants and small arrays come as a side input of one-row
// batches; each of their columns is a constant of the expressions, named
// after the column.
//
// Filter keeps the rows of each batch where a predicate holds, with
// package frame's Filter (the same text and SQL's null rule), so a query's
// filter reads the same in one process and on Beam.
//
// # Aggregates
//
// Aggregate computes package frame's aggregates (frame.Sum, Mean, Var, Std,
// Min, Max, Count, CountOf, First, Last, Any, All, CountDistinct, Median,
// Quantile, Corr; the same frame.Agg values a query passes to
// GroupBy().Agg) over every row of a PCollection of Batch as a
// beam.Combine: each worker folds its batches into a frame.Aggregator, and
// Beam merges the Aggregators (as frame merges its workers' group tables:
// exactly for integers, counts, min and max; by Chan's formulas for
// moments), encoded between workers by the Aggregator's compact binary
// state. Aggregates travel as JSON (frame.Agg's MarshalJSON). The output
// is one Batch of one row, a column per aggregate named as frame names it
// (a tensor column's aggregate a fixed_shape_tensor column of one row):
// the constants side input Evaluate takes, so that standardizing is
// Aggregate then Evaluate. An aggregate of an expression is Evaluate then
// Aggregate. An empty input PCollection gives an empty output (no schema,
// no results); batches of no rows give the aggregates over no rows (Count
// 0, the others null).
//
// GroupBy(s, batches, keys, aggs...) is frame's GroupBy(keys...).Agg(aggs...):
// one one-row Batch per group, the key columns then the aggregates (null
// keys form a group). AggregatePerKey does Aggregate per key of a
// PCollection of KV<K, Batch>; KeyByColumn makes one from batches by
// splitting each by the values of a string or integer column.
//
// # Testing pipelines
//
// Beam's loopback submission (the Go SDK's runnerlib.Execute, 2.68) leaves
// an empty beamloopbackworker-* file in os.TempDir for every pipeline it
// runs. This module's tests run through internal/testmain, which points
// TMPDIR at a private directory it removes; a program that runs many
// pipelines can do the same.
//
// # Example
//
// examples/standardize standardizes a tensor column over a folder of
// Parquet files: ReadParquet (only the column) into Aggregate for its mean
// and standard deviation, then ReadParquet again into Evaluate with them as
// a side input, then WriteParquet, on prism by default and on any runner by
// Beam's flags. Its --local flag runs the same two passes with frame and
// parquetio alone, the baseline the pipeline is measured against.
package beam
