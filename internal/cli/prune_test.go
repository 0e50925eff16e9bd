package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDeleteMissingExitCodes: two dry runs share a test store (each run
// draws its own run id); the second sends one of three rows, so the prune
// would take two thirds of the table: exit 1 naming the counts, nothing
// pruned, no state. With a larger fraction the same run prunes and writes
// its state, and the summary counts the rows as deleted. Set by name on a
// keyless stream, delete_missing is exit 2.
func TestDeleteMissingExitCodes(t *testing.T) {
	const schema = `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}` + "\n"
	rec := func(id string) string { return `{"type":"RECORD","stream":"users","record":{"id":` + id + `}}` + "\n" }
	state := func(n string) string { return `{"type":"STATE","value":{"n":` + n + `}}` + "\n" }
	env := []string{StoreEnv + "=" + filepath.Join(t.TempDir(), "store.json"), "TARGET_ORACLE_DELETE_MISSING=hard"}

	if out, errs, code := runMain(t, schema+rec("1")+rec("2")+rec("3")+state("1"), env, "--dry-run"); code != ExitOK || out != `{"n":1}`+"\n" {
		t.Fatalf("first run: exit %d, states %q:\n%s", code, out, errs)
	}
	out, errs, code := runMain(t, schema+rec("1")+state("2"), env, "--dry-run")
	if code != ExitFailed || out != "" {
		t.Fatalf("second run: exit %d, states %q, want exit 1 and none:\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "2 of its 3 rows") || !strings.Contains(errs, "delete_missing_max_fraction 0.5") {
		t.Errorf("stderr does not name the counts:\n%s", errs)
	}
	out, errs, code = runMain(t, schema+rec("1")+state("2"), append(env, "TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION=0.7"), "--dry-run")
	if code != ExitOK || out != `{"n":2}`+"\n" {
		t.Fatalf("third run: exit %d, states %q:\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "rows=2") {
		t.Errorf("stderr does not log the 2 pruned rows:\n%s", errs)
	}

	keyless := `{"type":"SCHEMA","stream":"logs","key_properties":[],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}` + "\n"
	cfg := writeFile(t, "c.json", `{"stream_overrides":{"logs":{"delete_missing":"soft"}}}`)
	if _, errs, code := runMain(t, keyless, nil, "--dry-run", "--config", cfg); code != ExitConfig || !strings.Contains(errs, "no key_properties") {
		t.Errorf("by name on a keyless stream: exit %d, want 2:\n%s", code, errs)
	}
}
