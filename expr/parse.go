package expr

// Limits of Parse, so that no input costs unbounded time, stack or memory.
const (
	// MaxParseLength is the longest source Parse accepts, in bytes.
	MaxParseLength = 1 << 16
	// MaxParseDepth is the deepest expression Parse builds: parentheses,
	// unary operators and calls nest at most this deep, and the tree of
	// nodes (a+b+c+... is a chain of additions) is at most this tall.
	MaxParseDepth = 256
)

// Parse builds the expression written in src, numexpr's language (a Python
// expression; see "Parsing" in the package documentation for the grammar),
// with each name standing for env's node of that name:
//
//	e, err := expr.Parse("where(x > 0, sqrt(x), -x) * s", map[string]*expr.Node{"x": x, "s": s})
//
// It returns the node that the builder calls would: Parse("a + 2*b") is
// Add(a, Mul(Const(2), b)), and Parse("a ** b") is Power(a, b) (not
// PowerTruncating). Every error is a *ParseError naming the byte
// offset (0-based) and the token, wrapping ErrSyntax for the text's faults
// or the failing op's error (a shape mismatch, a dtype without a loop) at
// the op that failed.
func Parse(src string, env map[string]*Node) (*Node, error) {
	if len(src) > MaxParseLength {
		return nil, &ParseError{Pos: MaxParseLength, Msg: "input longer than MaxParseLength (65536 bytes)", Err: ErrSyntax}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, env: env}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, unexpected(t)
	}
	return p.toNode(v)
}
