package array

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stride0/stride0/internal/half"
)

// Printing limits, as NumPy's default print options.
const (
	// PrintThreshold is the element count above which an array prints
	// summarised: only PrintEdgeItems elements at each end of every axis
	// longer than 2*PrintEdgeItems, with "..." between them.
	PrintThreshold = 1000
	// PrintEdgeItems is how many elements a summarised axis shows at each end.
	PrintEdgeItems = 3
	// PrintLineWidth is the width at which the innermost rows wrap.
	PrintLineWidth = 75
	// PrintPrecision is the most fractional digits %v prints for a float.
	PrintPrecision = 8
	// maxPrinted caps the elements one print formats (a summarised array of
	// high rank can still show 6^rank of them); beyond it only the header
	// prints.
	maxPrinted = 1 << 16
	// maxWidth caps a requested element width, so that %1000000v of a
	// thousand elements does not build a gigabyte.
	maxWidth = 1000
)

// Format implements fmt.Formatter, so that fmt.Println(a) shows the values:
//
//   - %v and %s print the values as NumPy's str does: nested brackets, one
//     line per row, every element right-aligned to one width, elements
//     separated by a space, rows wrapped at PrintLineWidth columns, and an
//     array of more than PrintThreshold elements summarised with "...".
//     Floats use NumPy's default format: at most PrintPrecision fractional
//     digits (the fewest that identify the value in its dtype), a trailing
//     "." for whole numbers, scientific notation when the magnitudes span
//     more than 1e3 or leave [1e-4, 1e16); nan, inf and -inf as NumPy
//     writes them. Booleans print as NumPy's True and False (%t prints Go's
//     true and false). Null elements print as null. A rank-0 array prints
//     its element alone; an array with no element prints [].
//   - %.Nv sets the float precision to N digits (NumPy's precision option,
//     at most 40); a width (%8v) is a minimum element width (at most 1000).
//   - %+v prints array(values, dtype=float32, shape=[2 3]), with the rows
//     after the first indented under the first.
//   - %#v prints the header: dtype, shape, strides, offset (and "with
//     validity" when a has a mask), as array.String did before values were
//     printed.
//   - Any other verb, with its flags, width and precision, applies to every
//     element, which is passed to fmt as its Go type (float16 as float32):
//     %.3f, %e, %g, %x, %d, %t, %q... A float verb (%e %f %g) prints integer
//     and bool elements converted to float64. The results are aligned to the
//     widest (left-aligned with the - flag).
//
// A nil array prints array(nil); a released one prints its header with
// "released". An array whose summarised form would still hold more than
// 65536 elements (high rank) prints its header followed by "[...]". With a
// nil fmt.State (a direct call, not through fmt) it writes nothing.
func (a *Array) Format(f fmt.State, verb rune) {
	if f == nil {
		return
	}
	if a == nil {
		_, _ = f.Write([]byte("array(nil)"))
		return
	}
	if verb == 'v' && f.Flag('#') || !a.Live() {
		_, _ = f.Write([]byte(a.header()))
		return
	}
	p := printer{a: a, verb: verb, state: f, precision: PrintPrecision}
	if verb == 'v' || verb == 's' {
		if prec, ok := f.Precision(); ok {
			p.precision = min(prec, 40)
		}
	}
	var out string
	if verb == 'v' && f.Flag('+') {
		out = "array(" + p.render(len("array(")) + ", dtype=" + a.dtype.String() + ", shape=" + fmt.Sprint(a.shape) + ")"
	} else {
		out = p.render(0)
	}
	_, _ = f.Write([]byte(out))
}

// String returns the values as %v prints them (see Format).
func (a *Array) String() string { return fmt.Sprint(a) }

// header describes the layout: dtype, shape, strides and offset.
func (a *Array) header() string {
	if a == nil {
		return "array(nil)"
	}
	s := fmt.Sprintf("array(%v %v strides %v offset %d", a.dtype, a.shape, a.strides, a.offset)
	if a.valid != nil {
		s += " with validity"
	}
	if !a.Live() {
		s += " released"
	}
	return s + ")"
}

type printer struct {
	a         *Array
	verb      rune
	state     fmt.State
	precision int
	summary   bool
	words     []string // formatted shown elements, in row-major order
	next      int      // the next word the layout takes
}

// render lays out a's values; prefix is the width of text already on the
// first line (the continuation lines are indented by as much).
func (p *printer) render(prefix int) string {
	a := p.a
	if a.Len() == 0 {
		return "[]"
	}
	p.summary = a.Len() > PrintThreshold
	shown := 1
	for _, d := range a.shape {
		if p.summary && d > 2*PrintEdgeItems {
			d = 2 * PrintEdgeItems
		}
		shown *= d
		if shown > maxPrinted {
			return a.header() + " [...]"
		}
	}
	elems := make([]int, 0, shown)
	p.walk(0, a.offset, func(e int) { elems = append(elems, e) })
	p.words = p.format(elems)
	width := 0
	for _, w := range p.words {
		width = max(width, len(w))
	}
	if w, ok := p.state.Width(); ok {
		width = max(width, min(w, maxWidth))
	}
	left := p.state.Flag('-')
	for i, w := range p.words {
		if pad := width - len(w); pad > 0 {
			if left {
				p.words[i] = w + strings.Repeat(" ", pad)
			} else {
				p.words[i] = strings.Repeat(" ", pad) + w
			}
		}
	}
	if len(a.shape) == 0 {
		return p.words[0]
	}
	return p.layout(0, strings.Repeat(" ", prefix+1), PrintLineWidth)
}

// shownRange returns the indices of axis that print: all, or the edges
// around a gap (gap true) when the array is summarised.
func (p *printer) shownRange(axis int) (lead, trail int, gap bool) {
	n := p.a.shape[axis]
	if p.summary && n > 2*PrintEdgeItems {
		return PrintEdgeItems, PrintEdgeItems, true
	}
	return n, 0, false
}

// walk calls f with the buffer index of every shown element in row-major
// order.
func (p *printer) walk(axis, e int, f func(int)) {
	a := p.a
	if axis == len(a.shape) {
		f(e)
		return
	}
	lead, trail, _ := p.shownRange(axis)
	n, s := a.shape[axis], a.strides[axis]
	for i := 0; i < lead; i++ {
		p.walk(axis+1, e+i*s, f)
	}
	for i := n - trail; i < n; i++ {
		p.walk(axis+1, e+i*s, f)
	}
}

// layout returns the bracketed text of the sub-array at axis (its words
// are the next ones), NumPy's way: indent is the hanging indent of its
// lines, width the columns they may take.
func (p *printer) layout(axis int, indent string, width int) string {
	a := p.a
	lead, trail, gap := p.shownRange(axis)
	count := lead + trail
	var sb strings.Builder
	if axis == len(a.shape)-1 {
		elemWidth := width - 1 // room for the closing bracket
		line := indent
		add := func(word string) {
			if len(line)+len(word) > elemWidth && len(line) > len(indent) {
				sb.WriteString(strings.TrimRight(line, " "))
				sb.WriteByte('\n')
				line = indent
			}
			line += word
		}
		for i := 0; i < count; i++ {
			if i == lead && gap {
				add("...")
				line += " "
			}
			add(p.words[p.next])
			p.next++
			if i < count-1 {
				line += " "
			}
		}
		sb.WriteString(line)
	} else {
		sep := strings.Repeat("\n", len(a.shape)-axis-1)
		for i := 0; i < count; i++ {
			if i == lead && gap {
				sb.WriteString(indent + "..." + sep)
			}
			sb.WriteString(indent + p.layout(axis+1, indent+" ", width-1))
			if i < count-1 {
				sb.WriteString(sep)
			}
		}
	}
	return "[" + sb.String()[len(indent):] + "]"
}

// format turns the elements at the buffer indices into words (unpadded).
func (p *printer) format(elems []int) []string {
	a := p.a
	words := make([]string, len(elems))
	mask := a.maskBytes()
	isNull := func(e int) bool { return mask != nil && mask[e] == 0 }
	if p.verb != 'v' && p.verb != 's' {
		format := p.elementFormat()
		float := strings.ContainsRune("eEfFgG", p.verb)
		for i, e := range elems {
			if isNull(e) {
				words[i] = "null"
				continue
			}
			words[i] = fmt.Sprintf(format, a.goValue(e, float))
		}
		return words
	}
	switch {
	case a.dtype == Bool:
		for i, e := range elems {
			switch {
			case isNull(e):
				words[i] = "null"
			case a.data.Bytes()[e] != 0:
				words[i] = "True"
			default:
				words[i] = "False"
			}
		}
	case a.dtype.IsFloat():
		ff := floatFormat{dtype: a.dtype, precision: p.precision}
		vals := make([]float64, 0, len(elems))
		for _, e := range elems {
			if !isNull(e) {
				vals = append(vals, a.load(e).f)
			}
		}
		ff.choose(vals)
		for i, e := range elems {
			if isNull(e) {
				words[i] = "null"
			} else {
				words[i] = ff.format(a.load(e).f)
			}
		}
	default:
		for i, e := range elems {
			v := a.load(e)
			switch {
			case isNull(e):
				words[i] = "null"
			case v.kind == 'i':
				words[i] = strconv.FormatInt(v.i, 10)
			default:
				words[i] = strconv.FormatUint(v.u, 10)
			}
		}
	}
	return words
}

// elementFormat rebuilds the verb, flags, width and precision for one
// element. The width is left out: the words are aligned afterwards.
func (p *printer) elementFormat() string {
	var b strings.Builder
	b.WriteByte('%')
	for _, c := range "+# 0" {
		if p.state.Flag(int(c)) {
			b.WriteRune(c)
		}
	}
	if w, ok := p.state.Width(); ok && p.state.Flag('0') {
		b.WriteString(strconv.Itoa(min(w, maxWidth))) // zero padding needs the width
	}
	if prec, ok := p.state.Precision(); ok {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(prec))
	}
	b.WriteRune(p.verb)
	return b.String()
}

// goValue returns element e as its Go type (float16 as float32), or as
// float64 for a float verb.
func (a *Array) goValue(e int, float bool) any {
	v := a.load(e)
	if float {
		return v.asFloat()
	}
	switch a.dtype {
	case Bool:
		return v.asBool()
	case Int8:
		return int8(v.i)
	case Int16:
		return int16(v.i)
	case Int32:
		return int32(v.i)
	case Int64:
		return v.i
	case Uint8:
		return uint8(v.u)
	case Uint16:
		return uint16(v.u)
	case Uint32:
		return uint32(v.u)
	case Uint64:
		return v.u
	case Float16, Float32:
		return float32(v.f)
	}
	return v.f
}

// floatFormat is NumPy's default float format (floatmode "maxprec"): one
// notation and one digit count for every element of an array.
type floatFormat struct {
	dtype     DType
	precision int
	sci       bool
	digits    int // fractional digits (of the mantissa in scientific notation)
	expDigits int // exponent digits in scientific notation (at least 2)
}

// choose picks the notation and digits for the (non-null) values.
func (ff *floatFormat) choose(vals []float64) {
	maxAbs, minAbs := 0.0, math.Inf(1)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		v = math.Abs(v)
		maxAbs = max(maxAbs, v)
		if v != 0 {
			minAbs = min(minAbs, v)
		}
	}
	if maxAbs >= 1e16 || (!math.IsInf(minAbs, 1) && (minAbs < 1e-4 || maxAbs/minAbs > 1e3)) {
		ff.sci = true
	}
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		ff.digits = max(ff.digits, ff.fracDigits(v))
	}
	for _, v := range vals {
		if ff.sci && !math.IsNaN(v) && !math.IsInf(v, 0) {
			_, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', ff.digits, 64), "e")
			ff.expDigits = max(ff.expDigits, len(exp)-1)
		}
	}
}

// minimal returns v with the fewest digits that identify it in ff's dtype
// ('f' or 'e' by the notation), rounded to ff.precision fractional digits
// when it needs more, trailing zeros dropped.
func (ff *floatFormat) minimal(v float64) string {
	s := ff.shortest(v)
	mant, exp, sci := strings.Cut(s, "e")
	if _, frac, ok := strings.Cut(mant, "."); ok && len(frac) > ff.precision {
		fmtc := byte('f')
		if sci {
			fmtc = 'e'
		}
		s = strconv.FormatFloat(v, fmtc, ff.precision, 64)
		mant, exp, sci = strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(mant, "0")
		}
	}
	mant = strings.TrimSuffix(mant, ".")
	if sci {
		return mant + "e" + exp
	}
	return mant
}

// fracDigits is how many fractional digits (of the mantissa in scientific
// notation) minimal writes for v.
func (ff *floatFormat) fracDigits(v float64) int {
	mant, _, _ := strings.Cut(ff.minimal(v), "e")
	_, frac, _ := strings.Cut(mant, ".")
	return len(frac)
}

// shortest returns the shortest decimal form of v ('f' or 'e' by the
// notation) that reads back as the same value of ff's dtype.
func (ff *floatFormat) shortest(v float64) string {
	fmtc := byte('f')
	if ff.sci {
		fmtc = 'e'
	}
	switch ff.dtype {
	case Float64:
		return strconv.FormatFloat(v, fmtc, -1, 64)
	case Float32:
		return strconv.FormatFloat(v, fmtc, -1, 32)
	}
	bits := half.FromFloat64(v)
	for prec := 0; prec < 24; prec++ {
		s := strconv.FormatFloat(v, fmtc, prec, 64)
		if r, err := strconv.ParseFloat(s, 64); err == nil && half.FromFloat64(r) == bits {
			return s
		}
	}
	return strconv.FormatFloat(v, fmtc, -1, 64)
}

// format writes one value. In fixed notation its fractional digits are the
// fewest that identify it, padded with spaces to ff.digits; in scientific
// notation the mantissa has ff.digits fractional digits and the exponent
// ff.expDigits digits.
func (ff *floatFormat) format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	if ff.sci {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', ff.digits, 64), "e")
		if !strings.Contains(mant, ".") {
			mant += "."
		}
		sign, digits := exp[:1], exp[1:]
		return mant + "e" + sign + strings.Repeat("0", ff.expDigits-len(digits)) + digits
	}
	s := ff.minimal(v)
	_, frac, _ := strings.Cut(s, ".")
	if !strings.Contains(s, ".") {
		s += "."
	}
	return s + strings.Repeat(" ", ff.digits-len(frac))
}

var _ fmt.Formatter = (*Array)(nil)
