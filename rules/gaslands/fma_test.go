package gaslands

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The geometry must give the same bits on every build (geom.go says how).
// These tests keep it so: the first reads the source, the second what the
// compiler makes of it for amd64 v3 and arm64.

// exactMath are the functions of package math that give the same bits on
// every build: exact, or correctly rounded (Sqrt), and with no product the
// compiler could fuse. The others (Sin, Cos, Sincos, Atan, Atan2, Hypot, Exp,
// Pow...) are plain Go compiled with FMA on amd64 v3 and arm64, or assembly
// on one architecture only: the package has its own (fmath.go).
var exactMath = map[string]bool{
	"Abs": true, "Ceil": true, "Copysign": true, "Floor": true, "Float64bits": true, "Float64frombits": true,
	"Inf": true, "IsInf": true, "IsNaN": true, "Max": true, "Min": true, "Mod": true, "NaN": true,
	"Remainder": true, "Signbit": true, "Sqrt": true, "Trunc": true,
}

// fusable lists, as file:line and a note, every place in files where the
// compiler may fuse a multiplication into an addition or subtraction (FMA):
// a float + or - with a product for an operand (through parentheses and
// signs: -(x*y)+z fuses on arm64), and += or -= of a product. A product
// converted, float64(x*y), is never fused (the Go spec). It also lists the
// functions of math used that are not the same on every build.
func fusable(fset *token.FileSet, files []*ast.File, info *types.Info) []string {
	isFloat := func(e ast.Expr) bool {
		b, ok := info.TypeOf(e).Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0 && info.Types[e].Value == nil // constants are exact at compile time
	}
	product := func(e ast.Expr) ast.Expr {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.UnaryExpr:
				if x.Op == token.SUB || x.Op == token.ADD {
					e = x.X
					continue
				}
			case *ast.BinaryExpr:
				if x.Op == token.MUL && isFloat(x) {
					return x
				}
				// x/2 is compiled as x*0.5, and so is a division by any
				// power of two: a product too.
				if x.Op == token.QUO && isFloat(x) && info.Types[x.Y].Value != nil {
					if c, _ := constant.Float64Val(info.Types[x.Y].Value); powerOfTwo(c) {
						return x
					}
				}
			}
			return nil
		}
	}
	var out []string
	report := func(n ast.Node, format string, a ...any) {
		p := fset.Position(n.Pos())
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, fmt.Sprintf(format, a...)))
	}
	src := func(e ast.Expr) string { return types.ExprString(e) }
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.ADD || x.Op == token.SUB) && isFloat(x) {
					for _, op := range []ast.Expr{x.X, x.Y} {
						if p := product(op); p != nil {
							report(p, "%s is an operand of %s: write float64(%s) so that it cannot fuse", src(p), x.Op, src(p))
						}
					}
				}
			case *ast.AssignStmt:
				if (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Rhs) == 1 && isFloat(x.Lhs[0]) {
					if p := product(x.Rhs[0]); p != nil {
						report(p, "%s is the right of %s: write float64(%s) so that it cannot fuse", src(p), x.Tok, src(p))
					}
				}
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok {
					if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "math" {
						if _, fn := info.Uses[x.Sel].(*types.Func); fn && !exactMath[x.Sel.Name] {
							report(x, "math.%s is not the same on every build: use the package's own (fmath.go)", x.Sel.Name)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// powerOfTwo says whether c is ±2^k with an exact reciprocal: the divisors
// the compiler turns into a multiplication.
func powerOfTwo(c float64) bool {
	frac, _ := math.Frexp(c)
	return math.Abs(frac) == 0.5 && c == 1/(1/c) && !math.IsInf(1/c, 0) && math.Abs(1/c) >= 0x1p-1022
}

// typeCheck parses and checks the named files (or sources) as one package.
func typeCheck(t *testing.T, srcs map[string][]byte) (*token.FileSet, []*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, srcs[n], 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, files, info); err != nil {
		t.Fatal(err)
	}
	return fset, files, info
}

// TestNoFusableArithmetic reads the package's non-test files.
func TestNoFusableArithmetic(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string][]byte{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		if srcs[n], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	if len(srcs) < 10 {
		t.Fatalf("only %d files read", len(srcs))
	}
	for _, f := range fusable(typeCheck(t, srcs)) {
		t.Error(f)
	}
}

// The check finds what it should, and only that.
func TestFusableFinds(t *testing.T) {
	src := `package p

import "math"

type V struct{ X, Y float64 }

func f(a, b, c float64, v V, i, j int) float64 {
	x := a*b + c                  // line 8: fuses
	x = c - (a * b)               // line 9: fuses, through parentheses
	x += v.X * v.Y                // line 10: fuses
	x = c + -(a * b)              // line 11: fuses on arm64 (FNMUL then FMADD)
	x = math.Atan2(a, b)          // line 12: not the same on every build
	x = float64(a*b) + c          // converted: never fused
	x = a*b*c + float64(a*b*c)    // line 14: the first fuses
	x = a * b / c + c             // a quotient: not fused
	x = c - a/4                   // line 16: compiled as a*0.25, fuses
	x = c + a/3 + float64(a/2)    // not a power of two; converted
	x = 2*math.Pi + c + math.Sqrt(a)
	k := i*j + i                  // integers
	return x + float64(k)
}
`
	fset, files, info := typeCheck(t, map[string][]byte{"snippet.go": []byte(src)})
	got := fusable(fset, files, info)
	var lines []string
	for _, g := range got {
		lines = append(lines, strings.SplitN(g, ":", 3)[1])
	}
	if want := "8 9 10 11 12 14 16"; strings.Join(lines, " ") != want {
		t.Errorf("found on lines %v, want %s:\n%s", lines, want, strings.Join(got, "\n"))
	}
}

// TestNoFusedInstructions compiles the package for amd64 v3 and for arm64
// and looks for fused multiply-adds in what the compiler made: the check of
// the source cannot see a product that reaches an addition through a
// variable or an inlined call (Vec.Scale's product in Vec.Add, say); this
// sees every one. It needs the go command: a -short run skips it.
func TestNoFusedInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package twice")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	for _, target := range []struct {
		name string
		env  []string
		fma  *regexp.Regexp
	}{
		{"amd64 v3", []string{"GOARCH=amd64", "GOAMD64=v3"}, regexp.MustCompile(`\(([^()\s]+\.go:\d+)\)\s+(VFN?M(?:ADD|SUB)\w*)\s`)},
		{"arm64", []string{"GOARCH=arm64"}, regexp.MustCompile(`\(([^()\s]+\.go:\d+)\)\s+(FN?M(?:ADD|SUB)[SD])\s`)},
	} {
		cmd := exec.Command(goCmd, "build", "-gcflags=-S", "-o", os.DevNull, ".")
		cmd.Env = append(os.Environ(), append(target.env, "CGO_ENABLED=0")...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", target.name, err, out.Bytes())
		}
		if !bytes.Contains(out.Bytes(), []byte("STEXT")) {
			t.Fatalf("%s: no assembly listing in the compiler's output", target.name)
		}
		at := map[string][]string{}
		for _, m := range target.fma.FindAllStringSubmatch(out.String(), -1) {
			at[m[1]] = append(at[m[1]], m[2])
		}
		var places []string
		for p, ins := range at {
			places = append(places, fmt.Sprintf("%s (%s)", p, strings.Join(ins, ", ")))
		}
		sort.Strings(places)
		for _, p := range places {
			t.Errorf("%s: a fused multiply-add at %s", target.name, p)
		}
	}
}
