package benchmark

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Write prints the report: a table for a person, or one JSON object (the
// workflow keeps it as an artifact).
func (r *Report) Write(w io.Writer, format string) error {
	if format == "json" {
		out := struct {
			OK bool `json:"ok"`
			*Report
		}{r.OK(), r}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	s := r.Server
	fmt.Fprintf(&b, "target-oracle --benchmark: Oracle %s %s, COMPATIBLE %s, MAX_STRING_SIZE %s, charsets %s/%s, schema %s\n",
		or(s.Version), s.Edition, or(s.Compatible), or(s.MaxStringSize), or(s.DBCharset), or(s.NCharset), or(s.Schema))
	fmt.Fprintf(&b, "batch_size_rows %d, at most %d rows per array execute, max_parallelism %d; VARCHAR2 up to %d bytes, BOOLEAN native %v, JSON native %v\n",
		r.BatchSizeRows, r.RowsPerExecute, r.MaxParallelism, s.VarcharMaxBytes, s.BooleanNative, s.JSONNative)
	fmt.Fprintf(&b, "volume: %d rows, about %.1f MB of RECORD lines; quota: %s\n", r.VolumeRows, float64(r.VolumeBytes)/1e6, or(r.Quota))
	if !r.CheckOK {
		b.WriteString("FAIL  --check: loading cannot work; nothing was created. Missing privileges: " + strings.Join(r.Missing, ", ") + "\n")
		for _, f := range r.Fixes {
			b.WriteString("      " + f + "\n")
		}
	}
	if len(r.Figures) > 0 {
		fmt.Fprintf(&b, "%-10s %7s %9s %8s %9s %10s %7s %8s %11s %9s %6s\n", "case", "streams", "rows", "MB", "seconds", "rows/s", "MB/s", "batches", "round trips", "per batch", "setup")
	}
	for _, f := range r.Figures {
		fmt.Fprintf(&b, "%-10s %7d %9d %8.1f %9.2f %10.0f %7.2f %8d %11d %9.1f %6d\n", f.Case, f.Streams, f.Rows, float64(f.Bytes)/1e6,
			f.Seconds, f.RowsPerSecond, f.MBPerSecond, f.Batches, f.RoundTrips, f.RoundTripsPerBatch, f.SetupRoundTrips)
		if f.Error != "" {
			b.WriteString("FAIL  " + f.Case + ": " + f.Error + "\n")
		}
	}
	for _, e := range r.Errors {
		b.WriteString("FAIL  " + e + "\n")
	}
	if r.Stopped {
		b.WriteString("stopped by a signal before every case ran\n")
	}
	fmt.Fprintf(&b, "scratch tables dropped: %d of %d\n", len(r.Dropped), len(r.Tables))
	_, err := io.WriteString(w, b.String())
	return err
}

func or(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
