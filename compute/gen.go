//go:build ignore

// gen.go writes kernels_gen.go: one generic loop per (operator, type
// category, form), and the table that registers them for every element type.
// Run it with `go generate ./compute`.
package main

import (
	"bytes"
	"go/format"
	"log"
	"os"
	"strings"
	"text/template"
)

// category -> the Go element types it covers and its constraint name.
var cats = map[string]struct {
	constraint string
	types      []string
	consts     []string
}{
	"s": {"signed", []string{"int8", "int16", "int32", "int64"}, []string{"Int8", "Int16", "Int32", "Int64"}},
	"u": {"unsigned", []string{"uint8", "uint16", "uint32", "uint64"}, []string{"Uint8", "Uint16", "Uint32", "Uint64"}},
	"f": {"float", []string{"float32", "float64"}, []string{"Float32", "Float64"}},
	"b": {"boolean", []string{"uint8"}, []string{"Bool"}},
}

type op struct {
	Name  string            // Go identifier stem
	Const string            // compute.Op constant
	Out   string            // "T" or "bool" (bool results are stored as uint8 0/1)
	Expr  map[string]string // category -> expression in X and Y
}

var binary = []op{
	{"add", "Add", "T", map[string]string{"s": "X + Y", "u": "X + Y", "f": "X + Y", "b": "X | Y"}},
	{"sub", "Sub", "T", map[string]string{"s": "X - Y", "u": "X - Y", "f": "X - Y"}},
	{"mul", "Mul", "T", map[string]string{"s": "X * Y", "u": "X * Y", "f": "X * Y", "b": "X & Y"}},
	{"div", "Div", "T", map[string]string{"f": "X / Y"}},
	{"floorDiv", "FloorDiv", "T", map[string]string{"s": "floorDivS(X, Y)", "u": "divU(X, Y)", "f": "floorDivF(X, Y)"}},
	{"truncDiv", "TruncDiv", "T", map[string]string{"s": "truncDivS(X, Y)", "u": "divU(X, Y)", "f": "T(math.Trunc(float64(X / Y)))"}},
	{"remainder", "Remainder", "T", map[string]string{"s": "floorModS(X, Y)", "u": "modU(X, Y)", "f": "floorModF(X, Y)"}},
	{"fmod", "Fmod", "T", map[string]string{"s": "truncModS(X, Y)", "u": "modU(X, Y)", "f": "T(fmodF(float64(X), float64(Y)))"}},
	{"power", "Power", "T", map[string]string{"s": "powS(X, Y)", "u": "powU(X, Y)", "f": "T(powF(float64(X), float64(Y)))"}},
	{"maximum", "Maximum", "T", map[string]string{"s": "max(X, Y)", "u": "max(X, Y)", "f": "maxF(X, Y)", "b": "X | Y"}},
	{"minimum", "Minimum", "T", map[string]string{"s": "min(X, Y)", "u": "min(X, Y)", "f": "minF(X, Y)", "b": "X & Y"}},
	{"fmax", "Fmax", "T", map[string]string{"s": "max(X, Y)", "u": "max(X, Y)", "f": "fmaxF(X, Y)", "b": "X | Y"}},
	{"fmin", "Fmin", "T", map[string]string{"s": "min(X, Y)", "u": "min(X, Y)", "f": "fminF(X, Y)", "b": "X & Y"}},
	{"arctan2", "Arctan2", "T", map[string]string{"f": "T(atan2F(float64(X), float64(Y)))"}},
	{"hypot", "Hypot", "T", map[string]string{"f": "T(math.Hypot(float64(X), float64(Y)))"}},
	{"copysign", "Copysign", "T", map[string]string{"f": "T(math.Copysign(float64(X), float64(Y)))"}},
	{"sqDiff", "SquaredDiff", "T", map[string]string{"s": "(X - Y) * (X - Y)", "u": "(X - Y) * (X - Y)", "f": "(X - Y) * (X - Y)"}},
	{"prelu", "PRelu", "T", map[string]string{"s": "preluS(X, Y)", "u": "X", "f": "preluF(X, Y)"}},
	{"eq", "Equal", "bool", map[string]string{"s": "X == Y", "u": "X == Y", "f": "X == Y", "b": "X == Y"}},
	{"ne", "NotEqual", "bool", map[string]string{"s": "X != Y", "u": "X != Y", "f": "X != Y", "b": "X != Y"}},
	{"gt", "Greater", "bool", map[string]string{"s": "X > Y", "u": "X > Y", "f": "X > Y", "b": "X > Y"}},
	{"ge", "GreaterEqual", "bool", map[string]string{"s": "X >= Y", "u": "X >= Y", "f": "X >= Y", "b": "X >= Y"}},
	{"lt", "Less", "bool", map[string]string{"s": "X < Y", "u": "X < Y", "f": "X < Y", "b": "X < Y"}},
	{"le", "LessEqual", "bool", map[string]string{"s": "X <= Y", "u": "X <= Y", "f": "X <= Y", "b": "X <= Y"}},
	{"and", "LogicalAnd", "T", map[string]string{"b": "X & Y"}},
	{"or", "LogicalOr", "T", map[string]string{"b": "X | Y"}},
	{"xor", "LogicalXor", "T", map[string]string{"b": "X ^ Y"}},
	{"bitAnd", "BitwiseAnd", "T", map[string]string{"s": "X & Y", "u": "X & Y", "b": "X & Y"}},
	{"bitOr", "BitwiseOr", "T", map[string]string{"s": "X | Y", "u": "X | Y", "b": "X | Y"}},
	{"bitXor", "BitwiseXor", "T", map[string]string{"s": "X ^ Y", "u": "X ^ Y", "b": "X ^ Y"}},
	{"lshift", "LeftShift", "T", map[string]string{"s": "X << uint64(Y)", "u": "X << uint64(Y)"}},
	{"rshift", "RightShift", "T", map[string]string{"s": "X >> uint64(Y)", "u": "X >> uint64(Y)"}},
	{"logaddexp", "Logaddexp", "T", map[string]string{"f": "T(logaddexpF(float64(X), float64(Y)))"}},
	{"logaddexp2", "Logaddexp2", "T", map[string]string{"f": "T(logaddexp2F(float64(X), float64(Y)))"}},
	{"heaviside", "Heaviside", "T", map[string]string{"f": "T(heavisideF(float64(X), float64(Y)))"}},
	{"floatPower", "FloatPower", "T", map[string]string{"f": "T(powF(float64(X), float64(Y)))"}},
}

// unary ops; "bool" results are stored as uint8 0/1.
var unary = []op{
	{"neg", "Neg", "T", map[string]string{"s": "-X", "u": "-X", "f": "-X"}},
	{"abs", "Abs", "T", map[string]string{"s": "absS(X)", "u": "X", "f": "T(math.Abs(float64(X)))", "b": "X"}},
	{"sign", "Sign", "T", map[string]string{"s": "signS(X)", "u": "signU(X)", "f": "signF(X)"}},
	{"square", "Square", "T", map[string]string{"s": "X * X", "u": "X * X", "f": "X * X"}},
	{"reciprocal", "Reciprocal", "T", map[string]string{"s": "recipS(X)", "u": "recipU(X)", "f": "1 / X"}},
	{"sqrt", "Sqrt", "T", map[string]string{"f": "T(math.Sqrt(float64(X)))"}},
	{"exp", "Exp", "T", map[string]string{"f": "T(math.Exp(float64(X)))"}},
	{"exp2", "Exp2", "T", map[string]string{"f": "T(math.Exp2(float64(X)))"}},
	{"expm1", "Expm1", "T", map[string]string{"f": "T(math.Expm1(float64(X)))"}},
	{"log", "Log", "T", map[string]string{"f": "T(logF(float64(X)))"}},
	{"log2", "Log2", "T", map[string]string{"f": "T(log2F(float64(X)))"}},
	{"log10", "Log10", "T", map[string]string{"f": "T(log10F(float64(X)))"}},
	{"log1p", "Log1p", "T", map[string]string{"f": "T(math.Log1p(float64(X)))"}},
	{"sin", "Sin", "T", map[string]string{"f": "T(sinF(float64(X)))"}},
	{"cos", "Cos", "T", map[string]string{"f": "T(cosF(float64(X)))"}},
	{"tan", "Tan", "T", map[string]string{"f": "T(tanF(float64(X)))"}},
	{"arcsin", "Arcsin", "T", map[string]string{"f": "T(asinF(float64(X)))"}},
	{"arccos", "Arccos", "T", map[string]string{"f": "T(acosF(float64(X)))"}},
	{"arctan", "Arctan", "T", map[string]string{"f": "T(math.Atan(float64(X)))"}},
	{"sinh", "Sinh", "T", map[string]string{"f": "T(math.Sinh(float64(X)))"}},
	{"cosh", "Cosh", "T", map[string]string{"f": "T(math.Cosh(float64(X)))"}},
	{"tanh", "Tanh", "T", map[string]string{"f": "T(math.Tanh(float64(X)))"}},
	{"floor", "Floor", "T", map[string]string{"s": "X", "u": "X", "f": "T(math.Floor(float64(X)))", "b": "X"}},
	{"ceil", "Ceil", "T", map[string]string{"s": "X", "u": "X", "f": "T(math.Ceil(float64(X)))", "b": "X"}},
	{"trunc", "Trunc", "T", map[string]string{"s": "X", "u": "X", "f": "T(math.Trunc(float64(X)))", "b": "X"}},
	{"rint", "Rint", "T", map[string]string{"f": "T(math.RoundToEven(float64(X)))"}},
	{"isnan", "IsNaN", "bool", map[string]string{"s": "false", "u": "false", "f": "X != X", "b": "false"}},
	{"isinf", "IsInf", "bool", map[string]string{"s": "false", "u": "false", "f": "math.IsInf(float64(X), 0)", "b": "false"}},
	{"isfinite", "IsFinite", "bool", map[string]string{"s": "true", "u": "true", "f": "X-X == 0", "b": "true"}},
	{"not", "LogicalNot", "T", map[string]string{"b": "X ^ 1"}},
	{"invert", "Invert", "T", map[string]string{"s": "^X", "u": "^X", "b": "X ^ 1"}},
	{"arcsinh", "Arcsinh", "T", map[string]string{"f": "T(math.Asinh(float64(X)))"}},
	{"arccosh", "Arccosh", "T", map[string]string{"f": "T(math.Acosh(float64(X)))"}},
	{"arctanh", "Arctanh", "T", map[string]string{"f": "T(math.Atanh(float64(X)))"}},
	{"cbrt", "Cbrt", "T", map[string]string{"f": "T(math.Cbrt(float64(X)))"}},
	{"deg2rad", "Deg2rad", "T", map[string]string{"f": "deg2radF(X)"}},
	{"rad2deg", "Rad2deg", "T", map[string]string{"f": "rad2degF(X)"}},
	{"fabs", "Fabs", "T", map[string]string{"f": "T(math.Abs(float64(X)))"}},
	{"signbit", "Signbit", "bool", map[string]string{"f": "math.Signbit(float64(X))"}},
	{"positive", "Positive", "T", map[string]string{"s": "X", "u": "X", "f": "X"}},
}

const header = `// Code generated by gen.go; DO NOT EDIT.

package compute

import "math"

var _ = math.Abs
{{range $o := .Binary}}{{range $c, $e := $o.Expr}}
func {{$o.Name}}_{{$c}}_VV[T {{constraint $c}}](d []{{out $o}}, x, y []T) {
	y = y[:len(x)]
	d = d[:len(x)]
	for i := range x {
		d[i] = {{conv $o (expr $e "x[i]" "y[i]")}}
	}
}

func {{$o.Name}}_{{$c}}_VS[T {{constraint $c}}](d []{{out $o}}, x []T, y T) {
	d = d[:len(x)]
	for i := range x {
		d[i] = {{conv $o (expr $e "x[i]" "y")}}
	}
}

func {{$o.Name}}_{{$c}}_SV[T {{constraint $c}}](d []{{out $o}}, x T, y []T) {
	d = d[:len(y)]
	for i := range y {
		d[i] = {{conv $o (expr $e "x" "y[i]")}}
	}
}
{{end}}{{end}}
{{range $o := .Unary}}{{range $c, $e := $o.Expr}}
func {{$o.Name}}_{{$c}}[T {{constraint $c}}](d []{{out $o}}, x []T) {
	d = d[:len(x)]
	for i := range x {
		d[i] = {{conv $o (expr $e "x[i]" "")}}
	}
}
{{end}}{{end}}
func registerGenerated() {
{{- range $o := .Binary}}{{range $c, $e := $o.Expr}}{{range $i, $t := types $c}}
	binTable[{{$o.Const}}][{{index (consts $c) $i}}] = [numForms]BinaryFunc{
		wrapVV({{$o.Name}}_{{$c}}_VV[{{$t}}]), wrapVS({{$o.Name}}_{{$c}}_VS[{{$t}}]), wrapSV({{$o.Name}}_{{$c}}_SV[{{$t}}])}
{{- end}}{{end}}{{end}}
{{- range $o := .Unary}}{{range $c, $e := $o.Expr}}{{range $i, $t := types $c}}
	unTable[{{$o.Const}}][{{index (consts $c) $i}}] = wrapUnary({{$o.Name}}_{{$c}}[{{$t}}])
{{- end}}{{end}}{{end}}
}
`

func main() {
	funcs := template.FuncMap{
		"constraint": func(c string) string { return cats[c].constraint },
		"types":      func(c string) []string { return cats[c].types },
		"consts":     func(c string) []string { return cats[c].consts },
		"out": func(o op) string {
			if o.Out == "bool" {
				return "uint8"
			}
			return "T"
		},
		"expr": func(e, x, y string) string {
			e = strings.ReplaceAll(e, "X", x)
			return strings.ReplaceAll(e, "Y", y)
		},
		"conv": func(o op, e string) string {
			if o.Out == "bool" {
				return "b2u(" + e + ")"
			}
			return e
		},
	}
	t := template.Must(template.New("k").Funcs(funcs).Parse(header))
	var b bytes.Buffer
	if err := t.Execute(&b, map[string]any{"Binary": binary, "Unary": unary}); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.WriteFile("kernels_gen.go", b.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile("kernels_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
