package config

import "fmt"

// MethodHistory is load_method history (slowly changing dimension, type 2).
const MethodHistory = "history"

// resolveHistory refuses the settings load_method history cannot honour
// (SPEC §6.2): truncate_before_load would empty the table whose versions
// history keeps, so the pair is a configuration error whether history is
// the global method or only a stream override's.
func (l *loader) resolveHistory(c *Config, final layer) {
	if !c.TruncateBeforeLoad {
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
	src, key := "", "truncate_before_load"
	if e := final["truncate_before_load"]; e != nil {
		src, key = e.source, e.key
	}
	l.fail(&Error{Source: src, Key: key, Msg: fmt.Sprintf(
		"truncate_before_load true conflicts with %s history: a history table keeps every version and is never emptied; remove one", where)})
}
