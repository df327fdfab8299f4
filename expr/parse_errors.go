package expr

import (
	"errors"
	"fmt"
)

// ErrSyntax is wrapped by every error of Parse about the text itself: a bad
// token or literal, an unexpected token, an unknown name or function, a
// wrong argument count or keyword, an input too long or nested too deep.
// An op that Parse builds and that fails (shapes that do not broadcast, a
// dtype without a loop, a weak int out of range) is reported as a
// *ParseError at the operator too, but wraps that op's error instead
// (ErrDType, ErrOverflow, broadcast.ErrShape...).
var ErrSyntax = errors.New("syntax error")

// ParseError is the error type of Parse: Pos is the 0-based byte offset in
// the source of the token at fault (len(src) at the end of the input), Token
// that token's text ("" at the end), Msg what is wrong, and Err the error it
// wraps (ErrSyntax, or the error of the op built there).
type ParseError struct {
	Pos   int
	Token string
	Msg   string
	Err   error
}

// Error returns "parse error at <Pos>: <Msg>" ("expr: <nil error>" for a
// nil *ParseError).
func (e *ParseError) Error() string {
	if e == nil {
		return "expr: <nil error>"
	}
	if e.Err != nil && e.Err != ErrSyntax {
		return fmt.Sprintf("parse error at %d: %s: %v", e.Pos, e.Msg, e.Err)
	}
	return fmt.Sprintf("parse error at %d: %s", e.Pos, e.Msg)
}

// Unwrap returns the wrapped error (nil for a nil *ParseError).
func (e *ParseError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// syntaxErr returns a *ParseError at tok wrapping ErrSyntax.
func syntaxErr(tok token, format string, args ...any) *ParseError {
	return &ParseError{Pos: tok.pos, Token: tok.text, Msg: fmt.Sprintf(format, args...), Err: ErrSyntax}
}

// describe names a token in a message: 'x', or "end of input".
func (t token) describe() string {
	if t.kind == tEOF {
		return "end of input"
	}
	return "'" + t.text + "'"
}
