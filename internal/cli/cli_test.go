package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const example = `{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"amount":{"type":["null","number"],"multipleOf":0.01},"at":{"type":["null","string"],"format":"date-time"}}}}
{"type":"RECORD","stream":"orders","record":{"id":1,"amount":12.34,"at":"2024-01-01T05:30:00+05:30"}}
{"type":"STATE","value":{"bookmarks":{"orders":1}}}
{"type":"RECORD","stream":"orders","record":{"id":2,"amount":123456789012345678901234567890.12,"at":null}}
{"type":"STATE","value":{"bookmarks":{"orders":2}}}
`

// runMain runs the command in-process and returns stdout, stderr and the
// exit code.
func runMain(t *testing.T, stdin string, env []string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb strings.Builder
	code := Main(args, IO{Stdin: strings.NewReader(stdin), State: &out, Stderr: &errb, Env: env, Dir: t.TempDir()})
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDryRunDump(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump")
	out, errs, code := runMain(t, example, []string{"TARGET_ORACLE_TEST_NOW=2025-01-02T03:04:05Z"}, "--dry-run", "--dry-run-dump", dump)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "{\"bookmarks\":{\"orders\":2}}\n"; out != want && !strings.HasSuffix(out, want) {
		t.Fatalf("stdout %q, want it to end with %q", out, want)
	}
	rows, err := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.ORDERS.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ID":1,"AMOUNT":12.34,"AT":"2024-01-01T00:00:00Z","_SDC_EXTRACTED_AT":null,"_SDC_RECEIVED_AT":"2025-01-02T03:04:05Z","_SDC_BATCHED_AT":"2025-01-02T03:04:05Z","_SDC_LOADED_AT":"2025-01-02T03:04:05Z","_SDC_DELETED_AT":null,"_SDC_SEQUENCE":1735787045000000000,"_SDC_TABLE_VERSION":null,"_SDC_SYNC_STARTED_AT":"2025-01-02T03:04:05Z"}
{"ID":2,"AMOUNT":123456789012345678901234567890.12,"AT":null,"_SDC_EXTRACTED_AT":null,"_SDC_RECEIVED_AT":"2025-01-02T03:04:05Z","_SDC_BATCHED_AT":"2025-01-02T03:04:05Z","_SDC_LOADED_AT":"2025-01-02T03:04:05Z","_SDC_DELETED_AT":null,"_SDC_SEQUENCE":1735787045000000001,"_SDC_TABLE_VERSION":null,"_SDC_SYNC_STARTED_AT":"2025-01-02T03:04:05Z"}
`
	if string(rows) != want {
		t.Errorf("rows:\n%s\nwant:\n%s", rows, want)
	}
	var tables map[string]struct {
		Columns []struct {
			Name, Type string
			Nullable   bool
		}
		PrimaryKey []string `json:"primary_key"`
	}
	b, err := os.ReadFile(filepath.Join(dump, "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tables); err != nil {
		t.Fatal(err)
	}
	tb := tables["DRY_RUN.ORDERS"]
	if len(tb.PrimaryKey) != 1 || tb.PrimaryKey[0] != "ID" || tb.Columns[0].Type != "NUMBER(38,0)" || tb.Columns[0].Nullable {
		t.Errorf("tables.json: %+v", tb)
	}
}

func TestExitCodes(t *testing.T) {
	cfgBadType := writeFile(t, "c.json", `{"batch_size_rows": "many"}`)
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // in stderr
	}{
		{"unknown flag", "", []string{"--bogus"}, ExitConfig, "bogus"},
		{"bad setting", "", []string{"--dry-run", "--config", cfgBadType}, ExitConfig, "batch_size_rows"},
		{"missing config file", "", []string{"--dry-run", "--config", "/nonexistent/c.json"}, ExitConfig, "nonexistent"},
		{"record before schema", `{"type":"RECORD","stream":"s","record":{"a":1}}` + "\n", []string{"--dry-run"}, ExitInput, "line 1"},
		{"malformed json", "{\"type\":\"STATE\",\n", []string{"--dry-run"}, ExitInput, "line 1"},
		{"invalid record", example + `{"type":"RECORD","stream":"orders","record":{"id":3,"amount":12.345}}` + "\n", []string{"--dry-run"}, ExitInput,
			`line 6: stream "orders": property "amount": 12.345 is not a multiple of 0.01`},
		{"no database listening", "", []string{"--config", writeFile(t, "u.json", `{"user":"u","password":"p","host":"127.0.0.1","port":1,"service_name":"s"}`)}, ExitFailed, "connect"},
		{"plan needs a database", "", []string{"--plan", "--config", writeFile(t, "p.json", `{"user":"u","password":"p","host":"127.0.0.1","port":1,"service_name":"s"}`)}, ExitFailed, "connect"},
		{"ok", example, []string{"--dry-run"}, ExitOK, "summary"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runMain(t, c.stdin, nil, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
			}
			if !strings.Contains(errs, c.want) {
				t.Fatalf("stderr lacks %q:\n%s", c.want, errs)
			}
		})
	}
}

// A bad record after the second state: the run stops with exit 3 after
// committing what came before, and that state is the last one written.
func TestInvalidRecordCommitsWhatCameBefore(t *testing.T) {
	in := example + `{"type":"RECORD","stream":"orders","record":{"id":"x"}}` + "\n" +
		`{"type":"RECORD","stream":"orders","record":{"id":4}}` + "\n" +
		`{"type":"STATE","value":{"bookmarks":{"orders":4}}}` + "\n"
	dump := filepath.Join(t.TempDir(), "dump")
	out, errs, code := runMain(t, in, nil, "--dry-run", "--dry-run-dump", dump)
	if code != ExitInput {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasSuffix(out, "{\"bookmarks\":{\"orders\":2}}\n") || strings.Contains(out, `"orders":4`) {
		t.Fatalf("states: %q", out)
	}
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.ORDERS.jsonl"))
	if n := strings.Count(string(rows), "\n"); n != 2 {
		t.Fatalf("%d rows loaded, want 2:\n%s", n, rows)
	}
}

func TestAbout(t *testing.T) {
	out, _, code := runMain(t, "", nil, "--about", "--format", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var about struct {
		Name         string
		Version      string
		Capabilities []string
		Settings     struct {
			Properties map[string]map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &about); err != nil {
		t.Fatalf("--about --format json is not JSON: %v\n%s", err, out)
	}
	if about.Name != "target-oracle" || len(about.Capabilities) == 0 {
		t.Fatalf("about: %+v", about)
	}
	pw := about.Settings.Properties["password"]
	if pw == nil || pw["secret"] != true {
		t.Fatalf("password setting not marked secret: %v", pw)
	}
	for _, f := range []string{"text", "markdown"} {
		out, _, code := runMain(t, "", nil, "--about", "--format", f)
		if code != 0 || !strings.Contains(out, "batch_size_rows") {
			t.Errorf("--about --format %s: exit %d\n%s", f, code, out)
		}
	}
	out, _, _ = runMain(t, "", nil, "--version")
	if !strings.HasPrefix(out, "target-oracle ") {
		t.Errorf("--version: %q", out)
	}
}

func TestSecretsNeverPrinted(t *testing.T) {
	const pw = "S3cr3t-Pa55word!"
	cfg := writeFile(t, "c.json", `{"user":"scott","password":"`+pw+`","dsn":"oracle://scott:`+pw+`@db:1521/svc","batch_size_rows":"bad"}`)
	_, errs, _ := runMain(t, example, nil, "--dry-run", "--config", cfg)
	if strings.Contains(errs, pw) {
		t.Fatalf("password printed:\n%s", errs)
	}
	summary := filepath.Join(t.TempDir(), "summary.json")
	cfg = writeFile(t, "c2.json", `{"user":"scott","password":"`+pw+`","log_level":"debug","summary_path":"`+summary+`"}`)
	dump := filepath.Join(t.TempDir(), "dump")
	out, errs, _ := runMain(t, example, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if strings.Contains(errs+out, pw) {
		t.Fatalf("password printed:\n%s", errs)
	}
	files := []string{summary, filepath.Join(dump, "statements.sql"), filepath.Join(dump, "tables.json")}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || strings.Contains(string(b), pw) {
			t.Fatalf("%s: %v, or it holds the password", f, err)
		}
	}
	if fi, err := os.Stat(summary); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("summary file readable by others: %v %v", fi.Mode(), err)
	}
}

// --check against a port where nothing listens fails with exit 1, names
// the address and never the password.
func TestCheckUnreachable(t *testing.T) {
	const pw = "Ch3ck-Pa55!"
	cfg := writeFile(t, "c.json", `{"host":"127.0.0.1","port":1,"service_name":"FREEPDB1","user":"loader","password":"`+pw+`","connect_timeout_seconds":2}`)
	out, errs, code := runMain(t, "", nil, "--check", "--config", cfg)
	if code != ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", code, ExitFailed, errs)
	}
	if !strings.Contains(errs, "127.0.0.1:1") || strings.Contains(out+errs, pw) {
		t.Fatalf("stderr:\n%s", errs)
	}
	_, errs, code = runMain(t, "", nil, "--check")
	if code != ExitConfig || !strings.Contains(errs, "user") {
		t.Fatalf("--check without settings: exit %d\n%s", code, errs)
	}
}

// --dry-run-dump replaces only what an earlier dump wrote: it refuses a
// directory holding other files, a file, or the working directory.
func TestDumpDirIsNeverSomeoneElses(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "keep.txt")
	os.WriteFile(precious, []byte("p"), 0o600)
	for _, d := range []string{dir, precious, ".", filepath.Join(dir, "sub", "..")} {
		_, errs, code := runMain(t, example, nil, "--dry-run", "--dry-run-dump", d)
		if code != ExitConfig || !strings.Contains(errs, "--dry-run-dump") {
			t.Errorf("--dry-run-dump %s: exit %d\n%s", d, code, errs)
		}
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("a file outside the dump was deleted: %v", err)
	}
	// An earlier dump is replaced.
	dump := filepath.Join(dir, "dump")
	for i := 0; i < 2; i++ {
		if _, errs, code := runMain(t, example, nil, "--dry-run", "--dry-run-dump", dump); code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i, code, errs)
		}
	}
}

// thirtyByteInput has a stream and a property whose derived names (the
// primary key, the IS JSON and 0/1 checks, migration columns) overflow 30
// bytes unless they are cut and hashed.
const thirtyByteInput = `{"type":"SCHEMA","stream":"tap_mysql_test-test_table_four","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a_rather_long_property_name_here":{"type":["null","integer"]},"flag_with_a_long_enough_name_x":{"type":["null","boolean"]}}}}
{"type":"RECORD","stream":"tap_mysql_test-test_table_four","record":{"id":1,"a_rather_long_property_name_here":5,"flag_with_a_long_enough_name_x":true}}
{"type":"SCHEMA","stream":"tap_mysql_test-test_table_four","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a_rather_long_property_name_here":{"type":["null","string"]},"flag_with_a_long_enough_name_x":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"tap_mysql_test-test_table_four","record":{"id":2,"a_rather_long_property_name_here":"x","flag_with_a_long_enough_name_x":"y"}}
{"type":"SCHEMA","stream":"logical1-logical1_edgydata","key_properties":["cid"],"schema":{"type":"object","properties":{"cid":{"type":"integer"},"cjsonb":{"type":["null","object"]}}}}
{"type":"RECORD","stream":"logical1-logical1_edgydata","record":{"cid":1,"cjsonb":{"a":1}}}
`

// TestDerivedNamesFitThirtyBytes: with identifier_max_bytes 30, every
// identifier in the dump's statements fits 30 bytes (SPEC §5.1), derived
// names included: the renderer takes the limit from the setting, as the
// table model does.
func TestDerivedNamesFitThirtyBytes(t *testing.T) {
	cfg := writeFile(t, "c.json", `{"identifier_max_bytes": "30"}`)
	dump := filepath.Join(t.TempDir(), "dump")
	if _, errs, code := runMain(t, thirtyByteInput, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if err != nil {
		t.Fatal(err)
	}
	literals := regexp.MustCompile(`'(?:[^']|'')*'`)
	sql := literals.ReplaceAllString(string(b), "''") // comments hold property paths
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(sql, -1) {
		if len(m[1]) > 30 && !seen[m[1]] {
			seen[m[1]] = true
			t.Errorf("identifier %q is %d bytes, over 30", m[1], len(m[1]))
		}
	}
	for _, want := range []string{`CONSTRAINT "TAP_MYSQL_TEST_TEST_T_68d1bde2" PRIMARY KEY ("ID")`, `"LOGICAL1_LOGICAL1_EDGYDATA_PK"`, `CHECK ("CJSONB" IS JSON)`} {
		if !strings.Contains(sql, want) {
			t.Errorf("statements lack %s", want)
		}
	}
}

// TestSummarySkippedAndRejected: records skipped by on_invalid_record are
// counted as skipped, those written to reject_path as rejected.
func TestSummarySkippedAndRejected(t *testing.T) {
	input := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":"x"}}
{"type":"RECORD","stream":"s","record":{"id":2}}
{"type":"STATE","value":{"a":1}}
`
	for _, policy := range []string{"skip", "reject"} {
		t.Run(policy, func(t *testing.T) {
			dir := t.TempDir()
			summary := filepath.Join(dir, "summary.json")
			cfg := writeFile(t, "c.json", `{"on_invalid_record":"`+policy+`","reject_path":"`+filepath.Join(dir, "rej.jsonl")+`","summary_path":"`+summary+`"}`)
			_, errs, code := runMain(t, input, nil, "--dry-run", "--config", cfg)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			b, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			var sum struct {
				Streams map[string]struct {
					Skipped  int64 `json:"records_skipped"`
					Rejected int64 `json:"records_rejected"`
					Written  int64 `json:"records_written"`
				} `json:"streams"`
			}
			if err := json.Unmarshal(b, &sum); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			got := sum.Streams["s"]
			want := got
			want.Skipped, want.Rejected, want.Written = 0, 0, 1
			if policy == "skip" {
				want.Skipped = 1
			} else {
				want.Rejected = 1
			}
			if got != want {
				t.Errorf("summary %s: got %+v, want %+v", b, got, want)
			}
		})
	}
}
