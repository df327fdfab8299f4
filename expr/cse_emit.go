package expr

import "slices"

// Common subexpressions inside one fused pass. A shared node (rnode.shared:
// reached by several paths) is emitted once per pass when a later path
// reads the same leaves the same way: the instructions of its first
// emission leave its value in a register, which the later uses read again.
// A shared node reached through differently broadcast paths reads its
// leaves with other strides there, and is emitted again.
//
// The leaves of every path are still collected (collect knows nothing of
// sharing), so a reused node's leaves are skipped over: they stay loaded
// per tile but feed no instruction.

// emitted is the value a shared node's emission left, and the leaves it
// read (leaves[start:start+n]).
type emitted struct {
	r        *rnode
	start, n int
	v        value
}

// emit returns the value of r, emitting its instructions unless a shared
// node's value over the same reads is already in a register.
func (g *group) emit(r *rnode, next *int) (value, error) {
	if !r.shared || r.isLeaf() {
		return g.emitNode(r, next)
	}
	start := *next
	n := r.leafVisits()
	for _, e := range g.reused {
		if e.r == r && g.sameReads(e.start, start, n) {
			*next += n
			g.notes = append(g.notes, "reuse: a shared subexpression's value")
			return e.v, nil
		}
	}
	v, err := g.emitNode(r, next)
	if err != nil {
		return v, err
	}
	g.reused = append(g.reused, emitted{r: r, start: start, n: n, v: v})
	return v, nil
}

// sameReads reports whether leaves[a:a+n] and leaves[b:b+n] read the same
// arrays at the same coalesced strides.
func (g *group) sameReads(a, b, n int) bool {
	if a+n > len(g.leaves) || b+n > len(g.leaves) {
		return false
	}
	for k := 0; k < n; k++ {
		x, y := g.leaves[a+k], g.leaves[b+k]
		if x.r != y.r || x.dt != y.dt || x.mask != y.mask || !slices.Equal(x.cs, y.cs) {
			return false
		}
	}
	return true
}
