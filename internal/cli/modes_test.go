package cli

import (
	"strings"
	"testing"
)

// TestReportModesExcludeLoads: --about and --check answer on stdout and
// read no input; combined with a load mode, the other one-shot mode or
// --input, the command line is wrong (SPEC §2: exit 2, nothing on
// stdout), instead of silently doing one of the two. --about --config stays
// allowed: the Singer SDK accepts it and Meltano may pass it.
func TestReportModesExcludeLoads(t *testing.T) {
	in := writeFile(t, "in.singer", example)
	cfg := writeFile(t, "c.json", `{"user":"u","password":"p","host":"127.0.0.1","port":1,"service_name":"s"}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--about", "--check"}, "--about excludes --check, --dry-run, --plan and --input"},
		{[]string{"--about", "--dry-run"}, "--about excludes"},
		{[]string{"--about", "--plan"}, "--about excludes"},
		{[]string{"--about", "--input", in}, "--about excludes"},
		{[]string{"--about", "--dry-run", "--dry-run-dump", t.TempDir() + "/d"}, "--about excludes"},
		{[]string{"--check", "--config", cfg, "--input", in}, "--check reads no input"},
	} {
		out, errs, code := runMain(t, "", nil, tc.args...)
		if code != ExitConfig || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %.80q, stderr %q; want exit 2, no stdout, %q", tc.args, code, out, errs, tc.want)
		}
	}
	out, errs, code := runMain(t, "", nil, "--about", "--config", cfg, "--format", "json")
	if code != ExitOK || !strings.HasPrefix(out, "{") {
		t.Errorf("--about --config: exit %d, stdout %.80q, stderr %q", code, out, errs)
	}
}

// TestConfigurationErrorsSayItOnce: a settings error is reported as
// "target-oracle: configuration: <where>: <setting>: …", not with a second
// "config:" word from the error's own text.
func TestConfigurationErrorsSayItOnce(t *testing.T) {
	bad := writeFile(t, "c.json", `{"batch_size_rows": 0}`)
	noUser := writeFile(t, "n.json", `{"host":"h","service_name":"s"}`)
	keyIgnored := writeFile(t, "k.json", `{"ignored_columns":["id"]}`)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"--dry-run", "--config", bad}, "target-oracle: configuration: " + bad + ": batch_size_rows: expected an integer"},
		{"", []string{"--config", noUser}, "target-oracle: configuration: missing settings needed to connect: user"},
		{example, []string{"--dry-run", "--config", keyIgnored}, "target-oracle: configuration: ignored_columns: "},
	} {
		_, errs, code := runMain(t, tc.stdin, nil, tc.args...)
		if code != ExitConfig || !strings.Contains(errs, tc.want) || strings.Contains(errs, "configuration: config") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q, without \"configuration: config\"", tc.args, code, errs, tc.want)
		}
	}
}
