package expr

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/internal/suggest"
)

// parser is a recursive-descent parser over Python's expression grammar,
// one function per precedence level (see the package documentation).
type parser struct {
	toks  []token
	i     int
	env   map[string]*Node
	depth int
}

// operand is a parsed subexpression: a node, a Python number not yet made
// a constant (so that folding can keep it weak), None, or a tuple (only
// valid as an argument: axis=(0, 1), clip's None).
type operand struct {
	tok     token // its first token, for messages
	node    *Node
	num     pyNum
	none    bool
	isTuple bool
	tuple   []operand
	height  int // height of node's tree as built by Parse
}

// The operators and the ops they build.
var (
	parseBinary = map[string]compute.Op{
		"+": compute.Add, "-": compute.Sub, "*": compute.Mul, "/": compute.Div,
		"//": compute.FloorDiv, "%": compute.Remainder, "**": compute.Power,
		"<<": compute.LeftShift, ">>": compute.RightShift,
		"&": compute.BitwiseAnd, "|": compute.BitwiseOr, "^": compute.BitwiseXor,
		"<": compute.Less, "<=": compute.LessEqual, ">": compute.Greater,
		">=": compute.GreaterEqual, "==": compute.Equal, "!=": compute.NotEqual,
		"and": compute.LogicalAnd, "or": compute.LogicalOr,
	}
	parseUnary = map[string]compute.Op{"-": compute.Neg, "~": compute.Invert, "not": compute.LogicalNot}
	parseComp  = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true}
	// Python's keywords, which are never names.
	pyKeywords = map[string]bool{
		"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
		"async": true, "await": true, "break": true, "class": true, "continue": true,
		"def": true, "del": true, "elif": true, "else": true, "except": true,
		"finally": true, "for": true, "from": true, "global": true, "if": true,
		"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
		"not": true, "or": true, "pass": true, "raise": true, "return": true,
		"try": true, "while": true, "with": true, "yield": true,
	}
)

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) at(kind tokenKind, text string) bool {
	t := p.peek()
	return t.kind == kind && t.text == text
}

// enter counts one level of nesting; leave undoes it.
func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > MaxParseDepth {
		return syntaxErr(t, "expression nested deeper than MaxParseDepth (%d)", MaxParseDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// unexpected is the error for a token that cannot come where it is.
func unexpected(t token) *ParseError {
	switch {
	case t.kind == tName && (t.text == "if" || t.text == "else"):
		return syntaxErr(t, "unexpected %s: conditional expressions are not supported (use where(cond, x, y))", t.describe())
	case t.kind == tName && (t.text == "in" || t.text == "is"):
		return syntaxErr(t, "unexpected %s: operator %q is not supported", t.describe(), t.text)
	case t.kind == tName && pyKeywords[t.text]:
		return syntaxErr(t, "unexpected keyword %s", t.describe())
	}
	return syntaxErr(t, "unexpected %s", t.describe())
}

// expr: or_test.
func (p *parser) expr() (operand, error) {
	if err := p.enter(p.peek()); err != nil {
		return operand{}, err
	}
	defer p.leave()
	return p.leftAssoc(p.andTest, tName, "or")
}

func (p *parser) andTest() (operand, error) { return p.leftAssoc(p.notTest, tName, "and") }

// notTest: 'not' not_test | comparison.
func (p *parser) notTest() (operand, error) {
	if !p.at(tName, "not") {
		return p.comparison()
	}
	t := p.next()
	if err := p.enter(t); err != nil {
		return operand{}, err
	}
	defer p.leave()
	x, err := p.notTest()
	if err != nil {
		return x, err
	}
	return p.unaryOp(t, x)
}

// comparison: bor (comp_op bor)*, chained as Python: a < b < c is
// (a < b) and (b < c).
func (p *parser) comparison() (operand, error) {
	a, err := p.bor()
	if err != nil {
		return a, err
	}
	var acc operand
	chained := false
	for {
		t := p.peek()
		if t.kind == tName && (t.text == "in" || t.text == "is") {
			return a, unexpected(t)
		}
		if t.kind == tName && t.text == "not" && p.toks[p.i+1].kind == tName && p.toks[p.i+1].text == "in" {
			return a, unexpected(p.toks[p.i+1])
		}
		if t.kind != tOp || !parseComp[t.text] {
			break
		}
		p.next()
		b, err := p.bor()
		if err != nil {
			return b, err
		}
		c, err := p.binaryOp(t, a, b)
		if err != nil {
			return c, err
		}
		if chained {
			if acc, err = p.binaryOp(token{kind: tName, text: "and", pos: t.pos}, acc, c); err != nil {
				return acc, err
			}
		} else {
			acc, chained = c, true
		}
		a = b
	}
	if chained {
		return acc, nil
	}
	return a, nil
}

func (p *parser) bor() (operand, error)  { return p.leftAssoc(p.bxor, tOp, "|") }
func (p *parser) bxor() (operand, error) { return p.leftAssoc(p.band, tOp, "^") }
func (p *parser) band() (operand, error) { return p.leftAssoc(p.shift, tOp, "&") }
func (p *parser) shift() (operand, error) {
	return p.leftAssoc(p.arith, tOp, "<<", ">>")
}
func (p *parser) arith() (operand, error) { return p.leftAssoc(p.term, tOp, "+", "-") }
func (p *parser) term() (operand, error) {
	return p.leftAssoc(p.factor, tOp, "*", "/", "//", "%")
}

// leftAssoc parses next (op next)* for the given operators, left to right.
func (p *parser) leftAssoc(next func() (operand, error), kind tokenKind, ops ...string) (operand, error) {
	a, err := next()
	if err != nil {
		return a, err
	}
	for {
		t := p.peek()
		if t.kind != kind || !slices.Contains(ops, t.text) {
			return a, nil
		}
		p.next()
		b, err := next()
		if err != nil {
			return b, err
		}
		if a, err = p.binaryOp(t, a, b); err != nil {
			return a, err
		}
	}
}

// factor: ('+'|'-'|'~') factor | power.
func (p *parser) factor() (operand, error) {
	t := p.peek()
	if t.kind != tOp || (t.text != "-" && t.text != "+" && t.text != "~") {
		return p.power()
	}
	p.next()
	if err := p.enter(t); err != nil {
		return operand{}, err
	}
	defer p.leave()
	x, err := p.factor()
	if err != nil {
		return x, err
	}
	return p.unaryOp(t, x)
}

// power: primary ['**' factor] (right-associative, and binding tighter
// than a unary operator on its left: -x**2 is -(x**2), 2**-1 is 0.5).
func (p *parser) power() (operand, error) {
	a, err := p.primary()
	if err != nil || !p.at(tOp, "**") {
		return a, err
	}
	t := p.next()
	if err := p.enter(t); err != nil {
		return operand{}, err
	}
	defer p.leave()
	b, err := p.factor()
	if err != nil {
		return b, err
	}
	return p.binaryOp(t, a, b)
}

// primary: NUMBER | True | False | None | NAME | NAME '(' args ')' |
// '(' [expr (',' expr)* [',']] ')'.
func (p *parser) primary() (operand, error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return operand{tok: t, num: t.val}, nil
	case tName:
		switch t.text {
		case "True", "False":
			return operand{tok: t, num: pyBool(t.text == "True")}, nil
		case "None":
			return operand{tok: t, none: true}, nil
		}
		if pyKeywords[t.text] {
			return operand{}, unexpected(t)
		}
		if p.at(tOp, "(") {
			return p.call(t)
		}
		return p.name(t)
	case tOp:
		if t.text == "(" {
			return p.parens(t)
		}
	}
	return operand{}, unexpected(t)
}

// parens reads a parenthesized expression or tuple after its '('.
func (p *parser) parens(open token) (operand, error) {
	if p.at(tOp, ")") {
		p.next()
		return operand{tok: open, isTuple: true}, nil
	}
	first, err := p.expr()
	if err != nil {
		return first, err
	}
	if !p.at(tOp, ",") {
		return first, p.closing(open)
	}
	tup := operand{tok: open, isTuple: true, tuple: []operand{first}}
	for p.at(tOp, ",") {
		p.next()
		if p.at(tOp, ")") {
			break
		}
		item, err := p.expr()
		if err != nil {
			return item, err
		}
		tup.tuple = append(tup.tuple, item)
	}
	return tup, p.closing(open)
}

// closing consumes the ')' that closes open.
func (p *parser) closing(open token) error {
	if t := p.next(); t.kind != tOp || t.text != ")" {
		if t.kind == tEOF {
			return syntaxErr(t, "unexpected end of input: '(' at %d is not closed", open.pos)
		}
		return syntaxErr(t, "unexpected %s: expected ')' to close '(' at %d", t.describe(), open.pos)
	}
	return nil
}

// name looks a name up in env.
func (p *parser) name(t token) (operand, error) {
	n, ok := p.env[t.text]
	switch {
	case ok && n == nil:
		return operand{}, syntaxErr(t, "name %q is nil in env", t.text)
	case ok && n.Err() != nil:
		return operand{}, &ParseError{Pos: t.pos, Token: t.text, Msg: fmt.Sprintf("name %q", t.text), Err: n.Err()}
	case ok:
		return operand{tok: t, node: n}, nil
	case isParseFunc(t.text):
		return operand{}, syntaxErr(t, "%q is a function: call it, as in %s(...)", t.text, t.text)
	}
	keys := make([]string, 0, len(p.env))
	for k := range p.env {
		keys = append(keys, k)
	}
	msg := fmt.Sprintf("unknown name %q", t.text)
	if s := suggest.Nearest(t.text, keys); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return operand{}, syntaxErr(t, "%s", msg)
}

// toNode returns the node o stands for: a number becomes a weak constant.
func (p *parser) toNode(o operand) (*Node, error) {
	switch {
	case o.node != nil:
		return o.node, nil
	case o.num.isNum():
		n, msg := o.num.node()
		if msg != "" {
			return nil, &ParseError{Pos: o.tok.pos, Token: o.tok.text, Msg: msg, Err: ErrOverflow}
		}
		return n, nil
	case o.none:
		return nil, syntaxErr(o.tok, "None is only allowed as axis= or a bound of clip")
	}
	return nil, syntaxErr(o.tok, "a tuple is only allowed as axis=")
}

// built checks a node Parse made at token t (an operator or a function's
// name) and the height of its tree.
func (p *parser) built(t token, what string, n *Node, height int, first token) (operand, error) {
	if err := n.Err(); err != nil {
		return operand{}, &ParseError{Pos: t.pos, Token: t.text, Msg: what, Err: err}
	}
	if height > MaxParseDepth {
		return operand{}, syntaxErr(t, "expression deeper than MaxParseDepth (%d)", MaxParseDepth)
	}
	return operand{tok: first, node: n, height: height}, nil
}

func truthy(x pyNum) bool {
	switch x.kind {
	case pyBoolK:
		return x.b
	case pyFloatK:
		return x.f != 0
	}
	return x.i.Sign() != 0
}

// binaryOp applies the operator t to a and b: Python's arithmetic when both
// are numbers, a node otherwise.
func (p *parser) binaryOp(t token, a, b operand) (operand, error) {
	if a.num.isNum() && b.num.isNum() {
		switch t.text {
		case "and":
			if truthy(a.num) {
				return b, nil
			}
			return a, nil
		case "or":
			if truthy(a.num) {
				return a, nil
			}
			return b, nil
		}
		r, ok, msg := foldBinary(t.text, a.num, b.num)
		if msg != "" {
			return operand{}, &ParseError{Pos: t.pos, Token: t.text, Msg: fmt.Sprintf("%s %s %s: %s", a.num, t.text, b.num, msg), Err: foldSentinel(msg)}
		}
		if ok {
			return operand{tok: a.tok, num: r}, nil
		}
	}
	x, err := p.toNode(a)
	if err != nil {
		return operand{}, err
	}
	y, err := p.toNode(b)
	if err != nil {
		return operand{}, err
	}
	n := buildBinary(parseBinary[t.text], x, y)
	return p.built(t, fmt.Sprintf("operator %q", t.text), n, max(a.height, b.height)+1, a.tok)
}

// unaryOp applies the prefix operator t ('-', '+', '~' or 'not') to x.
func (p *parser) unaryOp(t token, x operand) (operand, error) {
	if x.num.isNum() {
		if t.text == "not" {
			return operand{tok: t, num: pyBool(!truthy(x.num))}, nil
		}
		if r, ok := foldUnary(t.text, x.num); ok {
			if r.kind == pyIntK && r.i.BitLen() > maxIntBits { // ~(2**4096 - 1)
				return operand{}, &ParseError{Pos: t.pos, Token: t.text, Msg: fmt.Sprintf("%s%s: %s", t.text, x.num, errTooLarge), Err: ErrOverflow}
			}
			return operand{tok: t, num: r}, nil
		}
	}
	n, err := p.toNode(x)
	if err != nil {
		return operand{}, err
	}
	if t.text == "+" { // numpy.positive: the operand itself
		return operand{tok: t, node: n, height: x.height}, nil
	}
	return p.built(t, fmt.Sprintf("operator %q", t.text), buildUnary(parseUnary[t.text], n), x.height+1, t)
}

// String formats a number in messages.
func (x pyNum) String() string {
	switch x.kind {
	case pyBoolK:
		if x.b {
			return "True"
		}
		return "False"
	case pyFloatK:
		return fmt.Sprint(x.f)
	case pyIntK:
		return abbreviate(x.i.String())
	}
	return "?"
}

// kwArg is one keyword argument of a call.
type kwArg struct {
	tok token
	val operand
}

// call reads the arguments of the function named t and applies it.
func (p *parser) call(t token) (operand, error) {
	open := p.next()
	var args []operand
	var kws []kwArg
	for !p.at(tOp, ")") {
		if p.peek().kind == tName && p.toks[p.i+1].kind == tOp && p.toks[p.i+1].text == "=" {
			k := p.next()
			p.next()
			for _, o := range kws {
				if o.tok.text == k.text {
					return operand{}, syntaxErr(k, "%s() got keyword argument %q twice", t.text, k.text)
				}
			}
			v, err := p.expr()
			if err != nil {
				return v, err
			}
			kws = append(kws, kwArg{k, v})
		} else {
			if len(kws) > 0 {
				return operand{}, syntaxErr(p.peek(), "positional argument follows keyword argument in %s()", t.text)
			}
			v, err := p.expr()
			if err != nil {
				return v, err
			}
			args = append(args, v)
		}
		if p.at(tOp, ",") {
			p.next()
			continue
		}
		if nt := p.peek(); !p.at(tOp, ")") {
			if nt.kind == tEOF {
				return operand{}, syntaxErr(nt, "unexpected end of input: '(' of %s() at %d is not closed", t.text, open.pos)
			}
			return operand{}, syntaxErr(nt, "unexpected %s in the arguments of %s()", nt.describe(), t.text)
		}
	}
	p.next()
	return p.apply(t, args, kws)
}

// apply calls the function named t.
func (p *parser) apply(t token, args []operand, kws []kwArg) (operand, error) {
	name := t.text
	if op, ok := parseElementwise[name]; ok {
		arity := op.Info().Arity
		if err := p.checkArgs(t, args, kws, arity, arity); err != nil {
			return operand{}, err
		}
		nodes, h, err := p.nodes(args)
		if err != nil {
			return operand{}, err
		}
		var n *Node
		if arity == 1 {
			n = buildUnary(op, nodes[0])
		} else {
			n = buildBinary(op, nodes[0], nodes[1])
		}
		return p.built(t, name+"()", n, h+1, t)
	}
	if parseSpecial[name] {
		return p.special(t, args, kws)
	}
	if r, ok := parseReductions[name]; ok {
		return p.reduction(t, r, args, kws)
	}
	if _, ok := p.env[name]; ok {
		return operand{}, syntaxErr(t, "%q is not a function", name)
	}
	msg := fmt.Sprintf("unknown function %q", name)
	if s := suggest.Nearest(name, parseFuncNames); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return operand{}, syntaxErr(t, "%s", msg)
}

// checkArgs checks a call's positional count against [lo, hi] and its
// keywords against allowed.
func (p *parser) checkArgs(t token, args []operand, kws []kwArg, lo, hi int, allowed ...string) error {
	for _, k := range kws {
		if !slices.Contains(allowed, k.tok.text) {
			return syntaxErr(k.tok, "%s() got an unexpected keyword argument %q", t.text, k.tok.text)
		}
	}
	if len(args) < lo || len(args) > hi {
		want := fmt.Sprint(lo)
		if hi > lo {
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return syntaxErr(t, "%s() takes %s positional argument%s, %d given", t.text, want, map[bool]string{true: "", false: "s"}[hi == 1], len(args))
	}
	return nil
}

// nodes converts arguments to nodes and returns the tallest height.
func (p *parser) nodes(args []operand) ([]*Node, int, error) {
	out := make([]*Node, len(args))
	h := 0
	for i, a := range args {
		n, err := p.toNode(a)
		if err != nil {
			return nil, 0, err
		}
		out[i], h = n, max(h, a.height)
	}
	return out, h, nil
}

// argument returns the value of the parameter name, given positionally at
// index pos (-1: keyword only) or as a keyword.
func argument(t token, args []operand, kws []kwArg, pos int, name string) (operand, bool, error) {
	var v operand
	found := false
	if pos >= 0 && pos < len(args) {
		v, found = args[pos], true
	}
	for _, k := range kws {
		if k.tok.text == name {
			if found {
				return v, true, syntaxErr(k.tok, "%s() got multiple values for argument %q", t.text, name)
			}
			v, found = k.val, true
		}
	}
	return v, found, nil
}

// intArg reads a parameter that must be a Python int (folded, so -1 and
// 1+1 count).
func intArg(t token, what string, v operand) (int, error) {
	if v.num.kind != pyIntK {
		return 0, syntaxErr(v.tok, "%s() argument %s must be an int", t.text, what)
	}
	if !v.num.i.IsInt64() || v.num.i.Int64() > math.MaxInt32 || v.num.i.Int64() < math.MinInt32 {
		return 0, syntaxErr(v.tok, "%s() argument %s = %s is out of range", t.text, what, v.num)
	}
	return int(v.num.i.Int64()), nil
}

// clipDrops reports whether a Python int bound beyond int64 bounds nothing
// for an operand of dtype dt, as Clip decides for the weak ints it can
// hold (numpy/numpy#26892): on an integer dtype, a lower bound at or below
// the dtype's minimum or an upper bound at or above its maximum. Other
// bounds beyond int64 stay, and are then errors (ErrOverflow).
func clipDrops(dt array.DType, v pyNum, lower bool) bool {
	if v.kind != pyIntK || v.i.IsInt64() || !dt.IsInteger() {
		return false
	}
	if lower {
		return v.i.Sign() < 0 // below MinInt64, so below every minimum
	}
	limit := new(big.Int).Lsh(big.NewInt(1), uint(8*dt.Size()))
	if dt.IsSigned() {
		limit.Rsh(limit, 1)
	}
	return v.i.Cmp(limit.Sub(limit, big.NewInt(1))) >= 0
}

// special calls where, clip, round and around.
func (p *parser) special(t token, args []operand, kws []kwArg) (operand, error) {
	switch t.text {
	case "where":
		if err := p.checkArgs(t, args, kws, 3, 3); err != nil {
			return operand{}, err
		}
		nodes, h, err := p.nodes(args)
		if err != nil {
			return operand{}, err
		}
		return p.built(t, "where()", Where(nodes[0], nodes[1], nodes[2]), h+1, t)
	case "clip":
		if err := p.checkArgs(t, args, kws, 3, 3); err != nil {
			return operand{}, err
		}
		x, err := p.toNode(args[0])
		if err != nil {
			return operand{}, err
		}
		bounds := [2]*Node{}
		for i, b := range args[1:] {
			if b.none || clipDrops(x.DType(), b.num, i == 0) {
				continue // no bound
			}
			if bounds[i], err = p.toNode(b); err != nil {
				return operand{}, err
			}
		}
		return p.built(t, "clip()", Clip(x, bounds[0], bounds[1]), max(args[0].height, args[1].height, args[2].height)+1, t)
	}
	// round, around
	if err := p.checkArgs(t, args, kws, 1, 2, "decimals"); err != nil {
		return operand{}, err
	}
	d := 0
	v, found, err := argument(t, args, kws, 1, "decimals")
	if err != nil {
		return operand{}, err
	}
	if found {
		if d, err = intArg(t, "decimals", v); err != nil {
			return operand{}, err
		}
	}
	nodes, h, err := p.nodes(args[:1])
	if err != nil {
		return operand{}, err
	}
	return p.built(t, t.text+"()", Round(nodes[0], d), h+1, t)
}

// reduction calls a reduction: name(a, axis=None, keepdims=False[, ddof=0]).
func (p *parser) reduction(t token, r reducer, args []operand, kws []kwArg) (operand, error) {
	if r.build == nil {
		return operand{}, syntaxErr(t, "%s() is not available in this build", t.text)
	}
	allowed := []string{"axis", "keepdims"}
	if r.ddof {
		allowed = append(allowed, "ddof")
	}
	if err := p.checkArgs(t, args, kws, 1, 2, allowed...); err != nil {
		return operand{}, err
	}
	var axes []int
	v, found, err := argument(t, args, kws, 1, "axis")
	if err != nil {
		return operand{}, err
	}
	oneAxis := found && !v.none && !v.isTuple // axis=<int>, not a tuple (scalarAxis)
	if found && !v.none {
		items := []operand{v}
		if v.isTuple {
			items = v.tuple
		}
		axes = make([]int, 0, len(items))
		for _, it := range items {
			if it.num.kind != pyIntK {
				return operand{}, syntaxErr(it.tok, "%s() axis must be an int, a tuple of ints or None", t.text)
			}
			a, err := intArg(t, "axis", it)
			if err != nil {
				return operand{}, err
			}
			axes = append(axes, a)
		}
	}
	keep := false
	if v, found, _ = argument(t, nil, kws, -1, "keepdims"); found {
		if v.num.kind != pyBoolK {
			return operand{}, syntaxErr(v.tok, "%s() argument keepdims must be True or False", t.text)
		}
		keep = v.num.b
	}
	ddof := 0
	if v, found, _ = argument(t, nil, kws, -1, "ddof"); found {
		if ddof, err = intArg(t, "ddof", v); err != nil {
			return operand{}, err
		}
	}
	x, err := p.toNode(args[0])
	if err != nil {
		return operand{}, err
	}
	if oneAxis && scalarAxis(t.text, x, axes[0]) {
		axes = nil
	}
	return p.built(t, t.text+"()", r.build(x, axes, ddof, keep), args[0].height+1, t)
}

// scalarAxis reports whether NumPy lets axis (a single int, not a tuple)
// through for reduction name of the operand x: axis 0 or -1 of a 0-d
// operand, for backward compatibility, in every reduction made of a ufunc's
// reduce (sum, prod, min, max, any, all, count_nonzero, nansum, nanmin,
// nanmax; nanmean of floats, which is a ratio of two sums) and in argmin
// and argmax, and then reduces nothing. mean, std and var (and nanmean of
// integers and bools, which is mean) raise AxisError, as here.
func scalarAxis(name string, x *Node, axis int) bool {
	if axis != 0 && axis != -1 || !x.Shape().RankKnown || len(x.Shape().Dims) != 0 {
		return false
	}
	switch name {
	case "mean", "std", "var":
		return false
	case "nanmean":
		return x.DType().IsFloat()
	}
	return true
}
