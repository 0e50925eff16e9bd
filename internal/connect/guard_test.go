package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
)

func TestGuard(t *testing.T) {
	plain := errors.New("plain")
	cases := []struct {
		name string
		f    func() error
		want string // "" = nil error
	}{
		{"returns nil", func() error { return nil }, ""},
		{"returns an error", func() error { return plain }, "plain"},
		{"panics with a value", func() error { panic("boom") }, "oracle driver failed: boom"},
		{"nil dereference", func() error {
			var p *struct{ n int }
			return fmt.Errorf("%d", p.n)
		}, "oracle driver failed: runtime error: invalid memory address or nil pointer dereference"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := guard(tc.f)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if panicked := strings.HasPrefix(tc.want, "oracle driver"); errors.Is(err, errDriverPanic) != panicked {
				t.Errorf("errors.Is(err, errDriverPanic) = %v", !panicked)
			}
		})
	}
}

func TestGuardedErrorIsRedacted(t *testing.T) {
	err := guard(func() error { panic("bad reply for oracle://u:" + secretPW + "@h") })
	got := newRedactor([]string{secretPW}).wrap("connect", err).Error()
	if strings.Contains(got, "pa ss") || !strings.Contains(got, "oracle driver failed") {
		t.Errorf("error %q: password shown or cause lost", got)
	}
}

// hostileListener answers every connection's first packet with reply and
// returns its address.
func hostileListener(t *testing.T, reply []byte) *net.TCPAddr {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				buf := make([]byte, 65536)
				if _, err := c.Read(buf); err != nil {
					return
				}
				c.Write(reply)
				c.Read(buf) // hold the connection until the client gives up
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr)
}

// go-ora v2.9.0 dereferences nil on an ACCEPT packet of bare header; the
// connection must fail with an error, not crash the process.
func TestOpenSurvivesDriverPanic(t *testing.T) {
	addr := hostileListener(t, []byte{0x00, 0x08, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00})
	for _, form := range []string{"settings", "url"} {
		t.Run(form, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Password, cfg.ConnectTimeoutSeconds = secretPW, 5
			cfg.Host, cfg.Port, cfg.ServiceName = "127.0.0.1", addr.Port, "FREEPDB1"
			if form == "url" {
				cfg.User, cfg.Password = "", ""
				cfg.DSN = config.Secret((&url.URL{Scheme: "oracle", User: url.UserPassword("u", secretPW),
					Host: addr.String(), Path: "/FREEPDB1"}).String())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			db, err := Open(ctx, cfg)
			if err == nil {
				db.Close()
				t.Fatal("connected to a listener that sent a broken ACCEPT")
			}
			msg := err.Error()
			if !strings.Contains(msg, "oracle driver failed") || !strings.Contains(msg, addr.String()) {
				t.Errorf("error %q does not say the driver failed at the address", msg)
			}
			if strings.Contains(msg, "pa ss") || strings.Contains(msg, url.QueryEscape(secretPW)) {
				t.Errorf("error reveals the password: %s", msg)
			}
		})
	}
}

// A panic in go-ora during a query of Probe or Check is an error too; the
// session is discarded, and closing it does not hang.
func TestProbeAndCheckSurviveDriverPanic(t *testing.T) {
	s := &fakeServer{rules: []rule{{fragment: "", panic: "bad packet near " + secretPW}}}
	c := &connector{inner: fakeConnector{s}, red: newRedactor([]string{secretPW}), where: "fake"}
	db := sql.OpenDB(c)
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, probeErr := Probe(ctx, conn)
	if probeErr == nil || !strings.Contains(probeErr.Error(), "oracle session: oracle driver failed: bad packet near") {
		t.Errorf("Probe: err = %v", probeErr)
	}
	closed := make(chan error, 1)
	go func() { closed <- conn.Close() }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("closing the session after the panic hangs")
	}

	cfg := loadConfig()
	_, checkErr := Check(ctx, db, cfg, facts(ServerInfo{SessionUser: "LOADER"}, ""))
	if checkErr == nil || !strings.Contains(checkErr.Error(), "oracle session: oracle driver failed") {
		t.Fatalf("Check: err = %v", checkErr)
	}
	for _, e := range []error{probeErr, checkErr} {
		if strings.Contains(e.Error(), "pa ss") {
			t.Errorf("error reveals the password: %v", e)
		}
	}
	if st := db.Stats(); st.OpenConnections != 0 {
		t.Errorf("%d sessions kept after panics, want them discarded", st.OpenConnections)
	}
}

// Without a panic the guarded session is transparent: answers, server
// errors (ORA- codes) and the session itself are what the driver gives.
func TestGuardedConnForwards(t *testing.T) {
	s := &fakeServer{rules: []rule{
		on(qServer, row("LOADER", "LOADER", "19.0.0.0.0", "AL32UTF8", "AL16UTF16")),
		on(qProduct, row("Oracle Database 19c Enterprise Edition", "19.21.0.0.0")),
		rows(qParams, 2, "compatible", "19.0.0", "max_string_size", "STANDARD"),
		fails("SELECT 942", notReadable),
	}}
	db := sql.OpenDB(&connector{inner: fakeConnector{s}, red: newRedactor(nil), where: "fake"})
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, err := Probe(ctx, conn)
	if err != nil || info.Version != "19.21.0.0.0" || info.IdentifierMaxBytes != 128 {
		t.Errorf("Probe = %+v, %v", info, err)
	}
	conn.Close()
	if _, err := db.QueryContext(ctx, "SELECT 942"); Code(err) != 942 {
		t.Errorf("server error lost: %v", err)
	}
	if _, err := db.ExecContext(ctx, "BEGIN NULL; END;"); err == nil || !strings.Contains(err.Error(), "fake: no Prepare") {
		t.Errorf("Exec did not fall back to Prepare: %v", err)
	}
	if st := db.Stats(); st.OpenConnections != 1 {
		t.Errorf("open sessions = %d, want the one session reused", st.OpenConnections)
	}
}
