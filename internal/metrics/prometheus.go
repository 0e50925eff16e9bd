package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// latencyBuckets are the upper bounds (seconds) of the batch load latency
// histogram.
var latencyBuckets = []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

type histogram struct {
	counts []uint64 // per bucket, not cumulative
	sum    float64
	n      uint64
}

func (h *histogram) observe(v float64) {
	if h.counts == nil {
		h.counts = make([]uint64, len(latencyBuckets))
	}
	for i, b := range latencyBuckets {
		if v <= b {
			h.counts[i]++
			break
		}
	}
	h.sum += v
	h.n++
}

// WritePrometheus writes every metric in the Prometheus text exposition
// format (version 0.0.4).
func (r *Registry) WritePrometheus(w io.Writer, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	family := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	perStream := func(name, help string, v func(*Stream) int64) {
		family(name, "counter", help)
		for _, s := range r.names() {
			fmt.Fprintf(&b, "%s{stream=%s} %d\n", name, quoteLabel(s), v(r.streams[s]))
		}
	}
	perStream("target_oracle_records_read_total", "Records read from the input.", func(s *Stream) int64 { return s.Read })
	perStream("target_oracle_records_loaded_total", "Records written by committed batches.", func(s *Stream) int64 { return s.Written })
	perStream("target_oracle_records_skipped_total", "Records skipped by on_invalid_record: skip.", func(s *Stream) int64 { return s.Skipped })
	perStream("target_oracle_records_rejected_total", "Records written to reject_path.", func(s *Stream) int64 { return s.Rejected })
	perStream("target_oracle_batches_total", "Batches committed.", func(s *Stream) int64 { return s.Batches })
	perStream("target_oracle_batches_failed_total", "Batches that did not commit.", func(s *Stream) int64 { return s.Failed })

	family("target_oracle_batch_load_seconds", "histogram", "Time to load and commit one batch.")
	for _, s := range r.names() {
		h := r.latency[s]
		if h == nil {
			continue
		}
		var cum uint64
		for i, ub := range latencyBuckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "target_oracle_batch_load_seconds_bucket{stream=%s,le=%q} %d\n", quoteLabel(s), strconv.FormatFloat(ub, 'g', -1, 64), cum)
		}
		fmt.Fprintf(&b, "target_oracle_batch_load_seconds_bucket{stream=%s,le=\"+Inf\"} %d\n", quoteLabel(s), h.n)
		fmt.Fprintf(&b, "target_oracle_batch_load_seconds_sum{stream=%s} %s\n", quoteLabel(s), strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(&b, "target_oracle_batch_load_seconds_count{stream=%s} %d\n", quoteLabel(s), h.n)
	}

	family("target_oracle_buffered_bytes", "gauge", "Input bytes of records not yet committed.")
	fmt.Fprintf(&b, "target_oracle_buffered_bytes %d\n", r.buffered)
	family("target_oracle_last_state_age_seconds", "gauge", "Seconds since the last STATE line was written (-1: none yet).")
	age := -1.0
	if !r.lastState.IsZero() {
		age = now.Sub(r.lastState).Seconds()
	}
	fmt.Fprintf(&b, "target_oracle_last_state_age_seconds %s\n", strconv.FormatFloat(age, 'f', 3, 64))
	family("target_oracle_last_flush_ok", "gauge", "1 when the last batch committed (or none ran yet), else 0.")
	ok := 0
	if r.lastFlush.IsZero() || r.lastFlushOK {
		ok = 1
	}
	fmt.Fprintf(&b, "target_oracle_last_flush_ok %d\n", ok)
	_, err := io.WriteString(w, b.String())
	return err
}

// quoteLabel quotes a label value as the text format wants: backslash,
// double quote and newline escaped.
func quoteLabel(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// Server serves /healthz and /metrics for http_listen_address.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Serve starts serving on addr (host:port; port 0 picks one) in the
// background.
func Serve(addr string, r *Registry) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("http_listen_address %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !r.Healthy() {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"alive":true,"last_flush_ok":false}`+"\n")
			return
		}
		io.WriteString(w, `{"alive":true,"last_flush_ok":true}`+"\n")
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		r.WritePrometheus(w, time.Now())
	})
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, ln: ln}
	go s.srv.Serve(ln)
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
