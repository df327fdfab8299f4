package frame

// needs computes, for every source of a plan, which of its columns the
// plan reads: the columns of the result, and every column a step above
// uses (keys, expression variables, aggregated columns). A source that
// can skip columns (a Parquet file) reads only those; the others stand as
// columns of nulls that nothing reads.
func needs(root *node) map[*node][]bool {
	m := map[*node][]bool{}
	all := make([]bool, root.schema.NumFields())
	for i := range all {
		all[i] = true
	}
	need(root, all, m)
	return m
}

// need records what n's input needs given that out (per output column of
// n) is needed.
func need(n *node, out []bool, m map[*node][]bool) {
	if n == nil || n.err != nil {
		return
	}
	in := func() []bool {
		if n.in == nil {
			return nil
		}
		return make([]bool, n.in.schema.NumFields())
	}
	switch n.kind {
	case stepSource:
		prev := m[n]
		if prev == nil {
			prev = make([]bool, len(out))
		}
		for i, o := range out {
			prev[i] = prev[i] || o
		}
		m[n] = prev
		return
	case stepProject:
		x := in()
		for k, i := range n.pick {
			x[i] = x[i] || out[k]
		}
		need(n.in, x, m)
	case stepCompute:
		x := in()
		for i := range x {
			x[i] = i < len(out) && out[i]
		}
		if n.cast != nil {
			x[n.cast.col] = true
		}
		for _, d := range n.defs { // a replaced column is not read
			if idx := n.in.schema.FieldIndices(d.name); len(idx) == 1 {
				x[idx[0]] = false
			}
		}
		for _, d := range n.defs {
			for _, i := range d.vars {
				x[i] = true
			}
			for _, sp := range d.specials {
				x[sp.col] = true
			}
		}
		need(n.in, x, m)
	case stepFilter:
		x := append([]bool(nil), out...)
		for _, i := range n.pred.vars {
			x[i] = true
		}
		for _, sp := range n.pred.specials {
			x[sp.col] = true
		}
		need(n.in, x, m)
	case stepLimit:
		need(n.in, out, m)
	case stepSort, stepHead:
		x := append([]bool(nil), out...)
		for _, i := range n.keys {
			x[i] = true
		}
		need(n.in, x, m)
	case stepGroup:
		x := in()
		for _, i := range n.keys {
			x[i] = true
		}
		for _, a := range n.aggs {
			if a.col >= 0 {
				x[a.col] = true
			}
			if a.op == aggCorr {
				x[a.col2] = true
			}
		}
		need(n.in, x, m)
	case stepJoin:
		p := n.join
		left := n.in.schema.NumFields()
		x := in()
		for i := 0; i < left; i++ {
			x[i] = out[i]
		}
		for _, i := range p.lk {
			x[i] = true
		}
		need(n.in, x, m)
		r := make([]bool, p.right.schema.NumFields())
		for _, i := range p.rk {
			r[i] = true
		}
		for k, i := range p.rightCols {
			r[i] = r[i] || out[left+k]
		}
		need(p.right, r, m)
	case stepConcat:
		for _, p := range n.parts {
			need(p, out, m)
		}
	}
}
