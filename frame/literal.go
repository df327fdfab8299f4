package frame

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// Expressions compute on numbers (package expr). A predicate may also
// compare a string, date or timestamp column with a quoted literal
// (site == "lyon", ts >= "2024-03-01 12:00", d < '2024-01-01') and test any
// column for nulls (is_null(c), is_not_null(c)). Before expr.Parse reads
// the text, each such test is replaced by a boolean variable that frame
// computes per batch: a comparison is null where the column is, as in SQL.

// special is one test frame computes itself.
type special struct {
	name string // the variable standing for it
	col  int
	cn   string // the column's name
	op   string // ==, !=, <, <=, >, >=, is_null, is_not_null
	lit  string // the literal (comparisons)
	t    arrow.DataType
	// the literal as the column's value: string, or int64 (days of a
	// date32, a timestamp in its unit)
	ival int64
}

// token of the rewriting scanner.
type ltok struct {
	kind     byte // 'i' identifier, 's' string literal, 'o' comparison, '(' ,')', 'x' other
	text     string
	val      string // a string literal's value
	pos, end int    // where the token is in the source
}

func lscan(src string) ([]ltok, error) {
	var out []ltok
	for i := 0; i < len(src); {
		c := src[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		start, n := i, len(out)
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("%w: unterminated string literal at %d", ErrArgument, i)
			}
			out = append(out, ltok{kind: 's', text: src[i : j+1], val: b.String()})
			i = j + 1
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			out = append(out, ltok{kind: 'i', text: src[i:j]})
			i = j
		case strings.HasPrefix(src[i:], "==") || strings.HasPrefix(src[i:], "!=") || strings.HasPrefix(src[i:], "<=") || strings.HasPrefix(src[i:], ">="):
			out = append(out, ltok{kind: 'o', text: src[i : i+2]})
			i += 2
		case c == '<' || c == '>':
			if i+1 < len(src) && src[i+1] == c { // a shift
				out = append(out, ltok{kind: 'x', text: src[i : i+2]})
				i += 2
				continue
			}
			out = append(out, ltok{kind: 'o', text: src[i : i+1]})
			i++
		case c == '(' || c == ')':
			out = append(out, ltok{kind: c, text: src[i : i+1]})
			i++
		default:
			out = append(out, ltok{kind: 'x', text: src[i : i+1]})
			i++
		}
		if len(out) > n {
			out[n].pos, out[n].end = start, i
		}
	}
	return out, nil
}

var flipOp = map[string]string{"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}

// rewrite replaces the tests of src that frame computes by variables, and
// returns the new text and the tests. Text without them is returned as is.
func rewrite(where, src string, s *arrow.Schema) (string, []*special, error) {
	if !strings.ContainsAny(src, "'\"") && !strings.Contains(src, "is_null") && !strings.Contains(src, "is_not_null") {
		return src, nil, nil
	}
	toks, err := lscan(src)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", where, err)
	}
	var specs []*special
	var b strings.Builder
	copied := 0 // src is copied up to here
	add := func(from, to ltok, col, op, lit string) error {
		b.WriteString(src[copied:from.pos])
		copied = to.end
		i, err := columnIndex(s, where, col)
		if err != nil {
			return err
		}
		sp := &special{name: fmt.Sprintf("__frame_test%d", len(specs)), col: i, cn: col, op: op, lit: lit, t: s.Field(i).Type}
		if err := sp.prepare(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		specs = append(specs, sp)
		b.WriteString(" " + sp.name + " ")
		return nil
	}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.kind == 'i' && (t.text == "is_null" || t.text == "is_not_null") && k+3 < len(toks) && toks[k+1].kind == '(' && toks[k+2].kind == 'i' && toks[k+3].kind == ')':
			if err := add(t, toks[k+3], toks[k+2].text, t.text, ""); err != nil {
				return "", nil, err
			}
			k += 3
		case t.kind == 'i' && k+2 < len(toks) && toks[k+1].kind == 'o' && toks[k+2].kind == 's':
			if err := add(t, toks[k+2], t.text, toks[k+1].text, toks[k+2].val); err != nil {
				return "", nil, err
			}
			k += 2
		case t.kind == 's' && k+2 < len(toks) && toks[k+1].kind == 'o' && toks[k+2].kind == 'i':
			if err := add(t, toks[k+2], toks[k+2].text, flipOp[toks[k+1].text], t.val); err != nil {
				return "", nil, err
			}
			k += 2
		case t.kind == 's':
			return "", nil, fmt.Errorf("%s: %w: the literal %s must be compared with a column (column == %s)", where, ErrArgument, t.text, t.text)
		}
	}
	b.WriteString(src[copied:])
	return b.String(), specs, nil
}

// prepare checks the test against the column's type and reads the literal.
func (sp *special) prepare() error {
	if sp.op == "is_null" || sp.op == "is_not_null" {
		return nil
	}
	t := sp.t
	if d, ok := t.(*arrow.DictionaryType); ok {
		t = d.ValueType
	}
	switch tt := t.(type) {
	case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.LargeBinaryType:
		return nil
	case *arrow.Date32Type:
		tm, err := parseTime(sp.lit, time.UTC)
		if err != nil {
			return err
		}
		sp.ival = int64(arrow.Date32FromTime(tm))
		if tm.Hour() != 0 || tm.Minute() != 0 || tm.Second() != 0 || tm.Nanosecond() != 0 {
			return fmt.Errorf("%w: %q is not a date (YYYY-MM-DD)", ErrArgument, sp.lit)
		}
		return nil
	case *arrow.TimestampType:
		loc := time.UTC
		if tt.TimeZone != "" {
			l, err := time.LoadLocation(tt.TimeZone)
			if err != nil {
				return fmt.Errorf("%w: time zone %q of the column: %v", ErrType, tt.TimeZone, err)
			}
			loc = l
		}
		tm, err := parseTime(sp.lit, loc)
		if err != nil {
			return err
		}
		v, err := arrow.TimestampFromTime(tm, tt.Unit)
		if err != nil {
			return fmt.Errorf("%w: %q: %v", ErrArgument, sp.lit, err)
		}
		sp.ival = int64(v)
		return nil
	}
	return fmt.Errorf("%w: column %q is %s; quoted literals compare with strings, dates and timestamps (numbers are written without quotes)", ErrType, sp.cn, typeName(sp.t))
}

// parseTime reads a literal time: RFC 3339, "YYYY-MM-DD HH:MM[:SS[.frac]]"
// or "YYYY-MM-DD", in loc unless it names its offset. A timestamp column
// reads a literal without an offset in its own time zone (UTC when it has
// none), so "2024-03-01 09:00" on a column of zone Europe/Paris is 08:00 UTC.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%w: %q is not a time (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS, or RFC 3339)", ErrArgument, s)
}

// eval computes the test over column c as a bool array (null where the
// column is, for comparisons).
func (sp *special) eval(mem memory.Allocator, c arrow.Array) (*array.Array, error) {
	n := c.Len()
	vals := make([]bool, n)
	valid := make([]bool, n)
	for i := 0; i < n; i++ {
		null := c.IsNull(i)
		switch sp.op {
		case "is_null":
			vals[i], valid[i] = null, true
			continue
		case "is_not_null":
			vals[i], valid[i] = !null, true
			continue
		}
		if null {
			continue
		}
		valid[i] = true
		var r int
		switch c.(type) {
		case *arrowarray.Date32, *arrowarray.Timestamp:
			v := int64(intBits(c, i))
			if _, ok := c.(*arrowarray.Date32); ok {
				v = int64(int32(intBits(c, i)))
			}
			r = cmp.Compare(v, sp.ival)
		default:
			r = strings.Compare(strValue(c, i), sp.lit)
		}
		switch sp.op {
		case "==":
			vals[i] = r == 0
		case "!=":
			vals[i] = r != 0
		case "<":
			vals[i] = r < 0
		case "<=":
			vals[i] = r <= 0
		case ">":
			vals[i] = r > 0
		case ">=":
			vals[i] = r >= 0
		}
	}
	return array.FromSliceValid(mem, vals, valid, n)
}
