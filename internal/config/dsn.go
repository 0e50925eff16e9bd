package config

import (
	"errors"
	"fmt"
	"net/url"
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
	dsn := c.DSN.Reveal()
	scheme, rest, hasScheme := strings.Cut(dsn, "://")
	scheme = strings.ToLower(scheme)
	sqlAlchemy := e.alias != nil || strings.HasPrefix(scheme, "oracle+")
	if !sqlAlchemy {
		if hasScheme && scheme == "oracle" {
			if u, err := url.Parse(dsn); err == nil {
				fillCredentials(c, final, u.User)
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

func (l *loader) applySQLAlchemy(c *Config, final layer, e *entry, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return errors.New("not a valid URL") // url's error would quote the password
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("the URL has no host")
	}
	sid := strings.TrimPrefix(u.Path, "/")
	svc := u.Query().Get("service_name")
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
