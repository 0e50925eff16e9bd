package connect

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

const (
	qServer   = "SYS_CONTEXT('USERENV', 'SESSION_USER')"
	qProduct  = "MAX(PCV.VERSION_FULL)"
	qProdOnly = "SELECT MAX(PCV.PRODUCT) AS PRODUCT FROM"
	qParams   = "V$PARAMETER"
	qDCL      = "DATABASE_COMPATIBLE_LEVEL"
	qLongID   = `AS "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"`
	qExtStr   = "VARCHAR2(32767)"
	qBoolean  = "AS BOOLEAN"
	qJSON     = "JSON('{}')"
	qBind     = "LENGTHB(:1)"
	qVector   = "TO_VECTOR('[1]')"
)

var notReadable = ora(942, "ORA-00942: table or view does not exist")

func TestProbe(t *testing.T) {
	tests := []struct {
		name     string
		rules    []rule
		want     ServerInfo
		warnings []string // substrings, one per warning
		notSent  []string
	}{
		{
			name: "19c with V$PARAMETER readable",
			rules: []rule{
				on(qServer, row("LOADER", "LOADER", "19.0.0.0.0", "AL32UTF8", "AL16UTF16")),
				on(qProduct, row("Oracle Database 19c Enterprise Edition", "19.21.0.0.0")),
				rows(qParams, 2, "compatible", "19.0.0", "max_string_size", "STANDARD"),
			},
			want: ServerInfo{Version: "19.21.0.0.0", Major: 19, Edition: "Enterprise Edition", Compatible: "19.0.0",
				MaxStringSize: "STANDARD", IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16",
				CurrentSchema: "LOADER", SessionUser: "LOADER"},
			notSent: []string{qDCL, qLongID, qExtStr, qBoolean, qJSON},
		},
		{
			name: "23ai Free without privileges: every fact from probes",
			rules: []rule{
				on(qServer, row("APP", "APP", "23.0.0.0.0", "AL32UTF8", "AL16UTF16")),
				on(qProduct, row("Oracle Database 23ai Free", "23.5.0.24.07")),
				fails(qParams, notReadable), fails(qDCL, notReadable),
				on(qLongID, row(int64(1))),
				fails(qExtStr, ora(910, "ORA-00910: specified length too long for its datatype")),
				on(qBoolean, row(nil)), on(qJSON, row("{}")), on(qVector, row(int64(1))),
			},
			want: ServerInfo{Version: "23.5.0.24.07", Major: 23, Edition: "Free", MaxStringSize: "STANDARD",
				IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", BooleanType: true, JSONType: true, VectorType: true,
				CurrentSchema: "APP", SessionUser: "APP"},
			warnings: []string{"V$PARAMETER is not readable (ORA-00942", "DATABASE_COMPATIBLE_LEVEL is not readable"},
		},
		{
			name: "21c XE, COMPATIBLE from DATABASE_COMPATIBLE_LEVEL, extended strings by probe",
			rules: []rule{
				on(qServer, row("APP", "APP", "21.0.0.0.0", "WE8MSWIN1252", "AL16UTF16")),
				on(qProduct, row("Oracle Database 21c Express Edition", "21.3.0.0.0")),
				fails(qParams, notReadable), on(qDCL, row("21.0.0")),
				on(qExtStr, row(nil)), on(qBind, row("4001")),
			},
			want: ServerInfo{Version: "21.3.0.0.0", Major: 21, Edition: "Express Edition", Compatible: "21.0.0",
				MaxStringSize: "EXTENDED", StringBindBytes: 32767, IdentifierMaxBytes: 128, DBCharset: "WE8MSWIN1252", NCharset: "AL16UTF16",
				JSONType: true, CurrentSchema: "APP", SessionUser: "APP"},
			warnings: []string{"V$PARAMETER is not readable"},
			notSent:  []string{qLongID, qBoolean, qJSON},
		},
		{
			name: "12.2 with COMPATIBLE 12.1: no VERSION_FULL, 30-byte names by ORA-00972",
			rules: []rule{
				on(qServer, row("OLD", "OLD", "12.2.0.1.0", "AL32UTF8", "AL16UTF16")),
				fails(qProduct, ora(904, `ORA-00904: "PCV"."VERSION_FULL": invalid identifier`)),
				on(qProdOnly, row("Oracle Database 12c Enterprise Edition ")),
				fails(qParams, notReadable), fails(qDCL, notReadable),
				fails(qLongID, ora(972, "ORA-00972: identifier is too long")),
				fails(qExtStr, ora(910, "ORA-00910")),
			},
			want: ServerInfo{Version: "12.2.0.1.0", Major: 12, Edition: "Enterprise Edition", MaxStringSize: "STANDARD",
				IdentifierMaxBytes: 30, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", CurrentSchema: "OLD", SessionUser: "OLD"},
			warnings: []string{"V$PARAMETER", "DATABASE_COMPATIBLE_LEVEL"},
			notSent:  []string{qBoolean, qJSON},
		},
		{
			name: "23ai with COMPATIBLE known: no probes",
			rules: []rule{
				on(qServer, row("APP", "APP", "23.0.0.0.0", "AL32UTF8", "AL16UTF16")),
				on(qProduct, row("Oracle Database 23ai Free", "23.4.0.24.05")),
				rows(qParams, 2, "compatible", "23.0.0", "max_string_size", "EXTENDED", "max_columns", "EXTENDED"),
				on(qBind, row("4001")),
			},
			want: ServerInfo{Version: "23.4.0.24.05", Major: 23, Edition: "Free", Compatible: "23.0.0", MaxStringSize: "EXTENDED", MaxColumns: "EXTENDED",
				StringBindBytes: 32767, IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", BooleanType: true, JSONType: true,
				CurrentSchema: "APP", SessionUser: "APP"},
			notSent: []string{qBoolean, qJSON, qLongID, qExtStr, qVector},
		},
		{
			// go-ora takes its VARCHAR limit from a capability bit, not
			// from MAX_STRING_SIZE: when it sends the 4001-byte probe as
			// a LONG bind, the select list refuses it (risk 7).
			name: "EXTENDED, but the driver binds only 4000 bytes as VARCHAR",
			rules: []rule{
				on(qServer, row("APP", "APP", "19.0.0.0.0", "AL32UTF8", "AL16UTF16")),
				on(qProduct, row("Oracle Database 19c Enterprise Edition", "19.21.0.0.0")),
				rows(qParams, 2, "compatible", "19.0.0", "max_string_size", "EXTENDED"),
				fails(qBind, ora(997, "ORA-00997: illegal use of LONG datatype")),
			},
			want: ServerInfo{Version: "19.21.0.0.0", Major: 19, Edition: "Enterprise Edition", Compatible: "19.0.0",
				MaxStringSize: "EXTENDED", StringBindBytes: 4000, IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16",
				CurrentSchema: "APP", SessionUser: "APP"},
			warnings: []string{"a 4001-byte string bind failed with ORA-00997"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeServer{rules: tt.rules}
			got, err := Probe(context.Background(), s.conn(t))
			if err != nil {
				t.Fatal(err)
			}
			warnings := got.Warnings
			got.Warnings = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if len(warnings) != len(tt.warnings) {
				t.Errorf("warnings %q, want %d", warnings, len(tt.warnings))
			}
			for i := range tt.warnings {
				if i < len(warnings) && !strings.Contains(warnings[i], tt.warnings[i]) {
					t.Errorf("warning %q lacks %q", warnings[i], tt.warnings[i])
				}
			}
			for _, q := range tt.notSent {
				if n := s.sentContaining(q); n > 0 {
					t.Errorf("%s was sent %d times", q, n)
				}
			}
		})
	}
}

func TestProbeUnexpectedCode(t *testing.T) {
	s := &fakeServer{rules: []rule{
		on(qServer, row("APP", "APP", "23.0.0.0.0", "AL32UTF8", "AL16UTF16")),
		on(qProduct, row("Oracle Database 23ai Free", "23.4")),
		fails(qParams, notReadable), fails(qDCL, notReadable),
		on(qLongID, row(int64(1))), on(qExtStr, row(nil)), on(qJSON, row("{}")),
		fails(qBoolean, ora(1031, "ORA-01031: insufficient privileges")),
	}}
	got, err := Probe(context.Background(), s.conn(t))
	if err != nil {
		t.Fatal(err)
	}
	if got.BooleanType || !strings.Contains(strings.Join(got.Warnings, "|"), "probe for the BOOLEAN type failed with ORA-01031") {
		t.Errorf("BooleanType %v, warnings %q", got.BooleanType, got.Warnings)
	}
}

// A session that fails (not a server error) ends the probe with an error.
func TestProbeSessionFailure(t *testing.T) {
	broken := errors.New("write tcp: broken pipe")
	for _, failing := range []string{qServer, qProduct, qParams, qLongID} {
		s := &fakeServer{rules: []rule{
			fails(failing, broken),
			on(qServer, row("APP", "APP", "19.0.0.0.0", "AL32UTF8", "AL16UTF16")),
			on(qProduct, row("Oracle Database 19c Enterprise Edition", "19.3.0.0.0")),
			fails(qParams, notReadable), fails(qDCL, notReadable),
		}}
		_, err := Probe(context.Background(), s.conn(t))
		if !errors.Is(err, broken) {
			t.Errorf("failing %s: err = %v", failing, err)
		}
	}
}

func TestVersionHelpers(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want []int
		ok   bool
	}{
		{"12.2.0", []int{12, 2}, true}, {"12.1.0.2", []int{12, 2}, false}, {"19.0.0", []int{12, 2}, true},
		{"20.0.0", []int{20}, true}, {"19.0.0", []int{20}, false}, {"23.0.0", []int{23}, true}, {"", []int{20}, false},
	} {
		if got := versionAtLeast(tt.v, tt.want...); got != tt.ok {
			t.Errorf("versionAtLeast(%q, %v) = %v", tt.v, tt.want, got)
		}
	}
	for product, want := range map[string]string{
		"Oracle Database 19c Enterprise Edition ": "Enterprise Edition", "Oracle Database 23ai Free": "Free",
		"Oracle AI Database 26ai Enterprise Edition": "Enterprise Edition", "": "", "Oracle": "",
	} {
		if got := edition(product); got != want {
			t.Errorf("edition(%q) = %q, want %q", product, got, want)
		}
	}
}

// Server facts shaped like the three CI databases and an old one.
var (
	server19 = ServerInfo{Version: "19.21.0.0.0", Major: 19, Edition: "Enterprise Edition", Compatible: "19.0.0", MaxStringSize: "STANDARD",
		IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", CurrentSchema: "LOADER", SessionUser: "LOADER"}
	server21 = ServerInfo{Version: "21.3.0.0.0", Major: 21, Compatible: "21.0.0", MaxStringSize: "EXTENDED",
		IdentifierMaxBytes: 128, DBCharset: "WE8MSWIN1252", NCharset: "AL16UTF16", JSONType: true, CurrentSchema: "APP", SessionUser: "APP"}
	bind4000 = func() ServerInfo { s := server21; s.StringBindBytes = 4000; return s }()
	server23 = ServerInfo{Version: "23.5.0.24.07", Major: 23, Compatible: "23.0.0", MaxStringSize: "STANDARD",
		IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", BooleanType: true, JSONType: true, CurrentSchema: "APP", SessionUser: "APP"}
	server23Wide = func() ServerInfo { s := server23; s.MaxColumns, s.VectorType = "EXTENDED", true; return s }()
	server12     = ServerInfo{Version: "12.2.0.1.0", Major: 12, Compatible: "12.1.0", MaxStringSize: "STANDARD",
		IdentifierMaxBytes: 30, DBCharset: "UTF8", NCharset: "AL16UTF16", CurrentSchema: "OLD", SessionUser: "OLD"}
)

func autoConfig() *config.Config {
	return &config.Config{IdentifierMaxBytes: "auto", VarcharMaxBytes: "auto", BooleanType: "auto", JSONType: "auto",
		NationalCharacters: "auto", IdentifierCase: "upper"}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		server   ServerInfo
		edit     func(*config.Config)
		want     Facts
		problems []string
	}{
		{"19c auto", server19, nil, Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, DefaultSchema: "LOADER"}, nil},
		{"21c auto: JSON, 32K strings, national for a single-byte charset", server21, nil,
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 32767, JSONNative: true, National: true, DefaultSchema: "APP"}, nil},
		{"23ai auto", server23, nil,
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, BooleanNative: true, JSONNative: true, DefaultSchema: "APP"}, nil},
		{"23ai with 19c-like settings", server23, func(c *config.Config) {
			c.BooleanType, c.JSONType, c.VarcharMaxBytes = "number", "clob", "4000"
		}, Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, DefaultSchema: "APP"}, nil},
		{"12.2 with COMPATIBLE 12.1: 30-byte names, schema cut to fit", server12, func(c *config.Config) {
			c.DefaultTargetSchema = "analytics-warehouse_staging_area_2024"
		}, Facts{IdentifierMaxBytes: 30, VarcharMaxBytes: 4000, DefaultSchema: "ANALYTICS_WAREHOUSE_S_b0bbab0b"}, nil},
		{"explicit settings the server cannot honour are problems", server19, func(c *config.Config) {
			c.BooleanType, c.JSONType, c.VarcharMaxBytes, c.IdentifierMaxBytes = "boolean", "json", "32767", "128"
		}, Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 32767, BooleanNative: true, JSONNative: true, DefaultSchema: "LOADER"},
			[]string{"varchar_max_bytes is 32767 but MAX_STRING_SIZE is STANDARD", "boolean_type is boolean but the server has no BOOLEAN", "json_type is json"}},
		{"identifier limit above the server's", server12, func(c *config.Config) { c.IdentifierMaxBytes = "128" },
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, DefaultSchema: "OLD"}, []string{"identifier_max_bytes is 128 but the server allows 30"}},
		{"EXTENDED but go-ora binds 4000 bytes: 4000", bind4000, nil,
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, JSONNative: true, National: true, DefaultSchema: "APP"}, nil},
		{"EXTENDED but go-ora binds 4000 bytes: 32767 is a problem", bind4000, func(c *config.Config) { c.VarcharMaxBytes = "32767" },
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 32767, JSONNative: true, National: true, DefaultSchema: "APP"},
			[]string{"the driver binds at most 4000 bytes as VARCHAR"}},
		{"national always/never, preserved schema case", server21, func(c *config.Config) {
			c.NationalCharacters, c.IdentifierCase, c.DefaultTargetSchema = "never", "preserve", "Stage"
		}, Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 32767, JSONNative: true, DefaultSchema: "Stage"}, nil},
		{"23ai with MAX_COLUMNS=EXTENDED and VECTOR: 4096 columns, vectors", server23Wide, nil,
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, BooleanNative: true, JSONNative: true, MaxColumns: 4096, VectorNative: true, DefaultSchema: "APP"}, nil},
		{"23ai with MAX_COLUMNS=EXTENDED, max_columns 1000", server23Wide, func(c *config.Config) { c.MaxColumns = "1000" },
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, BooleanNative: true, JSONNative: true, VectorNative: true, DefaultSchema: "APP"}, nil},
		{"max_columns 4096 without EXTENDED is a problem", server19, func(c *config.Config) { c.MaxColumns = "4096" },
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, MaxColumns: 4096, DefaultSchema: "LOADER"},
			[]string{"max_columns is 4096 but MAX_COLUMNS is unknown (1000 columns per table"}},
		{"empty settings mean auto", server23, func(c *config.Config) { *c = config.Config{NationalCharacters: "always"} },
			Facts{IdentifierMaxBytes: 128, VarcharMaxBytes: 4000, BooleanNative: true, JSONNative: true, National: true, DefaultSchema: "APP"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := autoConfig()
			if tt.edit != nil {
				tt.edit(cfg)
			}
			got := tt.server.Resolve(cfg)
			if got.Server.Version != tt.server.Version {
				t.Error("Facts.Server is not the server")
			}
			problems := got.Problems
			got.Server, got.Problems, tt.want.Problems = ServerInfo{}, nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if len(problems) != len(tt.problems) {
				t.Fatalf("problems %q, want %q", problems, tt.problems)
			}
			for i, p := range tt.problems {
				if !strings.Contains(problems[i], p) {
					t.Errorf("problem %q lacks %q", problems[i], p)
				}
			}
		})
	}
}
