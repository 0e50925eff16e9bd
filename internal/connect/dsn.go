package connect

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// defaultPort is the listener port when none is given. go-ora requires
// one in its URL, so it is always written out.
const defaultPort = 1521

// go-ora v2.9.0 option names (configurations/connect_config.go). Keys are
// compared case-insensitively by go-ora; these spellings are the ones the
// target writes and looks for.
const (
	optConnStr     = "connStr" // go-ora reads it with a case-sensitive q.Get
	optSID         = "SID"
	optSSL         = "SSL"
	optSSLVerify   = "SSL VERIFY"
	optWallet      = "WALLET"
	optWalletPass  = "WALLET PASSWORD"
	optEncryption  = "ENCRYPTION"
	optIntegrity   = "DATA INTEGRITY"
	optConnTimeout = "CONNECT TIMEOUT"
	optProxyClient = "PROXY CLIENT NAME"
	optProgram     = "PROGRAM"
	optInstance    = "INSTANCE NAME"
)

// target is where and how to connect, before it becomes go-ora's URL.
// Exactly one of (host, port, service|sid) and descriptor is used.
type target struct {
	user, password string
	host           string
	port           int
	service, sid   string
	descriptor     string     // (DESCRIPTION=…) sent verbatim as connect data
	opts           url.Values // go-ora options
	// TLS: the wallet is read by the target (tls.go), never passed to
	// go-ora in the URL it connects with.
	wallet, walletPassword string
	sslVerify              bool
	dnMatch                *bool  // ssl_server_dn_match, when given
	certDN                 string // ssl_server_cert_dn
	descDNMatch            *bool  // the descriptor's (or Easy Connect's) SSL_SERVER_DN_MATCH
	descCertDN             string // the descriptor's (or Easy Connect's) SSL_SERVER_CERT_DN
	where                  string // what the error messages call the database
	warnings               []string
	// netTimeouts are the dsn's own CONNECT_TIMEOUT and
	// TRANSPORT_CONNECT_TIMEOUT (descriptor or Easy Connect), which
	// go-ora v2.9.0 does not read (timeouts.go).
	netTimeouts netTimeouts
}

// env reads an environment variable; tests replace it.
type env func(string) string

// resolve turns the connection settings into a target. getenv supplies
// $TNS_ADMIN. Errors never quote a password (nor a whole dsn; a TNS
// alias is named).
func resolve(cfg *config.Config, getenv env) (*target, error) {
	t := &target{user: cfg.User, password: cfg.Password.Reveal(), opts: url.Values{}}
	var err error
	if cfg.DSN != "" {
		err = t.fromDSN(cfg.DSN.Reveal(), cfg, getenv)
	} else {
		err = t.fromSettings(cfg)
	}
	if err != nil {
		return nil, err
	}
	if err := t.splitProxy(cfg.ProxyUser); err != nil {
		return nil, err
	}
	t.applySettings(cfg)
	return t, nil
}

// fromSettings uses host, port, service_name and sid.
func (t *target) fromSettings(cfg *config.Config) error {
	t.host, t.port = cfg.Host, cfg.Port
	if t.host == "" {
		t.host = "localhost"
	}
	if t.port == 0 {
		t.port = defaultPort
	}
	switch {
	case cfg.ServiceName != "" && cfg.SID != "":
		return errors.New("set service_name or sid, not both")
	case cfg.ServiceName != "":
		t.service = cfg.ServiceName
	case cfg.SID != "":
		t.sid = cfg.SID
	default:
		return errors.New("set service_name or sid (or dsn)")
	}
	t.where = t.address()
	return nil
}

func (t *target) address() string {
	hp := net.JoinHostPort(t.host, strconv.Itoa(t.port))
	if t.sid != "" {
		return hp + " SID " + t.sid
	}
	return hp + "/" + t.service
}

// fromDSN reads the dsn setting: an oracle:// URL, a (DESCRIPTION=…)
// descriptor, "user[/password]@identifier", Easy Connect, or a TNS alias.
func (t *target) fromDSN(dsn string, cfg *config.Config, getenv env) error {
	s := strings.TrimSpace(dsn)
	if scheme, _, ok := strings.Cut(s, "://"); ok && strings.EqualFold(scheme, "oracle") {
		return t.fromURL(s)
	}
	if user, pw, hasPW, rest, ok := config.SplitSQLPlus(s); ok {
		t.fillCredentials(user, pw, hasPW)
		s = rest
	}
	switch {
	case strings.HasPrefix(s, "("):
		t.where = "the connect descriptor in dsn"
		return t.fromDescriptor(s)
	case isAlias(s):
		return t.fromAlias(s, cfg, getenv)
	default:
		return t.fromEasyConnect(s)
	}
}

// fillCredentials applies SQL*Plus's "user[/password]" where the user
// and password settings are empty: explicit settings win, as they do for
// URLs. config.SplitSQLPlus has already removed a password's quotes.
func (t *target) fillCredentials(user, password string, hasPassword bool) {
	if t.user == "" {
		t.user = user
	}
	if hasPassword && t.password == "" {
		t.password = password
	}
}

// fromURL reads go-ora's own URL form, oracle://user:pass@host[:port]/service?opt=v.
// Its options are kept; the settings only add options it does not set.
func (t *target) fromURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		// url's error would quote the password.
		return errors.New("dsn is not a valid oracle:// URL: " + config.URLProblem(err))
	}
	if u.User != nil {
		if t.user == "" {
			t.user = u.User.Username()
		}
		if p, ok := u.User.Password(); ok && t.password == "" {
			t.password = p
		}
	}
	t.host, t.port = u.Hostname(), defaultPort
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return errors.New("the port in dsn must be an integer from 1 to 65535")
		}
		t.port = n
	}
	t.service = strings.Trim(u.Path, "/")
	for k, vs := range u.Query() {
		key := canonicalOption(k)
		t.opts[key] = append(t.opts[key], vs...)
	}
	// The wallet is the target's to read (tls.go); URL options win over
	// the settings.
	t.wallet, t.walletPassword = t.opts.Get(optWallet), t.opts.Get(optWalletPass)
	t.opts.Del(optWallet)
	t.opts.Del(optWalletPass)
	if d := t.opts.Get(optConnStr); d != "" {
		t.opts.Del(optConnStr)
		t.where = "the connect descriptor in dsn"
		return t.fromDescriptor(d)
	}
	if sid := t.opts.Get(optSID); sid != "" && t.service == "" {
		t.sid = sid
		t.opts.Del(optSID)
	}
	if t.host == "" {
		return errors.New("the oracle:// URL in dsn has no host")
	}
	if t.service == "" && t.sid == "" {
		return errors.New("the oracle:// URL in dsn names no service (path) or SID (?SID=)")
	}
	t.where = t.address()
	return nil
}

// canonicalOption spells a go-ora option key the way this package does,
// so that a URL's own option and a setting never both appear.
func canonicalOption(k string) string {
	if strings.EqualFold(k, optConnStr) {
		return optConnStr
	}
	return strings.ToUpper(strings.Join(strings.Fields(k), " "))
}

// fromDescriptor validates and compacts a connect descriptor. go-ora
// finds the addresses, SERVICE_NAME and SID in it with regular
// expressions and sends the text itself to the listener.
func (t *target) fromDescriptor(d string) error {
	s := scanner{text: strings.TrimSpace(d), line: 1}
	compact, err := s.descriptor()
	if err != nil {
		return fmt.Errorf("the connect descriptor: %w", err)
	}
	s.skipSpaceAndComments()
	if !s.eof() {
		return errors.New("the connect descriptor: text after the closing parenthesis")
	}
	upper := strings.ToUpper(compact)
	if !strings.Contains(upper, "(HOST=") {
		return errors.New("the connect descriptor has no (HOST=…)")
	}
	if !strings.Contains(upper, "(SERVICE_NAME=") && !strings.Contains(upper, "(SID=") {
		return errors.New("the connect descriptor has no (SERVICE_NAME=…) or (SID=…)")
	}
	t.descriptor = compact
	t.netTimeouts.addresses = strings.Count(upper, "(ADDRESS=")
	t.readNetTimeouts("the descriptor's ", func(name string) (string, bool) { return descriptorValue(compact, name) })
	if v, ok := descriptorValue(compact, "SSL_SERVER_DN_MATCH"); ok {
		b := yes(v)
		t.descDNMatch = &b
	}
	t.descCertDN, _ = descriptorValue(compact, "SSL_SERVER_CERT_DN")
	return nil
}

// descriptorValue returns the value of the first (NAME=value) in a
// compact descriptor, NAME compared without regard to case, without the
// double quotes of a quoted value.
func descriptorValue(d, name string) (string, bool) {
	i := strings.Index(strings.ToUpper(d), "("+name+"=")
	if i < 0 {
		return "", false
	}
	rest := d[i+len(name)+2:]
	quoted := false
	for j := 0; j < len(rest); j++ {
		switch c := rest[j]; {
		case c == '"':
			quoted = !quoted
		case c == ')' && !quoted:
			return strings.Trim(strings.TrimSpace(rest[:j]), `"`), true
		}
	}
	return "", false
}

// yes reads an Oracle Net boolean: yes, on, true (any case).
func yes(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "on", "true":
		return true
	}
	return false
}

// isAlias reports whether s can only be a TNS alias: a name without '/'
// or ':' (every Easy Connect string has one or the other, or "//").
func isAlias(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("_.-$#", c) >= 0) {
			return false
		}
	}
	return true
}

// tnsDir is the folder of tnsnames.ora: tns_admin, else $TNS_ADMIN, else
// wallet_location (config.Load applies the same default; a Config built
// in code may not have).
func tnsDir(cfg *config.Config, getenv env) string {
	switch {
	case cfg.TNSAdmin != "":
		return cfg.TNSAdmin
	case getenv("TNS_ADMIN") != "":
		return getenv("TNS_ADMIN")
	}
	return cfg.WalletLocation
}

// fromAlias resolves a TNS alias from tnsnames.ora.
func (t *target) fromAlias(alias string, cfg *config.Config, getenv env) error {
	dir := tnsDir(cfg, getenv)
	if dir == "" {
		return fmt.Errorf("dsn %q looks like a TNS alias, but neither tns_admin, $TNS_ADMIN nor wallet_location says where tnsnames.ora is", alias)
	}
	names, err := readTNSNames(dir)
	if err != nil {
		return fmt.Errorf("resolve TNS alias %q: %w", alias, err)
	}
	t.warnings = append(t.warnings, names.warnings...)
	value, ok := names.lookup(alias)
	if !ok {
		return fmt.Errorf("TNS alias %q is not in %s (aliases there: %s)", alias, names.path, names.known())
	}
	t.where = fmt.Sprintf("TNS alias %s", alias)
	if strings.HasPrefix(value, "(") {
		err = t.fromDescriptor(value)
	} else {
		err = t.fromEasyConnect(value)
		t.where = fmt.Sprintf("TNS alias %s (%s)", alias, t.where)
	}
	if err != nil {
		return fmt.Errorf("%w (TNS alias %s in %s)", err, alias, names.path)
	}
	t.walletFromTNSDir(cfg, dir)
	return nil
}

// walletFromTNSDir uses the tnsnames.ora folder as the wallet when it
// holds one and wallet_location is not set: an Autonomous Database
// wallet zip unpacks tnsnames.ora, sqlnet.ora and cwallet.sso together.
func (t *target) walletFromTNSDir(cfg *config.Config, dir string) {
	if cfg.WalletLocation != "" {
		return
	}
	for _, f := range []string{"cwallet.sso", "ewallet.p12"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.wallet = dir
			t.warnings = append(t.warnings, fmt.Sprintf("using the wallet in %s (the tnsnames.ora folder); set wallet_location to choose another", dir))
			return
		}
	}
}

// fromEasyConnect reads [tcp://|tcps://|//]host[:port]/service[:server][/instance][?params].
func (t *target) fromEasyConnect(s string) error {
	rest := s
	if scheme, r, ok := strings.Cut(rest, "://"); ok {
		switch strings.ToLower(scheme) {
		case "tcp":
		case "tcps":
			t.opts.Set(optSSL, "true")
		default:
			return errors.New("dsn: Easy Connect protocol must be tcp:// or tcps://")
		}
		rest = r
	}
	rest = strings.TrimPrefix(rest, "//")
	rest, params, _ := strings.Cut(rest, "?")
	hostPort, path, ok := strings.Cut(rest, "/")
	if !ok || path == "" {
		return errors.New("dsn: Easy Connect needs a service name (host[:port]/service); go-ora has no default service")
	}
	if err := t.easyHost(hostPort); err != nil {
		return err
	}
	svc, instance, _ := strings.Cut(path, "/")
	svc, server, _ := strings.Cut(svc, ":")
	if svc == "" {
		return errors.New("dsn: Easy Connect has an empty service name")
	}
	t.service = svc
	if server != "" && !strings.EqualFold(server, "dedicated") {
		t.warnings = append(t.warnings, fmt.Sprintf("Easy Connect server type %q is ignored: go-ora always asks for the listener's default", server))
	}
	if instance != "" {
		t.opts.Set(optInstance, instance)
	}
	t.where = t.address()
	return t.easyParams(params)
}

func (t *target) easyHost(hostPort string) error {
	host, port := hostPort, ""
	if strings.HasPrefix(hostPort, "[") { // IPv6
		end := strings.IndexByte(hostPort, ']')
		if end < 0 {
			return errors.New("dsn: Easy Connect IPv6 address lacks ']'")
		}
		host, port = hostPort[1:end], strings.TrimPrefix(hostPort[end+1:], ":")
	} else if h, p, ok := strings.Cut(hostPort, ":"); ok {
		host, port = h, p
	}
	if host == "" {
		return errors.New("dsn: Easy Connect has no host")
	}
	t.host, t.port = host, defaultPort
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return errors.New("dsn: Easy Connect port must be an integer from 1 to 65535")
		}
		t.port = n
	}
	return nil
}

// easyParams applies Easy Connect Plus parameters: wallet_location,
// ssl_server_dn_match and ssl_server_cert_dn are honoured, every other one
// is reported as ignored.
func (t *target) easyParams(params string) error {
	if params == "" {
		return nil
	}
	q, err := url.ParseQuery(params)
	if err != nil {
		return errors.New("dsn: Easy Connect parameters (after '?') are malformed")
	}
	t.netTimeouts.addresses = 1
	t.readNetTimeouts("the Easy Connect parameter ", func(name string) (string, bool) {
		for k, vs := range q {
			if strings.EqualFold(k, name) && len(vs) > 0 {
				return vs[0], true
			}
		}
		return "", false
	})
	for k, vs := range q {
		if isNetTimeout(k) {
			continue
		}
		if len(vs) > 0 {
			switch strings.ToLower(k) {
			case "wallet_location":
				t.wallet = vs[0]
				continue
			case "ssl_server_dn_match":
				b := yes(vs[0])
				t.descDNMatch = &b
				continue
			case "ssl_server_cert_dn":
				t.descCertDN = vs[0]
				continue
			}
		}
		t.warnings = append(t.warnings, fmt.Sprintf("Easy Connect parameter %q is not supported by the pure-Go driver and is ignored", k))
	}
	return nil
}

// splitProxy sets up proxy authentication. The session user is
// proxy_user, authenticated with user's credentials (go-ora sends it as
// PROXY_CLIENT_NAME). SQL*Plus's "user[client]" form is accepted too.
func (t *target) splitProxy(proxyUser string) error {
	if i := strings.IndexByte(t.user, '['); i > 0 && strings.HasSuffix(t.user, "]") {
		client := t.user[i+1 : len(t.user)-1]
		t.user = t.user[:i]
		if proxyUser != "" && !strings.EqualFold(proxyUser, client) {
			return errors.New("user names a proxy client in [brackets] and proxy_user names another; give one")
		}
		proxyUser = client
	}
	if proxyUser != "" {
		t.opts.Set(optProxyClient, proxyUser)
	}
	return nil
}

// applySettings adds the options the settings ask for, unless the dsn URL
// already set them.
func (t *target) applySettings(cfg *config.Config) {
	set := func(k, v string) {
		if _, ok := t.opts[k]; !ok && v != "" {
			t.opts.Set(k, v)
		}
	}
	set(optProgram, oraclesql.Module)
	if cfg.ConnectTimeoutSeconds > 0 {
		set(optConnTimeout, strconv.Itoa(cfg.ConnectTimeoutSeconds))
	}
	// A TCPS address in a descriptor turns TLS on in go-ora only once it
	// connects (network/session.go:560); saying so in the URL keeps
	// go-ora's view (ParseConfig's SSL) true from the start.
	if strings.EqualFold(cfg.Protocol, "tcps") || strings.Contains(strings.ToUpper(t.descriptor), "(PROTOCOL=TCPS)") {
		set(optSSL, "true")
	}
	if !cfg.SSLVerify {
		set(optSSLVerify, "false")
	}
	t.sslVerify = cfg.SSLVerify
	if v, ok := t.opts[optSSLVerify]; ok && len(v) > 0 {
		t.sslVerify = yes(v[0]) || strings.EqualFold(v[0], "enable") || strings.EqualFold(v[0], "enabled")
	}
	if t.wallet == "" {
		t.wallet = cfg.WalletLocation
	}
	if t.walletPassword == "" {
		t.walletPassword = cfg.WalletPassword.Reveal()
	}
	t.dnMatch, t.certDN = cfg.SSLServerDNMatch, cfg.SSLServerCertDN
	if ne := strings.ToUpper(cfg.NetworkEncryption); ne != "" {
		set(optEncryption, ne)
		set(optIntegrity, ne)
	}
}

// connectTimeout is the bound of one connection attempt and the setting
// that gave it: the dsn's CONNECT_TIMEOUT (descriptor or Easy Connect)
// times its addresses, else the dsn URL's CONNECT TIMEOUT, else
// connect_timeout_seconds (applySettings put either of those in opts),
// else defaultConnectTimeout.
func (t *target) connectTimeout() (time.Duration, string) {
	if d := t.netTimeouts.attempt(); d > 0 {
		return d, t.netTimeouts.connectFrom
	}
	if n, err := strconv.Atoi(t.opts.Get(optConnTimeout)); err == nil && n > 0 {
		return time.Duration(n) * time.Second, "connect_timeout_seconds"
	}
	return defaultConnectTimeout, "connect_timeout_seconds"
}

// urlWithWallet is url with the wallet options, for go-ora to look up
// the wallet's stored credentials (ParseConfig).
func (t *target) urlWithWallet() string {
	u := *t
	u.opts = url.Values{}
	for k, vs := range t.opts {
		u.opts[k] = vs
	}
	u.opts.Set(optWallet, t.wallet)
	if t.walletPassword != "" {
		u.opts.Set(optWalletPass, t.walletPassword)
	}
	return u.url()
}

// url renders the target as go-ora's URL. It is built with net/url, not
// go_ora.BuildUrl, which splits every option value on commas (breaking
// descriptors with ssl_server_cert_dn="CN=…,O=…" and passwords with
// commas).
func (t *target) url() string {
	u := url.URL{Scheme: "oracle", Host: net.JoinHostPort(t.host, strconv.Itoa(t.port)), Path: "/" + t.service}
	switch {
	case t.user != "" && t.password != "":
		u.User = url.UserPassword(t.user, t.password)
	case t.user != "":
		u.User = url.User(t.user) // password from the wallet
	}
	q := url.Values{}
	for k, vs := range t.opts {
		q[k] = vs
	}
	if t.sid != "" {
		u.Path = "/"
		q.Set(optSID, t.sid)
	}
	if t.descriptor != "" {
		u.Host, u.Path = ":0", "/"
		q.Set(optConnStr, t.descriptor)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// secrets lists the values that must never appear in an error message:
// the passwords, wherever they came from (a dsn's password is one of
// them, so the dsn text itself need not be).
func (t *target) secrets(cfg *config.Config) []string {
	st := cfg.SSHTunnel
	return []string{t.password, cfg.Password.Reveal(), cfg.WalletPassword.Reveal(), t.walletPassword,
		st.Password.Reveal(), st.PrivateKeyPassword.Reveal(), st.PrivateKey.Reveal()}
}
