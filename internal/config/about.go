package config

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
)

// Setting describes one setting for --about, the Meltano plugin definition
// and the settings reference. All of it comes from the settings table.
type Setting struct {
	Name string
	// Type is the JSON Schema type: "string", "integer", "number", "boolean",
	// "array" (of strings), "object", or "array|object" (ignored_columns).
	Type        string
	Default     any      // JSON-able default; nil when there is none (always for secrets)
	Enum        []string // allowed values of an enum setting
	Min, Max    *int64   // inclusive range of an integer setting
	Description string
	Secret      bool
	Required    bool // needed to connect; --dry-run runs without it
	Aliases     []Alias
	// ValueAliases are peer spellings of Enum values (load_method "MERGE").
	ValueAliases []ValueAlias
	EnvVar       string // TARGET_ORACLE_<NAME>
	// Members are the keys of an object setting's object (ssh_tunnel), each
	// named <setting>.<key> with its own type, default, secrecy and env var
	// (TARGET_ORACLE_SSH_TUNNEL_HOST). Each can be given on its own.
	Members []Setting
}

// Alias is another name a peer target uses for a setting.
type Alias struct {
	Name   string
	Values []ValueAlias // how the alias's values map to the setting's; none = same values
	Note   string
}

// ValueAlias says that the value From means the canonical value To.
type ValueAlias struct{ From, To string }

// Settings returns every setting, in documentation order.
func Settings() []Setting {
	t := table()
	out := make([]Setting, len(t))
	for i := range t {
		out[i] = t[i].export()
	}
	return out
}

func (s *setting) export() Setting {
	e := Setting{
		Name:         s.name,
		Type:         s.schemaType(),
		Enum:         s.enum,
		Description:  s.desc,
		Secret:       s.kind == kindSecret,
		Required:     s.required,
		ValueAliases: valueAliases(s.values),
		EnvVar:       envVar(s.name),
	}
	if !e.Secret {
		e.Default = s.def
	}
	if s.kind == kindInteger {
		lo, hi := s.min, s.max
		e.Min, e.Max = &lo, &hi
	}
	for _, a := range s.aliases {
		e.Aliases = append(e.Aliases, Alias{Name: a.name, Values: valueAliases(a.values), Note: a.note})
	}
	for i := range s.members {
		m := s.members[i]
		m.name = s.name + "." + m.name
		e.Members = append(e.Members, m.export())
	}
	return e
}

func valueAliases(vs []valueMap) []ValueAlias {
	var out []ValueAlias
	for _, v := range vs {
		out = append(out, ValueAlias{From: v.from, To: v.to})
	}
	return out
}

func (s *setting) schemaType() string {
	switch s.kind {
	case kindInteger:
		return "integer"
	case kindFraction:
		return "number"
	case kindBoolean:
		return "boolean"
	case kindStrings:
		return "array"
	case kindObject:
		return "object"
	case kindObjectOrNone:
		return "object|none"
	case kindStringsOrObject:
		return "array|object"
	}
	return "string"
}

// AboutSchema returns the settings as a JSON Schema object, the "settings"
// value of --about --format json: every canonical setting with its type,
// default, description, enum, range and "secret": true where it is one.
func AboutSchema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, s := range Settings() {
		props[s.Name] = s.schema()
		if s.Required {
			required = append(required, s.Name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

func (s Setting) schema() map[string]any {
	p := map[string]any{"description": s.Description}
	switch s.Type {
	case "array|object":
		p["type"] = []string{"array", "object"}
	case "object|none":
		p["type"] = []string{"object", "string"}
	case "array":
		p["type"] = "array"
		p["items"] = map[string]any{"type": "string"}
	default:
		p["type"] = s.Type
	}
	if s.Default != nil {
		p["default"] = s.Default
	}
	if s.Enum != nil {
		p["enum"] = s.Enum
	}
	if s.Min != nil {
		p["minimum"], p["maximum"] = *s.Min, *s.Max
	}
	if s.Secret {
		p["secret"] = true
		p["writeOnly"] = true
	}
	if s.Members != nil {
		props := map[string]any{}
		for _, m := range s.Members {
			props[strings.TrimPrefix(m.Name, s.Name+".")] = m.schema()
		}
		p["properties"] = props
		p["additionalProperties"] = false
	}
	return p
}

// MarkdownReference returns the settings reference in Markdown: a table of
// every setting, then a table of the peer settings that are accepted but do
// not apply. docs/settings.md and --about --format markdown print it.
func MarkdownReference() string {
	var b strings.Builder
	b.WriteString("| Setting | Type | Default | Env var | Aliases | Description |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, s := range Settings() {
		for _, r := range append([]Setting{s}, s.Members...) {
			fmt.Fprintf(&b, "| `%s` | %s | %s | `%s` | %s | %s |\n",
				r.Name, mdType(r), mdDefault(r), r.EnvVar, mdAliases(r), cell(r.Description))
		}
	}
	b.WriteString("\nAccepted from peer targets' configs, but not applicable (a warning is logged):\n\n")
	b.WriteString("| Setting | From | Why it does not apply |\n|---|---|---|\n")
	for _, p := range peerSettings() {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.name, p.peer, cell(p.why))
	}
	return b.String()
}

func mdType(s Setting) string {
	switch {
	case s.Secret:
		return "string, **secret**"
	case s.Enum != nil:
		vals := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			vals[i] = "`" + e + "`"
		}
		return strings.Join(vals, " \\| ")
	case s.Type == "array":
		return "array of strings"
	case s.Type == "array|object":
		return "array or object"
	case s.Type == "object|none":
		return "object or `none`"
	case s.Min != nil:
		return fmt.Sprintf("integer (%d–%d)", *s.Min, *s.Max)
	}
	return s.Type
}

func mdDefault(s Setting) string {
	switch {
	case s.Required:
		return "required"
	case s.Default == nil:
		return "—"
	}
	b, err := json.Marshal(s.Default)
	if err != nil {
		return "?"
	}
	str := string(b)
	if sv, ok := s.Default.(string); ok && sv != "" {
		str = sv
	}
	return "`" + str + "`"
}

func mdAliases(s Setting) string {
	var parts []string
	for _, a := range s.Aliases {
		p := "`" + a.Name + "`"
		var notes []string
		if len(a.Values) > 0 {
			notes = append(notes, mdValueMap(a.Values))
		}
		if a.Note != "" {
			notes = append(notes, a.Note)
		}
		if len(notes) > 0 {
			p += " (" + strings.Join(notes, "; ") + ")"
		}
		parts = append(parts, p)
	}
	if len(s.ValueAliases) > 0 {
		parts = append(parts, "values: "+mdValueMap(s.ValueAliases))
	}
	return cell(strings.Join(parts, ", "))
}

// mdValueMap renders a value map grouped by target: `a`, `b` ⇒ `x`.
func mdValueMap(vs []ValueAlias) string {
	var order []string
	from := map[string][]string{}
	for _, v := range vs {
		if _, ok := from[v.To]; !ok {
			order = append(order, v.To)
		}
		q := "`" + v.From + "`"
		if v.From == "" {
			q = `""`
		}
		from[v.To] = append(from[v.To], q)
	}
	groups := make([]string, len(order))
	for i, to := range order {
		groups[i] = strings.Join(from[to], ", ") + " ⇒ `" + to + "`"
	}
	return strings.Join(groups, "; ")
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", "\\|")
}

// LogValue groups the effective settings for a structured log line at
// start; secrets show as **redacted**.
func (c *Config) LogValue() slog.Value {
	t := table()
	attrs := make([]slog.Attr, 0, len(t))
	for i := range t {
		attrs = append(attrs, slog.Attr{Key: t[i].name, Value: t[i].logValue(c)})
	}
	return slog.GroupValue(attrs...)
}

func (s *setting) logValue(c *Config) slog.Value {
	switch p := s.field(c).(type) {
	case *string:
		return slog.StringValue(*p)
	case *Secret:
		return slog.StringValue(p.String())
	case *int:
		return slog.IntValue(*p)
	case *int64:
		return slog.Int64Value(*p)
	case *float64:
		return slog.Float64Value(*p)
	case *bool:
		return slog.BoolValue(*p)
	case *[]StreamOverride:
		return slog.StringValue(overridesText(*p))
	case *map[string]any:
		if s.keysOnly {
			return slog.StringValue("keys " + strings.Join(slices.Sorted(maps.Keys(*p)), ","))
		}
	}
	b, err := json.Marshal(s.field(c))
	if err != nil {
		return slog.StringValue(fmt.Sprintf("<%v>", err))
	}
	return slog.StringValue(string(b))
}

func overridesText(os []StreamOverride) string {
	parts := make([]string, 0, len(os))
	for _, o := range os {
		var kv []string
		if o.StorageMode != nil {
			kv = append(kv, "storage_mode="+*o.StorageMode)
		}
		if o.LoadMethod != nil {
			kv = append(kv, "load_method="+*o.LoadMethod)
		}
		if o.HardDelete != nil {
			kv = append(kv, fmt.Sprintf("hard_delete=%t", *o.HardDelete))
		}
		if o.DeleteMissing != nil {
			kv = append(kv, "delete_missing="+*o.DeleteMissing)
		}
		if o.BatchSizeRows != nil {
			kv = append(kv, fmt.Sprintf("batch_size_rows=%d", *o.BatchSizeRows))
		}
		if o.FlatteningMaxDepth != nil {
			kv = append(kv, fmt.Sprintf("flattening_max_depth=%d", *o.FlatteningMaxDepth))
		}
		parts = append(parts, o.Pattern+":{"+strings.Join(kv, " ")+"}")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
