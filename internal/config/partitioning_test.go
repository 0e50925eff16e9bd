package config

import (
	"strings"
	"testing"
)

func TestPartitioningSetting(t *testing.T) {
	for _, tt := range []struct {
		env  []string
		doc  string
		want Partitioning
		err  string
	}{
		{doc: `{}`, want: Partitioning{}},
		{doc: `{"partitioning":"none"}`, want: Partitioning{}},
		{doc: `{"partitioning":"NONE"}`, want: Partitioning{}},
		{doc: `{"partitioning":{"column":"created_at","interval":"Month"}}`, want: Partitioning{Column: "created_at", Interval: "month"}},
		{env: []string{`TARGET_ORACLE_PARTITIONING={"column":"_sdc_received_at","interval":"day"}`}, doc: `{}`, want: Partitioning{Column: "_sdc_received_at", Interval: "day"}},
		{doc: `{"partitioning":{"column":"a","interval":"week"}}`, err: `interval: expected "day", "month" or "year"`},
		{doc: `{"partitioning":{"interval":"day"}}`, err: "column: required"},
		{doc: `{"partitioning":{"column":"a","interval":"day","range":1}}`, err: `unknown key "range"`},
		{doc: `{"partitioning":"monthly"}`, err: `or "none"`},
		{doc: `{"compression":"basic"}`, err: `expected one of "none", "advanced"`},
	} {
		c, _, err := loadJSON(t, tt.env, tt.doc)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %v: error %v, want %q", tt.doc, tt.env, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s %v: %v", tt.doc, tt.env, err)
		case c.Partitioning != tt.want:
			t.Errorf("%s %v: %+v, want %+v", tt.doc, tt.env, c.Partitioning, tt.want)
		}
	}
	c, _ := mustLoad(t, nil, `{"compression":"advanced","stream_overrides":{"logs-*":{"partitioning":{"column":"ts","interval":"day"},"compression":"archive_high"}}}`)
	if s := c.ForStream("logs-a"); s.Partitioning != (Partitioning{Column: "ts", Interval: "day"}) || s.Compression != "archive_high" {
		t.Errorf("override: %+v", s)
	}
	if s := c.ForStream("orders"); !s.Partitioning.None() || s.Compression != "advanced" {
		t.Errorf("global: %+v", s)
	}
}
