// Command gen writes internal/apisweep/sweep_gen_test.go: for every exported
// function and method of the swept packages (listing.Packages), calls with
// zero values for every argument, and calls with hostile values (-1 and
// 1<<62 for integers, a released and a 0-d array for *array.Array), each to
// be run by TestSweep under a recover and a timeout.
//
// The packages' types come from the compiler's export data (go list
// -export), read by go/importer; the listing of what must be covered comes
// from package listing (go/parser), which the test re-runs to find a stale
// file. Run it with go generate in internal/apisweep.
//
// Anything that is not called must be in skips below, with the reason; a
// function or method that the generator cannot call and that is not listed
// there stops the generator.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stride0/stride0/internal/apisweep/listing"
)

// skips: what the sweep does not call, with the reason. A key is
// "pkg.Func" or "pkg.Type.Method" (every call of it), or one of those
// prefixed by "hostile:" (only the hostile family).
var skips = map[string]string{}

// skipRawPointer is the reason for not passing hostile lengths to a
// function that takes an unsafe.Pointer: such a kernel trusts the caller for
// the memory behind the pointer (NumPy's inner-loop contract), so no length
// is checkable there. Its zero-value call (nil pointers, length 0) is made.
const skipRawPointer = "takes an unsafe.Pointer: the caller vouches for the memory behind it, so a hostile length cannot be checked (the zero-value call, nil and 0, is made)"

// skipPromotedNil is the reason for not calling a promoted method on a nil
// pointer: the selector dereferences the nil pointer to reach the embedded
// field before the method runs, which no library code can prevent.
const skipPromotedNil = "promoted through an embedded field: x.M on a nil *T dereferences x before the method runs"

// candidates are the type arguments tried, in order, for each type
// parameter of a generic function or type.
var candidates = []string{
	"float64", "int64", "float32", "int32", "int", "uint8", "bool", "string",
	"int8", "int16", "uint16", "uint32", "uint64", "[]float64", "[]int64",
}

// fixtures are the extra values of a parameter or receiver type (by its
// type string) that the hostile family passes: helpers in sweep_test.go.
var fixtures = map[string][]string{
	"*github.com/stride0/stride0/array.Array": {"sweepReleased()", "sweepScalar()"},
}

// bases are the values the hostile family passes for a type where the zero
// family passes the zero value, so that a hostile argument reaches past
// the nil check of its neighbours.
var bases = map[string]string{
	"*github.com/stride0/stride0/array.Array": "sweepArray()",
}

func main() {
	out := flag.String("o", "sweep_gen_test.go", "output file")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		log.Fatal(err)
	}
	src, err := generate(root)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("gen: no go.mod above the working directory")
		}
		dir = parent
	}
}

// exportData maps each import path that the swept packages need to its
// export data file.
func exportData(root string) (map[string]string, error) {
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}
	for _, p := range listing.Packages {
		args = append(args, "./"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gen: go list: %w", err)
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, file, ok := strings.Cut(sc.Text(), "\t")
		if ok && file != "" {
			m[path] = file
		}
	}
	return m, sc.Err()
}

type gen struct {
	ours    map[string]bool   // import paths of the swept packages
	imports map[string]string // import path -> name used in the file
	names   map[string]string // name used -> import path
	zero    []entry
	hostile []entry
	skipped []entry // code holds the reason
	covered map[string]bool
}

type entry struct{ name, code string }

func generate(root string) ([]byte, error) {
	files, err := exportData(root)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("gen: no export data for %s", path)
		}
		return os.Open(f)
	})
	g := &gen{ours: map[string]bool{}, imports: map[string]string{}, names: map[string]string{}, covered: map[string]bool{}}
	for _, p := range listing.Packages {
		g.ours[listing.Module+"/"+p] = true
		// our packages keep their own names
		g.imports[listing.Module+"/"+p] = p
		g.names[p] = listing.Module + "/" + p
	}
	for _, p := range listing.Packages {
		pkg, err := imp.Import(listing.Module + "/" + p)
		if err != nil {
			return nil, fmt.Errorf("gen: %w", err)
		}
		if err := g.pkg(p, pkg); err != nil {
			return nil, err
		}
	}
	keys, err := listing.List(root)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, k := range keys {
		if !g.covered[k] {
			missing = append(missing, k)
		}
	}
	listed := map[string]bool{}
	for _, k := range keys {
		listed[k] = true
	}
	for k := range skips {
		if !listed[strings.TrimPrefix(k, "hostile:")] {
			missing = append(missing, k+" (in skips, not in the API)")
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("gen: listed but neither called nor skipped: %s", strings.Join(missing, ", "))
	}
	return g.file(keys)
}

func (g *gen) pkg(short string, pkg *types.Package) error {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.Func:
			if err := g.fn(short, o); err != nil {
				return err
			}
		case *types.TypeName:
			if o.IsAlias() {
				continue
			}
			if err := g.typ(short, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// fn adds the calls of a package-level function.
func (g *gen) fn(short string, f *types.Func) error {
	key := short + "." + f.Name()
	g.covered[key] = true
	if r, ok := skips[key]; ok {
		g.skipped = append(g.skipped, entry{key, r})
		return nil
	}
	sig := f.Type().(*types.Signature)
	callee := short + "." + f.Name()
	if sig.TypeParams().Len() > 0 {
		inst, targs, err := g.instantiate(sig, sig.TypeParams())
		if err != nil {
			return fmt.Errorf("gen: %s: %w (add it to skips with the reason)", key, err)
		}
		sig = inst.(*types.Signature)
		callee += "[" + strings.Join(targs, ", ") + "]"
	}
	return g.calls(key, key, []recv{{"", ""}}, callee, sig, key)
}

type recv struct {
	label string // "" for a function
	expr  string // "" for a function
}

// typ adds the calls of the methods of a named type.
func (g *gen) typ(short string, tn *types.TypeName) error {
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return nil
	}
	if types.IsInterface(named) {
		return nil
	}
	typeName := short + "." + tn.Name()
	var T types.Type = named
	tstr := typeName
	if named.TypeParams().Len() > 0 {
		inst, targs, err := g.instantiate(named, named.TypeParams())
		if err != nil {
			for i := 0; i < named.NumMethods(); i++ {
				m := named.Method(i)
				if m.Exported() {
					key := typeName + "." + m.Name()
					g.covered[key] = true
					if r, ok := skips[key]; ok {
						g.skipped = append(g.skipped, entry{key, r})
						continue
					}
					return fmt.Errorf("gen: %s: %w (add it to skips with the reason)", key, err)
				}
			}
			return nil
		}
		T = inst
		tstr += "[" + strings.Join(targs, ", ") + "]"
	}
	ms := types.NewMethodSet(types.NewPointer(T))
	for i := 0; i < ms.Len(); i++ {
		sel := ms.At(i)
		m := sel.Obj().(*types.Func)
		if !m.Exported() || m.Pkg() == nil || !g.ours[m.Pkg().Path()] {
			continue
		}
		promoted := len(sel.Index()) > 1
		key := typeName + "." + m.Name()
		if !promoted {
			g.covered[key] = true
		}
		if r, ok := skips[key]; ok {
			g.skipped = append(g.skipped, entry{key, r})
			continue
		}
		sig := sel.Type().(*types.Signature) // receiver bound: the method's own signature with T substituted
		ptr := isPointerRecv(m)
		var recvs []recv
		display := ""
		switch {
		case promoted:
			display = typeName + "." + m.Name() + " (promoted)"
			g.skipped = append(g.skipped, entry{display + "[recv=nil]", skipPromotedNil})
			recvs = []recv{{"new", "new(" + g.typeStr(T) + ")"}}
		case ptr:
			display = short + ".(*" + tn.Name() + ")." + m.Name()
			recvs = []recv{{"nil", "(*" + g.typeStr(T) + ")(nil)"}, {"new", "new(" + g.typeStr(T) + ")"}}
		default:
			display = typeName + "." + m.Name()
			recvs = []recv{{"zero", "(*new(" + g.typeStr(T) + "))"}}
		}
		if err := g.calls(display, key, recvs, "."+m.Name(), sig, key); err != nil {
			return err
		}
		// the hostile family's receivers: the fixtures of the type
		pt := types.TypeString(types.NewPointer(T), nil)
		if fx, ok := fixtures[pt]; ok && ptr {
			var hr []recv
			for _, f := range append([]string{bases[pt]}, fx...) {
				hr = append(hr, recv{strings.TrimSuffix(strings.TrimPrefix(f, "sweep"), "()"), f})
			}
			if err := g.hostileCalls(display, key, hr, "."+m.Name(), sig, true); err != nil {
				return err
			}
		}
	}
	return nil
}

func isPointerRecv(m *types.Func) bool {
	r := m.Type().(*types.Signature).Recv()
	if r == nil {
		return false
	}
	_, ok := r.Type().(*types.Pointer)
	return ok
}

// calls adds the zero-value calls for each receiver, and the hostile calls
// (for a function; methods get theirs in typ). callee is "pkg.F[...]" for a
// function, ".M" for a method.
func (g *gen) calls(display, key string, recvs []recv, callee string, sig *types.Signature, skipKey string) error {
	params := sig.Params()
	n := params.Len()
	if sig.Variadic() {
		n--
	}
	args := make([]string, n)
	for i := 0; i < n; i++ {
		z, err := g.zeroExpr(params.At(i).Type())
		if err != nil {
			return fmt.Errorf("gen: %s: parameter %s: %w (add it to skips with the reason)", key, params.At(i).Name(), err)
		}
		args[i] = z
	}
	for _, r := range recvs {
		name := display
		if r.label != "" {
			name += "[recv=" + r.label + "]"
		}
		g.zero = append(g.zero, entry{name, stmt(sig, r.expr+callee+"("+strings.Join(args, ", ")+")")})
	}
	if recvs[0].expr == "" {
		return g.hostileCalls(display, key, nil, callee, sig, false)
	}
	// methods: hostile arguments on the zero receivers too
	var hr []recv
	for _, r := range recvs {
		if r.label != "nil" {
			hr = append(hr, r)
		}
	}
	return g.hostileCalls(display, key, hr, callee, sig, false)
}

// hostileCalls adds, for each parameter that has hostile values, one call
// per value with the other arguments at their bases (zero, or a valid
// array). With recvs, each call is made on each receiver. The call with
// every argument at its base is made too when some base is a valid array
// (or with recvOnly).
func (g *gen) hostileCalls(display, key string, recvs []recv, callee string, sig *types.Signature, recvOnly bool) error {
	if r, ok := skips["hostile:"+key]; ok {
		if !recvOnly {
			g.skipped = append(g.skipped, entry{"hostile " + display, r})
		}
		return nil
	}
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		if hasRawPointer(params.At(i).Type()) {
			if !recvOnly {
				g.skipped = append(g.skipped, entry{"hostile " + display, skipRawPointer})
			}
			return nil
		}
	}
	n := params.Len()
	base := make([]string, n)
	anyBase := false // some argument's base is not its zero value (a valid array)
	for i := 0; i < n; i++ {
		t := params.At(i).Type()
		if sig.Variadic() && i == n-1 {
			base[i] = ""
			continue
		}
		if b, ok := bases[types.TypeString(t, nil)]; ok {
			base[i] = b
			anyBase = true
			continue
		}
		z, err := g.zeroExpr(t)
		if err != nil {
			return err
		}
		base[i] = z
	}
	if len(recvs) == 0 {
		recvs = []recv{{"", ""}}
	}
	join := func(a []string) string {
		var s []string
		for _, x := range a {
			if x != "" {
				s = append(s, x)
			}
		}
		return strings.Join(s, ", ")
	}
	for _, r := range recvs {
		label := ""
		if r.label != "" {
			label = "recv=" + r.label + ","
		}
		// every argument at its base: valid arrays reach past the nil
		// checks (a zero receiver given a real output, say)
		if recvOnly || anyBase {
			g.hostile = append(g.hostile, entry{display + "[" + label + "bases]", stmt(sig, r.expr+callee+"("+join(base)+")")})
		}
		for i := 0; i < n; i++ {
			p := params.At(i)
			t := p.Type()
			variadic := sig.Variadic() && i == n-1
			if variadic {
				t = t.(*types.Slice).Elem()
			}
			for _, h := range g.hostileExprs(t) {
				args := append([]string{}, base...)
				args[i] = h
				name := fmt.Sprintf("%s[%s%s=%s]", display, label, paramName(p, i), h)
				g.hostile = append(g.hostile, entry{name, stmt(sig, r.expr+callee+"("+join(args)+")")})
			}
		}
	}
	return nil
}

// stmt makes a call a statement, its results assigned to _ (vet's
// unusedresult flags a discarded String or Error).
func stmt(sig *types.Signature, call string) string {
	n := sig.Results().Len()
	if n == 0 {
		return call
	}
	return strings.Repeat("_, ", n-1) + "_ = " + call
}

// hasRawPointer reports whether t holds an unsafe.Pointer (as itself, an
// element or a pointed-to value).
func hasRawPointer(t types.Type) bool {
	switch x := t.(type) {
	case *types.Basic:
		return x.Kind() == types.UnsafePointer
	case *types.Pointer:
		return hasRawPointer(x.Elem())
	case *types.Slice:
		return hasRawPointer(x.Elem())
	case *types.Array:
		return hasRawPointer(x.Elem())
	}
	return false
}

func paramName(p *types.Var, i int) string {
	if p.Name() == "" || p.Name() == "_" {
		return fmt.Sprintf("arg%d", i)
	}
	return p.Name()
}

// hostileExprs are the hostile values of a type: extreme integers, integer
// slices holding one, and the fixtures of *array.Array.
func (g *gen) hostileExprs(t types.Type) []string {
	if fx, ok := fixtures[types.TypeString(t, nil)]; ok {
		return fx
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		// a zero-valued struct of ours where a pointer to one is expected
		if n, ok := u.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && g.ours[n.Obj().Pkg().Path()] && nameable(n) {
			if _, ok := n.Underlying().(*types.Struct); ok {
				return []string{"new(" + g.typeStr(n) + ")"}
			}
		}
	case *types.Basic:
		return intExtremes(u)
	case *types.Slice:
		if fx, ok := fixtures[types.TypeString(u.Elem(), nil)]; ok {
			var out []string
			for _, f := range fx {
				out = append(out, g.typeStr(t)+"{"+f+"}")
			}
			return out
		}
		if b, ok := u.Elem().Underlying().(*types.Basic); ok {
			var out []string
			for _, x := range intExtremes(b) {
				out = append(out, g.typeStr(t)+"{"+x+"}")
			}
			return out
		}
	}
	return nil
}

func intExtremes(b *types.Basic) []string {
	switch b.Kind() {
	case types.Int, types.Int64:
		return []string{"-1", "1 << 62"}
	case types.Int32:
		return []string{"-1", "2147483647"}
	case types.Int16:
		return []string{"-1", "32767"}
	case types.Int8:
		return []string{"-1", "127"}
	case types.Uint, types.Uint64, types.Uintptr:
		return []string{"1 << 62", "18446744073709551615"}
	case types.Uint32:
		return []string{"4294967295"}
	case types.Uint16:
		return []string{"65535"}
	case types.Uint8:
		return []string{"255"}
	}
	return nil
}

// zeroExpr is the zero value of t as an expression.
func (g *gen) zeroExpr(t types.Type) (string, error) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.UnsafePointer:
			return "nil", nil
		case u.Info()&types.IsBoolean != 0:
			return "false", nil
		case u.Info()&types.IsString != 0:
			return `""`, nil
		default:
			return "0", nil
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil", nil
	case *types.Struct, *types.Array:
		if !nameable(t) {
			return "", fmt.Errorf("cannot name the type %s", t)
		}
		return g.typeStr(t) + "{}", nil
	}
	return "", fmt.Errorf("no zero value for %s", t)
}

// nameable reports whether t can be written outside its package.
func nameable(t types.Type) bool {
	ok := true
	var walk func(types.Type)
	seen := map[types.Type]bool{}
	walk = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch x := t.(type) {
		case *types.Named:
			if x.Obj().Pkg() != nil && !x.Obj().Exported() {
				ok = false
			}
			for i := 0; i < x.TypeArgs().Len(); i++ {
				walk(x.TypeArgs().At(i))
			}
		case *types.Pointer:
			walk(x.Elem())
		case *types.Slice:
			walk(x.Elem())
		case *types.Array:
			walk(x.Elem())
		case *types.Map:
			walk(x.Key())
			walk(x.Elem())
		case *types.Struct:
			for i := 0; i < x.NumFields(); i++ {
				if !x.Field(i).Exported() {
					ok = false
				}
				walk(x.Field(i).Type())
			}
		}
	}
	walk(t)
	return ok
}

// typeStr writes t with the file's import names, recording the imports.
func (g *gen) typeStr(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return g.importName(p.Path(), p.Name()) })
}

func (g *gen) importName(path, name string) string {
	if n, ok := g.imports[path]; ok {
		return n
	}
	n := name
	if _, taken := g.names[n]; taken {
		n = path2name(path) + name
	}
	for i := 2; ; i++ {
		if _, taken := g.names[n]; !taken {
			break
		}
		n = fmt.Sprintf("%s%d", name, i)
	}
	g.imports[path] = n
	g.names[n] = path
	return n
}

func path2name(p string) string {
	d := path.Base(path.Dir(p))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, d)
}

// instantiate finds type arguments among candidates that satisfy the type
// parameters' constraints.
func (g *gen) instantiate(orig types.Type, tps *types.TypeParamList) (types.Type, []string, error) {
	cand := make([]types.Type, len(candidates))
	for i, c := range candidates {
		switch c {
		case "[]float64":
			cand[i] = types.NewSlice(types.Typ[types.Float64])
		case "[]int64":
			cand[i] = types.NewSlice(types.Typ[types.Int64])
		default:
			cand[i] = types.Universe.Lookup(c).Type()
		}
	}
	n := tps.Len()
	targs := make([]types.Type, n)
	var try func(i int) types.Type
	try = func(i int) types.Type {
		if i == n {
			inst, err := types.Instantiate(nil, orig, targs, true)
			if err != nil {
				return nil
			}
			return inst
		}
		for _, c := range cand {
			targs[i] = c
			if r := try(i + 1); r != nil {
				return r
			}
		}
		return nil
	}
	inst := try(0)
	if inst == nil {
		return nil, nil, fmt.Errorf("no candidate type arguments satisfy %s", tps.At(0).Constraint())
	}
	var s []string
	for _, t := range targs {
		s = append(s, g.typeStr(t))
	}
	return inst, s, nil
}

func (g *gen) file(keys []string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/apisweep/gen; DO NOT EDIT.\n\npackage apisweep\n\nimport (\n")
	var paths []string
	for p := range g.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", g.imports[p], p)
	}
	b.WriteString(")\n\n")
	list := func(name, doc string, es []entry) {
		fmt.Fprintf(&b, "// %s\nvar %s = []sweepCase{\n", doc, name)
		for _, e := range es {
			fmt.Fprintf(&b, "\t{%q, func() { %s }},\n", e.name, e.code)
		}
		b.WriteString("}\n\n")
	}
	list("sweepZero", "sweepZero calls every function and method with zero values.", g.zero)
	list("sweepHostile", "sweepHostile calls them with hostile integers and arrays.", g.hostile)
	b.WriteString("// sweepSkipped: what is not called, and why.\nvar sweepSkipped = []sweepSkip{\n")
	for _, e := range g.skipped {
		fmt.Fprintf(&b, "\t{%q, %q},\n", e.name, e.code)
	}
	b.WriteString("}\n\n// sweepListing is the listing the file was generated from (see package listing).\nvar sweepListing = []string{\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%q,\n", k)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return b.Bytes(), fmt.Errorf("gen: gofmt: %w", err)
	}
	return src, nil
}
