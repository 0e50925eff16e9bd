package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// maxTableCandidates bounds the suffixed names tried for one stream.
const maxTableCandidates = 100

// describeError is a catalog read that failed while choosing a table: not
// the input's fault.
type describeError struct {
	stream string
	err    error
}

func (e *describeError) Error() string {
	return fmt.Sprintf("stream %q: describe table: %v", e.stream, e.err)
}
func (e *describeError) Unwrap() error { return e.err }

// tableFor decides the table of stream s at its first SCHEMA, once per run,
// and returns it as the catalog has it (nil: it does not exist yet).
// Tables follow the name collision rule of SPEC §5.1:
//
//   - a mapping (table_name_mappings) is used verbatim, whoever else loads
//     into that table: only deliberate mappings join streams;
//   - a generated name is the stream's when the table's comment names the
//     stream, when no table has it, or when the table has no target-oracle
//     comment (adopted by name) — unless, in these last two cases, the
//     stream's first suffixed table exists with a comment naming it;
//   - it is taken when the table's comment names only other streams (also
//     streams absent from this run), or when another stream of this run
//     took it first (its table may not exist yet); the stream then tries
//     the name cut and suffixed with the hash of its own name
//     (table.CollidingTableName), with a warning naming both.
//
// The decision is made on the coordinator in input order, never by which
// worker creates a table first; a table's comment decides over arrival
// wherever the table exists. Collisions are per schema.
func (p *pipeline) tableFor(s *stream) (*table.Table, error) {
	schema := s.opts.Schema
	if err := p.checkSchema(s); err != nil {
		return nil, err
	}
	if s.table != "" {
		return p.describeFor(s, s.table)
	}
	base, err := table.TableName(s.name, &s.opts)
	if err != nil {
		return nil, err
	}
	if s.opts.TableName != "" {
		existing, err := p.describeFor(s, base)
		if err != nil {
			return nil, err
		}
		p.claimTable(s, base)
		return existing, nil
	}
	name := base
	var holders []string // who holds the names tried before
	for n := 1; n <= maxTableCandidates; n++ {
		if n > 1 {
			name = table.CollidingTableName(s.name, &s.opts, n-1)
		}
		existing, err := p.describeFor(s, name)
		if err != nil {
			return nil, err
		}
		if other := p.tableClaims[schema+"."+name]; other != "" && other != s.name {
			// Another stream of this run took the name first. Its comment
			// naming this stream still makes the table this stream's too
			// (a stream mapped into a generated table shares it): the
			// comment decides over the order of SCHEMA messages.
			if existing != nil && table.StreamsInclude(existing.Streams, s.name) {
				p.claimTable(s, name)
				return existing, nil
			}
			holders = append(holders, fmt.Sprintf("%s: stream %q of this run", name, other))
			continue
		}
		if existing != nil && existing.Streams != nil && !table.StreamsInclude(existing.Streams, s.name) {
			holders = append(holders, fmt.Sprintf("%s: stream(s) %s (the table's comment)", name, quoteStreams(existing.Streams)))
			continue
		}
		if n == 1 && (existing == nil || existing.Streams == nil) {
			// The name is free, or a table without a comment: the stream's
			// own table may still be the suffixed one from a run when the
			// name was another stream's (whose table is gone since, or
			// was made by hand), or the table of a run with the other
			// identifier_case. A comment naming the stream wins.
			if own, err := p.ownTableElsewhere(s, base); err != nil || own != nil {
				return own, err
			}
		}
		if len(holders) > 0 {
			p.log.Warn("table name collision: the stream's generated table name belongs to another stream, so it takes a suffixed name",
				"stream", s.name, "wanted", schema+"."+base, "taken_by", strings.Join(holders, "; "), "table", schema+"."+name)
		} else if existing != nil && existing.Streams == nil {
			p.log.Debug("adopting by name a table without a target-oracle comment", "stream", s.name, "table", existing.QualifiedName())
		}
		p.claimTable(s, name)
		return existing, nil
	}
	return nil, fmt.Errorf("table %s.%s and %d suffixed names for stream %q are all taken by other streams' tables: use table_name_mappings", schema, base, maxTableCandidates-1, s.name)
}

// missingSchemaError is a stream routed to a schema the database does not
// have: the configuration or the database is wrong, not the input (exit 1).
type missingSchemaError struct {
	stream, schema string
}

func (e *missingSchemaError) Error() string {
	return fmt.Sprintf("stream %q: schema %s does not exist (from default_target_schema, schema_mapping or stream_overrides): create the user or map the stream elsewhere", e.stream, e.schema)
}

// checkSchema asks the engine, once per schema and run, whether the
// stream's schema exists.
func (p *pipeline) checkSchema(s *stream) error {
	sc, ok := p.o.Engine.(engine.SchemaChecker)
	own := cmp.Or(p.o.Server.UserSchema, p.o.Server.DefaultSchema)
	if !ok || s.opts.Schema == own {
		return nil // the login user's own schema exists
	}
	if p.schemasSeen == nil {
		p.schemasSeen = map[string]bool{}
	}
	exists, known := p.schemasSeen[s.opts.Schema]
	if !known {
		var err error
		if exists, err = sc.SchemaExists(p.workCtx, s.opts.Schema); err != nil {
			return &describeError{stream: s.name, err: fmt.Errorf("schema %s: %w", s.opts.Schema, err)}
		}
		p.schemasSeen[s.opts.Schema] = exists
	}
	if !exists {
		return &missingSchemaError{stream: s.name, schema: s.opts.Schema}
	}
	return nil
}

// ownTableElsewhere returns the stream's table under a name other than
// its generated one base, found by the comment naming the stream (SPEC
// §5.1): the generated name under the other identifier_case (a run with
// upper made ORDERS, this run with preserve generates orders; Oracle's
// quoted names differ by case), then the first suffixed name under this
// case and under the other. nil when none exists. A table under the other
// case is adopted with a warning: new columns follow this run's case,
// existing ones are matched by comment, exact name, then case-insensitively.
func (p *pipeline) ownTableElsewhere(s *stream, base string) (*table.Table, error) {
	other := s.opts
	other.IdentifierUpper = !other.IdentifierUpper
	otherBase, err := table.TableName(s.name, &other)
	if err != nil {
		return nil, err
	}
	// Each name once, in order; true: under the other identifier_case.
	var names []string
	otherCase := map[string]bool{}
	add := func(name string, alt bool) {
		if name != base && !slices.Contains(names, name) {
			names = append(names, name)
			otherCase[name] = alt
		}
	}
	add(otherBase, true)
	add(table.CollidingTableName(s.name, &s.opts, 1), false)
	add(table.CollidingTableName(s.name, &other, 1), true)
	for _, name := range names {
		t, err := p.ownTable(s, name)
		if err != nil || t == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		if otherCase[name] {
			p.log.Warn("adopting the table whose comment names the stream, made with the other identifier_case: its name differs from the one this run generates",
				"stream", s.name, "table", t.QualifiedName(), "generated", s.opts.Schema+"."+base, "identifier_case", identifierCase(s.opts.IdentifierUpper))
		}
		return t, nil
	}
	return nil, nil
}

// ownTable returns the table name when it exists, its comment names the
// stream and no other stream of this run took it; nil otherwise. It claims
// the table it returns.
func (p *pipeline) ownTable(s *stream, name string) (*table.Table, error) {
	if other := p.tableClaims[s.opts.Schema+"."+name]; other != "" && other != s.name {
		return nil, nil
	}
	t, err := p.describeFor(s, name)
	if err != nil || t == nil || !table.StreamsInclude(t.Streams, s.name) {
		return nil, err
	}
	p.claimTable(s, name)
	return t, nil
}

func identifierCase(upper bool) string {
	if upper {
		return "upper"
	}
	return "preserve"
}

func (p *pipeline) describeFor(s *stream, name string) (*table.Table, error) {
	t, err := p.tables.describe(p.workCtx, s.opts.Schema, name)
	if err != nil {
		return nil, &describeError{stream: s.name, err: err}
	}
	return t, nil
}

// claimTable makes name the stream's table for the rest of the run.
func (p *pipeline) claimTable(s *stream, name string) {
	if p.tableClaims == nil {
		p.tableClaims = map[string]string{}
	}
	key := s.opts.Schema + "." + name
	if p.tableClaims[key] == "" {
		p.tableClaims[key] = s.name
	}
	s.table = name
	s.opts.TableName = name // the layout uses it verbatim from now on
}

func quoteStreams(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// noteCreationOptions says, once per stream, that partitioning and
// compression apply only to tables the target creates (SPEC §3): an
// existing table is never rebuilt. A table this stream created (its
// comment names it) was made with the options of that run: an info line;
// any other table is a warning, as the DBA's options are not applied.
func (p *pipeline) noteCreationOptions(s *stream, existing *table.Table) {
	o := s.opts
	if existing == nil || s.notedOptions || (o.Partitioning.Column == "" && (o.Compression == "" || o.Compression == "none")) {
		return
	}
	s.notedOptions = true
	log := p.log.Warn
	if existing.Streams != nil && table.StreamsInclude(existing.Streams, s.name) {
		log = p.log.Info
	}
	log("partitioning and compression apply only to tables the target creates; the existing table is left as it is",
		"stream", s.name, "table", existing.QualifiedName(), "partitioning", o.Partitioning.Column, "compression", o.Compression)
}
