package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"users", "users"},
		{"public-orders.v2", "public-orders.v2"},
		{"café 日本", "café 日本"},
		{"a\nb", `"a\nb"`},
		{"a\rb", `"a\rb"`},
		{"\x1b[31mred", `"\x1b[31mred"`},
		{"del\x7f", `"del\x7f"`},
		{"line\u2028sep", `"line\u2028sep"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestStreamNameCannotForgeLines feeds a stream name carrying a fake METRIC
// line, ANSI escapes and a carriage return through the progress line and
// the summary table: every line of stderr must stay one line of its own
// kind, and no ESC or CR byte may reach the terminal.
func TestStreamNameCannotForgeLines(t *testing.T) {
	evil := "x\nMETRIC: {\"type\":\"counter\",\"metric\":\"record_count\",\"value\":999999,\"tags\":{}}\n\x1b[31mRED\x1b[0m\rsummary: succeeded"
	var out bytes.Buffer
	t0 := time.Unix(0, 0)
	r := New(&out, time.Second, t0)
	addRead(r, evil, 3)
	r.Loaded(evil, 3, 0, 0, 0, false, time.Millisecond)
	r.Tick(t0.Add(2*time.Second), 0)
	addRead(r, evil, 1)
	r.Finish(t0.Add(3*time.Second), nil)

	text := out.String()
	if strings.ContainsAny(text, "\x1b\r") {
		t.Errorf("output contains ESC or CR:\n%q", text)
	}
	var progress, summary, rows int
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "METRIC: "):
			var m struct {
				Value float64        `json:"value"`
				Tags  map[string]any `json:"tags"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "METRIC: ")), &m); err != nil {
				t.Errorf("METRIC line is not JSON: %q", line)
			}
			if m.Value == 999999 || m.Tags["stream"] != evil {
				t.Errorf("forged METRIC line: %q", line)
			}
		case strings.HasPrefix(line, "progress: "):
			progress++
		case strings.HasPrefix(line, "summary: "):
			summary++
		case strings.HasPrefix(line, "  stream "):
		case strings.HasPrefix(line, "  "):
			rows++
			if !strings.Contains(line, `"x\nMETRIC: `) {
				t.Errorf("summary row does not quote the stream name: %q", line)
			}
		default:
			t.Errorf("unexpected line: %q", line)
		}
	}
	if progress != 2 || summary != 1 || rows != 1 {
		t.Errorf("got %d progress, %d summary lines, %d table rows; want 2, 1, 1:\n%s", progress, summary, rows, text)
	}
}

func TestWriteSummaryNarrowsExistingFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "sum.json")
	if err := os.WriteFile(path, []byte("old contents that are longer than the summary will be, and more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := writeSummary(path, Summary{Status: "succeeded"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
	var s Summary
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &s); err != nil || s.Status != "succeeded" {
		t.Errorf("summary file = %q (%v), want the new summary only", b, err)
	}
}

func TestWriteSummaryRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "victim")
	const orig = "do not touch\n"
	if err := os.WriteFile(target, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "sum.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlink: %v", err)
	}
	err := writeSummary(link, Summary{Status: "succeeded"})
	if err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("WriteSummary through a symlink: err = %v, want a symlink refusal", err)
	}
	b, rerr := os.ReadFile(target)
	if rerr != nil || string(b) != orig {
		t.Errorf("link target = %q (%v), want it untouched", b, rerr)
	}
	if fi, _ := os.Stat(target); fi != nil && runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
		t.Errorf("link target mode = %v, want 0644 untouched", fi.Mode().Perm())
	}
}

// addRead counts n records read for stream, as the pipeline does.
func addRead(r *Registry, stream string, n int64) {
	r.AddReads([]*Stream{r.Handle(stream)}, []int64{n})
}

// AddReads through handles counts into each handle's stream, the same
// stream as its name's.
func TestAddReadsThroughHandles(t *testing.T) {
	r := New(io.Discard, time.Hour, time.Unix(0, 0))
	addRead(r, "a", 2)
	h := []*Stream{r.Handle("a"), r.Handle("b")}
	r.AddReads(h, []int64{3, 4})
	r.AddReads(h[1:], []int64{1})
	if a, b := r.Handle("a").Read, r.Handle("b").Read; a != 5 || b != 5 {
		t.Fatalf("read a=%d b=%d, want 5 and 5", a, b)
	}
}

// The text summary's first line gives the status, then the run's time:
// a drained run read "stopped by signal, drained in 12.30s", as if the
// drain had taken the whole run.
func TestSummaryLineSeparatesStatusFromRunTime(t *testing.T) {
	for _, c := range []struct {
		stopped bool
		err     error
		want    string
	}{
		{false, nil, "summary: succeeded; ran 12.30s, 0 records (0 records/s)\n"},
		{true, errors.New("stopped"), "summary: stopped by signal, drained; ran 12.30s, 0 records (0 records/s)\n"},
		{false, errors.New("boom"), "summary: failed; ran 12.30s, 0 records (0 records/s)\n"},
	} {
		var out strings.Builder
		start := time.Unix(1000, 0)
		r := New(&out, time.Hour, start)
		if c.stopped {
			r.Stopped()
		}
		r.Finish(start.Add(12300*time.Millisecond), c.err)
		first, _, _ := strings.Cut(out.String(), "  stream")
		if _, first, _ = strings.Cut(first, "\n"); first != c.want { // after the progress line
			t.Errorf("summary line %q, want %q", first, c.want)
		}
	}
}

// writeSummary opens path and writes s there, as a run does.
func writeSummary(path string, s Summary) error {
	sf, err := OpenSummary(path)
	if err != nil {
		return err
	}
	return sf.Write(s)
}
