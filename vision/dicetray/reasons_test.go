package dicetray

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryReasonAndColourHasItsPolish reads the package's sources: each
// reason constant and each colour colourName can give must have its
// Polish, so no notice at the table shows an English word in Polish.
func TestEveryReasonAndColourHasItsPolish(t *testing.T) {
	fs := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		{
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					for i, id := range n.Names {
						if strings.HasPrefix(id.Name, "reason") && i < len(n.Values) {
							if l, ok := n.Values[i].(*ast.BasicLit); ok && l.Kind == token.STRING {
								s, _ := strconv.Unquote(l.Value)
								words = append(words, s)
							}
						}
					}
				case *ast.FuncDecl:
					if n.Name.Name == "colourName" {
						ast.Inspect(n.Body, func(m ast.Node) bool {
							if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
								if l, ok := r.Results[0].(*ast.BasicLit); ok {
									s, _ := strconv.Unquote(l.Value)
									words = append(words, s)
								}
							}
							return true
						})
					}
				}
				return true
			})
		}
	}
	if len(words) < 16 {
		t.Fatalf("found %d reasons and colours in the sources, want at least 16: %q", len(words), words)
	}
	for _, w := range words {
		if pl := Polish(w); pl == w {
			t.Errorf("%q has no Polish", w)
		}
	}
}
