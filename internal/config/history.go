package config

import "fmt"

// MethodHistory is load_method history (slowly changing dimension, type 2).
const MethodHistory = "history"

// resolveHistory refuses the settings load_method history cannot honour
// (SPEC §6.2): truncate_before_load would empty the table whose versions
// history keeps, and on_database_error reject does not yet apply to a
// history batch; each pair is a configuration error whether history is
// the global method or only a stream override's.
func (l *loader) resolveHistory(c *Config, final layer) {
	conflict, what := "", ""
	switch {
	case c.TruncateBeforeLoad:
		conflict, what = "truncate_before_load", "truncate_before_load true conflicts with %s history: a history table keeps every version and is never emptied; remove one"
	case c.RejectsDatabaseErrors():
		// The refused-row bisection works on a batch's one Write; a history
		// batch is a read, closes and inserts decided together. Until it
		// applies there, the pair is refused rather than half-honoured.
		conflict, what = "on_database_error", "on_database_error reject is not supported with %s history yet (a history batch is decided as a whole): use on_database_error fail for this configuration"
	default:
		return
	}
	where := ""
	switch {
	case c.LoadMethod == MethodHistory:
		where = "load_method"
		if e := final["load_method"]; e != nil {
			where = fmt.Sprintf("load_method (from %s)", e.source)
		}
	default:
		for _, o := range c.StreamOverrides {
			if o.LoadMethod != nil && *o.LoadMethod == MethodHistory {
				where = fmt.Sprintf("stream_overrides %q load_method", o.Pattern)
				break
			}
		}
	}
	if where == "" {
		return
	}
	src, key := "", conflict
	if e := final[conflict]; e != nil {
		src, key = e.source, e.key
	}
	l.fail(&Error{Source: src, Key: key, Msg: fmt.Sprintf(what, where)})
}
