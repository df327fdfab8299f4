// Package listing names the exported API that the sweep in
// internal/apisweep must cover: every exported function and every exported
// method of an exported type declared in the swept packages, read from the
// source with go/parser (no type checking), so that a test can tell cheaply
// whether the generated sweep is stale.
package listing

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
)

// Module is the module path of the swept packages.
const Module = "github.com/stride0/stride0"

// Packages are the swept packages, relative to the module root.
var Packages = []string{
	"array", "broadcast", "view", "expr", "compute", "linalg",
	"arrowio", "parquetio", "gonumio", "frame",
}

// List returns the sorted keys of the exported API of the swept packages
// found under the module root: "pkg.Func" for a function and
// "pkg.Type.Method" for a method (pointer or value receiver alike), for
// the files that the default build context selects.
func List(root string) ([]string, error) {
	var keys []string
	for _, p := range Packages {
		dir := filepath.Join(root, p)
		bp, err := build.Default.ImportDir(dir, 0)
		if err != nil {
			return nil, fmt.Errorf("listing: %s: %w", p, err)
		}
		files := append(append([]string{}, bp.GoFiles...), bp.CgoFiles...)
		fset := token.NewFileSet()
		for _, name := range files {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("listing: %w", err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				if fd.Recv == nil {
					keys = append(keys, p+"."+fd.Name.Name)
					continue
				}
				t := recvTypeName(fd.Recv.List[0].Type)
				if t == "" || !ast.IsExported(t) {
					continue
				}
				keys = append(keys, p+"."+t+"."+fd.Name.Name)
			}
		}
	}
	sort.Strings(keys)
	return dedup(keys), nil
}

// recvTypeName is the name of the receiver's base type: T of T, *T, T[P]
// and *T[P].
func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func dedup(s []string) []string {
	out := s[:0]
	for i, k := range s {
		if i == 0 || k != s[i-1] {
			out = append(out, k)
		}
	}
	return out
}
