package config

import (
	"slices"
	"strings"
	"testing"
)

// sdc_mode is flext's own setting (SPEC §3): it combines with load_method
// only when load_method is absent or a flext value; a target-oracle
// load_method decides alone.
func TestSDCMode(t *testing.T) {
	cases := []struct {
		name      string
		env       []string
		docs      []string
		want      string
		effective string // substring of the one effective line about load_method; "" = none
		warning   string // substring of a warning; "" = no warning
	}{
		{name: "flext's pair upserts", docs: []string{`{"load_method":"INSERT","sdc_mode":"merge"}`}, want: "upsert",
			effective: `load_method = "upsert" (given as load_method = "INSERT" in `},
		{name: "nested under TargetOracle", docs: []string{`{"TargetOracle":{"load_method":"insert","sdc_mode":"MERGE","oracle_service_name":"x","storage_mode":"hybrid","default_target_schema":"S"}}`},
			want: "upsert", effective: `sdc_mode = "MERGE" in `},
		{name: "both insert", docs: []string{`{"load_method":"BULK_INSERT","sdc_mode":"insert"}`}, want: "append-only",
			effective: `load_method = "append-only"`},
		{name: "merge load method wins over insert", docs: []string{`{"load_method":"Bulk_Merge","sdc_mode":"append"}`}, want: "upsert",
			effective: `load_method = "upsert"`},
		{name: "sdc_mode alone", docs: []string{`{"sdc_mode":"merge"}`}, want: "upsert", effective: `given as sdc_mode = "merge" in `},
		{name: "sdc_mode insert alone", docs: []string{`{"sdc_mode":"insert"}`}, want: "append-only", effective: `load_method = "append-only"`},
		{name: "across sources", docs: []string{`{"load_method":"INSERT"}`}, env: []string{"TARGET_ORACLE_SDC_MODE=merge"}, want: "upsert",
			effective: `and TARGET_ORACLE_SDC_MODE = "merge" in environment`},
		{name: "canonical load method decides", docs: []string{`{"load_method":"append-only","sdc_mode":"merge"}`}, want: "append-only",
			warning: `sdc_mode = "merge" is ignored: load_method = "append-only"`},
		{name: "canonical from the environment", docs: []string{`{"sdc_mode":"merge"}`}, env: []string{"TARGET_ORACLE_LOAD_METHOD=append-only"},
			want: "append-only", warning: `sdc_mode = "merge" is ignored`},
		{name: "canonical and agreeing", docs: []string{`{"load_method":"upsert","sdc_mode":"merge"}`}, want: "upsert"},
		{name: "append is not a flext value", docs: []string{`{"load_method":"append","sdc_mode":"merge"}`}, want: "append-only",
			effective: `load_method = "append-only" (given as load_method = "append"`, warning: `sdc_mode = "merge" is ignored`},
		{name: "overwrite", docs: []string{`{"load_method":"overwrite","sdc_mode":"insert"}`}, want: "overwrite", warning: `is ignored`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, r := mustLoad(t, tc.env, tc.docs...)
			if c.LoadMethod != tc.want {
				t.Errorf("load_method = %q, want %q", c.LoadMethod, tc.want)
			}
			var lines []string
			for _, e := range r.Effective {
				if strings.HasPrefix(e, "load_method = ") {
					lines = append(lines, e)
				}
			}
			switch {
			case tc.effective == "" && len(lines) != 0:
				t.Errorf("effective lines %q, want none", lines)
			case tc.effective != "" && (len(lines) != 1 || !strings.Contains(lines[0], tc.effective)):
				t.Errorf("effective lines %q, want one containing %q", lines, tc.effective)
			}
			ws := withoutFlextNotice(r.Warnings)
			switch {
			case tc.warning == "" && len(ws) != 0:
				t.Errorf("warnings %q, want none", ws)
			case tc.warning != "" && (len(ws) != 1 || !strings.Contains(ws[0], tc.warning)):
				t.Errorf("warnings %q, want one containing %q", ws, tc.warning)
			}
		})
	}
}

func TestSDCModeWrongValue(t *testing.T) {
	_, _, err := loadJSON(t, nil, `{"sdc_mode":"upsert"}`)
	if msg := configError(t, err, "sdc_mode"); !strings.Contains(msg, `expected one of "insert", "append", "merge", got "upsert"`) {
		t.Errorf("error %q", msg)
	}
}

// A config written for flext-target-oracle draws one warning naming the
// flext defaults it relies on and what target-oracle does instead.
func TestFlextDefaults(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		docs []string
		want []string // substrings of the one notice; nil = no notice
	}{
		{name: "TargetOracle block", docs: []string{`{"TargetOracle":{"host":"h","user":"u"}}`},
			want: []string{"(a TargetOracle block in ", `storage_mode: flext "flattened"`, `here "hybrid"`,
				`load_method: flext "INSERT" (append), here "upsert"`, `default_target_schema: flext "SINGER_DATA", here the user's own schema`,
				`service_name: flext "XEPDB1"`}},
		{name: "oracle_ names", docs: []string{`{"oracle_host":"h","oracle_service_name":"S","storage_mode":"flattened"}`},
			want: []string{"(oracle_host in ", "load_method", "default_target_schema"}},
		{name: "every default given", docs: []string{`{"TargetOracle":{"oracle_host":"h","oracle_service_name":"S","storage_mode":"flattened",` +
			`"load_method":"INSERT","default_target_schema":"SINGER_DATA"}}`}},
		{name: "sdc_mode says the method", docs: []string{`{"TargetOracle":{"oracle_service_name":"S","sdc_mode":"merge","flattening_enabled":true,"schema":"X"}}`}},
		{name: "environment", env: []string{"TARGET_ORACLE_ORACLE_HOST=h", "TARGET_ORACLE_ORACLE_SERVICE_NAME=s"},
			want: []string{"(TARGET_ORACLE_ORACLE_HOST in environment)", "storage_mode", "load_method", "default_target_schema"}},
		{name: "several sources, one notice", docs: []string{`{"TargetOracle":{"oracle_host":"h"}}`, `{"oracle_port":1522}`},
			env: []string{"TARGET_ORACLE_ORACLE_USER=u"}, want: []string{"a TargetOracle block"}},
		{name: "not flext-shaped", docs: []string{`{"host":"h","service_name":"s"}`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r := mustLoad(t, tc.env, tc.docs...)
			var notices []string
			for _, w := range r.Warnings {
				if strings.HasPrefix(w, flextNotice) {
					notices = append(notices, w)
				}
			}
			if tc.want == nil {
				if len(notices) != 0 {
					t.Errorf("notices %q, want none", notices)
				}
				return
			}
			if len(notices) != 1 {
				t.Fatalf("notices %q, want one", notices)
			}
			for _, w := range tc.want {
				if !strings.Contains(notices[0], w) {
					t.Errorf("notice %q does not say %q", notices[0], w)
				}
			}
		})
	}
	// Only what the config relies on is named.
	_, r := mustLoad(t, nil, `{"oracle_host":"h","oracle_service_name":"S","storage_mode":"flattened","load_method":"INSERT"}`)
	if i := slices.IndexFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, flextNotice) }); i < 0 ||
		strings.Contains(r.Warnings[i], "storage_mode") || strings.Contains(r.Warnings[i], "load_method") {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// Meltano's own variables (TARGET_ORACLE__*, for the plugin's extras) are
// not settings: no warning, no effect.
func TestMeltanoVariablesAreNotSettings(t *testing.T) {
	c, r, err := Load(Sources{Environ: []string{"TARGET_ORACLE__LOAD_METHOD=overwrite", "TARGET_ORACLE__SELECT_FILTER=[]",
		"TARGET_ORACLE__METADATA={}", "TARGET_ORACLE_HOST=h"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings for Meltano's variables: %q", r.Warnings)
	}
	if c.LoadMethod != "upsert" || c.Host != "h" {
		t.Errorf("load_method %q, host %q", c.LoadMethod, c.Host)
	}
	// A single underscore is still a setting (or an unknown one).
	_, r, _ = Load(Sources{Environ: []string{"TARGET_ORACLE_SELECT_FILTER=[]"}})
	if len(r.Warnings) != 1 {
		t.Errorf("warnings %q, want one about TARGET_ORACLE_SELECT_FILTER", r.Warnings)
	}
}
