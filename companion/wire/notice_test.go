package wire_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

func TestNoticeTypesAreDeclaredOnce(t *testing.T) {
	seen := map[wire.NoticeType]bool{}
	for _, n := range wire.Notices {
		if n.Type == "" || seen[n.Type] {
			t.Errorf("notice type %q is empty or listed twice", n.Type)
		}
		seen[n.Type] = true
		if !n.Type.Declared() || n.Type.Attention() != n.Attention {
			t.Errorf("notice type %q: Declared %v, Attention %v, want true, %v", n.Type, n.Type.Declared(), n.Type.Attention(), n.Attention)
		}
	}
	for _, undeclared := range []wire.NoticeType{"", "too_close_to_call", "Rejected", wire.ResultType} {
		if undeclared.Declared() || undeclared.Attention() {
			t.Errorf("%q is taken for a declared notice type", undeclared)
		}
	}
	att := wire.Attention([]string{"a_game_type"})
	if att[len(att)-1] != "a_game_type" || !contains(att, string(wire.NoticeRejected)) || contains(att, string(wire.NoticeTagIgnored)) {
		t.Errorf("Attention = %v: want the contract's notices that ask for attention, then the game's", att)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestEveryNoticeNamesAContractType reads every Go file of the module
// (tests aside) and fails on a Notice whose type is not one of the
// contract's constants: a string written in place ("rejected") or a
// constant of another package would publish a type the watch and the
// pages were never told of.
func TestEveryNoticeNamesAContractType(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	notices := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isNotice(lit.Type) {
				return true
			}
			for _, el := range lit.Elts {
				if inner, ok := el.(*ast.CompositeLit); ok && inner.Type == nil {
					// []Notice{{Type: …}}: each element is a Notice.
					checkNotice(t, fset, inner, &notices)
				}
			}
			if _, isSlice := lit.Type.(*ast.ArrayType); !isSlice {
				checkNotice(t, fset, lit, &notices)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if notices < 20 {
		t.Errorf("found %d notices in the module, want the table's and the games' (more than 20): the walk missed them", notices)
	}
}

// isNotice: Notice, pkg.Notice, or a slice of either.
func isNotice(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "Notice"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Notice"
	case *ast.ArrayType:
		return isNotice(x.Elt)
	}
	return false
}

func checkNotice(t *testing.T, fset *token.FileSet, lit *ast.CompositeLit, n *int) {
	t.Helper()
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if k, _ := kv.Key.(*ast.Ident); !ok || k == nil || k.Name != "Type" {
			continue
		}
		*n++
		sel, ok := kv.Value.(*ast.SelectorExpr)
		pkg, _ := func() (*ast.Ident, bool) {
			if !ok {
				return nil, false
			}
			id, ok := sel.X.(*ast.Ident)
			return id, ok
		}()
		if !ok || pkg == nil || pkg.Name != "wire" || !contract(t)[sel.Sel.Name] {
			t.Errorf("%s: a notice's type is %s, not one of the contract's constants (wire.Notice…)", fset.Position(kv.Pos()), exprString(kv.Value))
		}
	}
}

// contract are the names of the constants of type NoticeType that
// notice.go declares.
func contract(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "notice.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "NoticeType" {
				for _, n := range v.Names {
					out[n.Name] = true
				}
			}
		}
	}
	return out
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Value
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return "an expression"
}
