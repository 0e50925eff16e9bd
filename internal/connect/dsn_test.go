package connect

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/config"
)

// baseConfig is a Config as config.Load leaves it with defaults.
func baseConfig() *config.Config {
	return &config.Config{
		Host: "localhost", Port: 1521, User: "loader", Password: "s3cret!",
		Protocol: "tcp", SSLVerify: true, NetworkEncryption: "accepted", ConnectTimeoutSeconds: 30,
	}
}

func noEnv(string) string { return "" }

// want is what go-ora's own parser must read from the URL built.
type want struct {
	host, service, sid, user, password, proxy, instance string
	port                                                int
	ssl, sslVerify                                      bool
	timeout                                             time.Duration
	enc                                                 int    // 0 accepted … 3 required
	descriptor                                          string // go-ora's connect data, when a descriptor is used
	servers                                             int    // addresses go-ora found (descriptor)
	warning                                             string // a substring of one warning
}

func TestResolveURL(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *config.Config)
		want want
	}{
		{"service", func(c *config.Config) { c.Host, c.ServiceName = "db.example.com", "FREEPDB1" },
			want{host: "db.example.com", port: 1521, service: "FREEPDB1", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"sid and port", func(c *config.Config) { c.Host, c.Port, c.SID = "db", 1599, "ORCL" },
			want{host: "db", port: 1599, sid: "ORCL", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"port zero means 1521", func(c *config.Config) { c.Port, c.ServiceName = 0, "svc" },
			want{host: "localhost", port: 1521, service: "svc", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"tcps without verification, timeout, required encryption", func(c *config.Config) {
			c.ServiceName, c.Protocol, c.SSLVerify, c.ConnectTimeoutSeconds, c.NetworkEncryption = "svc", "tcps", false, 7, "required"
		}, want{host: "localhost", port: 1521, service: "svc", user: "loader", password: "s3cret!", ssl: true, sslVerify: false, timeout: 7 * time.Second, enc: 3}},
		{"proxy_user", func(c *config.Config) { c.ServiceName, c.ProxyUser = "svc", "APP_OWNER" },
			want{host: "localhost", port: 1521, service: "svc", user: "loader", password: "s3cret!", proxy: "APP_OWNER", sslVerify: true, timeout: 30 * time.Second}},
		{"user[client] proxy form", func(c *config.Config) { c.ServiceName, c.User = "svc", "loader[APP_OWNER]" },
			want{host: "localhost", port: 1521, service: "svc", user: "loader", password: "s3cret!", proxy: "APP_OWNER", sslVerify: true, timeout: 30 * time.Second}},
		{"oracle URL keeps its options", func(c *config.Config) {
			c.User, c.Password = "", ""
			c.DSN = "oracle://scott:t%40ger@h.example.com:1600/orclpdb?SSL=true&SSL+VERIFY=false&connect+timeout=5"
		}, want{host: "h.example.com", port: 1600, service: "orclpdb", user: "scott", password: "t@ger", ssl: true, sslVerify: false, timeout: 5 * time.Second}},
		{"oracle URL without port; explicit user wins", func(c *config.Config) {
			c.DSN = "oracle://scott:tiger@h/orclpdb"
		}, want{host: "h", port: 1521, service: "orclpdb", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"oracle URL with SID option", func(c *config.Config) { c.DSN = "oracle://h:1521/?SID=XE" },
			want{host: "h", port: 1521, sid: "XE", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"Easy Connect without port", func(c *config.Config) { c.DSN = "dbhost/FREEPDB1" },
			want{host: "dbhost", port: 1521, service: "FREEPDB1", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"Easy Connect with port and instance", func(c *config.Config) { c.DSN = "//dbhost:1600/sales.example.com:dedicated/sales1" },
			want{host: "dbhost", port: 1600, service: "sales.example.com", instance: "sales1", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"Easy Connect tcps IPv6", func(c *config.Config) { c.DSN = "tcps://[::1]:2484/svc" },
			want{host: "::1", port: 2484, service: "svc", user: "loader", password: "s3cret!", ssl: true, sslVerify: true, timeout: 30 * time.Second}},
		{"Easy Connect shared server warns", func(c *config.Config) { c.DSN = "h/svc:shared" },
			want{host: "h", port: 1521, service: "svc", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second, warning: `server type "shared"`}},
		{"Easy Connect parameters warn", func(c *config.Config) { c.DSN = "h:1522/svc?retry_count=20" },
			want{host: "h", port: 1522, service: "svc", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second, warning: `RETRY_COUNT=20 is not honoured`}},
		{"SQL*Plus quoted password", func(c *config.Config) { c.User, c.Password, c.DSN = "", "", `scott/"p@ss/w?rd"@h/svc` },
			want{host: "h", port: 1521, service: "svc", user: "scott", password: "p@ss/w?rd", sslVerify: true, timeout: 30 * time.Second}},
		{"SQL*Plus user/password@easy connect", func(c *config.Config) { c.User, c.Password, c.DSN = "", "", "scott/p@ss@h:1521/svc" },
			want{host: "h", port: 1521, service: "svc", user: "scott", password: "p@ss", sslVerify: true, timeout: 30 * time.Second}},
		{"SQL*Plus user/password@//host/service", func(c *config.Config) { c.User, c.Password, c.DSN = "", "", "scott/tiger@//h:1600/svc" },
			want{host: "h", port: 1600, service: "svc", user: "scott", password: "tiger", sslVerify: true, timeout: 30 * time.Second}},
		{"SQL*Plus password with '@' and '/'", func(c *config.Config) { c.User, c.Password, c.DSN = "", "", "scott/a@b/c@h/svc" },
			want{host: "h", port: 1521, service: "svc", user: "scott", password: "a@b/c", sslVerify: true, timeout: 30 * time.Second}},
		{"SQL*Plus user/password@tcps", func(c *config.Config) { c.User, c.Password, c.DSN = "", "", "scott/tiger@tcps://h:2484/svc" },
			want{host: "h", port: 2484, service: "svc", user: "scott", password: "tiger", ssl: true, sslVerify: true, timeout: 30 * time.Second}},
		{"SQL*Plus user/password@alias", func(c *config.Config) {
			c.User, c.Password, c.DSN, c.TNSAdmin = "", "", "scott/tiger@legacy", "testdata/onprem"
		}, want{user: "scott", password: "tiger", sid: "OLD", sslVerify: true, timeout: 30 * time.Second, servers: 1,
			descriptor: "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=old.example.com)(PORT=1526))(CONNECT_DATA=(SID=OLD)))"}},
		{"SQL*Plus quoted password with '(' before a descriptor", func(c *config.Config) {
			c.User, c.Password, c.DSN = "", "", `scott/"p(w)@x"@(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))`
		}, want{user: "scott", password: "p(w)@x", service: "s", sslVerify: true, timeout: 30 * time.Second, servers: 1,
			descriptor: "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))"}},
		{"SQL*Plus explicit settings win", func(c *config.Config) { c.DSN = "scott/tiger@h/svc" },
			want{host: "h", port: 1521, service: "svc", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second}},
		{"descriptor with commas in a quoted DN", func(c *config.Config) {
			c.DSN = "(DESCRIPTION=\n  (ADDRESS=(PROTOCOL=tcps)(HOST=adb.example.com)(PORT=1522))\n  (CONNECT_DATA=(SERVICE_NAME=x_high.adb.example.com))\n  (SECURITY=(ssl_server_cert_dn=\"CN=adb, O=Oracle, C=US\")))"
		}, want{user: "loader", password: "s3cret!", service: "x_high.adb.example.com", ssl: true, sslVerify: true, timeout: 30 * time.Second, servers: 1,
			descriptor: `(DESCRIPTION=(ADDRESS=(PROTOCOL=tcps)(HOST=adb.example.com)(PORT=1522))(CONNECT_DATA=(SERVICE_NAME=x_high.adb.example.com))(SECURITY=(ssl_server_cert_dn="CN=adb, O=Oracle, C=US")))`}},
		{"TNS alias, case-insensitive, ADDRESS_LIST", func(c *config.Config) { c.DSN, c.TNSAdmin = "Orcl", "testdata/onprem" },
			want{user: "loader", password: "s3cret!", service: "orclpdb1.example.com", sslVerify: true, timeout: 30 * time.Second, servers: 2,
				descriptor: "(DESCRIPTION=(ADDRESS_LIST=(ADDRESS=(PROTOCOL=TCP)(HOST=db1.example.com)(PORT=1521))(ADDRESS=(PROTOCOL=TCP)(HOST=db2.example.com)(PORT=1521)))(CONNECT_DATA=(SERVER=DEDICATED)(SERVICE_NAME=orclpdb1.example.com)))",
				warning:    "IFILE"}},
		{"TNS second alias of an entry", func(c *config.Config) { c.DSN, c.TNSAdmin = "orcl.example.com", "testdata/onprem" },
			want{user: "loader", password: "s3cret!", service: "orclpdb1.example.com", sslVerify: true, timeout: 30 * time.Second, servers: 2,
				descriptor: "(DESCRIPTION=(ADDRESS_LIST=(ADDRESS=(PROTOCOL=TCP)(HOST=db1.example.com)(PORT=1521))(ADDRESS=(PROTOCOL=TCP)(HOST=db2.example.com)(PORT=1521)))(CONNECT_DATA=(SERVER=DEDICATED)(SERVICE_NAME=orclpdb1.example.com)))"}},
		{"TNS alias with SID", func(c *config.Config) { c.DSN, c.TNSAdmin = "legacy", "testdata/onprem" },
			want{user: "loader", password: "s3cret!", sid: "OLD", sslVerify: true, timeout: 30 * time.Second, servers: 1,
				descriptor: "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=old.example.com)(PORT=1526))(CONNECT_DATA=(SID=OLD)))"}},
		{"TNS alias holding Easy Connect", func(c *config.Config) { c.DSN, c.TNSAdmin = "ez", "testdata/onprem" },
			want{host: "ezhost.example.com", port: 1600, service: "ezsvc", user: "loader", password: "s3cret!", sslVerify: true, timeout: 30 * time.Second, warning: "alias orcl is defined again"}},
		// A TCPS address turns go-ora's SSL on from the start (it used to
		// stay false until the session connected, and the wallet was never
		// loaded); the wallet itself is the target's (tls.go).
		{"TNS alias from $TNS_ADMIN-less wallet_location", func(c *config.Config) { c.DSN, c.WalletLocation = "MYDB_LOW", "testdata/adb" },
			want{user: "loader", password: "s3cret!", service: "g1234567890abcd_mydb_low.adb.oraclecloud.com", ssl: true, sslVerify: true, timeout: 30 * time.Second, servers: 1,
				descriptor: "(description=(retry_count=20)(retry_delay=3)(address=(protocol=tcps)(port=1522)(host=adb.eu-frankfurt-1.oraclecloud.com))(connect_data=(service_name=g1234567890abcd_mydb_low.adb.oraclecloud.com))(security=(ssl_server_dn_match=yes)))"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			tt.edit(cfg)
			tg, err := resolve(cfg, noEnv)
			if err != nil {
				t.Fatal(err)
			}
			checkParsed(t, tg, tt.want)
		})
	}
}

func checkParsed(t *testing.T, tg *target, w want) {
	t.Helper()
	pc, err := go_ora.ParseConfig(tg.url())
	if err != nil {
		t.Fatalf("go-ora rejects %s: %v", tg.url(), err)
	}
	if w.descriptor != "" {
		if got := pc.ConnectionData(); got != w.descriptor {
			t.Errorf("descriptor\n got %s\nwant %s", got, w.descriptor)
		}
		if len(pc.Servers) != w.servers {
			t.Errorf("servers = %+v, want %d", pc.Servers, w.servers)
		}
	} else {
		if len(pc.Servers) != 1 || pc.Servers[0].Addr != w.host || pc.Servers[0].Port != w.port {
			t.Errorf("servers = %+v, want %s:%d", pc.Servers, w.host, w.port)
		}
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"service", pc.ServiceName, w.service}, {"sid", pc.SID, w.sid}, {"user", pc.UserID, w.user},
		{"password", pc.DatabaseInfo.Password, w.password}, {"proxy", pc.ProxyClientName, w.proxy},
		{"instance", pc.InstanceName, w.instance}, {"ssl", pc.SSL, w.ssl}, {"ssl verify", pc.SSLVerify, w.sslVerify},
		{"connect timeout", pc.ConnectTimeout, w.timeout}, {"encryption", pc.EncServiceLevel, w.enc},
		{"integrity", pc.IntServiceLevel, w.enc}, {"program", pc.ProgramName, "target-oracle"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if w.warning != "" && !strings.Contains(strings.Join(tg.warnings, "\n"), w.warning) {
		t.Errorf("warnings %q lack %q", tg.warnings, w.warning)
	} else if w.warning == "" && len(tg.warnings) > 0 && w.descriptor == "" {
		t.Errorf("unexpected warnings %q", tg.warnings)
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *config.Config)
		msg  string
	}{
		{"service and sid", func(c *config.Config) { c.ServiceName, c.SID = "a", "b" }, "not both"},
		{"neither", func(c *config.Config) {}, "service_name or sid"},
		{"bad URL", func(c *config.Config) { c.DSN = "oracle://u:s3cret!@h:99999999/x" }, "port"},
		{"unparsable URL", func(c *config.Config) { c.DSN = "oracle://u:s3cret!@h%zz/x" }, "not a valid oracle:// URL: a '%' is not followed"},
		{"unescaped '/' in URL password", func(c *config.Config) { c.DSN = "oracle://u:s3cret!/x@h/svc" }, "not a port number"},
		{"URL without service", func(c *config.Config) { c.DSN = "oracle://u:s3cret!@h:1521" }, "no service"},
		{"Easy Connect without service", func(c *config.Config) { c.DSN = "h:1521" }, "needs a service name"},
		{"Easy Connect bad port", func(c *config.Config) { c.DSN = "u/s3cret!@h:x/svc" }, "port"},
		{"Easy Connect bad protocol", func(c *config.Config) { c.DSN = "ipc://h/svc" }, "tcp:// or tcps://"},
		{"descriptor unbalanced", func(c *config.Config) { c.DSN = "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1)" }, "unbalanced"},
		{"descriptor without service", func(c *config.Config) { c.DSN = "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1)))" }, "SERVICE_NAME"},
		{"alias without folder", func(c *config.Config) { c.DSN = "mydb_high" }, "tns_admin"},
		{"unknown alias", func(c *config.Config) { c.DSN, c.TNSAdmin = "nope", "testdata/adb" }, "aliases there: mydb_high, mydb_low"},
		{"missing tnsnames.ora", func(c *config.Config) { c.DSN, c.TNSAdmin = "x", "testdata" }, "tnsnames.ora"},
		{"proxy conflict", func(c *config.Config) { c.ServiceName, c.User, c.ProxyUser = "s", "a[b]", "c" }, "proxy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Host = ""
			tt.edit(cfg)
			_, err := resolve(cfg, noEnv)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q lacks %q", err, tt.msg)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q reveals the password", err)
			}
		})
	}
}

func TestTNSAdminFromEnvironment(t *testing.T) {
	cfg := baseConfig()
	cfg.DSN = "mydb_high"
	tg, err := resolve(cfg, func(k string) string {
		if k == "TNS_ADMIN" {
			return "testdata/adb"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tg.descriptor, `ssl_server_cert_dn="CN=adb.eu-frankfurt-1.oraclecloud.com, OU=Oracle ADB FRANKFURT,`) {
		t.Errorf("descriptor lost the quoted DN: %s", tg.descriptor)
	}
	// The comma-laden DN must survive the URL (go_ora.BuildUrl would split it).
	pc, err := go_ora.ParseConfig(tg.url())
	if err != nil {
		t.Fatal(err)
	}
	if pc.ConnectionData() != tg.descriptor {
		t.Errorf("go-ora connect data %s, want %s", pc.ConnectionData(), tg.descriptor)
	}
}

// An Autonomous Database wallet folder holds tnsnames.ora and
// cwallet.sso: without wallet_location the folder is the wallet.
func TestWalletFromTNSFolder(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/adb/tnsnames.ora")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"tnsnames.ora": data, "cwallet.sso": {0}} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := baseConfig()
	cfg.DSN, cfg.TNSAdmin, cfg.WalletPassword = "mydb_high", dir, "w,allet pass"
	tg, err := resolve(cfg, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if tg.wallet != dir || tg.walletPassword != "w,allet pass" || !tg.usesTLS() {
		t.Errorf("wallet %q password %q TLS %v", tg.wallet, tg.walletPassword, tg.usesTLS())
	}
	if q, _ := url.Parse(tg.url()); q.Query().Get(optWallet) != "" {
		t.Errorf("go-ora is given the wallet (it would load it only too late): %s", q.RawQuery)
	}
	cfg.WalletLocation = "/elsewhere"
	if tg, err = resolve(cfg, noEnv); err != nil || tg.wallet != "/elsewhere" {
		t.Errorf("wallet_location must win: %v %v", tg.wallet, err)
	}
}

func TestEasyConnectWalletParameter(t *testing.T) {
	cfg := baseConfig()
	cfg.DSN = "tcps://adb.example.com:1522/x_high.adb.example.com?wallet_location=/w&retry_count=3"
	tg, err := resolve(cfg, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if tg.wallet != "/w" || tg.opts.Get(optSSL) != "true" {
		t.Errorf("wallet %q opts = %v", tg.wallet, tg.opts)
	}
}

// Passwords with URL-special characters, commas and Unicode reach go-ora
// unchanged.
func TestPasswordRoundTrip(t *testing.T) {
	passwords := []string{
		`p@ss:w/o?r#d`, `100%`, `a&b=c+d`, `sp ace`, `com,ma`, `"quoted'`, `back\slash`,
		`ünïcødé€`, `semi;colon[br]{}`, `%41%zz`, `tab	tab`,
	}
	for _, pw := range passwords {
		for _, form := range []string{"settings", "dsn-url"} {
			cfg := baseConfig()
			cfg.ServiceName = "svc"
			cfg.Password = config.Secret(pw)
			cfg.WalletPassword = config.Secret(pw) // option values are escaped too
			if form == "dsn-url" {
				cfg.User, cfg.Password = "", ""
				cfg.DSN = config.Secret((&url.URL{Scheme: "oracle", User: url.UserPassword("u", pw), Host: "h:1521", Path: "/svc"}).String())
			}
			tg, err := resolve(cfg, noEnv)
			if err != nil {
				t.Fatalf("%s %q: %v", form, pw, err)
			}
			pc, err := go_ora.ParseConfig(tg.url())
			if err != nil {
				t.Fatalf("%s %q: go-ora: %v", form, pw, err)
			}
			if pc.DatabaseInfo.Password != pw {
				t.Errorf("%s: password %q arrived as %q", form, pw, pc.DatabaseInfo.Password)
			}
			// The wallet's password reaches go-ora's wallet reader (readWallet
			// and walletCredentials) in a URL's query.
			if got, _ := url.Parse(tg.urlWithWallet()); got.Query().Get(optWalletPass) != pw || tg.walletPassword != pw {
				t.Errorf("%s: wallet password %q arrived as %q", form, pw, got.Query().Get(optWalletPass))
			}
		}
	}
}
