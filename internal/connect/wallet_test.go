package connect

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// This file builds, in the test, what an Oracle wallet holds: a PKCS#12
// store (certificates in cert bags, keys in key bags, the whole encrypted
// with PBES2: PBKDF2-HMAC-SHA256 and AES-256-CBC), as ewallet.p12 or
// wrapped in cwallet.sso's auto-login header, in the layout go-ora v2.9.0
// reads (configurations/wallet.go:51-156, 159-296, 298-475). Nothing here
// is an Oracle tool's output; what a real orapki wallet holds beyond this
// (shrouded key bags, other ciphers) is go-ora's reader's business.

var (
	oidData          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidEncryptedData = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 6}
	oidKeyBag        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 1}
	oidCertBag       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 3}
	oidX509Cert      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 22, 1}
	oidRSA           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidPBES2         = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidHMACSHA256    = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}
	oidAES256CBC     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
)

func mustDER(t *testing.T, v any) []byte {
	t.Helper()
	b, err := asn1.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// explicit0 is [0] EXPLICIT around one DER element.
func explicit0(inner []byte) asn1.RawValue {
	return asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: inner}
}

type algorithmID struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

type safeBag struct {
	ID    asn1.ObjectIdentifier
	Value asn1.RawValue
}

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue
}

// pkcs12 returns a PKCS#12 store holding certs and RSA keys, encrypted
// with password.
func pkcs12(t *testing.T, password []byte, certs [][]byte, keys []*rsa.PrivateKey) []byte {
	t.Helper()
	var bags []safeBag
	for _, k := range keys {
		info := mustDER(t, struct {
			Version int
			Alg     algorithmID
			Key     []byte
		}{0, algorithmID{Algorithm: oidRSA, Parameters: asn1.NullRawValue}, x509.MarshalPKCS1PrivateKey(k)})
		bags = append(bags, safeBag{oidKeyBag, explicit0(info)})
	}
	for _, c := range certs {
		bag := mustDER(t, struct {
			ID    asn1.ObjectIdentifier
			Value asn1.RawValue
		}{oidX509Cert, explicit0(mustDER(t, c))})
		bags = append(bags, safeBag{oidCertBag, explicit0(bag)})
	}
	plain := mustDER(t, bags)

	salt, iv := make([]byte, 16), make([]byte, 16)
	rand.Read(salt)
	rand.Read(iv)
	const iterations = 1000
	key, err := pbkdf2.Key(sha256.New, string(password), salt, iterations, 32)
	if err != nil {
		t.Fatal(err)
	}
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	for i := 0; i < pad; i++ {
		plain = append(plain, byte(pad))
	}
	blk, _ := aes.NewCipher(key)
	enc := make([]byte, len(plain))
	cipher.NewCBCEncrypter(blk, iv).CryptBlocks(enc, plain)

	kdf := mustDER(t, struct {
		Salt       []byte
		Iterations int
		Prf        algorithmID
	}{salt, iterations, algorithmID{Algorithm: oidHMACSHA256, Parameters: asn1.NullRawValue}})
	pbes2 := mustDER(t, struct {
		KDF    algorithmID
		Scheme algorithmID
	}{algorithmID{oidPBKDF2, asn1.RawValue{FullBytes: kdf}}, algorithmID{oidAES256CBC, asn1.RawValue{FullBytes: mustDER(t, iv)}}})
	encData := mustDER(t, struct {
		Version int
		Info    struct {
			ContentType asn1.ObjectIdentifier
			Alg         algorithmID
			Content     []byte `asn1:"tag:0"`
		}
	}{0, struct {
		ContentType asn1.ObjectIdentifier
		Alg         algorithmID
		Content     []byte `asn1:"tag:0"`
	}{oidData, algorithmID{oidPBES2, asn1.RawValue{FullBytes: pbes2}}, enc}})
	authSafe := mustDER(t, []contentInfo{{oidEncryptedData, explicit0(encData)}})
	return mustDER(t, struct {
		Version  int
		AuthSafe contentInfo
	}{3, contentInfo{oidData, explicit0(mustDER(t, authSafe))}})
}

// ssoKey and ssoIV: cwallet.sso carries the store's password encrypted
// with a key written next to it and this fixed IV (go-ora wallet.go:84-91).
var ssoIV = []byte{192, 52, 216, 49, 28, 2, 206, 248, 81, 240, 20, 75, 129, 237, 75, 242}

// writeSSO writes dir/cwallet.sso: the auto-login header, then the store.
func writeSSO(t *testing.T, dir string, certs [][]byte, keys []*rsa.PrivateKey) {
	t.Helper()
	password := []byte("autologin-secret") // 16 bytes: one AES block, no padding
	key := make([]byte, 16)
	rand.Read(key)
	blk, _ := aes.NewCipher(key)
	encPW := make([]byte, len(password))
	cipher.NewCBCEncrypter(blk, ssoIV).CryptBlocks(encPW, password)
	var b []byte
	b = append(b, 161, 248, 78, 54)
	b = binary.BigEndian.AppendUint32(b, 6)
	b = binary.BigEndian.AppendUint32(b, uint32(1+len(key)+len(encPW)))
	b = append(b, 6)
	b = append(b, key...)
	b = append(b, encPW...)
	b = append(b, pkcs12(t, password, certs, keys)...)
	writeFile(t, filepath.Join(dir, "cwallet.sso"), b)
}

// writeP12 writes dir/ewallet.p12, opened with password.
func writeP12(t *testing.T, dir, password string, certs [][]byte, keys []*rsa.PrivateKey) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "ewallet.p12"), pkcs12(t, []byte(password), certs, keys))
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// pki is a test certificate authority for servers, another for clients,
// and a client certificate, made once per test binary.
type pki struct {
	serverCA, clientCA *x509.Certificate
	serverCAKey        *rsa.PrivateKey
	clientCAKey        *rsa.PrivateKey
	clientCert         []byte // DER, CN=loader, issued by clientCA
	clientKey          *rsa.PrivateKey
}

var (
	testPKIOnce sync.Once
	testPKI     *pki
	testPKIErr  error
)

func getPKI(t *testing.T) *pki {
	t.Helper()
	testPKIOnce.Do(func() { testPKI, testPKIErr = newPKI() })
	if testPKIErr != nil {
		t.Fatal(testPKIErr)
	}
	return testPKI
}

func newPKI() (*pki, error) {
	p := &pki{}
	var err error
	if p.serverCA, p.serverCAKey, err = makeCA("Test Server CA"); err != nil {
		return nil, err
	}
	if p.clientCA, p.clientCAKey, err = makeCA("Test Client CA"); err != nil {
		return nil, err
	}
	if p.clientKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(3), Subject: pkix.Name{CommonName: "loader", Organization: []string{"Test"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	p.clientCert, err = x509.CreateCertificate(rand.Reader, tmpl, p.clientCA, &p.clientKey.PublicKey, p.clientCAKey)
	return p, err
}

func makeCA(name string) (*x509.Certificate, *rsa.PrivateKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name, Organization: []string{"Test"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	c, err := x509.ParseCertificate(der)
	return c, key, err
}

// serverCert issues a server certificate with subject, DNS and IP SANs.
func (p *pki) serverCert(t *testing.T, subject pkix.Name, dns []string, ips []net.IP) ([]byte, *rsa.PrivateKey) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: subject, DNSNames: dns, IPAddresses: ips,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.serverCA, &key.PublicKey, p.serverCAKey)
	if err != nil {
		t.Fatal(err)
	}
	return der, key
}

func asn1Marshal(v any) ([]byte, error)             { return asn1.Marshal(v) }
func asn1Unmarshal(b []byte, v any) ([]byte, error) { return asn1.Unmarshal(b, v) }
