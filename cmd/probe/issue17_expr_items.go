package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// Issue 17's expression items: Parse's power (item 2), clip with ints out
// of the dtype's range (item 5) and folding bombs (item 10).
func init() {
	probes = append(probes,
		probe{"17.2a", `Parse("2 ** i"), i = [-2 -1 0 1 2] int64: NumPy's error, not the truncating [0 0 1 2 4]`, negPowerProbe("2 ** i")},
		probe{"17.2b", `Parse("i ** -1"), i = [-2 -1 0 1 2] int64: NumPy's error, not [0 -1 0 1 0]`, negPowerProbe("i ** -1")},
		probe{"17.2c", `Parse("pow(i, n)") and power(i, n), n = [0 1 2 3 4]: i**n by repeated multiplication`, posPowerProbe},
		probe{"17.5a", `Parse("clip(u, -2, 12)") and Clip(u8, Const(-2), Const(12)): uint8 [0 1 7 12 12], as NumPy 2.1+`, clipProbe},
		probe{"17.10a", `Parse("1 << 9223372036854775807"): an error, not a makeslice panic`, bombProbe("1 << 9223372036854775807")},
		probe{"17.10b", `Parse("4 ** 4611686018427387904"): an error, not an endless fold`, bombProbe("4 ** 4611686018427387904")},
		probe{"17.10c", `Parse of the bombs' siblings (shifts, powers, products, huge literals, deep nesting)`, bombSiblings},
	)
}

// leakChecked runs f with a fresh tracker and fails it when anything stays
// allocated once f has returned (and released what it made).
func leakChecked(f func(mem *tracker) (string, string)) func() (string, string) {
	return func() (string, string) {
		mem := newTracker()
		v, d := f(mem)
		if n := mem.CurrentAlloc(); n != 0 && v != vFailed {
			return vFailed, fmt.Sprintf("%s, but %d bytes stayed allocated", d, n)
		}
		return v, d
	}
}

// int64s makes a 1-D int64 array.
func int64s(mem *tracker, v ...int64) (*array.Array, error) { return array.FromSlice(mem, v, len(v)) }

// negPowerProbe parses src over i = [-2 -1 0 1 2] and evaluates it: an
// integer to a negative integer power must be an error (ErrArgument).
func negPowerProbe(src string) func() (string, string) {
	return leakChecked(func(mem *tracker) (string, string) {
		i, err := int64s(mem, -2, -1, 0, 1, 2)
		if err != nil {
			return vFailed, "setup: " + err.Error()
		}
		defer i.Release()
		e, err := expr.Parse(src, map[string]*expr.Node{"i": expr.Leaf(i)})
		if err != nil {
			return vFailed, "Parse: " + err.Error()
		}
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		if err == nil {
			v, _ := array.ToSlice[int64](out)
			out.Release()
			return vFailed, fmt.Sprintf("a result, %v (NumPy: ValueError)", v)
		}
		if !errors.Is(err, expr.ErrArgument) || !strings.Contains(err.Error(), "negative integer powers") {
			return vFailed, "an error, but not NumPy's: " + err.Error()
		}
		return vError, err.Error()
	})
}

// posPowerProbe checks i**n for nonnegative n against repeated
// multiplication, for the three spellings.
var posPowerProbe = leakChecked(func(mem *tracker) (string, string) {
	iv, nv := []int64{-2, -1, 0, 1, 3}, []int64{0, 1, 2, 3, 4}
	i, err := int64s(mem, iv...)
	if err != nil {
		return vFailed, "setup: " + err.Error()
	}
	defer i.Release()
	n, err := int64s(mem, nv...)
	if err != nil {
		return vFailed, "setup: " + err.Error()
	}
	defer n.Release()
	want := make([]int64, len(iv))
	for k := range iv {
		want[k] = 1
		for range nv[k] {
			want[k] *= iv[k]
		}
	}
	env := map[string]*expr.Node{"i": expr.Leaf(i), "n": expr.Leaf(n)}
	for _, src := range []string{"i ** n", "power(i, n)", "pow(i, n)"} {
		e, err := expr.Parse(src, env)
		if err != nil {
			return vFailed, src + ": " + err.Error()
		}
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		if err != nil {
			return vFailed, src + ": " + err.Error()
		}
		got, err := array.ToSlice[int64](out)
		out.Release()
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			return vFailed, fmt.Sprintf("%s = %v (%v), want %v", src, got, err, want)
		}
	}
	return vRight, fmt.Sprintf("i ** n, power and pow give %v", want)
})

// clipProbe clips uint8 [0 1 7 200 255] to (-2, 12) through Parse and Clip.
var clipProbe = leakChecked(func(mem *tracker) (string, string) {
	u, err := array.FromSlice(mem, []uint8{0, 1, 7, 200, 255}, 5)
	if err != nil {
		return vFailed, "setup: " + err.Error()
	}
	defer u.Release()
	parsed, err := expr.Parse("clip(u, -2, 12)", map[string]*expr.Node{"u": expr.Leaf(u)})
	if err != nil {
		return vFailed, "Parse: " + err.Error()
	}
	for _, e := range []*expr.Node{parsed, expr.Clip(expr.Leaf(u), expr.Const(-2), expr.Const(12))} {
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		if err != nil {
			return vFailed, err.Error()
		}
		got, err := array.ToSlice[uint8](out)
		dt := out.DType()
		out.Release()
		if err != nil || dt != array.Uint8 || fmt.Sprint(got) != "[0 1 7 12 12]" {
			return vFailed, fmt.Sprintf("%v %v (%v), want uint8 [0 1 7 12 12]", dt, got, err)
		}
	}
	return vRight, "uint8 [0 1 7 12 12] both ways"
})

// parseBomb parses src; it must end within 5 s with a *ParseError,
// allocating at most 64 MiB.
func parseBomb(src string) (string, string) {
	var err error
	start := time.Now()
	used := heap(func() { _, err = expr.Parse(src, nil) })
	took := time.Since(start)
	short := src
	if len(short) > 40 {
		short = short[:40] + "..."
	}
	var pe *expr.ParseError
	switch {
	case err == nil:
		return vFailed, short + ": no error"
	case !errors.As(err, &pe):
		return vFailed, fmt.Sprintf("%s: %T, not a *ParseError: %v", short, err, err)
	case took > 5*time.Second:
		return vFailed, fmt.Sprintf("%s: an error, after %v", short, took)
	case used > 64<<20:
		return vFailed, fmt.Sprintf("%s: an error, after allocating %s", short, mib(int64(used)))
	}
	msg := err.Error()
	if len(msg) > 160 {
		msg = msg[:160] + "..."
	}
	return vError, fmt.Sprintf("%s (%v, %s)", msg, took.Round(time.Microsecond), mib(int64(used)))
}

func bombProbe(src string) func() (string, string) {
	return func() (string, string) {
		v, d := parseBomb(src)
		if v == vError && !strings.Contains(d, "integer too large") {
			return vFailed, "an error, but not the size bound's: " + d
		}
		return v, d
	}
}

// bombSiblings parses the other shapes that allocate or loop by a value
// read from the source.
func bombSiblings() (string, string) {
	srcs := []string{
		"1 << 2**62", "-1 << 4611686018427387904", "2 ** 9223372036854775807", "(-2) ** 4611686018427387905",
		"3 ** 2**62", "2**62 ** 2**62", "(2**4000) ** 2", "(2**2100) * (2**2100)", "2 ** 2**2**2**2**2",
		"2 ** -(2**4000)", "1.5 ** (2**4000)", "1" + strings.Repeat("0", 60000), "0x" + strings.Repeat("f", 60000),
		"1" + strings.Repeat(" << 4000", 8000), strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000),
		strings.Repeat("-", 60000) + "1", strings.Repeat("2**", 20000) + "2", strings.Repeat("x", 1<<17),
	}
	for _, src := range srcs {
		if v, d := parseBomb(src); v != vError {
			return v, d
		}
	}
	return vError, fmt.Sprintf("all %d end with a *ParseError within 5 s and 64 MiB", len(srcs))
}
