package expr_test

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
)

// parseBounded parses src in a goroutine and fails the test when it takes
// more than a few seconds or allocates more than 64 MiB: a fold whose guard
// overflowed ran without bound in time or memory (issue 17 item 10).
func parseBounded(t *testing.T, src string) (*expr.Node, error) {
	t.Helper()
	type result struct {
		n   *expr.Node
		err error
		pan any
	}
	done := make(chan result, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{pan: p}
			}
		}()
		n, err := expr.Parse(src, map[string]*expr.Node{})
		done <- result{n: n, err: err}
	}()
	select {
	case r := <-done:
		require.Nil(t, r.pan, "%.80s: Parse panicked", src)
		runtime.ReadMemStats(&after)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "%.80s: Parse allocated too much", src)
		return r.n, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("%.80s: Parse did not return within 10 s", src)
	}
	return nil, nil
}

// TestParseFoldBombs: folding Python ints stops at its size bound with a
// *ParseError (ErrOverflow) at the operator, whatever the operands, and the
// guards cannot overflow; the edge cases that Python computes cheaply (0, 1
// and -1 to huge powers, shifts of 0, right shifts by huge counts) fold to
// Python's values.
func TestParseFoldBombs(t *testing.T) {
	for _, c := range []struct {
		src string
		pos int
		msg string
	}{
		{"1 << 9223372036854775807", 2, "integer too large"},
		{"1 << 9223372036854775806", 2, "integer too large"},
		{"-1 << 4611686018427387904", 3, "integer too large"},
		{"3 << 4095", 2, "integer too large"},
		{"1 << 2**62", 2, "integer too large"},
		{"4 ** 4611686018427387904", 2, "integer too large"},
		{"2 ** 9223372036854775807", 2, "integer too large"},
		{"(-2) ** 4611686018427387905", 5, "integer too large"},
		{"3 ** 2**62", 2, "integer too large"},
		{"2**62 ** 2**62", 6, "integer too large"},
		{"(2**4000) ** 2", 10, "integer too large"},
		{"2 ** 4097", 2, "integer too large"},
		{"(2**2100) * (2**2100)", 10, "integer too large"},
		{"2 ** 2**2**2**2**2", 6, "integer too large"},
		{"2 ** -(2**4000)", 2, "int too large to convert to float"},
		{"1.5 ** (2**4000)", 4, "int too large to convert to float"},
		{"(2**4000) / 0.5", 10, "int too large to convert to float"},
		{"1e300 * (2**1100)", 6, "int too large to convert to float"},
		{"(2**4000) / 3 ** -1", 10, "int too large to convert to float"},
		{"1 + 2**4096", 5, "integer too large"},
		{"~(2**4095) - 2**4095", 11, "integer too large"},
		{"~0x" + strings.Repeat("f", 1024), 0, "integer too large"},
		{"-~0x" + strings.Repeat("f", 1024), 1, "integer too large"},
	} {
		n, err := parseBounded(t, c.src)
		require.Error(t, err, "%s", c.src)
		require.Nil(t, n, "%s", c.src)
		var pe *expr.ParseError
		require.True(t, errors.As(err, &pe), "%s: %T", c.src, err)
		require.ErrorIs(t, err, expr.ErrOverflow, "%s", c.src)
		require.Equal(t, c.pos, pe.Pos, "%s: %v", c.src, err)
		require.Contains(t, err.Error(), c.msg, "%s", c.src)
	}
	mem := checkedMem(t)
	for _, c := range []struct {
		src  string
		want int64
	}{
		{"0 << 9223372036854775807", 0},
		{"0 << 2**4000", 0},
		{"5 >> 9223372036854775807", 0},
		{"-5 >> 2**4000", -1},
		{"(2**4000) >> 3999", 2},
		{"1 << 4095 >> 4094", 2},
		{"0 ** 4611686018427387904", 0},
		{"0 ** 0", 1},
		{"1 ** 2**4000", 1},
		{"(-1) ** 9223372036854775807", -1},
		{"(-1) ** 2**4000", 1},
		{"(-1) ** (2**4000 + 1)", -1},
		{"True ** 9223372036854775807", 1},
		{"2 ** 4095 // 2 ** 4093", 4},
		{"-(2**63)", -1 << 63},
		{"(2**2047) * (2**2047) >> 4090", 16},
	} {
		n, err := parseBounded(t, c.src)
		require.NoError(t, err, "%s", c.src)
		out, err := expr.Eval(n, expr.WithAllocator(mem))
		require.NoError(t, err, "%s", c.src)
		require.Equal(t, array.Int64, out.DType(), "%s", c.src)
		require.Equal(t, c.want, arraytest.At[int64](t, out), "%s", c.src)
		out.Release()
	}
	// float literals with huge exponents are Python's: inf and 0
	for src, want := range map[string]float64{
		"1e999999999": math.Inf(1), "1e-999999999": 0, "-1e99999999999999999999": math.Inf(-1),
		"1e" + strings.Repeat("9", 60000): math.Inf(1), "0." + strings.Repeat("0", 60000) + "1e60001": 1,
	} {
		n, err := parseBounded(t, src)
		require.NoError(t, err, "%.40s", src)
		out, err := expr.Eval(n, expr.WithAllocator(mem))
		require.NoError(t, err, "%.40s", src)
		require.Equal(t, want, arraytest.At[float64](t, out), "%.40s", src)
		out.Release()
	}
}

// TestParseSizeBombs: long and deeply nested inputs end with ErrSyntax
// errors, quickly, never a stack overflow.
func TestParseSizeBombs(t *testing.T) {
	for _, c := range []struct {
		src string
		msg string
	}{
		{strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), "longer than MaxParseLength"},
		{strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000), "nested deeper than MaxParseDepth"},
		{strings.Repeat("-", 60000) + "1", "nested deeper than MaxParseDepth"},
		{strings.Repeat("not ", 16000) + "1", "nested deeper than MaxParseDepth"},
		{strings.Repeat("2**", 20000) + "2", "nested deeper than MaxParseDepth"},
		{strings.Repeat("sqrt(", 10000) + "1" + strings.Repeat(")", 10000), "nested deeper than MaxParseDepth"},
		{"1" + strings.Repeat("0", 60000), "integer literal of"},
		{"0x" + strings.Repeat("f", 60000), "integer literal of"},
		{"1" + strings.Repeat(" << 4000", 8000), "integer too large"},
		{"2" + strings.Repeat(" * 2", 16000), "integer too large"},
	} {
		_, err := parseBounded(t, c.src)
		require.Error(t, err, "%.40s", c.src)
		var pe *expr.ParseError
		require.True(t, errors.As(err, &pe), "%.40s: %T", c.src, err)
		require.Contains(t, err.Error(), c.msg, "%.40s", c.src)
	}
	// a long chain of folds that stays small is fine
	n, err := parseBounded(t, "0"+strings.Repeat(" + 1", 16000))
	require.NoError(t, err)
	require.Equal(t, array.Int64, n.DType())
}
