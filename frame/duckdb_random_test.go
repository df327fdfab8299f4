package frame_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stride0/stride0/frame"
)

// TestRandomAgainstDuckDB runs randomly built queries (fixed seed) with
// frame and with DuckDB over duckTable's Parquet file and compares the
// rows, as TestAgainstDuckDB does for its hand-written cases: filters of
// nested and/or/not over comparisons of arithmetic with nulls (SQL's
// three-valued logic), computed columns, grouped aggregates of every kind
// (NaN, nulls, one-row groups) after a filter, sorts on every key type in
// both directions with and without a limit, top-k, and joins after a
// filter. Each query is built twice from one random tree, once as SQL and
// once as frame calls, so a disagreement names both.
func TestRandomAgainstDuckDB(t *testing.T) {
	g := &queryGen{r: rand.New(rand.NewPCG(7, 11))}
	var cases []duckCase
	n := 200
	if raceOn {
		n = 60 // race_test.go
	}
	for i := 0; i < n; i++ {
		c := g.query()
		c.name = fmt.Sprintf("r%03d", i)
		cases = append(cases, c)
	}
	againstDuckDB(t, cases, 43, 3000, 700, 500)
}

// queryGen builds random queries over duckTable in both forms.
type queryGen struct{ r *rand.Rand }

// both is one expression as frame's source and as SQL; col says whether it
// reads a column (an expression of numbers alone folds as Python's
// arithmetic in frame: "~(1 > 0)" is the integer -2).
type both struct {
	f, s string
	col  bool
}

func (g *queryGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// num is a numeric expression of v (float64, nulls), i (int32, nulls) and
// k2 (int32 0..4): small enough that no integer overflows and no divisor is
// zero (SQL's x/0 is NULL, NumPy's inf).
func (g *queryGen) num(depth int) both {
	if depth <= 0 || g.r.IntN(3) == 0 {
		switch g.r.IntN(6) {
		case 0, 1:
			c := g.pick("v", "i", "k2")
			return both{c, c, true}
		case 2:
			c := g.pick("v", "i")
			return both{c, c, true}
		case 3:
			k := fmt.Sprint(g.r.IntN(21) - 10)
			return both{k, k, false}
		default:
			// DOUBLE in SQL: a literal 0.20 is a DECIMAL there, and
			// -0.80 + 1 >= 0.20 would be exact
			k := fmt.Sprintf("%.2f", g.r.Float64()*4-2)
			return both{k, k + "::DOUBLE", false}
		}
	}
	a, b := g.num(depth-1), g.num(depth-1)
	col := a.col || b.col
	switch g.r.IntN(6) {
	case 0:
		return both{"(" + a.f + " + " + b.f + ")", "(" + a.s + " + " + b.s + ")", col}
	case 1:
		return both{"(" + a.f + " - " + b.f + ")", "(" + a.s + " - " + b.s + ")", col}
	case 2:
		// times a constant: integer products of columns would overflow
		// int32, which wraps in frame (NumPy) and is an error in DuckDB
		k := fmt.Sprint(g.r.IntN(7) - 3)
		return both{"(" + a.f + " * " + k + ")", "(" + a.s + " * " + k + ")", a.col}
	case 3:
		// true division by a divisor >= 1 (k2 + 1) on both sides
		return both{"(" + a.f + " / (k2 + 1))", "(" + a.s + " / (k2 + 1))", true}
	case 4:
		return both{"abs(" + a.f + ")", "abs(" + a.s + ")", a.col}
	default:
		// -(x), not -x: SQL reads "--" as a comment
		return both{"(-(" + a.f + "))", "(-(" + a.s + "))", a.col}
	}
}

var sqlCmp = map[string]string{"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// pred is a boolean expression with nulls: comparisons of numbers, strings
// (utf8 and dictionary) and dates, null tests, the bool column, combined by
// and, or and not.
func (g *queryGen) pred(depth int) both {
	if depth <= 0 || g.r.IntN(3) == 0 {
		op := g.pick("==", "!=", "<", "<=", ">", ">=")
		switch g.r.IntN(8) {
		case 0, 1, 2:
			a, b := g.num(1), g.num(1)
			return both{"(" + a.f + " " + op + " " + b.f + ")", "(" + a.s + " " + sqlCmp[op] + " " + b.s + ")", a.col || b.col}
		case 3:
			k := fmt.Sprintf("k%02d", g.r.IntN(13))
			return both{fmt.Sprintf("(k1 %s %q)", op, k), fmt.Sprintf("(k1 %s '%s')", sqlCmp[op], k), true}
		case 4:
			k := g.pick("red", "green", "blue", "gray")
			return both{fmt.Sprintf("(kd %s %q)", op, k), fmt.Sprintf("(kd %s '%s')", sqlCmp[op], k), true}
		case 5:
			day := 8 + g.r.IntN(30) // duckTable's dates: 2022-01-08 + 0..29 days
			d := fmt.Sprintf("2022-%02d-%02d", 1+(day-1)/31, 1+(day-1)%31)
			return both{fmt.Sprintf("(d %s '%s')", op, d), fmt.Sprintf("(d %s DATE '%s')", sqlCmp[op], d), true}
		case 6:
			c := g.pick("v", "i", "k1", "b")
			if g.r.IntN(2) == 0 {
				return both{"is_null(" + c + ")", "(" + c + " IS NULL)", true}
			}
			return both{"is_not_null(" + c + ")", "(" + c + " IS NOT NULL)", true}
		default:
			return both{"b", "b", true}
		}
	}
	a := g.pred(depth - 1)
	switch g.r.IntN(5) {
	case 0:
		if !a.col {
			return a // ~ of a Python bool is an integer
		}
		return both{"~(" + a.f + ")", "(NOT " + a.s + ")", true}
	case 1, 2:
		b := g.pred(depth - 1)
		if !a.col && !b.col {
			return a
		}
		return both{"(" + a.f + " & " + b.f + ")", "(" + a.s + " AND " + b.s + ")", true}
	default:
		b := g.pred(depth - 1)
		if !a.col && !b.col {
			return a
		}
		return both{"(" + a.f + " | " + b.f + ")", "(" + a.s + " OR " + b.s + ")", true}
	}
}

// sortKeys are 1-3 random keys, each ascending or descending with nulls
// last (frame's default) or first, then id: frame's keys and SQL's ORDER
// BY.
func (g *queryGen) sortKeys() ([]frame.SortKey, string) {
	cols := []string{"k1", "k2", "kd", "v", "vn", "i", "b", "d", "ts"}
	g.r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	n := 1 + g.r.IntN(3)
	var keys []frame.SortKey
	var sql []string
	for _, c := range cols[:n] {
		k := frame.SortKey{Col: c, Desc: g.r.IntN(2) == 0, NullsFirst: g.r.IntN(3) == 0}
		keys = append(keys, k)
		sql = append(sql, c+map[bool]string{false: " ASC", true: " DESC"}[k.Desc]+map[bool]string{false: " NULLS LAST", true: " NULLS FIRST"}[k.NullsFirst])
	}
	keys = append(keys, frame.Asc("id"))
	sql = append(sql, "id")
	return keys, strings.Join(sql, ", ")
}

// agg is one random aggregate named a<j>: frame's and SQL's.
func (g *queryGen) agg(j int) (frame.Agg, string) {
	name := fmt.Sprintf("a%d", j)
	num := g.pick("v", "vn", "i", "k2")
	moment := g.pick("v", "i", "k2") // DuckDB's var and stddev of NaN are errors
	var a frame.Agg
	var s string
	switch g.r.IntN(15) {
	case 0:
		a, s = frame.Sum(num), "sum("+num+")"
	case 1:
		a, s = frame.Mean(num), "avg("+num+")"
	case 2:
		a, s = frame.Min(num), "min("+num+")"
	case 3:
		a, s = frame.Max(num), "max("+num+")"
	case 4:
		a, s = frame.Count(), "count(*)"
	case 5:
		a, s = frame.CountOf(num), "count("+num+")"
	case 6:
		if g.r.IntN(2) == 0 {
			a, s = frame.Var(moment, 0), "var_pop("+moment+")"
		} else {
			a, s = frame.Var(moment, 1), "var_samp("+moment+")"
		}
	case 7:
		if g.r.IntN(2) == 0 {
			a, s = frame.Std(moment, 0), "stddev_pop("+moment+")"
		} else {
			a, s = frame.Std(moment, 1), "stddev_samp("+moment+")"
		}
	case 8:
		c := g.pick("k1", "k2", "i", "kd", "d")
		a, s = frame.CountDistinct(c), "count(DISTINCT "+c+")"
	case 9:
		a, s = frame.Median(num), "median("+num+")::DOUBLE"
	case 10:
		q := []float64{0, 0.1, 0.25, 0.5, 0.9, 1}[g.r.IntN(6)]
		a, s = frame.Quantile(num, q), fmt.Sprintf("quantile_cont(%s, %g)::DOUBLE", num, q)
	case 11:
		if g.r.IntN(2) == 0 {
			a, s = frame.Any("b"), "bool_or(b)"
		} else {
			a, s = frame.All("b"), "bool_and(b)"
		}
	case 12:
		c := g.pick("k1", "d", "kd")
		if g.r.IntN(2) == 0 {
			a, s = frame.Min(c), "min("+c+")"
		} else {
			a, s = frame.Max(c), "max("+c+")"
		}
	case 13:
		if g.r.IntN(2) == 0 {
			a, s = frame.First(num), "first("+num+" ORDER BY id)"
		} else {
			a, s = frame.Last(num), "last("+num+" ORDER BY id)"
		}
	default:
		a, s = frame.Sum("k2"), "sum(k2)"
	}
	return a.As(name), s + " AS " + name
}

// query is one random query of one of six shapes.
func (g *queryGen) query() duckCase {
	var where both
	filtered := g.r.IntN(3) != 0
	if filtered {
		where = g.pred(1 + g.r.IntN(3))
	}
	whereSQL := ""
	filter := func(f frame.Frame) frame.Frame { return f }
	if filtered {
		whereSQL = " WHERE " + where.s
		src := where.f
		filter = func(f frame.Frame) frame.Frame { return f.Filter(src) }
	}
	switch g.r.IntN(6) {
	case 0: // filter
		if !filtered {
			where = g.pred(2)
			whereSQL = " WHERE " + where.s
			src := where.f
			filter = func(f frame.Frame) frame.Frame { return f.Filter(src) }
		}
		return duckCase{sql: "SELECT id FROM t" + whereSQL + " ORDER BY id",
			f: func(t, _ frame.Frame) frame.Frame { return filter(t).Select("id") }}
	case 1: // computed columns
		z, w := g.num(3), g.num(2)
		return duckCase{sql: "SELECT id, " + z.s + " AS z, " + w.s + " AS w FROM t" + whereSQL + " ORDER BY id",
			f: func(t, _ frame.Frame) frame.Frame {
				return filter(t).WithColumns(frame.Let("z", z.f), frame.Let("w", w.f)).Select("id", "z", "w")
			}}
	case 2: // grouped aggregates
		keyCols := []string{"k1", "k2", "kd", "b", "d"}
		g.r.Shuffle(len(keyCols), func(i, j int) { keyCols[i], keyCols[j] = keyCols[j], keyCols[i] })
		keys := keyCols[:g.r.IntN(3)]
		var aggs []frame.Agg
		var sel []string
		for j := 0; j < 1+g.r.IntN(4); j++ {
			a, s := g.agg(j)
			aggs = append(aggs, a)
			sel = append(sel, s)
		}
		sql := "SELECT " + strings.Join(append(append([]string{}, keys...), sel...), ", ") + " FROM t" + whereSQL
		var order []frame.SortKey
		if len(keys) > 0 {
			var ob []string
			for _, k := range keys {
				order = append(order, frame.Asc(k))
				ob = append(ob, k+" ASC NULLS LAST")
			}
			sql += " GROUP BY " + strings.Join(keys, ", ") + " ORDER BY " + strings.Join(ob, ", ")
		}
		return duckCase{sql: sql, f: func(t, _ frame.Frame) frame.Frame {
			out := filter(t).GroupBy(keys...).Agg(aggs...)
			if len(order) > 0 {
				out = out.Sort(order...)
			}
			return out
		}}
	case 3: // sort, maybe limited
		keys, ob := g.sortKeys()
		sql := "SELECT id FROM t" + whereSQL + " ORDER BY " + ob
		limit := int64(-1)
		if g.r.IntN(2) == 0 {
			limit = int64(g.r.IntN(40))
			sql += fmt.Sprintf(" LIMIT %d", limit)
		}
		return duckCase{sql: sql, f: func(t, _ frame.Frame) frame.Frame {
			out := filter(t).Sort(keys...)
			if limit >= 0 {
				out = out.Limit(limit)
			}
			return out.Select("id")
		}}
	case 4: // top-k
		keys, ob := g.sortKeys()
		k := int64(g.r.IntN(30))
		return duckCase{sql: fmt.Sprintf("SELECT id FROM t%s ORDER BY %s LIMIT %d", whereSQL, ob, k),
			f: func(t, _ frame.Frame) frame.Frame { return filter(t).TopK(k, keys...).Select("id") }}
	default: // joins on k1 (nulls never match)
		how := []frame.JoinHow{frame.Inner, frame.Left, frame.Semi, frame.Anti}[g.r.IntN(4)]
		sel, ob := "t.id, r.w", " ORDER BY t.id, r.w"
		joinSQL := map[frame.JoinHow]string{frame.Inner: "JOIN", frame.Left: "LEFT JOIN", frame.Semi: "SEMI JOIN", frame.Anti: "ANTI JOIN"}[how]
		if how == frame.Semi || how == frame.Anti {
			sel, ob = "id", " ORDER BY id"
		}
		// the filter applies to t before the join
		sql := "SELECT " + sel + " FROM (SELECT * FROM t" + whereSQL + ") t " + joinSQL + " r USING (k1)" + ob
		return duckCase{sql: sql, f: func(t, r frame.Frame) frame.Frame {
			j := filter(t).Join(r, how, "k1")
			if how == frame.Semi || how == frame.Anti {
				return j.Select("id").Sort(frame.Asc("id"))
			}
			return j.Select("id", "w").Sort(frame.Asc("id"), frame.Asc("w"))
		}}
	}
}
