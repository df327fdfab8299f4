package expr

import (
	enc "encoding/binary"
	"math"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// Common subexpressions. Resolution hash-conses the tree: a node reached by
// several paths (the same *Node), and nodes that are structurally equal
// (same kind, op, rule, dtypes, parameters and constant values) over the
// same leaves (the same array, or the same bound variable), resolve to one
// shared rnode. Evaluation then computes a shared subexpression that is
// hoisted (a reduction, a broadcast operand, a structural node) once, into
// one temporary that every use reads (rnode.once). The arrays a node reads
// are its identity: two Leaf nodes of the same *array.Array are one leaf,
// two equal arrays are not.

// resolver resolves one tree for one evaluation. The first nodes are
// looked up linearly in fixed arrays (no allocation for small trees), the
// rest in maps.
type resolver struct {
	b     Bindings
	nptr  int
	ptrs  [smallTree]ptrEntry
	nkey  int
	keys  [smallTree]keyEntry
	byPtr map[*Node]*rnode
	byKey map[cseKey]*rnode
}

// smallTree is how many distinct nodes a resolver looks up linearly.
const smallTree = 16

type ptrEntry struct {
	n *Node
	r *rnode
}

type keyEntry struct {
	k cseKey
	r *rnode
}

func (rs *resolver) byPointer(n *Node) (*rnode, bool) {
	for _, e := range rs.ptrs[:rs.nptr] {
		if e.n == n {
			return e.r, true
		}
	}
	r, ok := rs.byPtr[n]
	return r, ok
}

func (rs *resolver) setPointer(n *Node, r *rnode) {
	if rs.nptr < smallTree {
		rs.ptrs[rs.nptr] = ptrEntry{n, r}
		rs.nptr++
		return
	}
	if rs.byPtr == nil {
		rs.byPtr = map[*Node]*rnode{}
	}
	rs.byPtr[n] = r
}

// intern returns the rnode of an equal node resolved before, or stores r as
// the one for k.
func (rs *resolver) intern(k cseKey, r *rnode) *rnode {
	for i := range rs.keys[:rs.nkey] {
		if rs.keys[i].k == k {
			return rs.keys[i].r
		}
	}
	if prev, ok := rs.byKey[k]; ok {
		return prev
	}
	if rs.nkey < smallTree {
		rs.keys[rs.nkey] = keyEntry{k, r}
		rs.nkey++
		return r
	}
	if rs.byKey == nil {
		rs.byKey = map[cseKey]*rnode{}
	}
	rs.byKey[k] = r
	return r
}

// cseKey identifies a resolved node up to structural equality. args holds
// the (already shared) rnodes of up to three arguments; a node with more
// arguments, or a structural node, is keyed by its pointer alone.
type cseKey struct {
	kind         kind
	op           compute.Op
	dtype, ctype array.DType
	rule         Rule
	mode         Mode
	axis         int
	red          reduction
	keep         bool
	strictPow    bool
	weak         weakKind
	bits         uint64 // kConst: the value's bits; weak: math.Float64bits(wv)
	wi           int64
	arr          *array.Array // kLeaf, kVar: the array read
	node         *Node        // nodes keyed by identity only
	nargs        int
	args         [3]*rnode
	ints         string // target, axes and reshap, encoded
}

// resolve returns the shared rnode of n, resolving it on first sight.
func (rs *resolver) resolve(n *Node) (*rnode, error) {
	if r, ok := rs.byPointer(n); ok {
		r.shared = true
		return r, nil
	}
	r, err := resolveNode(rs, n)
	if err != nil {
		return nil, err
	}
	if prev := rs.intern(keyOf(n, r), r); prev != r {
		prev.shared = true
		r = prev
	}
	rs.setPointer(n, r)
	return r, nil
}

// keyOf builds n's structural key from its resolved form r.
func keyOf(n *Node, r *rnode) cseKey {
	k := cseKey{kind: n.kind, op: n.op, dtype: n.dtype, ctype: n.ctype, rule: n.rule, mode: n.mode,
		axis: n.axis, red: n.red, keep: n.keep, strictPow: n.strictPow, nargs: len(r.args)}
	switch n.kind {
	case kLeaf, kVar:
		k.arr = r.arr
		return k
	case kConst:
		k.weak, k.wi = n.weak, n.wi
		if n.weak != 0 {
			k.bits = math.Float64bits(n.wv)
			return k
		}
		if a := n.arr; a.Len() == 1 && !a.HasNulls() && a.DType().Size() <= 8 {
			var b [8]byte
			copy(b[:], unsafe.Slice((*byte)(unsafe.Add(a.DataPointer(), a.Offset()*a.DType().Size())), a.DType().Size()))
			k.bits = enc.LittleEndian.Uint64(b[:])
			return k
		}
		k.node = n
		return k
	}
	if n.st != nil || isStructural(n.kind) || len(r.args) > len(k.args) {
		k.node = n
		return k
	}
	copy(k.args[:], r.args)
	if len(n.target)+len(n.axes)+len(n.reshap) > 0 || n.reshap != nil {
		b := make([]byte, 0, 8*(len(n.target)+len(n.axes)+len(n.reshap)+3))
		for _, s := range [][]int{n.target, n.axes, n.reshap} {
			b = enc.AppendVarint(b, int64(len(s)))
			for _, v := range s {
				b = enc.AppendVarint(b, int64(v))
			}
		}
		if n.reshap != nil {
			b = append(b, 1)
		}
		k.ints = string(b)
	}
	return k
}

// temporary evaluates the non-leaf a into a temporary leaf, once per
// evaluation however many paths reach it: a structural node as a view where
// it has one, anything else as a new array. The array is released with the
// evaluation.
func (ev *evaluation) temporary(a *rnode) (*rnode, error) {
	if a.once != nil {
		return a.once, nil
	}
	var out *array.Array
	var err error
	if isStructural(a.n.kind) {
		out, err = ev.structural(a, nil, true) // a view where one exists
	} else {
		out, err = ev.eval(a, nil)
	}
	if err != nil {
		return nil, err
	}
	ev.temps = append(ev.temps, out)
	a.once = &rnode{n: a.n, shape: out.Shape(), arr: out, temp: true, dtype: out.DType(), ctype: out.DType()}
	return a.once, nil
}
