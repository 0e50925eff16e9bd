package pipeline

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/table"
)

// streamSchemaToken is the placeholder of default_target_schema that routes
// each stream to a schema taken from its name (SPEC §3).
const streamSchemaToken = "{stream_schema}"

// routeStream returns the schema (conformed) of stream and the part of its
// name the table is named from ("" = the whole name), by SPEC §3:
//
//   - without {stream_schema} in the stream's default_target_schema, the
//     literal schema, conformed (or the user's own schema when unset);
//   - with it, the SDK's split rule: a name of 2 or 3 "-"-separated parts
//     is schema = second-to-last part, table = last part; other names
//     have no schema part (the template is filled with nothing);
//   - the schema part is looked up in schema_mapping first; "public" is
//     the user's own schema unless mapped, since Oracle has no PUBLIC
//     schema a table could live in; an empty result is the user's schema.
//
// Routed schema names are always upper-cased: a schema part comes from a
// source database's naming (Postgres' lower case), not from the user.
func routeStream(c *config.Config, st config.StreamSettings, srv Server, stream string, o *table.Options) (schema, tablePart string) {
	user := srv.UserSchema
	if user == "" {
		user = srv.DefaultSchema
	}
	tpl := st.DefaultTargetSchema
	if !strings.Contains(tpl, streamSchemaToken) {
		if tpl == "" {
			return user, ""
		}
		return table.SchemaName(tpl, o.IdentifierUpper, o.IdentifierMaxBytes), ""
	}
	var part string
	if p := strings.Split(stream, "-"); len(p) == 2 || len(p) == 3 {
		part, tablePart = p[len(p)-2], p[len(p)-1]
	}
	if mapped, ok := c.SchemaMapping[part]; ok && part != "" {
		return table.SchemaName(mapped, true, o.IdentifierMaxBytes), tablePart
	}
	if strings.EqualFold(part, "public") {
		return user, tablePart
	}
	s := strings.ReplaceAll(tpl, streamSchemaToken, part)
	if s == "" {
		return user, tablePart
	}
	return table.SchemaName(s, true, o.IdentifierMaxBytes), tablePart
}

// checkMaintainedSchema refuses, at the stream's SCHEMA (line), a stream
// routed into a schema Oracle maintains (SYS, SYSTEM, XDB, …) by
// {stream_schema} (stream "sys-orders"): what only the stream's name
// decides. A schema the user wrote (a literal default_target_schema, a
// schema_mapping value: a test database's SYSTEM) is used verbatim.
// The login user's own schema is where its tables go without any setting,
// so it is not refused here.
func (p *pipeline) checkMaintainedSchema(s *stream, line int64) error {
	schema := s.opts.Schema
	if !strings.Contains(s.settings.DefaultTargetSchema, streamSchemaToken) || p.mappedSchema(s) ||
		!config.OracleMaintainedSchema(schema) || schema == cmp.Or(p.o.Server.UserSchema, p.o.Server.DefaultSchema) {
		return nil
	}
	return &config.Error{Key: "default_target_schema", Msg: fmt.Sprintf("line %d: stream %q: routed to schema %s, a schema Oracle maintains (its own dictionary or options): target-oracle never loads there; map the stream elsewhere (schema_mapping, stream_overrides) or rename it", line, s.name, schema)}
}

// mappedSchema reports whether s's schema part is in schema_mapping: a
// schema the user named, not one the stream's name made.
func (p *pipeline) mappedSchema(s *stream) bool {
	parts := strings.Split(s.name, "-")
	if len(parts) != 2 && len(parts) != 3 {
		return false
	}
	_, ok := p.cfg.SchemaMapping[parts[len(parts)-2]]
	return ok
}
