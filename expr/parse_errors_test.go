package expr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

func TestParseErrors(t *testing.T) {
	env := parseVars()
	env["w"] = expr.Var("w", array.Float64, broadcast.StaticShape(3))
	env["nilnode"] = nil
	env["bad"] = expr.Var("bad", array.DType(200), broadcast.StaticShape(3))
	deepParens := strings.Repeat("(", expr.MaxParseDepth+1) + "x" + strings.Repeat(")", expr.MaxParseDepth+1)
	for _, c := range []struct {
		src  string
		pos  int
		msg  string
		want error
	}{
		{"x + )", 4, "unexpected ')'", expr.ErrSyntax},
		{"(x + y", 6, "unexpected end of input: '(' at 0 is not closed", expr.ErrSyntax},
		{"(x + y z", 7, "unexpected 'z': expected ')' to close '(' at 0", expr.ErrSyntax},
		{"x +", 3, "unexpected end of input", expr.ErrSyntax},
		{"", 0, "unexpected end of input", expr.ErrSyntax},
		{"   ", 3, "unexpected end of input", expr.ErrSyntax},
		{"x +* y", 3, "unexpected '*'", expr.ErrSyntax},
		{"x y", 2, "unexpected 'y'", expr.ErrSyntax},
		{"x + mena(x)", 4, `unknown function "mena" (did you mean "mean"?)`, expr.ErrSyntax},
		{"sqr(x)", 0, `unknown function "sqr" (did you mean "sqrt"?)`, expr.ErrSyntax},
		{"frobnicate(x)", 0, `unknown function "frobnicate"`, expr.ErrSyntax},
		{"x + yy", 4, `unknown name "yy" (did you mean "y"?)`, expr.ErrSyntax},
		{"x + quux", 4, `unknown name "quux"`, expr.ErrSyntax},
		{"x + sqrt", 4, `"sqrt" is a function: call it, as in sqrt(...)`, expr.ErrSyntax},
		{"x(1)", 0, `"x" is not a function`, expr.ErrSyntax},
		{"nilnode + 1", 0, `name "nilnode" is nil in env`, expr.ErrSyntax},
		{"1 + bad", 4, `name "bad"`, expr.ErrDType},
		{"sqrt(x, y)", 0, "sqrt() takes 1 positional argument, 2 given", expr.ErrSyntax},
		{"arctan2(x)", 0, "arctan2() takes 2 positional arguments, 1 given", expr.ErrSyntax},
		{"where(b, x)", 0, "where() takes 3 positional arguments, 2 given", expr.ErrSyntax},
		{"sqrt(x, out=y)", 8, `sqrt() got an unexpected keyword argument "out"`, expr.ErrSyntax},
		{"sqrt(x, )(y)", 9, "unexpected '('", expr.ErrSyntax},
		{"sqrt(x y)", 7, "unexpected 'y' in the arguments of sqrt()", expr.ErrSyntax},
		{"sqrt(x", 6, "unexpected end of input: '(' of sqrt() at 4 is not closed", expr.ErrSyntax},
		{"sum(x, axis=0, axis=1)", 15, `sum() got keyword argument "axis" twice`, expr.ErrSyntax},
		{"sum(x, 0, axis=1)", 10, `sum() got multiple values for argument "axis"`, expr.ErrSyntax},
		{"sum(x, axis=0, 1)", 15, "positional argument follows keyword argument in sum()", expr.ErrSyntax},
		{"sum(x, axis=0.5)", 12, "sum() axis must be an int, a tuple of ints or None", expr.ErrSyntax},
		{"sum(x, axis=(0, y))", 16, "sum() axis must be an int", expr.ErrSyntax},
		{"sum(x, axis=True)", 12, "sum() axis must be an int", expr.ErrSyntax},
		{"sum(x, axis=2**40)", 12, "sum() argument axis = 1099511627776 is out of range", expr.ErrSyntax},
		{"sum(x, axis=2)", 0, "sum()", broadcast.ErrAxes},
		{"sum(x, axis=(0, -2))", 0, "sum()", broadcast.ErrAxes},
		{"sum(x, keepdims=1)", 16, "sum() argument keepdims must be True or False", expr.ErrSyntax},
		{"mean(x, ddof=1)", 8, `mean() got an unexpected keyword argument "ddof"`, expr.ErrSyntax},
		{"sum(axis=0)", 0, "sum() takes 1 to 2 positional arguments, 0 given", expr.ErrSyntax},
		{"sum(x, 0, 1)", 0, "sum() takes 1 to 2 positional arguments, 3 given", expr.ErrSyntax},
		{"sum(x, ddof=1)", 7, `sum() got an unexpected keyword argument "ddof"`, expr.ErrSyntax},
		{"round(x, 0.5)", 9, "round() argument decimals must be an int", expr.ErrSyntax},
		{"round(x, decimals=1, decimals=2)", 21, `round() got keyword argument "decimals" twice`, expr.ErrSyntax},
		{"clip(b, None, None)", 0, "clip()", expr.ErrDType},
		{"clip(u, 300, None)", 0, "clip()", expr.ErrOverflow},
		{"clip(u, 2, -1)", 0, "clip()", expr.ErrOverflow},
		{"clip(u, 2**64, None)", 8, "does not fit in int64", expr.ErrOverflow},
		{"x + 1j", 4, "complex number 1j is not supported", expr.ErrSyntax},
		{"x + 012", 4, "invalid number literal 012", expr.ErrSyntax},
		{"x + 1__0", 4, "invalid number literal 1__0", expr.ErrSyntax},
		{"x + 1e", 4, "invalid number literal 1e", expr.ErrSyntax},
		{"x + 0x", 4, "invalid number literal 0x", expr.ErrSyntax},
		{"x + 1.2.3", 4, "invalid number literal 1.2.3", expr.ErrSyntax},
		{"x + 9223372036854775808", 4, "integer 9223372036854775808 does not fit in int64", expr.ErrOverflow},
		{"x + 2**64", 4, "integer 18446744073709551616 does not fit in int64", expr.ErrOverflow},
		{"x + " + strings.Repeat("9", 2000), 4, "integer literal of 6644 bits is too large", expr.ErrSyntax},
		{"x + 0x" + strings.Repeat("f", 1025), 4, "integer literal of 4100 bits is too large", expr.ErrSyntax},
		{"1/0", 1, "1 / 0: division by zero", expr.ErrArgument},
		{"x + 1.5 // 0", 8, "float floor division or modulo by zero", expr.ErrArgument},
		{"(-8.0) ** 0.5", 7, "complex", expr.ErrArgument},
		{"2**10**10", 1, "integer too large", expr.ErrOverflow},
		{"10.0**400", 4, "float power out of range", expr.ErrOverflow},
		{"x $ y", 2, `unexpected character "$"`, expr.ErrSyntax},
		{"x[0]", 1, `unexpected character "["`, expr.ErrSyntax},
		{"np.sqrt(x)", 2, "unexpected '.': attributes are not supported", expr.ErrSyntax},
		{"x + \xff", 4, `invalid UTF-8 byte "\xff"`, expr.ErrSyntax},
		{"x + é", 4, "unknown name \"é\"", expr.ErrSyntax},
		{"x + €", 4, `unexpected character "€"`, expr.ErrSyntax},
		{"x if b else y", 2, "unexpected 'if': conditional expressions are not supported (use where(cond, x, y))", expr.ErrSyntax},
		{"x in y", 2, `unexpected 'in': operator "in" is not supported`, expr.ErrSyntax},
		{"x not in y", 6, `unexpected 'in': operator "in" is not supported`, expr.ErrSyntax},
		{"x is y", 2, `operator "is" is not supported`, expr.ErrSyntax},
		{"lambda x", 0, "unexpected keyword 'lambda'", expr.ErrSyntax},
		{"x + and", 4, "unexpected keyword 'and'", expr.ErrSyntax},
		{"None + x", 0, "None is only allowed as axis= or a bound of clip", expr.ErrSyntax},
		{"sqrt(None)", 5, "None is only allowed", expr.ErrSyntax},
		{"(1, 2) + x", 0, "a tuple is only allowed as axis=", expr.ErrSyntax},
		{"x = 1", 2, "unexpected '='", expr.ErrSyntax},
		// ops that fail name the operator and wrap the op's error
		{"x + w", 2, `operator "+"`, broadcast.ErrIncompatible},
		{"x & y", 2, `operator "&"`, expr.ErrDType},
		{"~x", 0, `operator "~"`, expr.ErrDType},
		{"-b", 0, `operator "-"`, expr.ErrDType},
		{"u + 300", 2, `operator "+"`, expr.ErrOverflow},
		{"u * -1", 2, `operator "*"`, expr.ErrOverflow},
		{"sqrt(x) + arctan2(x, w)", 10, "arctan2()", broadcast.ErrIncompatible},
		{"where(x, w, y)", 0, "where()", broadcast.ErrIncompatible},
		// limits
		{deepParens, expr.MaxParseDepth, "nested deeper than MaxParseDepth (256)", expr.ErrSyntax},
		{strings.Repeat("-", 300) + "x", expr.MaxParseDepth - 1, "nested deeper than MaxParseDepth", expr.ErrSyntax},
		{strings.Repeat("sqrt(", 300) + "x" + strings.Repeat(")", 300), 5 * expr.MaxParseDepth, "nested deeper than MaxParseDepth", expr.ErrSyntax},
		{"x" + strings.Repeat(" + x", 300), 4*expr.MaxParseDepth + 2, "expression deeper than MaxParseDepth (256)", expr.ErrSyntax},
		{"x" + strings.Repeat(" ", expr.MaxParseLength), expr.MaxParseLength, "input longer than MaxParseLength (65536 bytes)", expr.ErrSyntax},
	} {
		n, err := expr.Parse(c.src, env)
		require.Error(t, err, "%q", c.src)
		require.Nil(t, n)
		var pe *expr.ParseError
		require.True(t, errors.As(err, &pe), "%q: %T", c.src, err)
		require.ErrorIs(t, err, c.want, "%q: %v", c.src, err)
		require.Equal(t, c.pos, pe.Pos, "%q: %v", c.src, err)
		require.Contains(t, err.Error(), "parse error at ", "%q", c.src)
		require.Contains(t, pe.Msg, c.msg, "%q: %v", c.src, err)
		if pe.Pos < len(c.src) {
			require.True(t, strings.HasPrefix(c.src[pe.Pos:], pe.Token), "%q: token %q at %d", c.src, pe.Token, pe.Pos)
		}
	}
}

// TestParseErrorText pins the message format of the examples.
func TestParseErrorText(t *testing.T) {
	env := map[string]*expr.Node{"x": expr.Var("x", array.Float64, broadcast.StaticShape(3))}
	_, err := expr.Parse("(x + 1))", env)
	require.EqualError(t, err, "parse error at 7: unexpected ')'")
	_, err = expr.Parse("x - mena", env)
	require.EqualError(t, err, `parse error at 4: unknown name "mena"`)
	_, err = expr.Parse("x - mena(x)", env)
	require.EqualError(t, err, `parse error at 4: unknown function "mena" (did you mean "mean"?)`)
	_, err = expr.Parse("x + 2**70", env)
	require.ErrorIs(t, err, expr.ErrOverflow)
	require.EqualError(t, err, "parse error at 4: integer 1180591620717411303424 does not fit in int64: value out of range")
}

// TestParseErrorNil: a nil *ParseError formats and unwraps without a
// panic, like broadcast's *Error. Found by the API sweep
// (internal/apisweep).
func TestParseErrorNil(t *testing.T) {
	var e *expr.ParseError
	require.Equal(t, "expr: <nil error>", e.Error())
	require.NoError(t, e.Unwrap())
	require.False(t, errors.Is(e, expr.ErrSyntax))
}
