package expr

import (
	"fmt"
	"strings"

	"github.com/stride0/stride0/array"
)

// Explain describes how the plan evaluates with the bindings b, without
// evaluating it: each fused pass (subexpressions hoisted because they are
// broadcast, reductions, the root), its iteration space before and after
// coalescing, every leaf's strides in that space and how a tile reads it
// (in place, repeated scalar, gathered, expanded once per batch), the
// kernels in order, and how the result is stored. Hoisted subexpressions
// are evaluated to plan what follows them; the root pass is not run.
func (p *Plan) Explain(b Bindings) (string, error) {
	if p == nil {
		return "", fmt.Errorf("expr: nil plan: %w", ErrNilNode)
	}
	r, err := resolve(p.root, b)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "plan %v -> %v %v, workers %d, tile %d\n", p.root, r.dtype, r.shape, p.opts.workers, p.opts.tile)
	ev := &evaluation{o: &p.opts, root: r, explain: &sb, dry: true}
	defer ev.release()
	if _, err := ev.eval(r, nil); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// Explain compiles e with opts and describes its evaluation (see
// Plan.Explain).
func Explain(e *Node, opts ...Option) (string, error) {
	p, err := Compile(e, opts...)
	if err != nil {
		return "", err
	}
	return p.Explain(p.opts.bind)
}

// describe writes a built pass to ev.explain and reports whether the pass
// is the root of a dry run (and so must not run).
func (ev *evaluation) describe(g *group, r *rnode, what string, dst *array.Array) bool {
	if ev.explain == nil {
		return false
	}
	ev.passes++
	b := ev.explain
	role := "root"
	if r != ev.root {
		role = "hoisted (evaluated once, then read as a leaf)"
	}
	if s, ok := ev.roles[r]; ok {
		role = s
	}
	fmt.Fprintf(b, "pass %d (%s): %s %v\n", ev.passes, role, what, r.n)
	fmt.Fprintf(b, "  iteration %v, coalesced %v", g.shape, g.cshape)
	if g.tile != ev.o.tile && g.tile < size(g.shape) {
		fmt.Fprintf(b, ", tiles of %d", g.tile) // scaled for narrow types (DefaultTile)
	}
	switch {
	case g.batch > 1:
		fmt.Fprintf(b, ", %d rows per tile", g.batch)
	case g.rowsOK:
		fmt.Fprintf(b, ", %d rows per call", rowsPerCall)
	}
	fmt.Fprintln(b)
	for k, l := range g.leaves {
		how := "read in place"
		switch {
		case l.periodic:
			how = "row repeated: expanded once per batch"
		case l.inner() == 0:
			how = "one element per run (scalar kernel form)"
		case l.gather != nil:
			how = fmt.Sprintf("gathered at stride %d", l.inner())
		}
		src := "array"
		switch {
		case l.r.temp:
			src = "temporary"
		case l.r.n.kind == kVar:
			src = "variable " + l.r.n.name
		case l.r.n.kind == kConst:
			src = "constant " + l.r.n.constString()
		}
		nulls := ""
		if l.mask {
			nulls = ", with nulls"
		}
		fmt.Fprintf(b, "  leaf %d: %s %v%v strides %v -> pass strides %v -> coalesced %v: %s%s\n",
			k, src, l.dt, l.r.shape, l.r.arr.Strides(), l.rs, l.cs, how, nulls)
	}
	for _, note := range g.notes {
		fmt.Fprintf(b, "  kernel: %s\n", note)
	}
	if len(g.prog) == 0 && !g.rowsOK && !g.fusedStep {
		fmt.Fprintf(b, "  kernel: copy\n")
	}
	store := "stored from scratch"
	switch {
	case g.direct && g.nt:
		store = "written in place by the last kernel, streaming stores"
	case g.direct:
		store = "written in place by the last kernel"
	case g.nt:
		store = "copied with streaming stores"
	}
	if strings.HasPrefix(what, "reduce") {
		store = "folded into the accumulator"
	}
	out := "new array"
	if dst != nil {
		out = fmt.Sprintf("output strides %v", dst.Strides())
	}
	fmt.Fprintf(b, "  result: %s, %s", out, store)
	if g.masked {
		b.WriteString(", validity: and of the operands' masks, null slots zeroed")
	}
	b.WriteByte('\n')
	return ev.dry && r == ev.root
}
