package connect

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/config"
)

const secretPW = `pa ss@w:rd/%?#,ü`

func TestRedactorRemovesEveryForm(t *testing.T) {
	red := newRedactor([]string{secretPW, "", "walletpw"})
	//lint:ignore SA1007 the URL is invalid on purpose: url.Parse's error quotes it
	_, parseErr := url.Parse("oracle://u:" + secretPW + "@h:1521/x\x7f") // url quotes the whole URL
	forms := []error{
		parseErr,
		errors.New("raw " + secretPW),
		errors.New("query " + url.QueryEscape(secretPW)),
		errors.New("path " + url.PathEscape(secretPW)),
		errors.New("userinfo " + url.UserPassword("u", secretPW).String()),
		fmt.Errorf("wallet: %w", errors.New("bad password walletpw")),
	}
	for _, e := range forms {
		got := red.wrap("connect", e).Error()
		for _, leak := range []string{secretPW, url.QueryEscape(secretPW), url.PathEscape(secretPW), "pa ss", "walletpw"} {
			if strings.Contains(got, leak) {
				t.Errorf("%q still holds %q", got, leak)
			}
		}
		if !strings.HasPrefix(got, "connect: ") || (e != parseErr && !strings.Contains(got, redacted)) {
			t.Errorf("%q: not redacted or no context", got)
		}
	}
}

func TestRedactedErrorKeepsWhatIsSafe(t *testing.T) {
	red := newRedactor([]string{"pw"})
	oe := &network.OracleError{ErrCode: 1017, ErrMsg: "ORA-01017: invalid username/password; logon denied"}
	err := red.wrap("connect", fmt.Errorf("login: %w", oe))
	var got *network.OracleError
	if !errors.As(err, &got) || got.ErrCode != 1017 || Code(err) != 1017 {
		t.Errorf("OracleError lost: %v", err)
	}
	err = red.wrap("connect", fmt.Errorf("dial: %w", context.DeadlineExceeded))
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrBadConn) {
		t.Errorf("sentinels wrong: %v", err)
	}
	//lint:ignore SA1007 the URL is invalid on purpose: url.Parse's error quotes it
	_, perr := url.Parse("oracle://u:pw@h\x7f")
	var ue *url.Error
	if errors.As(red.wrap("connect", perr), &ue) {
		t.Error("a url.Error (which quotes the password) is reachable through Unwrap")
	}
}

// Connecting to a closed port fails fast, names the address and never
// shows the password.
func TestOpenRefusedHidesPassword(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close()
	for _, form := range []string{"settings", "url", "sqlplus"} {
		cfg := baseConfig()
		cfg.Password, cfg.ConnectTimeoutSeconds = secretPW, 2
		switch form {
		case "settings":
			cfg.Host, cfg.Port, cfg.ServiceName = "127.0.0.1", addr.Port, "FREEPDB1"
		case "url":
			cfg.User, cfg.Password = "", ""
			cfg.DSN = config.Secret((&url.URL{Scheme: "oracle", User: url.UserPassword("u", secretPW),
				Host: addr.String(), Path: "/FREEPDB1"}).String())
		case "sqlplus":
			cfg.User, cfg.Password = "", ""
			cfg.DSN = config.Secret(fmt.Sprintf("u/%s@%s/FREEPDB1", secretPW, addr))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		db, err := Open(ctx, cfg)
		cancel()
		if err == nil {
			db.Close()
			t.Fatalf("%s: connected to a closed port", form)
		}
		msg := err.Error()
		if strings.Contains(msg, "pa ss") || strings.Contains(msg, url.QueryEscape(secretPW)) {
			t.Errorf("%s: error reveals the password: %s", form, msg)
		}
		if !strings.HasPrefix(msg, "Oracle at "+addr.String()+"/FREEPDB1: TCP connection to "+addr.String()+": connection refused; nothing listens there") {
			t.Errorf("%s: error does not name the address: %s", form, msg)
		}
	}
}

func TestConnectorLogsWarningsAndChecksSettings(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	cfg := baseConfig()
	cfg.DSN, cfg.TNSAdmin = "orcl", "testdata/onprem"
	if _, err := ConnectorLog(cfg, log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "IFILE") {
		t.Errorf("IFILE warning not logged: %q", buf.String())
	}

	cfg = baseConfig()
	cfg.DSN = config.Secret("oracle://u:pw@h:1521/svc?NO+SUCH+OPTION=1")
	_, err := ConnectorLog(cfg, log)
	if err == nil || !strings.Contains(err.Error(), "unknown URL option") {
		t.Errorf("go-ora's option check did not run: %v", err)
	}
}

// A very short password is redacted where connect strings carry
// credentials, not in every word of a message.
func TestShortSecretKeepsMessagesReadable(t *testing.T) {
	red := newRedactor([]string{"p"})
	for in, want := range map[string]string{
		"runtime error: invalid memory address or nil pointer dereference": "runtime error: invalid memory address or nil pointer dereference",
		"oracle://user:p@db:1521/svc":                                      "oracle://user:**redacted**@db:1521/svc",
		"user/p@db:1521/svc":                                               "user/**redacted**@db:1521/svc",
	} {
		if got := red.clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}
