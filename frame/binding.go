package frame

import (
	"errors"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
)

// Binding is a computed column for WithColumns: a name and the expression
// that computes it, as text (Let) or as a node (LetExpr).
type Binding struct {
	name string
	src  string
	node *expr.Node
	// dim names of a tensor result (WithDimNames)
	dimNames []string
	// tests frame computes (a part of a predicate, see splitPred)
	specials map[string]*special
}

// Let is the column name computed by src, an expression in expr.Parse's
// syntax over the frame's column names ("(x - mean(x, axis=0)) /
// std(x, axis=0)", "where(y > 0, log1p(y), 0)").
func Let(name, src string) Binding { return Binding{name: name, src: src} }

// LetExpr is the column name computed by e, an expression whose variables
// are columns of the frame (made with Frame.Col, or expr.Var with the
// column's dtype and shape [rows, element shape...]).
func LetExpr(name string, e *expr.Node) Binding { return Binding{name: name, node: e} }

// WithDimNames names the axes of a tensor column b computes (the
// dim_names of its fixed_shape_tensor type, one per element axis); a
// primitive result ignores them.
func (b Binding) WithDimNames(names ...string) Binding {
	b.dimNames = append([]string(nil), names...)
	return b
}

// Col returns the expression variable that stands for column name of f:
// its dtype, and shape [?, element shape...] where ? is the number of rows
// (known when a batch arrives). A column f lacks, or one of a type that
// expressions cannot compute on, gives a variable that the verb using it
// reports (ErrNoColumn with the columns there are, or ErrType).
func (f Frame) Col(name string) *expr.Node {
	v, err := arrowio.SchemaVar(f.Schema(), name)
	if err != nil {
		return expr.Var(name, array.Float64, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
	}
	return v
}

// binding is a Binding resolved against a schema.
type binding struct {
	name     string
	node     *expr.Node
	vars     map[string]int // variable -> column index
	specials map[string]*special
	out      arrow.DataType // the column type it makes
	rowWise  bool           // row i depends on row i only
	dimNames []string
}

func (b *binding) text() string {
	if b == nil || b.node == nil {
		return "?"
	}
	return b.node.String()
}

// resolve checks b against schema s for verb where: every variable names a
// column with a dtype, the result has a row axis (or is a scalar, which a
// column-wide step broadcasts), and its element shape is static.
func (b Binding) resolve(where string, s *arrow.Schema) (*binding, error) {
	if b.name == "" {
		return nil, fmt.Errorf("%s: %w: a computed column needs a name", where, ErrArgument)
	}
	where = fmt.Sprintf("%s %q", where, b.name)
	n := b.node
	if b.src != "" || n == nil {
		if b.src == "" {
			return nil, fmt.Errorf("%s: %w: no expression", where, ErrArgument)
		}
		src, specs, err := rewrite(where, b.src, s)
		if err != nil {
			return nil, err
		}
		env := map[string]*expr.Node{}
		for _, f := range s.Fields() {
			if v, err := arrowio.SchemaVar(s, f.Name); err == nil {
				env[f.Name] = v
			}
		}
		b.specials = map[string]*special{}
		for _, sp := range specs {
			env[sp.name] = expr.Var(sp.name, array.Bool, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim()}, RankKnown: true})
			b.specials[sp.name] = sp
		}
		n, err = expr.Parse(src, env)
		if err != nil {
			var pe *expr.ParseError
			if errors.As(err, &pe) && pe.Token != "" {
				if i := s.FieldIndices(pe.Token); len(i) > 0 {
					return nil, fmt.Errorf("%s: %w: column %q is %s, which expressions cannot compute on (%v)", where, ErrType, pe.Token, typeName(s.Field(i[0]).Type), err)
				}
			}
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	if err := n.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	r := &binding{name: b.name, node: n, vars: map[string]int{}, specials: map[string]*special{}, dimNames: b.dimNames}
	for _, vn := range n.Variables() {
		v := vn.VarName()
		if sp := b.specials[v]; sp != nil {
			r.specials[v] = sp
			continue
		}
		i, err := columnIndex(s, where, v)
		if err != nil {
			return nil, err
		}
		want, err := arrowio.SchemaVar(s, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: column %q is %s, which expressions cannot compute on", where, ErrType, v, typeName(s.Field(i).Type))
		}
		if vn.DType() != want.DType() || vn.Shape().String() != want.Shape().String() {
			return nil, fmt.Errorf("%s: %w: variable %q is %v of shape %v; column %q is %v of shape %v", where, ErrType, v, vn.DType(), vn.Shape(), v, want.DType(), want.Shape())
		}
		r.vars[v] = i
	}
	sh := n.Shape()
	r.rowWise = len(r.vars)+len(r.specials) > 0 && n.RowWise() == nil
	if !sh.RankKnown {
		return nil, fmt.Errorf("%s: %w: result shape %v has no known rank", where, array.ErrShape, sh)
	}
	if len(sh.Dims) == 0 {
		if r.rowWise {
			return nil, fmt.Errorf("%s: %w: a rank-0 result has no row axis", where, array.ErrShape)
		}
		r.out = n.DType().ArrowType()
		return r, nil
	}
	row, ok := broadcast.Shape{Dims: sh.Dims[1:], RankKnown: true}.Static()
	if !ok {
		return nil, fmt.Errorf("%s: %w: result shape %v: the element shape must be static", where, array.ErrShape, sh)
	}
	if r.rowWise {
		if d := sh.Dims[0]; d.Hi >= 0 && d.Lo == d.Hi {
			return nil, fmt.Errorf("%s: %w: result shape %v: axis 0 has a fixed length, so it is not the row axis", where, array.ErrShape, sh)
		}
	}
	r.out = n.DType().ArrowType()
	if len(row) > 0 {
		t, err := arrowio.NewFixedShapeTensorType(r.out, row, r.dimNames, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		r.out = t
	}
	return r, nil
}
