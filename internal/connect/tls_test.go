package connect

import (
	"context"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
)

// The wallets the tests build are read by go-ora's own reader, as both
// cwallet.sso and ewallet.p12.
func TestTestWalletsReadByGoOra(t *testing.T) {
	p := getPKI(t)
	for _, kind := range []string{"sso", "p12"} {
		dir := t.TempDir()
		password := ""
		if kind == "sso" {
			writeSSO(t, dir, [][]byte{p.serverCA.Raw, p.clientCert}, []*rsa.PrivateKey{p.clientKey})
		} else {
			password = "w,allet pass"
			writeP12(t, dir, password, [][]byte{p.serverCA.Raw, p.clientCert}, []*rsa.PrivateKey{p.clientKey})
		}
		certs, keys, err := readWallet(dir, password)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		roots, clients, err := walletTLS(certs, keys)
		if err != nil || roots == nil || len(certs) != 2 || len(clients) != 1 || clients[0].Leaf.Subject.CommonName != "loader" {
			t.Fatalf("%s: %d certs, %d client certificates, err %v", kind, len(certs), len(clients), err)
		}
	}
}

// handshake is what the test listener saw of one connection.
type handshake struct {
	clientCN string // the client certificate's CN; "" when none was sent
	err      error  // the TLS handshake's error on the server side
}

// tlsListener is a TCPS listener on 127.0.0.1 that requires a client
// certificate issued by the client CA. After a handshake it reads the TNS
// connect packet and refuses it with ORA-12514, so a client that got that
// far gets an Oracle error, proof that TLS succeeded.
func tlsListener(t *testing.T, p *pki, certDER []byte, key *rsa.PrivateKey) (addr string, seen <-chan handshake) {
	t.Helper()
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(p.clientCA)
	cfg := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{certDER}, PrivateKey: key}},
		ClientAuth:   tls.RequireAndVerifyClientCert, ClientCAs: clientCAs, MinVersion: tls.VersionTLS12,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan handshake, 16)
	go func() {
		for {
			raw, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer raw.Close()
				raw.SetDeadline(time.Now().Add(10 * time.Second))
				c := tls.Server(raw, cfg)
				err := c.Handshake()
				h := handshake{err: err}
				if st := c.ConnectionState(); err == nil && len(st.PeerCertificates) > 0 {
					h.clientCN = st.PeerCertificates[0].Subject.CommonName
				}
				ch <- h
				if err != nil {
					return
				}
				buf := make([]byte, 8192)
				if _, err := c.Read(buf); err == nil {
					c.Write(refusePacket(12514))
				}
			}()
		}
	}()
	return ln.Addr().String(), ch
}

// refusePacket is a TNS REFUSE packet carrying ERR=code.
func refusePacket(code int) []byte {
	msg := fmt.Sprintf("(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=%d)(ERROR_STACK=(ERROR=(CODE=%d)(EMFI=4))))", code, code)
	pkt := make([]byte, 12, 12+len(msg))
	binary.BigEndian.PutUint16(pkt[0:], uint16(12+len(msg)))
	pkt[4] = 4 // REFUSE
	binary.BigEndian.PutUint16(pkt[10:], uint16(len(msg)))
	return append(pkt, msg...)
}

// TestTLSWithWallet connects through go-ora to a loopback TLS listener
// that requires a client certificate, with wallets the test builds, in
// every form a wallet reaches the target: a TNS alias in the wallet folder
// (the Autonomous Database recipe), a descriptor with wallet_location,
// protocol tcps with an ewallet.p12. It checks that the handshake sends
// the wallet's client certificate and trusts the wallet's CA, and each
// certificate check of SPEC §3: host (SAN, else CN), subject DN from the
// setting or the descriptor, DN matching off (warned, chain still
// verified), verification off (warned).
func TestTLSWithWallet(t *testing.T) {
	p := getPKI(t)
	loopback := []net.IP{net.ParseIP("127.0.0.1")}
	dbSubject := pkix.Name{CommonName: "db.test", Organization: []string{"Test Corp"}, Country: []string{"US"}}
	certIP, keyIP := p.serverCert(t, dbSubject, nil, loopback)              // valid for 127.0.0.1
	certDNS, keyDNS := p.serverCert(t, dbSubject, []string{"db.test"}, nil) // valid for db.test only
	certCN, keyCN := p.serverCert(t, pkix.Name{CommonName: "127.0.0.1"}, nil, nil)

	trusting := [][]byte{p.serverCA.Raw, p.clientCert}
	untrusting := [][]byte{p.clientCA.Raw, p.clientCert} // lacks the server's CA

	const (
		passed = "ORA-12514" // the listener refused the TNS connect: TLS passed
	)
	tests := []struct {
		name      string
		cert      []byte
		key       *rsa.PrivateKey
		wallet    [][]byte
		p12       bool   // ewallet.p12 with a password, else cwallet.sso
		form      string // alias | descriptor | tcps
		security  string // the descriptor's (SECURITY=…) part
		edit      func(c *config.Config)
		want      string // substring of the error
		warn      string // substring of a warning; "" = no TLS warning
		handshake bool   // the server completed a handshake with the client certificate
	}{
		{name: "ADB recipe: TNS alias in the wallet folder", cert: certIP, key: keyIP, wallet: trusting, form: "alias",
			security: "(SECURITY=(SSL_SERVER_DN_MATCH=YES))", want: passed, handshake: true},
		{name: "descriptor with wallet_location", cert: certIP, key: keyIP, wallet: trusting, form: "descriptor",
			want: passed, handshake: true},
		{name: "protocol tcps with ewallet.p12", cert: certIP, key: keyIP, wallet: trusting, p12: true, form: "tcps",
			want: passed, handshake: true},
		// go-ora refuses a wallet with a SID (connect_config.go:418-421);
		// the target reads the wallet itself, so only password-less login
		// needs a service name (TestWalletCredentialsErrors).
		{name: "protocol tcps with a SID", cert: certIP, key: keyIP, wallet: trusting, form: "tcps",
			edit: func(c *config.Config) { c.ServiceName, c.SID = "", "ORCL" }, want: passed, handshake: true},
		{name: "CN when the certificate has no SAN", cert: certCN, key: keyCN, wallet: trusting, form: "descriptor",
			want: passed, handshake: true},
		{name: "descriptor SSL_SERVER_CERT_DN matches, in another order", cert: certDNS, key: keyDNS, wallet: trusting, form: "alias",
			security: `(SECURITY=(SSL_SERVER_DN_MATCH=yes)(SSL_SERVER_CERT_DN="C=US, O=Test Corp, CN=db.test"))`, want: passed, handshake: true},
		{name: "descriptor SSL_SERVER_CERT_DN wrong", cert: certIP, key: keyIP, wallet: trusting, form: "alias",
			security: `(SECURITY=(SSL_SERVER_CERT_DN="CN=other.test, O=Test Corp, C=US"))`, want: "does not match ssl_server_cert_dn"},
		{name: "setting ssl_server_cert_dn wins over the descriptor's", cert: certIP, key: keyIP, wallet: trusting, form: "alias",
			security: `(SECURITY=(SSL_SERVER_CERT_DN="CN=other.test, O=Test Corp, C=US"))`,
			edit:     func(c *config.Config) { c.SSLServerCertDN = "CN=db.test,O=Test Corp,C=US" }, want: passed, handshake: true},
		{name: "host not in the SANs", cert: certDNS, key: keyDNS, wallet: trusting, form: "descriptor",
			want: "the server certificate is not valid for 127.0.0.1"},
		{name: "disable_dn_matching: host mismatch passes, with a warning", cert: certDNS, key: keyDNS, wallet: trusting, form: "descriptor",
			edit: func(c *config.Config) { c.SSLServerDNMatch = ptr(false) }, want: passed, warn: "ssl_server_dn_match is off", handshake: true},
		{name: "descriptor SSL_SERVER_DN_MATCH=no: passes, with a warning", cert: certDNS, key: keyDNS, wallet: trusting, form: "alias",
			security: "(SECURITY=(SSL_SERVER_DN_MATCH=no))", want: passed, warn: "ssl_server_dn_match is off", handshake: true},
		{name: "disable_dn_matching never turns verification off", cert: certIP, key: keyIP, wallet: untrusting, form: "descriptor",
			edit: func(c *config.Config) { c.SSLServerDNMatch = ptr(false) }, want: "is not trusted", warn: "ssl_server_dn_match is off"},
		{name: "untrusted server", cert: certIP, key: keyIP, wallet: untrusting, form: "tcps", want: "is not trusted"},
		{name: "ssl_verify false: untrusted passes, with a warning", cert: certDNS, key: keyDNS, wallet: untrusting, form: "tcps",
			edit: func(c *config.Config) { c.SSLVerify = false }, want: passed, warn: "ssl_verify is false", handshake: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, seen := tlsListener(t, p, tt.cert, tt.key)
			host, port, _ := net.SplitHostPort(addr)
			dir := t.TempDir()
			cfg := baseConfig()
			cfg.ConnectTimeoutSeconds = 5
			if tt.p12 {
				writeP12(t, dir, "p12 pass", tt.wallet, []*rsa.PrivateKey{p.clientKey})
				cfg.WalletPassword = "p12 pass"
			} else {
				writeSSO(t, dir, tt.wallet, []*rsa.PrivateKey{p.clientKey})
			}
			descriptor := fmt.Sprintf("(DESCRIPTION=(ADDRESS=(PROTOCOL=TCPS)(HOST=%s)(PORT=%s))(CONNECT_DATA=(SERVICE_NAME=svc_high.adb.test))%s)", host, port, tt.security)
			switch tt.form {
			case "alias": // the wallet zip: tnsnames.ora next to cwallet.sso, no wallet_location
				writeFile(t, filepath.Join(dir, "tnsnames.ora"), []byte("svc_high = "+descriptor+"\n"))
				cfg.DSN, cfg.TNSAdmin = "svc_high", dir
			case "descriptor":
				cfg.DSN, cfg.WalletLocation = config.Secret(descriptor), dir
			case "tcps":
				cfg.Host, cfg.Port, cfg.ServiceName, cfg.Protocol, cfg.WalletLocation = host, atoi(port), "svc", "tcps", dir
			}
			if tt.edit != nil {
				tt.edit(cfg)
			}
			var logs syncBuffer
			_, err := within(t, 20*time.Second, func() error {
				c, err := ConnectorLog(cfg, slog.New(slog.NewTextHandler(&logs, nil)))
				if err != nil {
					return err
				}
				db := sql.OpenDB(c)
				defer db.Close()
				return db.PingContext(context.Background())
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
			if tt.want == passed && Code(err) != 12514 {
				t.Errorf("code %d: the TNS refusal did not come back", Code(err))
			}
			warned := strings.Contains(logs.String(), "ssl_verify is false") || strings.Contains(logs.String(), "ssl_server_dn_match is off")
			if tt.warn != "" && !strings.Contains(logs.String(), tt.warn) {
				t.Errorf("no warning %q in:\n%s", tt.warn, logs.String())
			} else if tt.warn == "" && warned {
				t.Errorf("unexpected TLS warning:\n%s", logs.String())
			}
			select {
			case h := <-seen:
				if tt.handshake && (h.err != nil || h.clientCN != "loader") {
					t.Errorf("server side: handshake error %v, client certificate CN %q; want the wallet's CN=loader", h.err, h.clientCN)
				}
				if !tt.handshake && h.err == nil {
					t.Errorf("server side: the handshake succeeded; the client should have refused the certificate")
				}
			case <-time.After(5 * time.Second):
				t.Errorf("the listener saw no connection")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// go-ora writes the host into the TLS configuration it is given
// (network/session.go:343): every connection gets a clone, and the
// connector's own configuration is never written.
func TestTLSConfigClonedPerConnection(t *testing.T) {
	p := getPKI(t)
	cert, key := p.serverCert(t, pkix.Name{CommonName: "db.test"}, nil, []net.IP{net.ParseIP("127.0.0.1")})
	addr, seen := tlsListener(t, p, cert, key)
	host, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	writeSSO(t, dir, [][]byte{p.serverCA.Raw, p.clientCert}, []*rsa.PrivateKey{p.clientKey})
	cfg := baseConfig()
	cfg.Host, cfg.Port, cfg.ServiceName, cfg.Protocol, cfg.WalletLocation = host, atoi(port), "svc", "tcps", dir
	c, err := ConnectorLog(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := c.Connect(context.Background()); Code(err) != 12514 {
			t.Fatalf("connect %d: %v", i, err)
		}
		<-seen
	}
	tlsSet := tlsSetupOf(t, c)
	if tlsSet.base.ServerName != "" {
		t.Errorf("the shared configuration was written: ServerName %q", tlsSet.base.ServerName)
	}
	if a, b := tlsSet.clone(), tlsSet.clone(); a == b || a == tlsSet.base {
		t.Error("clones are not distinct")
	}
}

// tlsSetupOf digs the TLS setup out of a connector's per-attempt maker.
func tlsSetupOf(t *testing.T, c any) *tlsSetup {
	t.Helper()
	conn, ok := c.(*connector)
	if !ok || conn.tlsSet == nil {
		t.Fatalf("connector %T has no TLS setup", c)
	}
	return conn.tlsSet
}

func TestDNEqual(t *testing.T) {
	subject := pkix.Name{CommonName: "adb.eu-frankfurt-1.oraclecloud.com", OrganizationalUnit: []string{"Oracle ADB FRANKFURT"},
		Organization: []string{"Oracle Corporation"}, Locality: []string{"Redwood City"}, Province: []string{"California"}, Country: []string{"US"}}
	subject.Names = nameAttributes(t, subject)
	for dn, want := range map[string]bool{
		"CN=adb.eu-frankfurt-1.oraclecloud.com, OU=Oracle ADB FRANKFURT, O=Oracle Corporation, L=Redwood City, ST=California, C=US":       true,
		"C=US,ST=California,L=Redwood City,O=Oracle Corporation,OU=Oracle ADB FRANKFURT,CN=adb.eu-frankfurt-1.oraclecloud.com":            true,
		`cn=ADB.EU-FRANKFURT-1.ORACLECLOUD.COM; ou="Oracle ADB FRANKFURT"; o=Oracle Corporation; l=Redwood City; s=California; c=us`:      true,
		"CN=adb.eu-frankfurt-1.oraclecloud.com, O=Oracle Corporation, C=US":                                                               false, // attributes missing
		"CN=adb.eu-frankfurt-1.oraclecloud.com, OU=Oracle ADB FRANKFURT, O=Oracle Corporation, L=Redwood City, ST=California, C=DE":       false,
		"CN=adb.eu-frankfurt-1.oraclecloud.com, OU=Oracle ADB FRANKFURT, O=Oracle Corporation, L=Redwood City, ST=California, C=US, C=US": false,
		"not a DN": false,
	} {
		if got := dnEqual(subject, dn); got != want {
			t.Errorf("dnEqual(%q) = %v, want %v", dn, got, want)
		}
	}
	if got, ok := splitDN(`CN=a\, b, O="x, y"`); !ok || strings.Join(got, "|") != "CN=a, b|O=x, y" {
		t.Errorf("escapes and quotes: %q %v", got, ok)
	}
}

// nameAttributes is the subject as parsed from a certificate (Names filled).
func nameAttributes(t *testing.T, n pkix.Name) []pkix.AttributeTypeAndValue {
	t.Helper()
	var back pkix.Name
	rdn := n.ToRDNSequence()
	der, err := asn1Marshal(rdn)
	if err != nil {
		t.Fatal(err)
	}
	var seq pkix.RDNSequence
	if _, err := asn1Unmarshal(der, &seq); err != nil {
		t.Fatal(err)
	}
	back.FillFromRDNSequence(&seq)
	return back.Names
}

func TestDescriptorValue(t *testing.T) {
	d := `(DESCRIPTION=(ADDRESS=(PROTOCOL=tcps)(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s))(security=(ssl_server_dn_match=On)(ssl_server_cert_dn="CN=a, O=(b)")))`
	if v, ok := descriptorValue(d, "SSL_SERVER_CERT_DN"); !ok || v != "CN=a, O=(b)" {
		t.Errorf("cert DN %q %v", v, ok)
	}
	if v, ok := descriptorValue(d, "SSL_SERVER_DN_MATCH"); !ok || !yes(v) {
		t.Errorf("dn match %q %v", v, ok)
	}
	if _, ok := descriptorValue(d, "WALLET_LOCATION"); ok {
		t.Error("found a value that is not there")
	}
}

// Without a password, the wallet's stored credentials are go-ora's to
// find; what it cannot do is said plainly: a SID, and credentials keyed
// by a TNS alias.
func TestWalletCredentialsErrors(t *testing.T) {
	p := getPKI(t)
	dir := t.TempDir()
	writeSSO(t, dir, [][]byte{p.serverCA.Raw}, nil)
	for _, tt := range []struct {
		name string
		edit func(c *config.Config)
		want string
	}{
		{"SID", func(c *config.Config) { c.SID = "ORCL" }, "only for a service name, not a SID"},
		{"no credential for the address", func(c *config.Config) { c.ServiceName = "svc" }, "mkstore -createCredential <alias> is keyed by the alias"},
	} {
		cfg := baseConfig()
		cfg.Password, cfg.WalletLocation, cfg.Protocol = "", dir, "tcps"
		tt.edit(cfg)
		_, err := ConnectorLog(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
