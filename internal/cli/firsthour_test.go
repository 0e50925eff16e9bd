package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

// The text --about carries what the markdown one does: each setting's
// description and default (issue 19).
func TestAboutTextHasDescriptionsAndDefaults(t *testing.T) {
	out, errs, code := runMain(t, "", nil, "--about")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range config.Settings() {
		block := out[strings.Index(out, "  - Name: "+s.Name+"\n"):]
		if next := strings.Index(block[1:], "  - Name: "); next >= 0 {
			block = block[:next+1]
		}
		if !strings.Contains(block, "    Description: "+s.Description+"\n") {
			t.Errorf("%s: no description in\n%s", s.Name, block)
		}
		if s.Default != nil && !strings.Contains(block, "    Default: ") {
			t.Errorf("%s: no default in\n%s", s.Name, block)
		}
	}
	if !strings.Contains(out, "  - Name: batch_size_rows\n") || !strings.Contains(out, "    Default: 10000\n") {
		t.Errorf("batch_size_rows default missing:\n%s", out)
	}
}

// With log_format json every stderr line is a JSON log record (progress
// and summary included), except Singer METRIC lines, which keep their
// Singer form: "METRIC: " and a JSON object.
func TestJSONLogFormatEveryLine(t *testing.T) {
	bad := example + `{"type":"RECORD","stream":"orders","record":{"id":"x"}}` + "\n"
	for _, c := range []struct {
		name, in string
		code     int
	}{{"ok", example, ExitOK}, {"invalid record", bad, ExitInput}} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"TARGET_ORACLE_LOG_FORMAT=json", "TARGET_ORACLE_LOG_LEVEL=debug"}
			_, errs, code := runMain(t, c.in, env, "--dry-run", "--dry-run-dump", t.TempDir()+"/dump")
			if code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, errs)
			}
			msgs := map[string]int{}
			metricLines := 0
			for _, line := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
				var rec map[string]any
				if m, ok := strings.CutPrefix(line, "METRIC: "); ok {
					metricLines++
					if err := json.Unmarshal([]byte(m), &rec); err != nil {
						t.Errorf("METRIC payload is not JSON: %q", line)
					}
					continue
				}
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Errorf("not a JSON record: %q", line)
					continue
				}
				msg, _ := rec["msg"].(string)
				msgs[msg]++
			}
			if metricLines == 0 || msgs["progress"] == 0 || msgs["summary"] != 1 || msgs["summary stream"] != 1 {
				t.Errorf("METRIC lines %d, records by message %v:\n%s", metricLines, msgs, errs)
			}
		})
	}
}

// Per-batch METRIC timer lines are written at log_level debug only; the
// record_count counters are written at every level.
func TestBatchTimersFollowLogLevel(t *testing.T) {
	for _, c := range []struct {
		level  string
		timers bool
	}{{"info", false}, {"warn", false}, {"debug", true}} {
		_, errs, code := runMain(t, example, []string{"TARGET_ORACLE_LOG_LEVEL=" + c.level}, "--dry-run")
		if code != ExitOK {
			t.Fatalf("%s: exit %d:\n%s", c.level, code, errs)
		}
		timers := strings.Contains(errs, `METRIC: {"type":"timer","metric":"batch_load_seconds"`)
		counters := strings.Contains(errs, `METRIC: {"type":"counter","metric":"record_count"`)
		if timers != c.timers || !counters {
			t.Errorf("log_level %s: timer lines %v (want %v), counter lines %v:\n%s", c.level, timers, c.timers, counters, errs)
		}
	}
}

// With log_format json the error that ends a run is a JSON record too,
// whatever failed once the settings are read: a connection refused (a
// load, --check, --verify, --benchmark), settings missing for a
// connection, an input file that does not exist, an unwritable
// summary_path. Nothing reaches stdout; the exit code is the cause's.
func TestJSONLogFormatFailures(t *testing.T) {
	in := writeFile(t, "in.singer", example)
	conn := `"host":"127.0.0.1","port":1,"service_name":"X","user":"u","password":"p","connect_timeout_seconds":2,"log_format":"json"`
	for _, c := range []struct {
		name, cfg string
		args      []string
		code      int
		want      string
	}{
		{"load, connection refused", conn, []string{"--input", in}, ExitFailed, "connection refused"},
		{"--check, connection refused", conn, []string{"--check"}, ExitFailed, "connection refused"},
		{"--verify, connection refused", conn, []string{"--verify"}, ExitFailed, "connection refused"},
		{"--benchmark, connection refused", conn, []string{"--benchmark"}, ExitFailed, "connection refused"},
		{"missing connection settings", `"log_format":"json"`, []string{"--input", in}, ExitConfig, "missing settings needed to connect"},
		{"no input file", `"log_format":"json"`, []string{"--dry-run", "--input", in + ".missing"}, ExitFailed, "no such file"},
		{"unwritable summary", `"log_format":"json","summary_path":"` + in + `/s.json"`, []string{"--dry-run", "--input", in}, ExitFailed, "summary"},
	} {
		cfg := writeFile(t, "c.json", "{"+c.cfg+"}")
		out, errs, code := runMain(t, "", nil, append([]string{"--config", cfg}, c.args...)...)
		if code != c.code || out != "" {
			t.Errorf("%s: exit %d (want %d), stdout %q", c.name, code, c.code, out)
		}
		found := false
		for _, line := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
			if strings.HasPrefix(line, "METRIC: ") {
				continue
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Errorf("%s: not a JSON record: %q", c.name, line)
				continue
			}
			if rec["level"] == "ERROR" && strings.Contains(line, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no ERROR record with %q in\n%s", c.name, c.want, errs)
		}
	}
}

// An unwritable summary_path fails the run before it reads any input:
// found by an attack, it used to fail only at the end, after loading
// everything and writing its STATE lines, with exit 1.
func TestUnwritableSummaryFailsBeforeLoading(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, "c.json", `{"summary_path":"`+dir+`/missing/s.json"}`)
	out, errs, code := runMain(t, example, nil, "--config", cfg, "--dry-run")
	if code != ExitFailed || out != "" {
		t.Fatalf("exit %d (want %d), stdout %q, stderr:\n%s", code, ExitFailed, out, errs)
	}
	if !strings.Contains(errs, "summary_path") || strings.Contains(errs, "CREATE TABLE") {
		t.Errorf("stderr should name summary_path and show nothing loaded:\n%s", errs)
	}
}
