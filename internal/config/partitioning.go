package config

import (
	"fmt"
	"strings"
)

// Partitioning is the partitioning setting: interval-partition new tables
// by a date-time column. The zero value is "none".
type Partitioning struct {
	// Column is a property path ("a.b" in flattened storage) of a key or
	// required date-time property, or "_sdc_received_at". Which column it
	// is, and whether it qualifies, is known at the stream's SCHEMA.
	Column   string `json:"column,omitempty"`
	Interval string `json:"interval,omitempty"` // day | month | year
}

// None reports whether tables are not partitioned.
func (p Partitioning) None() bool { return p.Column == "" }

func convPartitioning(_ []setting, v any) (any, error) {
	var p Partitioning
	for _, m := range v.(*object).members {
		if m.key != "column" && m.key != "interval" {
			return nil, fmt.Errorf("unknown key %q (expected column and interval)", m.key)
		}
		s, ok := m.val.(string)
		if !ok {
			return nil, fmt.Errorf("%s: expected a string", m.key)
		}
		switch m.key {
		case "column":
			p.Column = strings.TrimSpace(s)
		case "interval":
			p.Interval = strings.ToLower(strings.TrimSpace(s))
		}
	}
	switch {
	case p.Column == "" && p.Interval == "":
		return Partitioning{}, nil
	case p.Column == "":
		return nil, fmt.Errorf(`column: required (a key or required date-time property, or "_sdc_received_at")`)
	case p.Interval != "day" && p.Interval != "month" && p.Interval != "year":
		return nil, fmt.Errorf(`interval: expected "day", "month" or "year", got %q`, p.Interval)
	}
	return p, nil
}
