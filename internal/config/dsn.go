package config

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// resolveDSN reads the parts of a URL dsn that other settings depend on.
//
// An oracle+<driver>:// URL, and any URL given as sqlalchemy_url, follows
// SQLAlchemy's Oracle rules: the path is a SID unless ?service_name= is
// given (both is an error), and with neither the host is a TNS alias. Its
// parts are stored in Host, Port, SID, ServiceName (and DSN is cleared, or
// holds the TNS alias), so the connection code has one form to read.
//
// A plain oracle:// URL is go-ora's form (the path is a service name) and
// is kept as the DSN.
//
// In both forms, a user and password in the URL fill User and Password
// when those are not set explicitly.
func (l *loader) resolveDSN(c *Config, final layer) {
	e := final["dsn"]
	if e == nil || c.DSN == "" {
		return
	}
	l.warnOverridden(final, e)
	dsn := c.DSN.Reveal()
	scheme, rest, hasScheme := strings.Cut(dsn, "://")
	scheme = strings.ToLower(scheme)
	sqlAlchemy := e.alias != nil || strings.HasPrefix(scheme, "oracle+")
	if !sqlAlchemy {
		if hasScheme && scheme == "oracle" {
			l.goOraURL(c, final, e, dsn)
			return
		}
		// SQL*Plus's user/password@identifier: the connection code reads
		// the identifier; the credentials are needed here already, so
		// that CheckConnection sees the user and password.
		if user, pw, hasPW, _, ok := SplitSQLPlus(dsn); ok {
			if c.User == "" {
				c.User = user
			}
			if hasPW && c.Password == "" {
				c.Password = Secret(pw)
			}
		}
		return
	}
	if !hasScheme || (scheme != "oracle" && !strings.HasPrefix(scheme, "oracle+")) {
		l.fail(&Error{Source: e.source, Key: e.key,
			Msg: "expected an Oracle URL (oracle://, oracle+oracledb:// or oracle+cx_oracle://)"})
		return
	}
	// Parse with a plain scheme: net/url rejects "_" in schemes (cx_oracle).
	if err := l.applySQLAlchemy(c, final, e, "oracle://"+rest); err != nil {
		l.fail(&Error{Source: e.source, Key: e.key, Msg: err.Error()})
	}
}

// warnOverridden names the connection settings given besides a dsn: the
// dsn overrides them (SPEC §3), so they are ignored, and a user who edits
// host next to a sqlalchemy_url must be told why nothing changes.
func (l *loader) warnOverridden(final layer, e *entry) {
	var given []string
	for _, name := range []string{"host", "port", "service_name", "sid"} {
		switch o := final[name]; {
		case o == nil:
		case o.source == e.source:
			given = append(given, o.key)
		default:
			given = append(given, fmt.Sprintf("%s (in %s)", o.key, o.source))
		}
	}
	if len(given) > 0 {
		l.warn("%s: %s overrides host, port, service_name and sid; ignored: %s", e.source, e.key, strings.Join(given, ", "))
	}
}

// goOraURL takes the user and password of go-ora's oracle:// URL. A URL
// that does not parse is reported here, saying what is wrong with it:
// otherwise its user would just be missing, and the error would say so.
func (l *loader) goOraURL(c *Config, final layer, e *entry, dsn string) {
	u, err := url.Parse(dsn)
	if err != nil {
		l.fail(&Error{Source: e.source, Key: e.key, Msg: "not a valid oracle:// URL: " + URLProblem(err)})
		return
	}
	if u.User == nil && c.User == "" && strings.Contains(u.Path+"?"+u.RawQuery, "@") {
		// oracle://u:9/x@h/svc parses as host "u:9": an unescaped '/' in
		// the password moved the user into the host.
		l.fail(&Error{Source: e.source, Key: e.key, Msg: "not a valid oracle:// URL: it has an '@' after the host " +
			"and no user before it (" + escapeHint + ")"})
		return
	}
	fillCredentials(c, final, u.User)
}

// escapeHint is how a password with URL delimiters must be written.
const escapeHint = "a '/', '?', '#', '%' or '@' in a user or password must be percent-encoded: %2F, %3F, %23, %25, %40"

// URLProblem says what is wrong with a URL that net/url refused, without
// quoting it: url's own errors quote the URL, password included, or a
// piece of it (an "invalid port" may be the middle of a password).
func URLProblem(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var esc url.EscapeError
	var host url.InvalidHostError
	msg := err.Error()
	switch {
	case errors.As(err, &esc):
		return "a '%' is not followed by two hex digits (write a literal '%' as %25)"
	case errors.As(err, &host):
		return "the host name holds a character a host name cannot hold"
	case strings.HasPrefix(msg, "invalid port"):
		return "the text after the host's ':' is not a port number (" + escapeHint + ")"
	case strings.Contains(msg, "invalid control character"):
		return "it holds a control character"
	case strings.Contains(msg, "invalid userinfo"):
		return "the user or password holds a character that must be percent-encoded"
	case strings.Contains(msg, "missing ']'"):
		return "an IPv6 host lacks its closing ']'"
	}
	return "malformed (" + escapeHint + ")"
}

// SplitSQLPlus splits SQL*Plus's "user[/password]@identifier" connect
// string; rest is the identifier (Easy Connect, descriptor or TNS alias).
// The rules: a password in double quotes ends at the next '"' followed
// by '@' and may hold any other character; otherwise the last '@' before
// any '(' (a descriptor may follow) ends the credentials, and the first
// '/' in them separates user and password, so an unquoted password may
// hold '@' and '/' but a user may not. ok is false for a string without
// credentials, a descriptor, or a URL ("scheme://user@…").
func SplitSQLPlus(s string) (user, password string, hasPassword bool, rest string, ok bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") {
		return "", "", false, s, false
	}
	if u, p, found := strings.Cut(s, "/"); found && strings.HasPrefix(p, `"`) {
		if end := strings.Index(p[1:], `"@`); end >= 0 && !strings.Contains(u, "@") {
			return u, p[1 : end+1], true, p[end+3:], true
		}
	}
	head := s
	if i := strings.IndexByte(s, '('); i >= 0 {
		head = s[:i]
	}
	at := strings.LastIndexByte(head, '@')
	if at <= 0 || strings.Contains(s[:at], "://") {
		return "", "", false, s, false
	}
	user, password, hasPassword = strings.Cut(s[:at], "/")
	return user, password, hasPassword, s[at+1:], true
}

func (l *loader) applySQLAlchemy(c *Config, final layer, e *entry, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return errors.New("not a valid URL: " + URLProblem(err)) // url's error would quote the password
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("the URL has no host")
	}
	sid := strings.TrimPrefix(u.Path, "/")
	svc := u.Query().Get("service_name")
	l.warnURLParameters(e, u.Query())
	parts := []string{}
	switch {
	case sid != "" && svc != "":
		return errors.New("the URL gives both a database (SID) path and ?service_name=; give one")
	case sid != "" || svc != "":
		port := 1521
		if p := u.Port(); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil || n < 1 || n > 65535 {
				return errors.New("the URL's port must be an integer from 1 to 65535")
			}
			port = n
		}
		c.Host, c.Port, c.SID, c.ServiceName, c.DSN = host, port, sid, svc, ""
		parts = append(parts, fmt.Sprintf("host = %q", host), fmt.Sprintf("port = %d", port))
		if sid != "" {
			parts = append(parts, fmt.Sprintf("sid = %q", sid))
		} else {
			parts = append(parts, fmt.Sprintf("service_name = %q", svc))
		}
	default:
		c.DSN = Secret(host) // SQLAlchemy: a URL without database is a TNS alias
		parts = append(parts, "dsn = "+redacted+" (TNS alias)")
	}
	if fillCredentials(c, final, u.User) {
		parts = append(parts, fmt.Sprintf("user = %q", c.User))
	}
	l.report.Effective = append(l.report.Effective,
		fmt.Sprintf("%s (given as %s in %s)", strings.Join(parts, ", "), e.key, e.source))
	return nil
}

// warnURLParameters names the query parameters of a SQLAlchemy URL that
// target-oracle does not use (python-oracledb's connect arguments, say
// expire_time or protocol): only service_name is read. Names only: a
// value may be a secret.
func (l *loader) warnURLParameters(e *entry, q url.Values) {
	var names []string
	for k := range q {
		if k != "service_name" {
			names = append(names, strconv.Quote(k))
		}
	}
	if len(names) > 0 {
		slices.Sort(names)
		l.warn("%s: %s: URL parameters other than service_name are not used and are ignored: %s (use the settings of the same meaning)",
			e.source, e.key, strings.Join(names, ", "))
	}
}

// fillCredentials copies a URL's user and password into c where the user
// and password settings were not given, and reports whether the user was
// taken from the URL.
func fillCredentials(c *Config, final layer, ui *url.Userinfo) bool {
	if ui == nil {
		return false
	}
	tookUser := false
	if final["user"] == nil && ui.Username() != "" {
		c.User, tookUser = ui.Username(), true
	}
	if pw, ok := ui.Password(); ok && final["password"] == nil {
		c.Password = Secret(pw)
	}
	return tookUser
}

// CheckConnection reports the settings a connecting run (not --dry-run)
// is missing: a user, a password (unless a wallet is configured), and,
// without a dsn, a host and a service name or SID. It returns nil or an
// *Error naming them.
func (c *Config) CheckConnection() error {
	var missing []string
	if c.User == "" {
		missing = append(missing, "user (or a user inside dsn)")
	}
	if c.Password == "" && c.WalletLocation == "" {
		missing = append(missing, "password (or a wallet_location)")
	}
	if c.DSN == "" {
		if c.Host == "" {
			missing = append(missing, "host")
		}
		if c.ServiceName == "" && c.SID == "" {
			missing = append(missing, "service_name or sid")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &Error{Msg: "missing settings needed to connect: " + strings.Join(missing, "; ")}
}
