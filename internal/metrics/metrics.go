// Package metrics counts what a run does and reports it: Singer METRIC
// lines and progress lines on stderr, and the final summary (a short table
// on stderr, JSON at summary_path). With log_format json the progress
// lines and the summary are JSON log records instead; METRIC lines keep
// their Singer form in both formats, because orchestrators find them by
// their "METRIC: " prefix. It is safe for concurrent use.
package metrics

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/private"
)

// Registry holds the run's counters.
type Registry struct {
	mu          sync.Mutex
	out         io.Writer // stderr
	start       time.Time
	end         time.Time
	streams     map[string]*Stream
	lastEmit    map[string]int64 // record_count already reported per stream
	lastTick    time.Time
	lastRead    int64
	interval    time.Duration
	lastFlushOK bool
	lastFlush   time.Time
	lastState   time.Time
	stopped     bool   // a signal's drain ended the run (Stopped)
	cut         bool   // ... before every record read was loaded (StoppedShort)
	held        string // a stream holding states until end of input, and why (HoldStates)
	buffered    int64
	latency     map[string]*histogram
	output      Output
	json        *slog.Logger // set when out2.JSON
}

// Output says how the registry writes to stderr.
type Output struct {
	// JSON writes progress lines and the summary as JSON log records
	// (log_format json) rather than text.
	JSON bool
	// BatchTimers writes a METRIC timer line for every committed batch
	// (log_level debug): a million records make a hundred of them, which
	// bury the counters at the default level. A failed batch's timer is
	// always written: each one is news.
	BatchTimers bool
}

// SetOutput chooses the format of what the registry writes. Call it before
// the run starts.
func (r *Registry) SetOutput(o Output) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.output, r.json = o, nil
	if o.JSON {
		// Its own handler, with no level: progress and the summary are
		// written whatever log_level is, as in the text format.
		r.json = slog.New(slog.NewJSONHandler(r.out, nil))
	}
}

// Stream is one stream's counters.
type Stream struct {
	Read      int64   `json:"records_read"`
	Written   int64   `json:"records_written"`
	Inserted  *int64  `json:"records_inserted"` // nil when the engine cannot tell
	Updated   *int64  `json:"records_updated"`
	Deleted   int64   `json:"records_deleted"`
	Skipped   int64   `json:"records_skipped"`  // on_invalid_record: skip
	Rejected  int64   `json:"records_rejected"` // written to reject_path
	Batches   int64   `json:"batches"`
	LoadTime  float64 `json:"load_seconds"`
	Failed    int64   `json:"batches_failed"`
	unknownIU bool
}

// New returns a registry writing METRIC lines to out every interval.
func New(out io.Writer, interval time.Duration, now time.Time) *Registry {
	return &Registry{out: out, start: now, lastTick: now, interval: interval,
		streams: map[string]*Stream{}, lastEmit: map[string]int64{}, latency: map[string]*histogram{}}
}

func (r *Registry) stream(name string) *Stream {
	s := r.streams[name]
	if s == nil {
		s = &Stream{}
		r.streams[name] = s
	}
	return s
}

// Handle returns stream's counters, for AddReads: a caller reporting
// many streams at once looks each up once per run, not once per report.
func (r *Registry) Handle(stream string) *Stream {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stream(stream)
}

// AddReads counts ns[i] records read for the stream of handles[i], under
// one lock.
func (r *Registry) AddReads(handles []*Stream, ns []int64) {
	r.mu.Lock()
	for i, h := range handles {
		h.Read += ns[i]
	}
	r.mu.Unlock()
}

// Skipped counts one record skipped by policy (on_invalid_record: skip).
func (r *Registry) Skipped(stream string) {
	r.mu.Lock()
	r.stream(stream).Skipped++
	r.mu.Unlock()
}

// Rejected counts one record written to reject_path.
func (r *Registry) Rejected(stream string) {
	r.mu.Lock()
	r.stream(stream).Rejected++
	r.mu.Unlock()
}

// Loaded counts one committed batch.
func (r *Registry) Loaded(stream string, written, inserted, updated, deleted int64, known bool, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stream(stream)
	s.Batches++
	s.Written += written
	s.Deleted += deleted
	s.LoadTime += d.Seconds()
	r.observe(stream, d)
	if !known {
		s.unknownIU = true
	} else if !s.unknownIU {
		if s.Inserted == nil {
			s.Inserted, s.Updated = new(int64), new(int64)
		}
		*s.Inserted += inserted
		*s.Updated += updated
	}
	if s.unknownIU {
		s.Inserted, s.Updated = nil, nil
	}
	r.lastFlushOK, r.lastFlush = true, time.Now()
	if !r.output.BatchTimers {
		return
	}
	r.metric("timer", "batch_load_seconds", d.Seconds(), map[string]any{"stream": stream, "status": "succeeded", "rows": written})
}

// FailedBatch counts one batch that did not commit.
func (r *Registry) FailedBatch(stream string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stream(stream).Failed++
	r.observe(stream, d)
	r.lastFlushOK, r.lastFlush = false, time.Now()
	r.metric("timer", "batch_load_seconds", d.Seconds(), map[string]any{"stream": stream, "status": "failed"})
}

func (r *Registry) observe(stream string, d time.Duration) {
	h := r.latency[stream]
	if h == nil {
		h = &histogram{}
		r.latency[stream] = h
	}
	h.observe(d.Seconds())
}

// StateWritten notes that a STATE line was written.
func (r *Registry) StateWritten(now time.Time) {
	r.mu.Lock()
	r.lastState = now
	r.mu.Unlock()
}

// Tick writes METRIC and progress lines when the interval has passed.
func (r *Registry) Tick(now time.Time, buffered int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buffered = buffered
	if r.interval <= 0 || now.Sub(r.lastTick) < r.interval {
		return
	}
	r.emit(now, buffered)
}

func (r *Registry) emit(now time.Time, buffered int64) {
	var total int64
	type rate struct {
		name   string
		perSec float64
	}
	var rates []rate
	secs := now.Sub(r.lastTick).Seconds()
	for _, name := range r.names() {
		s := r.streams[name]
		total += s.Read
		delta := s.Read - r.lastEmit[name]
		r.lastEmit[name] = s.Read
		if delta == 0 {
			continue // idle streams: no METRIC line, nothing in the progress line
		}
		r.metric("counter", "record_count", delta, map[string]any{"stream": name})
		if secs > 0 {
			rates = append(rates, rate{name, float64(delta) / secs})
		}
	}
	// The progress line names the busiest streams only, so that it stays
	// one readable line with thousands of streams.
	sort.Slice(rates, func(i, j int) bool { return rates[i].perSec > rates[j].perSec })
	if r.json != nil {
		busiest := make([]any, 0, 5)
		for i, rt := range rates {
			if i == 5 {
				break
			}
			busiest = append(busiest, map[string]any{"stream": rt.name, "records_per_second": math.Round(rt.perSec)})
		}
		attrs := []any{"records_read", total, "streams", busiest, "more_streams", max(len(rates)-5, 0), "buffered_bytes", buffered}
		if !r.lastState.IsZero() {
			attrs = append(attrs, "last_state_age_seconds", now.Sub(r.lastState).Round(time.Second).Seconds())
		}
		if r.held != "" {
			attrs = append(attrs, "states_held_until_end_of_input", r.held)
		}
		r.json.Info("progress", attrs...)
		r.lastTick, r.lastRead = now, total
		return
	}
	parts := make([]string, 0, 6)
	for i, rt := range rates {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("%d more streams", len(rates)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f rec/s", printable(rt.name), rt.perSec))
	}
	if len(parts) == 0 {
		parts = append(parts, "idle")
	}
	stateAge := "no state written yet"
	if !r.lastState.IsZero() {
		stateAge = "last state " + now.Sub(r.lastState).Round(time.Second).String() + " ago"
	}
	fmt.Fprintf(r.out, "progress: %d records read; %s; buffered %d bytes; %s%s\n",
		total, strings.Join(parts, ", "), buffered, stateAge, r.heldText())
	r.lastTick, r.lastRead = now, total
}

func (r *Registry) names() []string {
	names := make([]string, 0, len(r.streams))
	for n := range r.streams {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Summary is the final report of a run.
type Summary struct {
	Streams       map[string]*Stream `json:"streams"`
	Records       int64              `json:"records_read"`
	Seconds       float64            `json:"seconds"`
	RecordsPerSec float64            `json:"records_per_second"`
	Status        string             `json:"status"`
	Error         string             `json:"error,omitempty"`
}

// Stopped marks the run as ended by a signal whose drain succeeded: the
// summary says so instead of "failed".
func (r *Registry) Stopped() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
}

// StoppedShort marks the run as ended by a signal whose drain
// shutdown_timeout_seconds cut short: records read were never loaded
// (their state not written), which the summary must not call drained.
func (r *Registry) StoppedShort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped, r.cut = true, true
}

// Finish writes the last METRIC lines and the summary table to stderr and
// returns the summary.
func (r *Registry) Finish(now time.Time, err error) Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.end = now
	r.emit(now, 0)
	sum := Summary{Streams: r.streams, Seconds: now.Sub(r.start).Seconds(), Status: "succeeded"}
	switch {
	case err != nil && r.stopped && r.cut:
		sum.Status = "stopped by signal, cut short by shutdown_timeout_seconds: records read were not loaded"
	case err != nil && r.stopped:
		// A signal's drain: what was read is committed and its state
		// written; the input was not read to its end.
		sum.Status = "stopped by signal, drained"
	case err != nil:
		sum.Status, sum.Error = "failed", err.Error()
	}
	for _, s := range r.streams {
		sum.Records += s.Read
	}
	if sum.Seconds > 0 {
		sum.RecordsPerSec = float64(sum.Records) / sum.Seconds
	}
	if r.json != nil {
		r.jsonSummary(sum)
		return sum
	}
	fmt.Fprintf(r.out, "summary: %s; ran %.2fs, %d records (%.0f records/s)\n", sum.Status, sum.Seconds, sum.Records, sum.RecordsPerSec)
	fmt.Fprintf(r.out, "  %-30s %10s %10s %10s %10s %10s %10s %10s %8s\n", "stream", "read", "written", "inserted", "updated", "deleted", "skipped", "rejected", "batches")
	for _, name := range r.names() {
		s := r.streams[name]
		fmt.Fprintf(r.out, "  %-30s %10d %10d %10s %10s %10s %10d %10d %8d\n", printable(name), s.Read, s.Written,
			optional(s.Inserted), optional(s.Updated), fmt.Sprint(s.Deleted), s.Skipped, s.Rejected, s.Batches)
	}
	return sum
}

// jsonSummary writes the summary as log records: one for the run, then one
// per stream, so that a run with thousands of streams stays a stream of
// short records.
func (r *Registry) jsonSummary(sum Summary) {
	attrs := []any{"status", sum.Status, "seconds", sum.Seconds, "records_read", sum.Records,
		"records_per_second", math.Round(sum.RecordsPerSec), "streams", len(sum.Streams)}
	if sum.Error != "" {
		attrs = append(attrs, "error", sum.Error)
	}
	r.json.Info("summary", attrs...)
	for _, name := range r.names() {
		s := r.streams[name]
		r.json.Info("summary stream", "stream", name, "records_read", s.Read, "records_written", s.Written,
			"records_inserted", s.Inserted, "records_updated", s.Updated, "records_deleted", s.Deleted,
			"records_skipped", s.Skipped, "records_rejected", s.Rejected, "batches", s.Batches, "batches_failed", s.Failed)
	}
}

// SummaryFile is summary_path, opened when the run starts so that a path
// that cannot be written fails the run before it loads anything rather
// than after (the run would end with exit 1 having loaded everything).
type SummaryFile struct{ f *os.File }

// OpenSummary opens path for the summary, readable by its owner only, and
// empties it, so that a summary left by an earlier run is never read as
// this run's. A symlink at path is refused rather than followed, so that
// the summary cannot be redirected onto another file, and an existing
// file is narrowed to 0600.
func OpenSummary(path string) (*SummaryFile, error) {
	f, err := private.OpenFile(path, os.O_TRUNC)
	if err != nil {
		return nil, fmt.Errorf("summary_path: %w", err)
	}
	return &SummaryFile{f: f}, nil
}

// Write writes s as JSON and closes the file.
func (sf *SummaryFile) Write(s Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err == nil {
		_, err = sf.f.Write(append(b, '\n'))
	}
	if cerr := sf.f.Close(); err == nil {
		err = cerr
	}
	sf.f = nil
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

// Close closes the file if Write has not; a run that ends before its
// summary (it could not connect, say) leaves the file empty. Nil-safe.
func (sf *SummaryFile) Close() {
	if sf != nil && sf.f != nil {
		sf.f.Close()
		sf.f = nil
	}
}

// Healthy reports whether the last flush succeeded (true before any).
func (r *Registry) Healthy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastFlush.IsZero() || r.lastFlushOK
}

// printable renders tap-controlled text (stream names) for the
// human-readable progress and summary lines. A name with a control or
// non-printable rune, or invalid UTF-8, is Go-quoted: raw, a newline could
// forge a METRIC line that orchestrators parse from stderr, and ESC or CR
// could rewrite the terminal. Plain names stay as they are so the table
// stays readable.
func printable(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f || !unicode.IsPrint(c) {
			return strconv.Quote(s)
		}
	}
	return s
}

func optional(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprint(*v)
}

// metric writes one Singer METRIC line, keys in the order Singer writes
// them.
func (r *Registry) metric(typ, name string, value any, tags map[string]any) {
	fmt.Fprintf(r.out, "METRIC: %s\n", mustJSON(struct {
		Type   string         `json:"type"`
		Metric string         `json:"metric"`
		Value  any            `json:"value"`
		Tags   map[string]any `json:"tags"`
	}{typ, name, value, tags}))
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return string(b)
}
