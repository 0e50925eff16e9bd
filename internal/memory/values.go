package memory

import (
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// valueRules describes column c of the table for Oracle's value rules
// (internal/oravalue), which the fake Oracle applies too.
func (t *memTable) valueRules(c *table.Column) oravalue.Column {
	return engine.ValueColumn(t.def.Schema, t.def.Name, c.Name, c.Type, c.Nullable)
}

// check models what the server does with one value bound to its column
// (rules describes c) and returns the value the column keeps: v itself,
// unless v is not in canonical form. A failure here means the loader did
// not widen a column it had to: the rules are strict where Oracle would
// silently round.
func check(c *table.Column, rules *oravalue.Column, v string) (string, error) {
	if rules.Kept(v) && c.Writable() {
		return v, nil // the common case, decided without Assign (oravalue.TestKeptAgreesWithAssign)
	}
	return checkRule(c, rules, v)
}

// checkRule is check by the full rule.
func checkRule(c *table.Column, rules *oravalue.Column, v string) (string, error) {
	switch c.Fill { // an adopted table's column (SPEC §5.5), as Oracle treats it
	case table.FillIdentityAlways:
		return "", valueError(oravalue.GeneratedAlways(c.Name))
	case table.FillVirtual:
		return "", valueError(oravalue.Virtual(c.Name))
	case table.FillDefaultOnNull, table.FillIdentityOnNull:
		if v == "" {
			return "", nil // the database stores its default (unknown here: the dump shows NULL)
		}
	}
	s, err := rules.Assign(v)
	if err != nil {
		return "", valueError(err)
	}
	return s, nil
}

// valueError is a value rule's error as the model reports it.
func valueError(e *oravalue.Error) error { return &OracleError{Code: e.Code, Msg: e.Msg} }
