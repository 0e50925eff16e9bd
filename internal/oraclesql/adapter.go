package oraclesql

import (
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// RenderChange, RenderSteps and RenderTruncate give the embedded engine
// (memory.Renderer) the SQL text for statements.sql and --plan. The
// embedded engine checks every change and step before it renders them
// (unknown columns, impossible migrations), so a render error cannot
// happen there; should one happen anyway, nothing is rendered rather than
// SQL the Oracle engine would not run. The Oracle engine uses Change,
// Steps and Truncate, which report errors.

// RenderChange implements memory.Renderer.
func (r *Renderer) RenderChange(ch engine.Change) []string {
	s, err := r.Change(ch)
	if err != nil {
		return nil
	}
	return texts(s)
}

// RenderSteps implements memory.Renderer.
func (r *Renderer) RenderSteps(steps []engine.Step) []string {
	s, err := r.Steps(steps)
	if err != nil {
		return nil
	}
	return texts(s)
}

// RenderTruncate implements memory.Renderer.
func (r *Renderer) RenderTruncate(t *table.Table) []string {
	return texts(r.Truncate(t))
}

func texts(stmts []Statement) []string {
	out := make([]string, 0, len(stmts))
	for _, s := range stmts {
		if s.Lock != nil {
			out = append(out, s.Lock.SQL)
		}
		out = append(out, s.SQL)
	}
	return out
}
