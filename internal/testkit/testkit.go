// Package testkit holds the test helpers that several packages' tests share
// word for word: a Config from JSON settings, the facts of the usual fake
// server, a report written in both formats, a wire peer closed and checked
// at the end of the test. Only tests import it.
package testkit

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// Config builds a Config from JSON settings over the defaults, as
// --config FILE does; "" is the defaults alone.
func Config(t testing.TB, settings string) *config.Config {
	t.Helper()
	var args []string
	if settings != "" {
		p := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(p, []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: args})
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// Server19 is what the connect-time probes report of the fake Oracle the
// one-shot tests use: a 19c database in AL32UTF8 with MAX_STRING_SIZE
// STANDARD, schema the current schema and session user.
func Server19(schema string) connect.ServerInfo {
	return connect.ServerInfo{Version: "19.3.0.0.0", Major: 19, Compatible: "19.0.0", MaxStringSize: "STANDARD",
		IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", CurrentSchema: schema, SessionUser: schema}
}

// Reports writes a report (the Write method of a verify or benchmark
// report) as text and as JSON, failing the test on an error.
func Reports(t testing.TB, write func(w io.Writer, format string) error) (text string, json []byte) {
	t.Helper()
	var tb, jb bytes.Buffer
	if err := write(&tb, "text"); err != nil {
		t.Fatalf("text report: %v", err)
	}
	if err := write(&jb, "json"); err != nil {
		t.Fatalf("json report: %v", err)
	}
	return tb.String(), jb.Bytes()
}

// Peer starts a wire peer with facts; at the end of the test it is closed
// and any protocol error it saw fails the test.
func Peer(t testing.TB, facts wirepeer.Facts) *wirepeer.Peer {
	t.Helper()
	p, err := wirepeer.Start(facts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("wire peer: %v", err)
		}
	})
	return p
}

// SyncBuffer collects bytes written from several goroutines (a run's log
// while its signal or timer goroutines write too).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Len is the number of bytes written so far.
func (s *SyncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}
