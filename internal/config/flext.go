package config

import (
	"fmt"
	"strings"
)

// sdcModeKey holds flext-target-oracle's sdc_mode in a layer beside the
// settings (it names no setting): it is not an alias of load_method but is
// combined with it (SPEC §3, resolveSDCMode).
const sdcModeKey = "sdc_mode"

// flextLoadMethods are flext-target-oracle's load_method values.
var flextLoadMethods = []string{"INSERT", "BULK_INSERT", "MERGE", "BULK_MERGE"}

// addSDCMode records sdc_mode (alias a of load_method in the table, for
// its documentation and value map) as given in one source: one of the
// alias's values (any case), read as append-only or upsert.
func (l *loader) addSDCMode(src string, lay layer, a *alias, display string, raw any) {
	str, _ := text(raw)
	v, ok := lookupValue(a.values, str)
	if !ok {
		from := make([]string, len(a.values))
		for i, m := range a.values {
			from[i] = m.from
		}
		l.fail(&Error{Source: src, Key: display, Msg: fmt.Sprintf("expected one of %s, got %s", quoteList(from), show(raw))})
		return
	}
	if old := lay[sdcModeKey]; old != nil && old.value != v {
		l.fail(&Error{Source: src, Key: display, Msg: fmt.Sprintf("%s and %s give sdc_mode different values (%s and %s)",
			old.key, display, show(old.raw), show(raw))})
		return
	}
	lay[sdcModeKey] = &entry{key: display, raw: raw, value: v, source: src}
}

// isFlextLoadMethod reports whether load_method was given as one of
// flext's values rather than a target-oracle one.
func isFlextLoadMethod(e *entry) bool {
	str, ok := text(e.raw)
	if !ok {
		return false
	}
	for _, f := range flextLoadMethods {
		if strings.EqualFold(strings.TrimSpace(str), f) {
			return true
		}
	}
	return false
}

// combinesSDCMode reports whether sdc_mode is given and combines with
// load_method: load_method is absent or one of flext's values.
func combinesSDCMode(final layer) bool {
	lm := final["load_method"]
	return final[sdcModeKey] != nil && (lm == nil || isFlextLoadMethod(lm))
}

// resolveSDCMode applies SPEC §3's rule for sdc_mode: with load_method
// absent or one of flext's values the two combine as flext combines them
// (upsert if either says merge, else append-only); a target-oracle
// load_method from any source decides alone, and sdc_mode is ignored, with
// a warning if it disagrees. The effective load_method is reported either
// way (noteAlias reports a load_method given as an alias).
func (l *loader) resolveSDCMode(c *Config, final layer) {
	sdc, lm := final[sdcModeKey], final["load_method"]
	if sdc == nil {
		return
	}
	if !combinesSDCMode(final) {
		if lm.value != sdc.value {
			l.warn("%s: %s = %s is ignored: load_method = %s (from %s) decides; sdc_mode combines only with flext's load_method values %s",
				sdc.source, sdc.key, show(sdc.raw), show(lm.value), lm.source, strings.Join(flextLoadMethods, ", "))
		}
		return
	}
	c.LoadMethod = "append-only"
	given := fmt.Sprintf("%s = %s in %s", sdc.key, show(sdc.raw), sdc.source)
	if lm != nil {
		given = fmt.Sprintf("%s = %s in %s and %s", lm.key, show(lm.raw), lm.source, given)
	}
	if sdc.value == "upsert" || lm != nil && lm.value == "upsert" {
		c.LoadMethod = "upsert"
	}
	l.report.Effective = append(l.report.Effective, fmt.Sprintf(
		"load_method = %s (given as %s; as flext-target-oracle does: upsert if either says merge, else append-only)",
		show(c.LoadMethod), given))
}

// flextNotice starts the warning of reportFlextDefaults.
const flextNotice = "a config written for flext-target-oracle relies on defaults target-oracle does not share"

// noteFlextShape remembers the first sign that a config was written for
// flext-target-oracle: its TargetOracle block or an oracle_* name.
func (l *loader) noteFlextShape(what, src string) {
	if l.flextShape == "" {
		l.flextShape = fmt.Sprintf("%s in %s", what, src)
	}
}

// reportFlextDefaults warns once, for a flext-shaped config, about each of
// flext's defaults it relies on (the setting is not given) that
// target-oracle does not share, saying what target-oracle does instead.
func (l *loader) reportFlextDefaults(final layer) {
	if l.flextShape == "" {
		return
	}
	var differ []string
	if final["storage_mode"] == nil && final["flattening_enabled"] == nil {
		differ = append(differ, `storage_mode: flext "flattened" (a column per top-level property), `+
			`here "hybrid" (the same, objects and arrays as JSON)`)
	}
	if final["load_method"] == nil && final[sdcModeKey] == nil {
		differ = append(differ, `load_method: flext "INSERT" (append), here "upsert"`)
	}
	if final["default_target_schema"] == nil {
		differ = append(differ, `default_target_schema: flext "SINGER_DATA", here the user's own schema`)
	}
	if final["service_name"] == nil && final["sid"] == nil && final["dsn"] == nil {
		differ = append(differ, `service_name: flext "XEPDB1", here none (give service_name, sid or dsn)`)
	}
	if len(differ) == 0 {
		return
	}
	l.warn("%s: %s; set them to keep flext's", flextNotice+" ("+l.flextShape+")", strings.Join(differ, "; "))
}
