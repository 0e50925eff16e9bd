// Package layering holds the test of the import rule between the
// project's packages (docs/architecture.md, "Layers"): the table model, the
// engine interface, the SQL renderer and both engines never depend on the
// Singer reader or the JSON Schema library, so that they can be read,
// tested and changed without them; and the BATCH file readers sit between
// the reader and the pipeline: they import the reader, and neither the
// pipeline, the validator nor an engine.
package layering

import (
	"bufio"
	"errors"
	"fmt"
	"go/build"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// forbidden lists, for each package (relative to the module), the
// packages its non-test code must not import, directly or through others.
var forbidden = map[string][]string{
	"internal/table":       {"internal/singer", "internal/schema"},
	"internal/engine":      {"internal/singer", "internal/schema"},
	"internal/oraclesql":   {"internal/singer", "internal/schema"},
	"internal/oracle":      {"internal/singer", "internal/schema"},
	"internal/oracle/fake": {"internal/singer", "internal/schema"},
	"internal/memory":      {"internal/singer", "internal/schema"},
	// Data flows one way: the reader parses a BATCH message, batchfile
	// reads its files, the pipeline validates and loads their rows.
	"internal/singer":    {"internal/batchfile"},
	"internal/batchfile": {"internal/pipeline", "internal/schema", "internal/engine", "internal/memory", "internal/oracle"},
}

// TestImportRule walks each package's imports within the module, as the
// go command would build it for linux, darwin and windows, and names the
// chain of imports that reaches a forbidden package.
func TestImportRule(t *testing.T) {
	root, module := moduleRoot(t)
	broken := map[string][]string{} // violation → the GOOS values it holds for
	var order []string
	for _, goos := range []string{"linux", "darwin", "windows"} {
		g := &graph{root: root, module: module, ctx: build.Default, imports: map[string][]string{}}
		g.ctx.GOOS = goos
		for _, pkg := range slices.Sorted(maps.Keys(forbidden)) {
			for _, b := range forbidden[pkg] {
				if chain := g.path(t, pkg, b); chain != nil {
					v := fmt.Sprintf("%s must not import %s, but does: %s", pkg, b, strings.Join(chain, " → "))
					if broken[v] == nil {
						order = append(order, v)
					}
					broken[v] = append(broken[v], goos)
				}
			}
		}
	}
	for _, v := range order {
		t.Errorf("GOOS=%s: %s", strings.Join(broken[v], ","), v)
	}
}

// graph is the module's import graph, read lazily.
type graph struct {
	root, module string
	ctx          build.Context
	imports      map[string][]string // package (relative) → its module imports (relative)
}

// path returns the shortest import chain from one package to another, nil
// when there is none.
func (g *graph) path(t *testing.T, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var chain []string
			for ; p != ""; p = prev[p] {
				chain = append([]string{p}, chain...)
			}
			return chain
		}
		for _, q := range g.deps(t, p) {
			if _, seen := prev[q]; !seen {
				prev[q] = p
				queue = append(queue, q)
			}
		}
	}
	return nil
}

// deps returns the module packages pkg's non-test files import.
func (g *graph) deps(t *testing.T, pkg string) []string {
	if d, ok := g.imports[pkg]; ok {
		return d
	}
	bp, err := g.ctx.ImportDir(filepath.Join(g.root, filepath.FromSlash(pkg)), 0)
	var noGo *build.NoGoError
	if err != nil && (!errors.As(err, &noGo) || forbidden[pkg] != nil) {
		t.Fatalf("reading package %s: %v", pkg, err) // a rule about a package that is gone holds nothing
	}
	var out []string
	if bp != nil {
		for _, imp := range bp.Imports {
			if rel, ok := strings.CutPrefix(imp, g.module+"/"); ok {
				out = append(out, rel)
			}
		}
	}
	g.imports[pkg] = out
	return out
}

// moduleRoot finds go.mod above the working directory and returns its
// directory and module path.
func moduleRoot(t *testing.T) (dir, module string) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
