package cli

import (
	"strings"
	"testing"
)

// TARGET_ORACLE_TEST_FAULT fails the K-th call of its kind: the run fails
// (exit 1) and writes no state covering the failed load; a state fault
// keeps the line off stdout. The kill actions are exercised by the
// simulation's subprocess trials (internal/sim).
func TestFaultEnv(t *testing.T) {
	for _, tc := range []struct {
		spec      string
		code      int
		out, errs string
	}{
		{spec: "load:1:fail", code: ExitFailed, out: "", errs: "injected fault"},
		{spec: "load:2:fail", code: ExitFailed, out: "{\"bookmarks\":{\"orders\":1}}\n", errs: "injected fault"},
		{spec: "state:2:fail", code: ExitFailed, out: "{\"bookmarks\":{\"orders\":1}}\n", errs: "injected fault"},
		{spec: "ddl:1:fail", code: ExitFailed, out: "", errs: "injected fault"},
		{spec: "load:9:fail", code: ExitOK, out: "{\"bookmarks\":{\"orders\":1}}\n{\"bookmarks\":{\"orders\":2}}\n"},
		{spec: "load:0:fail", code: ExitConfig, errs: "K must be a positive integer"},
		{spec: "merge:1:fail", code: ExitConfig, errs: "KIND must be ddl, load, truncate or state"},
		{spec: "load:1", code: ExitConfig, errs: "is not KIND:K:ACTION"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			cfg := writeFile(t, "c.json", `{"batch_size_rows": 1, "max_parallelism": 1}`)
			out, errs, code := runMain(t, example, []string{FaultEnv + "=" + tc.spec}, "--dry-run", "--config", cfg)
			if code != tc.code || out != tc.out || !strings.Contains(errs, tc.errs) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q", code, out, errs, tc.code, tc.out, tc.errs)
			}
		})
	}
}
