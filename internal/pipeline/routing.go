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
// {stream_schema} (stream "sys-orders"). Config refuses the literal
// settings at load; this catches what only the stream's name decides.
// The login user's own schema is where its tables go without any setting,
// so it is not refused here.
func (p *pipeline) checkMaintainedSchema(s *stream, line int64) error {
	schema := s.opts.Schema
	if !config.OracleMaintainedSchema(schema) || schema == cmp.Or(p.o.Server.UserSchema, p.o.Server.DefaultSchema) {
		return nil
	}
	// schema_mapping and stream_overrides values Oracle maintains are
	// refused at load: here the template routed the stream.
	return &config.Error{Key: "default_target_schema", Msg: fmt.Sprintf("line %d: stream %q: routed to schema %s, a schema Oracle maintains (its own dictionary or options): target-oracle never loads there; map the stream elsewhere (schema_mapping, stream_overrides) or rename it", line, s.name, schema)}
}
