package expr

import (
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind uint8

const (
	tEOF  tokenKind = iota
	tNum            // a number literal (val holds it)
	tName           // an identifier or keyword
	tOp             // an operator or punctuation
)

// token is one lexeme: its kind, its text and its 0-based byte offset.
type token struct {
	kind tokenKind
	text string
	pos  int
	val  pyNum // tNum only
}

// operators, longest first so that "**" wins over "*".
var parseOps = []string{
	"**", "//", "<<", ">>", "<=", ">=", "==", "!=",
	"+", "-", "*", "/", "%", "~", "&", "|", "^", "<", ">", "(", ")", ",", "=",
}

// Python's number literals (underscores between digits).
var (
	reDecInt = regexp.MustCompile(`^(?:0(?:_?0)*|[1-9](?:_?[0-9])*)$`)
	reFloat  = regexp.MustCompile(`^(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$`)
)

// lex splits src into tokens, ending with tEOF.
func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			t, err := lexNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += len(t.text)
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '_' || unicode.IsLetter(r) {
			j := i + size
			for j < len(src) {
				r, n := utf8.DecodeRuneInString(src[j:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += n
			}
			toks = append(toks, token{kind: tName, text: src[i:j], pos: i})
			i = j
			continue
		}
		op := ""
		for _, o := range parseOps {
			if strings.HasPrefix(src[i:], o) {
				op = o
				break
			}
		}
		if op == "" {
			text := src[i : i+size]
			if r == utf8.RuneError && size <= 1 {
				return nil, syntaxErr(token{pos: i, text: src[i : i+1]}, "invalid UTF-8 byte %q", src[i:i+1])
			}
			if text == "." {
				return nil, syntaxErr(token{pos: i, text: text}, "unexpected '.': attributes are not supported (write sqrt(x), not np.sqrt(x))")
			}
			return nil, syntaxErr(token{pos: i, text: text}, "unexpected character %q", text)
		}
		toks = append(toks, token{kind: tOp, text: op, pos: i})
		i += len(op)
	}
	return append(toks, token{kind: tEOF, pos: len(src)}), nil
}

// lexNumber reads the number literal at src[i:].
func lexNumber(src string, i int) (token, error) {
	j := i
	hex := strings.HasPrefix(src[i:], "0x") || strings.HasPrefix(src[i:], "0X")
	for j < len(src) {
		c := src[j]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.':
			j++
		case (c == '+' || c == '-') && !hex && (src[j-1] == 'e' || src[j-1] == 'E'):
			j++
		default:
			goto done
		}
	}
done:
	text := src[i:j]
	tok := token{kind: tNum, text: text, pos: i}
	lower := strings.ToLower(text)
	switch {
	case strings.HasSuffix(lower, "j") && !hex:
		return tok, syntaxErr(tok, "complex number %s is not supported", text)
	case len(lower) > 1 && lower[0] == '0' && (lower[1] == 'x' || lower[1] == 'o' || lower[1] == 'b'):
		v, ok := new(big.Int).SetString(text, 0)
		if !ok {
			return tok, syntaxErr(tok, "invalid number literal %s", text)
		}
		if v.BitLen() > maxIntBits {
			return tok, syntaxErr(tok, "integer literal of %d bits is too large", v.BitLen())
		}
		tok.val = pyInt(v)
	case reDecInt.MatchString(text):
		v, ok := new(big.Int).SetString(strings.ReplaceAll(text, "_", ""), 10)
		if !ok {
			return tok, syntaxErr(tok, "invalid number literal %s", text)
		}
		if v.BitLen() > maxIntBits {
			return tok, syntaxErr(tok, "integer literal of %d bits is too large", v.BitLen())
		}
		tok.val = pyInt(v)
	case reFloat.MatchString(text) && strings.ContainsAny(text, ".eE"):
		f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range gives ±Inf or 0, as in Python
			return tok, syntaxErr(tok, "invalid number literal %s", text)
		}
		tok.val = pyFloat(f)
	default:
		return tok, syntaxErr(tok, "invalid number literal %s", text)
	}
	return tok, nil
}
