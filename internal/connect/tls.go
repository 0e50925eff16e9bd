package connect

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/configurations"
)

// The target builds the TLS configuration itself and hands go-ora one
// clone per connection (OracleConnector.WithTLSConfig), because go-ora
// v2.9.0's own TLS setup fails Oracle's wallet flows:
//   - it loads the wallet's certificates and key only when SSL is already
//     on when the session opens (connection.go:451-457), but a TNS alias
//     or descriptor turns SSL on later, from the address's PROTOCOL=TCPS
//     (network/session.go:560-566), so no client certificate is sent and
//     only the system roots are trusted;
//   - it checks the host name only, ignoring SSL_SERVER_DN_MATCH and
//     SSL_SERVER_CERT_DN (session.go:338-367);
//   - it writes ServerName into the configuration it is given
//     (session.go:340-344), so one shared configuration would be written
//     by every connection at once.
//
// go-ora still reads the wallet files (ParseConfig, the only exported
// reader of both cwallet.sso and ewallet.p12); the target never passes
// WALLET in the URL it connects with, so go-ora's own loading stays off.

// tlsPolicy is what the server certificate must satisfy.
type tlsPolicy struct {
	verify  bool   // verify the chain (ssl_verify)
	dnMatch bool   // match the host, or certDN (ssl_server_dn_match)
	certDN  string // expected subject DN (ssl_server_cert_dn or the descriptor's)
}

// usesTLS reports whether the connection may use TLS: protocol tcps, a
// tcps:// Easy Connect, SSL=true in a dsn URL, or a TCPS address in a
// descriptor.
func (t *target) usesTLS() bool {
	if v := strings.ToUpper(t.opts.Get(optSSL)); v == "TRUE" || v == "ENABLE" || v == "ENABLED" {
		return true
	}
	return strings.Contains(strings.ToUpper(t.descriptor), "(PROTOCOL=TCPS)")
}

// policy decides the certificate checks: a setting given wins over the
// descriptor's (or Easy Connect's) value, which wins over the default.
func (t *target) policy() tlsPolicy {
	p := tlsPolicy{verify: t.sslVerify, dnMatch: true, certDN: t.descCertDN}
	if t.descDNMatch != nil {
		p.dnMatch = *t.descDNMatch
	}
	if t.dnMatch != nil {
		p.dnMatch = *t.dnMatch
	}
	if t.certDN != "" {
		p.certDN = t.certDN
	}
	return p
}

// tlsSetup is the TLS configuration of a target: a base every connection
// clones, and the check of the server certificate.
type tlsSetup struct {
	base *tls.Config
	v    verifier
}

// tlsConfig returns the TLS configuration of the target and the warnings
// it deserves, or nil when the connection does not use TLS.
func (t *target) tlsConfig() (*tlsSetup, []string, error) {
	if !t.usesTLS() {
		if t.wallet != "" && t.password != "" {
			return nil, []string{fmt.Sprintf("wallet %s is not used: the connection is plain TCP "+
				"(set protocol: tcps, or use a TCPS address)", t.wallet)}, nil
		}
		return nil, nil, nil
	}
	p := t.policy()
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true}
	var roots *x509.CertPool // nil: the system roots
	if t.wallet != "" {
		certs, keys, err := readWallet(t.wallet, t.walletPassword)
		if err != nil {
			return nil, nil, err
		}
		if roots, cfg.Certificates, err = walletTLS(certs, keys); err != nil {
			return nil, nil, fmt.Errorf("wallet %s: %w", t.wallet, err)
		}
	}
	var warnings []string
	switch {
	case !p.verify:
		warnings = append(warnings, "ssl_verify is false: the server certificate is not checked at all "+
			"(neither its chain nor its DN); anyone between the target and the database can read the connection")
	case !p.dnMatch:
		warnings = append(warnings, "ssl_server_dn_match is off: the server certificate's chain is verified, "+
			"but not that it was issued for the host connected to")
	}
	return &tlsSetup{base: cfg, v: verifier{policy: p, roots: roots}}, warnings, nil
}

// verifier checks a server certificate by a tlsPolicy.
type verifier struct {
	policy tlsPolicy
	roots  *x509.CertPool
}

// clone returns the configuration of one connection. Go's own
// verification is off (InsecureSkipVerify): it cannot match a subject DN,
// and for an IP address it has no ServerName in the connection state.
// go-ora writes the host it connects to into ServerName
// (network/session.go:343), and the check reads it from this clone.
func (s *tlsSetup) clone() *tls.Config {
	c := s.base.Clone()
	c.VerifyConnection = func(cs tls.ConnectionState) error { return s.v.check(cs, c.ServerName) }
	return c
}

// check verifies the chain against the roots and then the host or the
// subject DN, as the policy says.
func (v verifier) check(cs tls.ConnectionState, host string) error {
	if !v.policy.verify {
		return nil
	}
	if len(cs.PeerCertificates) == 0 {
		return errors.New("TLS: the server sent no certificate")
	}
	leaf := cs.PeerCertificates[0]
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: v.roots, Intermediates: inter}); err != nil {
		return fmt.Errorf("TLS: the server certificate (%s) is not trusted: %v; "+
			"the wallet (wallet_location) or the system roots must hold its issuer", leaf.Subject, err)
	}
	if !v.policy.dnMatch {
		return nil
	}
	if v.policy.certDN != "" {
		if !dnEqual(leaf.Subject, v.policy.certDN) {
			return fmt.Errorf("TLS: the server certificate's subject %q does not match ssl_server_cert_dn %q "+
				"(or the descriptor's SSL_SERVER_CERT_DN)", leaf.Subject, v.policy.certDN)
		}
		return nil
	}
	if err := matchHost(leaf, host); err != nil {
		return fmt.Errorf("TLS: %v (ssl_server_dn_match; give ssl_server_cert_dn to match the subject DN instead)", err)
	}
	return nil
}

// matchHost checks that the certificate was issued for host: its SANs,
// or its CN when it has no SAN (Go's VerifyHostname ignores the CN).
func matchHost(leaf *x509.Certificate, host string) error {
	if len(leaf.DNSNames) > 0 || len(leaf.IPAddresses) > 0 {
		if err := leaf.VerifyHostname(host); err != nil {
			return fmt.Errorf("the server certificate is not valid for %s: %v", host, err)
		}
		return nil
	}
	cn := strings.ToLower(strings.TrimSuffix(leaf.Subject.CommonName, "."))
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if cn == h || (strings.HasPrefix(cn, "*.") && net.ParseIP(h) == nil &&
		strings.Contains(h, ".") && h[strings.IndexByte(h, '.'):] == cn[1:]) {
		return nil
	}
	return fmt.Errorf("the server certificate is for CN %q (no SAN), not %s", leaf.Subject.CommonName, host)
}

// rdnTypes names the attribute types of a subject DN as Oracle writes them.
var rdnTypes = map[string]string{
	"2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.9": "STREET",
	"2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.5": "SERIALNUMBER", "2.5.4.17": "POSTALCODE",
	"0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
	"1.2.840.113549.1.9.1": "EMAILADDRESS",
}

// typeAliases are other spellings of attribute types in DN strings.
var typeAliases = map[string]string{"S": "ST", "E": "EMAILADDRESS", "EMAIL": "EMAILADDRESS"}

// dnEqual compares a certificate subject with a DN string such as
// "CN=adb.example.com, OU=Oracle ADB, O=Oracle Corporation, C=US": the
// same attributes with the same values, in any order, types and values
// compared without regard to case.
func dnEqual(subject pkix.Name, want string) bool {
	var have []string
	for _, atv := range subject.Names {
		typ, ok := rdnTypes[atv.Type.String()]
		if !ok {
			typ = atv.Type.String()
		}
		have = append(have, typ+"="+strings.ToLower(fmt.Sprint(atv.Value)))
	}
	parts, ok := splitDN(want)
	if !ok || len(parts) != len(have) {
		return false
	}
	left := append([]string(nil), have...)
	for _, p := range parts {
		i := indexOf(left, p)
		if i < 0 {
			return false
		}
		left = append(left[:i], left[i+1:]...)
	}
	return true
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// splitDN splits a DN string into "TYPE=value" parts (type upper-case,
// value lower-case): separators are commas (or semicolons) outside double
// quotes and not escaped with a backslash.
func splitDN(dn string) ([]string, bool) {
	var parts []string
	var cur strings.Builder
	quoted := false
	flush := func() bool {
		typ, val, ok := strings.Cut(cur.String(), "=")
		cur.Reset()
		typ = strings.ToUpper(strings.TrimSpace(typ))
		if !ok || typ == "" {
			return false
		}
		if a, ok := typeAliases[typ]; ok {
			typ = a
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
			val = val[1 : len(val)-1]
		}
		parts = append(parts, typ+"="+strings.ToLower(val))
		return true
	}
	for i := 0; i < len(dn); i++ {
		c := dn[i]
		switch {
		case c == '\\' && i+1 < len(dn):
			i++
			cur.WriteByte(dn[i])
		case c == '"':
			quoted = !quoted
		case (c == ',' || c == ';') && !quoted:
			if !flush() {
				return nil, false
			}
		default:
			cur.WriteByte(c)
		}
	}
	return parts, flush()
}

// readWallet reads the certificates and private keys of a wallet folder
// with go-ora's reader: ewallet.p12 when a password is given and the file
// exists, else cwallet.sso (go-ora's rule, connect_config.go:418-437).
// ParseConfig is go-ora's only exported way to read an ewallet.p12; the
// URL names no user, so no credential is looked up.
func readWallet(dir, password string) (certs, keys [][]byte, err error) {
	q := url.Values{}
	q.Set(optWallet, dir)
	if password != "" {
		q.Set(optWalletPass, password)
	}
	u := url.URL{Scheme: "oracle", Host: "localhost:1521", Path: "/wallet", RawQuery: q.Encode()}
	var w *configurations.ConnectionConfig
	err = guard(func() error {
		var err error
		w, err = go_ora.ParseConfig(u.String())
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read wallet %s: %s", dir, newRedactor([]string{password}).clean(err.Error()))
	}
	if w.Wallet == nil {
		return nil, nil, fmt.Errorf("read wallet %s: no wallet found", dir)
	}
	return w.Wallet.Certificates, w.Wallet.PrivateKeys, nil
}

// walletTLS turns a wallet's contents into trusted roots (every
// certificate, as Oracle's clients and go-ora trust them; nil, the system
// roots, for a wallet of credentials only) and client certificates (each
// certificate whose public key has a private key in the wallet).
func walletTLS(certs, keys [][]byte) (*x509.CertPool, []tls.Certificate, error) {
	var roots *x509.CertPool
	if len(certs) > 0 {
		roots = x509.NewCertPool()
	}
	var parsed []*x509.Certificate
	for _, der := range certs {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, nil, fmt.Errorf("a certificate cannot be read: %w", err)
		}
		roots.AddCert(c)
		parsed = append(parsed, c)
	}
	var signers []crypto.Signer
	for _, der := range keys {
		k, err := parseKey(der)
		if err != nil {
			return nil, nil, err
		}
		signers = append(signers, k)
	}
	var out []tls.Certificate
	for i, c := range parsed {
		for _, k := range signers {
			if samePublicKey(c.PublicKey, k.Public()) {
				out = append(out, tls.Certificate{Certificate: [][]byte{certs[i]}, PrivateKey: k, Leaf: c})
			}
		}
	}
	return roots, out, nil
}

// parseKey reads a wallet key: go-ora hands out the key of a PKCS#8 key
// bag, PKCS#1 for RSA; SEC 1 and PKCS#8 are accepted too.
func parseKey(der []byte) (crypto.Signer, error) {
	if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return k, nil
	}
	if k, err := x509.ParseECPrivateKey(der); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, errors.New("a private key is neither PKCS#1, SEC 1 nor PKCS#8")
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("a private key of type %T cannot sign", k)
	}
	return s, nil
}

func samePublicKey(a, b crypto.PublicKey) bool {
	type equaler interface{ Equal(crypto.PublicKey) bool }
	switch k := a.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey:
		return k.(equaler).Equal(b)
	}
	ab, err1 := x509.MarshalPKIXPublicKey(a)
	bb, err2 := x509.MarshalPKIXPublicKey(b)
	return err1 == nil && err2 == nil && bytes.Equal(ab, bb)
}
