package expr

import (
	"errors"
	"fmt"
	"sort"
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

// Error returns "parse error at <Pos>: <Msg>".
func (e *ParseError) Error() string {
	if e.Err != nil && e.Err != ErrSyntax {
		return fmt.Sprintf("parse error at %d: %s: %v", e.Pos, e.Msg, e.Err)
	}
	return fmt.Sprintf("parse error at %d: %s", e.Pos, e.Msg)
}

// Unwrap returns the wrapped error.
func (e *ParseError) Unwrap() error { return e.Err }

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

// suggest returns the candidate closest to name by edit distance, if it is
// close enough to be a likely typo ("" otherwise); ties go to the first in
// sorted order, so the message is deterministic.
func suggest(name string, candidates []string) string {
	if len(name) > 64 {
		return ""
	}
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 3
	if len(name) <= 3 {
		bestD = 2
	}
	for _, c := range sorted {
		if len(c) > 64 || c == name {
			continue
		}
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b over bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
