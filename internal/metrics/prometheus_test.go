package metrics

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// parseExposition checks text against the Prometheus text exposition
// format (0.0.4) strictly enough to catch what a scraper would reject —
// HELP/TYPE before samples, one TYPE per family, valid names, label
// syntax, float values, cumulative histogram buckets ending in +Inf —
// and returns the samples by their full series text.
func parseExposition(t *testing.T, text string) map[string]float64 {
	t.Helper()
	sample := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*")*)?\})? (\S+)$`)
	types := map[string]string{}
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "# TYPE ") {
			f := strings.Fields(line)
			if len(f) != 4 {
				t.Fatalf("line %d: bad TYPE: %q", n, line)
			}
			if _, dup := types[f[2]]; dup {
				t.Fatalf("line %d: second TYPE for %s", n, f[2])
			}
			types[f[2]] = f[3]
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		m := sample.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d: not a valid sample: %q", n, line)
		}
		fam := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(m[1], "_bucket"), "_sum"), "_count")
		if types[m[1]] == "" && types[fam] == "" {
			t.Fatalf("line %d: sample before its TYPE: %q", n, line)
		}
		v, err := strconv.ParseFloat(strings.Replace(m[3], "+Inf", "Inf", 1), 64)
		if err != nil {
			t.Fatalf("line %d: bad value %q", n, m[3])
		}
		out[m[1]+m[2]] = v
	}
	return out
}

func TestPrometheusEndpoint(t *testing.T) {
	r := New(io.Discard, 0, time.Now())
	addRead(r, `orders "eu"`, 2)
	r.Loaded(`orders "eu"`, 2, 2, 0, 0, true, 300*time.Millisecond)
	r.Loaded(`orders "eu"`, 1, 1, 0, 0, true, 3*time.Second)
	r.Rejected("b")
	r.buffered = 1234 // as Tick sets it; Tick would also print a progress line
	srv, err := Serve("127.0.0.1:0", r)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(fmt.Sprintf("http://%s%s", srv.Addr(), path))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	s := parseExposition(t, body)
	lbl := `{stream="orders \"eu\""}`
	checks := map[string]float64{
		"target_oracle_records_read_total" + lbl:                                    2,
		"target_oracle_records_loaded_total" + lbl:                                  3,
		"target_oracle_records_rejected_total{stream=\"b\"}":                        1,
		"target_oracle_batches_total" + lbl:                                         2,
		`target_oracle_batch_load_seconds_bucket{stream="orders \"eu\"",le="0.5"}`:  1,
		`target_oracle_batch_load_seconds_bucket{stream="orders \"eu\"",le="5"}`:    2,
		`target_oracle_batch_load_seconds_bucket{stream="orders \"eu\"",le="+Inf"}`: 2,
		"target_oracle_batch_load_seconds_count" + lbl:                              2,
		"target_oracle_buffered_bytes":                                              1234,
		"target_oracle_last_state_age_seconds":                                      -1,
		"target_oracle_last_flush_ok":                                               1,
	}
	for k, want := range checks {
		if got, ok := s[k]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v\n%s", k, got, ok, want, body)
		}
	}
	if code, body := get("/healthz"); code != 200 || !strings.Contains(body, `"last_flush_ok":true`) {
		t.Fatalf("/healthz: %d %s", code, body)
	}
	r.FailedBatch("b", time.Second)
	if code, body := get("/healthz"); code != 503 || !strings.Contains(body, `"last_flush_ok":false`) {
		t.Fatalf("/healthz after a failed flush: %d %s", code, body)
	}
}
