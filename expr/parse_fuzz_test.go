package expr_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// FuzzParse feeds any text to Parse: it must not panic, an error must be a
// *ParseError with a position inside the text (or at its end) and no node,
// and a node must be valid and evaluate (or fail cleanly) without leaking.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 60s ./expr/
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x + y * 2", "-x**2", "2**3**2", "2**-1", "(x - mean(x)) / std(x)", "where(b, x, -x)",
		"sum(y, axis=(0, 1), keepdims=True)", "mean(y, axis=-1)", "clip(x, 0, None)", "round(y, 2)",
		"i << 2 | i >> 1 ^ ~i & 7", "x < y <= 3 != b", "not b and b or not b", "arctan2(x, 1.5e3)",
		"u + 300", "u * -1", "0x1f + 0o7 + 0b1 + 1_0", "1/0", "2**10**10", "x +", "(x", "x ) ",
		"sqrt(x, out=y)", "max(i, 0)", "isnan(x / 0.0)", "x if b else y", "lambda: 1", "\xff", "(((x)))",
		"fmax(x, y) + hypot(x, y) - copysign(1, x)", "sum(b) // 2 % 3", "prod(i, axis=())",
		// folding bombs (issue 17 item 10): guards that overflowed
		"1 << 9223372036854775807", "4 ** 4611686018427387904", "(-2) ** 4611686018427387905",
		"2 ** 2**2**2**2**2", "1 << 2**62", "0 ** 9223372036854775807", "(-1) ** 2**4000",
		"5 >> 9223372036854775807", "(2**4000) ** 2", "(2**2100) * (2**2100)", "2 ** -(2**4000)",
		"1e999999999 * x", "x ** -1", "2 ** i", "i ** -1", "power(i, -2)", "pow(2, i)",
		"clip(u, -2, 300)", "clip(i, -2**40, 2**40)", "clip(u, 300, None)", "clip(x, 1e999*0, 1)",
		"clip(b, 0, 1)", "clip(u, -1.5, 2**70)",
		// size bombs: a huge literal, deep nesting, a long chain of folds
		"1" + strings.Repeat("0", 60000), strings.Repeat("(", 20000) + "x" + strings.Repeat(")", 20000),
		"1" + strings.Repeat(" << 4000", 5000), strings.Repeat("2**", 10000) + "2", strings.Repeat("-~", 20000) + "1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// every input is bounded in time and memory: a fold whose guard
		// overflows runs for ever or allocates gigabytes (issue 17 item 10)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan string, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- fmt.Sprintf("%q: panic: %v", src, p)
				}
			}()
			done <- fuzzParseOne(src)
		}()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: Parse and Eval did not return within 10 s", src)
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 256<<20 {
			t.Fatalf("%q: Parse and Eval allocated %d MiB", src, d>>20)
		}
	})
}

// fuzzParseOne is FuzzParse's check of one input, run in its own goroutine
// (so that the caller can bound its time); it returns what went wrong, or
// "".
func fuzzParseOne(src string) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	var arrs []*array.Array
	defer func() {
		for _, a := range arrs {
			a.Release()
		}
	}()
	var env = map[string]*expr.Node{}
	for name, mk := range map[string]func() (*array.Array, error){
		"x": func() (*array.Array, error) { return array.FromSlice(mem, []float64{-1.5, 0, 2.25}, 3) },
		"y": func() (*array.Array, error) { return array.FromSlice(mem, []float32{1, -2, 3, 0.5, 5, -6}, 2, 3) },
		"i": func() (*array.Array, error) { return array.FromSlice(mem, []int32{-7, 0, 9}, 3) },
		"u": func() (*array.Array, error) { return array.FromSlice(mem, []uint8{0, 1, 255}, 3) },
		"b": func() (*array.Array, error) {
			return array.FromSlice(mem, []bool{true, false, true, true, false, false}, 2, 3)
		},
	} {
		a, err := mk()
		if err != nil {
			return err.Error()
		}
		arrs = append(arrs, a)
		env[name] = expr.Leaf(a)
	}
	e, err := expr.Parse(src, env)
	if err != nil {
		var pe *expr.ParseError
		switch {
		case !errors.As(err, &pe):
			return fmt.Sprintf("%q: %T is not a *ParseError: %v", src, err, err)
		case pe.Pos < 0 || pe.Pos > len(src) && pe.Pos != expr.MaxParseLength:
			return fmt.Sprintf("%q: position %d outside the text", src, pe.Pos)
		case e != nil:
			return fmt.Sprintf("%q: a node with an error", src)
		}
	} else {
		if err := e.Err(); err != nil {
			return fmt.Sprintf("%q: Parse returned a node with an error: %v", src, err)
		}
		if out, err := expr.Eval(e, expr.WithAllocator(mem)); err == nil {
			out.Release()
		}
	}
	for _, a := range arrs {
		a.Release()
	}
	arrs = nil
	if n := mem.CurrentAlloc(); n != 0 {
		return fmt.Sprintf("%q: %d bytes leaked", src, n)
	}
	return ""
}
