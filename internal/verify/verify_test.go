package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

const schemaName = "LOADER"

// rig is a verify run on the fake Oracle, built as the CLI builds it.
type rig struct {
	db    *fake.DB
	cfg   *config.Config
	facts connect.Facts
	clock time.Time
	privs []string
}

func newRig(t *testing.T, settings string) *rig {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.json")
	if settings == "" {
		settings = `{}`
	}
	if err := os.WriteFile(p, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{p}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{cfg: cfg, clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		privs: []string{"CREATE SESSION", "CREATE TABLE"}}
	r.db = fake.New(fake.Options{Schema: schemaName, Now: func() time.Time { return r.clock }})
	info := connect.ServerInfo{Version: "19.3.0.0.0", Major: 19, Edition: "Enterprise Edition", Compatible: "19.0.0",
		MaxStringSize: "STANDARD", IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16",
		CurrentSchema: schemaName, SessionUser: schemaName}
	r.facts = info.Resolve(cfg)
	return r
}

func (r *rig) options() Options {
	srv := pipeline.Server{DefaultSchema: r.facts.DefaultSchema, UserSchema: schemaName, IdentifierMaxBytes: r.facts.IdentifierMaxBytes,
		VarcharMaxBytes: r.facts.VarcharMaxBytes, BooleanNative: r.facts.BooleanNative, JSONNative: r.facts.JSONNative, NationalNeeded: r.facts.National}
	eng := oracle.New(r.db.Dial, oraclesql.New(oraclesql.Options{IdentifierMaxBytes: r.facts.IdentifierMaxBytes}), oracle.Options{
		MaxStringBytes: r.facts.VarcharMaxBytes, Charset: r.facts.Server.DBCharset, NationalCharsetID: oracle.CharsetID(r.facts.Server.NCharset),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	return Options{
		Config: r.cfg, Facts: r.facts, Server: srv, Engine: eng, Dial: r.db.Dial,
		Check: func(context.Context) (connect.Report, error) {
			return connect.Evaluate(r.cfg, r.facts, connect.Access{User: schemaName, Schema: schemaName, SchemaExists: true,
				Privileges: r.privs, UserTablespace: "USERS", UserQuotas: []connect.Quota{{Tablespace: "USERS", MaxBytes: -1}}}), nil
		},
	}
}

// scratchTables are the fake's tables of the verify prefix.
func (r *rig) scratchTables() []string {
	var out []string
	for _, q := range r.db.Tables() {
		if strings.Contains(q, config.VerifyPrefix) {
			out = append(out, q)
		}
	}
	return out
}

func failures(rep *Report) []string {
	var out []string
	for _, c := range rep.Results {
		if c.Status != Pass {
			out = append(out, string(c.Status)+" "+c.Path+" "+c.Case+": "+c.Detail+" expected "+c.Expected+" got "+c.Got)
		}
	}
	return append(out, rep.Errors...)
}

// TestVerifyPasses: every case of SPEC §2 on every write path, in the
// table of the user's settings and the national one, lands as the
// embedded engine stores it; the tables are dropped with PURGE.
func TestVerifyPasses(t *testing.T) {
	r := newRig(t, "")
	rep, err := Run(context.Background(), r.options())
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed on the fake:\n%s", strings.Join(f, "\n"))
	}
	if len(rep.Tables) != 2 || len(rep.Dropped) != 2 {
		t.Errorf("tables %v, dropped %v: want the settings' table and the national one, both dropped", rep.Tables, rep.Dropped)
	}
	if left := r.scratchTables(); len(left) > 0 {
		t.Errorf("scratch tables left: %v", left)
	}
	purged := 0
	for _, s := range r.db.Statements() {
		if strings.HasPrefix(s, "DROP TABLE ") && strings.HasSuffix(s, " PURGE") {
			purged++
		}
	}
	if purged != 2 {
		t.Errorf("%d DROP TABLE … PURGE statements, want 2", purged)
	}
	want := len(Cases(r.facts.VarcharMaxBytes)) + len(Cases(r.facts.VarcharMaxBytes/2))
	if got := len(rep.Results); got != 3*want+2 {
		t.Errorf("%d results, want %d (3 paths per case, and the two shapes)", got, 3*want+2)
	}
	paths := map[string]int{}
	for _, c := range rep.Results {
		paths[c.Path]++
	}
	if paths["insert"] == 0 || paths["merge-insert"] == 0 || paths["merge-update"] == 0 {
		t.Errorf("paths %v", paths)
	}
	var text, js bytes.Buffer
	if err := rep.Write(&text, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "every value path landed exactly") || !strings.Contains(text.String(), "character set (database): AL32UTF8") {
		t.Errorf("text report:\n%s", text.String())
	}
	if err := rep.Write(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		OK      bool
		Results []Result
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || !decoded.OK || len(decoded.Results) != len(rep.Results) {
		t.Errorf("json report: %v, ok %v, %d results", err, decoded.OK, len(decoded.Results))
	}
}
