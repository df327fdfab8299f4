package expr

// Variables returns the variable nodes of n, one per name (the first met),
// in the order of Vars, so that a caller binding them (a table layer
// matching them to columns) can check each one's dtype and shape before
// evaluating.
func (n *Node) Variables() []*Node {
	var vs []*Node
	seen := map[string]bool{}
	n.walk(func(m *Node) {
		if m.kind == kVar && !seen[m.name] {
			seen[m.name] = true
			vs = append(vs, m)
		}
	})
	return vs
}

// VarName returns the name of a variable node, and "" for any other node
// (and for nil).
func (n *Node) VarName() string {
	if n == nil || n.kind != kVar {
		return ""
	}
	return n.name
}
