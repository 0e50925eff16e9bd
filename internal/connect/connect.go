// Package connect opens Oracle sessions with go-ora, reads what the
// server supports (Probe), turns the `auto` settings into decisions
// (ServerInfo.Resolve) and answers --check (Check).
//
// Connection settings become a go-ora v2.9.0 URL. The package does what
// go-ora does not: it resolves TNS aliases from tnsnames.ora, accepts
// Easy Connect strings without a port, SQL*Plus's "user/password@db" and
// "user[proxy_client]" forms, keeps passwords out of every error it
// returns (go-ora and net/url may quote the URL, password included), and
// turns a panic inside go-ora while connecting or on a session's calls
// into an error.
package connect

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/configurations"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/config"
)

// SettingsError is a connection setting that is wrong in itself, found
// before any socket is opened: a dsn without a host or service, a port
// out of range, an option go-ora does not know, service_name and sid
// both, a TNS alias that cannot be resolved. It is a configuration error
// (exit 2), not a database failure.
type SettingsError struct{ Err error }

func (e *SettingsError) Error() string { return e.Err.Error() }
func (e *SettingsError) Unwrap() error { return e.Err }

// connectorWrapped is ConnectorLog with every socket go-ora dials passed
// through wrap (nil: none), see OpenWrapped.
func connectorWrapped(cfg *config.Config, log *slog.Logger, wrap func(net.Conn) net.Conn) (driver.Connector, error) {
	t, err := resolve(cfg, os.Getenv)
	if err != nil {
		return nil, &SettingsError{Err: err}
	}
	tlsSet, tlsWarnings, err := t.tlsConfig()
	if err != nil {
		return nil, err
	}
	for _, w := range append(t.warnings, tlsWarnings...) {
		log.Warn(w)
	}
	tun, err := tunnelFor(cfg.SSHTunnel)
	if err != nil {
		return nil, err
	}
	red := newRedactor(t.secrets(cfg))
	if err := t.walletCredentials(red); err != nil {
		return nil, err
	}
	red = newRedactor(t.secrets(cfg)) // with a password from the wallet
	dsn := t.url()
	err = guard(func() error {
		_, err := go_ora.ParseConfig(dsn)
		return err
	})
	if err != nil {
		return nil, &SettingsError{Err: red.wrap("settings for "+t.where, err)}
	}
	timeout, from := t.connectTimeout()
	return &connector{
		inner: go_ora.NewConnector(dsn), perAttempt: goOraConnector(dsn, tlsSet), tlsSet: tlsSet, red: red, where: t.where,
		timing: timing{timeout: timeout, setting: from, dial: t.netTimeouts.dial(), slow: slowConnect, log: log, tunnel: tun, wrap: wrap},
	}, nil
}

// walletCredentials takes the password from the wallet's stored
// credentials (secure external password store) when a user and a wallet
// are given and no password. go-ora looks them up (ParseConfig), matching
// only a credential whose connect string holds this HOST, PORT and
// SERVICE_NAME (configurations/wallet.go:478-530), and refuses a wallet
// with a SID (connect_config.go:418-421).
func (t *target) walletCredentials(red redactor) error {
	if t.password != "" || t.wallet == "" || t.user == "" {
		return nil
	}
	var pc *configurations.ConnectionConfig
	err := guard(func() error {
		var err error
		pc, err = go_ora.ParseConfig(t.urlWithWallet())
		return err
	})
	switch {
	case err != nil && strings.Contains(err.Error(), "specify server/service"):
		return fmt.Errorf("%s: no password is set, and go-ora v2.9.0 reads the wallet's stored credentials "+
			"only for a service name, not a SID (sid, database, SID=): set password, or connect by service_name", t.where)
	case err != nil && strings.Contains(err.Error(), "cannot find credentials"):
		return fmt.Errorf("%s: no password is set and the wallet %s holds no credential for user %s at this "+
			"address: go-ora matches a stored credential only by a connect string holding the same HOST, PORT and "+
			"SERVICE_NAME; one made with mkstore -createCredential <alias> is keyed by the alias and is not found. "+
			"Set password, or store the credential under the full connect descriptor", t.where, t.wallet, t.user)
	case err != nil:
		return red.wrap("read the credentials of wallet "+t.wallet, err)
	}
	t.password = pc.DatabaseInfo.Password
	return nil
}

// connector makes go-ora sessions: each within the connect timeout, with
// errors redacted, and guarded against the driver's panics. Every Connect
// uses a go-ora connector of its own, so that its dialer (and TLS
// configuration) belong to that one attempt.
type connector struct {
	inner driver.Connector // Driver; and Connect when perAttempt is nil (tests)
	// perAttempt returns the go-ora connector of one attempt.
	perAttempt func(*attempt) driver.Connector
	tlsSet     *tlsSetup // nil without TLS
	red        redactor
	where      string
	timing     timing
}

// goOraConnector makes, for each attempt, a go-ora connector for dsn that
// dials through the attempt and, for TLS, has a configuration of its own.
func goOraConnector(dsn string, tlsSet *tlsSetup) func(*attempt) driver.Connector {
	return func(a *attempt) driver.Connector {
		oc := go_ora.NewConnector(dsn).(*go_ora.OracleConnector)
		oc.Dialer(a)
		if tlsSet != nil {
			oc.WithTLSConfig(tlsSet.clone())
		}
		return oc
	}
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	var conn driver.Conn
	var addr string // the address dialled last
	err := c.timing.bound(ctx, c.where, func(ctx context.Context, a *attempt) error {
		defer func() { addr = a.address() }()
		inner := c.inner
		if c.perAttempt != nil {
			inner = c.perAttempt(a)
		}
		return guard(func() error {
			var err error
			conn, err = inner.Connect(ctx)
			return err
		})
	})
	if err != nil {
		if conn != nil { // connected just after the timeout closed its socket
			conn.Close()
		}
		return nil, c.failure(addr, err)
	}
	return &guardedConn{inner: conn, red: c.red}, nil
}

// failure is the error of a failed connection attempt, read once under
// the caller's "connect" label: what was tried (the dsn's TNS alias or
// descriptor, or host:port/service, and the address dialled when the
// name does not show it), the driver's or the server's error, and a hint
// at the setting to look at.
func (c *connector) failure(addr string, err error) error {
	what := "Oracle at " + c.where
	if addr != "" && !strings.Contains(c.where, addr) {
		what += " (address " + addr + ")"
	}
	e := c.red.wrap(what, err).(*Error)
	if !strings.HasSuffix(e.msg, "malformed connection URL") {
		text, hint := explain(err)
		e.msg = what + ": " + c.red.clean(text)
		if hint != "" {
			e.msg += "; " + hint
		}
	}
	return e
}
func (c *connector) Driver() driver.Driver { return c.inner.Driver() }

// explain returns err's text with Go's dial errors ("dial tcp
// 10.0.0.1:1521: connect: connection refused") said plainly, and a hint
// at what to check ("" when there is none to give).
func explain(err error) (text, hint string) {
	text = err.Error()
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		plain, h := dialFailure(oe)
		return strings.Replace(text, oe.Error(), plain, 1), h
	}
	return text, oracleHint(Code(err))
}

// dialFailure says why a TCP connection could not be made.
func dialFailure(oe *net.OpError) (text, hint string) {
	addr := "the listener"
	if oe.Addr != nil {
		addr = oe.Addr.String()
	}
	var dns *net.DNSError
	switch {
	case errors.As(oe.Err, &dns):
		return fmt.Sprintf("host %q not found (%s)", dns.Name, dns.Err),
			"check host (or the HOST of the dsn's descriptor or tnsnames.ora entry)"
	case errors.Is(oe.Err, syscall.ECONNREFUSED):
		return fmt.Sprintf("TCP connection to %s: connection refused", addr),
			"nothing listens there: check host and port (or the descriptor's HOST and PORT) and that the listener runs (lsnrctl status)"
	case oe.Timeout():
		return fmt.Sprintf("TCP connection to %s: timed out", addr),
			"check host and port, and that no firewall drops the connection (an ssh_tunnel may be needed)"
	}
	cause := oe.Err
	var se *os.SyscallError
	if errors.As(cause, &se) {
		cause = se.Err
	}
	return fmt.Sprintf("TCP connection to %s failed: %v", addr, cause),
		"check host and port, and the network route to them"
}

// oracleHint explains the server's refusals that come from a setting.
func oracleHint(code int) string {
	switch code {
	case 12505:
		return "the listener knows no such SID: sid (and its alias database) names a SID; " +
			"a service name (lsnrctl services lists them, e.g. FREEPDB1) belongs in service_name"
	case 12514:
		return "the listener knows no such service: check service_name (or the descriptor's SERVICE_NAME) " +
			"against lsnrctl services; a SID belongs in sid"
	case 1017:
		return "check user and password (passwords are case-sensitive)"
	case 28000:
		return "the account is locked: a DBA runs ALTER USER <user> ACCOUNT UNLOCK"
	case 28001:
		return "the password has expired: a DBA (or the user in SQL*Plus) sets a new one"
	}
	return ""
}

// redactor removes secrets from error text.
type redactor struct {
	r *strings.Replacer
}

const redacted = "**redacted**"

// minFreeSecret is the shortest secret redacted wherever it appears: a
// one-letter password would otherwise turn every "p" of a message into
// "**redacted**" (and tell the password). Shorter ones are redacted where
// connect strings put credentials: ":secret@" and "/secret@".
const minFreeSecret = 4

// newRedactor redacts each secret as written and in the escaped forms a
// URL gives it (userinfo, path, query).
func newRedactor(secrets []string) redactor {
	var pairs []string
	seen := map[string]bool{}
	add := func(s string) {
		if s == "" || seen[s] {
			return
		}
		seen[s] = true
		if len(s) >= minFreeSecret {
			pairs = append(pairs, s, redacted)
			return
		}
		pairs = append(pairs, ":"+s+"@", ":"+redacted+"@", "/"+s+"@", "/"+redacted+"@")
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		add(s)
		add(url.QueryEscape(s))
		add(url.PathEscape(s))
		add(strings.TrimPrefix(url.UserPassword("", s).String(), ":"))
	}
	// Longest first, so that an escaped form is not half-replaced by a
	// shorter secret it contains.
	sortLongestFirst(pairs)
	return redactor{r: strings.NewReplacer(pairs...)}
}

func sortLongestFirst(pairs []string) {
	for i := 2; i < len(pairs); i += 2 {
		for j := i; j >= 2 && len(pairs[j]) > len(pairs[j-2]); j -= 2 {
			pairs[j], pairs[j-2] = pairs[j-2], pairs[j]
			pairs[j+1], pairs[j-1] = pairs[j-1], pairs[j+1]
		}
	}
}

func (r redactor) clean(s string) string { return r.r.Replace(s) }

// wrap returns err with context and without secrets. The result still
// matches errors.As(*network.OracleError) (server messages never hold the
// client's password), errors.Is for context cancellation and
// driver.ErrBadConn, and errors.As(net.Error) for a connect timeout; other
// wrapped errors are not exposed, since their text may hold the URL.
func (r redactor) wrap(what string, err error) error {
	e := &Error{msg: what + ": " + r.clean(err.Error())}
	var ue *url.Error
	if errors.As(err, &ue) {
		// net/url quotes the URL, and may cut a secret in the middle,
		// where no replacement can find it.
		e.msg = what + ": malformed connection URL"
	}
	var oe *network.OracleError
	if errors.As(err, &oe) {
		e.ora = oe
	}
	for _, target := range []error{context.Canceled, context.DeadlineExceeded, driver.ErrBadConn} {
		if errors.Is(err, target) {
			e.is = target
		}
	}
	var te *timeoutError
	if errors.As(err, &te) {
		e.is = te // its text holds no secret: what, an address, a duration
	}
	var tu *tunnelError
	if errors.As(err, &tu) && e.is == nil {
		e.is = tu // the bastion's address and the SSH error: transient (a net.Error)
	}
	return e
}

// Error is a connection error with secrets removed.
type Error struct {
	msg string
	ora *network.OracleError
	is  error
}

func (e *Error) Error() string { return e.msg }

// Unwrap exposes only what is safe to print: the server's error, a
// context / bad-connection sentinel, or a connect timeout.
func (e *Error) Unwrap() []error {
	var out []error
	if e.ora != nil {
		out = append(out, e.ora)
	}
	if e.is != nil {
		out = append(out, e.is)
	}
	return out
}

// Code is the ORA- error number of a server error, or 0.
func Code(err error) int {
	var oe *network.OracleError
	if errors.As(err, &oe) {
		return oe.ErrCode
	}
	return 0
}
