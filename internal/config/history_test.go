package config

import (
	"strings"
	"testing"
)

func TestHistorySettings(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"user":"u","load_method":"history","history_valid_from":"updated_at"}`)
	if c.LoadMethod != MethodHistory || c.HistoryValidFrom != "updated_at" {
		t.Errorf("load_method = %q, history_valid_from = %q", c.LoadMethod, c.HistoryValidFrom)
	}
	c, _ = mustLoad(t, nil, `{"user":"u","stream_overrides":{"dim-*":{"load_method":"history"}}}`)
	if got := c.ForStream("dim-customers").LoadMethod; got != MethodHistory {
		t.Errorf("override load_method = %q, want history", got)
	}
}

// truncate_before_load empties tables; a history table is never emptied
// (SPEC §6.2): the pair is a configuration error, also through an
// override.
func TestHistoryConflicts(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"global", `{"user":"u","load_method":"history","truncate_before_load":true}`,
			"truncate_before_load true conflicts with load_method (from "},
		{"override", `{"user":"u","truncate_before_load":true,"stream_overrides":{"dim":{"load_method":"history"}}}`,
			`truncate_before_load true conflicts with stream_overrides "dim" load_method history`},
		{"reject", `{"user":"u","on_database_error":"reject","stream_overrides":{"dim":{"load_method":"history"}}}`,
			`on_database_error reject is not supported with stream_overrides "dim" load_method history yet`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := loadJSON(t, nil, tc.doc)
			if err == nil {
				t.Fatal("Load succeeded, want a configuration error")
			}
			msg := configError(t, err, "")
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not contain %q", msg, tc.want)
			}
		})
	}
}
