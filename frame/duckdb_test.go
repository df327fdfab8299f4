package frame_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/internal/npmtest"
	"github.com/stride0/stride0/parquetio"
)

func TestMain(m *testing.M) {
	code := m.Run()
	npmtest.Cleanup()
	os.Exit(code)
}

// duckTable is the fixture of the DuckDB comparison: id int64 (the row
// number), k1 utf8 (12 values and nulls), k2 int32 (0..4), kd a
// dictionary<int32, utf8> (3 values), d date32, ts timestamp[us, UTC], v
// float64 (nulls, no NaN: comparisons of NaN differ, NumPy's in frame and
// DuckDB's own), vn float64 (NaN and nulls, for aggregates), i int32 (nulls),
// b bool (nulls), x a [4] float32 tensor (nulls).
func duckTable(mem memory.Allocator, r *rand.Rand, rows, batch int) []arrow.Record {
	xt, err := arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4}, nil, nil)
	if err != nil {
		panic(err)
	}
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "k1", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "k2", Type: arrow.PrimitiveTypes.Int32},
		{Name: "kd", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "vn", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "x", Type: xt, Nullable: true},
	}, nil)
	var recs []arrow.Record
	for at := 0; at < rows || (rows == 0 && at == 0); at += batch {
		b := arrowarray.NewRecordBuilder(mem, s)
		for id := at; id < min(rows, at+batch); id++ {
			b.Field(0).(*arrowarray.Int64Builder).Append(int64(id))
			if r.IntN(10) == 0 {
				b.Field(1).(*arrowarray.StringBuilder).AppendNull()
			} else {
				b.Field(1).(*arrowarray.StringBuilder).Append(fmt.Sprintf("k%02d", r.IntN(12)))
			}
			b.Field(2).(*arrowarray.Int32Builder).Append(int32(r.IntN(5)))
			if err := b.Field(3).(*arrowarray.BinaryDictionaryBuilder).AppendString([]string{"red", "green", "blue"}[r.IntN(3)]); err != nil {
				panic(err)
			}
			b.Field(4).(*arrowarray.Date32Builder).Append(arrow.Date32(19000 + r.IntN(30)))
			b.Field(5).(*arrowarray.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + int64(r.IntN(1000))*1_000_000))
			if r.IntN(8) == 0 {
				b.Field(6).(*arrowarray.Float64Builder).AppendNull()
			} else {
				b.Field(6).(*arrowarray.Float64Builder).Append(math.Round(r.Float64()*1e6) / 1e6)
			}
			switch r.IntN(20) {
			case 0:
				b.Field(7).(*arrowarray.Float64Builder).AppendNull()
			case 1:
				b.Field(7).(*arrowarray.Float64Builder).Append(math.NaN())
			default:
				b.Field(7).(*arrowarray.Float64Builder).Append(r.NormFloat64())
			}
			if r.IntN(6) == 0 {
				b.Field(8).(*arrowarray.Int32Builder).AppendNull()
			} else {
				b.Field(8).(*arrowarray.Int32Builder).Append(int32(r.IntN(2001) - 1000))
			}
			if r.IntN(7) == 0 {
				b.Field(9).(*arrowarray.BooleanBuilder).AppendNull()
			} else {
				b.Field(9).(*arrowarray.BooleanBuilder).Append(r.IntN(3) != 0)
			}
			xb := b.Field(10).(*arrowarray.ExtensionBuilder).Builder.(*arrowarray.FixedSizeListBuilder)
			if r.IntN(15) == 0 {
				xb.AppendNull()
			} else {
				xb.Append(true)
				for e := 0; e < 4; e++ {
					xb.ValueBuilder().(*arrowarray.Float32Builder).Append(float32(math.Round(r.NormFloat64()*1000) / 64))
				}
			}
		}
		recs = append(recs, b.NewRecord())
		b.Release()
	}
	return recs
}

// rightTable is the join's right side: k1 (with a duplicate and a null),
// w int64.
func rightTable(mem memory.Allocator) []arrow.Record {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k1", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "w", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	defer b.Release()
	for i := 0; i < 10; i++ {
		b.Field(0).(*arrowarray.StringBuilder).Append(fmt.Sprintf("k%02d", i))
		b.Field(1).(*arrowarray.Int64Builder).Append(int64(i * 10))
	}
	b.Field(0).(*arrowarray.StringBuilder).Append("k03")
	b.Field(1).(*arrowarray.Int64Builder).Append(333)
	b.Field(0).(*arrowarray.StringBuilder).AppendNull()
	b.Field(1).(*arrowarray.Int64Builder).Append(-1)
	return []arrow.Record{b.NewRecord()}
}

func writeParquetFile(t *testing.T, path string, recs []arrow.Record, rowGroup int) {
	t.Helper()
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	require.NoError(t, err)
	defer rr.Release()
	var buf bytes.Buffer
	require.NoError(t, parquetio.Write(&buf, rr, parquetio.WithRowGroupRows(rowGroup)))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// scan is the frame over a Parquet file, read anew by each run.
func scan(t *testing.T, mem memory.Allocator, path string) frame.Frame {
	t.Helper()
	return frame.ScanParquet(path, parquetio.WithAllocator(mem))
}

// duckCase is one query in both forms.
type duckCase struct {
	name string
	sql  string
	f    func(t, r frame.Frame) frame.Frame
}

var duckCases = []duckCase{
	{"filter", `SELECT id, k1, v FROM t WHERE v > 0.5 AND k2 <> 3 ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame { return t.Filter("(v > 0.5) & (k2 != 3)").Select("id", "k1", "v") }},
	{"filter nulls", `SELECT id FROM t WHERE i > 0 OR v < 0.25 ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame { return t.Filter("(i > 0) | (v < 0.25)").Select("id") }},
	{"strings", `SELECT id FROM t WHERE (k1 = 'k03' OR k1 >= 'k10') AND kd <> 'red' ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Filter(`(k1 == "k03" | k1 >= 'k10') & kd != 'red'`).Select("id")
		}},
	{"times", `SELECT id FROM t WHERE d >= DATE '2022-01-20' AND ts < TIMESTAMPTZ '2023-11-14 22:20:00+00' ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Filter(`d >= '2022-01-20' & ts < "2023-11-14 22:20:00"`).Select("id")
		}},
	// a null tensor row reads in DuckDB as a list of NULL elements, not NULL:
	// list_count finds those rows (see parquetio's Parquet interop test)
	{"is null", `SELECT id FROM t WHERE v IS NULL OR (k1 IS NOT NULL AND list_count(x) = 0) ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Filter(`is_null(v) | (is_not_null(k1) & is_null(x))`).Select("id")
		}},
	{"compute", `SELECT id, v * 2 + i AS z, list_sum(x) AS xs FROM t ORDER BY id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.WithColumns(frame.Let("z", "v * 2 + i"), frame.Let("xs", "sum(x, axis=1)")).Select("id", "z", "xs")
		}},
	{"group k1", `SELECT k1, count(*) AS n, sum(i) AS si, avg(v) AS mv, min(v) AS lo, max(v) AS hi,
		var_samp(v) AS vs, stddev_pop(v) AS sp, count(v) AS cv, count(DISTINCT k2) AS dk,
		median(v) AS med, quantile_cont(v, 0.25) AS q25, bool_or(b) AS anyb, bool_and(b) AS allb,
		first(v ORDER BY id) AS fv, last(v ORDER BY id) AS lv, min(k1) AS mk, max(d) AS md, epoch_ns(min(ts)) AS mts
		FROM t GROUP BY k1 ORDER BY k1`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy("k1").Agg(frame.Count().As("n"), frame.Sum("i").As("si"), frame.Mean("v").As("mv"),
				frame.Min("v").As("lo"), frame.Max("v").As("hi"), frame.Var("v", 1).As("vs"), frame.Std("v", 0).As("sp"),
				frame.CountOf("v").As("cv"), frame.CountDistinct("k2").As("dk"), frame.Median("v").As("med"),
				frame.Quantile("v", 0.25).As("q25"), frame.Any("b").As("anyb"), frame.All("b").As("allb"),
				frame.First("v").As("fv"), frame.Last("v").As("lv"), frame.Min("k1").As("mk"), frame.Max("d").As("md"),
				frame.Min("ts").As("mts")).Sort(frame.Asc("k1"))
		}},
	{"group NaN", `SELECT k2, avg(vn) AS m, min(vn) AS lo, max(vn) AS hi, sum(vn) AS s FROM t GROUP BY k2 ORDER BY k2`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy("k2").Agg(frame.Mean("vn").As("m"), frame.Min("vn").As("lo"), frame.Max("vn").As("hi"), frame.Sum("vn").As("s")).Sort(frame.Asc("k2"))
		}},
	{"group dict date", `SELECT kd, d, count(*) AS n, sum(k2) AS s FROM t GROUP BY kd, d ORDER BY kd, d`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy("kd", "d").Agg(frame.Count().As("n"), frame.Sum("k2").As("s")).Sort(frame.Asc("kd"), frame.Asc("d"))
		}},
	{"group tensor", `SELECT k2, [avg(x[1]), avg(x[2]), avg(x[3]), avg(x[4])]::FLOAT[4] AS mx,
		[max(x[1]), max(x[2]), max(x[3]), max(x[4])]::FLOAT[4] AS hx FROM t GROUP BY k2 ORDER BY k2`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy("k2").Agg(frame.Mean("x").As("mx"), frame.Max("x").As("hx")).Sort(frame.Asc("k2"))
		}},
	// SQL's corr is null where a variance is 0 (one row, say); DuckDB's NaN
	{"corr", `SELECT k2, kd, CASE WHEN isnan(corr(v, i)) THEN NULL ELSE corr(v, i) END AS r FROM t GROUP BY k2, kd ORDER BY k2, kd`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy("k2", "kd").Agg(frame.Corr("v", "i").As("r")).Sort(frame.Asc("k2"), frame.Asc("kd"))
		}},
	{"top two per group", `SELECT k2, id, v FROM (SELECT k2, id, v, row_number() OVER (PARTITION BY k2 ORDER BY v DESC, id) AS r
		FROM t WHERE v IS NOT NULL) WHERE r <= 2 ORDER BY k2, v DESC, id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Filter("is_not_null(v)").Sort(frame.Desc("v"), frame.Asc("id")).GroupBy("k2").Head(2).
				Select("k2", "id", "v").Sort(frame.Asc("k2"), frame.Desc("v"), frame.Asc("id"))
		}},
	{"global", `SELECT count(*) AS n, sum(i) AS s, avg(v) AS m FROM t`,
		func(t, _ frame.Frame) frame.Frame {
			return t.GroupBy().Agg(frame.Count().As("n"), frame.Sum("i").As("s"), frame.Mean("v").As("m"))
		}},
	{"sort", `SELECT id, k1, v FROM t ORDER BY k1 DESC NULLS LAST, v ASC NULLS LAST, id`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Sort(frame.Desc("k1"), frame.Asc("v"), frame.Asc("id")).Select("id", "k1", "v")
		}},
	{"topk", `SELECT id, v FROM t ORDER BY v DESC NULLS LAST, id LIMIT 7`,
		func(t, _ frame.Frame) frame.Frame {
			return t.TopK(7, frame.Desc("v"), frame.Asc("id")).Select("id", "v")
		}},
	{"inner", `SELECT t.id, r.w FROM t JOIN r USING (k1) ORDER BY t.id, r.w`,
		func(t, r frame.Frame) frame.Frame {
			return t.Select("id", "k1").Join(r, frame.Inner, "k1").Select("id", "w").Sort(frame.Asc("id"), frame.Asc("w"))
		}},
	{"left", `SELECT t.id, r.w FROM t LEFT JOIN r USING (k1) ORDER BY t.id, r.w`,
		func(t, r frame.Frame) frame.Frame {
			return t.Select("id", "k1").Join(r, frame.Left, "k1").Select("id", "w").Sort(frame.Asc("id"), frame.Asc("w"))
		}},
	{"semi", `SELECT id FROM t SEMI JOIN r USING (k1) ORDER BY id`,
		func(t, r frame.Frame) frame.Frame { return t.Join(r, frame.Semi, "k1").Select("id") }},
	{"anti", `SELECT id FROM t ANTI JOIN r USING (k1) ORDER BY id`,
		func(t, r frame.Frame) frame.Frame { return t.Join(r, frame.Anti, "k1").Select("id") }},
	{"empty", `SELECT k1, count(*) AS n FROM t WHERE id < 0 GROUP BY k1`,
		func(t, _ frame.Frame) frame.Frame { return t.Filter("id < 0").GroupBy("k1").Agg(frame.Count().As("n")) }},
	{"one row", `SELECT k1, sum(i) AS s, var_samp(v) AS vs FROM (SELECT * FROM t ORDER BY id LIMIT 1) GROUP BY k1`,
		func(t, _ frame.Frame) frame.Frame {
			return t.Limit(1).GroupBy("k1").Agg(frame.Sum("i").As("s"), frame.Var("v", 1).As("vs"))
		}},
	{"limit concat", `SELECT id FROM (SELECT id FROM t ORDER BY id LIMIT 5) UNION ALL SELECT id FROM (SELECT id FROM t WHERE k2 = 1 ORDER BY id LIMIT 3)`,
		func(t, _ frame.Frame) frame.Frame {
			return frame.Concat(t.Limit(5).Select("id"), t.Filter("k2 == 1").Limit(3).Select("id"))
		}},
}

// TestAgainstDuckDB runs each case with frame and with DuckDB over the
// same Parquet files (several row groups) and compares the rows: exactly
// for integers, strings, bools, dates and times, within 1e-9 relative for
// float64 and 1e-6 for float32 (absolute below 1).
func TestAgainstDuckDB(t *testing.T) {
	againstDuckDB(t, duckCases, 41, 5000, 1000, 700)
}

// againstDuckDB writes duckTable (rows rows from seed, in batches of batch)
// and rightTable as Parquet files (row groups of rowGroup rows), runs the
// cases' SQL in one DuckDB process and each case's frame query at 1 and 2
// workers, and compares the rows.
func againstDuckDB(t *testing.T, cases []duckCase, seed uint64, rows, batch, rowGroup int) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the DuckDB comparison (npm)")
	}
	prog := duckProgram(t)

	mem := checked(t)
	work := t.TempDir()
	tPath, rPath := filepath.Join(work, "t.parquet"), filepath.Join(work, "r.parquet")
	recs := duckTable(mem, rand.New(rand.NewPCG(seed, seed+1)), rows, batch)
	writeParquetFile(t, tPath, recs, rowGroup)
	release(recs)
	right := rightTable(mem)
	writeParquetFile(t, rPath, right, 100)
	release(right)

	queries := map[string]string{}
	for _, c := range cases {
		queries[c.name] = c.sql
	}
	duck := runDuck(t, prog, work, map[string]string{"t": tPath, "r": rPath}, queries)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(c.sql)
				}
			}()
			want, ok := duck[c.name]
			require.True(t, ok)
			checkDuck(t, mem, c, want, tPath, rPath)
		})
	}
}

type duckResult struct {
	Columns []string `json:"columns"`
	Types   []string `json:"types"`
	Rows    [][]any  `json:"rows"`
	Error   string   `json:"error"`
}

func runDuck(t *testing.T, prog, work string, tables, queries map[string]string) map[string]duckResult {
	t.Helper()
	in, out := filepath.Join(work, "queries.json"), filepath.Join(work, "duck.json")
	spec, err := json.Marshal(map[string]any{"tables": tables, "queries": queries})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(in, spec, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := exec.CommandContext(ctx, "node", prog, in, out).CombinedOutput()
	require.NoError(t, err, "node duckdb_queries.mjs:\n%s", res)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	var got map[string]duckResult
	require.NoError(t, json.Unmarshal(raw, &got))
	return got
}

// compareDuck checks tb's rows against DuckDB's.
func compareDuck(t *testing.T, tb *frame.Table, want duckResult) {
	t.Helper()
	require.Equal(t, want.Columns, tb.Columns())
	require.Equal(t, int64(len(want.Rows)), tb.NumRows(), "rows")
	rec := tb.Record()
	for c := 0; c < int(rec.NumCols()); c++ {
		col := rec.Column(c)
		for r := 0; r < len(want.Rows); r++ {
			got := cellOf(col, r)
			if !cellEqual(got, want.Rows[r][c]) {
				t.Fatalf("column %q row %d: frame %v, DuckDB %v (%s)", want.Columns[c], r, got, want.Rows[r][c], want.Types[c])
			}
		}
	}
}

// f32cell is a float32 cell, compared with a float32's tolerance.
type f32cell float32

// cellOf is row r of c in a comparable form: nil, an integer as a decimal
// string, a float64, an f32cell, a bool, a string, a date as YYYY-MM-DD, a
// timestamp as its nanoseconds since the epoch, a tensor as []any.
func cellOf(c arrow.Array, r int) any {
	if c.IsNull(r) {
		return nil
	}
	switch a := c.(type) {
	case *arrowarray.Int64:
		return strconv.FormatInt(a.Value(r), 10)
	case *arrowarray.Int32:
		return strconv.FormatInt(int64(a.Value(r)), 10)
	case *arrowarray.Int16:
		return strconv.FormatInt(int64(a.Value(r)), 10)
	case *arrowarray.Int8:
		return strconv.FormatInt(int64(a.Value(r)), 10)
	case *arrowarray.Uint64:
		return strconv.FormatUint(a.Value(r), 10)
	case *arrowarray.Uint32:
		return strconv.FormatUint(uint64(a.Value(r)), 10)
	case *arrowarray.Uint16:
		return strconv.FormatUint(uint64(a.Value(r)), 10)
	case *arrowarray.Uint8:
		return strconv.FormatUint(uint64(a.Value(r)), 10)
	case *arrowarray.Float64:
		return a.Value(r)
	case *arrowarray.Float32:
		return f32cell(a.Value(r))
	case *arrowarray.Boolean:
		return a.Value(r)
	case *arrowarray.String:
		return a.Value(r)
	case *arrowarray.LargeString:
		return a.Value(r)
	case *arrowarray.Dictionary:
		return cellOf(a.Dictionary(), a.GetValueIndex(r))
	case *arrowarray.Date32:
		return a.Value(r).FormattedString()
	case *arrowarray.Timestamp:
		// nanoseconds since the epoch: the SQL side selects epoch_ns(ts)
		return strconv.FormatInt(a.Value(r).ToTime(a.DataType().(*arrow.TimestampType).Unit).UnixNano(), 10)
	case arrowarray.ExtensionArray:
		return cellOf(a.Storage(), r)
	case *arrowarray.FixedSizeList:
		n := int(a.DataType().(*arrow.FixedSizeListType).Len())
		vals := a.ListValues()
		out := make([]any, n)
		for e := range out {
			out[e] = cellOf(vals, (a.Data().Offset()+r)*n+e)
		}
		return out
	}
	return fmt.Sprintf("unhandled %T", c)
}

// cellEqual compares a frame cell with DuckDB's JSON value.
func cellEqual(got, want any) bool {
	switch g := got.(type) {
	case nil:
		return want == nil
	case string:
		switch w := want.(type) {
		case string:
			return g == w || (len(w) > len(g) && w[:len(g)] == g && (w[len(g):] == "+00" || w[len(g):] == "Z"))
		case float64:
			return g == strconv.FormatFloat(w, 'f', -1, 64)
		}
	case f32cell:
		// float32 results (DuckDB computes in double, then casts): 1e-6
		// relative, absolute below 1
		return floatEqual(float64(g), want, 1e-6)
	case float64:
		return floatEqual(g, want, 1e-9)
	case bool:
		w, ok := want.(bool)
		return ok && g == w
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range g {
			if !cellEqual(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// floatEqual compares a float cell with DuckDB's JSON number (or its
// string form of NaN, infinities and huge values): equal, both NaN, or
// within tol relative (absolute below 1).
func floatEqual(g float64, want any, tol float64) bool {
	switch w := want.(type) {
	case float64:
		return g == w || math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))
	case string:
		switch w {
		case "NaN":
			return math.IsNaN(g)
		case "Infinity", "inf":
			return math.IsInf(g, 1)
		case "-Infinity", "-inf":
			return math.IsInf(g, -1)
		}
		f, err := strconv.ParseFloat(w, 64)
		return err == nil && floatEqual(g, f, tol)
	}
	return false
}

// duckProgram installs DuckDB's npm package (once per test binary) and
// returns the path of the query runner beside it.
func duckProgram(t *testing.T) string {
	t.Helper()
	dir := npmtest.Packages(t, "@duckdb/node-api@1.5.6-r.1")
	script, err := os.ReadFile(filepath.Join("testdata", "duckdb_queries.mjs"))
	require.NoError(t, err)
	prog := filepath.Join(dir, "duckdb_queries.mjs")
	require.NoError(t, os.WriteFile(prog, script, 0o644))
	return prog
}

// checkDuck runs case c with frame over the Parquet files left and right,
// at 1 and 2 workers, and compares each result with DuckDB's rows want.
func checkDuck(t *testing.T, mem memory.Allocator, c duckCase, want duckResult, left, right string) {
	t.Helper()
	require.Empty(t, want.Error, "DuckDB: %s", c.sql)
	for _, workers := range []int{1, 2} {
		f := c.f(scan(t, mem, left), scan(t, mem, right))
		require.NoError(t, f.Err())
		tb, err := f.Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
		require.NoError(t, err)
		func() {
			defer tb.Release() // also when compareDuck fails the test
			compareDuck(t, tb, want)
		}()
	}
}
