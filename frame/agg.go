package frame

import (
	"fmt"
	"math"
)

// aggOp names an aggregate.
type aggOp uint8

const (
	aggCount aggOp = iota + 1 // rows (Count) or valid values (CountOf)
	aggSum
	aggMean
	aggVar
	aggStd
	aggMin
	aggMax
	aggFirst
	aggLast
	aggAny
	aggAll
	aggDistinct
	aggQuantile // and median
	aggCorr     // Pearson's correlation of two columns
)

var aggNames = map[aggOp]string{
	aggCount: "count", aggSum: "sum", aggMean: "mean", aggVar: "var", aggStd: "std",
	aggMin: "min", aggMax: "max", aggFirst: "first", aggLast: "last", aggAny: "any",
	aggAll: "all", aggDistinct: "count_distinct", aggQuantile: "quantile", aggCorr: "corr",
}

// Agg is one aggregate of GroupBy(...).Agg: an operation over a column's
// values in each group, named (by default) after the column, as Polars
// names them; As renames it.
//
// Aggregates skip nulls, as SQL's do: a group with no valid value gives a
// null (Count and CountDistinct give 0). A fixed_shape_tensor column is
// aggregated per element: the mean of a [4,4] column is a [4,4] tensor per
// group. Sums of integers are exact (int64, or uint64 for unsigned types; an
// overflow is an error), sums and moments of floats accumulate in float64
// with compensation, and merge across workers by Chan's formulas, so a
// result does not depend on the worker count beyond float64 rounding. NaN
// orders above every number (as in DuckDB): max of {1, NaN} is NaN, min is 1.
type Agg struct {
	op   aggOp
	col  string // "" for Count()
	col2 string // Corr's second column
	name string
	ddof int
	q    float64
	err  error
}

// As names the aggregate's output column.
func (a Agg) As(name string) Agg { a.name = name; return a }

// Count is the number of rows in each group (SQL's count(*)), named "count".
func Count() Agg { return Agg{op: aggCount, name: "count"} }

// CountOf is the number of valid (non-null) values of col in each group.
func CountOf(col string) Agg { return Agg{op: aggCount, col: col} }

// Sum is the sum of col: int64 for bools and signed integers, uint64 for
// unsigned ones, the column's type for floats.
func Sum(col string) Agg { return Agg{op: aggSum, col: col} }

// Mean is the arithmetic mean of col: float64 for integers and bools, the
// column's type for floats.
func Mean(col string) Agg { return Agg{op: aggMean, col: col} }

// Var is the variance of col with ddof delta degrees of freedom (0: the
// population's, 1: the sample's, as SQL's var_samp); null where a group has
// no more than ddof valid values.
func Var(col string, ddof int) Agg {
	return Agg{op: aggVar, col: col, ddof: ddof, err: checkDdof(ddof)}
}

// Std is the standard deviation of col with ddof, the square root of Var.
func Std(col string, ddof int) Agg {
	return Agg{op: aggStd, col: col, ddof: ddof, err: checkDdof(ddof)}
}

func checkDdof(ddof int) error {
	if ddof < 0 {
		return fmt.Errorf("%w: ddof %d is negative", ErrArgument, ddof)
	}
	return nil
}

// Min is the least value of col (numbers, bools, strings).
func Min(col string) Agg { return Agg{op: aggMin, col: col} }

// Max is the greatest value of col (numbers, bools, strings).
func Max(col string) Agg { return Agg{op: aggMax, col: col} }

// First is col's value in the first row of each group, in the source's
// order (null if that row's is).
func First(col string) Agg { return Agg{op: aggFirst, col: col} }

// Last is col's value in the last row of each group.
func Last(col string) Agg { return Agg{op: aggLast, col: col} }

// Any is whether some valid value of col is true (non-zero).
func Any(col string) Agg { return Agg{op: aggAny, col: col} }

// All is whether every valid value of col is true (non-zero).
func All(col string) Agg { return Agg{op: aggAll, col: col} }

// CountDistinct is the number of distinct valid values of col (floats: -0
// is 0, and NaNs are one value).
func CountDistinct(col string) Agg { return Agg{op: aggDistinct, col: col} }

// Median is Quantile(col, 0.5).
func Median(col string) Agg { return Agg{op: aggQuantile, col: col, q: 0.5, name: col} }

// Quantile is the q-th quantile of col's valid values, interpolated
// linearly between the two nearest (NumPy's default method, DuckDB's
// quantile_cont). Its input is held in memory, per group.
func Quantile(col string, q float64) Agg {
	a := Agg{op: aggQuantile, col: col, q: q}
	if !(q >= 0 && q <= 1) || math.IsNaN(q) {
		a.err = fmt.Errorf("%w: quantile %v is outside [0, 1]", ErrArgument, q)
	}
	return a
}

// Corr is Pearson's correlation coefficient of columns a and b (numbers)
// over the rows where both are valid, as SQL's corr(a, b): float64, null
// for a group of fewer than two such rows, NaN when a or b is constant.
// Named "corr_a_b" by default.
func Corr(a, b string) Agg { return Agg{op: aggCorr, col: a, col2: b, name: "corr_" + a + "_" + b} }

// outName is the aggregate's column name.
func (a Agg) outName() string {
	if a.name != "" {
		return a.name
	}
	return a.col
}

func (a Agg) String() string {
	c := a.col
	if c == "" {
		c = "*"
	}
	switch a.op {
	case aggVar, aggStd:
		return fmt.Sprintf("%s(%s, ddof=%d)", aggNames[a.op], c, a.ddof)
	case aggQuantile:
		return fmt.Sprintf("quantile(%s, %v)", c, a.q)
	case aggCorr:
		return fmt.Sprintf("corr(%s, %s)", c, a.col2)
	}
	return fmt.Sprintf("%s(%s)", aggNames[a.op], c)
}
