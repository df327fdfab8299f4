package frame

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"

	"github.com/stride0/stride0/arrowio"
)

// Printing limits, as Polars' defaults: at most maxRows rows (the first and
// last half, with a row of "…" between) and maxCols columns; strings cut
// at maxStr characters, tensors at maxElems elements.
const (
	maxRows  = 10
	maxCols  = 8
	maxStr   = 15
	maxElems = 3
)

// typeName is Polars' short name of an Arrow type: i64, f32, str, bool,
// date, datetime[μs, UTC], cat, array[f32, (4, 4)].
func typeName(t arrow.DataType) string {
	switch tt := t.(type) {
	case nil:
		return "?"
	case *arrowio.FixedShapeTensorType:
		dims := make([]string, 0, len(tt.LogicalShape()))
		for _, d := range tt.LogicalShape() {
			dims = append(dims, strconv.Itoa(d))
		}
		shape := strings.Join(dims, ", ")
		if len(dims) > 1 {
			shape = "(" + shape + ")"
		}
		return fmt.Sprintf("array[%s, %s]", typeName(tt.ValueType()), shape)
	case *arrow.FixedSizeListType:
		return fmt.Sprintf("array[%s, %d]", typeName(tt.Elem()), tt.Len())
	case *arrow.ListType:
		return "list[" + typeName(tt.Elem()) + "]"
	case *arrow.LargeListType:
		return "list[" + typeName(tt.Elem()) + "]"
	case *arrow.TimestampType:
		u := map[arrow.TimeUnit]string{arrow.Second: "s", arrow.Millisecond: "ms", arrow.Microsecond: "μs", arrow.Nanosecond: "ns"}[tt.Unit]
		if tt.TimeZone != "" {
			return fmt.Sprintf("datetime[%s, %s]", u, tt.TimeZone)
		}
		return fmt.Sprintf("datetime[%s]", u)
	case *arrow.DictionaryType:
		return "cat"
	}
	switch t.ID() {
	case arrow.INT8:
		return "i8"
	case arrow.INT16:
		return "i16"
	case arrow.INT32:
		return "i32"
	case arrow.INT64:
		return "i64"
	case arrow.UINT8:
		return "u8"
	case arrow.UINT16:
		return "u16"
	case arrow.UINT32:
		return "u32"
	case arrow.UINT64:
		return "u64"
	case arrow.FLOAT16:
		return "f16"
	case arrow.FLOAT32:
		return "f32"
	case arrow.FLOAT64:
		return "f64"
	case arrow.BOOL:
		return "bool"
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return "str"
	case arrow.BINARY, arrow.LARGE_BINARY:
		return "binary"
	case arrow.DATE32, arrow.DATE64:
		return "date"
	case arrow.NULL:
		return "null"
	}
	return t.String()
}

// String prints the table as Polars prints a DataFrame: its shape, then a
// box with the column names and types, the first and last rows (and a row
// of "…" between when there are more than 10), and the first and last
// columns when there are more than 8.
func (t *Table) String() string {
	s := t.Schema()
	rows := int(t.NumRows())
	cols := make([]int, 0, s.NumFields())
	for i := 0; i < s.NumFields(); i++ {
		if s.NumFields() > maxCols && i == maxCols/2 {
			cols = append(cols, -1) // the "…" column
			i = s.NumFields() - maxCols/2
		}
		cols = append(cols, i)
	}
	var rowIdx []int
	for i := 0; i < rows; i++ {
		if rows > maxRows && i == maxRows/2 {
			rowIdx = append(rowIdx, -1)
			i = rows - maxRows/2
		}
		rowIdx = append(rowIdx, i)
	}
	// cells[c] = name, type, values...
	cells := make([][]string, len(cols))
	for k, c := range cols {
		if c < 0 {
			cells[k] = append([]string{"…", ""}, repeat("…", len(rowIdx))...)
			continue
		}
		col := cells[k][:0]
		col = append(col, s.Field(c).Name, typeName(s.Field(c).Type))
		for _, r := range rowIdx {
			if r < 0 {
				col = append(col, "…")
				continue
			}
			col = append(col, formatValue(t.rec.Column(c), r))
		}
		cells[k] = col
	}
	width := make([]int, len(cols))
	for k := range cells {
		for _, v := range cells[k] {
			width[k] = max(width[k], utf8.RuneCountInString(v), 3)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "shape: (%d, %d)\n", rows, s.NumFields())
	line := func(l, m, r, fill string) {
		b.WriteString(l)
		for k := range cols {
			if k > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat(fill, width[k]+2))
		}
		b.WriteString(r + "\n")
	}
	row := func(i int) {
		b.WriteString("│")
		for k := range cols {
			if k > 0 {
				b.WriteString("┆")
			}
			v := cells[k][i]
			b.WriteString(" " + v + strings.Repeat(" ", width[k]-utf8.RuneCountInString(v)) + " ")
		}
		b.WriteString("│\n")
	}
	if len(cols) == 0 {
		b.WriteString("┌┐\n╞╡\n└┘")
		return b.String()
	}
	line("┌", "┬", "┐", "─")
	row(0)
	b.WriteString("│")
	for k := range cols {
		if k > 0 {
			b.WriteString("┆")
		}
		d := "---"
		if cols[k] < 0 {
			d = ""
		}
		b.WriteString(" " + d + strings.Repeat(" ", width[k]-len(d)) + " ")
	}
	b.WriteString("│\n")
	row(1)
	line("╞", "╪", "╡", "═")
	for i := range rowIdx {
		row(2 + i)
	}
	line("└", "┴", "┘", "─")
	return strings.TrimSuffix(b.String(), "\n")
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// formatValue prints row i of a column as Polars does: null, numbers,
// quoted strings (cut at 15 characters), dates and times, tensors as
// [a, b, … z].
func formatValue(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	switch c := a.(type) {
	case *arrowarray.Float64:
		return formatFloat(c.Value(i), 64)
	case *arrowarray.Float32:
		return formatFloat(float64(c.Value(i)), 32)
	case *arrowarray.Float16:
		return formatFloat(float64(c.Value(i).Float32()), 32)
	case *arrowarray.Boolean:
		return strconv.FormatBool(c.Value(i))
	case *arrowarray.String:
		return quote(c.Value(i))
	case *arrowarray.LargeString:
		return quote(c.Value(i))
	case *arrowarray.Date32:
		return c.Value(i).ToTime().Format("2006-01-02")
	case *arrowarray.Date64:
		return c.Value(i).ToTime().Format("2006-01-02")
	case *arrowarray.Timestamp:
		tt := c.DataType().(*arrow.TimestampType)
		tm := c.Value(i).ToTime(tt.Unit)
		if tt.TimeZone != "" {
			if loc, err := time.LoadLocation(tt.TimeZone); err == nil {
				tm = tm.In(loc)
			}
			return tm.Format("2006-01-02 15:04:05.999999999 MST")
		}
		return tm.Format("2006-01-02 15:04:05.999999999")
	case *arrowarray.Dictionary:
		return formatValue(c.Dictionary(), c.GetValueIndex(i))
	case arrowarray.ExtensionArray:
		return formatValue(c.Storage(), i)
	case *arrowarray.FixedSizeList:
		n := int(c.DataType().(*arrow.FixedSizeListType).Len())
		return formatList(c.ListValues(), (c.Data().Offset()+i)*n, n)
	}
	return a.ValueStr(i)
}

// formatList prints n elements of values from start: all of them up to
// maxElems, else the first maxElems-1, "…" and the last.
func formatList(values arrow.Array, start, n int) string {
	var parts []string
	for k := 0; k < n; k++ {
		if n > maxElems && k == maxElems-1 {
			parts = append(parts, "…")
			k = n - 1
		}
		parts = append(parts, formatValue(values, start+k))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func quote(s string) string {
	if utf8.RuneCountInString(s) > maxStr {
		r := []rune(s)
		s = string(r[:maxStr]) + "…"
	}
	return strconv.Quote(s)
}

// formatFloat prints a float as Polars does: integral values with ".0",
// others with up to 6 significant digits after the point, and scientific
// notation for very large or small magnitudes.
func formatFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	a := math.Abs(v)
	if a != 0 && (a >= 1e10 || a < 1e-5) {
		return strconv.FormatFloat(v, 'e', 5, bits)
	}
	s := strconv.FormatFloat(v, 'f', 6, bits)
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}
