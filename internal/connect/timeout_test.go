package connect

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oracle"
)

// silentListener accepts connections on 127.0.0.1 and never answers: it
// reads whatever the client sends until the client closes. It stands for a
// firewall that lets TCP through to a dead listener, or a stuck server.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go io.Copy(io.Discard, c)
		}
	}()
	return ln.Addr().String()
}

// within runs f and fails the test when it has not returned after limit
// (a hang), without waiting for it.
func within(t *testing.T, limit time.Duration, f func() error) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(limit):
		t.Fatalf("still connecting after %s: the connect timeout did not bound the handshake", limit)
		return 0, nil
	}
}

// The connect timeout bounds the whole attempt (TCP, TLS, TNS, login), on
// Open and on every later dial of the pool, which the engine makes with a
// context that has no deadline; the error says it timed out and names the
// address.
func TestConnectTimeoutBoundsTheHandshake(t *testing.T) {
	addr := silentListener(t)
	host, port, _ := net.SplitHostPort(addr)
	tests := []struct {
		name string
		edit func(c *config.Config)
	}{
		{"tcp, settings", func(c *config.Config) { c.Host, c.Port, c.ServiceName = host, atoi(port), "FREEPDB1" }},
		{"tcps, settings: TLS handshake", func(c *config.Config) {
			c.Host, c.Port, c.ServiceName, c.Protocol = host, atoi(port), "FREEPDB1", "tcps"
		}},
		{"tcps descriptor", func(c *config.Config) {
			c.DSN = config.Secret(fmt.Sprintf("(DESCRIPTION=(ADDRESS=(PROTOCOL=TCPS)(HOST=%s)(PORT=%s))(CONNECT_DATA=(SERVICE_NAME=svc)))", host, port))
		}},
	}
	for _, tt := range tests {
		for _, how := range []string{"Open", "redial without deadline", "engine dial"} {
			t.Run(tt.name+", "+how, func(t *testing.T) {
				cfg := baseConfig()
				cfg.ConnectTimeoutSeconds = 1
				tt.edit(cfg)
				took, err := within(t, 20*time.Second, func() error {
					if how == "Open" {
						ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
						defer cancel()
						db, err := Open(ctx, cfg)
						if err == nil {
							db.Close()
						}
						return err
					}
					c, err := Connector(cfg)
					if err != nil {
						return err
					}
					if how == "engine dial" { // how the Oracle engine opens a session, with the run's context
						db := sql.OpenDB(c)
						defer db.Close()
						conn, err := oracle.DialDB(db)(context.Background())
						if err == nil {
							conn.Close()
						}
						return err
					}
					conn, err := c.Connect(context.Background())
					if err == nil {
						conn.Close()
					}
					return err
				})
				if err == nil {
					t.Fatal("connected to a listener that never answers")
				}
				if took > 10*time.Second {
					t.Errorf("took %s with connect_timeout_seconds 1", took)
				}
				for _, want := range []string{"timed out after 1s", addr} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q lacks %q", err, want)
					}
				}
				// A connection failure, retried like one: a net.Error that
				// timed out, not the caller's context ending.
				var ne net.Error
				if !errors.As(err, &ne) || !ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("error %q is not a net.Error timeout (or claims the caller's deadline)", err)
				}
			})
		}
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// A slow attempt says so once, naming the address, before it times out.
func TestSlowConnectLogsOnce(t *testing.T) {
	addr := silentListener(t)
	host, port, _ := net.SplitHostPort(addr)
	var buf syncBuffer
	cfg := baseConfig()
	cfg.Host, cfg.Port, cfg.ServiceName, cfg.ConnectTimeoutSeconds = host, atoi(port), "FREEPDB1", 2
	c, err := ConnectorLog(cfg, slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	c.(*connector).timing.slow = 200 * time.Millisecond // the threshold is 5 s; the test need not wait that long
	_, err = within(t, 20*time.Second, func() error {
		_, err := c.Connect(context.Background())
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "timed out after 2s") {
		t.Fatalf("err = %v", err)
	}
	if n := strings.Count(buf.String(), "still connecting to Oracle at "+addr+"/FREEPDB1 after 200ms ("+addr+")"); n != 1 {
		t.Errorf("%d slow-connection warnings, want 1:\n%s", n, buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the timer goroutine that logs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// refusingListener answers every connect packet with a TNS REFUSE packet
// carrying ERR=code, as a listener does for an unknown SID or service.
func refusingListener(t *testing.T, code int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	t.Cleanup(func() { ln.Close() })
	msg := fmt.Sprintf("(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=%d)(ERROR_STACK=(ERROR=(CODE=%d)(EMFI=4))))", code, code)
	pkt := make([]byte, 12, 12+len(msg))
	binary.BigEndian.PutUint16(pkt[0:], uint16(12+len(msg)))
	pkt[4] = 4 // REFUSE
	binary.BigEndian.PutUint16(pkt[10:], uint16(len(msg)))
	pkt = append(pkt, msg...)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				buf := make([]byte, 8192)
				if _, err := c.Read(buf); err == nil {
					c.Write(pkt)
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// ORA-12505 and ORA-12514 come from a SID given as a service name or the
// other way round: the error says which setting is which.
func TestListenerRefusalExplainsSIDAndService(t *testing.T) {
	tests := []struct {
		code      int
		edit      func(c *config.Config)
		want, ora string
	}{
		{12505, func(c *config.Config) { c.SID = "FREEPDB1" }, "sid (and its alias database) names a SID; a service name", "ORA-12505"},
		{12514, func(c *config.Config) { c.ServiceName = "ORCL" }, "the listener knows no such service: check service_name", "ORA-12514"},
	}
	for _, tt := range tests {
		addr := refusingListener(t, tt.code)
		host, port, _ := net.SplitHostPort(addr)
		cfg := baseConfig()
		cfg.Host, cfg.Port, cfg.ConnectTimeoutSeconds = host, atoi(port), 5
		tt.edit(cfg)
		_, err := within(t, 20*time.Second, func() error {
			db, err := Open(context.Background(), cfg)
			if err == nil {
				db.Close()
			}
			return err
		})
		if err == nil || Code(err) != tt.code {
			t.Fatalf("ORA-%05d: err = %v (code %d)", tt.code, err, Code(err))
		}
		for _, w := range []string{tt.want, tt.ora} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
	}
}
