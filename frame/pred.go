package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// pred is a filter predicate split at its connectives (and, or, not), so
// that nulls follow SQL's three-valued logic: null and false is false,
// null or true is true. Each leaf is an expression evaluated by expr, null
// on the rows where one of its input columns is null.
type pred struct {
	op   string // "and", "or", "not", or "" for a leaf
	kids []*pred
	leaf *binding
}

// splitPred builds the predicate tree of b's expression.
func splitPred(b *binding, s *arrow.Schema) (*pred, error) {
	op, args := b.node.Connective()
	if op == "" {
		return &pred{leaf: b}, nil
	}
	p := &pred{op: op}
	for _, a := range args {
		lb, err := Binding{name: "filter", node: a, specials: b.specials}.resolve("frame.Filter", s)
		if err != nil {
			return nil, err
		}
		k, err := splitPred(lb, s)
		if err != nil {
			return nil, err
		}
		p.kids = append(p.kids, k)
	}
	return p, nil
}

// eval returns, per row, whether p is known (not null) and true.
func (p *pred) eval(w *worker, rec arrow.Record) (known, val []bool, err error) {
	n := int(rec.NumRows())
	if p.op == "" {
		c, err := w.column(p.leaf, rec)
		if err != nil {
			return nil, nil, err
		}
		defer c.Release()
		m, ok := c.(*arrowarray.Boolean)
		if !ok {
			return nil, nil, fmt.Errorf("%w: the predicate %v is %v, not bool", ErrType, p.leaf.node, c.DataType())
		}
		known, val = make([]bool, n), make([]bool, n)
		for i := 0; i < n; i++ {
			known[i] = m.IsValid(i)
			val[i] = known[i] && m.Value(i)
		}
		return known, val, nil
	}
	known, val, err = p.kids[0].eval(w, rec)
	if err != nil {
		return nil, nil, err
	}
	if p.op == "not" {
		for i := range val {
			val[i] = known[i] && !val[i]
		}
		return known, val, nil
	}
	k2, v2, err := p.kids[1].eval(w, rec)
	if err != nil {
		return nil, nil, err
	}
	for i := range val {
		f1, f2 := known[i] && !val[i], k2[i] && !v2[i] // known false
		if p.op == "and" {
			val[i] = val[i] && v2[i]
			known[i] = val[i] || f1 || f2
		} else {
			val[i] = val[i] || v2[i]
			known[i] = val[i] || (f1 && f2)
		}
	}
	return known, val, nil
}
