// Package verify is --verify (SPEC §2): it proves on the user's own
// database that every value path of the production engine lands exactly.
//
// In scratch tables named config.VerifyPrefix + 8 hexadecimal digits, in
// the target schema, it loads one stream through the production pipeline
// and Oracle engine (the same naming, type mapping, row building, binds
// and SQL as a load), one edge value per run, first with append-only
// (array INSERT), then with upsert (MERGE: a new key, and an existing row
// updated). It loads the same input into the embedded engine under the
// same server facts, reads every value back from Oracle as the server's
// own canonical text (oraclesql/scratch.go: DUMP of numbers, TO_CHAR with
// fixed masks, SYS_EXTRACT_UTC, DBMS_LOB.SUBSTR, JSON_SERIALIZE) and
// compares it with what the embedded engine stored. A second table runs
// the text cases through the national bind class (NVARCHAR2/NCLOB) when
// the settings do not already choose it; a third runs the binary cases
// (RAW, BLOB: the run turns interpret_content_encoding on) under a
// RAW(16) key; a fourth the date-time cases under a TIMESTAMP(9) key;
// a fifth is a load_method history table (history.go), loaded in three
// batches whose versions are compared after each.
//
// It drops what it made with DROP TABLE … PURGE, also after a failure or a
// cancelled context (a signal), and drops scratch tables of its prefix
// older than an hour (runs that could not). It changes nothing else.
package verify

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Options are what a verify run needs.
type Options struct {
	Config *config.Config // the user's settings
	Facts  connect.Facts  // probed and resolved
	Server pipeline.Server
	// Engine is the production Oracle engine, built as a load builds it.
	Engine engine.Engine
	// Dial opens plain sessions for the scratch statements (listing,
	// dropping, reading back).
	Dial oracle.Dialer
	// Check is --check's privilege and quota check; it runs first.
	Check func(ctx context.Context) (connect.Report, error)
	Log   *slog.Logger
	// Rand makes the table suffixes; nil is crypto/rand.
	Rand io.Reader
	// CleanupTimeout bounds the drops at the end, which run even when ctx
	// was cancelled; 0 means 2 minutes.
	CleanupTimeout time.Duration
	// Only, when set, keeps the cases it accepts (tests run a few).
	Only func(Case) bool
}

// Status is a case's outcome.
type Status string

const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Skipped Status = "skipped" // the database character set cannot hold the value
)

// Result is one case on one write path.
type Result struct {
	Table    string `json:"table"`
	Case     string `json:"case"`
	Property string `json:"property"`
	Column   string `json:"column,omitempty"`
	Type     string `json:"type,omitempty"`
	// Path is the write path: insert (array INSERT), merge-insert (MERGE
	// of a new key), merge-update (MERGE of an existing row).
	Path     string `json:"path"`
	Status   Status `json:"status"`
	Expected string `json:"expected,omitempty"`
	Got      string `json:"got,omitempty"`
	Dump     string `json:"dump,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// Report is the outcome of a verify run.
type Report struct {
	Server    ServerFacts `json:"server"`
	CheckOK   bool        `json:"check_ok"`
	Missing   []string    `json:"missing_privileges,omitempty"`
	Fixes     []string    `json:"fixes,omitempty"`
	Tables    []string    `json:"tables"`
	Leftovers []string    `json:"leftovers_dropped,omitempty"`
	Results   []Result    `json:"results"`
	Charsets  []Charset   `json:"charsets"`
	Dropped   []string    `json:"dropped"`
	// Errors are failures outside any case (cleanup, reading back).
	Errors  []string `json:"errors,omitempty"`
	Stopped bool     `json:"stopped,omitempty"`
}

// OK reports whether every case passed (skipped ones excepted), the check
// passed and nothing else failed.
func (r *Report) OK() bool {
	if !r.CheckOK || r.Stopped || len(r.Errors) > 0 || len(r.Results) == 0 {
		return false
	}
	for _, c := range r.Results {
		if c.Status == Fail {
			return false
		}
	}
	return true
}

// ServerFacts are the facts that decided the types (as --check prints them).
type ServerFacts struct {
	Version            string `json:"version"`
	Edition            string `json:"edition,omitempty"`
	Compatible         string `json:"compatible,omitempty"`
	MaxStringSize      string `json:"max_string_size,omitempty"`
	DBCharset          string `json:"database_charset"`
	NCharset           string `json:"national_charset"`
	Schema             string `json:"schema"`
	IdentifierMaxBytes int    `json:"identifier_max_bytes"`
	VarcharMaxBytes    int    `json:"varchar_max_bytes"`
	BooleanNative      bool   `json:"boolean_native"`
	JSONNative         bool   `json:"json_native"`
	National           bool   `json:"national"`
}

func factsOf(f connect.Facts) ServerFacts {
	s := f.Server
	return ServerFacts{Version: s.Version, Edition: s.Edition, Compatible: s.Compatible, MaxStringSize: s.MaxStringSize,
		DBCharset: s.DBCharset, NCharset: s.NCharset, Schema: f.DefaultSchema, IdentifierMaxBytes: f.IdentifierMaxBytes,
		VarcharMaxBytes: f.VarcharMaxBytes, BooleanNative: f.BooleanNative, JSONNative: f.JSONNative, National: f.National}
}

// scratchName matches the tables a verify run makes.
var scratchName = regexp.MustCompile(`^` + regexp.QuoteMeta(config.VerifyPrefix) + `[0-9A-F]{8}$`)

// ScratchName reports whether name is a verify scratch table's.
func ScratchName(name string) bool { return scratchName.MatchString(name) }

// variant is one scratch table: the user's settings, national text, or
// the binary cases under a RAW(16) key (MERGE ON a RAW bind, the readback
// by HEXTORAW).
type variant struct {
	name     string
	national bool
	key      keyKind
}

// Run runs --verify. The error is for a run that could not be made (the
// check could not run, a session failed); case failures are in the
// report. After a cancelled ctx it drops its tables and returns ctx's
// error with the report so far.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.CleanupTimeout <= 0 {
		o.CleanupTimeout = 2 * time.Minute
	}
	if o.Check == nil || o.Engine == nil || o.Dial == nil || o.Config == nil {
		return &Report{}, errors.New("options need Config, Engine, Dial and Check")
	}
	rep := &Report{Server: factsOf(o.Facts), Charsets: charsetReport(o.Facts, Cases(o.Facts.VarcharMaxBytes))}
	chk, err := o.Check(ctx)
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	rep.CheckOK, rep.Missing, rep.Fixes = chk.OK(), chk.Missing, chk.Fixes
	if !rep.CheckOK {
		// Loading cannot work: nothing is created (SPEC §2: --check first).
		return rep, nil
	}
	s := &scratch{o: o, rep: rep, schema: o.Facts.DefaultSchema}
	defer s.cleanup(ctx)
	s.dropLeftovers(ctx)
	variants := []variant{{name: "settings", national: o.Facts.National}}
	if !o.Facts.National {
		variants = append(variants, variant{name: "national", national: true})
	}
	variants = append(variants, variant{name: "binary key", national: o.Facts.National, key: keyRaw},
		variant{name: "date-time key", national: o.Facts.National, key: keyDateTime})
	runs := make([]func(context.Context) error, 0, len(variants)+1)
	for _, v := range variants {
		runs = append(runs, func(ctx context.Context) error { return s.runVariant(ctx, v) })
	}
	for _, run := range append(runs, s.runHistory) {
		if err := run(ctx); err != nil {
			if ctx.Err() != nil {
				rep.Stopped = true
				return rep, ctx.Err()
			}
			return rep, err
		}
	}
	return rep, nil
}

// scratch is one run's tables and sessions.
type scratch struct {
	o       Options
	rep     *Report
	schema  string
	created []string
}

// newTable names a scratch table, records it for the report and the
// cleanup, and returns the settings that load it and the embedded engine
// its rows are compared with.
func (s *scratch) newTable(national bool) (string, *config.Config, pipeline.Server, *memory.Engine, error) {
	name, err := s.newName()
	if err != nil {
		return "", nil, pipeline.Server{}, nil, err
	}
	s.created = append(s.created, name)
	s.rep.Tables = append(s.rep.Tables, name)
	cfg, srv := runSettings(s.o.Config, s.o.Server, s.schema, name, national)
	return name, cfg, srv, memory.New(memory.Options{KeepRows: true}), nil
}

// newName is a fresh scratch table name.
func (s *scratch) newName() (string, error) {
	var b [4]byte
	if _, err := io.ReadFull(s.o.Rand, b[:]); err != nil {
		return "", fmt.Errorf("scratch table name: %w", err)
	}
	return config.VerifyPrefix + strings.ToUpper(hex.EncodeToString(b[:])), nil
}

// runVariant loads every case into a new scratch table and compares.
func (s *scratch) runVariant(ctx context.Context, v variant) error {
	textBytes := s.o.Server.VarcharMaxBytes
	if v.national {
		textBytes /= 2
	}
	cases := Cases(textBytes)
	if s.o.Only != nil {
		cases = slices.DeleteFunc(cases, func(c Case) bool { return !s.o.Only(c) })
	}
	if cases = casesFor(v.key, cases); len(cases) == 0 {
		return nil
	}
	name, cfg, srv, mem, err := s.newTable(v.national)
	if err != nil {
		return err
	}
	ks := keys{kind: v.key}
	// The table is made by an upsert, so that it has its primary key (an
	// append-only stream's table has none) and every MERGE runs as a load's.
	cfg.LoadMethod = "upsert"
	setup := fmt.Sprintf(`{"type":"SCHEMA","stream":%s,"key_properties":["k"],"schema":%s}`+"\n"+`{"type":"RECORD","stream":%s,"record":{"k":%s}}`+"\n",
		str(stream), schemaOf(v.key), str(stream), str(ks.input("setup")))
	if err := load(ctx, s.o.Engine, cfg, srv, setup, s.o.Log); err != nil {
		return fmt.Errorf("create the scratch table %s: %w", name, err)
	}
	if err := load(ctx, mem, cfg, srv, setup, s.o.Log); err != nil {
		return fmt.Errorf("create the scratch table %s on the embedded engine: %w", name, err)
	}
	runErr := make([]map[string]error, len(cases)) // path -> error
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			return err
		}
		runErr[i] = map[string]error{}
		for _, m := range []string{"append-only", "upsert"} {
			in := input(c, i, m, ks)
			cfg.LoadMethod = m
			err := load(ctx, s.o.Engine, cfg, srv, in, s.o.Log)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if merr := load(ctx, mem, cfg, srv, in, s.o.Log); merr != nil {
				runErr[i]["embedded "+m] = merr
			}
			if err != nil {
				runErr[i][m] = err
			}
		}
	}
	q := qualified(s.schema, name)
	want := mem.Tables()[q]
	if want == nil {
		return fmt.Errorf("the embedded engine made no table %s", q)
	}
	rows := map[string]map[string]string{}
	kc := columnOf(want, "k")
	if kc == nil {
		return fmt.Errorf("the scratch table %s has no key column", q)
	}
	key := kc.Name
	for _, r := range mem.Rows(q) {
		rows[r[key]] = r
	}
	rd := &reader{dial: s.o.Dial, t: want, key: key, maxString: srv.VarcharMaxBytes, asciiJSON: !unicode(s.o.Facts.Server.DBCharset)}
	defer rd.close()
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.rep.Results = append(s.rep.Results, s.compareCase(ctx, rd, name, want, rows, c, i, runErr[i], ks)...)
	}
	s.compareShape(ctx, name, "table shape (catalog vs embedded engine)", want)
	return nil
}

// compareShape compares the catalog's scratch table name with want (the
// embedded engine's; nil: none to compare) as the result named label.
func (s *scratch) compareShape(ctx context.Context, name, label string, want *table.Table) {
	if want == nil {
		return
	}
	got, err := s.o.Engine.Describe(ctx, s.schema, name)
	if err != nil {
		s.rep.Errors = append(s.rep.Errors, fmt.Sprintf("describe %s: %v", qualified(s.schema, name), err))
		return
	}
	r := Result{Table: name, Case: label, Path: "ddl", Status: Pass}
	if d := shapeDiff(got, want); d != "" {
		r.Status, r.Detail = Fail, d
	}
	s.rep.Results = append(s.rep.Results, r)
}

// runSettings are the settings of a verify run: the user's (so the types
// are the ones a load makes), with everything that would change the
// stream or its table shape around the one scratch table switched off.
func runSettings(base *config.Config, srv pipeline.Server, schema, tableName string, national bool) (*config.Config, pipeline.Server) {
	c := *base
	c.DefaultTargetSchema, c.SchemaMapping = schema, nil
	c.TablePrefix, c.TableSuffix = "", ""
	c.TableNameMappings = map[string]string{stream: tableName}
	c.ColumnMappings, c.IgnoredColumns, c.StreamOverrides, c.CustomIndexes = nil, nil, nil, nil
	c.StorageMode, c.FlatteningEnabled = "hybrid", false
	c.StreamMaps, c.StreamMapConfig = nil, nil
	c.TruncateBeforeLoad, c.HardDelete, c.ProcessActivateVersionMessages, c.AddRecordMetadata = false, false, false, false
	c.PrimaryKeyRequired, c.ValidateRecords, c.OnInvalidRecord, c.RejectPath = false, true, "fail", ""
	c.SchemaEvolution, c.MaxParallelism, c.SummaryPath, c.HTTPListenAddress = "widen", 1, "", ""
	// Loading modes and table options that would refuse, prune or reshape
	// the cases' rows (a partitioning column the cases lack is exit 2).
	c.OnDatabaseError, c.DeleteMissing = "fail", "none"
	// Only the binary cases' properties have a contentEncoding.
	c.InterpretContentEncoding = true
	c.Partitioning, c.Compression = config.Partitioning{}, "none"
	if national {
		c.NationalCharacters = "always"
		srv.NationalNeeded = true
	}
	srv.DefaultSchema = schema
	return &c, srv
}

// unicode reports whether the database character set holds every
// character (as connect decides national_characters: auto).
func unicode(cs string) bool {
	switch strings.ToUpper(cs) {
	case "", "AL32UTF8", "UTF8":
		return true
	}
	return false
}

// stream is the scratch stream's name (mapped to the scratch table).
const stream = "target_oracle_verify"

// keyOf is the key of case i's j-th record on a path: i (insert), m
// (merge of a new key) or u (the row an insert makes empty and a merge
// then updates).
func keyOf(i int, path byte, j int) string { return fmt.Sprintf("c%02d/%c#%d", i, path, j) }

// keys turns the keys of keyOf into the forms of one table: as they are
// for a text key; for the RAW(16) key the bytes of the text, in base16 in
// the input and the readback, padded base64 as stored; for the date-time
// key an instant of its own (instantOf), the same text in and out.
type keys struct{ kind keyKind }

func (k keys) input(s string) string {
	switch k.kind {
	case keyRaw:
		return hex.EncodeToString([]byte(s))
	case keyDateTime:
		return instantOf(s)
	}
	return s
}

func (k keys) stored(s string) string {
	switch k.kind {
	case keyRaw:
		return base64.StdEncoding.EncodeToString([]byte(s))
	case keyDateTime:
		return instantOf(s)
	}
	return s
}

// instantOf is the date-time key standing for key text s: a second of the
// 31 years after 2000 chosen by the text's hash, with all nine fraction
// digits, in the canonical UTC form the embedded engine stores (no zero
// to trim), so that a key with a lost digit or a shifted zone differs.
func instantOf(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	sec := int64(h.Sum64() % 1_000_000_000)
	return time.Unix(946_684_800+sec, 123_456_789).UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// input is the Singer input of case i for load method m: SCHEMA, then
// per value the record with the value and the update row (empty for
// append-only, the value for upsert).
func input(c Case, i int, m string, ks keys) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"SCHEMA","stream":%s,"key_properties":["k"],"schema":%s}`+"\n", str(stream), schemaOf(ks.kind))
	path := byte('i')
	if m == "upsert" {
		path = 'm'
	}
	for j, v := range c.Values {
		fmt.Fprintf(&b, `{"type":"RECORD","stream":%s,"record":{"k":%s,%s:%s}}`+"\n", str(stream), str(ks.input(keyOf(i, path, j))), str(c.Property), v)
		if m == "upsert" {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":%s,"record":{"k":%s,%s:%s}}`+"\n", str(stream), str(ks.input(keyOf(i, 'u', j))), str(c.Property), v)
		} else {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":%s,"record":{"k":%s}}`+"\n", str(stream), str(ks.input(keyOf(i, 'u', j))))
		}
	}
	return b.String()
}

// load runs the pipeline once on eng.
func load(ctx context.Context, eng engine.Engine, cfg *config.Config, srv pipeline.Server, in string, log *slog.Logger) error {
	return loadAt(ctx, eng, cfg, srv, in, nil, log)
}

// loadAt is load with the pipeline's clock for metadata and batch times
// (nil: the real one), so that two engines loading the same input at the
// same now store the same history valid-froms.
func loadAt(ctx context.Context, eng engine.Engine, cfg *config.Config, srv pipeline.Server, in string, now func() time.Time, log *slog.Logger) error {
	return pipeline.Run(ctx, pipeline.Options{Config: cfg, Engine: eng, Server: srv, Input: strings.NewReader(in), StateOut: io.Discard, Log: log, Now: now})
}

func qualified(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// compareCase reads case i's rows back and compares them with the
// embedded engine's.
func (s *scratch) compareCase(ctx context.Context, rd *reader, name string, want *table.Table, rows map[string]map[string]string, c Case, i int, errs map[string]error, ks keys) []Result {
	col := columnOf(want, c.Property)
	base := Result{Table: name, Case: c.Name, Property: c.Property}
	if col != nil {
		base.Column, base.Type = col.Name, col.Type.String()
	}
	var out []Result
	for _, p := range []struct {
		path   string
		tag    byte
		method string
	}{{"insert", 'i', "append-only"}, {"merge-insert", 'm', "upsert"}, {"merge-update", 'u', "upsert"}} {
		r := base
		r.Path = p.path
		switch err := firstErr(errs, p.method, p.tag); {
		case err != nil && charsetError(err):
			r.Status, r.Detail = Skipped, err.Error()
		case err != nil:
			r.Status, r.Detail = Fail, err.Error()
		default:
			r.Status = Pass
			for j := range c.Values {
				k := keyOf(i, p.tag, j)
				if d := rd.compare(ctx, ks.input(k), rows[ks.stored(k)], &r); d {
					break
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// firstErr is the error that decides a path: the embedded engine's
// refusal, or the Oracle run's (the update row of merge-update is
// written by both runs).
func firstErr(errs map[string]error, method string, tag byte) error {
	for _, k := range []string{"embedded " + method, method} {
		if errs[k] != nil {
			return errs[k]
		}
	}
	if tag == 'u' {
		for _, k := range []string{"embedded append-only", "append-only"} {
			if errs[k] != nil {
				return errs[k]
			}
		}
	}
	return nil
}

func charsetError(err error) bool {
	var ce *oracle.CharsetError
	return errors.As(err, &ce)
}

// columnOf is the column holding property p.
func columnOf(t *table.Table, p string) *table.Column {
	for i := range t.Columns {
		if src := t.Columns[i].Source; len(src) == 1 && src[0] == p {
			return &t.Columns[i]
		}
	}
	return nil
}

// shapeDiff says how the catalog's table differs from the embedded
// engine's ("" when it does not).
func shapeDiff(got, want *table.Table) string {
	if got == nil {
		return "the table is not in the catalog"
	}
	var d []string
	for _, w := range want.Columns {
		g := got.Column(w.Name)
		switch {
		case g == nil:
			d = append(d, "column "+w.Name+" is missing")
		case vectorShapeUnknown(g.Type, w.Type) && g.Nullable == w.Nullable:
			// ALL_TAB_COLS does not tell a VECTOR's dimension and
			// format; the readback checks the elements.
		case g.Type != w.Type || g.Nullable != w.Nullable:
			d = append(d, fmt.Sprintf("column %s is %s nullable=%v, expected %s nullable=%v", w.Name, g.Type, g.Nullable, w.Type, w.Nullable))
		}
	}
	if fmt.Sprint(got.PrimaryKey) != fmt.Sprint(want.PrimaryKey) {
		d = append(d, fmt.Sprintf("primary key %v, expected %v", got.PrimaryKey, want.PrimaryKey))
	}
	return strings.Join(d, "; ")
}

// vectorShapeUnknown reports whether the catalog's VECTOR column of an
// unknown shape stands for the wanted VECTOR.
func vectorShapeUnknown(got, want table.Type) bool {
	return got.Kind == table.KindVector && want.Kind == table.KindVector && got.VectorFormat == ""
}
