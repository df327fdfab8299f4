package frame

import (
	"cmp"
	"math"
	"sync/atomic"

	"github.com/stride0/stride0/parquetio"
)

// Stats counts what a run read, for a caller who wants to see the row
// groups a filter let a Parquet source skip (WithStats).
type Stats struct {
	// RowGroups is the number of Parquet row groups read, and
	// RowGroupsSkipped those skipped because their statistics showed that
	// no row could pass a filter.
	RowGroups, RowGroupsSkipped atomic.Int64
}

// WithStats makes the run count into s.
func WithStats(s *Stats) Option { return func(c *runConfig) { c.stats = s } }

// cond is one conjunct of a filter that row-group statistics can refute:
// column OP a number, or column OP a string.
type cond struct {
	col   string
	op    string
	num   float64
	str   string
	isStr bool
}

// prunes finds, for every Parquet source of the plan, the conditions of
// the filters right above it (through other filters and projections that
// keep the names): a row group whose statistics refute one of them holds
// no row that passes. A source that several parts of the plan read (a
// Frame used twice, as in a self-join) keeps only the conditions every
// one of those reads has above it.
func prunes(root *node) map[*node][]cond {
	paths := map[*node][][]cond{} // per source, the conditions of each read
	seen := map[*node]bool{}
	// walk visits n, reached through a chain of filters whose conditions
	// are conds (nil when the parent is not a filter or a projection).
	var walk func(n *node, conds []cond)
	walk = func(n *node, conds []cond) {
		if n == nil {
			return
		}
		if conds == nil {
			if seen[n] {
				return
			}
			seen[n] = true
		}
		switch {
		case n.kind == stepSource:
			if _, ok := n.src.(*parquetSource); ok {
				paths[n] = append(paths[n], conds)
			}
			return
		case n.kind == stepFilter && n.err == nil:
			walk(n.in, append(append([]cond{}, conds...), conjuncts(n.tree)...))
		case n.kind == stepProject && keepsNames(n) && conds != nil:
			walk(n.in, conds)
		default:
			walk(n.in, nil)
		}
		if n.join != nil {
			walk(n.join.right, nil)
		}
		for _, p := range n.parts {
			walk(p, nil)
		}
	}
	walk(root, nil)
	m := map[*node][]cond{}
	for src, ps := range paths {
		common := ps[0]
		for _, p := range ps[1:] {
			var keep []cond
			for _, c := range common {
				for _, d := range p {
					if c == d {
						keep = append(keep, c)
						break
					}
				}
			}
			common = keep
		}
		if len(common) > 0 {
			m[src] = common
		}
	}
	return m
}

// keepsNames reports whether a projection leaves every column it keeps
// under its input name.
func keepsNames(n *node) bool {
	for k, i := range n.pick {
		if n.schema.Field(k).Name != n.in.schema.Field(i).Name {
			return false
		}
	}
	return true
}

// conjuncts lists the comparisons a predicate is the conjunction of.
func conjuncts(p *pred) []cond {
	if p == nil {
		return nil
	}
	switch p.op {
	case "and":
		return append(conjuncts(p.kids[0]), conjuncts(p.kids[1])...)
	case "":
	default:
		return nil
	}
	b := p.leaf
	if op, name, v, ok := b.node.Comparison(); ok && op != "!=" && !math.IsNaN(v) {
		if _, isCol := b.vars[name]; isCol {
			return []cond{{col: name, op: op, num: v}}
		}
	}
	if name := b.node.VarName(); name != "" {
		if sp := b.specials[name]; sp != nil && sp.op != "!=" && sp.op != "is_null" && sp.op != "is_not_null" && !isTemporal(sp) {
			return []cond{{col: sp.cn, op: sp.op, str: sp.lit, isStr: true}}
		}
	}
	return nil
}

func isTemporal(sp *special) bool { return temporalStorage(sp.t) != nil }

// refutes reports whether the row group's statistics show that no row
// passes c: every row null, or every value on the wrong side.
func (c cond) refutes(rg parquetio.RowGroup) bool {
	cs, ok := rg.Stats[c.col]
	if !ok {
		return false
	}
	if cs.Nulls >= 0 && cs.Nulls == rg.Rows && rg.Rows > 0 {
		return true // a comparison with a null is never true
	}
	if !cs.HasMinMax {
		return false
	}
	var lo, hi int // the comparisons of v with min and with max
	switch mn := cs.Min.(type) {
	case string:
		if !c.isStr {
			return false
		}
		lo, hi = cmp.Compare(c.str, mn), cmp.Compare(c.str, cs.Max.(string))
	case int64:
		mx := cs.Max.(int64)
		if c.isStr || math.Abs(float64(mn)) > 1<<53 || math.Abs(float64(mx)) > 1<<53 {
			return false // float64 would round the bounds
		}
		lo, hi = cmpF(c.num, float64(mn)), cmpF(c.num, float64(mx))
	case float64:
		if c.isStr || math.IsNaN(mn) || math.IsNaN(cs.Max.(float64)) {
			return false
		}
		lo, hi = cmpF(c.num, mn), cmpF(c.num, cs.Max.(float64))
	default:
		return false
	}
	switch c.op { // v OP'd against [min, max]
	case ">":
		return hi >= 0 // max <= v
	case ">=":
		return hi > 0 // max < v
	case "<":
		return lo <= 0 // min >= v
	case "<=":
		return lo < 0 // min > v
	case "==":
		return lo < 0 || hi > 0
	}
	return false
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
